package twnm

import (
	"context"
	"fmt"

	"github.com/naviagent/navi/twnm/embed"
)

// Match is an API found by retrieval, with its cosine similarity to the description.
type Match struct {
	API   NodeID
	Name  string
	Score float64
}

// Retrieve returns the k active APIs whose embeddings are most similar to description's, best
// first (ties in insertion order): the target APIs that graph search starts from (NaviAgent recalls the
// top 3). Pruned and probing APIs are skipped.
func (g *Graph) Retrieve(ctx context.Context, emb embed.Embedder, description string, k int) ([]Match, error) {
	if k <= 0 {
		return nil, nil
	}
	vecs, err := emb.Embed(ctx, []string{description})
	if err != nil {
		return nil, fmt.Errorf("retrieve: embed description: %w", err)
	}
	if len(vecs) != 1 {
		return nil, fmt.Errorf("retrieve: embedder returned %d vectors for 1 text", len(vecs))
	}
	q := vecs[0]
	ids := make([]NodeID, 0, len(g.nodes))
	vectors := make([][]float64, 0, len(g.nodes))
	for _, n := range g.nodes {
		if n.Kind != KindAPI || n.Status != Active || n.Embedding == nil {
			continue
		}
		if len(n.Embedding) != len(q) {
			return nil, fmt.Errorf("retrieve: API %s has a %d-dimensional embedding, the embedder gives %d", n.Name, len(n.Embedding), len(q))
		}
		ids = append(ids, n.ID)
		vectors = append(vectors, n.Embedding)
	}
	top := embed.TopK(q, vectors, k)
	out := make([]Match, len(top))
	for i, s := range top {
		id := ids[s.Index]
		out[i] = Match{API: id, Name: g.nodes[id].Name, Score: s.Score}
	}
	return out, nil
}
