package neo4j_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sync/errgroup"

	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/twnm/embed"
)

// A vector index that quantizes (Neo4j's default since 5.23, and what earlier Navis created)
// is built again without: its scores are the cosines then, as in process. The test uses an
// index and a label of its own, so that the shared indexes stay up for the tests beside it.
func TestEnsureVectorIndexRebuildsAQuantizedIndex(t *testing.T) {
	s := stacktest.Store(t)
	ctx := context.Background()
	name := stacktest.UniqueName("vec_")
	label := stacktest.UniqueName("Vec")
	t.Cleanup(func() {
		_ = neo4j.Exec(context.Background(), s, "DROP INDEX "+name+" IF EXISTS", nil)
		_ = neo4j.Exec(context.Background(), s, "MATCH (n:"+label+") DELETE n", nil)
	})
	vecs := [][]float64{{1, 0, 0, 0}, {0.6, 0.8, 0, 0}, {0.5, 0.5, 0.5, 0.5}}
	for i, v := range vecs {
		require.NoError(t, neo4j.Exec(ctx, s, "CREATE (:"+label+" {id: $id, embedding: $v})", map[string]any{"id": int64(i), "v": v}))
	}
	require.NoError(t, neo4j.Exec(ctx, s, fmt.Sprintf("CREATE VECTOR INDEX %s FOR (n:%s) ON n.embedding OPTIONS {indexConfig: "+
		"{`vector.dimensions`: 4, `vector.similarity_function`: 'cosine', `vector.quantization.enabled`: true}}", name, label), nil))
	cfg, err := neo4j.VectorIndexConfig(ctx, s, name)
	require.NoError(t, err)
	require.Equal(t, true, cfg["vector.quantization.enabled"], "the index starts quantized: %v", cfg)

	require.NoError(t, neo4j.EnsureVectorIndex(ctx, s, name, label, 4))
	cfg, err = neo4j.VectorIndexConfig(ctx, s, name)
	require.NoError(t, err)
	assert.Equal(t, false, cfg["vector.quantization.enabled"], "%v", cfg)
	assert.Equal(t, int64(4), cfg["vector.dimensions"])

	// Built again and filled: the index finds every node, scored (1 + cos)/2 exactly.
	query := []float64{0.8, 0.6, 0, 0}
	n, err := neo4j.QueryCount(ctx, s, "CALL db.index.vector.queryNodes($name, 3, $q) YIELD node, score "+
		"WITH node, score WHERE abs(score - (1 + $cos[node.id]) / 2) < 1e-6 RETURN count(node) AS n",
		map[string]any{"name": name, "q": query, "cos": []float64{embed.Cosine(query, vecs[0]), embed.Cosine(query, vecs[1]), embed.Cosine(query, vecs[2])}})
	require.NoError(t, err)
	assert.Equal(t, int64(3), n)

	// Ensured again, it stays; another dimension is refused.
	require.NoError(t, neo4j.EnsureVectorIndex(ctx, s, name, label, 4))
	require.ErrorIs(t, neo4j.EnsureVectorIndex(ctx, s, name, label, 8), neo4j.ErrSchemaMismatch)

	// Workers that start together on a quantized index each build it again; all of them
	// start, and it ends unquantized.
	require.NoError(t, neo4j.Exec(ctx, s, "DROP INDEX "+name, nil))
	require.NoError(t, neo4j.Exec(ctx, s, fmt.Sprintf("CREATE VECTOR INDEX %s FOR (n:%s) ON n.embedding OPTIONS {indexConfig: "+
		"{`vector.dimensions`: 4, `vector.similarity_function`: 'cosine', `vector.quantization.enabled`: true}}", name, label), nil))
	var g errgroup.Group
	for range 3 {
		g.Go(func() error { return neo4j.EnsureVectorIndex(ctx, s, name, label, 4) })
	}
	require.NoError(t, g.Wait())
	cfg, err = neo4j.VectorIndexConfig(ctx, s, name)
	require.NoError(t, err)
	assert.Equal(t, false, cfg["vector.quantization.enabled"], "%v", cfg)
}
