package twnm

import (
	"context"
	"fmt"
	"sort"

	"github.com/naviagent/navi/twnm/embed"
)

// Match is an API found by retrieval, with its cosine similarity to the description.
type Match struct {
	API   NodeID
	Name  string
	Score float64
}

// Retrieve returns the k active APIs whose embeddings are most similar to description's, best
// first (ties by name): the target APIs that graph search starts from (NaviAgent recalls the
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
	// A bounded selection keeps retrieval O(n log k) over large catalogs.
	var best []Match
	worse := func(a, b Match) bool {
		if a.Score != b.Score {
			return a.Score < b.Score
		}
		return a.Name > b.Name
	}
	for _, n := range g.nodes {
		if n.Kind != KindAPI || n.Status != Active || n.Embedding == nil {
			continue
		}
		if len(n.Embedding) != len(q) {
			return nil, fmt.Errorf("retrieve: API %s has a %d-dimensional embedding, the embedder gives %d", n.Name, len(n.Embedding), len(q))
		}
		m := Match{API: n.ID, Name: n.Name, Score: embed.Cosine(q, n.Embedding)}
		if len(best) < k {
			best = append(best, m)
			if len(best) == k {
				sort.Slice(best, func(i, j int) bool { return worse(best[i], best[j]) })
			}
			continue
		}
		if worse(best[0], m) {
			// Replace the worst and restore ascending order by one insertion pass.
			best[0] = m
			for i := 1; i < len(best) && worse(best[i], best[i-1]); i++ {
				best[i], best[i-1] = best[i-1], best[i]
			}
		}
	}
	sort.Slice(best, func(i, j int) bool { return worse(best[j], best[i]) })
	return best, nil
}
