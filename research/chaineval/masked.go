package chaineval

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/embed"
	"github.com/naviagent/navi/twnm/hgt"
	"github.com/naviagent/navi/twnm/hgt/hgtdata"
)

// The masked setting (NaviAgent's robustness experiment, on plans): the links of the gold
// flows are what a real catalog often does not state, so the graph is built with every gold
// flow's consumer input on a parameter node of its own, unlinked. A fraction ρ of the chains
// is held out: their flows are masked, never recorded nor trained on. The other chains' flows
// are recorded as a run would record them (observed FEEDS edges). A link predictor then adds
// FEEDS edges into the unlinked inputs, and each held-out chain is searched from its target
// as in Evaluate: does the plan recover the chain through the predicted links?

// Link predictors the masked setting compares.
const (
	// PredictNone adds nothing: only the links the kept chains showed.
	PredictNone = "none"
	// PredictCatalog restores the links Navi's own linker found in the catalog (the shared
	// parameter node, and FindLinks' FEEDS edges): what the graph knows without history.
	PredictCatalog = "catalog"
	// PredictCosine links each input to the outputs whose text the sentence encoder finds
	// closest (cosine of name and description), at LinkOptions.Similar or above.
	PredictCosine = "cosine"
	// PredictHGT links each input to the outputs the HGT, trained on observed flows only
	// (hgtdata.Observed: the kept chains' and other dev sets'), predicts at its validation
	// threshold or above.
	PredictHGT = "hgt"
	// PredictGold restores exactly the held-out chains' gold flows, and nothing else: no
	// predictor of links can do better, so its exact chains bound every predictor's under the
	// same search.
	PredictGold = "gold"
)

// Predictors are the predictors Masked compares, in report order.
var Predictors = []string{PredictNone, PredictCatalog, PredictCosine, PredictHGT, PredictGold}

// predictedPerInput is how many predicted producers an input keeps at most, best first: the
// catalog linker's own bound (LinkOptions.PerInput), so no predictor links more widely.
var predictedPerInput = twnm.DefaultLinkOptions().PerInput

// MaskedResult is one predictor on one set at one masking ratio.
type MaskedResult struct {
	Set       string  `json:"set"`
	Rho       float64 `json:"rho"`
	Predictor string  `json:"predictor"`
	// Test counts the held-out chains (of two APIs or more, with a flow), Masked their distinct
	// flows (Links.Flows those into linkable catalog inputs), Train the flows recorded from the
	// kept chains.
	Test   int `json:"test"`
	Masked int `json:"masked"`
	Train  int `json:"train"`
	// Predicted counts the FEEDS edges the predictor added, into every unlinked input.
	Predicted int `json:"predicted"`
	// Links measures the graph's links against the held-out chains' flows; Chains is their
	// search (exact recovery, node-F1, link-F1).
	Links  LinkStats `json:"links"`
	Chains Summary   `json:"chains"`
	// Note says how the predictor was set (the HGT's threshold and test AUC).
	Note string `json:"note,omitempty"`
}

// apiParam names an input: API, parameter.
type apiParam [2]string

// maskedSplit is the masked setting of one set at one ratio.
type maskedSplit struct {
	g0       *twnm.Graph          // the catalog's graph, as Navi builds it
	unlinked map[apiParam]bool    // the gold flows' consumer inputs
	test     []Chain              // held-out chains
	train    []Chain              // kept chains, their masked transitions left out
	masked   map[Flow]bool        // the held-out chains' flows
	texts    map[string][]float64 // sentence embeddings of parameter texts
}

// MaskedAll runs the masked setting on every set at every ratio (seeded), with every
// predictor. The HGT trains on the kept chains of the set and on every chain of the sets of
// another family (other dev sets, each over its own catalog): the model is inductive (it reads
// node features, not node identities), and one set's few distinct flows are too few to learn
// from. Each set's graph with all its chains recorded is built once, when an HGT first needs it.
func MaskedAll(ctx context.Context, sets []Set, rhos []float64, seed uint64, progress io.Writer) (MaskedReport, error) {
	histories := make([]*twnm.Graph, len(sets))
	history := func(i int) (*twnm.Graph, error) {
		if histories[i] == nil {
			sp, err := prepare(ctx, sets[i], 0, 0)
			if err != nil {
				return nil, err
			}
			g, _, err := sp.graph()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", sets[i].Name, err)
			}
			sp.embedParams(g)
			histories[i] = g
		}
		return histories[i], nil
	}
	rep := MaskedReport{Seed: seed}
	for _, set := range sets {
		others := func() ([]*twnm.Graph, error) {
			var gs []*twnm.Graph
			for i, o := range sets {
				if o.Family == set.Family {
					continue
				}
				g, err := history(i)
				if err != nil {
					return nil, err
				}
				gs = append(gs, g)
			}
			return gs, nil
		}
		for _, rho := range rhos {
			res, err := masked(ctx, set, others, rho, seed, progress)
			if err != nil {
				return rep, err
			}
			rep.Results = append(rep.Results, res...)
		}
	}
	return rep, nil
}

