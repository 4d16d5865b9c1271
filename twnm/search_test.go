package twnm

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tool builds an API: inputs are space-separated names, a trailing '?' marks an optional one.
func tool(name, inputs, outputs string) API {
	a := API{Name: name, Description: name}
	for _, in := range strings.Fields(inputs) {
		opt := strings.HasSuffix(in, "?")
		a.Inputs = append(a.Inputs, Param{Name: strings.TrimSuffix(in, "?"), Required: !opt})
	}
	for _, out := range strings.Fields(outputs) {
		a.Outputs = append(a.Outputs, Param{Name: out})
	}
	return a
}

func graphOf(t testing.TB, apis ...API) *Graph {
	t.Helper()
	g := New()
	for _, a := range apis {
		_, err := g.AddAPI(a)
		require.NoError(t, err)
	}
	return g
}

func apiID(t testing.TB, g *Graph, name string) NodeID {
	t.Helper()
	id, ok := g.APIByName(name)
	require.True(t, ok, "API %s", name)
	return id
}

// searchPlan is the plan of s's search on g for req.
func searchPlan(t testing.TB, s Searcher, g *Graph, req SearchRequest) Plan {
	t.Helper()
	sg, err := s.Search(context.Background(), g, req)
	require.NoError(t, err)
	p, err := sg.Plan(g, nil)
	require.NoError(t, err)
	return p
}

func paramID(t testing.TB, g *Graph, name string) NodeID {
	t.Helper()
	id, ok := g.ParamByName(name)
	require.True(t, ok, "param %s", name)
	return id
}

// travelAPIs is the small travel world of the tests.
func travelAPIs() []API {
	return []API{
		tool("Geocoding", "address", "latitude longitude"),
		tool("OpenGeo", "city", "latitude longitude"),
		tool("Weather", "latitude longitude units?", "temperature"),
		tool("Restaurants", "latitude longitude", "restaurant_ids"),
		tool("HotelSearch", "city", "hotel_id"),
		tool("HotelDetails", "hotel_id", "hotel_name rating"),
	}
}

func names(g *Graph, ids []NodeID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = g.Node(id).Name
	}
	return out
}

func supplyNames(g *Graph, ss []Supply) []string {
	var out []string
	for _, s := range ss {
		out = append(out, g.Node(s.API).Name+"."+g.Node(s.Param).Name)
	}
	return out
}

func TestLinkScore(t *testing.T) {
	g := graphOf(t, tool("A", "", "x q w"), tool("B", "x", "y"))
	a, b := apiID(t, g, "A"), apiID(t, g, "B")
	x, q, w := paramID(t, g, "x"), paramID(t, g, "q"), paramID(t, g, "w")
	ex, _ := g.Edge(Outputs, a, x)
	ex.Predicted, ex.HasPrediction = 0.9, true
	ew, _ := g.Edge(Outputs, a, w)
	ew.Predicted, ew.HasPrediction = 0.7, true
	g.AddEdge(Then, a, b).Weight = 0.5
	g.AddEdge(Feeds, q, x).Weight = 0.5
	o := DefaultAlphaBeta()

	tests := []struct {
		name   string
		output NodeID
		depth  int
		wanted []NodeID
		want   float64
	}{
		// 0.6·0.8^1·0.9 + 0.3·0.5 + 0.1·0.7
		{"all three terms at depth 2", x, 2, []NodeID{w}, 0.432 + 0.15 + 0.07},
		// 0.6·0.9 + 0.3·0.5, no wanted output
		{"depth 1 without wanted", x, 1, nil, 0.54 + 0.15},
		// FEEDS alias q→x: 0.6·(1.0·0.5) + 0.3·0.5
		{"alias through FEEDS", q, 1, nil, 0.3 + 0.15},
		{"output that does not reach x", w, 1, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, o.LinkScore(g, a, tt.output, x, b, tt.depth, tt.wanted), 1e-12)
		})
	}
	assert.InDelta(t, 0.1*math.Exp(-0.5*2), o.alphaAt(2), 1e-12)
}

