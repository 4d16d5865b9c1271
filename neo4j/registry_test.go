package neo4j_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/twnm"
)

func TestModelRegistry(t *testing.T) {
	s := stacktest.Store(t)
	ctx := context.Background()
	version := stacktest.UniqueName("hgt-test-")
	_, err := s.LoadModel(ctx, version, true)
	require.ErrorIs(t, err, neo4j.ErrNoModel)

	data := []byte{0, 1, 2, 255, 'n', 'a', 'v', 'i'}
	require.NoError(t, s.SaveModel(ctx, neo4j.ModelRecord{Version: version, ValAUC: 0.7, Metrics: `{"auc":0.7}`, Data: data}))
	// A retried training saves the same version again: the last save wins.
	require.NoError(t, s.SaveModel(ctx, neo4j.ModelRecord{Version: version, ValAUC: 0.75, Metrics: `{"auc":0.75}`, Data: data}))
	rec, err := s.LoadModel(ctx, version, true)
	require.NoError(t, err)
	assert.Equal(t, 0.75, rec.ValAUC)
	assert.Equal(t, `{"auc":0.75}`, rec.Metrics)
	assert.Equal(t, data, rec.Data, "bytes round-trip")
	assert.WithinDuration(t, time.Now(), rec.Saved, time.Minute)
	meta, err := s.LoadModel(ctx, version, false)
	require.NoError(t, err)
	assert.Nil(t, meta.Data)

	assert.Error(t, s.SaveModel(ctx, neo4j.ModelRecord{Version: "bad version!"}))
}

func TestWriteWeightsAndReactivation(t *testing.T) {
	s, ctx, prefix, _ := imported(t)
	invs, trs := feedbackOf(prefix, false, time.Now())
	require.NoError(t, s.RecordFeedback(ctx, invs, trs))
	g, err := s.Subgraph(ctx, []string{prefix + "Weather"}, neo4j.SubgraphOptions{})
	require.NoError(t, err)
	var then *twnm.Edge
	for _, e := range g.Edges() {
		if e.Kind == twnm.Then {
			then = e
		}
	}
	require.NotNil(t, then, "feedback created a THEN edge")
	from, to := g.Node(then.From).Name, g.Node(then.To).Name

	n, err := s.WriteWeights(ctx, []neo4j.WeightUpdate{
		{Kind: twnm.Then, From: from, To: to, Weight: 0.42},
		{Kind: twnm.Then, From: from, To: prefix + "NoSuchAPI", Weight: 0.9},
	})
	require.NoError(t, err)
	assert.Equal(t, 1, n, "the edge that does not exist is skipped")
	g, err = s.Subgraph(ctx, []string{prefix + "Weather"}, neo4j.SubgraphOptions{})
	require.NoError(t, err)
	a, _ := g.APIByName(from)
	b, _ := g.APIByName(to)
	e, ok := g.Edge(twnm.Then, a, b)
	require.True(t, ok)
	assert.Equal(t, 0.42, e.Weight)
	_, err = s.WriteWeights(ctx, []neo4j.WeightUpdate{{Kind: twnm.InputOf, From: from, To: to}})
	assert.Error(t, err)

	// Pruning keeps the window; reactivating forgets it, as twnm.Graph.SetStatus does.
	weather := prefix + "Weather"
	require.NoError(t, s.SetStatus(ctx, weather, twnm.Pruned))
	require.NoError(t, s.SetStatus(ctx, weather, twnm.Active))
	snap, err := s.Snapshot(ctx)
	require.NoError(t, err)
	id, ok := snap.APIByName(weather)
	require.True(t, ok)
	assert.Equal(t, twnm.Active, snap.Node(id).Status)
	assert.InDelta(t, 0.75, snap.PruneScore(id, time.Now(), twnm.DefaultPrune), 1e-9, "no calls left in the window: λσ(0)+(1−λ)·1")
	assert.Positive(t, snap.Node(id).Success+snap.Node(id).Failure, "lifetime counts stay")
}

func TestResetLearned(t *testing.T) {
	s, ctx, prefix, c := imported(t)
	invs, trs := feedbackOf(prefix, true, time.Now())
	require.NoError(t, s.RecordFeedback(ctx, invs, trs))
	require.NoError(t, s.SetStatus(ctx, prefix+"Weather", twnm.Pruned))
	vec, err := stacktest.Embedder(t).Embed(ctx, []string{"will it rain in " + word(prefix, "town")})
	require.NoError(t, err)
	require.NoError(t, s.RecordGoals(ctx, stacktest.UniqueName("reset"), []neo4j.GoalUse{{API: prefix + "Weather", Text: "will it rain", Vector: vec[0]}}, time.Now()))
	goals, err := s.Goals(ctx, prefix+"Weather")
	require.NoError(t, err)
	require.Len(t, goals, 1)

	n, err := s.ResetLearned(ctx, c.Name)
	require.NoError(t, err)
	assert.Equal(t, len(c.APIs), n)
	g, err := s.Snapshot(ctx)
	require.NoError(t, err)
	for _, a := range c.APIs {
		id, ok := g.APIByName(a.Name)
		require.True(t, ok)
		node := g.Node(id)
		assert.Zero(t, node.Success+node.Failure, a.Name)
		assert.Equal(t, twnm.Active, node.Status, a.Name)
		assert.InDelta(t, 0.75, g.PruneScore(id, time.Now(), twnm.DefaultPrune), 1e-9, "window emptied")
		for _, e := range g.In(id) {
			assert.False(t, e.Kind.Behavioural(), "no behavioural edge left at %s", a.Name)
		}
		for _, e := range g.Out(id) {
			assert.False(t, e.Kind.Behavioural(), "no behavioural edge left at %s", a.Name)
		}
	}
	goals, err = s.Goals(ctx, prefix+"Weather")
	require.NoError(t, err)
	assert.Empty(t, goals, "what users called it is forgotten")
	// The structure stays: the chain still plans.
	sub, err := s.Subgraph(ctx, []string{prefix + "Weather"}, neo4j.SubgraphOptions{})
	require.NoError(t, err)
	id, _ := sub.APIByName(prefix + "Weather")
	assert.NotEmpty(t, sub.Inputs(id))
}