// masked runs the masked setting on set at ratio rho with every predictor; others gives the
// graphs of the other families' sets that the HGT trains on besides set's kept chains.
func masked(ctx context.Context, set Set, others func() ([]*twnm.Graph, error), rho float64, seed uint64, progress io.Writer) ([]MaskedResult, error) {
	if !(rho > 0 && rho < 1) {
		return nil, fmt.Errorf("masked %s: ratio %v must be in (0, 1)", set.Name, rho)
	}
	sp, err := prepare(ctx, set, rho, seed)
	if err != nil {
		return nil, err
	}
	if len(sp.test) == 0 {
		return nil, fmt.Errorf("masked %s: no chain of two APIs or more has a flow into a linkable input", set.Name)
	}
	relevance := bm25Relevance(set.Catalog)
	var out []MaskedResult
	for _, pred := range Predictors {
		if progress != nil {
			fmt.Fprintf(progress, "masked: %s, ρ = %.1f, %s\n", set.Name, rho, pred)
		}
		g, iso, err := sp.graph()
		if err != nil {
			return out, fmt.Errorf("masked %s: %w", set.Name, err)
		}
		res := MaskedResult{Set: set.Name, Rho: rho, Predictor: pred, Test: len(sp.test), Masked: len(sp.masked), Train: trainFlows(sp.train)}
		switch pred {
		case PredictCatalog:
			res.Predicted = sp.catalogLinks(g, iso)
		case PredictCosine:
			res.Predicted = sp.cosineLinks(g, iso)
		case PredictGold:
			res.Predicted = sp.goldLinks(g, iso)
		case PredictHGT:
			if res.Predicted, res.Note, err = sp.hgtLinks(ctx, g, iso, others); err != nil {
				return out, fmt.Errorf("masked %s, ρ = %v: %w", set.Name, rho, err)
			}
		}
		all, err := Evaluate(ctx, sp.test, Options{Static: true, Searcher: twnm.DefaultAlphaBeta(), Relevance: relevance,
			Build: func(context.Context, []Chain) (*twnm.Graph, error) { return g, nil }})
		if err != nil {
			return out, fmt.Errorf("masked %s: %w", set.Name, err)
		}
		res.Chains = all
		res.Chains.Results = nil
		res.Links = Links(g, sp.test)
		res.Links.Missed = nil
		out = append(out, res)
	}
	return out, nil
}

// prepare builds set's catalog graph as Navi builds it and splits its chains at rho (0 keeps
// them all).
func prepare(ctx context.Context, set Set, rho float64, seed uint64) (maskedSplit, error) {
	emb, err := embed.Standard()
	if err != nil {
		return maskedSplit{}, fmt.Errorf("masked %s: %w", set.Name, err)
	}
	g0, err := twnm.Build(ctx, set.Catalog, twnm.BuildOptions{Embedder: embed.Default(), APIEmbedder: emb})
	if err != nil {
		return maskedSplit{}, fmt.Errorf("masked %s: %w", set.Name, err)
	}
	sp := split(g0, set.Chains, rho, seed)
	if sp.texts, err = paramEmbeddings(ctx, set.Catalog, emb); err != nil {
		return maskedSplit{}, fmt.Errorf("masked %s: %w", set.Name, err)
	}
	return sp, nil
}