func TestAlphaBetaChoosesProducer(t *testing.T) {
	tests := []struct {
		name      string
		known     map[string]string
		setup     func(t *testing.T, g *Graph)
		exclude   []string
		target    string
		wantAPIs  []string
		wantMiss  []string
		wantScore float64
	}{
		{name: "address known uses Geocoding for both coordinates", known: map[string]string{"address": "Paris"},
			target: "Weather", wantAPIs: []string{"Weather", "Geocoding"}, wantScore: 0.36},
		{name: "city known uses OpenGeo", known: map[string]string{"city": "Paris"},
			target: "Weather", wantAPIs: []string{"Weather", "OpenGeo"}, wantScore: 0.36},
		{name: "both known, equal strength: first by name", known: map[string]string{"city": "Paris", "address": "x"},
			target: "Weather", wantAPIs: []string{"Weather", "Geocoding"}, wantScore: 0.36},
		{name: "THEN history raises OpenGeo", known: map[string]string{"city": "Paris", "address": "x"},
			setup: func(t *testing.T, g *Graph) {
				g.AddEdge(Then, apiID(t, g, "OpenGeo"), apiID(t, g, "Weather")).Weight = 0.9
			},
			// (0.6 + 0.3·0.9)² = 0.87²
			target: "Weather", wantAPIs: []string{"Weather", "OpenGeo"}, wantScore: 0.87 * 0.87},
		{name: "rejected answers demote Geocoding below the untried OpenGeo", known: map[string]string{"city": "Paris", "address": "x"},
			setup: func(t *testing.T, g *Graph) {
				// s = 3, f = 3: reliability (3+3)/(3+3+3) = 2/3; each link 0.6·2/3 < OpenGeo's 0.6.
				n := g.Node(apiID(t, g, "Geocoding"))
				n.Success, n.Failure = 3, 3
			},
			target: "Weather", wantAPIs: []string{"Weather", "OpenGeo"}, wantScore: 0.36},
		{name: "a THEN history that failed half the time still loses to the untried", known: map[string]string{"city": "Paris", "address": "x"},
			setup: func(t *testing.T, g *Graph) {
				// Geocoding: (0.6 + 0.3·0.5)·(5+3)/(5+5+3) = 0.75·8/13 ≈ 0.462 per link, against 0.6.
				n := g.Node(apiID(t, g, "Geocoding"))
				n.Success, n.Failure = 5, 5
				g.AddEdge(Then, apiID(t, g, "Geocoding"), apiID(t, g, "Weather")).Weight = 0.5
			},
			target: "Weather", wantAPIs: []string{"Weather", "OpenGeo"}, wantScore: 0.36},
		{name: "a proven Geocoding keeps its place", known: map[string]string{"city": "Paris", "address": "x"},
			setup: func(t *testing.T, g *Graph) {
				// s = 9, f = 1: (0.6 + 0.3·0.9)·12/13 ≈ 0.803 per link; the score is its square.
				n := g.Node(apiID(t, g, "Geocoding"))
				n.Success, n.Failure = 9, 1
				g.AddEdge(Then, apiID(t, g, "Geocoding"), apiID(t, g, "Weather")).Weight = 0.9
			},
			target: "Weather", wantAPIs: []string{"Weather", "Geocoding"}, wantScore: (0.87 * 12 / 13) * (0.87 * 12 / 13)},
		{name: "flows users rejected demote Geocoding into Weather", known: map[string]string{"city": "Paris", "address": "x"},
			setup: func(t *testing.T, g *Graph) {
				// The calls answered (s = 10), but 5 of the 6 answers they fed Weather were
				// rejected: THEN N = 6, N_succ = 1, w = 1/6, reliability (1+3)/(6+3) = 4/9;
				// (0.6 + 0.3/6)·4/9 ≈ 0.289 per link, against OpenGeo's 0.6.
				g.Node(apiID(t, g, "Geocoding")).Success = 10
				e := g.AddEdge(Then, apiID(t, g, "Geocoding"), apiID(t, g, "Weather"))
				e.Count, e.Success, e.Weight = 6, 1, 1.0/6
			},
			target: "Weather", wantAPIs: []string{"Weather", "OpenGeo"}, wantScore: 0.36},
		{name: "lower predicted weight demotes Geocoding", known: map[string]string{"city": "Paris", "address": "x"},
			setup: func(t *testing.T, g *Graph) {
				for _, p := range []string{"latitude", "longitude"} {
					e, _ := g.Edge(Outputs, apiID(t, g, "Geocoding"), paramID(t, g, p))
					e.Predicted, e.HasPrediction = 0.5, true
				}
			},
			target: "Weather", wantAPIs: []string{"Weather", "OpenGeo"}, wantScore: 0.36},
		{name: "pruned Geocoding is never used", known: map[string]string{"address": "Paris"},
			setup:  func(t *testing.T, g *Graph) { g.Node(apiID(t, g, "Geocoding")).Status = Pruned },
			target: "Weather", wantAPIs: []string{"Weather"}, wantMiss: []string{"Weather.latitude", "Weather.longitude"}},
		{name: "probing Geocoding is not used either", known: map[string]string{"address": "Paris"},
			setup:  func(t *testing.T, g *Graph) { g.Node(apiID(t, g, "Geocoding")).Status = Probing },
			target: "Weather", wantAPIs: []string{"Weather"}, wantMiss: []string{"Weather.latitude", "Weather.longitude"}},
		{name: "excluded Geocoding falls back to OpenGeo", known: map[string]string{"address": "Paris", "city": "Paris"},
			exclude: []string{"Geocoding"}, target: "Weather", wantAPIs: []string{"Weather", "OpenGeo"}, wantScore: 0.36},
		{name: "nothing known: missing", target: "Weather", wantAPIs: []string{"Weather"},
			wantMiss: []string{"Weather.latitude", "Weather.longitude"}},
		{name: "known inputs stop the search", known: map[string]string{"latitude": "1", "longitude": "2"},
			target: "Weather", wantAPIs: []string{"Weather"}, wantScore: 1},
		{name: "two-level chain", known: map[string]string{"city": "Rome"},
			target: "HotelDetails", wantAPIs: []string{"HotelDetails", "HotelSearch"}, wantScore: 0.6},
		{name: "member name binds a known value", known: map[string]string{"HotelSearch.city": "Rome"},
			target: "HotelDetails", wantAPIs: []string{"HotelDetails", "HotelSearch"}, wantScore: 0.6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := graphOf(t, travelAPIs()...)
			if tt.setup != nil {
				tt.setup(t, g)
			}
			req := SearchRequest{Target: apiID(t, g, tt.target), Known: tt.known, Exclude: map[NodeID]bool{}}
			for _, e := range tt.exclude {
				req.Exclude[apiID(t, g, e)] = true
			}
			sg, err := DefaultAlphaBeta().Search(context.Background(), g, req)
			require.NoError(t, err)
			assert.Equal(t, tt.wantAPIs, names(g, sg.APIs))
			assert.Equal(t, tt.wantMiss, supplyNames(g, sg.Missing()))
			assert.InDelta(t, tt.wantScore, sg.Score, 1e-9)
			assert.Equal(t, len(tt.wantMiss) == 0, sg.Feasible())
		})
	}
}

func TestAlphaBetaKnownInputsExpandNothing(t *testing.T) {
	g := graphOf(t, travelAPIs()...)
	sg, err := DefaultAlphaBeta().Search(context.Background(), g, SearchRequest{
		Target: apiID(t, g, "Weather"), Known: map[string]string{"latitude": "1", "longitude": "2"}})
	require.NoError(t, err)
	assert.Zero(t, sg.Stats.Expanded)
	assert.Equal(t, []string{"Weather.latitude", "Weather.longitude"}, supplyNames(g, sg.Given()))
	assert.Empty(t, sg.Upstream())
}

