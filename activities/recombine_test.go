package activities_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/twnm"
)

// Plans the tool world's graph yields (see TestRetrieveChainsProducers): the city at a point
// (geo.ReverseGeocode, or opengeo.Reverse under other parameter names) feeds the market
// statistics; the coordinates of a city (geo.Geocode, or a hotel's through stay.*) feed the
// weather.
const (
	marketQuery  = "What is the housing market like near latitude 48.85, longitude 2.35?"
	weatherQuery = "What is the current weather in Paris?"
)

// retrievedPlan retrieves for query and returns target's plan and the values the retrieval
// found in the query, as a run keeps them. The retrieval leaves out the alternative
// producer, so that the plan uses want whatever feedback other tests record meanwhile.
func retrievedPlan(t *testing.T, a *activities.Activities, query, target string, want []string, alternative string) (planner.Plan, map[string]string) {
	t.Helper()
	res := ask(t, a, query, func(in *activities.RetrieveInput) { in.Exclude = []string{alternative} })
	c := candidate(t, res, target)
	requireExecutable(t, c, res.APIs)
	require.Equal(t, want, c.Plan.APIs())
	return c.Plan, res.Extracted
}

func marketPlan(t *testing.T, a *activities.Activities) (planner.Plan, map[string]string) {
	return retrievedPlan(t, a, marketQuery, "homes.MarketStats", []string{"geo.ReverseGeocode", "homes.MarketStats"}, "opengeo.Reverse")
}

func weatherPlan(t *testing.T, a *activities.Activities) (planner.Plan, map[string]string) {
	return retrievedPlan(t, a, weatherQuery, "weather.Current", []string{"geo.Geocode", "weather.Current"}, "stay.HotelDetails")
}

func recombine(t *testing.T, a *activities.Activities, in activities.RecombineInput) (activities.RecombineResult, error) {
	t.Helper()
	return execute[activities.RecombineResult](t, a, "Recombine", in)
}

// requireRepaired checks a found recombination: an executable plan for the same target that
// never calls an excluded API, with the catalog entry of each of its steps.
func requireRepaired(t *testing.T, res activities.RecombineResult, target string, excluded ...string) {
	t.Helper()
	require.True(t, res.Found, "no plan found: %s", res.Reason)
	c := planner.Candidate{API: target, Plan: res.Plan}
	requireExecutable(t, c, res.APIs)
	for _, api := range excluded {
		assert.Equal(t, -1, res.Plan.StepOf(api), "%s must not come back: %v", api, res.Plan.APIs())
		assert.NotContains(t, res.APIs, api)
	}
	assert.Len(t, res.APIs, len(res.Plan.Steps), "one catalog entry per step")
}

func TestRecombineReplacesTheFailedProducer(t *testing.T) {
	a, _, _ := toolWorld(t)
	plan, known := marketPlan(t, a)
	failed := plan.StepOf("geo.ReverseGeocode")

	for _, strategy := range []string{twnm.StrategySubstitution, twnm.StrategyUpstreamReroute, twnm.StrategySubgraphSwitch} {
		t.Run(strategy, func(t *testing.T) {
			res, err := recombine(t, a, activities.RecombineInput{Plan: plan, FailedStep: failed, Strategy: strategy, Known: known})
			require.NoError(t, err)
			assert.Equal(t, strategy, res.Strategy)
			requireRepaired(t, res, "homes.MarketStats", "geo.ReverseGeocode")
			// The other provider takes the coordinates under its own names and gives the
			// city under its own name.
			assert.Equal(t, []string{"opengeo.Reverse", "homes.MarketStats"}, res.Plan.APIs())
			assert.Equal(t, planner.Binding{Param: "lat", Required: true, Source: planner.SourceGiven, Value: "48.85"},
				binding(t, res.Plan, "opengeo.Reverse", "lat"))
			assert.Equal(t, planner.Binding{Param: "lon", Required: true, Source: planner.SourceGiven, Value: "2.35"},
				binding(t, res.Plan, "opengeo.Reverse", "lon"))
			city := binding(t, res.Plan, "homes.MarketStats", "city")
			assert.Equal(t, planner.SourceUpstream, city.Source)
			assert.Equal(t, "opengeo.Reverse", city.FromAPI)
			assert.Equal(t, "city_name", city.FromOutput)
			assert.Contains(t, res.Reason, "geo.ReverseGeocode")
			if strategy == twnm.StrategySubstitution {
				assert.Equal(t, "opengeo.Reverse replaces geo.ReverseGeocode, providing city", res.Reason)
			}
		})
	}

	// Without the values found in the query, the plan's own given latitude and longitude bind
	// the substitute's lat and lon: lat is read as latitude.
	res, err := recombine(t, a, activities.RecombineInput{Plan: plan, FailedStep: failed, Strategy: twnm.StrategySubstitution})
	require.NoError(t, err)
	requireRepaired(t, res, "homes.MarketStats", "geo.ReverseGeocode")
	assert.Equal(t, "48.85", binding(t, res.Plan, "opengeo.Reverse", "lat").Value)
}

