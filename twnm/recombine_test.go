package twnm

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func stepNames(p Plan) []string {
	var out []string
	for _, s := range p.Steps {
		out = append(out, s.API)
	}
	return out
}

// withEffect is a with the effect e.
func withEffect(a API, e string) API {
	a.Effect = e
	return a
}

func TestRecombine(t *testing.T) {
	tests := []struct {
		name      string
		apis      []API
		setup     func(t *testing.T, g *Graph)
		target    string
		known     map[string]string
		later     map[string]string // values the user gave after the plan was made
		failed    string
		wantPlan  []string // the plan before the failure
		strategy  string
		wantSteps []string
		wantErr   string
	}{
		{
			name:     "substitution: OpenGeo takes the given city",
			apis:     travelAPIs(),
			target:   "Weather",
			known:    map[string]string{"address": "Paris", "city": "Paris"},
			failed:   "Geocoding",
			wantPlan: []string{"Geocoding", "Weather"},
			strategy: StrategySubstitution, wantSteps: []string{"OpenGeo", "Weather"},
		},
		{
			name: "substitution of the target by an API with the same outputs",
			apis: append(travelAPIs(), tool("Forecast", "latitude longitude", "temperature")),
			setup: func(t *testing.T, g *Graph) {
				g.AddEdge(Then, apiID(t, g, "Weather"), apiID(t, g, "Forecast")) // unrelated history
			},
			target:   "Weather",
			known:    map[string]string{"address": "Paris"},
			failed:   "Weather",
			wantPlan: []string{"Geocoding", "Weather"},
			strategy: StrategySubstitution, wantSteps: []string{"Geocoding", "Forecast"},
		},
		{
			name:     "upstream reroute: OpenGeo needs a city that CityOf derives",
			apis:     append(travelAPIs(), tool("CityOf", "address", "city")),
			target:   "Weather",
			known:    map[string]string{"address": "Paris"},
			failed:   "Geocoding",
			wantPlan: []string{"Geocoding", "Weather"},
			strategy: StrategyUpstreamReroute, wantSteps: []string{"CityOf", "OpenGeo", "Weather"},
		},
		{
			name: "subgraph switch: Weather cannot be fed, Advice has another route",
			apis: []API{
				tool("Geocoding", "address", "latitude longitude"),
				tool("Weather", "latitude longitude", "temperature"),
				tool("CityClimate", "city", "temperature"),
				tool("Advice", "temperature", "advice"),
			},
			target:   "Advice",
			known:    map[string]string{"address": "Paris"},
			later:    map[string]string{"city": "Paris"},
			failed:   "Geocoding",
			wantPlan: []string{"Geocoding", "Weather", "Advice"},
			strategy: StrategySubgraphSwitch, wantSteps: []string{"CityClimate", "Advice"},
		},
		{
			name: "a read is not replaced by a write that outputs the same",
			// PinPlace creates a pin, and answers with its point.
			apis:     append(travelAPIs(), withEffect(tool("PinPlace", "city", "latitude longitude"), EffectUnsafe)),
			target:   "Weather",
			known:    map[string]string{"address": "Paris", "city": "Paris"},
			failed:   "Geocoding",
			wantPlan: []string{"Geocoding", "Weather"},
			strategy: StrategySubstitution, wantSteps: []string{"OpenGeo", "Weather"},
		},
		{
			name: "a read whose only substitute writes has no alternative",
			apis: []API{tool("Geocoding", "address", "latitude longitude"), tool("Weather", "latitude longitude", "temperature"),
				withEffect(tool("PinPlace", "address", "latitude longitude"), EffectIdempotent)},
			target:   "Weather",
			known:    map[string]string{"address": "Paris"},
			failed:   "Geocoding",
			wantPlan: []string{"Geocoding", "Weather"},
			wantErr:  "no usable API other than Geocoding provides latitude, longitude",
		},
		{
			name: "a write may be replaced by a safer one",
			apis: []API{tool("Geocoding", "address", "latitude longitude"),
				withEffect(tool("Book", "latitude longitude", "booking_id"), EffectUnsafe),
				withEffect(tool("BookOnce", "latitude longitude", "booking_id"), EffectIdempotent)},
			target:   "Book",
			known:    map[string]string{"address": "Paris"},
			failed:   "Book",
			wantPlan: []string{"Geocoding", "Book"},
			strategy: StrategySubstitution, wantSteps: []string{"Geocoding", "BookOnce"},
		},
		{
			name:     "no alternative",
			apis:     []API{tool("Geocoding", "address", "latitude longitude"), tool("Weather", "latitude longitude", "temperature")},
			target:   "Weather",
			known:    map[string]string{"address": "Paris"},
			failed:   "Geocoding",
			wantPlan: []string{"Geocoding", "Weather"},
			wantErr:  "no usable API other than Geocoding provides latitude, longitude",
		},
		{
			name:     "no alternative for a failed target",
			apis:     travelAPIs(),
			target:   "Weather",
			known:    map[string]string{"address": "Paris"},
			failed:   "Weather",
			wantPlan: []string{"Geocoding", "Weather"},
			wantErr:  "provides temperature",
		},
	}
	searchers := []Searcher{DefaultAlphaBeta(), DefaultHeuristic()}
	for _, tt := range tests {
		for _, s := range searchers {
			t.Run(tt.name, func(t *testing.T) {
				g := graphOf(t, tt.apis...)
				if tt.setup != nil {
					tt.setup(t, g)
				}
				sg, err := s.Search(context.Background(), g, SearchRequest{Target: apiID(t, g, tt.target), Known: tt.known})
				require.NoError(t, err)
				plan, err := sg.Plan(g, tt.known)
				require.NoError(t, err)
				require.Equal(t, tt.wantPlan, stepNames(plan), "%T", s)

				known := map[string]string{}
				for k, v := range tt.known {
					known[k] = v
				}
				for k, v := range tt.later {
					known[k] = v
				}
				rec, err := Recombine(context.Background(), g, plan, plan.StepOf(tt.failed), known, s)
				if tt.wantErr != "" {
					require.ErrorIs(t, err, ErrNoAlternative)
					assert.ErrorContains(t, err, tt.wantErr)
					return
				}
				require.NoError(t, err)
				assert.Equal(t, tt.strategy, rec.Strategy, rec.Reason)
				assert.Equal(t, tt.wantSteps, stepNames(rec.Plan), "%T: %s", s, rec.Reason)
				assert.Equal(t, -1, rec.Plan.StepOf(tt.failed))
				assert.Empty(t, rec.Plan.Missing())
				assert.NotEmpty(t, rec.Reason)
			})
		}
	}
}