func TestAlphaPruning(t *testing.T) {
	// Weak is the only producer, and the link predictor doubts it: S = 0.6·0.05 = 0.03, below
	// α_1 = 0.1·e^−0.5 ≈ 0.061.
	g := graphOf(t, tool("Weak", "address", "latitude longitude"), tool("Weather", "latitude longitude", "temperature"))
	for _, p := range []string{"latitude", "longitude"} {
		e, _ := g.Edge(Outputs, apiID(t, g, "Weak"), paramID(t, g, p))
		e.Predicted, e.HasPrediction = 0.05, true
	}
	req := SearchRequest{Target: apiID(t, g, "Weather"), Known: map[string]string{"address": "Paris"}}

	sg, err := DefaultAlphaBeta().Search(context.Background(), g, req)
	require.NoError(t, err)
	assert.Equal(t, []string{"Weather"}, names(g, sg.APIs))
	assert.Equal(t, 2, sg.Stats.AlphaPruned)
	assert.False(t, sg.Feasible())

	o := DefaultAlphaBeta()
	o.Alpha0 = 0
	sg, err = o.Search(context.Background(), g, req)
	require.NoError(t, err)
	assert.Equal(t, []string{"Weather", "Weak"}, names(g, sg.APIs))
	assert.Zero(t, sg.Stats.AlphaPruned)
}