func TestRecombineFindsNothing(t *testing.T) {
	a, _, _ := toolWorld(t)
	market, marketKnown := marketPlan(t, a)
	weather, weatherKnown := weatherPlan(t, a)

	tests := []struct {
		name     string
		in       activities.RecombineInput
		strategy string
		// reasons are what Reason must say: the failed API, what it provided, why the
		// strategy failed.
		reasons []string
	}{
		{
			name:     "the other provider failed too",
			in:       activities.RecombineInput{Plan: market, FailedStep: 0, Known: marketKnown, Exclude: []string{"geo.ReverseGeocode", "opengeo.Reverse"}},
			strategy: twnm.StrategySubstitution,
			reasons:  []string{"provides city", "substitution: no I/O-equivalent API"},
		},
		{
			name:     "no reroute when the other provider failed too",
			in:       activities.RecombineInput{Plan: market, FailedStep: 0, Known: marketKnown, Exclude: []string{"opengeo.Reverse"}},
			strategy: twnm.StrategyUpstreamReroute,
			reasons:  []string{"provides city", "no other subpath produces city for homes.MarketStats"},
		},
		{
			name:     "no new subgraph when the other provider failed too",
			in:       activities.RecombineInput{Plan: market, FailedStep: 0, Known: marketKnown, Exclude: []string{"opengeo.Reverse"}},
			strategy: twnm.StrategySubgraphSwitch,
			reasons:  []string{"provides city", "leaves homes.MarketStats.city missing"},
		},
		{
			// Besides opengeo.Locate (failed too), only stay.HotelDetails outputs latitude;
			// the hotel needs an id.
			name:     "no other API gives a city's coordinates from the city alone",
			in:       activities.RecombineInput{Plan: weather, FailedStep: 0, Known: weatherKnown, Exclude: []string{"opengeo.Locate"}},
			strategy: twnm.StrategySubstitution,
			reasons:  []string{"after geo.Geocode failed", "provides latitude, longitude", "no I/O-equivalent API"},
		},
		{
			name:     "the failed target: no substitute",
			in:       activities.RecombineInput{Plan: weather, FailedStep: len(weather.Steps) - 1, Known: weatherKnown},
			strategy: twnm.StrategySubstitution,
			reasons:  []string{"after weather.Current failed", "temperature", "no I/O-equivalent API"},
		},
		{
			name:     "the failed target: nothing to reroute",
			in:       activities.RecombineInput{Plan: weather, FailedStep: len(weather.Steps) - 1, Known: weatherKnown},
			strategy: twnm.StrategyUpstreamReroute,
			reasons:  []string{"after weather.Current failed", "no later step consumes its outputs"},
		},
		{
			name:     "the failed target: no other subgraph",
			in:       activities.RecombineInput{Plan: weather, FailedStep: len(weather.Steps) - 1, Known: weatherKnown},
			strategy: twnm.StrategySubgraphSwitch,
			reasons:  []string{"after weather.Current failed", "the failed API is the target"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.in
			in.Strategy = tt.strategy
			res, err := recombine(t, a, in)
			require.NoError(t, err, "finding nothing is a result, not an error")
			assert.False(t, res.Found)
			assert.Equal(t, tt.strategy, res.Strategy)
			assert.Empty(t, res.Plan.Steps)
			for _, r := range tt.reasons {
				assert.Contains(t, res.Reason, r)
			}
		})
	}
}

