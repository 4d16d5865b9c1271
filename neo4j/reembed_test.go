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

// Reembedding rewrites every vector from its text and keeps every statistic. The shared test
// graph must keep one embedder for all tests, so this moves it to the embedder it has: the
// vectors come out the same, the indexes stay, and nothing learned moves.
func TestReembedKeepsStatistics(t *testing.T) {
	s, ctx, prefix, c := imported(t)
	invs, trs := feedbackOf(prefix, true, time.Now())
	require.NoError(t, s.RecordFeedback(ctx, invs, trs))
	emb := stacktest.Embedder(t)
	vec, err := emb.Embed(ctx, []string{"will it snow in " + word(prefix, "town")})
	require.NoError(t, err)
	require.NoError(t, s.RecordGoals(ctx, stacktest.UniqueName("reembed"), []neo4j.GoalUse{{API: prefix + "Weather", Text: "will it snow in " + word(prefix, "town"), Vector: vec[0]}}, time.Now()))
	before := apiProps(t, s, prefix)

	var calls int
	st, err := s.Reembed(ctx, emb, func(done, total int) {
		calls++
		assert.LessOrEqual(t, done, total)
	})
	require.NoError(t, err)
	assert.GreaterOrEqual(t, st.APIs, len(c.APIs))
	assert.GreaterOrEqual(t, st.Goals, 1)
	assert.Equal(t, emb.Dim(), st.Dim)
	assert.False(t, st.Recreated, "same dimension: the indexes stay")
	assert.Positive(t, calls)
	assert.Equal(t, before, apiProps(t, s, prefix), "statistics and edges untouched")

	// The API's vector is its text's, found again by it; the sub-goal still serves.
	text, err := emb.Embed(ctx, []string{twnm.APIText(c.APIs[1])})
	require.NoError(t, err)
	hits, err := s.RecallSource(false).Dense(ctx, text[0], 1000)
	require.NoError(t, err)
	var score float64
	for _, h := range hits {
		if h.Name == prefix+"Weather" {
			score = h.Score
		}
	}
	assert.InDelta(t, 1, score, 5e-3)
	served, err := s.Served(ctx, vec[0], 1000, false)
	require.NoError(t, err)
	var names []string
	for _, h := range served {
		names = append(names, h.Name)
	}
	assert.Contains(t, names, prefix+"Weather")
	require.NoError(t, s.EnsureSchema(ctx, neo4j.SchemaOptions{}), "the schema records the embedder")
}

// Deleting a catalog removes its APIs, its sub-goals and its parameters, and nothing else.
func TestDeleteCatalog(t *testing.T) {
	s, ctx, prefix, c := imported(t)
	other := stacktest.UniqueName("keep") + "_"
	oc := catalog(other)
	_, err := s.Import(ctx, build(t, oc), oc.Name)
	require.NoError(t, err)
	keep := apiProps(t, s, other)

	n, err := s.DeleteCatalog(ctx, c.Name)
	require.NoError(t, err)
	assert.Equal(t, len(c.APIs), n)
	assert.Zero(t, apiProps(t, s, prefix)["apis"], "its APIs are gone")
	assert.Equal(t, keep, apiProps(t, s, other), "the other catalog is untouched")
	sub, err := s.Subgraph(ctx, []string{other + "Weather"}, neo4j.SubgraphOptions{})
	require.NoError(t, err)
	for _, node := range sub.Nodes() {
		for _, m := range node.Members {
			assert.NotContains(t, m, prefix, "no parameter keeps a member of the deleted catalog")
		}
	}
	n, err = s.DeleteCatalog(ctx, c.Name)
	require.NoError(t, err)
	assert.Zero(t, n, "deleting again removes nothing")
}