func TestRecombineBindings(t *testing.T) {
	g := graphOf(t, travelAPIs()...)
	known := map[string]string{"address": "Paris", "city": "Lyon"}
	sg, err := DefaultAlphaBeta().Search(context.Background(), g, SearchRequest{Target: apiID(t, g, "Weather"), Known: known})
	require.NoError(t, err)
	plan, err := sg.Plan(g, known)
	require.NoError(t, err)
	rec, err := Recombine(context.Background(), g, plan, 0, known, DefaultAlphaBeta())
	require.NoError(t, err)
	assert.Equal(t, "OpenGeo replaces Geocoding, providing latitude, longitude", rec.Reason)
	assert.Equal(t, []Binding{{Param: "city", Required: true, Source: SupplyGiven, Value: "Lyon"}},
		rec.Plan.Steps[0].Bindings)
	assert.Equal(t, [2]string{"OpenGeo", "latitude"}, [2]string{rec.Plan.Steps[1].Bindings[0].FromAPI, rec.Plan.Steps[1].Bindings[0].FromOutput})
	assert.Equal(t, [2]string{"OpenGeo", "longitude"}, [2]string{rec.Plan.Steps[1].Bindings[1].FromAPI, rec.Plan.Steps[1].Bindings[1].FromOutput})

	_, err = Recombine(context.Background(), g, plan, 5, known, DefaultAlphaBeta())
	assert.ErrorContains(t, err, "failed step 5")
}

func TestRecombineCancelled(t *testing.T) {
	g := graphOf(t, append(travelAPIs(), tool("CityOf", "address", "city"))...)
	known := map[string]string{"address": "Paris"}
	sg, err := DefaultAlphaBeta().Search(context.Background(), g, SearchRequest{Target: apiID(t, g, "Weather"), Known: known})
	require.NoError(t, err)
	plan, err := sg.Plan(g, known)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Recombine(ctx, g, plan, 0, known, DefaultHeuristic())
	assert.ErrorIs(t, err, context.Canceled)
}
