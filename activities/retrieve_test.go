package activities_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/twnm"
)

// These tests run Retrieve against the test stack's Neo4j holding the tool world's catalog.
// Other tests share that graph and record feedback on its APIs, so they assert what the
// catalog's structure decides (which APIs chain, what is bound, what is excluded), never
// plan scores, which feedback changes.

// toolWorld opens the test store with the tool world's catalog loaded and returns the
// activities reading it and the tool world's URL.
func toolWorld(t *testing.T) (*activities.Activities, *neo4j.Store, string) {
	t.Helper()
	store := stacktest.Store(t)
	world := stacktest.LoadToolWorld(t, store)
	return &activities.Activities{Store: store, Embedder: stacktest.Embedder(t)}, store, world
}

func retrieve(t *testing.T, a *activities.Activities, in activities.RetrieveInput) (activities.RetrieveResult, error) {
	t.Helper()
	return execute[activities.RetrieveResult](t, a, "Retrieve", in)
}

// ask retrieves for a query, as the graph-first planner does: the query is both the recall
// description and the user's text.
func ask(t *testing.T, a *activities.Activities, query string, edit ...func(*activities.RetrieveInput)) activities.RetrieveResult {
	t.Helper()
	in := activities.RetrieveInput{Description: query, Text: query}
	for _, e := range edit {
		e(&in)
	}
	res, err := retrieve(t, a, in)
	require.NoError(t, err)
	return res
}

func candidate(t *testing.T, res activities.RetrieveResult, api string) planner.Candidate {
	t.Helper()
	for _, c := range res.Candidates {
		if c.API == api {
			return c
		}
	}
	require.Failf(t, "candidate missing", "%s is not among the candidates %v", api, candidateNames(res))
	return planner.Candidate{}
}

func candidateNames(res activities.RetrieveResult) []string {
	names := make([]string, len(res.Candidates))
	for i, c := range res.Candidates {
		names[i] = c.API
	}
	return names
}

func binding(t *testing.T, p planner.Plan, api, param string) planner.Binding {
	t.Helper()
	i := p.StepOf(api)
	require.GreaterOrEqual(t, i, 0, "%s is not a step of the plan %v", api, p.APIs())
	for _, b := range p.Steps[i].Bindings {
		if b.Param == param {
			return b
		}
	}
	require.Failf(t, "binding missing", "%s has no binding for %s", api, param)
	return planner.Binding{}
}

// requireExecutable checks what every plan the agent may run must hold: the target is the
// last step, nothing required is missing, and every upstream input names an output of an
// earlier step's API as the catalog gives it.
func requireExecutable(t *testing.T, c planner.Candidate, apis map[string]twnm.API) {
	t.Helper()
	p := c.Plan
	require.NotEmpty(t, p.Steps, "%s has no plan", c.API)
	assert.Equal(t, c.API, p.Target)
	assert.Equal(t, c.API, p.Steps[len(p.Steps)-1].API, "the target is the last step")
	assert.Empty(t, p.Missing(), "%s's plan is fully bound", c.API)
	for i, s := range p.Steps {
		api, ok := apis[s.API]
		require.True(t, ok, "the result carries the catalog entry of %s", s.API)
		assert.True(t, api.Callable(), "%s is callable", s.API)
		for _, b := range s.Bindings {
			if b.Source != planner.SourceUpstream {
				continue
			}
			from := p.StepOf(b.FromAPI)
			assert.True(t, from >= 0 && from < i, "%s.%s comes from %s, an earlier step", s.API, b.Param, b.FromAPI)
			assert.True(t, hasOutput(apis[b.FromAPI], b.FromOutput), "%s has an output %s", b.FromAPI, b.FromOutput)
		}
	}
}

func hasOutput(a twnm.API, name string) bool {
	for _, o := range a.Outputs {
		if o.Name == name {
			return true
		}
	}
	return false
}

