package retrieval

import (
	"time"

	"github.com/naviagent/navi/twnm/extract"

	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/embed"
	"github.com/naviagent/navi/twnm/recall"
	"github.com/naviagent/navi/twnm/subgoal"
)

// A part of a compound request that states no value takes another part's value for an input
// of the same parameter node as the one that value fills there, and for no other input.
func TestPartKnownBorrows(t *testing.T) {
	ctx := context.Background()
	city := twnm.Param{Name: "city", Type: "string", Required: true, Description: "the name of a city"}
	lat := twnm.Param{Name: "latitude", Type: "number", Required: true, Description: "latitude in degrees"}
	lon := twnm.Param{Name: "longitude", Type: "number", Required: true, Description: "longitude in degrees"}
	cat := twnm.Catalog{Name: "parts", APIs: []twnm.API{
		{Name: "geo.Geocode", Provider: "geo", Description: "Coordinates of a city.", Inputs: []twnm.Param{city}, Outputs: []twnm.Param{lat, lon}},
		{Name: "weather.Current", Provider: "weather", Description: "Current weather at a point.", Inputs: []twnm.Param{lat, lon},
			Outputs: []twnm.Param{{Name: "temperature", Type: "number"}}},
		{Name: "stay.SearchHotels", Provider: "stay", Description: "The best hotels in a city.", Inputs: []twnm.Param{city},
			Outputs: []twnm.Param{{Name: "hotel_id", Type: "string"}}},
		{Name: "sports.SearchTeam", Provider: "sports", Description: "A football team by name.",
			Inputs:  []twnm.Param{{Name: "team_name", Type: "string", Required: true, Description: "the team's name"}},
			Outputs: []twnm.Param{{Name: "team_id", Type: "string"}}},
	}}
	g, err := twnm.Build(ctx, cat, twnm.BuildOptions{Embedder: embed.Default()})
	require.NoError(t, err)
	sl := slots(g)
	part := func(other, otherBest, final string) map[string]string {
		t.Helper()
		found := &recall.Result{Goals: []recall.Goal{
			{Goal: subgoal.Goal{Text: other}, Candidates: []recall.Match{{Name: otherBest, Score: 1}}},
			{Goal: subgoal.Goal{Text: final}},
		}}
		j := joinParts{g: g, found: found, slots: sl}
		known := extract.Values(other+", and "+final, sl)
		return partKnown(known, nil, final, []string{other, final}, sl, time.Time{}, j.borrower())
	}
	// "there" is Lisbon: the weather's geocoder takes it as a city, and the hotel search's
	// input is a city too.
	got := part("What's the weather in Lisbon right now", "weather.Current", "what hotels are there")
	assert.Equal(t, "Lisbon", got["stay.SearchHotels.city"])
	assert.Empty(t, got["sports.SearchTeam.team_name"], "a team is not a city")

	// A part that states a value of its own borrows none: Singapore's time zone is geocoded
	// from Singapore, not read at the other part's coordinates.
	got = part("What is the air quality at latitude 1.3521, longitude 103.8198", "weather.Current", "what time zone applies at the centre of Singapore")
	assert.Empty(t, got["weather.Current.latitude"])

	// Rome is the hotels' city, never the team of the other part.
	got = part("Find hotels in Rome", "stay.SearchHotels", "show me the next fixtures of my team")
	assert.Empty(t, got["sports.SearchTeam.team_name"])

	// Without borrowing, a part keeps none of the other part's values.
	known := extract.Values("What's the weather in Lisbon right now, and what hotels are there", sl)
	assert.Empty(t, partKnown(known, nil, "what hotels are there", []string{"What's the weather in Lisbon right now", "what hotels are there"}, sl, time.Time{}, nil))
}

