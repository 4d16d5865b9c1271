package twnm

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// statsGraph: GetToken() -> token; AddAgenda(user_token, content) -> status; Flaky(); Busy().
func statsGraph(t *testing.T) *Graph {
	t.Helper()
	g := New()
	for _, a := range []API{
		{Name: "GetToken", Outputs: []Param{{Name: "token"}}},
		{Name: "AddAgenda", Inputs: []Param{{Name: "user_token", Required: true}, {Name: "content", Required: true}}, Outputs: []Param{{Name: "status"}}},
		{Name: "Flaky"}, {Name: "Busy"}, {Name: "Rare"},
	} {
		_, err := g.AddAPI(a)
		require.NoError(t, err)
	}
	return g
}

var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

func TestRecordStatisticalWeight(t *testing.T) {
	g := statsGraph(t)
	require.NoError(t, g.Record([]Invocation{
		{API: "GetToken", Success: true, Time: t0},
		{API: "AddAgenda", Inputs: []string{"user_token", "content"}, Success: true, Time: t0},
		{API: "AddAgenda", Inputs: []string{"user_token", "content"}, Success: false, Time: t0},
	}, []Transition{
		{Kind: Then, From: "GetToken", To: "AddAgenda", Success: true, Time: t0},
		{Kind: Feeds, From: "GetToken", To: "AddAgenda", FromParam: "token", ToParam: "user_token", Success: true, Time: t0},
	}))

	getToken, _ := g.APIByName("GetToken")
	addAgenda, _ := g.APIByName("AddAgenda")
	assert.Equal(t, int64(1), g.Node(addAgenda).Success)
	assert.Equal(t, int64(1), g.Node(addAgenda).Failure)
	assert.Equal(t, 0.5, g.Node(addAgenda).SuccessRatio())

	// Eq. 4: N_succ(GetToken -> AddAgenda) = 1, N(AddAgenda) = 2.
	then, ok := g.Edge(Then, getToken, addAgenda)
	require.True(t, ok)
	assert.Equal(t, int64(1), then.Count)
	assert.Equal(t, 0.5, then.Weight)
	assert.Equal(t, 0.5, then.Strength())

	// FEEDS token -> user_token: 1 success over 2 uses of user_token.
	token, _ := g.ParamByName("token")
	userToken, _ := g.ParamByName("user_token")
	feeds, ok := g.Edge(Feeds, token, userToken)
	require.True(t, ok)
	assert.Equal(t, 0.5, feeds.Weight)

	// A third, successful call of AddAgenda without data flow lowers the weight: 1/3.
	require.NoError(t, g.Record([]Invocation{{API: "AddAgenda", Success: true, Time: t0}}, nil))
	assert.InDelta(t, 1.0/3, then.Weight, 1e-12)
}

func TestRecordRejectsUnknownNamesAndRecordsNothing(t *testing.T) {
	tests := []struct {
		name string
		invs []Invocation
		trs  []Transition
		want string
	}{
		{"unknown API", []Invocation{{API: "GetToken", Success: true}, {API: "Nope"}}, nil, `record invocation 1: unknown API "Nope"`},
		{"unknown input", []Invocation{{API: "AddAgenda", Inputs: []string{"colour"}}}, nil, `API AddAgenda has no input "colour"`},
		{"unknown output", nil, []Transition{{Kind: Feeds, From: "GetToken", To: "AddAgenda", FromParam: "tok", ToParam: "user_token"}}, `API "GetToken" has no output "tok"`},
		{"unknown THEN target", nil, []Transition{{Kind: Then, From: "GetToken", To: "Nope"}}, `record transition 0: unknown API "Nope"`},
		{"structural kind", nil, []Transition{{Kind: InputOf, From: "GetToken", To: "AddAgenda"}}, "kind INPUT_OF is not THEN or FEEDS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := statsGraph(t)
			edges := len(g.Edges())
			err := g.Record(tt.invs, tt.trs)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			id, _ := g.APIByName("GetToken")
			assert.Zero(t, g.Node(id).Success, "nothing recorded")
			assert.Len(t, g.Edges(), edges, "no edge added")
		})
	}
}

