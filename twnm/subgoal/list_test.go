package subgoal

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSplitList(t *testing.T) {
	tests := []struct {
		name, clause string
		want         []string // nil: not split
	}{
		{"two things under one verb, the place qualifying both", "Retrieve flight options and hotel availability for Los Angeles",
			[]string{"Retrieve flight options for Los Angeles", "Retrieve hotel availability for Los Angeles"}},
		{"no qualifier", "get the clips and the comments", []string{"get the clips", "get the comments"}},
		{"names, not things", "find movies with Tom Hanks and Meg Ryan", nil},
		{"a route", "find flights between Paris and Lyon", nil},
		{"a range", "list hotels with 3 and 4 stars", nil},
		{"no request verb: the place qualifying both", "Tomorrow's forecast and the pollen levels in Paris",
			[]string{"Tomorrow's forecast in Paris", "the pollen levels in Paris"}},
		{"no request verb, no qualifier", "the weather and the news", []string{"the weather", "the news"}},
		{"no request verb, names", "concerts of Simon and Garfunkel", nil},
		{"no request verb, a bare noun sharing the first item's determiner", "John's personal information and address", nil},
		{"nothing before and", "get and compare prices", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			goals := Split(tt.clause)
			require.Len(t, goals, 2, "one clause and the whole request")
			got, ok := SplitList(goals, 0)
			if tt.want == nil {
				assert.False(t, ok)
				assert.Equal(t, goals, got)
				return
			}
			require.True(t, ok)
			require.Len(t, got, 3)
			assert.Equal(t, tt.want, []string{got[0].Text, got[1].Text})
			for i, g := range got {
				assert.Equal(t, i, g.Order)
				assert.Equal(t, i, g.Rank)
			}
			assert.True(t, got[2].Whole)
		})
	}
	// A verb after "and" starts a clause of its own: Split's business, not a list.
	_, _, ok := listParts("find the hotel and send it")
	assert.False(t, ok)

	// The parts state their own values; the whole request is never split.
	goals := Split("Retrieve flight options and hotel availability for Los Angeles")
	got, _ := SplitList(goals, 0)
	assert.Equal(t, []string{"Los Angeles"}, got[1].Values)
	_, ok = SplitList(goals, 1)
	assert.False(t, ok)
	_, ok = SplitList(goals, 5)
	assert.False(t, ok)
}
