package neo4j_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/twnm"
)

func TestRecordFeedbackOnceCountsABatchOnce(t *testing.T) {
	s, ctx, prefix, _ := imported(t)
	invs, trs := feedbackOf(prefix, true, time.Now())
	key := stacktest.UniqueName(prefix + "chain-")

	fresh, err := s.RecordFeedbackOnce(ctx, key, invs, trs)
	require.NoError(t, err)
	assert.True(t, fresh, "the first batch with a key is recorded")
	once := apiProps(t, s, prefix)
	assert.Equal(t, int64(2), once["success"], "Geocode and Weather succeeded once")
	assert.Equal(t, int64(1), once["then_n"])
	assert.Equal(t, int64(1), once["feeds_n"])

	fresh, err = s.RecordFeedbackOnce(ctx, key, invs, trs)
	require.NoError(t, err, "a batch recorded before is not an error")
	assert.False(t, fresh, "the same key again is reported as recorded before")
	assert.Equal(t, once, apiProps(t, s, prefix), "and changes nothing")

	fresh, err = s.RecordFeedbackOnce(ctx, key+"-2", invs, trs)
	require.NoError(t, err)
	assert.True(t, fresh, "another key is another batch")
	twice := apiProps(t, s, prefix)
	assert.Equal(t, int64(4), twice["success"])
	assert.Equal(t, int64(2), twice["then_n"])
}

func TestRecordFeedbackOnceErrors(t *testing.T) {
	s, ctx, prefix, _ := imported(t)
	invs, trs := feedbackOf(prefix, true, time.Now())

	t.Run("empty key", func(t *testing.T) {
		fresh, err := s.RecordFeedbackOnce(ctx, "", invs, trs)
		require.ErrorContains(t, err, "the batch key is empty")
		assert.False(t, fresh)
		assert.Equal(t, int64(0), apiProps(t, s, prefix)["success"], "nothing was recorded")
	})

	t.Run("an unknown API does not use up the key", func(t *testing.T) {
		key := stacktest.UniqueName(prefix + "chain-")
		bad := append(append([]twnm.Invocation(nil), invs...), twnm.Invocation{API: prefix + "Ghost", Success: true, Time: time.Now()})
		fresh, err := s.RecordFeedbackOnce(ctx, key, bad, trs)
		require.ErrorContains(t, err, "1 of 3 rows name an API or parameter the graph does not have")
		assert.False(t, fresh)
		assert.Equal(t, int64(0), apiProps(t, s, prefix)["success"], "nothing was recorded")

		fresh, err = s.RecordFeedbackOnce(ctx, key, invs, trs)
		require.NoError(t, err)
		assert.True(t, fresh, "the failed batch rolled its key back with its counts")
		assert.Equal(t, int64(2), apiProps(t, s, prefix)["success"])
	})
}

// A rejected run's chain lowers its edges in the store as in memory: the user's bad verdict
// takes back the successes the run counted (twnm.Invocation.Revised), so the THEN edge's
// weight (Eq. 4) drops from 1 to 1/2, and the graph read back equals twnm.Record's.
func TestRecordFeedbackRevisedLowersTheChain(t *testing.T) {
	s, ctx, prefix, c := imported(t)
	at := time.Now()
	mem := build(t, c)
	record := func(invs []twnm.Invocation, trs []twnm.Transition) {
		require.NoError(t, s.RecordFeedback(ctx, invs, trs))
		require.NoError(t, mem.Record(invs, trs))
	}
	for range 2 {
		record(feedbackOf(prefix, true, at))
	}
	invs, trs := feedbackOf(prefix, true, at)
	for i := range invs {
		invs[i].Success, invs[i].Revised = false, true
	}
	for i := range trs {
		trs[i].Success, trs[i].Revised = false, true
	}
	weight := func(g *twnm.Graph) (float64, int64, int64) {
		from, ok := g.APIByName(prefix + "Geocode")
		require.True(t, ok)
		to, ok := g.APIByName(prefix + "Weather")
		require.True(t, ok)
		e, ok := g.Edge(twnm.Then, from, to)
		require.True(t, ok)
		return e.Weight, e.Count, g.Node(to).Failure
	}
	read := func() *twnm.Graph {
		g, err := s.Subgraph(ctx, []string{prefix + "Weather"}, neo4j.SubgraphOptions{Hops: 1, MaxAPIs: 3})
		require.NoError(t, err)
		return g
	}
	w, n, f := weight(read())
	require.Equal(t, []any{1.0, int64(2), int64(0)}, []any{w, n, f})

	record(invs, trs)
	w, n, f = weight(read())
	assert.Equal(t, []any{0.5, int64(2), int64(1)}, []any{w, n, f}, "N_succ 1 of N(Weather) 2; the calls still count twice")
	mw, mn, mf := weight(mem)
	assert.Equal(t, []any{mw, mn, mf}, []any{w, n, f}, "the store records as twnm.Record does")
	assert.Equal(t, int64(4-2), apiProps(t, s, prefix)["success"], "Geocode and Weather each lost the rejected run's success")
}

// Failures are counted by the signal that judged them, as twnm.Record counts them, and read
// back with the API.
func TestRecordFeedbackCountsFailuresBySignal(t *testing.T) {
	s, ctx, prefix, c := imported(t)
	mem := build(t, c)
	at := time.Now()
	weather := prefix + "Weather"
	invs := []twnm.Invocation{
		{API: weather, Success: true, Time: at},
		{API: weather, Time: at},
		{API: weather, Signal: twnm.SignalCatalog, Time: at},
		{API: weather, Signal: twnm.SignalCatalog, Time: at},
		{API: weather, Signal: twnm.SignalUser, Revised: true, Time: at},
	}
	require.NoError(t, s.RecordFeedback(ctx, invs, nil))
	require.NoError(t, mem.Record(invs, nil))
	g, err := s.Subgraph(ctx, []string{weather}, neo4j.SubgraphOptions{Hops: 1, MaxAPIs: 1})
	require.NoError(t, err)
	id, ok := g.APIByName(weather)
	require.True(t, ok)
	want := map[twnm.Signal]int64{twnm.SignalCatalog: 2, twnm.SignalUser: 1}
	assert.Equal(t, want, g.Node(id).FailedBy)
	mid, _ := mem.APIByName(weather)
	assert.Equal(t, mem.Node(mid).FailedBy, g.Node(id).FailedBy, "the store counts as twnm.Record does")
	assert.Equal(t, [2]int64{0, 4}, [2]int64{g.Node(id).Success, g.Node(id).Failure})
}
