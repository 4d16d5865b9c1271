package neo4j_test

import (
	"context"
	"strings"
	"testing"
	"time"

	driver "github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/bm25"
	"github.com/naviagent/navi/twnm/embed"
)

// Reembedding rewrites every vector from its text and keeps every statistic. The shared test
// graph must keep one embedder for all tests, so this moves it to the embedder it has: the
// vectors come out the same, the indexes stay, and nothing learned moves. (The refusal of a
// graph recorded with another embedder, which names this way out, is TestSchemaMismatch.)
func TestReembedKeepsStatistics(t *testing.T) {
	s := stacktest.Store(t)
	stacktest.LockVectors(t)
	ctx := context.Background()
	emb := stacktest.Embedder(t)
	prefix := stacktest.UniqueName("t") + "_"
	c := catalog(prefix)
	// Imported with vectors of another embedder (of the same dimension), which reembedding
	// replaces.
	g, err := twnm.Build(ctx, c, twnm.BuildOptions{Embedder: embed.Default(), APIEmbedder: stacktest.SameVector(emb.Dim())})
	require.NoError(t, err)
	_, err = s.Import(ctx, g, c.Name)
	forget(t, s, c.Name)
	require.NoError(t, err)
	invs, trs := feedbackOf(prefix, true, time.Now())
	require.NoError(t, s.RecordFeedback(ctx, invs, trs))
	invs, trs = feedbackOf(prefix, false, time.Now().Add(-48*time.Hour))
	require.NoError(t, s.RecordFeedback(ctx, invs, trs))
	require.NoError(t, s.SetStatus(ctx, prefix+"Restaurants", twnm.Probing))
	_, err = s.WriteWeights(ctx, []neo4j.WeightUpdate{{Kind: twnm.Then, From: prefix + "Geocode", To: prefix + "Weather", Weight: 0.625}})
	require.NoError(t, err)
	version := stacktest.UniqueName("reembed")
	n, err := s.WritePredictions(ctx, version, []neo4j.Prediction{{Kind: twnm.Then, From: prefix + "Geocode", To: prefix + "Weather", Weight: 0.375}})
	require.NoError(t, err)
	require.Equal(t, 1, n)
	vec, err := emb.Embed(ctx, []string{"will it snow in " + word(prefix, "town")})
	require.NoError(t, err)
	require.NoError(t, s.RecordGoals(ctx, stacktest.UniqueName("reembed"), []neo4j.GoalUse{{API: prefix + "Weather", Text: "will it snow in " + word(prefix, "town"), Vector: vec[0]}}, time.Now()))
	// One kept without its text (payload encryption): its vector cannot be rebuilt.
	require.NoError(t, s.RecordGoals(ctx, stacktest.UniqueName("reembed"), []neo4j.GoalUse{{API: prefix + "Geocode", Vector: vec[0]}}, time.Now()))
	own := func() map[string]float64 { // each API's cosine with its own text's vector
		t.Helper()
		out := map[string]float64{}
		for _, a := range c.APIs {
			text, err := emb.Embed(ctx, []string{twnm.APIText(a)})
			require.NoError(t, err)
			if score := stacktest.DenseScore(t, s, text[0], a.Name); score != 0 {
				out[strings.TrimPrefix(a.Name, prefix)] = score
			}
		}
		return out
	}
	for name, score := range own() {
		require.Less(t, score, 0.9, "%s: not yet its text's vector", name)
	}
	counts, props := apiProps(t, s, prefix), learned(t, s, prefix, c)
	then, ok := props["THEN "+prefix+"Geocode -> "+prefix+"Weather"].(twnm.Edge)
	require.True(t, ok, "the subgraph holds the learned edge")
	require.Equal(t, 0.625, then.Weight)
	require.Equal(t, twnm.Probing, props["API "+prefix+"Restaurants"].(twnm.Node).Status)
	predicted := func() int64 {
		n, err := neo4j.QueryCount(ctx, s, "MATCH (a:API)-[e:THEN]->(:API) WHERE a.name STARTS WITH $p AND e[$key] = 0.375 RETURN count(e) AS n",
			map[string]any{"p": prefix, "key": "p_" + version})
		require.NoError(t, err)
		return n
	}
	require.Equal(t, int64(1), predicted())

	// A tool document an older version wrote is written again as this one writes it.
	d := testDriver(t)
	_, err = driver.ExecuteQuery(ctx, d, "MATCH (a:API {name: $name}) SET a.bm25_params = 'stale'",
		map[string]any{"name": prefix + "Weather"}, driver.EagerResultTransformer)
	require.NoError(t, err)
	require.Equal(t, "stale", textSnapshot(t, d, prefix)[prefix+"Weather"].params)

	var calls, last int
	st, err := s.Reembed(ctx, emb, func(done, total int) {
		calls++
		assert.Greater(t, done, last, "progress goes forward")
		assert.LessOrEqual(t, done, total)
		last = done
	})
	require.NoError(t, err)
	assert.GreaterOrEqual(t, st.APIs, len(c.APIs))
	assert.GreaterOrEqual(t, st.Goals, 1)
	assert.GreaterOrEqual(t, st.Dropped, 1, "the text-less sub-goal is forgotten")
	textless, err := s.Goals(ctx, prefix+"Geocode")
	require.NoError(t, err)
	assert.Empty(t, textless)
	assert.Equal(t, emb.Dim(), st.Dim)
	assert.False(t, st.Recreated, "same dimension: the indexes stay")
	assert.Positive(t, calls)

	docs := textSnapshot(t, d, prefix)
	kinDocs := twnm.KinDocuments(c.APIs, nil)
	for i, a := range c.APIs {
		doc := kinDocs[i]
		assert.Equal(t, strings.Join(doc.Fields[bm25.FieldParams], " "), docs[a.Name].params, a.Name)
		assert.Equal(t, strings.Join(doc.Fields[bm25.FieldText], " "), docs[a.Name].text, a.Name)
	}
	assert.Equal(t, counts, apiProps(t, s, prefix), "counts and edges untouched")
	assert.Equal(t, props, learned(t, s, prefix, c), "statistics, windows, statuses and weights untouched")
	assert.Equal(t, int64(1), predicted(), "predictions untouched")
	// Every API's vector is its text's, found again by it (the probing one aside: retrieval
	// skips it); the sub-goal still serves.
	scores := own()
	assert.Len(t, scores, len(c.APIs)-1)
	for name, score := range scores {
		assert.InDelta(t, 1, score, stacktest.IndexCosineDelta, name)
	}
	served, err := s.Served(ctx, vec[0], 1000, false)
	require.NoError(t, err)
	var names []string
	for _, h := range served {
		names = append(names, h.Name)
	}
	assert.Contains(t, names, prefix+"Weather")

	recorded, err := neo4j.QueryCount(ctx, s, "MATCH (m:NaviMeta {id: 'schema'}) WHERE m.embedder = $name AND m.dim = $dim RETURN count(m) AS n",
		map[string]any{"name": emb.Name(), "dim": int64(emb.Dim())})
	require.NoError(t, err)
	assert.Equal(t, int64(1), recorded, "the schema records the embedder")
	require.NoError(t, s.EnsureSchema(ctx, neo4j.SchemaOptions{}), "and accepts the standard one")
}

