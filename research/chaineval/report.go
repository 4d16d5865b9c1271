package chaineval

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/naviagent/navi/twnm/recall"

	"github.com/naviagent/navi/toolworld"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/bm25"
	"github.com/naviagent/navi/twnm/catalogs"
	"github.com/naviagent/navi/twnm/embed"
)

// Set is a catalog with gold chains over it.
type Set struct {
	Name    string
	Catalog twnm.Catalog
	Chains  []Chain
	Note    string
	// Source is the file or folder the chains were read from ("" for generated ones), and
	// Skipped how many of its records were left out (see Note).
	Source  string
	Skipped int
	// Family names the catalog the set's chains run over ("api-bank", "restbench",
	// "toolworld"): sets of one family share APIs and flows, so a model that trains on one
	// to be judged on another would see the held-out flows.
	Family string
}

// Paths of the public dev sets inside the shared data folder.
const (
	APIBankCatalogPath   = "api-bank/api_catalog_extracted.json"
	APIBankLevel3Path    = "api-bank/test-data/level-3.json"
	APIBankDialoguesPath = "api-bank/lv1-lv2-samples"
	RestBenchSpecPath    = "restbench/specs/tmdb_oas.json"
	RestBenchQueriesPath = "restbench/datasets/tmdb.json"
)

// APIBankSet reads API-Bank's level-3 chains over the whole API-Bank catalog, with the level-3
// copies of the tools whose name both sets use (catalogs.APIBankPreferring).
func APIBankSet(dataDir string) (Set, error) {
	cat, err := catalogs.APIBankPreferring(filepath.Join(dataDir, APIBankCatalogPath), "lv3")
	if err != nil {
		return Set{}, err
	}
	path := filepath.Join(dataDir, APIBankLevel3Path)
	chains, err := APIBankChains(path)
	if err != nil {
		return Set{}, err
	}
	return Set{Name: "API-Bank", Family: "api-bank", Catalog: cat, Chains: chains, Source: path,
		Note: fmt.Sprintf("%d level-3 chains over the %d APIs of API-Bank (the level-3 copies of the names both sets use); gold flows are the values one call output and a later one took (invlog.Link)", len(chains), len(cat.APIs))}, nil
}

// APIBankDialogueSet reads API-Bank's level-1 and level-2 dialogues whose calls form one chain
// (APIBankDialogueChains) over the APIs of API-Bank.
func APIBankDialogueSet(dataDir string) (Set, error) {
	cat, err := catalogs.APIBank(filepath.Join(dataDir, APIBankCatalogPath))
	if err != nil {
		return Set{}, err
	}
	dir := filepath.Join(dataDir, APIBankDialoguesPath)
	chains, skipped, err := APIBankDialogueChains(dir)
	if err != nil {
		return Set{}, err
	}
	return Set{Name: "API-Bank dialogues", Family: "api-bank", Catalog: cat, Chains: chains, Source: dir, Skipped: skipped,
		Note: fmt.Sprintf("%d level-1 and level-2 dialogues over the %d APIs of API-Bank (%d that make two requests or call nothing left out); gold flows as for level 3", len(chains), len(cat.APIs), skipped)}, nil
}

// RestBenchSet reads RestBench's TMDB queries over the operations of the TMDB OpenAPI spec.
func RestBenchSet(dataDir string) (Set, error) {
	cat, err := catalogs.OpenAPI(filepath.Join(dataDir, RestBenchSpecPath))
	if err != nil {
		return Set{}, err
	}
	path := filepath.Join(dataDir, RestBenchQueriesPath)
	chains, err := RestBenchChains(path, cat)
	if err != nil {
		return Set{}, err
	}
	return Set{Name: "RestBench", Family: "restbench", Catalog: cat, Chains: chains, Source: path,
		Note: fmt.Sprintf("%d TMDB queries over the %d operations of the TMDB spec; gold flows: each {x_id} path parameter fed by the previous call's id (RestBenchChains)", len(chains), len(cat.APIs))}, nil
}