func TestAlphaPruningCutsDeepWeakBranch(t *testing.T) {
	// Target T needs p from P (S 0.6), which needs a from Deep at depth 2, whose link is
	// predicted at 0.1: path 0.6·(0.6·0.8·0.1) = 0.0288 < α_2 ≈ 0.0368, so Deep is cut and p
	// falls to Flat, which needs nothing.
	g := graphOf(t, tool("T", "p", "out"), tool("P", "a", "p"), tool("Deep", "k", "a"), tool("Q", "k", "p"))
	e, _ := g.Edge(Outputs, apiID(t, g, "Deep"), paramID(t, g, "a"))
	e.Predicted, e.HasPrediction = 0.1, true
	sg, err := DefaultAlphaBeta().Search(context.Background(), g, SearchRequest{
		Target: apiID(t, g, "T"), Known: map[string]string{"k": "1"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"T", "Q"}, names(g, sg.APIs))
	// Q sorts first (fewer unbound inputs) and reaches 0.6 ≥ β, so P is cut by beta.
	assert.Equal(t, 1, sg.Stats.BetaPruned)

	o := DefaultAlphaBeta()
	o.Beta = 1 // no beta cut: P is tried and its weak branch is cut by alpha
	g.Node(apiID(t, g, "Q")).Status = Pruned
	sg, err = o.Search(context.Background(), g, SearchRequest{Target: apiID(t, g, "T"), Known: map[string]string{"k": "1"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"T"}, names(g, sg.APIs))
	assert.Equal(t, 1, sg.Stats.AlphaPruned)
}

func TestBetaPruning(t *testing.T) {
	// T needs p; A and B both output it (S 0.6 each, one unbound input each). A's input comes
	// from QA (S 0.48), B's from QB, which history links to B (S 0.48 + 0.3 = 0.78).
	// val(A) = 0.6·0.48 = 0.288, val(B) = 0.6·0.78 = 0.468.
	g := graphOf(t, tool("T", "p", "out"), tool("A", "a", "p"), tool("B", "b", "p"),
		tool("QA", "k", "a"), tool("QB", "k", "b"))
	g.AddEdge(Then, apiID(t, g, "QB"), apiID(t, g, "B")).Weight = 1
	req := SearchRequest{Target: apiID(t, g, "T"), Known: map[string]string{"k": "1"}}
	tests := []struct {
		beta      float64
		wantAPIs  []string
		wantScore float64
		wantBeta  int
	}{
		{0.25, []string{"T", "A", "QA"}, 0.288, 1}, // A reaches β: B is never tried
		{1, []string{"T", "B", "QB"}, 0.468, 0},
	}
	for _, tt := range tests {
		o := DefaultAlphaBeta()
		o.Beta = tt.beta
		sg, err := o.Search(context.Background(), g, req)
		require.NoError(t, err)
		assert.Equal(t, tt.wantAPIs, names(g, sg.APIs), "beta %v", tt.beta)
		assert.InDelta(t, tt.wantScore, sg.Score, 1e-9)
		assert.Equal(t, tt.wantBeta, sg.Stats.BetaPruned)
	}
}

func TestSearchConstraints(t *testing.T) {
	g := graphOf(t, tool("T", "p", "out"), tool("P1", "a", "p"), tool("P2", "b", "a"), tool("P3", "k", "b"))
	req := SearchRequest{Target: apiID(t, g, "T"), Known: map[string]string{"k": "1"}}
	tests := []struct {
		name             string
		maxDepth, maxAPI int
		want             []string
	}{
		{"unbounded enough", 4, 8, []string{"T", "P1", "P2", "P3"}},
		{"depth 2 cannot reach P3", 2, 8, []string{"T"}},
		{"three APIs cannot hold the chain", 4, 3, []string{"T"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ab := DefaultAlphaBeta()
			ab.MaxDepth, ab.MaxAPIs, ab.Alpha0 = tt.maxDepth, tt.maxAPI, 0
			h := DefaultHeuristic()
			h.MaxDepth, h.MaxAPIs = tt.maxDepth, tt.maxAPI
			for _, s := range []Searcher{ab, h} {
				sg, err := s.Search(context.Background(), g, req)
				require.NoError(t, err)
				assert.Equal(t, tt.want, names(g, sg.APIs), "%T", s)
			}
		})
	}
}

func TestSearchCycleTerminates(t *testing.T) {
	// A needs x, produced by B; B needs y, produced by A.
	g := graphOf(t, tool("A", "x", "y z"), tool("B", "y", "x"))
	for _, s := range []Searcher{DefaultAlphaBeta(), DefaultHeuristic()} {
		sg, err := s.Search(context.Background(), g, SearchRequest{Target: apiID(t, g, "A")})
		require.NoError(t, err)
		assert.Equal(t, []string{"A.x"}, supplyNames(g, sg.Missing()), "%T", s)
		assert.Equal(t, []string{"A"}, names(g, sg.APIs), "%T", s)
		p, err := sg.Plan(g, nil)
		require.NoError(t, err)
		assert.Equal(t, []string{"A.x"}, p.Missing())
	}
}

func TestSearchBadTarget(t *testing.T) {
	g := graphOf(t, travelAPIs()...)
	geo := apiID(t, g, "Geocoding")
	for _, s := range []Searcher{DefaultAlphaBeta(), DefaultHeuristic()} {
		_, err := s.Search(context.Background(), g, SearchRequest{Target: paramID(t, g, "city")})
		assert.ErrorIs(t, err, errBadTarget)
		_, err = s.Search(context.Background(), g, SearchRequest{Target: 999})
		assert.ErrorIs(t, err, errBadTarget)
		_, err = s.Search(context.Background(), g, SearchRequest{Target: geo, Exclude: map[NodeID]bool{geo: true}})
		assert.ErrorIs(t, err, errBadTarget)
	}
	bad := DefaultAlphaBeta()
	bad.MaxDepth = 0
	_, err := bad.Search(context.Background(), g, SearchRequest{Target: geo})
	assert.ErrorContains(t, err, "MaxDepth")
}

func TestFitnessTerms(t *testing.T) {
	// Weather ← Geocoding(address given): APIs {Weather, Geocoding}, params {latitude,
	// longitude, address}, N = 5; edges: 3 INPUT_OF, 2 OUTPUTS. Closeness: Weather 4/7,
	// Geocoding 4/5; mean depth 0.5.
	g := graphOf(t, travelAPIs()...)
	sg, err := DefaultAlphaBeta().Search(context.Background(), g, SearchRequest{
		Target: apiID(t, g, "Weather"), Known: map[string]string{"address": "Paris"}})
	require.NoError(t, err)
	f := FitnessTerms(g, sg, nil)
	assert.InDelta(t, (4.0/7+4.0/5)/2, f.Compactness, 1e-12)
	assert.InDelta(t, 3.0/5, f.Density, 1e-12)
	assert.InDelta(t, 0.5/5, f.DepthPenalty, 1e-12)
	assert.InDelta(t, 1, f.Weight, 1e-12)
	assert.InDelta(t, 5.0/5, f.Complexity, 1e-12)

	h, err := DefaultHeuristic().Search(context.Background(), g, SearchRequest{
		Target: apiID(t, g, "Weather"), Known: map[string]string{"address": "Paris"}})
	require.NoError(t, err)
	assert.InDelta(t, 48.0/70+0.6-0.1+1-1, h.Score, 1e-12)
}

func TestHeuristicDeterministic(t *testing.T) {
	g := graphOf(t, append(travelAPIs(), tool("CityOf", "address", "city"), tool("Trip", "hotel_name temperature", "plan"))...)
	req := SearchRequest{Target: apiID(t, g, "Trip"), Known: map[string]string{"address": "Paris"}}
	h := DefaultHeuristic()
	h.Seed = 42
	a, err := h.Search(context.Background(), g, req)
	require.NoError(t, err)
	b, err := h.Search(context.Background(), g, req)
	require.NoError(t, err)
	assert.Equal(t, a.Tree(g), b.Tree(g))
	assert.Equal(t, a.Score, b.Score)
	assert.Equal(t, a.Stats, b.Stats)
	assert.True(t, a.Feasible(), a.Tree(g))
}

func TestHeuristicMatchesAlphaBeta(t *testing.T) {
	tests := []struct {
		target string
		known  map[string]string
	}{
		{"Weather", map[string]string{"address": "Paris"}},
		{"Weather", map[string]string{"city": "Paris"}},
		{"Restaurants", map[string]string{"city": "Paris"}},
		{"HotelDetails", map[string]string{"city": "Rome"}},
		{"Weather", map[string]string{"latitude": "1", "longitude": "2"}},
	}
	g := graphOf(t, append(travelAPIs(), tool("CityOf", "address", "city"), tool("Trip", "hotel_name temperature", "plan"))...)
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			req := SearchRequest{Target: apiID(t, g, tt.target), Known: tt.known}
			ab, err := DefaultAlphaBeta().Search(context.Background(), g, req)
			require.NoError(t, err)
			for seed := uint64(1); seed <= 5; seed++ {
				h := DefaultHeuristic()
				h.Seed = seed
				hs, err := h.Search(context.Background(), g, req)
				require.NoError(t, err)
				require.True(t, hs.Feasible(), hs.Tree(g))
				pa, err := ab.Plan(g, tt.known)
				require.NoError(t, err)
				ph, err := hs.Plan(g, tt.known)
				require.NoError(t, err)
				assert.Equal(t, pa.Steps, ph.Steps, "seed %d", seed)
			}
		})
	}
}

