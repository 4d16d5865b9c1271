package recall

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/embed"
)

func TestRetrieveTakesListsApart(t *testing.T) {
	cat := twnm.Catalog{Name: "travel", APIs: []twnm.API{
		{Name: "FlightSearch", Description: "Search flight options to a destination on given travel dates.",
			Inputs: []twnm.Param{{Name: "destination", Type: "string", Required: true}}},
		{Name: "HotelAvailability", Description: "Check hotel availability at a destination.",
			Inputs: []twnm.Param{{Name: "destination", Type: "string", Required: true}}},
		{Name: "MovieDetails", Description: "The title, year and rating of a movie.",
			Inputs: []twnm.Param{{Name: "movie", Type: "string", Required: true}}},
		{Name: "Weather", Description: "Current weather in a city."},
		{Name: "NewsHeadlines", Description: "Latest news headlines for a city."},
		{Name: "TrafficStatus", Description: "Current road traffic in a city."},
	}}
	g, err := twnm.Build(context.Background(), cat, twnm.BuildOptions{Embedder: embed.Default()})
	require.NoError(t, err)
	mem, err := NewMemory(g, MemoryOptions{})
	require.NoError(t, err)
	tests := []struct {
		request string
		want    []string // the clause goals' texts
	}{
		// Two tools, one for each item: two parts, the destination qualifying both.
		{"Retrieve flight options and hotel availability for a given destination.",
			[]string{"Retrieve flight options for a given destination", "Retrieve hotel availability for a given destination"}},
		// One tool serves both items: one clause.
		{"Find the title and the year of a movie.", []string{"Find the title and the year of a movie"}},
		// Three things in a comma list, asked for without a verb: three parts, the city
		// qualifying each.
		{"I need to know the news, the weather, and the traffic for Rome.",
			[]string{"the news for Rome", "the weather for Rome", "the traffic for Rome"}},
	}
	for _, tt := range tests {
		t.Run(tt.request, func(t *testing.T) {
			r, err := Retrieve(context.Background(), mem, nil, tt.request, Options{Ranker: Lexical})
			require.NoError(t, err)
			var texts []string
			for _, g := range r.Clauses() {
				texts = append(texts, g.Text)
			}
			assert.Equal(t, tt.want, texts)
		})
	}
}

func TestTakeApart(t *testing.T) {
	clause := func(names ...string) Goal {
		g := Goal{}
		for _, n := range names {
			g.Candidates = append(g.Candidates, Candidate{Name: n})
		}
		return g
	}
	tests := []struct {
		name   string
		clause Goal
		items  []Goal
		want   bool
	}{
		{"two items, both bests among the clause's first 3", clause("A", "X", "B"), []Goal{clause("A"), clause("B")}, true},
		{"two items, one best 4th", clause("A", "X", "Y", "B"), []Goal{clause("A"), clause("B")}, false},
		{"two items, one tool", clause("A", "B"), []Goal{clause("A", "B"), clause("A")}, false},
		{"three items, all among the first 5", clause("A", "X", "B", "Y", "C"), []Goal{clause("A"), clause("B"), clause("C")}, true},
		{"three items, one best 6th", clause("A", "X", "B", "Y", "Z", "C"), []Goal{clause("A"), clause("B"), clause("C")}, false},
		{"an item that finds nothing", clause("A", "B"), []Goal{clause("A"), clause()}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, takeApart(tt.clause, tt.items))
		})
	}
}
