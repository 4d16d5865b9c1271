package twnm

import (
	"context"
	"fmt"
	"math"
	"sort"
)

// AlphaBeta is the Alpha-Beta pruning search of NaviAgent Appendix B.2: a backward
// depth-first search from the target API over required input parameter ← producer API ← its
// required inputs, and so on.
//
// Link score (Eq. 22). A producer API v found at depth d (the target is at depth 0, the
// producers of its inputs at depth 1) that binds parameter u, an input of API c, scores
//
//	S_d(v) = EdgeWeight·γ^(d−1)·w(v,u) + TargetAPIWeight·1_A(v)·w(v,c) + TargetParamWeight·1_P(v)·w(v,t_p)
//
// where w(v,u) is the strength of the OUTPUTS edge v→u (times SimilarWeight when v's output
// joined u's node by similarity rather than being u's very concept, and times the FEEDS edge's
// strength when v's output q reaches u through FEEDS q→u), the direct weight to the predecessor in the
// backward search; c is the target API of this expansion step (the search target at depth
// 1, the consuming API deeper down), and 1_A(v) is 1 when a THEN edge v→c exists, with
// w(v,c) its strength; t_p ranges over the request's Wanted parameters, and 1_P(v)·w(v,t_p)
// is the strongest OUTPUTS edge from v to one of them (0 when v outputs none). Strengths are
// Edge.Strength: predicted weights where present. The sum is then scaled by the link's
// reliability (linkReliability: v's calls answered, and its answers passed on to c made good
// answers; 1 for a link never used): a provider that keeps failing, or whose data users
// reject, loses to an untried one that the structure ranks a little lower, so that search
// tries it. With the weights summing to 1, S is in [0, 1].
//
// Values. A parameter's value is 1 when Known, else the best over its producers of
// S_d(v)·A(v), where A(v) is the product of the values of v's required inputs; 0 when no
// producer binds it (missing). The subgraph's Score is the target's A: the product of the
// link scores of its bindings, 1 when all inputs are given, 0 when one is missing. An API
// already chosen elsewhere in the subgraph can bind a parameter at the cost of its link
// score alone, so shared producers (Geocoding for latitude and longitude) are reused.
//
// Pruning. The path score P of a branch is the product of the link scores from the target
// down to it. At a parameter node at depth d, producers v with P·S_d(v) < α_d are cut, where
// α_d = Alpha0·e^(−Decay·d) (alpha pruning); since every value is at most 1, no cut branch
// could have reached α_d. Producers are tried best first: by score, then an API already
// chosen, then the one that takes more of the values the request states (a stated value is
// there to be used: a search by the title the user gave beats a list of the latest), then
// one that gives the input by an output of its very name (see spelt), then the more relevant
// to the request (SearchRequest.Relevance), then fewer unbound required inputs, then name;
// once one sibling's value reaches Beta the remaining siblings are cut (beta pruning), and a
// sibling whose S cannot exceed the best value so far is cut as well (the bound). The connectivity constraint keeps the subgraph a
// tree of bindings rooted at the target, at most MaxDepth deep and with at most MaxAPIs APIs
// (the target included). APIs on the current path are not expanded again, so cycles end.
//
// Grounding. A stated value is there to be used, also deeper down: the person whose birthday
// the user asks for is the lead of the film the user named, found through the film's credits,
// not the first of a list of popular people, though that branch is one link shorter and so
// scores higher. A branch is grounded when it binds a stated value (an API it reuses, when
// that API's branch did). Among siblings a grounded branch beats one that is not, then one
// through an API the request names (SearchRequest.Named; a producer that needs the very input
// it gives does not count), then, between grounded branches, the one of fewer calls, then the
// higher value wins; while the best branch is not grounded and some stated value is bound
// nowhere in the partial subgraph yet, or is not named while a named sibling is left, or is
// grounded through more calls than a sibling left could take, beta pruning and the bound
// wait (alpha pruning and MaxExpansions still hold). A value stated for an API's own inputs
// counts as used before its producers are chosen.
type AlphaBeta struct {
	Alpha0   float64 // α0, lower bound on path scores at depth 0; default 0.1
	Decay    float64 // κ in α_d = α0·e^(−κd); default 0.5
	Beta     float64 // β, the value at which siblings stop being tried; default 0.5
	Gamma    float64 // γ, depth attenuation of w(v,u); default 0.8
	MaxDepth int     // deepest producer, the target's producers being depth 1; default 4
	MaxAPIs  int     // most APIs in a subgraph, the target included; default 8
	// MaxExpansions bounds the parameter nodes one search expands; default 20,000. Where
	// every producer is equally strong (a catalog with no history) nothing prunes, and the
	// search tree grows with the branching factor to the power MaxDepth. Past the budget the
	// search keeps what it found (producers are tried best first) and reports the inputs it
	// did not reach as missing, with SearchStats.Exhausted set.
	MaxExpansions int

	// Weights of the three terms of Eq. 22; defaults 0.6, 0.3, 0.1.
	EdgeWeight, TargetAPIWeight, TargetParamWeight float64
}