// A part whose API did not join the plan is unplanned where it asks for something and no API
// of the plan answers it: a statement of what the request is about asks nothing, and a part
// whose words name an output of the plan is answered.
func TestUnplanned(t *testing.T) {
	g, err := twnm.Build(context.Background(), twnm.Catalog{Name: "parts", APIs: []twnm.API{
		{Name: "homes.Agent", Provider: "homes", Description: "Contact details of an estate agent.",
			Inputs:  []twnm.Param{{Name: "agent_id", Type: "string", Required: true}},
			Outputs: []twnm.Param{{Name: "agent_name", Type: "string"}, {Name: "phone", Type: "string"}}},
		{Name: "weather.Current", Provider: "weather", Description: "Current weather at a point.",
			Inputs:  []twnm.Param{{Name: "city", Type: "string", Required: true}},
			Outputs: []twnm.Param{{Name: "temperature", Type: "number"}}},
		{Name: "tv.Details", Provider: "tv", Description: "Details of a TV series.",
			Inputs:  []twnm.Param{{Name: "series_id", Type: "string", Required: true}},
			Outputs: []twnm.Param{{Name: "overview", Type: "string"}}},
	}}, twnm.BuildOptions{Embedder: embed.Default()})
	require.NoError(t, err)
	links := recall.GraphLinks{G: g}
	parts := recall.Parts{Own: "who is the estate agent", Branches: []recall.Branch{
		{API: "weather.Current", Clause: "How cold is it in Oslo right now"},
		{API: "tv.Details", Clause: "I'm watching the series Dark", Tentative: true},
		{API: "weather.Current", Clause: "what is their phone number"},
	}}
	assert.Equal(t, []string{"How cold is it in Oslo right now"}, unplanned(parts, nil, links, []string{"homes.Agent"}))
	assert.Empty(t, unplanned(parts, []string{"weather.Current"}, links, []string{"homes.Agent", "weather.Current"}), "joined")
}

// A point a plan asks for may be stated as the place it is of: the most relevant producer that
// gives every missing input and takes only words a person knows offers its inputs; one that
// takes an identifier does not.
func TestInstead(t *testing.T) {
	ctx := context.Background()
	num := func(name string) twnm.Param {
		return twnm.Param{Name: name, Type: "number", Required: true, Description: name + " in degrees"}
	}
	out := func(name string) twnm.Param {
		return twnm.Param{Name: name, Type: "number", Description: name + " in degrees"}
	}
	cat := twnm.Catalog{Name: "instead", APIs: []twnm.API{
		{Name: "geo.Geocode", Provider: "geo", Description: "Coordinates of a city.",
			Inputs:  []twnm.Param{{Name: "city", Type: "string", Required: true, Description: "Name of the city."}},
			Outputs: []twnm.Param{out("latitude"), out("longitude")}},
		{Name: "stay.HotelDetails", Provider: "stay", Description: "Details of a hotel.",
			Inputs:  []twnm.Param{{Name: "hotel_id", Type: "string", Required: true, Description: "Id of the hotel."}},
			Outputs: []twnm.Param{out("latitude"), out("longitude")}},
		{Name: "weather.Current", Provider: "weather", Description: "Current weather at a point.",
			Inputs: []twnm.Param{num("latitude"), num("longitude")}, Outputs: []twnm.Param{{Name: "temperature", Type: "number"}}},
	}}
	g, err := twnm.Build(ctx, cat, twnm.BuildOptions{Embedder: embed.Default()})
	require.NoError(t, err)
	missing := func(api string, params ...string) twnm.Step {
		st := twnm.Step{API: api}
		for _, p := range params {
			st.Bindings = append(st.Bindings, twnm.Binding{Param: p, Required: true, Source: twnm.SupplyMissing})
		}
		return st
	}
	p := twnm.Plan{Target: "weather.Current", Steps: []twnm.Step{missing("weather.Current", "latitude", "longitude")}}
	relevance := map[string]float64{"weather.Current": 1, "stay.HotelDetails": 0.9, "geo.Geocode": 0.5}
	got := instead(g, p, nil, relevance)
	require.Len(t, got, 1)
	assert.Equal(t, []string{"weather.Current.latitude", "weather.Current.longitude"}, got[0].For)
	require.Len(t, got[0].Inputs, 1)
	assert.Equal(t, "city", got[0].Inputs[0].Name, "the hotel's details need an id nobody states")

	id, _ := g.APIByName("geo.Geocode")
	assert.Empty(t, instead(g, p, map[twnm.NodeID]bool{id: true}, relevance), "an excluded geocoder offers nothing")
	p.Steps[0].Bindings[1].Source = twnm.SupplyGiven
	assert.Equal(t, []string{"weather.Current.latitude"}, instead(g, p, nil, relevance)[0].For)
}
