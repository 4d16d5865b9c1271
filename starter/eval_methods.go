package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/research/retrievaleval"
	"github.com/naviagent/navi/retrieval"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/embed"
	"github.com/naviagent/navi/twnm/recall"
	"github.com/naviagent/navi/twnm/subgoal"
)

// retrievalMethods are the retrieval methods `navi eval retrieval` knows, in the order of its
// tables. Add a method by appending it here.
func retrievalMethods(ctx context.Context) ([]retrievaleval.Method, error) {
	graphs := &graphCache{byCatalog: map[string]*twnm.Graph{}}
	method := func(name, note string, o recall.Options) retrievaleval.Method {
		return retrievaleval.Method{Name: name, Note: note, New: func(ctx context.Context, s retrievaleval.Set) (retrievaleval.Ranker, error) {
			return newRecallRanker(ctx, graphs, s, o, false, false)
		}}
	}
	return []retrievaleval.Method{
		{
			Name: "hashed+rerank",
			Note: "the earlier production retriever: the unfitted hashed embedder's top 100 over the catalog's graph (twnm.Graph.Retrieve), " +
				"the first 12 reranked under an IDF fitted on their own texts (as activities.rerank did), then the rest in recall order",
			New: newHashedRerank,
		},
		method("bm25", "BM25 over the tool documents (twnm.KinDocuments), the whole request", recall.Options{Ranker: recall.Lexical, WholeOnly: true, NoGraph: true}),
		method("dense", "all-MiniLM-L6-v2 cosine, the whole request", recall.Options{Ranker: recall.Dense, WholeOnly: true, NoGraph: true}),
		method("fused", "BM25 and MiniLM fused, the whole request", recall.Options{WholeOnly: true, NoGraph: true}),
		method("bm25+subgoals+graph", "BM25 per sub-goal, the final step chosen by data flow; no encoder", recall.Options{Ranker: recall.Lexical}),
		method("fused+subgoals", "fused per sub-goal, the final step by relevance alone", recall.Options{NoGraph: true}),
		{
			Name: "full",
			Note: "fused per sub-goal, the final step and order chosen by data flow (the agent's method); " +
				"its plan is Alpha-Beta's from the final step, as the Retrieve activity plans (retrieval.PlanChain)",
			New: func(ctx context.Context, s retrievaleval.Set) (retrievaleval.Ranker, error) {
				return newRecallRanker(ctx, graphs, s, recall.Options{}, false, true)
			},
		},
		{
			Name: "full+learned",
			Note: "full, with the sub-goals of every other task of the set recorded as the runs that served them would (leave-one-out): " +
				"the whole request on the final API, each clause on the chain API most similar to it",
			New: func(ctx context.Context, s retrievaleval.Set) (retrievaleval.Ranker, error) {
				return newRecallRanker(ctx, graphs, s, recall.Options{}, true, false)
			},
		},
	}, nil
}

// graphCache builds each catalog's graph once for all the methods that rank it.
type graphCache struct {
	mu        sync.Mutex
	byCatalog map[string]*twnm.Graph
}