// split holds out a fraction rho of the chains of two APIs or more that have a flow into a
// linkable catalog input, seeded, and masks their flows.
func split(g0 *twnm.Graph, chains []Chain, rho float64, seed uint64) maskedSplit {
	sp := maskedSplit{g0: g0, unlinked: map[apiParam]bool{}, masked: map[Flow]bool{}}
	var eligible []int
	for i, c := range chains {
		n := 0
		for _, f := range c.Flows() {
			if in, ok := goldInput(g0, f); ok {
				sp.unlinked[in] = true
				n++
			}
		}
		if n > 0 && len(c.APIs) >= 2 {
			eligible = append(eligible, i)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x6d61736b)) // "mask"
	perm := rng.Perm(len(eligible))
	nTest := int(math.Round(rho * float64(len(eligible))))
	if rho > 0 {
		nTest = max(1, nTest)
	}
	held := map[int]bool{}
	for _, k := range perm[:min(nTest, len(perm))] {
		held[eligible[k]] = true
	}
	pairs := map[[2]string]bool{} // APIs of a masked flow: their THEN transitions go too
	for i, c := range chains {
		if !held[i] {
			continue
		}
		sp.test = append(sp.test, c)
		for _, f := range c.Flows() {
			sp.masked[f] = true
			pairs[[2]string{f.From, f.To}] = true
		}
	}
	for i, c := range chains {
		if held[i] {
			continue
		}
		c.Transitions = slices.DeleteFunc(slices.Clone(c.Transitions), func(tr twnm.Transition) bool {
			if tr.Kind == twnm.Then {
				return pairs[[2]string{tr.From, tr.To}]
			}
			f := Flow{From: tr.From, Output: tr.FromParam, To: tr.To, Input: tr.ToParam}
			_, okOut := g0.ParamOf(f.From, f.Output, false)
			_, okIn := g0.ParamOf(f.To, f.Input, true)
			return sp.masked[f] || !okOut || !okIn // a field inside an output is no catalog output
		})
		invs := make([]twnm.Invocation, len(c.Invocations))
		for j, inv := range c.Invocations { // a dialogue may pass inputs its catalog entry lacks
			inv.Inputs = slices.DeleteFunc(slices.Clone(inv.Inputs), func(p string) bool {
				_, ok := g0.ParamOf(inv.API, p, true)
				return !ok
			})
			invs[j] = inv
		}
		c.Invocations = invs
		sp.train = append(sp.train, c)
	}
	return sp
}

// goldInput returns the consumer input of flow f when the flow runs from a catalog output of
// its producer into a linkable catalog input.
func goldInput(g *twnm.Graph, f Flow) (apiParam, bool) {
	f = fromList(f)
	if _, ok := g.ParamOf(f.From, f.Output, false); !ok {
		return apiParam{}, false
	}
	in, ok := input(g, f.To, f.Input)
	if !ok || !twnm.Linkable(in) || f.From == f.To {
		return apiParam{}, false
	}
	return apiParam{f.To, f.Input}, true
}

func trainFlows(chains []Chain) int {
	seen := map[Flow]bool{}
	for _, c := range chains {
		for _, f := range c.Flows() {
			seen[f] = true
		}
	}
	return len(seen)
}

// graph is the catalog's graph with each unlinked input on a node of its own (named
// "API.param", described by the input), and the kept chains' feedback recorded; iso maps the
// unlinked inputs to their nodes.
func (sp maskedSplit) graph() (*twnm.Graph, map[apiParam]twnm.NodeID, error) {
	g := twnm.New()
	if err := copyGraph(g, sp.g0, "", func(api, param string) bool { return sp.unlinked[apiParam{api, param}] }); err != nil {
		return nil, nil, err
	}
	iso := map[apiParam]twnm.NodeID{}
	for in := range sp.unlinked {
		iso[in], _ = g.ParamOf(in[0], in[1], true)
	}
	if err := Learn(g, sp.train); err != nil {
		return nil, nil, err
	}
	return g, iso, nil
}

// addLink adds a FEEDS edge from node from into the unlinked input node to, unless the two
// are linked already (observed, or the same node).
func addLink(g *twnm.Graph, from, to twnm.NodeID) (*twnm.Edge, bool) {
	if from == to {
		return nil, false
	}
	if _, ok := g.Edge(twnm.Feeds, from, to); ok {
		return nil, false
	}
	return g.AddEdge(twnm.Feeds, from, to), true
}

// splitMember splits a parameter node's member "API.param" (API names may hold dots).
func splitMember(m string) (api, param string) {
	i := strings.LastIndex(m, ".")
	return m[:i], m[i+1:]
}

// outputNodes lists, for each parameter node that some API outputs, the APIs that output it.
func outputNodes(g *twnm.Graph) map[twnm.NodeID][]twnm.NodeID {
	out := map[twnm.NodeID][]twnm.NodeID{}
	for _, n := range g.Nodes() {
		if n.Kind == twnm.KindParam {
			if ps := g.Producers(n.ID); len(ps) > 0 {
				out[n.ID] = ps
			}
		}
	}
	return out
}