func TestRetrieveBindsStatedCoordinates(t *testing.T) {
	a, _, world := toolWorld(t)
	tests := []struct {
		query    string
		target   string // the API the query asks for
		lat, lon string // as the query states them
	}{
		{"What is the ground elevation at latitude 25.2048, longitude 55.2708?", "geo.Elevation", "25.2048", "55.2708"},
		// A sign and a trailing zero: the values are bound as written, not as numbers.
		{"What is the ground elevation at latitude 40.7128, longitude -74.0060?", "geo.Elevation", "40.7128", "-74.0060"},
		{"What time zone is at latitude 35.6762, longitude 139.6503?", "geo.Timezone", "35.6762", "139.6503"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			res := ask(t, a, tt.query)
			require.Len(t, res.Candidates, activities.DefaultTargets)
			assert.Equal(t, tt.lat, res.Extracted[tt.target+".latitude"])
			assert.Equal(t, tt.lon, res.Extracted[tt.target+".longitude"])
			assert.GreaterOrEqual(t, res.SubgraphAPIs, len(res.Candidates))
			assert.Contains(t, res.Tree, tt.target)

			for _, c := range res.Candidates {
				requireExecutable(t, c, res.APIs)
				given := 0
				for _, s := range c.Plan.Steps {
					for _, b := range s.Bindings {
						if b.Source != planner.SourceGiven {
							continue
						}
						given++
						switch b.Param {
						case "latitude", "lat":
							assert.Equal(t, tt.lat, b.Value, "%s.%s", s.API, b.Param)
						case "longitude", "lon":
							assert.Equal(t, tt.lon, b.Value, "%s.%s", s.API, b.Param)
						}
					}
				}
				assert.Positive(t, given, "%s's plan uses the stated values", c.API)
			}

			c := candidate(t, res, tt.target)
			require.Len(t, c.Plan.Steps, 1, "the coordinates are given: no producer is needed")
			assert.Equal(t, planner.Binding{Param: "latitude", Required: true, Source: planner.SourceGiven, Value: tt.lat},
				binding(t, c.Plan, tt.target, "latitude"))
			assert.Equal(t, planner.Binding{Param: "longitude", Required: true, Source: planner.SourceGiven, Value: tt.lon},
				binding(t, c.Plan, tt.target, "longitude"))
			ep := res.APIs[tt.target].Endpoint
			require.NotNil(t, ep)
			assert.Equal(t, world, ep.BaseURL, "the catalog entry says where to call the tool")
		})
	}
}

func TestRetrieveChainsProducers(t *testing.T) {
	a, _, _ := toolWorld(t)
	tests := []struct {
		query  string
		target string
	}{
		{"What is the air quality at the centre of Paris?", "airq.Current"},
		{"What is the current weather in Paris?", "weather.Current"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			res := ask(t, a, tt.query)
			assert.Equal(t, "Paris", res.Extracted["geo.Geocode.city"])
			c := candidate(t, res, tt.target)
			requireExecutable(t, c, res.APIs)
			p := c.Plan
			require.GreaterOrEqual(t, len(p.Steps), 2, "the city must be turned into coordinates first: %v", p.APIs())
			// From either geocoder: geo.Geocode's latitude or opengeo.Locate's lat, which
			// concepts read as a latitude (which one depends on what other runs taught the
			// shared test graph).
			for param, outs := range map[string][]string{"latitude": {"latitude", "lat"}, "longitude": {"longitude", "lon"}} {
				b := binding(t, p, tt.target, param)
				assert.Equal(t, planner.SourceUpstream, b.Source, "%s.%s comes from a producer", tt.target, param)
				assert.Contains(t, outs, b.FromOutput)
			}
			// The chain starts from the city the user named.
			var first []string
			for _, b := range p.Steps[0].Bindings {
				if b.Source == planner.SourceGiven {
					first = append(first, b.Value)
				}
			}
			assert.Equal(t, []string{"Paris"}, first, "the first step of %v takes the city", p.APIs())
		})
	}
}

func TestRetrieveExclude(t *testing.T) {
	a, _, _ := toolWorld(t)
	const query = "What is the current weather in Paris?"
	inResult := func(res activities.RetrieveResult, api string) bool {
		_, inAPIs := res.APIs[api]
		for _, c := range res.Candidates {
			if c.API == api || c.Plan.StepOf(api) >= 0 {
				return true
			}
		}
		return inAPIs
	}

	base := ask(t, a, query)
	tests := []struct {
		name    string
		exclude []string
		// still is a candidate whose plan must stay executable without the excluded APIs.
		still string
	}{
		{"the producer", []string{"geo.Geocode"}, "weather.Current"},
		// skycast.Now is the other provider of current weather.
		{"the target", []string{"weather.Current"}, "skycast.Now"},
		{"both", []string{"geo.Geocode", "weather.Current"}, "skycast.Now"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, api := range tt.exclude {
				require.True(t, inResult(base, api), "without Exclude, %s is used for %q", api, query)
			}
			res := ask(t, a, query, func(in *activities.RetrieveInput) { in.Exclude = tt.exclude })
			require.NotEmpty(t, res.Candidates)
			for _, api := range tt.exclude {
				assert.False(t, inResult(res, api), "%s is excluded: not a candidate, no plan step, no catalog entry", api)
				assert.NotContains(t, res.Tree, api, "%s is not in the serialized subgraphs", api)
			}
			c := candidate(t, res, tt.still)
			requireExecutable(t, c, res.APIs)
		})
	}
}