// ToolWorldSet generates n tool-world tasks of difficulty all (easy, medium and hard, whose
// flows keep their names) or renamed (flows across names) from seed over the tool world's
// catalog.
func ToolWorldSet(n int, seed uint64, difficulty string) (Set, error) {
	tasks, err := toolworld.GenerateTasks(toolworld.TaskOptions{Seed: seed, N: n, Difficulty: difficulty})
	if err != nil {
		return Set{}, fmt.Errorf("toolworld chains: %w", err)
	}
	cat := toolworld.Catalog("http://toolworld.invalid")
	chains := ToolWorldChains(tasks)
	name, what := "ToolWorld", "generated tasks"
	if difficulty == toolworld.DifficultyRenamed {
		name, what = "ToolWorld renamed", "generated renamed tasks (flows across names: lat into latitude, a search result's id into track_id)"
	}
	return Set{Name: name, Family: "toolworld", Catalog: cat, Chains: chains,
		Note: fmt.Sprintf("%d %s (seed %d) over the tool world's %d APIs; gold flows from the generator", len(chains), what, seed, len(cat.APIs))}, nil
}

// Method builds a graph from a catalog and searches it.
type Method struct {
	Name, Note string
	Build      func(ctx context.Context, c twnm.Catalog) (*twnm.Graph, error)
	// Searcher finds each chain from its target; nil scores the target alone.
	Searcher twnm.Searcher
	// Relevance passes the search each API's BM25 relevance to the chain's query (over name
	// and description, scaled so that the best is 1), as the agent passes retrieval's.
	Relevance bool
	// Branches also searches from the best API of each other part of the query (recall's
	// sub-goals, ranked by BM25) and joins them to the target's subgraph.
	Branches bool
	// Observed builds, for each chain, from the catalog extended by the outputs that the other
	// chains' recorded answers show (Chain.Answers, Observed: leave-one-out), as the worker
	// extends its catalog from its calls' answers. Its links are scored chain by chain, each
	// in the graph it was searched in.
	Observed bool
}

// Methods are the methods `navi eval chains` compares: the target alone, exact-name linking
// (a parameter node per name, no links), and Navi's graph (concepts and scored links).
func Methods() []Method {
	names := func(_ context.Context, c twnm.Catalog) (*twnm.Graph, error) {
		g := twnm.New()
		for _, a := range c.APIs {
			if _, err := g.AddAPI(a); err != nil {
				return nil, err
			}
		}
		return g, nil
	}
	links := func(ctx context.Context, c twnm.Catalog) (*twnm.Graph, error) {
		// As the worker builds: with the sentence encoder, which links by meaning the inputs
		// that share no word with any output.
		emb, err := embed.Standard()
		if err != nil {
			return nil, err
		}
		return twnm.Build(ctx, c, twnm.BuildOptions{Embedder: embed.Default(), APIEmbedder: emb})
	}
	return []Method{
		{Name: "target", Note: "the target alone (no search)", Build: links},
		{Name: "names", Note: "exact-name linking: one parameter node per name, alpha-beta search", Build: names, Searcher: twnm.DefaultAlphaBeta()},
		{Name: "links", Note: "Navi: parameter concepts and scored links (twnm.Build with the sentence encoder), alpha-beta search with the query's relevance", Build: links,
			Searcher: twnm.DefaultAlphaBeta(), Relevance: true},
		{Name: "links+branches", Note: "links, with a search from the best API of each other part of the query joined to the target's (a compound request's other intents)",
			Build: links, Searcher: twnm.DefaultAlphaBeta(), Relevance: true, Branches: true},
		{Name: "observed", Note: "links+branches on the catalog extended by the outputs that the other chains' recorded answers show (fields inside objects and list items; twnm.Observe; leave-one-out)",
			Build: links, Searcher: twnm.DefaultAlphaBeta(), Relevance: true, Branches: true, Observed: true},
	}
}