// producedByOthers reports whether an API other than consumer outputs node n.
func producedByOthers(producers []twnm.NodeID, consumer twnm.NodeID) bool {
	return slices.ContainsFunc(producers, func(p twnm.NodeID) bool { return p != consumer })
}

// catalogLinks restores the links the catalog's graph gives each unlinked input: the node it
// shared (confidence 1) and the FEEDS edges into that node (their confidence).
func (sp maskedSplit) catalogLinks(g *twnm.Graph, iso map[apiParam]twnm.NodeID) int {
	n := 0
	for in, to := range sortedIso(iso) {
		n0, _ := sp.g0.ParamOf(in[0], in[1], true)
		consumer, _ := sp.g0.APIByName(in[0])
		add := func(name string, conf float64) {
			if from, ok := g.ParamByName(name); ok {
				if e, added := addLink(g, from, to); added {
					e.Confidence = conf // the catalog's evidence, as Build gives it
					n++
				}
			}
		}
		if producedByOthers(sp.g0.Producers(n0), consumer) {
			add(sp.g0.Node(n0).Name, 1)
		}
		for _, e := range sp.g0.In(n0) {
			if e.Kind == twnm.Feeds {
				add(sp.g0.Node(e.From).Name, e.Confidence)
			}
		}
	}
	return n
}

// goldLinks links each masked flow's producer output into its consumer's unlinked input.
func (sp maskedSplit) goldLinks(g *twnm.Graph, iso map[apiParam]twnm.NodeID) int {
	flows := make([]Flow, 0, len(sp.masked))
	for f := range sp.masked {
		flows = append(flows, f)
	}
	sort.Slice(flows, func(i, j int) bool { return fmt.Sprint(flows[i]) < fmt.Sprint(flows[j]) })
	n := 0
	for _, f := range flows {
		to, ok := iso[apiParam{f.To, f.Input}]
		if !ok {
			continue
		}
		f = fromList(f)
		if from, ok := g.ParamOf(f.From, f.Output, false); ok {
			if e, added := addLink(g, from, to); added {
				e.Confidence = 1 // certain, as the catalog's shared node is
				n++
			}
		}
	}
	return n
}

// cosineLinks links each unlinked input to the output nodes whose members' texts are closest
// to the input's by the sentence encoder: at LinkOptions.Similar or above, the best
// predictedPerInput.
func (sp maskedSplit) cosineLinks(g *twnm.Graph, iso map[apiParam]twnm.NodeID) int {
	outs := outputNodes(g)
	floor := twnm.DefaultLinkOptions().Similar
	n := 0
	for in, to := range sortedIso(iso) {
		consumer, _ := g.APIByName(in[0])
		q := sp.texts[paramKeyText(in[0], in[1], true)]
		var cands []scored
		for node, producers := range outs {
			if !producedByOthers(producers, consumer) {
				continue
			}
			best := math.Inf(-1)
			for _, m := range g.Node(node).Members {
				api, param := splitMember(m)
				if v, ok := sp.texts[paramKeyText(api, param, false)]; ok {
					best = max(best, embed.Cosine(q, v))
				}
			}
			if best >= floor {
				cands = append(cands, scored{node, best})
			}
		}
		n += keepBest(g, cands, to)
	}
	return n
}

// scored is a candidate producer node of an input.
type scored struct {
	node twnm.NodeID
	p    float64
}

// keepBest adds the best predictedPerInput of cands as predicted links into to.
func keepBest(g *twnm.Graph, cands []scored, to twnm.NodeID) int {
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].p != cands[j].p {
			return cands[i].p > cands[j].p
		}
		return cands[i].node < cands[j].node
	})
	n := 0
	for _, c := range cands {
		if n == predictedPerInput {
			break
		}
		if e, added := addLink(g, c.node, to); added {
			e.Predicted, e.HasPrediction = c.p, true
			n++
		}
	}
	return n
}