// DefaultAlphaBeta returns AlphaBeta with its documented defaults.
func DefaultAlphaBeta() AlphaBeta {
	return AlphaBeta{
		Alpha0: 0.1, Decay: 0.5, Beta: 0.5, Gamma: 0.8, MaxDepth: 4, MaxAPIs: 8, MaxExpansions: 20000,
		EdgeWeight: 0.6, TargetAPIWeight: 0.3, TargetParamWeight: 0.1,
	}
}

func (o AlphaBeta) validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"Alpha0", o.Alpha0}, {"Decay", o.Decay}, {"Beta", o.Beta}, {"Gamma", o.Gamma},
		{"EdgeWeight", o.EdgeWeight}, {"TargetAPIWeight", o.TargetAPIWeight}, {"TargetParamWeight", o.TargetParamWeight}} {
		if f.v < 0 || math.IsNaN(f.v) {
			return fmt.Errorf("alpha-beta: %s is %v, want a number ≥ 0", f.name, f.v)
		}
	}
	if o.MaxDepth < 1 || o.MaxAPIs < 1 {
		return fmt.Errorf("alpha-beta: MaxDepth %d and MaxAPIs %d must be ≥ 1", o.MaxDepth, o.MaxAPIs)
	}
	return nil
}

// LinkScore is Eq. 22 for producer v at depth d binding parameter u of API consumer through
// its output, with wanted the Wanted parameter nodes. It returns 0 when v does not output
// output or output neither is nor FEEDS u.
func (o AlphaBeta) LinkScore(g *Graph, v, output, u, consumer NodeID, d int, wanted []NodeID) float64 {
	w, ok := linkStrength(g, v, output, u, consumer, (*Edge).Strength)
	if !ok {
		return 0
	}
	return o.linkScore(g, link{v, output, w}, consumer, d, wanted)
}

func (o AlphaBeta) linkScore(g *Graph, l link, consumer NodeID, d int, wanted []NodeID) float64 {
	s := o.EdgeWeight * math.Pow(o.Gamma, float64(d-1)) * l.weight
	if w, ok := thenWeight(g, l.api, consumer); ok {
		s += o.TargetAPIWeight * w
	}
	best := 0.0
	for _, t := range wanted {
		if e, ok := g.Edge(Outputs, l.api, t); ok {
			best = max(best, e.Strength())
		}
	}
	return (s + o.TargetParamWeight*best) * linkReliability(g, l.api, consumer)
}

// linkReliability is how far a link of producer into consumer is to be trusted: the
// producer's reliability (its calls answered) times that of its THEN edge into consumer (its
// answers, passed on to consumer, made a good answer; a user's bad verdict revises it).
func linkReliability(g *Graph, producer, consumer NodeID) float64 {
	r := g.Node(producer).Reliability()
	if e, ok := g.Edge(Then, producer, consumer); ok {
		r *= e.Reliability()
	}
	return r
}

// alphaAt is α_d.
func (o AlphaBeta) alphaAt(d int) float64 { return o.Alpha0 * math.Exp(-o.Decay*float64(d)) }