// MethodResult is one method on one set.
type MethodResult struct {
	Set    string `json:"set"`
	Method string `json:"method"`
	// Links is nil for the method that searches nothing.
	Links *LinkStats `json:"links,omitempty"`
	// All scores every chain; MultiStep only those of two APIs or more.
	All       Summary `json:"all"`
	MultiStep Summary `json:"multi_step"`
}

// Report is every method on every set.
type Report struct {
	Sets    []SetInfo      `json:"sets"`
	Methods []string       `json:"methods"`
	Results []MethodResult `json:"results"`
}

// SetInfo describes a set of a report.
type SetInfo struct {
	Name   string `json:"name"`
	Chains int    `json:"chains"`
	Note   string `json:"note"`
}

// Run evaluates every method on every set: the links of the graph the method builds, and each
// chain searched from its target with the values its query states.
func Run(ctx context.Context, sets []Set, methods []Method, progress io.Writer) (Report, error) {
	var rep Report
	for _, m := range methods {
		rep.Methods = append(rep.Methods, m.Name)
	}
	for _, set := range sets {
		rep.Sets = append(rep.Sets, SetInfo{Name: set.Name, Chains: len(set.Chains), Note: set.Note})
		for _, m := range methods {
			if progress != nil {
				fmt.Fprintf(progress, "chains: %s, %s\n", set.Name, m.Name)
			}
			res, err := runMethod(ctx, set, m)
			if err != nil {
				return rep, fmt.Errorf("%s, %s: %w", set.Name, m.Name, err)
			}
			rep.Results = append(rep.Results, res)
		}
	}
	return rep, nil
}

// runMethod evaluates one method on one set.
func runMethod(ctx context.Context, set Set, m Method) (MethodResult, error) {
	// The graphs of a method, by the outputs their catalog gained from answers ("" for none):
	// most leave-one-out catalogs are alike, and each is built once.
	graphs := map[string]*twnm.Graph{}
	build := func(ctx context.Context, learn []Chain) (*twnm.Graph, error) {
		cat, key := set.Catalog, ""
		if m.Observed {
			cat, key = observedCatalog(set.Catalog, learn)
		}
		if g, ok := graphs[key]; ok {
			return g, nil
		}
		g, err := m.Build(ctx, cat)
		if err != nil {
			return nil, err
		}
		graphs[key] = g
		return g, nil
	}
	var searcher twnm.Searcher = targetAlone{}
	if m.Searcher != nil {
		searcher = m.Searcher
	}
	o := Options{Static: !m.Observed, Searcher: searcher, Build: build}
	if m.Relevance {
		o.Relevance = bm25Relevance(set.Catalog)
	}
	if m.Branches {
		branches := map[*twnm.Graph]func(string, []string) (recall.Parts, error){}
		o.Branches = func(g *twnm.Graph, query string, covered []string) (recall.Parts, error) {
			if branches[g] == nil {
				b, err := lexicalBranches(g)
				if err != nil {
					return recall.Parts{}, err
				}
				branches[g] = b
			}
			return branches[g](query, covered)
		}
	}
	all, err := Evaluate(ctx, set.Chains, o)
	if err != nil {
		return MethodResult{}, err
	}
	res := MethodResult{Set: set.Name, Method: m.Name, All: all, MultiStep: multiStep(set.Chains, all)}
	if m.Searcher == nil {
		return res, nil
	}
	var l LinkStats
	if !m.Observed {
		g, err := build(ctx, nil) // the one graph every chain was searched in
		if err != nil {
			return res, err
		}
		l = Links(g, set.Chains)
	} else {
		// Each chain's graph: the one it was searched in (built already, the key finds it).
		gs := make([]*twnm.Graph, len(set.Chains))
		for i := range set.Chains {
			if gs[i], err = build(ctx, slices.Concat(set.Chains[:i], set.Chains[i+1:])); err != nil {
				return res, err
			}
		}
		l = LinksEach(func(i int) *twnm.Graph { return gs[i] }, set.Chains)
	}
	res.Links = &l
	return res, nil
}