// hgtLinks trains the HGT on observed edges (hgtdata.Observed): those of g (the kept chains'
// flows and calls) and those of the graphs others gives, in one graph of disjoint parts, its
// node features the sentence embeddings of the APIs' and parameters' texts. It links each
// unlinked input of g to the output nodes the model predicts at its validation threshold or
// above, the best predictedPerInput.
func (sp maskedSplit) hgtLinks(ctx context.Context, g *twnm.Graph, iso map[apiParam]twnm.NodeID, others func() ([]*twnm.Graph, error)) (int, string, error) {
	sp.embedParams(g)
	rest, err := others()
	if err != nil {
		return 0, "", err
	}
	parts := append([]*twnm.Graph{g}, rest...)
	train, err := disjointUnion(parts)
	if err != nil {
		return 0, "", err
	}
	cfg := hgt.DefaultConfig()
	cfg.Targets = hgtdata.Observed
	if n := len(hgtdata.Targets(train, cfg.Targets)); n < hgt.MinTargets {
		return 0, fmt.Sprintf("not trained: the chains showed %d edges, fewer than the %d training needs", n, hgt.MinTargets), nil
	}
	model, met, err := hgt.Train(ctx, train, cfg, nil)
	if err != nil {
		return 0, "", err
	}
	outs := outputNodes(g)
	var pairs [][2]twnm.NodeID
	for in, to := range sortedIso(iso) {
		consumer, _ := g.APIByName(in[0])
		for from, producers := range outs {
			if producedByOthers(producers, consumer) {
				if _, linked := g.Edge(twnm.Feeds, from, to); !linked && from != to {
					pairs = append(pairs, [2]twnm.NodeID{from, to})
				}
			}
		}
	}
	probs, err := model.Probabilities(ctx, g, twnm.Feeds, pairs)
	if err != nil {
		return 0, "", err
	}

	cands := map[twnm.NodeID][]scored{}
	for i, p := range pairs {
		if probs[i] >= met.Threshold {
			cands[p[1]] = append(cands[p[1]], scored{p[0], probs[i]})
		}
	}
	n := 0
	for _, to := range sortedIso(iso) {
		n += keepBest(g, cands[to], to)
	}
	note := fmt.Sprintf("threshold %.2f (validation), test AUC %.3f over %d observed edges (sets: %d), %d epochs",
		met.Threshold, met.AUC, met.TrainEdges+met.ValEdges+met.TestEdges, len(parts), met.Epochs)
	return n, note, nil
}

// embedParams gives every parameter node of g the sentence embedding of its first member's
// text, so that all nodes share the APIs' embedding space (Build clusters with another), and
// clears the parameters' use counts: an input that recorded runs used would otherwise tell the
// model where the observed flows go, and a held-out input, never used, would never be linked.
func (sp maskedSplit) embedParams(g *twnm.Graph) {
	for _, n := range g.Nodes() {
		if n.Kind != twnm.KindParam || len(n.Members) == 0 {
			continue
		}
		n.Success, n.Failure = 0, 0
		api, param := splitMember(n.Members[0])
		if v, ok := sp.texts[paramKeyText(api, param, false)]; ok {
			n.Embedding = v
		} else {
			n.Embedding = sp.texts[paramKeyText(api, param, true)]
		}
	}
}

// disjointUnion is one graph of the parts side by side, part i's node names prefixed "i/",
// with their behavioural edges and statistics.
func disjointUnion(parts []*twnm.Graph) (*twnm.Graph, error) {
	if len(parts) == 1 {
		return parts[0], nil
	}
	u := twnm.New()
	for i, g := range parts {
		if err := copyGraph(u, g, fmt.Sprintf("%d/", i), nil); err != nil {
			return nil, err
		}
	}
	return u, nil
}

// copyGraph adds g's APIs, parameters and behavioural edges to u, with what search and the
// HGT's features read of them, every node name prefixed by prefix. An input that own (when
// set) names gets a parameter node of its own, named "<prefix>API.param" and described by
// the input, and none of the links of the node it had.
func copyGraph(u, g *twnm.Graph, prefix string, own func(api, param string) bool) error {
	for _, id := range g.APIs() {
		a := *g.Node(id).API
		orig := a.Name
		if prefix != "" {
			a.Name = prefix + orig
			a.Check = "" // another part's API by its own name
		}
		nid, err := u.AddAPIWithParams(a, func(p twnm.Param, input bool) string {
			if input && own != nil && own(orig, p.Name) {
				return prefix + orig + "." + p.Name
			}
			n, _ := g.ParamOf(orig, p.Name, input)
			return prefix + g.Node(n).Name
		})
		if err != nil {
			return err
		}
		copyStats(u.Node(nid), g.Node(id))
	}
	for _, n := range g.Nodes() {
		if n.Kind == twnm.KindParam {
			if id, ok := u.ParamByName(prefix + n.Name); ok {
				copyStats(u.Node(id), n)
			}
		}
	}
	for _, e := range g.Edges() {
		if !e.Kind.Behavioural() {
			continue
		}
		from, ok1 := byName(u, prefix, g.Node(e.From))
		to, ok2 := byName(u, prefix, g.Node(e.To))
		if ok1 && ok2 {
			ne := u.AddEdge(e.Kind, from, to)
			ne.Count, ne.Success, ne.Weight, ne.Confidence = e.Count, e.Success, e.Weight, e.Confidence
		}
	}
	return nil
}

