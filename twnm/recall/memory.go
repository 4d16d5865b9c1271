package recall

import (
	"context"
	"fmt"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/bm25"
	"github.com/naviagent/navi/twnm/embed"
)

// Memory is a Source over a twnm.Graph in process: BM25 over the APIs' tool documents
// (twnm.KinDocuments) and cosine similarity to their embeddings. It ranks like the store's
// full-text and vector indexes, for evaluation and for graphs that live in memory.
type Memory struct {
	g       *twnm.Graph
	lex     *bm25.Index
	ranked  map[string]*twnm.API // the APIs ranked, by name: active, and callable if asked
	ids     []twnm.NodeID
	vectors [][]float64
}

var _ Source = (*Memory)(nil)

// MemoryOptions configures NewMemory.
type MemoryOptions struct {
	// Callable keeps only APIs the agent can call (twnm.API.Callable), as the agent's
	// retrieval does; evaluation on catalogs without endpoints ranks every API.
	Callable bool
}

// NewMemory indexes the APIs of g and ranks the active ones. Every API counts in BM25's
// statistics, as in the store's full-text index, which filters after ranking. Embeddings
// (twnm.Build computes them) are the dense side; an API without one is found by BM25 only.
func NewMemory(g *twnm.Graph, o MemoryOptions) (*Memory, error) {
	m := &Memory{g: g, ranked: map[string]*twnm.API{}}
	// Every API's tool document, with its kin, as the store writes them.
	var apis []twnm.API
	var retired []bool
	for _, id := range g.APIs() {
		if n := g.Node(id); n.API != nil {
			apis, retired = append(apis, *n.API), append(retired, n.Status == twnm.Retired)
		}
	}
	docs := twnm.KinDocuments(apis, retired)
	dim := -1
	for _, id := range g.APIs() {
		n := g.Node(id)
		if n.API == nil {
			continue
		}
		if n.Status != twnm.Active || o.Callable && !n.API.Callable() {
			continue
		}
		m.ranked[n.Name] = n.API
		if n.Embedding == nil {
			continue
		}
		if dim >= 0 && len(n.Embedding) != dim {
			return nil, fmt.Errorf("recall: API %s has a %d-dimensional embedding, others %d", n.Name, len(n.Embedding), dim)
		}
		dim = len(n.Embedding)
		m.ids = append(m.ids, id)
		m.vectors = append(m.vectors, n.Embedding)
	}
	m.lex = bm25.New(docs, bm25.DefaultOptions())
	return m, nil
}

// Lexical implements Source.
func (m *Memory) Lexical(_ context.Context, text string, k int) ([]Hit, error) {
	for n := 4 * k; ; n *= 4 { // widen until k ranked APIs pass the filter
		hits := m.lex.Search(text, n)
		out := make([]Hit, 0, k)
		for _, h := range hits {
			if a := m.ranked[h.ID]; a != nil && len(out) < k {
				out = append(out, Hit{Name: h.ID, Score: h.Score, Provider: a.Provider})
			}
		}
		if len(out) == k || len(hits) < n {
			return out, nil
		}
	}
}

// Dense implements Source.
func (m *Memory) Dense(_ context.Context, vec []float64, k int) ([]Hit, error) {
	if len(m.vectors) > 0 && len(vec) != len(m.vectors[0]) {
		return nil, fmt.Errorf("recall: the query vector has %d dimensions, the graph's embeddings %d", len(vec), len(m.vectors[0]))
	}
	top := embed.TopK(vec, m.vectors, k)
	out := make([]Hit, len(top))
	for i, s := range top {
		n := m.g.Node(m.ids[s.Index])
		out[i] = Hit{Name: n.Name, Score: s.Score, Provider: n.API.Provider}
	}
	return out, nil
}

// GraphLinks answers Links from a twnm.Graph (the whole graph in process, or the subgraph the
// store read around the candidates).
type GraphLinks struct{ G *twnm.Graph }

var _ Links = GraphLinks{}

// Feeds implements Links.
func (l GraphLinks) Feeds(producer, consumer string) bool {
	p, ok1 := l.G.APIByName(producer)
	c, ok2 := l.G.APIByName(consumer)
	return ok1 && ok2 && l.G.Feeds(p, c)
}

// API implements Links.
func (l GraphLinks) API(api string) (twnm.API, bool) {
	id, ok := l.G.APIByName(api)
	if !ok || l.G.Node(id).API == nil {
		return twnm.API{}, false
	}
	return *l.G.Node(id).API, true
}

// Producers implements Links.
func (l GraphLinks) Producers(api string) []Need {
	id, ok := l.G.APIByName(api)
	if !ok {
		return nil
	}
	producers := l.G.RequiredSuppliers(id)
	a := l.G.Node(id).API
	var out []Need
	for _, in := range l.G.Inputs(id) {
		ps := producers[in.From]
		if len(ps) == 0 {
			continue
		}
		need := Need{}
		if a != nil {
			for _, p := range a.Inputs {
				if n, ok := l.G.ParamOf(api, p.Name, true); ok && n == in.From {
					need.Inputs = append(need.Inputs, p.Name)
				}
			}
		}
		for _, p := range ps {
			if l.G.Node(p.API).Status == twnm.Active {
				need.Producers = append(need.Producers, Producer{Name: l.G.Node(p.API).Name, Circular: l.G.Requires(p.API, in.From), Role: p.Role})
			}
		}
		out = append(out, need)
	}
	return out
}
