package twnm

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// SearchRequest asks for the dependency subgraph of one target API: which APIs must run
// before it to produce the inputs the user did not supply (NaviAgent Appendix C: the target
// recalled by embedding, the known input parameters and the desired outputs).
type SearchRequest struct {
	// Target is the API node to reach.
	Target NodeID
	// Known holds the values the user supplied, keyed by parameter name. A key binds a
	// parameter node when it is the node's canonical name, one of its members
	// ("API.param"), or the parameter part of a member ("param" of "API.param").
	Known map[string]string
	// Wanted names the output parameters the user asked for (optional). Producers that also
	// output a wanted parameter score higher (the target-parameter term of Eq. 22).
	Wanted []string
	// Exclude lists API nodes the search must not use, e.g. an API that just failed
	// (path recombination); the graph is left as it is.
	Exclude map[NodeID]bool
	// Relevance scores APIs by their relevance to the request (retrieval's scores, such as
	// recall.Result.Relevance, by API name; higher is more relevant). Among producers that
	// bind an input equally well, the search prefers the more relevant (optional).
	Relevance map[string]float64
	// Said reports whether the request says a word (optional; nil: every word is said). An
	// output that names a role of the input it would bind, words its concept adds to the
	// input's ("leader" of leader_team_id for team_id), binds it only where the request says
	// one of them: the league leader's id is no team the request asked about unless it asks
	// for the leader.
	Said func(word string) bool
	// Named lists the APIs the request names besides what it asks for: the thing whose
	// attribute the target takes ("the elevation at the location of the best hotel" names the
	// hotel's APIs). Among branches that bind a stated value alike, one through a named API
	// wins over a shorter one through none (optional).
	Named map[string]bool
}

// Searcher finds the dependency subgraph of a target API.
type Searcher interface {
	Search(ctx context.Context, g *Graph, req SearchRequest) (*Subgraph, error)
}

// Supply is how one input of one API of a subgraph is bound.
type Supply struct {
	API      NodeID // the consuming API
	Param    NodeID // the input's parameter node
	Required bool
	Source   SupplySource
	Value    string // SupplyGiven: the user's value
	// Producer and Output (SupplyUpstream) are the API whose output binds the input and that
	// output's parameter node: Param itself, or a parameter with a FEEDS edge to Param.
	Producer, Output NodeID
	// Score is the link's score under the searcher's formula (Eq. 22 for AlphaBeta, the
	// link weight for Heuristic); zero unless SupplyUpstream.
	Score float64
}

// SearchStats counts a search's work, for tests and tuning.
type SearchStats struct {
	Expanded    int  // AlphaBeta: parameter nodes expanded; Heuristic: candidates evaluated
	AlphaPruned int  // producer branches cut by the alpha threshold
	BetaPruned  int  // producer branches cut because a sibling reached beta
	Generations int  // Heuristic: generations run
	Exhausted   bool // AlphaBeta: MaxExpansions was reached; the subgraph is the best found by then
}

// Subgraph is the dependency subgraph a search chose for one target.
type Subgraph struct {
	Target NodeID
	// APIs are the chosen API nodes: the target first, then upstream APIs breadth first.
	APIs []NodeID
	// Params are the parameter nodes of the subgraph (bound or required inputs, and the
	// outputs that bind them), by ID.
	Params []NodeID
	// Edges are the graph edges the subgraph uses: INPUT_OF for its inputs, OUTPUTS and FEEDS
	// for its bindings, THEN between its producer and consumer APIs where history has one.
	Edges []*Edge
	// Score is the searcher's score: AlphaBeta's product of link scores (Eq. 22), Heuristic's
	// fitness (Eq. 23). Higher is better; only scores of one searcher compare.
	Score float64
	// Inputs has one entry per input of each API in APIs, grouped by API in APIs order and
	// within an API in the order of Graph.Inputs (required first, then by name).
	Inputs []Supply
	Stats  SearchStats
}

// Given returns the required and optional inputs bound by user values.
func (s *Subgraph) Given() []Supply { return s.filter(SupplyGiven) }

// Upstream returns the inputs bound by outputs of upstream APIs.
func (s *Subgraph) Upstream() []Supply { return s.filter(SupplyUpstream) }

// Missing returns the required inputs that nothing binds.
func (s *Subgraph) Missing() []Supply { return s.filter(SupplyMissing) }