// Search runs the Alpha-Beta search for req.Target.
func (o AlphaBeta) Search(ctx context.Context, g *Graph, req SearchRequest) (*Subgraph, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	if err := checkTarget(g, req); err != nil {
		return nil, fmt.Errorf("alpha-beta search: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("alpha-beta search for %s: %w", g.Node(req.Target).Name, err)
	}
	s := &abSearch{
		g: g, o: o, ctx: ctx, target: req.Target, relevance: req.Relevance, named: req.Named,
		asked:    askedSources(g, req.Relevance),
		known:    resolveParams(g, req.Known),
		used:     map[string]int{},
		grounded: map[NodeID]bool{},
		wanted:   resolveNames(g, req.Wanted),
		exclude:  req.Exclude,
		said:     req.Said,
		onPath:   map[NodeID]bool{req.Target: true},
		chosen:   map[NodeID]bool{req.Target: true},
	}
	root, score := s.resolveAPI(req.Target, 0, 1, true, false)
	if s.err != nil {
		return nil, fmt.Errorf("alpha-beta search for %s: %w", g.Node(req.Target).Name, s.err)
	}
	supplies := map[NodeID][]Supply{}
	root.collect(supplies)
	sg := assemble(g, req.Target, supplies)
	sg.Score = score
	sg.Stats = s.stats
	return sg, nil
}

type abSearch struct {
	g         *Graph
	o         AlphaBeta
	ctx       context.Context
	target    NodeID
	relevance map[string]float64
	asked     map[string]bool // askedSources of relevance
	named     map[string]bool
	known     knownValues
	wanted    []NodeID
	exclude   map[NodeID]bool
	said      func(string) bool
	used      map[string]int  // stated values the partial subgraph binds, with how many inputs
	grounded  map[NodeID]bool // chosen APIs whose branch binds a stated value
	onPath    map[NodeID]bool // APIs on the current path: expanding one again would be a cycle
	chosen    map[NodeID]bool // APIs of the partial subgraph
	log       []NodeID        // APIs added to chosen, in order, for undoing a branch
	stats     SearchStats
	err       error
}

// abTree is a resolved API: its supplies and the resolved producers it expanded.
type abTree struct {
	api    NodeID
	inputs []Supply
	kids   []*abTree
}

func (t *abTree) collect(into map[NodeID][]Supply) {
	into[t.api] = t.inputs
	for _, k := range t.kids {
		k.collect(into)
	}
}

// given calls f with each stated value the tree binds, once per input.
func (t *abTree) given(f func(v string)) {
	for _, in := range t.inputs {
		if in.Source == SupplyGiven {
			f(in.Value)
		}
	}
	for _, k := range t.kids {
		k.given(f)
	}
}

// use counts one more input (sign +1) or one less (-1) that binds stated value v.
func (s *abSearch) use(v string, sign int) {
	if s.used[v] += sign; s.used[v] == 0 {
		delete(s.used, v)
	}
}

// count adds the tree's stated values to s.used with sign +1, or takes them out with -1.
func (s *abSearch) count(t *abTree, sign int) {
	t.given(func(v string) { s.use(v, sign) })
}

// unused reports whether a stated value is bound by no input of the partial subgraph.
func (s *abSearch) unused() bool {
	for _, v := range s.known.node {
		if s.used[v] == 0 {
			return true
		}
	}
	for _, v := range s.known.input {
		if s.used[v] == 0 {
			return true
		}
	}
	return false
}

// ground records, for t's API and each API below it, whether its branch binds a stated value.
func (s *abSearch) ground(t *abTree) bool {
	g := false
	for _, in := range t.inputs {
		g = g || in.Source == SupplyGiven && !s.listed(t.api, in.Param)
	}
	for _, k := range t.kids {
		g = s.ground(k) || g
	}
	for _, in := range t.inputs {
		g = g || in.Source == SupplyUpstream && s.grounded[in.Producer]
	}
	s.grounded[t.api] = g
	return g
}

// listed reports whether api's input bound by param takes one of a list of values its schema
// gives (Param.Enum): such a value picks one of the API's own options ("movie" of all, movie,
// tv and person) and identifies nothing the user named, so it grounds no branch; a
// request's "movie" would otherwise make a trending list the producer of every film.
func (s *abSearch) listed(api, param NodeID) bool {
	n := s.g.Node(api)
	if n == nil || n.API == nil {
		return false
	}
	for _, p := range n.API.Inputs {
		if len(p.Enum) > 0 {
			if id, ok := s.g.ParamOf(n.API.Name, p.Name, true); ok && id == param {
				return true
			}
		}
	}
	return false
}

// resolveAPI binds the inputs of api, at depth d with path score p, and returns the product
// of their values. Unless full, it stops at the first missing required input, since the
// caller then discards the branch; but with ask set, a missing input the user can be asked
// for (not opaque) only scales the value by askableValue.
func (s *abSearch) resolveAPI(api NodeID, d int, p float64, full, ask bool) (*abTree, float64) {
	t := &abTree{api: api}
	value := 1.0
	// The values stated for the API's own inputs are used before its producers are chosen.
	inputs := s.g.Inputs(api)
	given := make([]bool, len(inputs))
	values := make([]string, len(inputs))
	for i, e := range inputs {
		if values[i], given[i] = s.known.get(api, e.From); given[i] {
			s.use(values[i], +1)
		}
	}
	for i, e := range inputs {
		in := Supply{API: api, Param: e.From, Required: e.Required}
		if given[i] {
			in.Source, in.Value = SupplyGiven, values[i]
		} else if !e.Required {
			in.Source = SupplyUnbound
		} else if c, val := s.resolveParam(e.From, api, d+1, p); c != nil {
			in.Source, in.Producer, in.Output, in.Score = SupplyUpstream, c.link.api, c.link.output, c.score
			if c.tree != nil {
				t.kids = append(t.kids, c.tree)
			}
			value *= val
		} else if ask && !opaque(s.g.Node(e.From).Name) {
			in.Source = SupplyMissing
			value *= askableValue
		} else {
			in.Source = SupplyMissing
			value = 0
			if !full {
				for j := i + 1; j < len(inputs); j++ { // counted above, but not in the tree
					if given[j] {
						s.use(values[j], -1)
					}
				}
				return t, 0
			}
		}
		t.inputs = append(t.inputs, in)
	}
	return t, value
}

type abCandidate struct {
	link      link
	score     float64 // S_d(v), Eq. 22
	reuse     bool    // already in the partial subgraph
	spelt     bool    // an output of the very name of the consumer's input (see spelt)
	stated    int     // inputs the request states a value for
	relevance float64 // SearchRequest.Relevance
	unbound   int     // required inputs not known
	named     bool    // SearchRequest.Named
	// role: the output adds to the input's concept a role the request says (the leader's
	// team id, for "the team leading the Bundesliga"; see saysRole).
	role bool
}

type abChoice struct {
	abCandidate
	tree  *abTree  // nil when reused
	added []NodeID // APIs the branch added to chosen
	// grounded: the branch binds a value the request states (a reused API, if its own did).
	grounded bool
	// named: the branch goes through an API the request names (SearchRequest.Named).
	named bool
}

// namedBranch reports whether ch, a producer of u, goes through an API the request names. A
// producer that needs u itself and gives it back (the credits of a season, for the show's id;
// see givesBack) does not count: it names what it is about, not where u comes from.
func (s *abSearch) namedBranch(ch *abChoice, u NodeID) bool {
	if ch.abCandidate.named { // the producer itself (candidates checked that it does not need u)
		return true
	}
	for _, id := range ch.added {
		if s.named[s.g.Node(id).Name] {
			return !givesBack(s.g, ch.link, u)
		}
	}
	return false
}

// better reports whether ch, of value val, beats best, of value bestVal: a branch grounded in
// what the user stated beats one that is not; then one through an API the request names;
// then, between grounded branches, the one of fewer calls; then one whose output names a role
// the request says ("the team leading the Bundesliga" is the league leader's team id, not the
// team search's, though both take the name); then the stronger. Learned weights
// rank producers by how often they served, in any request: a detour that binds the stated
// value through APIs this request never asks for ("the elevation at the centre of Rome"
// through the best hotel's coordinates, after many requests about hotels) is a guess,
// however often it served, where one call binds the same value.
func better(ch *abChoice, val float64, best *abChoice, bestVal float64) bool {
	switch {
	case best == nil:
		return true
	case ch.grounded != best.grounded:
		return ch.grounded
	case ch.named != best.named:
		return ch.named
	case ch.grounded && len(ch.added) != len(best.added):
		return len(ch.added) < len(best.added)
	case ch.role != best.role:
		return ch.role
	}
	return val > bestVal
}

// resolveParam chooses the producer of parameter u, an input of consumer, at depth d, with
// path score p so far. It returns nil when nothing binds u.
func (s *abSearch) resolveParam(u, consumer NodeID, d int, p float64) (*abChoice, float64) {
	if s.o.MaxExpansions > 0 && s.stats.Expanded >= s.o.MaxExpansions {
		s.stats.Exhausted = true
		return nil, 0
	}
	s.stats.Expanded++
	if s.err != nil {
		return nil, 0
	}
	if s.stats.Expanded%256 == 0 {
		if err := s.ctx.Err(); err != nil {
			s.err = err
			return nil, 0
		}
	}
	if d > s.o.MaxDepth {
		return nil, 0
	}
	cands := s.candidates(u, consumer, d)
	var named []int // named[i]: the candidates from i on that the request names
	if len(s.named) > 0 {
		named = make([]int, len(cands)+1)
		for i := len(cands) - 1; i >= 0; i-- {
			named[i] = named[i+1]
			if cands[i].named {
				named[i]++
			}
		}
	}
	roles := make([]int, len(cands)+1) // roles[i]: the candidates from i on whose output says a role
	for i := len(cands) - 1; i >= 0; i-- {
		roles[i] = roles[i+1]
		if cands[i].role {
			roles[i]++
		}
	}
	// fewest[i]: the fewest calls a branch of the candidates from i on can add (a reused API
	// none, one whose required inputs are all known one, any other two at least).
	fewest := make([]int, len(cands)+1)
	fewest[len(cands)] = math.MaxInt
	for i := len(cands) - 1; i >= 0; i-- {
		n := 2
		switch {
		case cands[i].reuse:
			n = 0
		case cands[i].unbound == 0:
			n = 1
		}
		fewest[i] = min(fewest[i+1], n)
	}
	alpha := s.o.alphaAt(d)
	unused := s.unused()
	var best *abChoice
	bestVal := 0.0
	for i, c := range cands {
		if s.stats.Exhausted {
			break
		}
		if p*c.score < alpha {
			s.stats.AlphaPruned += len(cands) - i
			break
		}
		// A stated value is there to be used: while the best branch binds none and one is
		// left unused, a weaker branch that binds it may still win, so beta and the bound
		// cut wait.
		// Nor is a grounded branch while a sibling left could bind with fewer calls (see better).
		settled := best != nil && (best.grounded || !unused) && (best.named || named == nil || named[i] == 0) &&
			(!best.grounded || len(best.added) <= fewest[i]) && (best.role || roles[i] == 0)
		if settled && bestVal >= s.o.Beta {
			s.stats.BetaPruned += len(cands) - i
			break
		}
		if c.score <= bestVal && (best == nil || settled) {
			// Values are at most S, and candidates come best S first: none can win.
			break
		}
		var val float64
		ch := &abChoice{abCandidate: c}
		if c.reuse {
			val, ch.grounded = c.score, s.grounded[c.link.api]
		} else {
			if len(s.chosen) >= s.o.MaxAPIs {
				continue
			}
			mark := len(s.log)
			s.choose(c.link.api)
			s.onPath[c.link.api] = true
			// An input the user cannot tell (a token, an id) is better made by a call
			// that still needs something the user can (a password), and asked for that.
			tree, a := s.resolveAPI(c.link.api, d, p*c.score, false, opaque(s.g.Node(u).Name))
			delete(s.onPath, c.link.api)
			ch.tree, val = tree, c.score*a
			ch.added = append([]NodeID(nil), s.log[mark:]...)
			s.undo(mark)
			s.count(tree, -1)
			ch.grounded = s.ground(tree)
		}
		if s.err != nil {
			return nil, 0
		}
		ch.named = s.namedBranch(ch, u)
		if val > 0 && better(ch, val, best, bestVal) {
			best, bestVal = ch, val
		}
	}
	if best == nil {
		return nil, 0
	}
	for _, id := range best.added {
		s.choose(id)
	}
	if best.tree != nil {
		s.count(best.tree, +1)
		s.ground(best.tree)
	}
	return best, bestVal
}

func (s *abSearch) choose(id NodeID) {
	s.chosen[id] = true
	s.log = append(s.log, id)
}

func (s *abSearch) undo(mark int) {
	for _, id := range s.log[mark:] {
		delete(s.chosen, id)
	}
	s.log = s.log[:mark]
}

// candidates returns the producers that may bind u, scored by Eq. 22 and sorted best first.
func (s *abSearch) candidates(u, consumer NodeID, d int) []abCandidate {
	links := searchLinks(s.g, u, consumer, consumer, s.exclude, s.said, s.asked)
	cands := make([]abCandidate, 0, len(links))
	for _, l := range links {
		if s.onPath[l.api] {
			continue
		}
		c := abCandidate{link: l, score: s.o.linkScore(s.g, l, consumer, d, s.wanted), reuse: s.chosen[l.api],
			relevance: s.relevance[s.g.Node(l.api).Name], named: s.named[s.g.Node(l.api).Name] && !givesBack(s.g, l, u),
			spelt: spelt(s.g, l, consumer, u), role: saysRole(s.g, l.api, l.output, consumer, u, s.said)}
		for _, e := range s.g.Inputs(l.api) {
			_, ok := s.known.get(l.api, e.From)
			switch {
			case ok && !s.listed(l.api, e.From):
				c.stated++
			case !ok && e.Required:
				c.unbound++
			}
		}
		cands = append(cands, c)
	}
	sort.Slice(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		switch {
		case a.score != b.score:
			return a.score > b.score
		case a.reuse != b.reuse:
			return a.reuse
		case a.stated != b.stated:
			return a.stated > b.stated
		case a.spelt != b.spelt:
			return a.spelt
		case a.relevance != b.relevance:
			return a.relevance > b.relevance
		case a.unbound != b.unbound:
			return a.unbound < b.unbound
		}
		return s.g.Node(a.link.api).Name < s.g.Node(b.link.api).Name
	})
	return cands
}