// learned reads what the graph learned about the catalog's APIs (every API, probing ones
// included, with the behavioural edges among them): their nodes and edges without ids and
// vectors, by name.
func learned(t *testing.T, s *neo4j.Store, prefix string, c twnm.Catalog) map[string]any {
	t.Helper()
	var targets []string
	for _, a := range c.APIs {
		targets = append(targets, a.Name)
	}
	g, err := s.Subgraph(context.Background(), targets, neo4j.SubgraphOptions{Hops: 1, MaxAPIs: len(targets)})
	require.NoError(t, err)
	out := map[string]any{}
	for _, n := range g.Nodes() {
		if !strings.HasPrefix(n.Name, prefix) {
			continue
		}
		node := *n
		node.ID, node.Embedding = 0, nil
		out[n.Kind.String()+" "+n.Name] = node
	}
	for _, e := range g.Edges() {
		if e.Kind != twnm.Then && e.Kind != twnm.Feeds {
			continue
		}
		edge := *e
		edge.From, edge.To = 0, 0
		out[e.Kind.String()+" "+g.Node(e.From).Name+" -> "+g.Node(e.To).Name] = edge
	}
	return out
}

// Deleting a catalog removes its APIs, its sub-goals and its parameters, and nothing else.
func TestDeleteCatalog(t *testing.T) {
	s, ctx, prefix, c := imported(t)
	other := stacktest.UniqueName("keep") + "_"
	oc := catalog(other)
	_, err := s.Import(ctx, build(t, oc), oc.Name)
	forget(t, s, oc.Name)
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
