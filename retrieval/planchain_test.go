package retrieval_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/retrieval"
	"github.com/naviagent/navi/toolspec"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/embed"
	"github.com/naviagent/navi/twnm/recall"
	"github.com/naviagent/navi/twnm/subgoal"
)

// PlanChain plans from the final step with the values the request states, reaching an API
// that creates something only where retrieval's chain holds it.
func TestPlanChain(t *testing.T) {
	ctx := context.Background()
	city := twnm.Param{Name: "city", Type: "string", Required: true, Description: "the name of a city"}
	lat := twnm.Param{Name: "latitude", Type: "number", Description: "latitude in degrees"}
	lon := twnm.Param{Name: "longitude", Type: "number", Description: "longitude in degrees"}
	req := func(p twnm.Param) twnm.Param { p.Required = true; return p }
	cat := twnm.Catalog{Name: "plan", APIs: []twnm.API{
		{Name: "Geocode", Description: "Coordinates of a city.", Inputs: []twnm.Param{city}, Outputs: []twnm.Param{lat, lon}},
		{Name: "RegisterPlace", Description: "Register a new place by its city; returns its coordinates.",
			Inputs: []twnm.Param{city}, Outputs: []twnm.Param{lat, lon}},
		{Name: "Weather", Description: "Current weather at coordinates.", Inputs: []twnm.Param{req(lat), req(lon)},
			Outputs: []twnm.Param{{Name: "temperature", Type: "number"}}},
	}}
	g, err := twnm.Build(ctx, cat, twnm.BuildOptions{Embedder: embed.Default()})
	require.NoError(t, err)
	const text = "What is the weather in Paris?"
	// The registration is the more relevant producer, but it writes: not unless chosen.
	relevance := map[string]float64{"RegisterPlace": 1, "Geocode": .1, "Weather": 1}
	found := func(final string, chain ...string) *recall.Result {
		return &recall.Result{Final: final, Chain: chain, Goals: []recall.Goal{{Goal: subgoal.Goal{Text: text, Whole: true}, Relevant: true}}}
	}
	plan, err := retrieval.PlanChain(ctx, g, twnm.DefaultAlphaBeta(), found("Weather", "Weather"), relevance, text, recall.Options{}, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"Geocode", "Weather"}, plan)

	plan, err = retrieval.PlanChain(ctx, g, twnm.DefaultAlphaBeta(), found("Weather", "RegisterPlace", "Weather"), relevance, text, recall.Options{}, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"RegisterPlace", "Weather"}, plan, "retrieval chose it")

	// Planned on what the agent read: an API outside the read is no producer.
	plan, err = retrieval.PlanChain(ctx, g, twnm.DefaultAlphaBeta(), found("Weather", "RegisterPlace", "Weather"), relevance, text, recall.Options{},
		map[string]bool{"Weather": true, "Geocode": true})
	require.NoError(t, err)
	assert.Equal(t, []string{"Geocode", "Weather"}, plan, "RegisterPlace was not read")
	plan, err = retrieval.PlanChain(ctx, g, twnm.DefaultAlphaBeta(), found("Weather", "Weather"), relevance, text, recall.Options{},
		map[string]bool{"Weather": true})
	require.NoError(t, err)
	assert.Equal(t, []string{"Weather"}, plan, "no producer was read: the coordinates are left to ask for")

	plan, err = retrieval.PlanChain(ctx, g, twnm.DefaultAlphaBeta(), found("Forecast"), relevance, text, recall.Options{}, nil)
	require.NoError(t, err)
	assert.Nil(t, plan, "a final step the graph lacks")

	// What Retrieve offers no chain for is planned by none: a request under the relevance
	// floor, and a final step that writes where the request asks to read.
	under := found("Weather", "Weather")
	under.Goals[0].Relevant = false
	plan, err = retrieval.PlanChain(ctx, g, twnm.DefaultAlphaBeta(), under, relevance, text, recall.Options{}, nil)
	require.NoError(t, err)
	assert.Nil(t, plan, "no tool serves the request")
	write := twnm.API{Name: "DeletePlace", Description: "Delete a place.", Endpoint: &twnm.Endpoint{Method: "DELETE", Path: "/places"},
		Inputs: []twnm.Param{city}, Outputs: []twnm.Param{{Name: "deleted", Type: "boolean"}}}
	require.NoError(t, g.Integrate(ctx, write))
	plan, err = retrieval.PlanChain(ctx, g, twnm.DefaultAlphaBeta(), found("DeletePlace", "DeletePlace"), relevance, text, recall.Options{}, nil)
	require.NoError(t, err)
	assert.Nil(t, plan, "a question is not answered by a deletion")

	// A final step hardly like the request in meaning shares a word with it, not its
	// subject: no plan. One at the floor, or one only BM25 found, has its plan.
	for _, c := range []struct {
		dense float64
		plan  []string
	}{{0.09, nil}, {-0.2, nil}, {0.1, []string{"Geocode", "Weather"}}, {0, []string{"Geocode", "Weather"}}} {
		unlike := found("Weather", "Weather")
		unlike.Goals[0].Candidates = []recall.Match{{Name: "Weather", Score: 1, Lexical: 2, Dense: c.dense}}
		plan, err = retrieval.PlanChain(ctx, g, twnm.DefaultAlphaBeta(), unlike, relevance, text, recall.Options{}, nil)
		require.NoError(t, err)
		assert.Equal(t, c.plan, plan, "similarity %v", c.dense)
	}
}

