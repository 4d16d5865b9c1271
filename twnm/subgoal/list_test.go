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
		{"nothing before and", "get and compare prices", nil},
		{"a comma list, the qualifier for every item", "get the calendar events, cash flow statements, and recommendation trends for Apple Inc.",
			[]string{"get the calendar events for Apple Inc.", "get cash flow statements for Apple Inc.", "get recommendation trends for Apple Inc."}},
		{"no request verb: a list of noun phrases", "the weather and the news", []string{"the weather", "the news"}},
		{"as well as", "the corresponding RGB color code as well as the CMYK code",
			[]string{"the corresponding RGB color code", "the CMYK code"}},
		{"a comma before a name separates nothing", "find hotels near Paris, France and flights",
			[]string{"find hotels near Paris, France", "find flights"}},
		{"the parts of one thing", "fetch the details of my order, including the order status and delivery date", nil},
		{"examples of one thing", "give the basic information, such as the genre and the runtime", nil},
		{"a comma without a list", "provide the images, please", nil},
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
			require.Len(t, got, len(tt.want)+1)
			var texts []string
			for i, g := range got[:len(tt.want)] {
				texts = append(texts, g.Text)
				assert.Equal(t, i, g.Order)
				assert.Equal(t, i, g.Rank)
			}
			assert.Equal(t, tt.want, texts)
			assert.True(t, got[len(tt.want)].Whole)
			assert.Equal(t, len(tt.want), got[len(tt.want)].Rank)
		})
	}
	// A verb after "and" starts a clause of its own: Split's business, not a list.
	_, ok := listItems("find the hotel and send it")
	assert.False(t, ok)

	// The parts state their own values; the whole request is never split.
	goals := Split("Retrieve flight options and hotel availability for Los Angeles")
	got, _ := SplitList(goals, 0)
	assert.Equal(t, []string{"Los Angeles"}, got[1].Values)
	_, ok = SplitList(goals, 1)
	assert.False(t, ok)
	_, ok = SplitList(goals, 5)
	assert.False(t, ok)

	// The goals after a list of three move two places down, in order and in rank.
	goals = Split("Get the news, the weather, and the traffic for Rome. Then book a taxi.")
	require.Len(t, goals, 3)
	got, ok = SplitList(goals, 0)
	require.True(t, ok)
	require.Len(t, got, 5)
	assert.Equal(t, "book a taxi", got[3].Text)
	assert.Equal(t, []int{3, 3}, []int{got[3].Order, got[3].Rank})
	assert.Equal(t, []int{4, 4}, []int{got[4].Order, got[4].Rank})
	assert.True(t, got[4].Whole)
}