// copyStats copies what the HGT's features read of a node: its embedding and statistics.
func copyStats(dst, src *twnm.Node) {
	dst.Embedding, dst.Status = src.Embedding, src.Status
	dst.Success, dst.Failure, dst.LastUsed = src.Success, src.Failure, src.LastUsed
	if src.Kind == twnm.KindParam {
		dst.Type, dst.Description = src.Type, src.Description
	}
}

func byName(u *twnm.Graph, prefix string, n *twnm.Node) (twnm.NodeID, bool) {
	if n.Kind == twnm.KindAPI {
		return u.APIByName(prefix + n.Name)
	}
	return u.ParamByName(prefix + n.Name)
}

// sortedIso iterates iso in input order, so that runs are reproducible.
func sortedIso(iso map[apiParam]twnm.NodeID) func(yield func(apiParam, twnm.NodeID) bool) {
	keys := make([]apiParam, 0, len(iso))
	for k := range iso {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b apiParam) int { return strings.Compare(a[0]+"\x00"+a[1], b[0]+"\x00"+b[1]) })
	return func(yield func(apiParam, twnm.NodeID) bool) {
		for _, k := range keys {
			if !yield(k, iso[k]) {
				return
			}
		}
	}
}

func paramKeyText(api, param string, input bool) string {
	if input {
		return api + "\x00" + param + "\x00in"
	}
	return api + "\x00" + param + "\x00out"
}

// paramEmbeddings embeds every parameter's text (twnm.ParamText) with the sentence encoder,
// keyed by paramKeyText.
func paramEmbeddings(ctx context.Context, c twnm.Catalog, emb embed.Embedder) (map[string][]float64, error) {
	var keys, texts []string
	for _, a := range c.APIs {
		for _, d := range []struct {
			ps    []twnm.Param
			input bool
		}{{a.Inputs, true}, {a.Outputs, false}} {
			for _, p := range d.ps {
				keys = append(keys, paramKeyText(a.Name, p.Name, d.input))
				texts = append(texts, twnm.ParamText(a, p, d.input))
			}
		}
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("embed %d parameters: %w", len(texts), err)
	}
	out := make(map[string][]float64, len(keys))
	for i, k := range keys {
		out[k] = vecs[i]
	}
	return out, nil
}

// MaskedReport is the masked setting on every set at every ratio.
type MaskedReport struct {
	Seed    uint64         `json:"seed"`
	Results []MaskedResult `json:"results"`
}

// WriteJSON writes the report as indented JSON.
func (r MaskedReport) WriteJSON(w io.Writer) error { return writeJSON(w, r) }

// WriteMarkdown writes the report's table.
func (r MaskedReport) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("| set | ρ | predictor | held-out chains | masked flows | links added | masked flows linked | link precision | exact chain | node-F1 | link-F1 |\n")
	b.WriteString("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	var notes []string
	for _, x := range r.Results {
		l := x.Links
		fmt.Fprintf(&b, "| %s | %.1f | %s | %d | %d | %d | %.1f%% (%d/%d) | %.2f (%d/%d) | %.1f%% (%d/%d) | %.2f | %.2f |\n",
			x.Set, x.Rho, x.Predictor, x.Test, x.Masked, x.Predicted, 100*l.Coverage(), l.Covered, l.Flows, l.Precision(), l.Correct, l.Links,
			100*x.Chains.ExactRate(), x.Chains.Exact, x.Chains.Chains, x.Chains.NodeF1, x.Chains.LinkF1)
		if x.Note != "" {
			notes = append(notes, fmt.Sprintf("- %s, ρ = %.1f, %s: %s; %d flows recorded from the kept chains.", x.Set, x.Rho, x.Predictor, x.Note, x.Train))
		}
	}
	b.WriteString("\n")
	for _, n := range notes {
		b.WriteString(n + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