// A clock (today's date, no input) is no producer: a day the request does not state is
// asked for, not taken as today.
func TestPlanChainNoClock(t *testing.T) {
	ctx := context.Background()
	date := twnm.Param{Name: "date", Type: "str", Required: true, Description: "The date. Format: %Y-%m-%d"}
	cat := twnm.Catalog{Name: "clock", APIs: []twnm.API{
		{Name: "GetToday", Description: "Get today's date.", Outputs: []twnm.Param{{Name: "date", Type: "str", Description: "The current date. Format: %Y-%m-%d"}}},
		{Name: "AddReminder", Description: "Add a reminder on a date.", Endpoint: &twnm.Endpoint{Method: "POST", Path: "/reminders"},
			Inputs:  []twnm.Param{{Name: "content", Type: "str", Required: true, Description: "The content of the reminder."}, date},
			Outputs: []twnm.Param{{Name: "status", Type: "str"}}},
	}}
	g, err := twnm.Build(ctx, cat, twnm.BuildOptions{Embedder: embed.Default()})
	require.NoError(t, err)
	const text = `Add a reminder "Call mom".`
	found := &recall.Result{Final: "AddReminder", Chain: []string{"AddReminder"},
		Goals: []recall.Goal{{Goal: subgoal.Goal{Text: text, Whole: true}, Relevant: true}}}
	plan, err := retrieval.PlanChain(ctx, g, twnm.DefaultAlphaBeta(), found, map[string]float64{"AddReminder": 1, "GetToday": 1}, text, recall.Options{}, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"AddReminder"}, plan)
}