func TestRetrieveSearches(t *testing.T) {
	a, _, _ := toolWorld(t)
	tests := []struct {
		search, query, target string
		minSteps              int
	}{
		{activities.SearchHeuristic, "What is the current weather in Paris?", "weather.Current", 2},
		{activities.SearchHeuristic, "What is the ground elevation at latitude 25.2048, longitude 55.2708?", "geo.Elevation", 1},
		{activities.SearchAlphaBeta, "What is the current weather in Paris?", "weather.Current", 2},
		{"", "What is the current weather in Paris?", "weather.Current", 2},
	}
	for _, tt := range tests {
		t.Run(tt.search+"/"+tt.query, func(t *testing.T) {
			res := ask(t, a, tt.query, func(in *activities.RetrieveInput) { in.Search = tt.search })
			c := candidate(t, res, tt.target)
			requireExecutable(t, c, res.APIs)
			assert.GreaterOrEqual(t, len(c.Plan.Steps), tt.minSteps, "plan %v", c.Plan.APIs())
		})
	}
}

// With no graph, a plan is its target alone: what the query does not state stays missing.
func TestRetrieveWithoutGraph(t *testing.T) {
	a, _, _ := toolWorld(t)
	res := ask(t, a, "What is the current weather in Paris?", func(in *activities.RetrieveInput) { in.Search = activities.SearchNone })
	c := candidate(t, res, "weather.Current")
	assert.Equal(t, []string{"weather.Current"}, c.Plan.APIs())
	assert.Equal(t, []string{"weather.Current.latitude", "weather.Current.longitude"}, c.Plan.Missing())
}

// The index's embedding weighs the words all coordinate APIs share as much as the word that
// tells them apart; rerank, fitted on the recalled APIs, puts the API the query names first.
// The final step leads the candidates, and the result says which parts of the request
// retrieval searched for: the air-quality question is answered by an air-quality API (the
// hashed embedder once sent it to a restaurant's opening hours), and the second part of a
// two-part request gets a tool of its own.
func TestRetrieveFinalStepFirst(t *testing.T) {
	a, _, _ := toolWorld(t)
	tests := []struct {
		query string
		first []string // any of these
		goals int      // sub-goals, the whole request included
	}{
		{"What is the ground elevation at latitude 25.2048, longitude 55.2708?", []string{"geo.Elevation"}, 2},
		{"What time zone is at latitude 35.6762, longitude 139.6503?", []string{"geo.Timezone"}, 2},
		{"When is sunrise at latitude 35.6762, longitude 139.6503?", []string{"weather.Sun"}, 2},
		{"What is the air quality at the centre of Rome?", []string{"airq.Current", "breezo.AirQuality"}, 2},
		{"Find the city at latitude 48.8566, longitude 2.3522, then tell me the air quality there.", []string{"airq.Current", "breezo.AirQuality"}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			res := ask(t, a, tt.query)
			require.NotEmpty(t, res.Candidates)
			assert.Contains(t, tt.first, unprefixed(res.Candidates[0].API), "candidates %v", candidateNames(res))
			assert.Equal(t, res.Final, res.Candidates[0].API, "the final step leads")
			assert.GreaterOrEqual(t, res.Candidates[0].Relevance, planner.DefaultOptions.AnswerRelevanceFloor, "the answering API is relevant to the request")
			for i := 1; i < len(res.Candidates); i++ {
				assert.GreaterOrEqual(t, res.Candidates[i-1].Score, res.Candidates[i].Score, "candidates are ordered best first")
			}
			require.Len(t, res.SubGoals, tt.goals, "%v", res.SubGoals)
			whole := res.SubGoals[len(res.SubGoals)-1]
			assert.True(t, whole.Whole)
			assert.True(t, whole.Relevant)
			assert.NotEmpty(t, whole.Top)
			assert.Equal(t, res.Final, res.Chain[len(res.Chain)-1], "the chain ends with the final step")
		})
	}
}

func TestRetrieveErrors(t *testing.T) {
	a, _, _ := toolWorld(t)
	tests := []struct {
		name     string
		acts     *activities.Activities
		in       activities.RetrieveInput
		wantType string
		wantMsg  string
	}{
		{"unknown search", a, activities.RetrieveInput{Description: "weather in Paris", Search: "dijkstra"},
			activities.ErrTypeInvalidInput, `search "dijkstra" is not one of alphabeta, heuristic, none`},
		{"empty description", a, activities.RetrieveInput{Description: "", Text: "weather in Paris"},
			activities.ErrTypeInvalidInput, "description is empty"},
		{"blank description", a, activities.RetrieveInput{Description: " \t\n "},
			activities.ErrTypeInvalidInput, "description is empty"},
		{"no store", &activities.Activities{Embedder: stacktest.Embedder(t)}, activities.RetrieveInput{Description: "weather"},
			activities.ErrTypeNoGraphStore, "no graph store"},
		{"no embedder", &activities.Activities{Store: a.Store}, activities.RetrieveInput{Description: "weather"},
			activities.ErrTypeNoGraphStore, "embedder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := retrieve(t, tt.acts, tt.in)
			appErr := requireAppError(t, err, tt.wantType, true)
			assert.Contains(t, appErr.Error(), tt.wantMsg)
		})
	}
}