func (c *graphCache) get(ctx context.Context, cat twnm.Catalog) (*twnm.Graph, embed.Embedder, error) {
	emb, err := embed.Standard()
	if err != nil {
		return nil, nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if g, ok := c.byCatalog[cat.Name]; ok {
		return g, emb, nil
	}
	g, err := twnm.Build(ctx, cat, twnm.BuildOptions{Embedder: embed.Default(), APIEmbedder: emb})
	if err != nil {
		return nil, nil, err
	}
	c.byCatalog[cat.Name] = g
	return g, emb, nil
}

// newRecallRanker ranks with twnm/recall over the set's graph in process; with learn, past
// sub-goals of the set's other tasks take part (leave-one-out); with plan, it plans as well
// (retrievaleval.Planner).
func newRecallRanker(ctx context.Context, graphs *graphCache, s retrievaleval.Set, o recall.Options, learn, plan bool) (retrievaleval.Ranker, error) {
	g, emb, err := graphs.get(ctx, s.Catalog)
	if err != nil {
		return nil, err
	}
	mem, err := recall.NewMemory(g, recall.MemoryOptions{})
	if err != nil {
		return nil, err
	}
	var past []pastGoal
	if learn {
		if past, err = pastGoals(ctx, g, emb, s.Tasks); err != nil {
			return nil, err
		}
	}
	links := recall.GraphLinks{G: g}
	// retrieve returns what retrieval found and chose, and each candidate's relevance as it
	// was before Choose read the clauses in context (what graph search ranks producers by).
	retrieve := func(ctx context.Context, query string) (*recall.Result, map[string]float64, map[string]bool, error) {
		var src recall.Source = mem
		if learn {
			src = recall.WithLearned(mem, leaveOneOut{past: past, query: query})
		}
		r, err := recall.Retrieve(ctx, src, emb, query, o)
		if err != nil {
			return nil, nil, nil, err
		}
		relevance := r.Relevance()
		// Chosen and planned on what the agent's read after retrieval holds (see recall.Bounded).
		read := recall.BoundedRead(links, r.Pool(recall.PoolPerGoal), relevance, recall.SubgraphAPIs)
		if err := recall.Choose(r, recall.Within(links, read), o); err != nil {
			return nil, nil, nil, err
		}
		return r, relevance, read, nil
	}
	rank := retrievaleval.RankerFunc(func(ctx context.Context, query string) ([]string, error) {
		r, _, _, err := retrieve(ctx, query)
		if err != nil {
			return nil, err
		}
		return r.Ranked, nil
	})
	if !plan {
		return rank, nil
	}
	return planningRanker{RankerFunc: rank, plan: func(ctx context.Context, query string) ([]string, error) {
		r, relevance, read, err := retrieve(ctx, query)
		if err != nil || r.Final == "" {
			return nil, err
		}
		return retrieval.PlanChain(ctx, g, twnm.DefaultAlphaBeta(), r, relevance, query, o, read)
	}}, nil
}

// planningRanker is a retrievaleval.Planner: a ranking and a plan for each query.
type planningRanker struct {
	retrievaleval.RankerFunc
	plan func(ctx context.Context, query string) ([]string, error)
}

// Plan implements retrievaleval.Planner.
func (p planningRanker) Plan(ctx context.Context, query string) ([]string, error) {
	return p.plan(ctx, query)
}

// pastGoal is one sub-goal of a task and the API it is taken to have served.
type pastGoal struct {
	query, api string
	vec        []float64
}

// pastGoals is what the graph would have learned from the tasks' runs had each run answered
// with its gold chain: the whole request on the final API, and each clause on the chain's API
// most similar to it (a run records a clause on the API among its candidates that it called).
func pastGoals(ctx context.Context, g *twnm.Graph, emb embed.Embedder, tasks []retrievaleval.Task) ([]pastGoal, error) {
	var out []pastGoal
	for _, t := range tasks {
		goals := subgoal.Split(t.Query)
		texts := make([]string, len(goals))
		for i, gl := range goals {
			texts[i] = subgoal.Query(gl.Text)
		}
		vecs, err := emb.Embed(ctx, texts)
		if err != nil {
			return nil, fmt.Errorf("task %s: %w", t.ID, err)
		}
		for i, gl := range goals {
			api := t.Final
			if !gl.Whole {
				best := -2.0
				for _, name := range t.Chain {
					if id, ok := g.APIByName(name); ok && g.Node(id).Embedding != nil {
						if c := embed.Cosine(vecs[i], g.Node(id).Embedding); c > best {
							best, api = c, name
						}
					}
				}
			}
			out = append(out, pastGoal{query: t.Query, api: api, vec: vecs[i]})
		}
	}
	return out, nil
}

// leaveOneOut is recall.Learned over the past sub-goals of every task but the one asking.
type leaveOneOut struct {
	past  []pastGoal
	query string
}

// Served implements recall.Learned.
func (l leaveOneOut) Served(ctx context.Context, vec []float64, k int) ([]recall.Hit, error) {
	x := recall.NewGoalIndex()
	for _, p := range l.past {
		if p.query != l.query {
			x.Add(p.api, p.vec)
		}
	}
	return x.Served(ctx, vec, k)
}

// Settings of the hashed+rerank baseline.
const (
	// baselineRerank is how many recalled APIs the production retriever reranks: its recall
	// factor (4) times its default number of targets (3).
	baselineRerank = 12
	// baselineRecall is how many APIs the baseline returns in all.
	baselineRecall = 100
)

// newHashedRerank builds the catalog's graph as the worker does (twnm.Build with
// embed.Default()) and ranks as the Retrieve activity did before twnm/recall.
func newHashedRerank(ctx context.Context, s retrievaleval.Set) (retrievaleval.Ranker, error) {
	emb := embed.Default()
	g, err := twnm.Build(ctx, s.Catalog, twnm.BuildOptions{Embedder: emb})
	if err != nil {
		return nil, err
	}
	return retrievaleval.RankerFunc(func(ctx context.Context, query string) ([]string, error) {
		matches, err := g.Retrieve(ctx, emb, query, baselineRecall)
		if err != nil {
			return nil, err
		}
		names := make([]string, len(matches))
		for i, m := range matches {
			names[i] = m.Name
		}
		head := names[:min(baselineRerank, len(names))]
		out := make([]string, 0, len(names))
		for _, m := range rerankRecalled(query, head, g) {
			out = append(out, m.Name)
		}
		if len(out) != len(head) {
			return nil, fmt.Errorf("rerank kept %d of %d recalled APIs", len(out), len(head))
		}
		return append(out, names[len(head):]...), nil
	}), nil
}

// rerankRecalled is the rerank the Retrieve activity ran before twnm/recall replaced it, kept
// as the evaluation's baseline: it orders the recalled APIs by similarity to the description under
// an embedder whose IDF weights are fitted on the recalled APIs' own texts.
func rerankRecalled(desc string, recalled []string, g *twnm.Graph) []twnm.Match {
	var ids []twnm.NodeID
	var texts []string
	for _, name := range recalled {
		id, ok := g.APIByName(name)
		if !ok || g.Node(id).API == nil {
			continue // deleted between the two reads
		}
		ids = append(ids, id)
		texts = append(texts, twnm.APIText(*g.Node(id).API))
	}
	local := embed.Default()
	local.Fit(texts)
	q := local.Vector(desc)
	out := make([]twnm.Match, len(ids))
	for i, id := range ids {
		out[i] = twnm.Match{API: id, Name: g.Node(id).Name, Score: embed.Cosine(q, local.Vector(texts[i]))}
	}
	// Stable: ties keep the index's order.
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}

// storeEval ranks through a Neo4j store: each set's catalog is imported once, under API names
// made unique to the run, and ranked as the Retrieve activity ranks (the store's full-text and
// vector indexes, the subgraph read, the final step chosen). A set's catalog is deleted when
// the next set starts (the harness ranks set after set), so BM25's statistics are those of
// the set alone, as in process, and the last one when the evaluation ends.
type storeEval struct {
	store *neo4j.Store
	run   string

	mu      sync.Mutex
	set     string // the set imported now
	catalog string // its catalog name
	prefix  string // its API names' prefix
	n       int    // sets imported so far
}

// methods are the store-backed methods, named with an "@neo4j" suffix.
func (e *storeEval) methods() []retrievaleval.Method {
	method := func(name, note string, o recall.Options) retrievaleval.Method {
		return retrievaleval.Method{Name: name + "@neo4j", Note: note + ", through Neo4j", New: func(ctx context.Context, s retrievaleval.Set) (retrievaleval.Ranker, error) {
			return e.ranker(ctx, s, o)
		}}
	}
	return []retrievaleval.Method{
		method("bm25", "BM25 over the tool documents, the whole request (the full-text index)", recall.Options{Ranker: recall.Lexical, WholeOnly: true, NoGraph: true}),
		method("full", "the Retrieve activity's method", recall.Options{}),
	}
}

// load imports s's catalog unless it is the one imported now, deleting the previous one, and
// returns the API names' prefix.
func (e *storeEval) load(ctx context.Context, s retrievaleval.Set) (string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.set == s.Name {
		return e.prefix, nil
	}
	if err := e.cleanupLocked(ctx); err != nil {
		return "", err
	}
	name := fmt.Sprintf("eval-%s-%s-%d", e.run, strings.ToLower(s.Name), e.n)
	prefix := symbols(fmt.Sprintf("%s-%d", e.run, e.n))
	e.n++
	cat := twnm.Catalog{Name: name, APIs: make([]twnm.API, len(s.Catalog.APIs))}
	for i, a := range s.Catalog.APIs {
		a.Name = prefix + a.Name
		cat.APIs[i] = a
	}
	e.set, e.catalog, e.prefix = s.Name, name, prefix
	if _, err := e.store.LoadCatalog(ctx, cat); err != nil {
		return "", err
	}
	return prefix, nil
}

func (e *storeEval) ranker(ctx context.Context, s retrievaleval.Set, o recall.Options) (retrievaleval.Ranker, error) {
	emb, err := embed.Standard()
	if err != nil {
		return nil, err
	}
	prefix, err := e.load(ctx, s)
	if err != nil {
		return nil, err
	}
	src := prefixSource{Source: e.store.RecallSource(false), prefix: prefix}
	return retrievaleval.RankerFunc(func(ctx context.Context, query string) ([]string, error) {
		r, err := recall.Retrieve(ctx, src, emb, query, o)
		if err != nil {
			return nil, err
		}
		var links recall.Links
		if !o.NoGraph {
			sub, err := e.store.Subgraph(ctx, r.Pool(recall.PoolPerGoal), neo4j.SubgraphOptions{Relevance: r.Relevance(), MaxAPIs: recall.SubgraphAPIs})
			if err != nil {
				return nil, err
			}
			links = recall.GraphLinks{G: sub}
		}
		if err := recall.Choose(r, links, o); err != nil {
			return nil, err
		}
		var out []string
		for _, n := range r.Ranked {
			if rest, ok := strings.CutPrefix(n, prefix); ok {
				out = append(out, rest)
			}
		}
		return out, nil
	}), nil
}

// cleanup deletes the catalog the evaluation imported last.
func (e *storeEval) cleanup(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.cleanupLocked(ctx)
}

func (e *storeEval) cleanupLocked(ctx context.Context) error {
	if e.catalog == "" {
		return nil
	}
	if _, err := e.store.DeleteCatalog(ctx, e.catalog); err != nil {
		return err
	}
	e.set, e.catalog, e.prefix = "", "", ""
	return nil
}

// symbols spells s (hex digits and '-') in punctuation between two "∴": a prefix that makes
// API names unique to a run without adding a word to their tool documents or embedded texts
// (bm25.Tokens and the encoders' texts keep letters and digits only), so that the store ranks
// the set's APIs as in process.
func symbols(s string) string {
	const alphabet = "!#$%&*+=?@^~|<>:"
	var b strings.Builder
	b.WriteString("∴")
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			b.WriteByte(alphabet[r-'0'])
		case r >= 'a' && r <= 'f':
			b.WriteByte(alphabet[10+r-'a'])
		default:
			b.WriteByte(';')
		}
	}
	b.WriteString("∴")
	return b.String()
}

// prefixSource is a recall.Source that keeps only the APIs whose names start with prefix: one
// set's catalog among the other catalogs of the store.
type prefixSource struct {
	recall.Source
	prefix string
}

func (p prefixSource) keep(hs []recall.Hit, k int) []recall.Hit {
	var out []recall.Hit
	for _, h := range hs {
		if strings.HasPrefix(h.Name, p.prefix) && len(out) < k {
			out = append(out, h)
		}
	}
	return out
}

// Lexical implements recall.Source.
func (p prefixSource) Lexical(ctx context.Context, text string, k int) ([]recall.Hit, error) {
	hs, err := p.Source.Lexical(ctx, text, 8*k)
	return p.keep(hs, k), err
}

// Dense implements recall.Source.
func (p prefixSource) Dense(ctx context.Context, vec []float64, k int) ([]recall.Hit, error) {
	hs, err := p.Source.Dense(ctx, vec, 8*k)
	return p.keep(hs, k), err
}
