package chaineval

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/toolworld"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/embed"
)

// The held-out chains' flows never reach the graph: not recorded, and their inputs are on
// nodes of their own; the kept chains' flows are recorded as observed FEEDS edges.
func TestMaskedSplit(t *testing.T) {
	set, err := ToolWorldSet(60, 1, toolworld.DifficultyRenamed)
	require.NoError(t, err)
	g0, err := twnm.Build(context.Background(), set.Catalog, twnm.BuildOptions{Embedder: embed.Default()})
	require.NoError(t, err)
	sp := split(g0, set.Chains, 0.3, 1)

	eligible := 0
	for _, c := range set.Chains {
		for _, f := range c.Flows() {
			if _, ok := goldInput(g0, f); ok && len(c.APIs) >= 2 {
				eligible++
				break
			}
		}
	}
	require.Positive(t, eligible)
	assert.Len(t, sp.test, int(math.Round(0.3*float64(eligible))))
	assert.Len(t, sp.train, len(set.Chains)-len(sp.test))
	for _, c := range sp.train {
		for _, f := range c.Flows() {
			assert.False(t, sp.masked[f], "masked flow %v recorded from kept chain %s", f, c.ID)
		}
	}

	g, iso, err := sp.graph()
	require.NoError(t, err)
	require.Len(t, iso, len(sp.unlinked))
	for in, id := range iso {
		assert.Equal(t, in[0]+"."+in[1], g.Node(id).Name, "an unlinked input has a node of its own")
		assert.Equal(t, []string{in[0] + "." + in[1]}, g.Node(id).Members)
	}
	observed := 0
	for _, e := range g.Edges() {
		if e.Kind == twnm.Feeds && e.Count > 0 {
			observed++
		}
	}
	assert.Positive(t, observed, "the kept chains' flows are observed edges")
	// A masked flow is linked only where a kept chain's flow joins the same two nodes (another
	// producer of the same output node feeds the same input).
	kept := map[[2]twnm.NodeID]bool{}
	for _, c := range sp.train {
		for _, f := range c.Flows() {
			from, ok1 := g.ParamOf(f.From, f.Output, false)
			to, ok2 := g.ParamOf(f.To, f.Input, true)
			if ok1 && ok2 {
				kept[[2]twnm.NodeID{from, to}] = true
			}
		}
	}
	for f := range sp.masked {
		if _, ok := goldInput(g0, f); ok && linked(g, f) {
			from, _ := g.ParamOf(f.From, f.Output, false)
			to, _ := g.ParamOf(f.To, f.Input, true)
			assert.True(t, kept[[2]twnm.NodeID{from, to}], "masked flow %v is linked", f)
		}
	}

	// The same seed holds out the same chains.
	again := split(g0, set.Chains, 0.3, 1)
	require.Len(t, again.test, len(sp.test))
	for i := range sp.test {
		assert.Equal(t, sp.test[i].ID, again.test[i].ID)
	}
}

// Each predictor only adds links into the unlinked inputs, at most predictedPerInput each; the
// catalog's links restore what the catalog graph had, and the gold predictor every masked flow.
func TestMaskedPredictors(t *testing.T) {
	set, err := ToolWorldSet(60, 1, toolworld.DifficultyRenamed)
	require.NoError(t, err)
	sibling, err := ToolWorldSet(20, 2, toolworld.DifficultyAll)
	require.NoError(t, err)
	sibling.Name = "ToolWorld sibling"
	// Another set of the same catalog's family is left out of the HGT's training: it would
	// show the model the held-out flows.
	rep, err := MaskedAll(context.Background(), []Set{set, sibling}, []float64{0.3}, 1, nil)
	require.NoError(t, err)
	require.Len(t, rep.Results, 2*len(Predictors))
	res := rep.Results[:len(Predictors)]
	for _, r := range rep.Results {
		if r.Predictor == PredictHGT {
			assert.Contains(t, r.Note, "(sets: 1)", "%s trains on no set of its own family", r.Set)
		}
	}
	by := map[string]MaskedResult{}
	for _, r := range res {
		by[r.Predictor] = r
		assert.LessOrEqual(t, r.Predicted, predictedPerInput*r.Masked*10, r.Predictor)
		assert.Equal(t, res[0].Test, r.Test)
		assert.Equal(t, res[0].Links.Flows, r.Links.Flows, "the same held-out flows for every predictor")
	}
	assert.Zero(t, by[PredictNone].Predicted)
	assert.Positive(t, by[PredictCatalog].Predicted)
	assert.Greater(t, by[PredictCatalog].Links.Covered, by[PredictNone].Links.Covered, "the catalog's links restore masked flows")
	assert.GreaterOrEqual(t, by[PredictCatalog].Chains.Exact, by[PredictNone].Chains.Exact)
	assert.Contains(t, by[PredictHGT].Note, "(sets: 1)")
	gold := by[PredictGold]
	assert.Equal(t, gold.Links.Flows, gold.Links.Covered, "the gold predictor restores every masked flow")
	assert.LessOrEqual(t, gold.Predicted, gold.Masked, "and links nothing else")
	assert.Greater(t, gold.Chains.Exact, by[PredictNone].Chains.Exact)
}