// A request that names the thing whose attribute the final step takes plans through that
// thing's APIs: "the location of the best hotel" is the hotel's, not the city's centre.
func TestPlanChainThroughWhatTheRequestNames(t *testing.T) {
	ctx := context.Background()
	city := twnm.Param{Name: "city", Type: "string", Required: true, Description: "the name of a city"}
	id := twnm.Param{Name: "hotel_id", Type: "string", Required: true, Description: "hotel id from stay.SearchHotels"}
	lat := twnm.Param{Name: "latitude", Type: "number", Description: "latitude in degrees"}
	lon := twnm.Param{Name: "longitude", Type: "number", Description: "longitude in degrees"}
	req := func(p twnm.Param) twnm.Param { p.Required = true; return p }
	cat := twnm.Catalog{Name: "named", APIs: []twnm.API{
		{Name: "geo.Geocode", Provider: "geo", Description: "Coordinates of a city.", Inputs: []twnm.Param{city}, Outputs: []twnm.Param{lat, lon}},
		{Name: "geo.ReverseGeocode", Provider: "geo", Description: "The city at a point.", Inputs: []twnm.Param{req(lat), req(lon)},
			Outputs: []twnm.Param{{Name: "city", Type: "string", Description: "the name of a city"}}},
		{Name: "geo.Elevation", Provider: "geo", Description: "Ground elevation at a point.", Inputs: []twnm.Param{req(lat), req(lon)},
			Outputs: []twnm.Param{{Name: "elevation_m", Type: "number"}}},
		{Name: "stay.SearchHotels", Provider: "stay", Description: "The best hotels in a city.", Inputs: []twnm.Param{city},
			Outputs: []twnm.Param{{Name: "hotel_id", Type: "string"}}},
		{Name: "stay.HotelDetails", Provider: "stay", Description: "A hotel's name, stars and coordinates.", Inputs: []twnm.Param{id},
			Outputs: []twnm.Param{lat, lon}},
		{Name: "stay.Book", Provider: "stay", Description: "Book a room in a hotel for a guest.",
			Inputs:  []twnm.Param{id, {Name: "guest_name", Type: "string", Required: true, Description: "full name of the guest"}},
			Outputs: []twnm.Param{{Name: "booking_id", Type: "string"}}},
	}}
	g, err := twnm.Build(ctx, cat, twnm.BuildOptions{Embedder: embed.Default()})
	require.NoError(t, err)
	tests := []struct {
		text, head string
		want       []string
	}{
		{"What is the ground elevation at the location of the best hotel in Singapore?", "What is the ground elevation",
			[]string{"stay.SearchHotels", "stay.HotelDetails", "geo.Elevation"}},
		{"What is the ground elevation in Singapore?", "What is the ground elevation", []string{"geo.Geocode", "geo.Elevation"}},
		// Without a head, nothing tells what the request asks for from what it names.
		{"What is the ground elevation at the location of the best hotel in Singapore?", "", []string{"geo.Geocode", "geo.Elevation"}},
		// Coordinates stated inside the thing the request names are that thing's (the city's),
		// not the final step's: one stated value, one slot of the chain.
		{"What is the ground elevation at the location of the best hotel in the city at latitude 52.52, longitude 13.405?",
			"What is the ground elevation", []string{"geo.ReverseGeocode", "stay.SearchHotels", "stay.HotelDetails", "geo.Elevation"}},
		{"What is the ground elevation at latitude 52.52, longitude 13.405?", "What is the ground elevation", []string{"geo.Elevation"}},
		{"What is the ground elevation at the location of the best hotel in the city at latitude 52.52, longitude 13.405?",
			"", []string{"geo.Elevation"}},
		// A name stated once fills the guest, not the hotel search's city as well: the city
		// comes from the coordinates, which would otherwise go unused.
		{"Book the best hotel in the city at latitude 52.52, longitude 13.405 for Ada Lovelace.", "Book the best hotel",
			[]string{"geo.ReverseGeocode", "stay.SearchHotels", "stay.Book"}},
		{"Book the best hotel in Rome for Ada Lovelace.", "Book the best hotel", []string{"stay.SearchHotels", "stay.Book"}},
	}
	// Another clause's words name another part of the request, not where this part's point
	// comes from.
	t.Run("another clause", func(t *testing.T) {
		found := &recall.Result{Final: "geo.Elevation", Chain: []string{"geo.Elevation"}, Goals: []recall.Goal{
			{Goal: subgoal.Goal{Text: "Find the best hotel in Singapore"}},
			{Goal: subgoal.Goal{Text: "what is the ground elevation in Singapore"}},
			{Goal: subgoal.Goal{Text: "Find the best hotel in Singapore, and what is the ground elevation in Singapore?", Whole: true}, Relevant: true},
		}, Focus: &recall.Goal{Goal: subgoal.Goal{Text: "what is the ground elevation"}}}
		plan, err := retrieval.PlanChain(ctx, g, twnm.DefaultAlphaBeta(), found, nil, found.Whole().Text, recall.Options{}, nil)
		require.NoError(t, err)
		assert.Equal(t, []string{"geo.Geocode", "geo.Elevation"}, plan)
	})
	for _, tt := range tests {
		t.Run(tt.text+" | "+tt.head, func(t *testing.T) {
			final := tt.want[len(tt.want)-1]
			found := &recall.Result{Final: final, Chain: []string{final},
				Goals: []recall.Goal{{Goal: subgoal.Goal{Text: tt.text, Whole: true}, Relevant: true}}}
			if tt.head != "" {
				found.Focus = &recall.Goal{Goal: subgoal.Goal{Text: tt.head}}
			}
			plan, err := retrieval.PlanChain(ctx, g, twnm.DefaultAlphaBeta(), found, nil, tt.text, recall.Options{}, nil)
			require.NoError(t, err)
			assert.Equal(t, tt.want, plan)
		})
	}
}