// Feasible reports whether every required input is bound.
func (s *Subgraph) Feasible() bool { return len(s.Missing()) == 0 }

func (s *Subgraph) filter(src SupplySource) []Supply {
	var out []Supply
	for _, in := range s.Inputs {
		if in.Source == src {
			out = append(out, in)
		}
	}
	return out
}

// inputsOf returns the supplies of one API of the subgraph.
func (s *Subgraph) inputsOf(api NodeID) []Supply {
	var out []Supply
	for _, in := range s.Inputs {
		if in.API == api {
			out = append(out, in)
		}
	}
	return out
}

// SearchTargets searches each request with s, in parallel on at most GOMAXPROCS goroutines,
// and returns the subgraphs in request order. It stops at the first error in request order,
// and returns ctx's error once ctx is done.
func SearchTargets(ctx context.Context, g *Graph, s Searcher, reqs []SearchRequest) ([]*Subgraph, error) {
	out := make([]*Subgraph, len(reqs))
	errs := make([]error, len(reqs))
	workers := min(runtime.GOMAXPROCS(0), len(reqs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(reqs) {
					return
				}
				if err := ctx.Err(); err != nil {
					errs[i] = err
					continue
				}
				out[i], errs[i] = s.Search(ctx, g, reqs[i])
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("search targets: %w", err)
	}
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("search target %d (%s): %w", i, nodeName(g, reqs[i].Target), err)
		}
	}
	return out, nil
}

// errBadTarget is wrapped by searches whose target cannot be searched.
var errBadTarget = errors.New("target is not a usable API")

// nodeName names a node for messages, tolerating IDs outside the graph.
func nodeName(g *Graph, id NodeID) string {
	if id < 0 || int(id) >= g.Len() {
		return fmt.Sprintf("node %d", id)
	}
	return g.Node(id).Name
}

// usableAPI reports whether search may use API node id: active and not excluded. Probing
// APIs are still pruned until their probe succeeds, so they are not used either.
func usableAPI(g *Graph, id NodeID, exclude map[NodeID]bool) bool {
	n := g.Node(id)
	return n.Kind == KindAPI && n.Status == Active && !exclude[id]
}

func checkTarget(g *Graph, req SearchRequest) error {
	if req.Target < 0 || int(req.Target) >= g.Len() {
		return fmt.Errorf("%w: node %d is not in the graph", errBadTarget, req.Target)
	}
	n := g.Node(req.Target)
	if n.Kind != KindAPI {
		return fmt.Errorf("%w: %s is a parameter", errBadTarget, n.Name)
	}
	if n.Status != Active {
		return fmt.Errorf("%w: %s is %s", errBadTarget, n.Name, n.Status)
	}
	if req.Exclude[req.Target] {
		return fmt.Errorf("%w: %s is excluded", errBadTarget, n.Name)
	}
	return nil
}

// knownValues are the values a request states: for one API's input (a key "API.param"
// naming an input of the graph), or for a parameter node wherever it is an input (its
// canonical name, or a member's parameter part). A value stated for one API's input binds that
// input only: the latitude the user gave for a reverse geocoding is not the latitude of the
// centre that a later call needs, though both are one parameter node.
type knownValues struct {
	node  map[NodeID]string
	input map[[2]NodeID]string // {API, parameter node}
}

// get returns the value stated for the input param of api, and whether there is one.
func (k knownValues) get(api, param NodeID) (string, bool) {
	if v, ok := k.input[[2]NodeID{api, param}]; ok {
		return v, true
	}
	v, ok := k.node[param]
	return v, ok
}