// observedCatalog is c extended by the outputs that the answers of chains show (Observed), and
// a key that names what it added.
func observedCatalog(c twnm.Catalog, chains []Chain) (twnm.Catalog, string) {
	var answers []Answer
	for _, ch := range chains {
		answers = append(answers, ch.Answers...)
	}
	ext, n := Observed(c, answers)
	if n == 0 {
		return c, ""
	}
	var key strings.Builder
	for i, a := range ext.APIs {
		for _, p := range a.Outputs[len(c.APIs[i].Outputs):] {
			fmt.Fprintf(&key, "%s.%s=%s;", a.Name, p.Name, p.Path)
		}
	}
	return ext, key.String()
}

// bm25Relevance scores a query against the catalog's APIs with BM25 over their tool
// documents, scaled so that the best scores 1.
func bm25Relevance(c twnm.Catalog) func(query string) map[string]float64 {
	ix := bm25.New(twnm.KinDocuments(c.APIs, nil), bm25.DefaultOptions())
	return func(query string) map[string]float64 {
		scores := ix.Scores(query)
		best := 0.0
		for _, v := range scores {
			best = max(best, v)
		}
		for k, v := range scores {
			scores[k] = v / best
		}
		return scores
	}
}

// targetAlone is the baseline that answers with the target and nothing upstream.
type targetAlone struct{}

func (targetAlone) Search(_ context.Context, _ *twnm.Graph, req twnm.SearchRequest) (*twnm.Subgraph, error) {
	return &twnm.Subgraph{Target: req.Target, APIs: []twnm.NodeID{req.Target}}, nil
}

// multiStep is the summary of the chains of two APIs or more (without their results).
func multiStep(chains []Chain, all Summary) Summary {
	s := summarize(all.Results, func(i int) bool { return len(chains[i].APIs) >= 2 })
	s.Results = nil
	return s
}

// WriteJSON writes the report as indented JSON.
func (r Report) WriteJSON(w io.Writer) error { return writeJSON(w, r) }

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// WriteMarkdown writes the report's table: per set and method, link coverage and precision,
// parameter nodes per input, and exact recovery, node-F1 and link-F1 of the multi-step chains.
func (r Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("| set | method | link coverage | link precision | sources/input | not linkable | nested | exact (multi-step) | node-F1 | link-F1 | exact (all) |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, x := range r.Results {
		links := "— | — | — | — | —"
		if l := x.Links; l != nil {
			links = fmt.Sprintf("%.1f%% (%d/%d) | %.2f (%d/%d) | %.2f | %d | %d", 100*l.Coverage(), l.Covered, l.Flows, l.Precision(), l.Correct, l.Links,
				l.PerInput, l.Unlinkable, l.Nested)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %.1f%% (%d/%d) | %.2f | %.2f | %.1f%% |\n", x.Set, x.Method, links,
			100*x.MultiStep.ExactRate(), x.MultiStep.Exact, x.MultiStep.Chains, x.MultiStep.NodeF1, x.MultiStep.LinkF1, 100*x.All.ExactRate())
	}
	b.WriteString("\n")
	for _, s := range r.Sets {
		fmt.Fprintf(&b, "- %s: %s.\n", s.Name, s.Note)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// lexicalBranches names the other parts' APIs of a query as the agent finds them (recall's
// sub-goals and Result.Branches), ranked by BM25 over g's tool documents.
func lexicalBranches(g *twnm.Graph) (func(query string, covered []string) (recall.Parts, error), error) {
	mem, err := recall.NewMemory(g, recall.MemoryOptions{})
	if err != nil {
		return nil, err
	}
	return func(query string, covered []string) (recall.Parts, error) {
		r, err := recall.Retrieve(context.Background(), mem, nil, query, recall.Options{Ranker: recall.Lexical})
		if err != nil {
			return recall.Parts{}, err
		}
		return r.Branches(covered, recall.GraphLinks{G: g}, recall.Options{Ranker: recall.Lexical}), nil
	}, nil
}