func TestPropagateEq14(t *testing.T) {
	g := statsGraph(t)
	flow := func(at time.Time, ok bool) {
		require.NoError(t, g.Record(
			[]Invocation{{API: "AddAgenda", Success: ok, Time: at}},
			[]Transition{{Kind: Then, From: "GetToken", To: "AddAgenda", Success: ok, Time: at}}))
	}
	flow(t0, true)
	flow(t0, false)
	getToken, _ := g.APIByName("GetToken")
	addAgenda, _ := g.APIByName("AddAgenda")
	then, _ := g.Edge(Then, getToken, addAgenda)
	require.Equal(t, 0.5, then.Weight) // Eq. 4: 1 of 2

	t1 := t0.Add(10 * 24 * time.Hour) // the first two calls fall out of a 7-day window
	flow(t1, true)
	require.InDelta(t, 2.0/3, then.Weight, 1e-12) // Eq. 4 over all history: 2 of 3

	// Eq. 14 with η = 0.5: 0.5·(2/3) + 0.5·(1 recent success / 1 recent call) = 5/6.
	require.NoError(t, g.Propagate(t1, PropagationOptions{Eta: 0.5, WindowDays: 7}))
	assert.InDelta(t, 5.0/6, then.Weight, 1e-12)

	// A target with no calls in the window keeps its weight.
	require.NoError(t, g.Propagate(t1.Add(30*24*time.Hour), PropagationOptions{Eta: 0.5, WindowDays: 7}))
	assert.InDelta(t, 5.0/6, then.Weight, 1e-12)

	assert.Error(t, g.Propagate(t1, PropagationOptions{Eta: 1.5, WindowDays: 7}))
}

func TestPruneEq13AndReactivation(t *testing.T) {
	g := statsGraph(t)
	var invs []Invocation
	for i := 0; i < 3; i++ {
		invs = append(invs, Invocation{API: "Flaky", Success: false, Time: t0}, Invocation{API: "Busy", Success: true, Time: t0})
	}
	invs = append(invs, Invocation{API: "Rare", Success: false, Time: t0}, Invocation{API: "Rare", Success: false, Time: t0})
	require.NoError(t, g.Record(invs, nil))

	flaky, _ := g.APIByName("Flaky")
	busy, _ := g.APIByName("Busy")
	sig := func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
	// Flaky: 3 failures in 3 calls: 0.5·σ(3) + 0.5·σ(1/3) = 0.76757...
	assert.InDelta(t, 0.5*sig(3)+0.5*sig(1.0/3), g.PruneScore(flaky, t0, DefaultPrune), 1e-12)
	assert.InDelta(t, 0.767572, g.PruneScore(flaky, t0, DefaultPrune), 1e-6)
	// Busy: no failure: 0.5·0.5 + 0.5·σ(1/3) = 0.54128...
	assert.InDelta(t, 0.541285, g.PruneScore(busy, t0, DefaultPrune), 1e-6)

	// Rare fails twice but has fewer than MinCalls calls: not pruned.
	assert.Equal(t, []string{"Flaky"}, g.Prune(t0, DefaultPrune))
	assert.Equal(t, Pruned, g.Node(flaky).Status)
	assert.Empty(t, g.Prune(t0, DefaultPrune), "already pruned")

	require.NoError(t, g.SetStatus("Flaky", Probing))
	require.NoError(t, g.SetStatus("Flaky", Active))
	assert.Empty(t, g.Prune(t0, DefaultPrune), "reactivation forgets the failures that pruned it")
	assert.Equal(t, int64(3), g.Node(flaky).Failure, "lifetime counts stay")
	assert.Error(t, g.SetStatus("Nope", Active))
}

