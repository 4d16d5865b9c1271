package recall

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/embed"
	"github.com/naviagent/navi/twnm/subgoal"
)

// memoryOf is the in-memory source of cat's graph.
func memoryOf(t *testing.T, cat twnm.Catalog) *Memory {
	t.Helper()
	g, err := twnm.Build(context.Background(), cat, twnm.BuildOptions{Embedder: embed.Default()})
	require.NoError(t, err)
	mem, err := NewMemory(g, MemoryOptions{})
	require.NoError(t, err)
	return mem
}

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
	mem := memoryOf(t, cat)
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

// Memory's hits carry their APIs' providers, lexical and dense alike, and so do the fused
// candidates.
func TestMemoryHitsCarryProviders(t *testing.T) {
	cat := twnm.Catalog{Name: "svc", APIs: []twnm.API{
		{Name: "Forecast", Provider: "meteo", Description: "Weather forecast for a city."},
		{Name: "Menu", Provider: "dine", Description: "The menu of a restaurant."},
		{Name: "Plain", Description: "A weather tool of no provider."},
	}}
	g, err := twnm.Build(context.Background(), cat, twnm.BuildOptions{Embedder: embed.Default(), APIEmbedder: embed.Default()})
	require.NoError(t, err)
	mem, err := NewMemory(g, MemoryOptions{})
	require.NoError(t, err)
	want := map[string]string{"Forecast": "meteo", "Menu": "dine", "Plain": ""}
	lex, err := mem.Lexical(context.Background(), "weather forecast restaurant menu", 10)
	require.NoError(t, err)
	vecs, err := embed.Default().Embed(context.Background(), []string{"weather forecast"})
	require.NoError(t, err)
	dense, err := mem.Dense(context.Background(), vecs[0], 10)
	require.NoError(t, err)
	require.Len(t, lex, 3)
	require.Len(t, dense, 3)
	for _, h := range append(lex, dense...) {
		assert.Equal(t, want[h.Name], h.Provider, h.Name)
	}
	for _, c := range Fuse(lex, dense, .5) {
		assert.Equal(t, want[c.Name], c.Provider, c.Name)
	}
}

func TestResultWithout(t *testing.T) {
	focus := goal(1, false, Match{Name: "A", Score: 1}, Match{Name: "C", Score: .5})
	r := &Result{Goals: []Goal{
		goal(0, false, Match{Name: "A", Score: 1}, Match{Name: "B", Score: .8}),
		goal(1, true, Match{Name: "B", Score: 1}, Match{Name: "A", Score: .9}, Match{Name: "C", Score: .2}),
	}, Focus: &focus}
	r.Without(map[string]bool{"A": true})
	names := func(g Goal) []string {
		var out []string
		for _, c := range g.Candidates {
			out = append(out, c.Name)
		}
		return out
	}
	assert.Equal(t, []string{"B"}, names(r.Goals[0]))
	assert.InDelta(t, .8, r.Goals[0].Candidates[0].Score, 1e-12, "the others keep their scores")
	assert.Equal(t, []string{"B", "C"}, names(r.Goals[1]))
	assert.Equal(t, []string{"C"}, names(*r.Focus))
	assert.NotContains(t, r.Relevance(), "A")
}

func TestRetrieveConfirmsTentativeClauses(t *testing.T) {
	cat := twnm.Catalog{Name: "office", APIs: []twnm.API{
		{Name: "QueryMeeting", Description: "Query the meetings of a user.",
			Inputs: []twnm.Param{{Name: "user_name", Type: "string", Required: true}}},
		{Name: "EmailReminder", Description: "Send an email reminder about a meeting to an address.",
			Inputs: []twnm.Param{{Name: "email", Type: "string", Required: true}}},
		{Name: "Weather", Description: "Current weather in a city."},
	}}
	mem := memoryOf(t, cat)
	tests := []struct {
		request string
		want    []string // the clause goals' texts after retrieval
	}{
		// "Query meeting of John" shows no verb by its form; the catalog's QueryMeeting, named
		// by the clause's first word, says it asks for a tool.
		{"Query meeting of John and send email reminder to john@example.com.",
			[]string{"Query meeting of John", "send email reminder to john@example.com"}},
		// A context sentence no tool is relevant to goes.
		{"Bananas and apples for breakfast. Send an email reminder to john@example.com.",
			[]string{"Send an email reminder to john@example.com"}},
	}
	for _, tt := range tests {
		t.Run(tt.request, func(t *testing.T) {
			require.True(t, slices.ContainsFunc(subgoal.Split(tt.request), func(g subgoal.Goal) bool { return g.Tentative }),
				"Split(%q) marks a clause tentative", tt.request)
			r, err := Retrieve(context.Background(), mem, embed.Default(), tt.request, Options{})
			require.NoError(t, err)
			var got []string
			for _, c := range r.Clauses() {
				got = append(got, c.Text)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// A clause that refers back with a pronoun is ranked by what the pronoun stands for, and keeps
// the user's words.
func TestRetrieveRanksAPronounByWhatItStandsFor(t *testing.T) {
	cat := twnm.Catalog{Name: "stay", APIs: []twnm.API{
		{Name: "SearchHotels", Description: "Finds the best hotel in a city."},
		{Name: "HotelLocation", Description: "Where a hotel is: its address and coordinates."},
		{Name: "Weather", Description: "Current weather in a city."},
	}}
	mem := memoryOf(t, cat)
	r, err := Retrieve(context.Background(), mem, nil, "How many stars does the best hotel in Lisbon have, and where is it exactly?", Options{Ranker: Lexical})
	require.NoError(t, err)
	clauses := r.Clauses()
	require.Len(t, clauses, 2)
	assert.Equal(t, "where is it exactly", clauses[1].Text)
	assert.Equal(t, "where is the hotel exactly", clauses[1].Resolved)
	require.NotEmpty(t, clauses[1].Candidates)
	assert.Equal(t, "HotelLocation", clauses[1].Candidates[0].Name, "alone, the clause shares no word with any tool")
}