// A word that names an input of the final step states that input, not another API named by
// it: "the lyrics of track 98765" gives the lyrics their track id, not the track's lookup.
func TestPlanChainInputNamedByAWord(t *testing.T) {
	trackID := twnm.Param{Name: "track_id", Type: "string", Required: true, Description: "the track's id"}
	artist := twnm.Param{Name: "artistName", Type: "string", Required: true, Description: "the artist's name"}
	cat := twnm.Catalog{Name: "music", APIs: []twnm.API{
		{Name: "tunes.Track", Provider: "tunes", Description: "A track's title, artist and length.",
			Inputs:  []twnm.Param{{Name: "trackId", Type: "string", Required: true, Description: "the track's id"}},
			Outputs: []twnm.Param{{Name: "artistName", Type: "string"}}},
		{Name: "tunes.SearchTracks", Provider: "tunes", Description: "The tracks of an artist.", Inputs: []twnm.Param{artist},
			Outputs: []twnm.Param{{Name: "track_id", Type: "string"}}},
		{Name: "lyrico.Lyrics", Provider: "lyrico", Description: "The lyrics of a track.", Inputs: []twnm.Param{trackID},
			Outputs: []twnm.Param{{Name: "lyrics", Type: "string"}}},
	}}
	plan := planFromHead(t, cat, "first line of the lyrics of track 98765", "first line of the lyrics", "lyrico.Lyrics", nil)
	assert.Equal(t, []string{"lyrico.Lyrics"}, plan)
}

// planFromHead plans, over cat, the chain that ends at final for a request of one clause
// (text) whose head is head, as retrieval would have found it.
func planFromHead(t *testing.T, cat twnm.Catalog, text, head, final string, relevance map[string]float64) []string {
	t.Helper()
	ctx := context.Background()
	g, err := twnm.Build(ctx, cat, twnm.BuildOptions{Embedder: embed.Default()})
	require.NoError(t, err)
	found := &recall.Result{Final: final, Chain: []string{final},
		Goals: []recall.Goal{{Goal: subgoal.Goal{Text: text, Whole: true}, Relevant: true}},
		Focus: &recall.Goal{Goal: subgoal.Goal{Text: head}}}
	plan, err := retrieval.PlanChain(ctx, g, twnm.DefaultAlphaBeta(), found, relevance, text, recall.Options{}, nil)
	require.NoError(t, err)
	return plan
}

