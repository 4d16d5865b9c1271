package neo4j

import (
	"context"

	"github.com/naviagent/navi/twnm/recall"
)

// RecallSource is a recall.Source over the store: BM25 through the full-text index and
// cosine similarity through the vector index, restricted to the APIs the agent can call when
// callable is set. It ranks like recall.Memory over the same graph. It also implements
// recall.Learned, through the past sub-goals RecordGoals attached to the APIs.
func (s *Store) RecallSource(callable bool) recall.Source {
	return storeSource{s: s, callable: callable}
}

type storeSource struct {
	s        *Store
	callable bool
}

// Lexical implements recall.Source.
func (src storeSource) Lexical(ctx context.Context, text string, k int) ([]recall.Hit, error) {
	ms, err := src.s.TopAPIsText(ctx, text, k, src.callable)
	return hits(ms), err
}

// Dense implements recall.Source. Neo4j's cosine index scores (1 + cos)/2; the hits carry the
// cosine itself, as the in-process path does.
func (src storeSource) Dense(ctx context.Context, vec []float64, k int) ([]recall.Hit, error) {
	ms, err := src.s.topAPIs(ctx, vec, k, src.callable)
	out := hits(ms)
	for i := range out {
		out[i].Score = cosineOf(out[i].Score)
	}
	return out, err
}

// Served implements recall.Learned: past sub-goals of answered runs (RecordGoals).
func (src storeSource) Served(ctx context.Context, vec []float64, k int) ([]recall.Hit, error) {
	return src.s.Served(ctx, vec, k, src.callable)
}

func hits(ms []Match) []recall.Hit {
	out := make([]recall.Hit, len(ms))
	for i, m := range ms {
		out[i] = recall.Hit{Name: m.Name, Score: m.Score}
	}
	return out
}