// A revised failure (a user's bad verdict) takes back the success the run counted: the call
// still counts once, the THEN edge's successes drop, and Eq. 4 drops with them.
func TestRecordRevisedFailure(t *testing.T) {
	g := statsGraph(t)
	run := func(ok, revised bool) ([]Invocation, []Transition) {
		return []Invocation{
				{API: "GetToken", Success: ok, Revised: revised, Time: t0},
				{API: "AddAgenda", Inputs: []string{"user_token", "content"}, Success: ok, Revised: revised, Time: t0},
			}, []Transition{
				{Kind: Then, From: "GetToken", To: "AddAgenda", Success: ok, Revised: revised, Time: t0},
				{Kind: Feeds, From: "GetToken", To: "AddAgenda", FromParam: "token", ToParam: "user_token", Success: ok, Revised: revised, Time: t0},
			}
	}
	for range 2 {
		require.NoError(t, g.Record(run(true, false)))
	}
	getToken, _ := g.APIByName("GetToken")
	addAgenda, _ := g.APIByName("AddAgenda")
	then, ok := g.Edge(Then, getToken, addAgenda)
	require.True(t, ok)
	require.Equal(t, 1.0, then.Weight, "2 of 2")

	require.NoError(t, g.Record(run(false, true)), "the second run was rated bad")
	// AddAgenda: s = 2 − 1 = 1, f = 1; THEN: N = 2 (unchanged), N_succ = 1; Eq. 4: 1 / (1 + 1).
	assert.Equal(t, [2]int64{1, 1}, [2]int64{g.Node(addAgenda).Success, g.Node(addAgenda).Failure})
	assert.Equal(t, [2]int64{1, 1}, [2]int64{g.Node(getToken).Success, g.Node(getToken).Failure})
	assert.Equal(t, [2]int64{2, 1}, [2]int64{then.Count, then.Success})
	assert.Equal(t, 0.5, then.Weight)
	userToken, _ := g.ParamByName("user_token")
	assert.Equal(t, [2]int64{1, 1}, [2]int64{g.Node(userToken).Success, g.Node(userToken).Failure})
	s, n := then.recent.counts(t0, 7)
	assert.Equal(t, [2]int64{1, 2}, [2]int64{s, n}, "the window revises the day too")

	// A good verdict (a revised success) confirms what was counted: nothing changes.
	require.NoError(t, g.Record(run(true, true)))
	assert.Equal(t, [2]int64{1, 1}, [2]int64{g.Node(addAgenda).Success, g.Node(addAgenda).Failure})
	assert.Equal(t, [2]int64{2, 1}, [2]int64{then.Count, then.Success})

	// A revision never takes the counts below zero.
	require.NoError(t, g.Record(run(false, true)))
	require.NoError(t, g.Record(run(false, true)))
	assert.Equal(t, [2]int64{0, 3}, [2]int64{g.Node(addAgenda).Success, g.Node(addAgenda).Failure})
	assert.Equal(t, int64(0), then.Success)
}

func TestRecordCountsFailuresBySignal(t *testing.T) {
	g := statsGraph(t)
	require.NoError(t, g.Record([]Invocation{
		{API: "GetToken", Success: true, Time: t0},
		{API: "GetToken", Time: t0},                        // the call failed
		{API: "GetToken", Signal: SignalCatalog, Time: t0}, // it answered, but not as the catalog says
		{API: "GetToken", Signal: SignalUser, Revised: true, Time: t0},
		{API: "GetToken", Signal: SignalUser, Success: true, Revised: true, Time: t0}, // confirmed: no failure
	}, nil))
	id, _ := g.APIByName("GetToken")
	n := g.Node(id)
	// s = 1 − 1 (the user's revision) = 0; f = 1 + 1 + 1 = 3, two of them by a signal.
	assert.Equal(t, [2]int64{0, 3}, [2]int64{n.Success, n.Failure})
	assert.Equal(t, map[Signal]int64{SignalCatalog: 1, SignalUser: 1}, n.FailedBy)
}

func TestReliability(t *testing.T) {
	tests := []struct {
		name           string
		success, total int64
		want           float64
	}{
		{"never used", 0, 0, 1},
		{"two failures of a new API", 0, 2, 3.0 / 5},
		{"a third of a hundred failed", 67, 100, 70.0 / 103},
		{"always right", 50, 50, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := &Node{Success: tt.success, Failure: tt.total - tt.success}
			e := &Edge{Success: tt.success, Count: tt.total}
			assert.InDelta(t, tt.want, n.Reliability(), 1e-12)
			assert.InDelta(t, tt.want, e.Reliability(), 1e-12)
		})
	}
}