func TestRetrieveNothingCallable(t *testing.T) {
	a, store, _ := toolWorld(t)
	ctx := context.Background()

	t.Run("a description with no words", func(t *testing.T) {
		res, err := retrieve(t, a, activities.RetrieveInput{Description: "?! …", Text: "?! …"})
		require.NoError(t, err)
		assert.Empty(t, res.Candidates, "a description that embeds to nothing is similar to nothing")
		assert.Empty(t, res.APIs)
		assert.Empty(t, res.Tree)
		assert.Zero(t, res.SubgraphAPIs)
	})

	t.Run("APIs without an endpoint", func(t *testing.T) {
		word := stacktest.UniqueName("quux")
		mine := map[string]bool{}
		var apis []twnm.API
		for i, ep := range []*twnm.Endpoint{
			nil,                               // a tool description only
			{Method: "GET"},                   // a method, no URL
			{Method: "GET", Path: "/" + word}, // a path, no base URL
		} {
			api := twnm.API{Name: fmt.Sprintf("%s.Lookup%d", word, i), Description: "Finds the " + word + " of a " + word + ".",
				Endpoint: ep, Inputs: []twnm.Param{{Name: word + "_id", Type: "string", Required: true}},
				Outputs: []twnm.Param{{Name: word, Type: "string"}}}
			require.False(t, api.Callable())
			mine[api.Name] = true
			apis = append(apis, api)
		}
		_, err := store.LoadCatalog(ctx, twnm.Catalog{Name: word, APIs: apis})
		require.NoError(t, err)

		query := "Find the " + word + " of a " + word
		vecs, err := stacktest.Embedder(t).Embed(ctx, []string{query})
		require.NoError(t, err)
		top, err := store.TopAPIs(ctx, vecs[0], len(apis))
		require.NoError(t, err)
		require.NotEmpty(t, top)
		assert.True(t, mine[top[0].Name], "the vector index finds the non-callable APIs first: %v", top)

		for _, search := range []string{activities.SearchAlphaBeta, activities.SearchHeuristic} {
			res, err := retrieve(t, a, activities.RetrieveInput{Description: query, Text: query, Search: search})
			require.NoError(t, err)
			for _, c := range res.Candidates {
				assert.False(t, mine[c.API], "%s has no endpoint: it is never a candidate", c.API)
				for _, api := range c.Plan.APIs() {
					assert.False(t, mine[api], "%s has no endpoint: it is never a plan step", api)
				}
			}
			for name, api := range res.APIs {
				assert.False(t, mine[name], "%s is not in the result", name)
				assert.True(t, api.Callable(), "%s is callable", name)
			}
		}
	})
}

// The LLM planner's sub-intents are retrieval's sub-goals, in their dependency order, the
// whole description last.
func TestRetrieveIntents(t *testing.T) {
	a, _, _ := toolWorld(t)
	const query = "Which city is at latitude 48.8566, longitude 2.3522, and how clean is the air there?"
	res := ask(t, a, query, func(in *activities.RetrieveInput) {
		in.Intents = []activities.Intent{{Rank: 1, Text: "name the city at latitude 48.8566, longitude 2.3522"}, {Rank: 2, Text: "air quality at that point"}}
	})
	require.Len(t, res.SubGoals, 3, "%v", res.SubGoals)
	assert.Equal(t, "name the city at latitude 48.8566, longitude 2.3522", res.SubGoals[0].Text)
	assert.Equal(t, "air quality at that point", res.SubGoals[1].Text)
	assert.True(t, res.SubGoals[2].Whole)
	assert.Equal(t, query, res.SubGoals[2].Text)
	require.NotEmpty(t, res.Candidates)
	assert.Contains(t, []string{"airq.Current", "breezo.AirQuality"}, unprefixed(res.Final), "the last sub-intent's tool ends the chain: %v", candidateNames(res))
}

// unprefixed is an API's tool-world name: other tests import prefixed copies of the tool world
// ("pp…_geo.Elevation") into the shared graph, and a copy is as good an answer.
func unprefixed(api string) string {
	if i := strings.Index(api, "_"); i >= 0 && strings.Contains(api[i:], ".") {
		return api[i+1:]
	}
	return api
}