// askableValue is the value of a required input of an opaque value's producer that nothing
// binds but the user can be asked for (see opaque): less than a bound input's, more than
// nothing.
const askableValue = 0.1

// opaqueWords end the names of values a person does not know by heart.
var opaqueWords = set("id", "ids", "uuid", "guid", "token", "key", "cursor", "hash", "session", "secret")

// opaque reports whether the user cannot be asked for a value of param: a token or an id,
// which only a call gives, not a password, a city or a date.
func opaque(param string) bool {
	ws := words(param)
	return len(ws) > 0 && opaqueWords[ws[len(ws)-1]]
}

// spelt reports whether l's producer gives u by an output of the very name of consumer's
// input u: "latitude" for a weather API's latitude, where a geocoder of another provider
// gives "lat" into the same parameter node. APIs that spell a value alike usually come from
// one family (one spec, one convention), and of two producers that bind an input alike, the
// one of the consumer's family is the likelier to give what it expects.
func spelt(g *Graph, l link, consumer, u NodeID) bool {
	c, pr := g.Node(consumer), g.Node(l.api)
	if c.API == nil || pr.API == nil {
		return false
	}
	for _, in := range c.API.Inputs {
		if id, ok := g.ParamOf(c.Name, in.Name, true); !ok || id != u {
			continue
		}
		if id, ok := g.ParamOf(pr.Name, in.Name, false); ok && id == l.output {
			return true
		}
	}
	return false
}