// A chain has run well as often as its least used link: the target's successes and those of
// the THEN edges its steps take from one another, each reliable enough.
func TestChainRuns(t *testing.T) {
	plan := Plan{Target: "AddAgenda", Steps: []Step{
		{API: "GetToken"},
		{API: "AddAgenda", Bindings: []Binding{{Param: "user_token", Required: true, Source: SupplyUpstream, FromAPI: "GetToken", FromOutput: "token"}}},
	}}
	run := func(g *Graph, ok bool, n int) {
		for range n {
			require.NoError(t, g.Record([]Invocation{{API: "GetToken", Success: true, Time: t0}, {API: "AddAgenda", Success: ok, Time: t0}},
				[]Transition{{Kind: Then, From: "GetToken", To: "AddAgenda", Success: ok, Time: t0}}))
		}
	}
	g := statsGraph(t)
	assert.Equal(t, 0, g.ChainRuns(plan, 0.8), "never run")
	run(g, true, 4)
	assert.Equal(t, 4, g.ChainRuns(plan, 0.8))
	require.NoError(t, g.Record([]Invocation{{API: "AddAgenda", Success: true, Time: t0}}, nil))
	assert.Equal(t, 4, g.ChainRuns(plan, 0.8), "the flow's 4 successes, not the target's 5")
	run(g, false, 2)
	// THEN: 4 of 6, reliability (4+3)/(6+3) ≈ 0.78 < 0.8: not proven.
	assert.Equal(t, 0, g.ChainRuns(plan, 0.8))
	assert.Equal(t, 4, g.ChainRuns(plan, 0.7))
	assert.Equal(t, 0, g.ChainRuns(Plan{Target: "Nope"}, 0.8))
}

// A predicted link's strength is its probability until runs use it; the runs it fails lower it
// as they lower an observed link's reliability: (N_succ + 3) / (N + 3).
func TestPredictedStrength(t *testing.T) {
	tests := []struct {
		name           string
		count, success int64
		want           float64
	}{
		{"never used", 0, 0, 0.9},
		{"used well", 2, 2, 0.9},
		{"disproved twice in three uses", 3, 1, 0.9 * 4.0 / 6.0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &Edge{Kind: Feeds, Predicted: 0.9, HasPrediction: true, Count: tt.count, Success: tt.success}
			assert.InDelta(t, tt.want, e.Strength(), 1e-12)
		})
	}
}

// Without copies the graph without the dropped edges and with its own statistics; RemoveEdge
// takes one edge out of every index.
func TestWithoutAndRemoveEdge(t *testing.T) {
	g := New()
	for _, a := range []API{
		{Name: "A", Outputs: []Param{{Name: "place_ref", Type: "string"}}},
		{Name: "B", Inputs: []Param{{Name: "location_code", Type: "string", Required: true}}},
	} {
		_, err := g.AddAPI(a)
		require.NoError(t, err)
	}
	x, _ := g.ParamOf("A", "place_ref", false)
	z, _ := g.ParamOf("B", "location_code", true)
	feeds := g.AddEdge(Feeds, x, z)
	feeds.Count = 3
	edges := len(g.Edges())

	c := g.Without(func(e *Edge) bool { return e.Kind == Feeds })
	_, ok := c.Edge(Feeds, x, z)
	assert.False(t, ok, "the dropped edge is not in the copy")
	assert.Len(t, c.Edges(), edges-1)
	assert.Empty(t, slices.DeleteFunc(slices.Clone(c.In(z)), func(e *Edge) bool { return e.Kind != Feeds }))
	_, ok = g.Edge(Feeds, x, z)
	assert.True(t, ok, "the original keeps it")
	a, _ := c.APIByName("A")
	c.Node(a).Success = 7
	assert.Zero(t, g.Node(a).Success, "the copy's statistics are its own")

	kept := c.AddEdge(Feeds, x, z)
	c.RemoveEdge(kept)
	_, ok = c.Edge(Feeds, x, z)
	assert.False(t, ok)
	assert.Len(t, c.Edges(), edges-1)
	assert.NotContains(t, c.Out(x), kept)
	assert.NotContains(t, c.In(z), kept)
	assert.Equal(t, int64(3), feeds.Count, "the original edge is untouched")
}