// resolveParams maps parameter names (as SearchRequest.Known keys them) to the inputs and
// parameter nodes they bind (see knownValues).
func resolveParams(g *Graph, known map[string]string) knownValues {
	out := knownValues{node: make(map[NodeID]string, len(known)), input: map[[2]NodeID]string{}}
	var rest []string
	for k, v := range known {
		if id, ok := g.ParamByName(k); ok {
			out.node[id] = v
			continue
		}
		if i := strings.LastIndex(k, "."); i > 0 { // API names may hold dots; parameter names do not
			if id, ok := g.ParamOf(k[:i], k[i+1:], true); ok {
				a, _ := g.APIByName(k[:i])
				out.input[[2]NodeID{a, id}] = v
				continue
			}
		}
		rest = append(rest, k)
	}
	if len(rest) == 0 {
		return out
	}
	// Names that are not canonical: match members, by full name or by parameter part. Keys
	// are sorted so that two keys matching one node resolve the same way every time.
	sort.Strings(rest)
	for _, n := range g.Nodes() {
		if n.Kind != KindParam {
			continue
		}
		if _, done := out.node[n.ID]; done {
			continue
		}
		for _, k := range rest {
			if memberMatches(n.Members, k) {
				out.node[n.ID] = known[k]
				break
			}
		}
	}
	return out
}

func memberMatches(members []string, k string) bool {
	for _, m := range members {
		if m == k || strings.HasSuffix(m, "."+k) {
			return true
		}
	}
	return false
}