func TestSearchTargets(t *testing.T) {
	g := graphOf(t, travelAPIs()...)
	known := map[string]string{"address": "Paris", "city": "Paris"}
	targets := []string{"Weather", "HotelDetails", "Restaurants", "HotelSearch", "OpenGeo", "Geocoding"}
	var reqs []SearchRequest
	for _, n := range targets {
		reqs = append(reqs, SearchRequest{Target: apiID(t, g, n), Known: known})
	}
	for _, s := range []Searcher{DefaultAlphaBeta(), DefaultHeuristic()} {
		got, err := SearchTargets(context.Background(), g, s, reqs)
		require.NoError(t, err)
		require.Len(t, got, len(targets))
		for i, sg := range got {
			assert.Equal(t, targets[i], g.Node(sg.Target).Name)
			assert.True(t, sg.Feasible())
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := SearchTargets(ctx, g, DefaultAlphaBeta(), reqs)
	assert.ErrorIs(t, err, context.Canceled)

	reqs = append(reqs, SearchRequest{Target: paramID(t, g, "city")})
	_, err = SearchTargets(context.Background(), g, DefaultAlphaBeta(), reqs)
	assert.ErrorIs(t, err, errBadTarget)
	assert.ErrorContains(t, err, "search target 6 (city)")
}

// A layered graph where every layer has four equally strong producers and nothing is known:
// nothing prunes, so the expansion budget must end the search.
func TestAlphaBetaExpansionBudget(t *testing.T) {
	g := New()
	const layers, width = 5, 4
	for l := 0; l < layers; l++ {
		for w := 0; w < width; w++ {
			a := API{Name: fmt.Sprintf("L%d_%d", l, w), Outputs: []Param{{Name: fmt.Sprintf("p%d", l)}}}
			a.Inputs = []Param{{Name: fmt.Sprintf("p%d", l+1), Required: true}}
			_, err := g.AddAPI(a)
			require.NoError(t, err)
		}
	}
	target, err := g.AddAPI(API{Name: "Target", Inputs: []Param{{Name: "p0", Required: true}}})
	require.NoError(t, err)

	o := DefaultAlphaBeta()
	o.MaxDepth, o.MaxAPIs = 10, 20
	full, err := o.Search(context.Background(), g, SearchRequest{Target: target})
	require.NoError(t, err)
	assert.False(t, full.Stats.Exhausted)

	o.MaxExpansions = 10
	cut, err := o.Search(context.Background(), g, SearchRequest{Target: target})
	require.NoError(t, err)
	assert.True(t, cut.Stats.Exhausted)
	assert.Equal(t, 10, cut.Stats.Expanded, "expansions stop at the budget")
	assert.Less(t, cut.Stats.Expanded, full.Stats.Expanded)
	assert.NotEmpty(t, cut.Missing(), "what the budget left unexplored is reported missing")
}

// A stated value is there to be used: a person's id comes from the credits of the movie the
// user named, not from a list of popular people that ignores the title, although the list
// alone scores higher (one link against two).
func TestAlphaBetaPrefersGroundedBranch(t *testing.T) {
	apis := []API{
		tool("PopularPeople", "", "person_id"),
		tool("SearchMovie", "title", "movie_id"),
		tool("MovieCredits", "movie_id", "person_id"),
		tool("PersonBirthday", "person_id", "birthday"),
		tool("PersonRole", "title person_id", "role"),
	}
	tests := []struct {
		name, target string
		known        map[string]string
		want         []string
		score        float64
	}{
		{"the title is used", "PersonBirthday", map[string]string{"title": "Titanic"}, []string{"PersonBirthday", "MovieCredits", "SearchMovie"}, 0.6 * 0.6 * 0.8},
		{"nothing stated: the shortest", "PersonBirthday", nil, []string{"PersonBirthday", "PopularPeople"}, 0.6},
		// The target itself uses the title: nothing pulls the longer branch.
		{"stated value used already", "PersonRole", map[string]string{"title": "Titanic"}, []string{"PersonRole", "PopularPeople"}, 0.6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := graphOf(t, apis...)
			sg, err := DefaultAlphaBeta().Search(context.Background(), g, SearchRequest{Target: apiID(t, g, tt.target), Known: tt.known})
			require.NoError(t, err)
			assert.ElementsMatch(t, tt.want, names(g, sg.APIs))
			assert.InDelta(t, tt.score, sg.Score, 1e-9)
		})
	}
}

// A value picked from an input's own list (its schema's enum) identifies nothing the user
// named: "the director of the top-rated movie" states "movie", one of a trending list's media
// types, and that must not make the list the producer of the film over the top-rated one.
func TestAlphaBetaListedValueDoesNotGround(t *testing.T) {
	trending := tool("Trending", "media_type", "movie_id")
	trending.Inputs[0].Enum = []string{"all", "movie", "tv"}
	g := graphOf(t, tool("Credits", "movie_id", "director"), trending, tool("Popular", "", "movie_id"))
	known := map[string]string{"media_type": "movie"}
	sg, err := DefaultAlphaBeta().Search(context.Background(), g, SearchRequest{Target: apiID(t, g, "Credits"), Known: known,
		Relevance: map[string]float64{"Popular": 1, "Trending": 0.5}})
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"Credits", "Popular"}, names(g, sg.APIs), "the more relevant producer, the listed value grounding nothing")

	trending.Inputs[0].Enum = nil // a free value the user stated grounds its branch
	g = graphOf(t, tool("Credits", "movie_id", "director"), trending, tool("Popular", "", "movie_id"))
	sg, err = DefaultAlphaBeta().Search(context.Background(), g, SearchRequest{Target: apiID(t, g, "Credits"), Known: known,
		Relevance: map[string]float64{"Popular": 1, "Trending": 0.5}})
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"Credits", "Trending"}, names(g, sg.APIs))
}