// The request names an API when it says every word of its name: "the lead actor of the most
// popular TV show" names the popular TV shows (tv, popular), whose credits give the actor,
// not the popular people, whose name shares one word with it and which would take one call
// less.
func TestPlanChainNamedByEveryWord(t *testing.T) {
	personID := twnm.Param{Name: "person_id", Type: "integer", Required: true}
	tvID := twnm.Param{Name: "tv_id", Type: "integer", Required: true}
	path := func(p string) *twnm.Endpoint { return &twnm.Endpoint{Method: "GET", Path: p} }
	cat := twnm.Catalog{Name: "tmdb", APIs: []twnm.API{
		{Name: "GET_person-person_id-images", Description: "Get the images for a person.", Endpoint: path("/person/{person_id}/images"),
			Inputs: []twnm.Param{personID}, Outputs: []twnm.Param{{Name: "profiles", Type: "array"}}},
		{Name: "GET_person-popular", Description: "Get the list of popular people.", Endpoint: path("/person/popular"),
			Outputs: []twnm.Param{{Name: "id", Type: "integer", Path: "results[].id", Entity: "person"}}},
		{Name: "GET_tv-popular", Description: "Get the list of popular TV shows.", Endpoint: path("/tv/popular"),
			Outputs: []twnm.Param{{Name: "id", Type: "integer", Path: "results[].id", Entity: "tv"}}},
		{Name: "GET_tv-tv_id-credits", Description: "Get the cast and crew of a TV show.", Endpoint: path("/tv/{tv_id}/credits"),
			Inputs: []twnm.Param{tvID}, Outputs: []twnm.Param{{Name: "cast_id", Type: "integer", Path: "cast[].id", Entity: "person"}}},
	}}
	// The credits, more relevant, are tried first: beta waits only for a producer the request
	// names itself, and the popular people's value would otherwise end the search.
	plan := planFromHead(t, cat, "give me a photo of the lead actor of the most popular TV show of this week", "give me a photo",
		"GET_person-person_id-images", map[string]float64{"GET_person-popular": .5, "GET_tv-popular": .5, "GET_tv-tv_id-credits": 1})
	assert.Equal(t, []string{"GET_tv-popular", "GET_tv-tv_id-credits", "GET_person-person_id-images"}, plan)
}

// A city the request names once is geocoded once: the other part reuses the call the plan
// makes, where its own search would geocode the city again with another provider's twin.
func TestPlanChainPartReusesAPlannedCall(t *testing.T) {
	ctx := context.Background()
	num := func(name, desc string, required bool) twnm.Param {
		return twnm.Param{Name: name, Type: "number", Required: required, Description: desc}
	}
	cat := twnm.Catalog{Name: "reuse", APIs: []twnm.API{
		{Name: "geo.Geocode", Provider: "geo", Description: "Coordinates of a city.",
			Inputs:  []twnm.Param{{Name: "city", Type: "string", Required: true, Description: "the name of a city"}},
			Outputs: []twnm.Param{num("latitude", "latitude in degrees", false), num("longitude", "longitude in degrees", false)}},
		{Name: "geo.Timezone", Provider: "geo", Description: "Time zone at a point.",
			Inputs:  []twnm.Param{num("latitude", "latitude in degrees", true), num("longitude", "longitude in degrees", true)},
			Outputs: []twnm.Param{{Name: "timezone", Type: "string", Description: "IANA time zone"}}},
		{Name: "opengeo.Locate", Provider: "opengeo", Description: "Latitude and longitude of a city.",
			Inputs:  []twnm.Param{{Name: "city_name", Type: "string", Required: true, Description: "the name of a city"}},
			Outputs: []twnm.Param{num("lat", "latitude", false), num("lon", "longitude", false)}},
		{Name: "skycast.Now", Provider: "skycast", Description: "Weather now at a latitude and longitude.",
			Inputs:  []twnm.Param{num("lat", "latitude", true), num("lon", "longitude", true)},
			Outputs: []twnm.Param{{Name: "temp_c", Type: "number", Description: "air temperature"}}},
	}}
	g, err := twnm.Build(ctx, cat, twnm.BuildOptions{Embedder: embed.Default()})
	require.NoError(t, err)
	links := recall.GraphLinks{G: g}
	require.True(t, links.Feeds("geo.Geocode", "skycast.Now"), "the plan's geocoder can serve the weather")
	const (
		weather = "What's the weather in Nairobi right now"
		zone    = "what time zone is it in"
		text    = weather + " and " + zone + "?"
	)
	match := func(names ...string) []recall.Match {
		var out []recall.Match
		for i, n := range names {
			out = append(out, recall.Match{Name: n, Score: 1 - 0.1*float64(i), Dense: 0.5})
		}
		return out
	}
	found := &recall.Result{Final: "geo.Timezone", Chain: []string{"geo.Geocode", "geo.Timezone"}, Goals: []recall.Goal{
		{Goal: subgoal.Goal{Text: weather}, Relevant: true, Candidates: match("skycast.Now", "opengeo.Locate")},
		{Goal: subgoal.Goal{Text: zone}, Relevant: true, Candidates: match("geo.Timezone", "geo.Geocode")},
		{Goal: subgoal.Goal{Text: text, Whole: true}, Relevant: true, Candidates: match("geo.Timezone", "skycast.Now", "geo.Geocode", "opengeo.Locate")},
	}}
	relevance := map[string]float64{"geo.Timezone": 1, "skycast.Now": 1, "opengeo.Locate": 0.9, "geo.Geocode": 0.5}
	plan, err := retrieval.PlanChain(ctx, g, twnm.DefaultAlphaBeta(), found, relevance, text, recall.Options{}, nil)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"geo.Geocode", "skycast.Now", "geo.Timezone"}, plan, "Nairobi is geocoded once")
}

