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