func TestSearchAsksWhatAPersonKnows(t *testing.T) {
	// AddAlarm needs a token, which GetToken makes from a user name and a password. With the
	// user name known, the plan asks for the password rather than for the token; a city,
	// which a person can tell, is still asked for as it is.
	g := graphOf(t, tool("AddAlarm", "token time", "alarm_id"), tool("GetToken", "username password", "token"),
		tool("Weather", "city", "temperature"), tool("CityOf", "postcode", "city"))
	tests := []struct {
		target      string
		known       map[string]string
		wantAPIs    []string
		wantMissing []string
	}{
		{"AddAlarm", map[string]string{"username": "ana", "time": "08:30"}, []string{"AddAlarm", "GetToken"}, []string{"GetToken.password"}},
		{"AddAlarm", map[string]string{"time": "08:30"}, []string{"AddAlarm", "GetToken"}, []string{"GetToken.password", "GetToken.username"}},
		{"Weather", nil, []string{"Weather"}, []string{"Weather.city"}},
	}
	for _, s := range []Searcher{DefaultAlphaBeta(), DefaultHeuristic()} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%T/%s%v", s, tt.target, tt.known), func(t *testing.T) {
				sg, err := s.Search(context.Background(), g, SearchRequest{Target: apiID(t, g, tt.target), Known: tt.known})
				require.NoError(t, err)
				assert.ElementsMatch(t, tt.wantAPIs, names(g, sg.APIs))
				assert.Equal(t, tt.wantMissing, supplyNames(g, sg.Missing()))
			})
		}
	}
}

func TestSearchPrefersNamedBranch(t *testing.T) {
	// Elevation needs a latitude: Geocode gives a city's, HotelDetails a hotel's, whose id
	// SearchHotels finds in a city. "The elevation at the location of the best hotel in
	// Singapore" states the city and names the hotel: both branches use the city, and the one
	// through the hotel wins though it is longer. SimilarHotels needs the hotel id it gives:
	// naming it brings no branch through it.
	apis := []API{
		tool("Elevation", "latitude", "elevation"),
		tool("Geocode", "city", "latitude"),
		tool("SearchHotels", "city", "hotel_id"),
		tool("HotelDetails", "hotel_id", "latitude"),
		tool("HotelReviews", "hotel_id", "reviews"),
		tool("SimilarHotels", "hotel_id", "hotel_id"),
	}
	like := tool("HotelsLike", "hotel_id", "hotel_id")
	like.Outputs[0].Path = "results[].hotel_id"
	apis = append(apis, like)
	city := map[string]string{"city": "Singapore"}
	tests := []struct {
		name, target string
		known        map[string]string
		named        map[string]bool
		want         []string
	}{
		{"nothing named: the shortest", "Elevation", city, nil, []string{"Elevation", "Geocode"}},
		// Many runs through the hotel's coordinates make that branch the stronger; with
		// nothing named, one call that binds the city still beats a detour of two.
		{"nothing named, the detour learned stronger", "Elevation", city, nil, []string{"Elevation", "Geocode"}},
		{"the hotel named", "Elevation", city, map[string]bool{"SearchHotels": true, "HotelDetails": true},
			[]string{"Elevation", "HotelDetails", "SearchHotels"}},
		// With no city stated, the plan asks for the hotels' city rather than the geocoder's.
		{"named, nothing stated", "Elevation", nil, map[string]bool{"HotelDetails": true}, []string{"Elevation", "HotelDetails", "SearchHotels"}},
		{"a producer that needs what it gives", "HotelReviews", city, map[string]bool{"SimilarHotels": true},
			[]string{"HotelReviews", "SearchHotels"}},
		// HotelsLike answers a list of other hotels: named, it gives the hotel reviewed ("the
		// reviews of the first hotel like the best one in Singapore").
		{"a producer that needs what it lists", "HotelReviews", city, map[string]bool{"HotelsLike": true},
			[]string{"HotelReviews", "HotelsLike", "SearchHotels"}},
	}
	for _, s := range []Searcher{DefaultAlphaBeta(), DefaultHeuristic()} {
		for _, tt := range tests {
			if _, ok := s.(Heuristic); ok && tt.known == nil {
				continue // the heuristic leaves the hotel id missing; only Alpha-Beta asks what a person knows
			}
			if _, ok := s.(Heuristic); ok && strings.Contains(tt.name, "lists") {
				continue // one producer per parameter: the heuristic cannot bind hotel_id twice
			}
			t.Run(fmt.Sprintf("%T/%s", s, tt.name), func(t *testing.T) {
				g := graphOf(t, apis...)
				if strings.Contains(tt.name, "learned") {
					learnThen(t, g, "SearchHotels", "HotelDetails")
					learnThen(t, g, "HotelDetails", "Elevation")
				}
				sg, err := s.Search(context.Background(), g, SearchRequest{Target: apiID(t, g, tt.target), Known: tt.known, Named: tt.named})
				require.NoError(t, err)
				assert.ElementsMatch(t, tt.want, names(g, sg.APIs))
			})
		}
	}
}

// learnThen gives the THEN edge from → to the weight of a transition that always succeeded.
func learnThen(t *testing.T, g *Graph, from, to string) {
	t.Helper()
	e := g.AddEdge(Then, apiID(t, g, from), apiID(t, g, to))
	e.Count, e.Success, e.Weight = 50, 50, 1
}

func TestSearchPrefersTheConsumersSpelling(t *testing.T) {
	// Two geocoders bind a weather API's latitude alike: Geocode by an output named latitude,
	// Locate by one named lat that joined the same parameter node. A weather API spelling
	// latitude as Geocode does takes Geocode's; one spelling it lat takes Locate's, whatever
	// the names' order or their relevance to the request.
	alias := func(p Param, input bool) string {
		if p.Name == "lat" {
			return "latitude"
		}
		return p.Name
	}
	for _, s := range []Searcher{DefaultAlphaBeta(), DefaultHeuristic()} {
		for _, tc := range []struct{ weather, input, want string }{
			{"Alerts", "latitude", "Geocode"},
			{"Now", "lat", "Locate"},
		} {
			t.Run(fmt.Sprintf("%T/%s", s, tc.weather), func(t *testing.T) {
				g := New()
				for _, a := range []API{tool("Geocode", "city", "latitude"), tool("Locate", "city", "lat"), tool(tc.weather, tc.input, "report")} {
					_, err := g.AddAPIWithParams(a, alias)
					require.NoError(t, err)
				}
				relevance := map[string]float64{"Geocode": .5, "Locate": .5}
				relevance[tc.want] = .4 // the other is the more relevant: spelling decides first
				sg, err := s.Search(context.Background(), g, SearchRequest{Target: apiID(t, g, tc.weather),
					Known: map[string]string{"city": "Oslo"}, Relevance: relevance})
				require.NoError(t, err)
				assert.ElementsMatch(t, []string{tc.weather, tc.want}, names(g, sg.APIs))
			})
		}
	}
}