// TestRetrieveBringsChecks: an API that names a check (twnm.API.Check) comes with the check's
// catalog entry, although retrieval never chose the check, so that a call of it cut off with
// its worker can be checked in the run.
func TestRetrieveBringsChecks(t *testing.T) {
	store := stacktest.Store(t)
	a := &activities.Activities{Store: store, Embedder: stacktest.Embedder(t)}
	word := strings.ReplaceAll(stacktest.UniqueName("ferrybook"), "-", "")
	audit := strings.ReplaceAll(stacktest.UniqueName("ledger"), "-", "") + ".Entries"
	ep := func(m string) *twnm.Endpoint {
		return &twnm.Endpoint{Method: m, Path: "/x", BaseURL: "https://ferry.example"}
	}
	city := []twnm.Param{{Name: "harbour", Type: "string", Required: true, In: twnm.InQuery}}
	_, err := store.LoadCatalog(context.Background(), twnm.Catalog{Name: word, APIs: []twnm.API{
		{Name: word + ".Book", Description: "Books a " + word + " crossing from a harbour.", Endpoint: ep("POST"), Inputs: city,
			Outputs: []twnm.Param{{Name: "ticket", Type: "string"}}, Check: audit},
		{Name: audit, Description: "Ledger entries of a port, for accountants.", Endpoint: ep("GET"), Inputs: city,
			Outputs: []twnm.Param{{Name: "ticket", Type: "string"}}},
	}})
	require.NoError(t, err)
	res := ask(t, a, "Book a "+word+" crossing from Piraeus")
	require.Contains(t, res.APIs, word+".Book")
	assert.Equal(t, audit, res.APIs[word+".Book"].Check)
	for _, c := range res.Candidates {
		require.Equal(t, -1, c.Plan.StepOf(audit), "the check is in no candidate's plan (%s): the test would prove nothing", c.API)
	}
	require.Contains(t, res.APIs, audit, "the check comes along")
}

// Through the store, a path input is taken from the API that lists its collection, from the
// item the request names: the invites of the "Board Prep" channel come from the channels'
// list, its item named so, not from a message's channel_sid.
func TestRetrievePicksTheNamedItemOfAList(t *testing.T) {
	store := stacktest.Store(t)
	a := &activities.Activities{Store: store, Embedder: stacktest.Embedder(t)}
	word := strings.ReplaceAll(stacktest.UniqueName("parley"), "-", "")
	ep := func(path string) *twnm.Endpoint {
		return &twnm.Endpoint{Method: "GET", Path: "/" + word + path, BaseURL: "https://chat.example"}
	}
	channel := twnm.Param{Name: "ChannelSid", Type: "string", Required: true, In: twnm.InPath, Description: "The SID of the channel."}
	_, err := store.LoadCatalog(context.Background(), twnm.Catalog{Name: word, APIs: []twnm.API{
		{Name: word + ".ListChannel", Source: word, Description: "Lists the " + word + " channels.", Endpoint: ep("/Channels"),
			Outputs: []twnm.Param{{Name: "sid", Type: "string", Path: "channels[].sid"}, {Name: "friendly_name", Type: "string", Path: "channels[].friendly_name"}}},
		{Name: word + ".ListInvite", Source: word, Description: "Lists the pending " + word + " invites of a channel.", Endpoint: ep("/Channels/{ChannelSid}/Invites"),
			Inputs: []twnm.Param{channel}, Outputs: []twnm.Param{{Name: "identity", Type: "string", Path: "invites[].identity"}}},
		{Name: word + ".ListMessage", Source: word, Description: "Lists the " + word + " messages of a channel.", Endpoint: ep("/Channels/{ChannelSid}/Messages"),
			Inputs: []twnm.Param{channel}, Outputs: []twnm.Param{{Name: "channel_sid", Type: "string", Path: "messages[].channel_sid"}, {Name: "body", Type: "string", Path: "messages[].body"}}},
	}})
	require.NoError(t, err)
	res := ask(t, a, `Who has a pending `+word+` invite to the "Board Prep" channel?`)
	c := candidate(t, res, word+".ListInvite")
	requireExecutable(t, c, res.APIs)
	assert.Equal(t, []string{word + ".ListChannel", word + ".ListInvite"}, c.Plan.APIs())
	b := binding(t, c.Plan, word+".ListInvite", "ChannelSid")
	assert.Equal(t, planner.Binding{Param: "ChannelSid", Required: true, Source: planner.SourceUpstream, FromAPI: word + ".ListChannel",
		FromOutput: "sid", Item: "Board Prep"}, b)
	assert.NotContains(t, res.Extracted, word+".ListInvite.ChannelSid", "the name is no value of the input")
}