func TestPlanChainTakesTheValuesOfTheBackground(t *testing.T) {
	// "Who's actually in the 'Weekend Volunteers' channel? It's in service IS33cc…": the second
	// sentence states no task (Tentative), only the service the request is about; its value is
	// the whole request's, and the channel's members are listed in that service, not in one a
	// list of services would pick. Were it a part of its own, its value would be its own.
	ctx := context.Background()
	sid := twnm.Param{Name: "ServiceSid", Type: "string", Required: true, In: toolspec.InPath, Pattern: "^IS[0-9a-fA-F]{32}$", Description: "The SID of the Service."}
	get := func(name, path, desc string, in []twnm.Param, out ...twnm.Param) twnm.API {
		return twnm.API{Name: name, Provider: "twilio", Description: desc, Inputs: in, Outputs: out, Endpoint: &twnm.Endpoint{Method: "GET", Path: path}}
	}
	cat := twnm.Catalog{Name: "chat", APIs: []twnm.API{
		get("chat.ListService", "/Services", "Lists the chat services.", nil,
			twnm.Param{Name: "sid", Type: "string", Description: "The SID of the Service."}),
		get("chat.ListChannel", "/Services/{ServiceSid}/Channels", "Lists the channels of a service.", []twnm.Param{sid},
			twnm.Param{Name: "sid", Type: "string", Description: "The SID of the Channel."}),
		get("chat.ListMember", "/Services/{ServiceSid}/Channels/{ChannelSid}/Members", "Lists the members of a channel.",
			[]twnm.Param{sid, {Name: "ChannelSid", Type: "string", Required: true, In: toolspec.InPath, Description: "The SID of the Channel."}},
			twnm.Param{Name: "identity", Type: "string", Description: "The member's identity."}),
	}}
	g, err := twnm.Build(ctx, cat, twnm.BuildOptions{Embedder: embed.Default()})
	require.NoError(t, err)
	const (
		who   = "Who's actually in the 'Weekend Volunteers' channel"
		where = "It's in service IS33ccfc37742bb2922ee3fce328b68dae"
		text  = who + "? " + where + "."
	)
	for _, tentative := range []bool{true, false} {
		found := &recall.Result{Final: "chat.ListMember", Chain: []string{"chat.ListChannel", "chat.ListMember"}, Goals: []recall.Goal{
			{Goal: subgoal.Goal{Text: who}, Relevant: true, Best: .2,
				Candidates: []recall.Match{{Name: "chat.ListChannel", Score: 1, Dense: .2}, {Name: "chat.ListMember", Score: .5, Dense: .17}}},
			{Goal: subgoal.Goal{Text: where, Tentative: tentative}, Relevant: true, Best: .31,
				Candidates: []recall.Match{{Name: "chat.ListService", Score: 1, Dense: .31}}},
			{Goal: subgoal.Goal{Text: text, Whole: true}, Relevant: true,
				Candidates: []recall.Match{{Name: "chat.ListChannel", Score: 1, Dense: .28}, {Name: "chat.ListMember", Score: .9, Dense: .27}}},
		}}
		relevance := map[string]float64{"chat.ListChannel": 1, "chat.ListMember": 0.9, "chat.ListService": 1}
		plan, err := retrieval.PlanChain(ctx, g, twnm.DefaultAlphaBeta(), found, relevance, text, recall.Options{}, nil)
		require.NoError(t, err)
		if tentative {
			assert.Equal(t, []string{"chat.ListChannel", "chat.ListMember"}, plan, "the service stated in the background")
		} else {
			assert.Contains(t, plan, "chat.ListService", "a part's value is its own")
		}
	}
}