// A producer of another source than its consumer feeds it only where the request retrieved
// it: a music search takes its "version" from its own source's info call, or, with none, asks
// for it, but never from a workflow engine's that the request did not ask about. APIs of no
// known source are all local.
func TestSearchKeepsToTheSource(t *testing.T) {
	from := func(a API, source string) API { a.Source = source; return a }
	tests := []struct {
		name      string
		apis      []API
		relevance map[string]float64
		want      []string // the plan's steps
	}{
		{name: "another source's producer is not taken",
			apis: []API{from(tool("Search", "version term", "tracks"), "music"), from(tool("EngineInfo", "", "version"), "engine")},
			want: []string{"Search"}},
		{name: "its own source's producer is",
			apis: []API{from(tool("Search", "version term", "tracks"), "music"), from(tool("EngineInfo", "", "version"), "engine"),
				from(tool("MusicInfo", "", "version"), "music")},
			want: []string{"MusicInfo", "Search"}},
		{name: "another source's producer the request merely retrieved is not",
			apis:      []API{from(tool("Search", "version term", "tracks"), "music"), from(tool("EngineInfo", "", "version"), "engine")},
			relevance: map[string]float64{"Search": 1, "EngineInfo": 0.4},
			want:      []string{"Search"}},
		{name: "a source a part of the request asks for first is",
			apis: []API{from(tool("Search", "version term", "tracks"), "music"), from(tool("EngineInfo", "", "version"), "engine"),
				from(tool("EngineStatus", "", "status"), "engine")},
			relevance: map[string]float64{"Search": 1, "EngineStatus": 1, "EngineInfo": 0.4},
			want:      []string{"EngineInfo", "Search"}},
		{name: "APIs of no known source are all local",
			apis: []API{tool("Search", "version term", "tracks"), tool("EngineInfo", "", "version")},
			want: []string{"EngineInfo", "Search"}},
	}
	for _, tt := range tests {
		for _, s := range []Searcher{DefaultAlphaBeta(), DefaultHeuristic()} {
			t.Run(fmt.Sprintf("%s/%T", tt.name, s), func(t *testing.T) {
				g := graphOf(t, tt.apis...)
				known := map[string]string{"term": "jazz"}
				sg, err := s.Search(context.Background(), g, SearchRequest{Target: apiID(t, g, "Search"), Known: known, Relevance: tt.relevance})
				require.NoError(t, err)
				p, err := sg.Plan(g, known)
				require.NoError(t, err)
				assert.Equal(t, tt.want, stepNames(p))
				if len(tt.want) == 1 {
					assert.Equal(t, []string{"Search.version"}, p.Missing(), "asked for, not guessed")
				}
			})
		}
	}
}

func TestSearchTakesAnIdentifierFromItsIssuer(t *testing.T) {
	// The chat service's owners list needs a team id. A part of the request asks for the
	// other service (its Status ranks first there), so its application, which gives a team id
	// too and ranks higher, is a local producer; but an id means something only to the
	// service that issued it, and the chat service has its own producer: it binds the id.
	// Where the search may not call it, the run asks for the id; where the chat service
	// issues none, the other's may bind it.
	from := func(a API, provider string) API { a.Source, a.Provider = provider, provider; return a }
	owners, app := from(tool("Owners", "team_id", "owners"), "chat"), from(tool("App", "", "team_id"), "games")
	status, teams := from(tool("Status", "", "status"), "games"), from(tool("Teams", "", "team_id"), "chat")
	relevance := map[string]float64{"Owners": 1, "Status": 1, "App": .9}
	for _, s := range []Searcher{DefaultAlphaBeta(), DefaultHeuristic()} {
		for _, tc := range []struct {
			apis    []API
			exclude string
			want    []string
		}{
			{[]API{owners, app, status, teams}, "", []string{"Teams", "Owners"}},
			{[]API{owners, app, status, teams}, "Teams", []string{"Owners"}},
			{[]API{owners, app, status}, "", []string{"App", "Owners"}},
		} {
			g := graphOf(t, tc.apis...)
			req := SearchRequest{Target: apiID(t, g, "Owners"), Relevance: relevance}
			if tc.exclude != "" {
				req.Exclude = map[NodeID]bool{apiID(t, g, tc.exclude): true}
			}
			assert.Equal(t, tc.want, stepNames(searchPlan(t, s, g, req)), "%T", s)
		}
	}
}