func TestRetrieveJoinsTheRequestsOtherParts(t *testing.T) {
	a, _, _ := toolWorld(t)

	// The hotel search shares no call with the weather's chain: one plan runs both, the final
	// step last, the hotels given the city their clause states.
	// Either hotel search serves it: the two providers' searches rank within a hair of each
	// other, and what the store has learned tips them.
	res := ask(t, a, "Find hotels in Rome, and tell me the current weather in Paris.")
	require.Len(t, res.Branches, 1)
	assert.Contains(t, []string{"stay.SearchHotels", "lodgr.FindHotels"}, res.Branches[0])
	c := candidate(t, res, res.Final)
	requireExecutable(t, c, res.APIs)
	apis := c.Plan.APIs()
	assert.Equal(t, res.Final, apis[len(apis)-1], "the final step answers last: %v", apis)
	assert.Equal(t, map[string]bool{"Rome": true}, givenIn(c.Plan, chainOf(c.Plan, res.Branches[0])))

	// Each part states its own city. The weather's part cannot share the air quality's
	// geocoder, which takes Rome: it searches again without the plan's calls and geocodes
	// Paris with a geocoder of its own, another provider's.
	res = ask(t, a, "What is the weather in Paris right now, and what is the air quality in Rome?")
	c = candidate(t, res, res.Final)
	requireExecutable(t, c, res.APIs)
	assert.Equal(t, map[string]bool{"Rome": true}, givenIn(c.Plan, chainOf(c.Plan, res.Final)), "the air quality's chain takes its own clause's city")
	require.Len(t, res.Branches, 1, "the weather's part joins: %v, unplanned %v", c.Plan.APIs(), res.Unplanned)
	assert.Empty(t, res.Unplanned)
	weather, air := chainOf(c.Plan, res.Branches[0]), chainOf(c.Plan, res.Final)
	require.Len(t, weather, 2, "a geocoder and the weather: %v", weather)
	for _, api := range weather {
		assert.NotContains(t, air, api, "one call cannot serve Paris and Rome")
	}
	assert.Equal(t, map[string]bool{"Paris": true}, givenIn(c.Plan, weather))

	// A part whose tool cannot join the plan is reported as such: the weather of "How cold is
	// it in Oslo right now" needs a geocoder the air quality's part, which names no city of
	// its own, may not share. Every part the request asks is joined or reported.
	res = ask(t, a, "How cold is it in Oslo right now, and what is the air quality there?")
	assert.Len(t, slices.Concat(res.Branches, res.Unplanned), 1, "branches %v, unplanned %v", res.Branches, res.Unplanned)
	for _, u := range res.Unplanned {
		assert.Contains(t, u, "Oslo")
	}

	// A value only another part states is not this part's: the time zone of Singapore is
	// geocoded from Singapore, not read at the air quality's coordinates.
	res = ask(t, a, "What is the air quality index at latitude 1.3521, longitude 103.8198? Also, what time zone applies at the centre of Singapore?")
	require.Equal(t, "geo.Timezone", res.Final)
	c = candidate(t, res, res.Final)
	requireExecutable(t, c, res.APIs)
	zone := chainOf(c.Plan, res.Final)
	assert.Equal(t, map[string]bool{"Singapore": true}, givenIn(c.Plan, zone), "the time zone's chain: %v", zone)

	// The run binds its calls with the extraction: where a part's value differs from the
	// whole request's reading, the extraction carries the plan's. "New York", stated twice,
	// is every name input's in the whole request's reading; the team search of "who is the
	// top scorer of Arsenal" takes Arsenal, and so does the extraction the run binds by.
	res = ask(t, a, "What are the latitude and longitude of New York? Also, who is the top scorer of Arsenal? And find the best hotel in New York.")
	c = candidate(t, res, res.Final)
	requireExecutable(t, c, res.APIs)
	require.GreaterOrEqual(t, c.Plan.StepOf("sports.SearchTeam"), 0, "the scorer's part joins: %v", c.Plan.APIs())
	assert.Equal(t, map[string]bool{"Arsenal": true}, givenIn(c.Plan, []string{"sports.SearchTeam"}))
	assert.Equal(t, "Arsenal", res.Extracted["sports.SearchTeam.team_name"])
	assert.Equal(t, "New York", res.Extracted["stay.SearchHotels.city"])
	for _, st := range planner.Bind(c.Plan, res.Extracted, nil).Steps {
		for _, b := range st.Bindings {
			if st.API == "sports.SearchTeam" && b.Param == "team_name" {
				assert.Equal(t, "Arsenal", b.Value, "the run's binding")
			}
		}
	}
}