// resolveNames maps parameter names to parameter nodes as resolveParams does.
func resolveNames(g *Graph, names []string) []NodeID {
	m := make(map[string]string, len(names))
	for _, n := range names {
		m[n] = ""
	}
	ids := make([]NodeID, 0, len(names))
	for id := range resolveParams(g, m).node {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

// link is one way a producer API can bind a parameter: directly (output == param) or
// through a FEEDS edge from its output to the parameter.
type link struct {
	api, output NodeID
	weight      float64 // w(v,u): OUTPUTS strength, times the FEEDS strength for an alias
}

// givesBack reports whether l's producer needs u itself and gives it back: the credits of a
// season give back the show's id they take, so naming them says what the request is about,
// not where u comes from. A producer that gives u from the items of a list it answers gives
// other things of u's kind (the movies similar to a movie): named, it is where u comes from.
func givesBack(g *Graph, l link, u NodeID) bool {
	if !g.Requires(l.api, u) {
		return false
	}
	n := g.Node(l.api)
	if n.API == nil {
		return true
	}
	for _, o := range n.API.Outputs {
		if id, ok := g.ParamOf(n.Name, o.Name, false); ok && id == l.output {
			return !strings.Contains(o.Path, "[]")
		}
	}
	return true
}

// foreignLink is the link strength from which another provider's output feeds an input
// that the request does not ask that provider for: a city feeds a city (0.9), a football
// fixture's match_date (0.65) or a forecast's forecast_date (0.6) no table's date. No dev
// set's figure moves from 0.7 to 0.85; the middle is kept.
const foreignLink = 0.8

// local keeps the links of ls whose producer may feed consumer: an API of consumer's own
// source (API.Source), or of a source the request asks for (asked, see askedSources). A
// spec's or server's APIs feed each other; another source's output is no producer the request
// did not ask for: a workflow engine's info call does not feed a music search, though both
// speak of a "version". APIs of no known source are all local. Within a source, another
// provider's output feeds only on a link the catalog makes strong (catalogStrength at
// foreignLink or more), where the request asks for that provider, or where it has fed the
// consumer before: "Book me a table for two at Nobu tonight" takes its date from no football
// team called Nobu.
func local(g *Graph, ls []link, consumer, p NodeID, asked map[string]bool) []link {
	c := g.Node(consumer).API
	if c == nil {
		return ls
	}
	return slices.DeleteFunc(slices.Clone(ls), func(l link) bool {
		n := g.Node(l.api)
		if n.API == nil {
			return false
		}
		if c.Source != "" && n.API.Source != "" && n.API.Source != c.Source {
			return !asked[n.API.Source]
		}
		return c.Provider != "" && n.API.Provider != "" && n.API.Provider != c.Provider && !asked[askedProvider(n.API.Provider)] &&
			catalogStrength(g, l, consumer, p) < foreignLink && !fedBefore(g, l.api, consumer)
	})
}

// catalogStrength is the strength the catalog gives l into input p of consumer, whatever runs
// have taught since (Edge.Prior): learned weights rank producers; they do not make one foreign.
func catalogStrength(g *Graph, l link, consumer, p NodeID) float64 {
	w, _ := linkStrength(g, l.api, l.output, p, consumer, (*Edge).Prior)
	return w
}

// linkStrength is the strength of the link from v's output into input u of consumer, each edge
// read by strength (Edge.Strength for search, Edge.Prior for the catalog's own): the OUTPUTS
// edge's, times SimilarWeight where the output joined u's node by meaning, not by u's
// concept, or times the FEEDS edge's from the output to u. false where v does not output
// output, or output neither is nor FEEDS u.
func linkStrength(g *Graph, v, output, u, consumer NodeID, strength func(*Edge) float64) (float64, bool) {
	e, ok := g.Edge(Outputs, v, output)
	if !ok {
		return 0, false
	}
	w := strength(e)
	if output == u && !sameConcept(g, v, consumer, u) {
		w *= SimilarWeight
	}
	if output != u {
		f, ok := g.Edge(Feeds, output, u)
		if !ok {
			return 0, false
		}
		w *= strength(f)
	}
	return w, true
}

// fedBefore reports whether a call of producer has fed one of consumer that succeeded (a THEN
// edge with successes): what runs have shown holds whatever the link's strength.
func fedBefore(g *Graph, producer, consumer NodeID) bool {
	e, ok := g.Edge(Then, producer, consumer)
	return ok && e.Success > 0
}

// issued keeps, of the links of ls into an identifier p of consumer, those from consumer's own
// provider where that provider issues p (an API of it outputs p, whether or not the search may
// call it): an id means something only to the service that issued it, so a chat service's
// application id does not find a team in another's admin API, whatever part of the request
// asks for the chat service. Where none of the issuer's APIs may be called, the input stays
// unbound and the run asks for it. Recall's issuers reads producers alike.
func issued(g *Graph, ls []link, consumer, p NodeID) []link {
	c := g.Node(consumer).API
	if c == nil || c.Provider == "" || !Identifier(g.Node(p).Name) {
		return ls
	}
	own := func(api NodeID) bool {
		n := g.Node(api)
		return api != consumer && n.API != nil && n.API.Provider == c.Provider
	}
	if !slices.ContainsFunc(g.Producers(p), own) {
		return ls
	}
	return slices.DeleteFunc(slices.Clone(ls), func(l link) bool { return !own(l.api) })
}

// listed binds an input p of consumer from the APIs that list the collection it picks an item
// of (Graph.Listers: by its path, or by its name), where one of them may be called: their
// links of ls, or a link from the output that identifies each listed item (Graph.ItemID)
// where ls has none. The search takes a site's id from the list of sites, not from a DNS zone
// that names its site, a channel's sid from the channels' list, whose sid no name links to
// ChannelSid, and the file_id of a body from the list of files, not from a search of a vector
// store's contents. Where no lister may be called, ls stays as it is.
func listed(g *Graph, ls []link, consumer, p NodeID, exclude map[NodeID]bool) []link {
	c := g.Node(consumer).API
	if c == nil || c.Endpoint == nil {
		return ls
	}
	var out []link
	for _, in := range c.Inputs {
		if id, ok := g.ParamOf(c.Name, in.Name, true); !ok || id != p {
			continue
		}
		for _, api := range g.Listers(consumer, in.Name) {
			if !usableAPI(g, api, exclude) || slices.ContainsFunc(out, func(l link) bool { return l.api == api }) {
				continue
			}
			if k := slices.IndexFunc(ls, func(l link) bool { return l.api == api }); k >= 0 {
				out = append(out, ls[k])
			} else if o, ok := g.ItemID(api, in.Name); ok {
				out = append(out, link{api: api, output: o, weight: 1})
			}
		}
	}
	if len(out) == 0 {
		return ls
	}
	return out
}

// askedProvider is the key of a provider in askedSources' set, apart from the sources'.
func askedProvider(p string) string { return "\x00" + p }

// askedSources are the sources the request asks for, and the providers: those of the APIs a part of it ranks
// first (relevance 1, see SearchRequest.Relevance). Any API a part retrieved at all is not
// enough: among the hundreds of APIs of several imported specs, every spec has some API in
// some part's list, and its generic outputs (an id, a name) then fed the others' inputs: a
// design tool's webhooks fed a map's directions.
func askedSources(g *Graph, relevance map[string]float64) map[string]bool {
	asked := map[string]bool{}
	for name, r := range relevance {
		if r < 1 {
			continue
		}
		id, ok := g.APIByName(name)
		if !ok || g.Node(id).API == nil {
			continue
		}
		a := g.Node(id).API
		if a.Source != "" {
			asked[a.Source] = true
		}
		if a.Provider != "" {
			asked[askedProvider(a.Provider)] = true
		}
	}
	return asked
}

// searchLinks are the links both searches bind input p of consumer by: p's producers
// (producerLinks, leaving out leftOut, the consumer or the search's target, and reading roles
// with said), kept to those local to consumer, to the issuer of an identifier and to the
// listers of the collection the input picks an item of (local, issued, listed), in that order.
func searchLinks(g *Graph, p, consumer, leftOut NodeID, exclude map[NodeID]bool, said func(string) bool, asked map[string]bool) []link {
	ls := local(g, producerLinks(g, p, leftOut, exclude, said), consumer, p, asked)
	return listed(g, issued(g, ls, consumer, p), consumer, p, exclude)
}

// producerLinks returns, for each usable producer of parameter p, its strongest link, by
// API ID; consumer and excluded APIs are left out.
func producerLinks(g *Graph, p, consumer NodeID, exclude map[NodeID]bool, said func(string) bool) []link {
	var ls []link
	at := map[NodeID]int{} // API → its link in ls: one link per API, the strongest
	add := func(api, output NodeID, w float64) {
		if api == consumer || !usableAPI(g, api, exclude) || said != nil && !roleSaid(g, api, output, consumer, p, said) {
			return
		}
		if i, ok := at[api]; ok {
			if w > ls[i].weight {
				ls[i] = link{api, output, w}
			}
			return
		}
		at[api] = len(ls)
		ls = append(ls, link{api, output, w})
	}
	for _, e := range g.In(p) {
		switch e.Kind {
		case Outputs:
			w := e.Strength()
			if !sameConcept(g, e.From, consumer, p) {
				w *= SimilarWeight
			}
			add(e.From, p, w)
		case Feeds:
			for _, o := range g.In(e.From) {
				if o.Kind == Outputs {
					add(o.From, e.From, o.Strength()*e.Strength())
				}
			}
		}
	}
	sort.Slice(ls, func(i, j int) bool { return ls[i].api < ls[j].api })
	return ls
}

// roleSaid reports whether the output of api (parameter node output) may bind the input p of
// consumer as far as roles go: unless the output's concept adds a role to the input's (see
// addedRole), the request must say one of the role's words (SearchRequest.Said).
func roleSaid(g *Graph, api, output, consumer, p NodeID, said func(string) bool) bool {
	role := addedRole(g, api, output, consumer, p)
	return len(role) == 0 || slices.ContainsFunc(role, said)
}

// saysRole reports whether the output of api (parameter node output) adds to the concept of
// consumer's input p a role the request says (said; false where said is nil): leader_team_id
// for team_id, where the request speaks of the team leading a league.
func saysRole(g *Graph, api, output, consumer, p NodeID, said func(string) bool) bool {
	return said != nil && slices.ContainsFunc(addedRole(g, api, output, consumer, p), said)
}

// addedRole returns the words the output of api (parameter node output) adds to the concept of
// consumer's input p, where the output's concept holds every word of the input's, which names
// its resource (two words or more: team id, not id), and adds words of its own (leader team
// id); nil otherwise, and where either concept is not known.
func addedRole(g *Graph, api, output, consumer, p NodeID) []string {
	in, ok1 := g.concepts[[3]NodeID{consumer, p, 1}]
	out, ok2 := g.concepts[[3]NodeID{api, output, 0}]
	if !ok1 || !ok2 {
		return nil
	}
	inWords, outWords := strings.Fields(in), strings.Fields(out)
	if len(inWords) < 2 || len(outWords) <= len(inWords) {
		return nil
	}
	var role []string
	for _, w := range outWords {
		if !slices.Contains(inWords, w) {
			role = append(role, w)
		}
	}
	if len(outWords)-len(role) != len(inWords) {
		return nil // not the input's concept with words added: another concept the links joined
	}
	return role
}

// SimilarWeight scales the link of a producer whose output joined the consumer's input's
// parameter node by similarity (city_name into city), not by the same concept: where both
// kinds of producer bind an input, the one that outputs the very concept wins.
const SimilarWeight = 0.9

// sameConcept reports whether the output of api that is parameter node p has the concept of
// consumer's input that is p (true when either is not known: nothing to tell apart).
func sameConcept(g *Graph, api, consumer, p NodeID) bool {
	in, ok1 := g.concepts[[3]NodeID{consumer, p, 1}]
	out, ok2 := g.concepts[[3]NodeID{api, p, 0}]
	return !ok1 || !ok2 || in == out
}

// thenWeight is the strength of the THEN edge from one API to another, and whether it exists.
func thenWeight(g *Graph, from, to NodeID) (float64, bool) {
	if e, ok := g.Edge(Then, from, to); ok {
		return e.Strength(), true
	}
	return 0, false
}

// assemble builds a Subgraph from the supplies of each API, walking from the target through
// upstream bindings so that APIs no binding reaches are left out.
func assemble(g *Graph, target NodeID, supplies map[NodeID][]Supply) *Subgraph {
	sg := &Subgraph{Target: target}
	seen := map[NodeID]bool{target: true}
	params := map[NodeID]bool{}
	edges := map[*Edge]bool{}
	addEdge := func(e *Edge, ok bool) {
		if ok && !edges[e] {
			edges[e] = true
			sg.Edges = append(sg.Edges, e)
		}
	}
	queue := []NodeID{target}
	for len(queue) > 0 {
		api := queue[0]
		queue = queue[1:]
		sg.APIs = append(sg.APIs, api)
		for _, s := range supplies[api] {
			sg.Inputs = append(sg.Inputs, s)
			if s.Source == SupplyUnbound {
				continue
			}
			params[s.Param] = true
			addEdge(g.Edge(InputOf, s.Param, api))
			if s.Source != SupplyUpstream {
				continue
			}
			params[s.Output] = true
			addEdge(g.Edge(Outputs, s.Producer, s.Output))
			if s.Output != s.Param {
				addEdge(g.Edge(Feeds, s.Output, s.Param))
			}
			addEdge(g.Edge(Then, s.Producer, api))
			if !seen[s.Producer] {
				seen[s.Producer] = true
				queue = append(queue, s.Producer)
			}
		}
	}
	for p := range params {
		sg.Params = append(sg.Params, p)
	}
	sort.Slice(sg.Params, func(i, j int) bool { return sg.Params[i] < sg.Params[j] })
	return sg
}

// APINames names the subgraph's APIs, in APIs order.
func (s *Subgraph) APINames(g *Graph) []string {
	out := make([]string, len(s.APIs))
	for i, id := range s.APIs {
		out[i] = g.Node(id).Name
	}
	return out
}

// JoinBranches searches each API of names (the best tools of a compound request's other
// parts) as req searches its target, with searcher, and joins the subgraphs to s as Join
// allows; an API g lacks or req excludes is not searched. It returns the names joined.
//
// allows says whether the branch of name may give value to a call, one s makes too when shared
// (nil: any); see Subgraph.Join. own, when set, narrows the request of the branch of name to
// its own part of the request: the values that part states (Known) and the words it says
// (Said), so that a role another part says ("who leads the Eredivisie") is no role of this
// one's ("when do Ajax play next").
func JoinBranches(ctx context.Context, g *Graph, searcher Searcher, s *Subgraph, req SearchRequest, names []string, allows func(name, value string, shared bool) bool, own func(name string, b *SearchRequest)) ([]string, error) {
	var searched []string
	var reqs []SearchRequest
	for _, name := range names {
		if id, ok := g.APIByName(name); ok && !req.Exclude[id] {
			b := req
			b.Target = id
			if own != nil {
				own(name, &b)
			}
			searched, reqs = append(searched, name), append(reqs, b)
		}
	}
	branches, err := SearchTargets(ctx, g, searcher, reqs)
	if err != nil {
		return nil, fmt.Errorf("search the request's other parts: %w", err)
	}
	var byIndex func(int, string, bool) bool
	if allows != nil {
		byIndex = func(i int, value string, shared bool) bool { return allows(searched[i], value, shared) }
	}
	var joined []string
	for _, i := range s.Join(byIndex, branches...) {
		joined = append(joined, searched[i])
	}
	return joined, nil
}

// bindsAlike reports whether the supplies of branch bind each API of shared as those of s do
// (a shared API is then one call), every value given to a call of branch allowed by allows
// (nil: any), told whether the call is shared. An optional input that one side leaves unbound
// and the other gives a value binds alike: the shared call takes the value (see Join), as
// "a stay at the best hotel in Dubai, checking in on 2025-06-23" and "the best hotel in
// Dubai" name one hotel search.
func bindsAlike(s, branch []Supply, shared map[NodeID]bool, allows func(value string, shared bool) bool) bool {
	for _, in := range branch {
		if in.Source == SupplyGiven && allows != nil && !allows(in.Value, shared[in.API]) {
			return false
		}
	}
	key := func(in Supply) Supply { in.Score = 0; return in } // how well a link scored is no binding
	mine := map[[2]NodeID]Supply{}
	for _, in := range s {
		if shared[in.API] {
			mine[[2]NodeID{in.API, in.Param}] = key(in)
		}
	}
	theirs, calls := map[[2]NodeID]Supply{}, map[NodeID]bool{}
	for _, in := range branch {
		if shared[in.API] {
			theirs[[2]NodeID{in.API, in.Param}] = key(in)
			calls[in.API] = true
		}
	}
	for k, t := range theirs {
		m, ok := mine[k]
		if !ok {
			if !t.Required && t.Source == SupplyUnbound {
				continue
			}
			return false
		}
		if m != t && !optionalFill(m, t) && !optionalFill(t, m) {
			return false
		}
	}
	for k, m := range mine {
		if _, ok := theirs[k]; !ok && calls[k[0]] && (m.Required || m.Source != SupplyUnbound) {
			return false
		}
	}
	return true
}

// optionalFill reports whether b gives a value to the optional input a leaves unbound.
func optionalFill(a, b Supply) bool {
	return !a.Required && a.Source == SupplyUnbound && b.Source == SupplyGiven
}

// Join adds to s the branches that bind every required input: the subgraphs of other parts
// of the same request (a compound request's other intents), so that one plan runs them all.
// An API a branch shares with s, or with a branch joined before it, is one call when both
// bind its inputs alike (the same values, the same producers' outputs): "the reviews of
// Titanic and the movies similar to it" search the title once. allows(i, v, shared) says
// whether branch i may give value v to a call of its own or, shared, to one s makes too (nil
// allows any): the searches of the weather in Paris and of the air quality in Rome are given
// both cities, and allows tells which part states which. A branch that would give a value
// allows refuses, or bind a shared API otherwise, is left out, since one call cannot serve
// both parts; so is a branch that would ask the user for a value. The branches'
// new APIs come after s's, in order, with their parameter nodes, edges and supplies; s's
// target and score stay, since the target is the step that answers. Join returns the indexes
// of the branches it joined.
func (s *Subgraph) Join(allows func(branch int, value string, shared bool) bool, branches ...*Subgraph) []int {
	apis := make(map[NodeID]bool, len(s.APIs))
	for _, a := range s.APIs {
		apis[a] = true
	}
	params := make(map[NodeID]bool, len(s.Params))
	for _, p := range s.Params {
		params[p] = true
	}
	edges := make(map[*Edge]bool, len(s.Edges))
	for _, e := range s.Edges {
		edges[e] = true
	}
	var joined []int
	for i, b := range branches {
		var allow func(string, bool) bool
		if allows != nil {
			allow = func(v string, shared bool) bool { return allows(i, v, shared) }
		}
		if b == nil || !b.Feasible() || !bindsAlike(s.Inputs, b.Inputs, apis, allow) {
			continue
		}
		joined = append(joined, i)
		s.APIs = appendNew(s.APIs, apis, b.APIs)
		for _, in := range b.Inputs {
			// A shared call takes the value the branch gives an optional input it left unbound.
			if j := slices.IndexFunc(s.Inputs, func(m Supply) bool { return m.API == in.API && m.Param == in.Param }); j >= 0 {
				if optionalFill(s.Inputs[j], in) {
					s.Inputs[j] = in
				}
				continue
			}
			s.Inputs = append(s.Inputs, in)
		}
		s.Params = appendNew(s.Params, params, b.Params)
		s.Edges = appendNew(s.Edges, edges, b.Edges)
	}
	return joined
}

// appendNew appends to list the items seen does not hold, in order, and marks them seen.
func appendNew[T comparable](list []T, seen map[T]bool, items []T) []T {
	for _, x := range items {
		if !seen[x] {
			seen[x] = true
			list = append(list, x)
		}
	}
	return list
}
