package neo4j

import (
	"context"
	"fmt"

	"github.com/naviagent/navi/twnm/recall"
)

// RecallSource is a recall.Source over the store: BM25 through the full-text index and
// cosine similarity through the vector index, restricted to the APIs the agent can call when
// callable is set. It ranks like recall.Memory over the same graph. It also implements
// recall.Learned, through the past sub-goals RecordGoals attached to the APIs.
func (s *Store) RecallSource(callable bool) recall.Source {
	return storeSource{s: s, rd: s.auto(), callable: callable}
}

// storeSource reads through rd: each query on its own, or all in one transaction (Reads).
type storeSource struct {
	s        *Store
	rd       reader
	callable bool
}

// Lexical implements recall.Source.
func (src storeSource) Lexical(ctx context.Context, text string, k int) ([]recall.Hit, error) {
	ms, err := src.s.topAPIsText(ctx, src.rd, text, k, src.callable)
	return hits(ms), err
}

// Dense implements recall.Source. Neo4j's cosine index scores (1 + cos)/2; the hits carry the
// cosine itself, as the in-process path does.
func (src storeSource) Dense(ctx context.Context, vec []float64, k int) ([]recall.Hit, error) {
	hs, err := src.DenseAll(ctx, [][]float64{vec}, k)
	if err != nil {
		return nil, err
	}
	return hs[0], nil
}

// Served implements recall.Learned: past sub-goals of answered runs (RecordGoals).
func (src storeSource) Served(ctx context.Context, vec []float64, k int) ([]recall.Hit, error) {
	hs, err := src.ServedAll(ctx, [][]float64{vec}, k)
	if err != nil {
		return nil, err
	}
	return hs[0], nil
}

func hits(ms []Match) []recall.Hit {
	out := make([]recall.Hit, len(ms))
	for i, m := range ms {
		out[i] = recall.Hit{Name: m.Name, Score: m.Score, Provider: m.Provider}
	}
	return out
}

// LexicalAll implements recall.Batch: one full-text query for every text. A text whose best
// hits are mostly filtered out, or tie past its k, is asked again on its own, for more hits
// than the batch read (TopAPIsText).
func (src storeSource) LexicalAll(ctx context.Context, texts []string, k int) ([][]recall.Hit, error) {
	out := make([][]recall.Hit, len(texts))
	var qs []string
	var at []int // the text of each query
	for i, t := range texts {
		if q := TextQuery(t); q != "" && k > 0 {
			qs, at = append(qs, q), append(at, i)
		}
	}
	if len(qs) == 0 {
		return out, nil
	}
	n := textHits(k, src.callable)
	recs, err := src.rd.read(ctx, "text retrieval", topAPIsTextAll,
		map[string]any{"index": TextIndex, "qs": qs, "n": int64(n), "callable": src.callable})
	if err != nil {
		return nil, err
	}
	if len(recs) != len(qs) {
		return nil, fmt.Errorf("text retrieval: got %d rows for %d texts", len(recs), len(qs))
	}
	for _, r := range recs {
		row := r.AsMap()
		j, _ := row["i"].(int64)
		if j < 0 || int(j) >= len(qs) {
			return nil, fmt.Errorf("text retrieval: row for text %d of %d", j, len(qs))
		}
		ms, more := textMatches(row, n, k)
		if !textEnough(ms, more, n, k) {
			if ms, err = src.s.widenText(ctx, src.rd, qs[j], k, src.callable, 4*n); err != nil {
				return nil, err
			}
		}
		out[at[j]] = hits(ms[:min(k, len(ms))])
	}
	return out, nil
}

// DenseAll implements recall.Batch: one vector query for every vector.
func (src storeSource) DenseAll(ctx context.Context, vecs [][]float64, k int) ([][]recall.Hit, error) {
	out, err := src.vectorAll(ctx, "vector retrieval", topAPIsAll, VectorIndex, vecs, vectorHits(k, src.callable), k, nil)
	return cosines(out), err
}

// ServedAll implements recall.Batch: one query of past sub-goals for every vector.
func (src storeSource) ServedAll(ctx context.Context, vecs [][]float64, k int) ([][]recall.Hit, error) {
	out, err := src.vectorAll(ctx, "past sub-goals", servedAll, GoalIndex, vecs, 4*k, k,
		map[string]any{"oldest": goalsSince().Unix()})
	return cosines(out), err
}

// cosines turns the vector index's scores, (1 + cos)/2, into the cosines, in place.
func cosines(lists [][]recall.Hit) [][]recall.Hit {
	for _, hs := range lists {
		for i := range hs {
			hs[i].Score = cosineOf(hs[i].Score)
		}
	}
	return lists
}

// vectorAll runs a query over the vector index for each vector that is not zero (a zero
// vector is similar to nothing), in one read, and returns one hit list per vector.
func (src storeSource) vectorAll(ctx context.Context, what, cypher, index string, vecs [][]float64, n, k int, extra map[string]any) ([][]recall.Hit, error) {
	out := make([][]recall.Hit, len(vecs))
	var vs [][]float64
	var at []int
	for i, v := range vecs {
		if k > 0 && !zero(v) {
			vs, at = append(vs, v), append(at, i)
		}
	}
	if len(vs) == 0 {
		return out, nil
	}
	params := map[string]any{"index": index, "vecs": vs, "n": int64(n), "k": int64(k), "callable": src.callable}
	for key, v := range extra {
		params[key] = v
	}
	recs, err := src.rd.read(ctx, what, cypher, params)
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		m := r.AsMap()
		j, _ := m["i"].(int64)
		if j < 0 || int(j) >= len(vs) {
			return nil, fmt.Errorf("%s: row for vector %d of %d", what, j, len(vs))
		}
		name, _ := m["name"].(string)
		score, _ := m["score"].(float64)
		provider, _ := m["provider"].(string)
		out[at[j]] = append(out[at[j]], recall.Hit{Name: name, Score: score, Provider: provider})
	}
	return out, nil
}