// An answer binds where its question asked: "Arsenal", asked for the team's name, binds the
// team search's name, never the hotel search's city though both are free text; an answer no
// rule reads binds the one input asked for; without answers the fixtures' part asks, for the
// team's name (a person knows it), not for its id.
func TestRetrieveBindsAnswersWhereAsked(t *testing.T) {
	a, _, _ := toolWorld(t)
	const query = "Find hotels in Rome, and show me the next fixtures of my team."
	res := ask(t, a, query)
	require.Equal(t, "sports.TeamFixtures", res.Final)
	asked := planner.Bind(candidate(t, res, res.Final).Plan, res.Extracted, nil).Missing()
	require.Equal(t, []string{"sports.SearchTeam.team_name"}, asked, "the request names no team")

	tests := []struct {
		name, answer string
		params       []string          // what the question asked for
		want         map[string]string // "API.param" → value, in Extracted
	}{
		{"a name", "Arsenal", asked, map[string]string{"sports.SearchTeam.team_name": "Arsenal", "stay.SearchHotels.city": "Rome"}},
		{"text no rule reads", "arsenal", asked, map[string]string{"sports.SearchTeam.team_name": "arsenal", "stay.SearchHotels.city": "Rome"}},
		// A planner that asked for the id itself.
		{"an identifier", "team-arsenal-a63f", []string{"sports.TeamFixtures.team_id"},
			map[string]string{"sports.TeamFixtures.team_id": "team-arsenal-a63f", "stay.SearchHotels.city": "Rome"}},
		{"a name for the id", "Arsenal", []string{"sports.TeamFixtures.team_id"},
			map[string]string{"sports.SearchTeam.team_name": "Arsenal", "stay.SearchHotels.city": "Rome"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := ask(t, a, query+"\n"+tt.answer, func(in *activities.RetrieveInput) {
				in.Answers = []planner.QA{{Question: "which team?", Params: tt.params, Answer: tt.answer}}
			})
			for k, v := range tt.want {
				assert.Equal(t, v, res.Extracted[k], k)
			}
			c := candidate(t, res, "sports.TeamFixtures")
			requireExecutable(t, c, res.APIs)
			// Either hotel search serves the first part: which one leads can turn on what the
			// store learned from the tests before (stay and lodgr are equivalent providers).
			hotels := "stay.SearchHotels"
			if c.Plan.StepOf(hotels) < 0 {
				hotels = "lodgr.FindHotels"
			}
			assert.Equal(t, map[string]bool{"Rome": true}, givenIn(c.Plan, chainOf(c.Plan, hotels)), "the hotels keep their city: %v", c.Plan.APIs())
			_, named := tt.want["sports.SearchTeam.team_name"]
			assert.Equal(t, named, c.Plan.StepOf("sports.SearchTeam") >= 0, "the team is searched by name only when named: %v", c.Plan.APIs())
		})
	}
}

// givenIn returns the values given to the steps apis of p.
func givenIn(p planner.Plan, apis []string) map[string]bool {
	out := map[string]bool{}
	for _, api := range apis {
		for _, bd := range p.Steps[p.StepOf(api)].Bindings {
			if bd.Source == planner.SourceGiven {
				out[bd.Value] = true
			}
		}
	}
	return out
}

// chainOf returns api and the steps of p that feed it, directly or not; nil when p does not
// call api.
func chainOf(p planner.Plan, api string) []string {
	if p.StepOf(api) < 0 {
		return nil
	}
	out := []string{api}
	for i := 0; i < len(out); i++ {
		st := p.Steps[p.StepOf(out[i])]
		for _, b := range st.Bindings {
			if b.Source == planner.SourceUpstream && !slices.Contains(out, b.FromAPI) {
				out = append(out, b.FromAPI)
			}
		}
	}
	return out
}