// A command that shares no word with any tool, whose verb names no action, is not served by
// the tool its meaning found where that tool only reads: no plan. A question, a command whose
// verb names a read, a request that shares a word with a tool, and a tool that writes are
// planned as before.
func TestPlanChainWordlessCommand(t *testing.T) {
	ctx := context.Background()
	req := func(name string) twnm.Param { return twnm.Param{Name: name, Type: "number", Required: true} }
	cat := twnm.Catalog{Name: "eat", APIs: []twnm.API{
		{Name: "FindPlaces", Description: "Finds a place to eat near a point.", Endpoint: &twnm.Endpoint{Method: "GET", Path: "/places"},
			Inputs: []twnm.Param{req("lat"), req("lon")}, Outputs: []twnm.Param{{Name: "place_id", Type: "string"}}},
		{Name: "Reserve", Description: "Books a table at a place.", Endpoint: &twnm.Endpoint{Method: "POST", Path: "/reservations"},
			Inputs: []twnm.Param{{Name: "place_id", Type: "string", Required: true}}, Outputs: []twnm.Param{{Name: "reservation_id", Type: "string"}}},
	}}
	g, err := twnm.Build(ctx, cat, twnm.BuildOptions{Embedder: embed.Default()})
	require.NoError(t, err)
	for _, c := range []struct {
		text, final string
		lexical     float64
		planned     bool
	}{
		{"Order a large pizza with extra cheese.", "FindPlaces", 0, false},
		{"Where can I get a pizza?", "FindPlaces", 0, true},        // a question
		{"Find me somewhere for pizza", "FindPlaces", 0, true},     // its verb names a read
		{"Order a pizza at a place to eat", "FindPlaces", 2, true}, // it shares words with the tool
		{"Order a pizza for two", "Reserve", 0, true},              // the tool writes
	} {
		found := &recall.Result{Final: c.final, Chain: toolspec.Chain{c.final}, Goals: []recall.Goal{{
			Goal:       subgoal.Goal{Text: c.text, Whole: true},
			Candidates: []recall.Match{{Name: c.final, Score: 1, Lexical: c.lexical, Dense: .34}}, Relevant: true, Worded: c.lexical > 0}}}
		plan, err := retrieval.PlanChain(ctx, g, twnm.DefaultAlphaBeta(), found, map[string]float64{c.final: 1}, c.text, recall.Options{}, nil)
		require.NoError(t, err)
		assert.Equal(t, c.planned, plan != nil, "%s: %v", c.text, plan)
	}
}