// An output that names a role of the input it would bind (the league leader's team id for a
// team id) binds it only where the request says the role: "the next match of Bayern" asks
// about a team, not the leader of Bayern's league, and the plan asks for the team instead.
func TestSearchAsksForARoleTheRequestDoesNotSay(t *testing.T) {
	leader := func(w string) bool { return w == "leader" }
	for _, s := range []Searcher{DefaultAlphaBeta(), DefaultHeuristic()} {
		for _, tc := range []struct {
			name        string
			said        func(string) bool
			wantAPIs    []string
			wantMissing []string
			// the same one step further from the target: the role is read at the API that
			// takes the input, the fixtures, not at the statistics
			wantDeep, wantDeepMissing []string
		}{
			{"no request text", nil, []string{"Fixtures", "Standings"}, nil, []string{"Stats", "Fixtures", "Standings"}, nil},
			{"the role said", leader, []string{"Fixtures", "Standings"}, nil, []string{"Stats", "Fixtures", "Standings"}, nil},
			// Both ids are opaque: asked for, the match's is as good as the team's, in one call.
			{"the role not said", func(string) bool { return false }, []string{"Fixtures"}, []string{"Fixtures.team_id"},
				[]string{"Stats"}, []string{"Stats.match_id"}},
		} {
			t.Run(fmt.Sprintf("%T/%s", s, tc.name), func(t *testing.T) {
				g := withLeader(t, tool("Standings", "league", "leader_team_id"), tool("Fixtures", "team_id", "match_id"),
					tool("Stats", "match_id", "home_score"))
				sg, err := s.Search(context.Background(), g, SearchRequest{Target: apiID(t, g, "Fixtures"),
					Known: map[string]string{"league": "Serie A"}, Said: tc.said})
				require.NoError(t, err)
				assert.ElementsMatch(t, tc.wantAPIs, names(g, sg.APIs))
				assert.Equal(t, tc.wantMissing, supplyNames(g, sg.Missing()))
				sg, err = s.Search(context.Background(), g, SearchRequest{Target: apiID(t, g, "Stats"),
					Known: map[string]string{"league": "Serie A"}, Said: tc.said})
				require.NoError(t, err)
				assert.ElementsMatch(t, tc.wantDeep, names(g, sg.APIs))
				assert.Equal(t, tc.wantDeepMissing, supplyNames(g, sg.Missing()))
			})
		}
	}
}

// Of two producers that bind the same stated value in one call, the one whose output names a
// role the request says wins: "the squad of the team leading the Bundesliga" is the league
// leader's squad, though the team search takes "Bundesliga" as a name as well and its link
// is the stronger.
func TestSearchPrefersTheRoleSaid(t *testing.T) {
	for _, s := range []Searcher{DefaultAlphaBeta(), DefaultHeuristic()} {
		for _, tc := range []struct {
			name string
			said func(string) bool
			want []string
		}{
			{"the role said", func(w string) bool { return w == "leader" || w == "team" }, []string{"Players", "Standings"}},
			{"no request text", nil, []string{"Players", "SearchTeam"}},
		} {
			t.Run(fmt.Sprintf("%T/%s", s, tc.name), func(t *testing.T) {
				g := withLeader(t, tool("Standings", "league", "leader_team_id"), tool("SearchTeam", "team_name", "team_id"),
					tool("Players", "team_id", "player_count"))
				sg, err := s.Search(context.Background(), g, SearchRequest{Target: apiID(t, g, "Players"),
					Known: map[string]string{"league": "Bundesliga", "team_name": "Bundesliga"}, Said: tc.said,
					Relevance: map[string]float64{"SearchTeam": 1, "Standings": .5}})
				require.NoError(t, err)
				assert.ElementsMatch(t, tc.want, names(g, sg.APIs))
			})
		}
	}
}

// withLeader is a graph of apis in which the league leader's team id joined the team id's
// node, as the links join them.
func withLeader(t *testing.T, apis ...API) *Graph {
	t.Helper()
	g := New()
	for _, a := range apis {
		_, err := g.AddAPIWithParams(a, func(p Param, input bool) string {
			if p.Name == "leader_team_id" {
				return "team_id"
			}
			return p.Name
		})
		require.NoError(t, err)
	}
	return g
}

// Another provider's output feeds an input only on a strong link, where the request asks for
// that provider, or where runs have shown it feeds the consumer: a football team's fixtures
// give no date to a table's booking (a weak match_date → date), and the run asks for the date
// instead; a city feeds a city.
func TestSearchTakesNoWeakLinkFromAnotherProvider(t *testing.T) {
	of := func(a API, provider string) API { a.Provider = provider; return a }
	reserve := of(tool("Reserve", "date restaurant_id", "booking_id"), "dine")
	nearby := of(tool("Nearby", "", "restaurant_id"), "dine")
	fixtures := of(tool("Fixtures", "", "match_date"), "sports")
	for _, s := range []Searcher{DefaultAlphaBeta(), DefaultHeuristic()} {
		for _, tc := range []struct {
			name      string
			strength  float64
			relevance map[string]float64
			want      []string
		}{
			{"a weak link", 0.65, nil, []string{"Nearby", "Reserve"}},
			{"a strong link", 0.9, nil, []string{"Fixtures", "Nearby", "Reserve"}},
			{"the provider asked for", 0.65, map[string]float64{"Fixtures": 1}, []string{"Fixtures", "Nearby", "Reserve"}},
			{"fed before", 0.65, nil, []string{"Fixtures", "Nearby", "Reserve"}},
			// What runs teach ranks producers; it does not make a strong link foreign.
			{"a strong link runs weakened", 0.9, nil, []string{"Fixtures", "Nearby", "Reserve"}},
		} {
			t.Run(fmt.Sprintf("%T/%s", s, tc.name), func(t *testing.T) {
				g := graphOf(t, reserve, nearby, fixtures)
				feeds := g.AddEdge(Feeds, paramID(t, g, "match_date"), paramID(t, g, "date"))
				feeds.Confidence = tc.strength
				if tc.name == "a strong link runs weakened" {
					feeds.Count, feeds.Success, feeds.Weight = 10, 2, 0.2
				}
				if tc.name == "fed before" {
					then := g.AddEdge(Then, apiID(t, g, "Fixtures"), apiID(t, g, "Reserve"))
					then.Count, then.Success = 3, 3
				}
				assert.Equal(t, tc.want, stepNames(searchPlan(t, s, g, SearchRequest{Target: apiID(t, g, "Reserve"), Relevance: tc.relevance})))
			})
		}
	}
}