// Graph search reaches an API that changes state only where retrieval chose it: the token to
// add an alarm is never made by registering the user whose e-mail the request gives, though
// that binds every input it takes. It is read, and the password it takes asked for: a
// person knows a password, not a token.
func TestRetrieveReadsRatherThanWrites(t *testing.T) {
	store := stacktest.Store(t)
	p := stacktest.UniqueName("w") + "_"
	str := func(name string) twnm.Param { return twnm.Param{Name: name, Type: "string", Required: true} }
	at := func(method, path string) *twnm.Endpoint {
		return &twnm.Endpoint{Method: method, Path: "/" + p + path, BaseURL: "http://127.0.0.1:9"}
	}
	c := twnm.Catalog{Name: p + "alarms", APIs: []twnm.API{
		{Name: p + "GetToken", Description: "Gets the zorblat token of a user.", Endpoint: at("GET", "/token"),
			Inputs: []twnm.Param{str("email"), str("password")}, Outputs: []twnm.Param{{Name: "token", Type: "string"}}},
		{Name: p + "RegisterUser", Description: "Registers a new zorblat user.", Endpoint: at("POST", "/users"),
			Inputs: []twnm.Param{str("email")}, Outputs: []twnm.Param{{Name: "token", Type: "string"}}},
		{Name: p + "AddAlarm", Description: "Adds a zorblat alarm at a time.", Endpoint: at("POST", "/alarms"),
			Inputs: []twnm.Param{str("token"), str("time")}, Outputs: []twnm.Param{{Name: "alarm_id", Type: "string"}}},
	}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := store.LoadCatalog(ctx, c)
	require.NoError(t, err)
	t.Cleanup(func() { // its "token" would join the next run's
		_, err := store.DeleteCatalog(context.Background(), c.Name)
		assert.NoError(t, err)
	})
	a := &activities.Activities{Store: store, Embedder: stacktest.Embedder(t)}

	res := ask(t, a, "Add a zorblat alarm at 08:30 with the zorblat token of the zorblat user jsmith@example.com.")
	require.Equal(t, p+"AddAlarm", res.Final)
	assert.Equal(t, "jsmith@example.com", res.Extracted[p+"RegisterUser.email"], "registering the user would bind every input")
	plan := candidate(t, res, p+"AddAlarm").Plan
	assert.NotContains(t, plan.APIs(), p+"RegisterUser")
	assert.Equal(t, []string{p + "GetToken", p + "AddAlarm"}, plan.APIs())
	assert.Equal(t, "jsmith@example.com", binding(t, plan, p+"GetToken", "email").Value)
	assert.Equal(t, planner.SourceUpstream, binding(t, plan, p+"AddAlarm", "token").Source)
	assert.Equal(t, []string{p + "GetToken.password"}, plan.Missing(), "the password is asked for")
}

// withAPI loads a catalog of the one API a (its name prefixed with a name unique to the test) into
// the test stack's store, deleted when the test ends, and returns activities that retrieve from
// it and the API's name.
func withAPI(t *testing.T, a twnm.API) (*activities.Activities, string) {
	t.Helper()
	store := stacktest.Store(t)
	p := stacktest.UniqueName("r") + "_"
	a.Name = p + a.Name
	a.Endpoint.Path, a.Endpoint.BaseURL = "/"+p+a.Endpoint.Path, "http://127.0.0.1:9"
	c := twnm.Catalog{Name: p + "catalog", APIs: []twnm.API{a}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := store.LoadCatalog(ctx, c)
	require.NoError(t, err)
	t.Cleanup(func() { _, _ = store.DeleteCatalog(context.Background(), c.Name) })
	return &activities.Activities{Store: store, Embedder: stacktest.Embedder(t)}, a.Name
}

// A final step ends the chain only where the request asks for what it does, and a refused one
// leaves no candidate and says why: a write where the request asks to do something else (a
// request to delete that shares its words with a reservation, "DROP TABLE"), and a read where
// the request commands a change ("set a zorblat alarm", not the forecast that shares its
// words). The request each API is for gets it, and so does one whose first word commands
// nothing.
func TestRetrieveRefusesAnActionTheRequestDoesNotAskFor(t *testing.T) {
	tests := []struct {
		name    string
		api     twnm.API
		refused map[string]string // request → why, with %s for the API's name
		served  []string
	}{
		{"a write", twnm.API{Name: "ReserveTable", Description: "Reserves a zorblat table for a party.", Endpoint: &twnm.Endpoint{Method: "POST", Path: "tables"},
			Inputs: []twnm.Param{{Name: "party", Type: "string", Required: true}}, Outputs: []twnm.Param{{Name: "reservation_id", Type: "string"}}},
			map[string]string{"'; DROP zorblat TABLE users; --": "%s would create, and the request asks to delete"},
			[]string{"Reserve a zorblat table for the Smith party"}},
		{"a read", twnm.API{Name: "Forecast", Description: "Tomorrow's zorblat forecast for a city.", Endpoint: &twnm.Endpoint{Method: "GET", Path: "forecast"},
			Inputs: []twnm.Param{{Name: "city", Type: "string", Required: true}}, Outputs: []twnm.Param{{Name: "forecast", Type: "string"}}},
			map[string]string{"Set a zorblat alarm for 6am tomorrow in Oslo": "the request asks to create, and %s only reads"},
			[]string{"What is tomorrow's zorblat forecast for Oslo?", "Can you set me up with tomorrow's zorblat forecast for Oslo?"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, name := withAPI(t, tt.api)
			for q, why := range tt.refused {
				res := ask(t, a, q)
				assert.Empty(t, res.Candidates, q)
				assert.Equal(t, fmt.Sprintf(why, name), res.Refused, q)
			}
			for _, q := range tt.served {
				res := ask(t, a, q)
				assert.Empty(t, res.Refused, q)
				assert.Equal(t, name, res.Final, q)
				assert.NotEmpty(t, res.Candidates, q)
			}
		})
	}
}

// A part of a compound request binds its calls by the roles its own words say: "who leads the
// Eredivisie" makes no league leader of the team in "When do Ajax play next", which the team
// search finds by its name; "who's their top scorer" refers back, and its team is the leader.
func TestRetrieveRolesOfEachPart(t *testing.T) {
	a, _, _ := toolWorld(t)
	res := ask(t, a, "When do Ajax play next, and who leads the Eredivisie?")
	require.Equal(t, "sports.TeamFixtures", res.Final)
	c := candidate(t, res, res.Final)
	assert.Equal(t, "sports.SearchTeam", binding(t, c.Plan, "sports.TeamFixtures", "team_id").FromAPI, "Ajax's fixtures: %v", c.Plan.APIs())

	res = ask(t, a, "Who leads Ligue 1, and who's their top scorer?")
	require.Equal(t, "sports.TeamPlayers", res.Final)
	c = candidate(t, res, res.Final)
	assert.Equal(t, "sports.Standings", binding(t, c.Plan, "sports.TeamPlayers", "team_id").FromAPI, "the leader's squad: %v", c.Plan.APIs())
}