// The weather needs coordinates; without geo.Geocode they come from the other geocoder
// (opengeo.Locate, whose lat and lon are latitude and longitude), and without both from a
// hotel in the city (stay.SearchHotels → stay.HotelDetails). Excluding a hotel API takes that
// path away too.
func TestRecombineReroutesAroundTheFailedProducer(t *testing.T) {
	a, _, _ := toolWorld(t)
	plan, known := weatherPlan(t, a)
	failed := plan.StepOf("geo.Geocode")

	for _, strategy := range []string{twnm.StrategyUpstreamReroute, twnm.StrategySubgraphSwitch} {
		t.Run(strategy+" through the other geocoder", func(t *testing.T) {
			res, err := recombine(t, a, activities.RecombineInput{Plan: plan, FailedStep: failed, Strategy: strategy, Known: known,
				Exclude: []string{"geo.Geocode"}})
			require.NoError(t, err)
			requireRepaired(t, res, "weather.Current", "geo.Geocode")
			lat := binding(t, res.Plan, "weather.Current", "latitude")
			assert.Equal(t, "opengeo.Locate", lat.FromAPI)
			assert.Equal(t, "lat", lat.FromOutput)
		})
		t.Run(strategy, func(t *testing.T) {
			res, err := recombine(t, a, activities.RecombineInput{Plan: plan, FailedStep: failed, Strategy: strategy, Known: known,
				Exclude: []string{"geo.Geocode", "opengeo.Locate"}})
			require.NoError(t, err)
			assert.Equal(t, strategy, res.Strategy)
			requireRepaired(t, res, "weather.Current", "geo.Geocode")
			lat := binding(t, res.Plan, "weather.Current", "latitude")
			assert.Equal(t, planner.SourceUpstream, lat.Source)
			assert.Equal(t, "stay.HotelDetails", lat.FromAPI)
			assert.Equal(t, planner.Binding{Param: "city", Required: true, Source: planner.SourceGiven, Value: "Paris"},
				binding(t, res.Plan, "stay.SearchHotels", "city"), "the city the user named still starts the chain")
			if strategy == twnm.StrategyUpstreamReroute {
				assert.Equal(t, "rerouted around geo.Geocode through stay.HotelDetails", res.Reason)
			}
		})

		for _, other := range []string{"stay.HotelDetails", "stay.SearchHotels"} {
			t.Run(strategy+" without "+other, func(t *testing.T) {
				res, err := recombine(t, a, activities.RecombineInput{Plan: plan, FailedStep: failed, Strategy: strategy, Known: known,
					Exclude: []string{"geo.Geocode", "opengeo.Locate", other}})
				require.NoError(t, err)
				assert.False(t, res.Found, "%s failed in this run: it must not come back (plan %v)", other, res.Plan.APIs())
				assert.Contains(t, res.Reason, "provides latitude, longitude")
			})
		}
	}
}

func TestRecombineErrors(t *testing.T) {
	a, _, _ := toolWorld(t)
	plan, known := marketPlan(t, a)
	tests := []struct {
		name     string
		acts     *activities.Activities
		in       activities.RecombineInput
		wantType string
		wantMsg  string
	}{
		{"failed step past the end", a, activities.RecombineInput{Plan: plan, FailedStep: len(plan.Steps), Strategy: twnm.StrategySubstitution},
			activities.ErrTypeBadPlan, "failed step 2 is not in the 2-step plan"},
		{"negative failed step", a, activities.RecombineInput{Plan: plan, FailedStep: -1, Strategy: twnm.StrategySubstitution},
			activities.ErrTypeBadPlan, "failed step -1 is not in the 2-step plan"},
		{"empty plan", a, activities.RecombineInput{Strategy: twnm.StrategySubstitution},
			activities.ErrTypeBadPlan, "failed step 0 is not in the 0-step plan"},
		{"unknown strategy", a, activities.RecombineInput{Plan: plan, Strategy: "teleport", Known: known},
			activities.ErrTypeInvalidInput, `strategy "teleport" is not one of substitution, upstream_reroute, subgraph_switch`},
		{"no strategy", a, activities.RecombineInput{Plan: plan, Known: known},
			activities.ErrTypeInvalidInput, `strategy "" is not one of`},
		{"unknown search", a, activities.RecombineInput{Plan: plan, Strategy: twnm.StrategySubgraphSwitch, Search: "dijkstra"},
			activities.ErrTypeInvalidInput, `search "dijkstra"`},
		{"an API the graph does not have", a, activities.RecombineInput{Strategy: twnm.StrategySubstitution,
			Plan: planner.Plan{Target: "nowhere.Nothing", Steps: []planner.PlanStep{{API: "nowhere.Nothing"}}}},
			activities.ErrTypeBadPlan, "API nowhere.Nothing is not in the graph"},
		{"no store", &activities.Activities{}, activities.RecombineInput{Plan: plan, Strategy: twnm.StrategySubstitution},
			activities.ErrTypeNoGraphStore, "no graph store"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := recombine(t, tt.acts, tt.in)
			appErr := requireAppError(t, err, tt.wantType, true)
			assert.Contains(t, appErr.Error(), tt.wantMsg)
		})
	}
}
