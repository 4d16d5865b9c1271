package twnm

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
)

// Heuristic is the hybrid heuristic search of NaviAgent Appendix B.2: simulated annealing
// over a genetic population of candidate subgraphs.
//
// Candidates. Every required, unknown parameter reachable backwards from the target within
// MaxDepth is a gene whose value picks one of its producers (sorted by link strength, then
// spelling (see spelt), then relevance to the request, then name) or none. A genome decodes
// breadth first from the target: an input is bound by an API already in the candidate that
// outputs it when one does (so one Geocoding serves latitude and longitude), else by the
// gene's producer, which joins the candidate unless that would close a cycle, exceed MaxDepth
// or exceed MaxAPIs; otherwise the input is missing.
//
// Fitness (Eq. 23). For a candidate with API nodes A, parameter nodes P, N = |A|+|P| nodes
// and edges E (as in Subgraph.Edges):
//
//	F = Compactness·C + Density·|P|/N − DepthPenalty·d̄/N + Weight·W − Complexity·|E|/N
//
// where C is the mean closeness centrality of the API nodes in the candidate's undirected
// graph ((r−1)/Σ dist over the r nodes each reaches), d̄ is the mean depth of the API nodes
// (the target 0), and W is the cumulative link weight per binding: the sum over upstream
// bindings of w(v,u) (OUTPUTS strength, times FEEDS for an alias) plus the strength of the
// THEN edge v→consumer where one exists, divided by the number of bindings (1 when there
// are none), so that size alone is not rewarded. Feasible candidates (no missing required
// input) always beat infeasible ones; then fewer missing inputs, more distinct stated values
// used (a stated value is there to be used, as in AlphaBeta's grounding), fewer APIs (Eq. 23
// alone preferred a detour through a hotel's coordinates to the city's own), higher F, and
// the bindings' names in order break ties, so results are deterministic for a Seed.
//
// Search. The population starts with the greedy genome (every gene its strongest producer)
// and random ones. Each generation g runs at temperature T = T0·Cooling^g: every individual
// gets a mutant whose genes each change with probability Mutation·T/T0 (at least one gene),
// accepted if better or with probability e^(ΔE/T) (energy E = F − 10·missing); then
// Population/2 children of tournament-selected parents by uniform crossover replace the
// worst individuals they beat. The best candidate ever seen is returned.
type Heuristic struct {
	T0          float64 // initial temperature; default 1
	Cooling     float64 // geometric cooling rate in (0, 1]; default 0.93
	Population  int     // population size; default 24
	Generations int     // generations; default 40
	MaxDepth    int     // deepest producer, the target's producers being depth 1; default 4
	MaxAPIs     int     // most APIs in a candidate, the target included; default 8
	Mutation    float64 // per-gene mutation probability at T0; default 0.3
	Seed        uint64  // seeds the PCG source
	// MaxProducers is how many producers a gene keeps, strongest first (0: all); default 32.
	// The genes are found breadth first through every producer kept, so on a large catalog
	// whose concepts many APIs output, keeping all of them walks most of the graph.
	MaxProducers int

	// Weights of the five terms of Eq. 23; default 1 each.
	Compactness, Density, DepthPenalty, Weight, Complexity float64
}

// DefaultHeuristic returns Heuristic with its documented defaults and Seed 1.
func DefaultHeuristic() Heuristic {
	return Heuristic{
		T0: 1, Cooling: 0.93, Population: 24, Generations: 40, MaxDepth: 4, MaxAPIs: 8,
		Mutation: 0.3, Seed: 1, MaxProducers: 32,
		Compactness: 1, Density: 1, DepthPenalty: 1, Weight: 1, Complexity: 1,
	}
}

func (o Heuristic) validate() error {
	switch {
	case !(o.T0 > 0):
		return fmt.Errorf("heuristic: T0 is %v, want > 0", o.T0)
	case !(o.Cooling > 0 && o.Cooling <= 1):
		return fmt.Errorf("heuristic: Cooling is %v, want in (0, 1]", o.Cooling)
	case o.Population < 2 || o.Generations < 0:
		return fmt.Errorf("heuristic: Population %d (want ≥ 2) or Generations %d (want ≥ 0)", o.Population, o.Generations)
	case o.MaxDepth < 1 || o.MaxAPIs < 1:
		return fmt.Errorf("heuristic: MaxDepth %d and MaxAPIs %d must be ≥ 1", o.MaxDepth, o.MaxAPIs)
	case !(o.Mutation >= 0 && o.Mutation <= 1):
		return fmt.Errorf("heuristic: Mutation is %v, want in [0, 1]", o.Mutation)
	}
	return nil
}

// missingPenalty is the energy each missing input costs in the annealing acceptance.
const missingPenalty = 10

// Search runs the heuristic search for req.Target.
func (o Heuristic) Search(ctx context.Context, g *Graph, req SearchRequest) (*Subgraph, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	if err := checkTarget(g, req); err != nil {
		return nil, fmt.Errorf("heuristic search: %w", err)
	}
	h := &heur{g: g, o: o, target: req.Target, known: resolveParams(g, req.Known), exclude: req.Exclude, said: req.Said,
		relevance: req.Relevance, asked: askedSources(g, req.Relevance), named: req.Named, gene: map[NodeID]int{}}
	h.genes()
	rng := rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15))

	pop := make([]*heurCand, o.Population)
	greedy := make([]int, len(h.params))
	for j := range greedy {
		if len(h.cands[j]) == 0 {
			greedy[j] = -1
		}
	}
	pop[0] = h.eval(greedy)
	for i := 1; i < len(pop); i++ {
		gs := make([]int, len(h.params))
		for j := range gs {
			gs[j] = rng.IntN(len(h.cands[j])+1) - 1
		}
		pop[i] = h.eval(gs)
	}
	best := pop[0]
	for _, c := range pop {
		if c.better(best) {
			best = c
		}
	}
	for gen := 0; gen < o.Generations && len(h.params) > 0; gen++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("heuristic search for %s: %w", g.Node(req.Target).Name, err)
		}
		h.stats.Generations++
		temp := o.T0 * math.Pow(o.Cooling, float64(gen))
		rate := o.Mutation * temp / o.T0
		for i, c := range pop {
			m := h.eval(h.mutate(rng, c.genes, rate))
			if m.better(c) || rng.Float64() < math.Exp((m.energy()-c.energy())/temp) {
				pop[i] = m
			}
			if m.better(best) {
				best = m
			}
		}
		sortCands(pop)
		for range o.Population / 2 {
			a, b := tournament(rng, pop), tournament(rng, pop)
			child := make([]int, len(h.params))
			for j := range child {
				if rng.IntN(2) == 0 {
					child[j] = a.genes[j]
				} else {
					child[j] = b.genes[j]
				}
			}
			c := h.eval(child)
			if c.better(pop[len(pop)-1]) {
				pop[len(pop)-1] = c
				sortCands(pop)
			}
			if c.better(best) {
				best = c
			}
		}
	}
	sg := assemble(g, req.Target, best.supplies)
	sg.Score = best.fitness
	sg.Stats = h.stats
	return sg, nil
}

func sortCands(pop []*heurCand) {
	sort.SliceStable(pop, func(i, j int) bool { return pop[i].better(pop[j]) })
}

// tournament returns the better of two random individuals.
func tournament(rng *rand.Rand, pop []*heurCand) *heurCand {
	a, b := pop[rng.IntN(len(pop))], pop[rng.IntN(len(pop))]
	if b.better(a) {
		return b
	}
	return a
}

type heur struct {
	g       *Graph
	o       Heuristic
	target  NodeID
	known   knownValues
	exclude map[NodeID]bool
	said    func(string) bool
	// relevance is SearchRequest.Relevance: producers are tried and candidates ranked by it.
	relevance map[string]float64
	asked     map[string]bool // askedSources of relevance
	// named is SearchRequest.Named: a candidate binding through more of them is better.
	named  map[string]bool
	params []NodeID       // the genes' parameters
	cands  [][]link       // each gene's producers
	gene   map[NodeID]int // parameter -> gene index
	stats  SearchStats
}

// genes finds the required unknown parameters reachable from the target within MaxDepth
// and their usable producers, breadth first so that gene order is deterministic.
func (h *heur) genes() {
	type item struct {
		api   NodeID
		depth int
	}
	seen := map[NodeID]bool{h.target: true}
	queue := []item{{h.target, 0}}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if it.depth >= h.o.MaxDepth {
			continue
		}
		for _, e := range h.g.Inputs(it.api) {
			if _, ok := h.known.get(it.api, e.From); !e.Required || ok {
				continue
			}
			if _, ok := h.gene[e.From]; ok {
				continue
			}
			// The roles are read at the API that takes the input, whose concept says which
			// outputs add one to it (see roleSaid), not at the target.
			ls := searchLinks(h.g, e.From, it.api, h.target, h.exclude, h.said, h.asked)
			if h.said != nil {
				ls = slices.DeleteFunc(ls, func(l link) bool { return !roleSaid(h.g, l.api, l.output, it.api, e.From, h.said) })
			}
			sameName := map[NodeID]bool{} // by producer: producerLinks gives one link per API
			for _, l := range ls {
				sameName[l.api] = spelt(h.g, l, it.api, e.From)
			}
			sort.SliceStable(ls, func(i, j int) bool {
				if ls[i].weight != ls[j].weight {
					return ls[i].weight > ls[j].weight
				}
				if si, sj := sameName[ls[i].api], sameName[ls[j].api]; si != sj {
					return si
				}
				ri, rj := h.relevance[h.g.Node(ls[i].api).Name], h.relevance[h.g.Node(ls[j].api).Name]
				if ri != rj {
					return ri > rj
				}
				return h.g.Node(ls[i].api).Name < h.g.Node(ls[j].api).Name
			})
			if h.o.MaxProducers > 0 && len(ls) > h.o.MaxProducers {
				ls = ls[:h.o.MaxProducers]
			}
			h.gene[e.From] = len(h.params)
			h.params = append(h.params, e.From)
			h.cands = append(h.cands, ls)
			for _, l := range ls {
				if !seen[l.api] {
					seen[l.api] = true
					queue = append(queue, item{l.api, it.depth + 1})
				}
			}
		}
	}
}

func (h *heur) mutate(rng *rand.Rand, genes []int, rate float64) []int {
	out := append([]int(nil), genes...)
	changed := false
	for j := range out {
		if rng.Float64() < rate {
			out[j] = rng.IntN(len(h.cands[j])+1) - 1
			changed = true
		}
	}
	if !changed && len(out) > 0 {
		j := rng.IntN(len(out))
		out[j] = rng.IntN(len(h.cands[j])+1) - 1
	}
	return out
}

type heurCand struct {
	genes    []int
	supplies map[NodeID][]Supply
	missing  int
	opaque   int // missing inputs the user cannot be asked for (see opaque)
	fitness  float64
	apis     int
	key      string
	used     int // distinct stated values the subgraph binds
	named    int // APIs the request names that bind an input they do not need themselves
	spelt    int // inputs bound by an output of their very name (see spelt)
	roles    int // inputs bound by an output that adds a role the request says (see saysRole)
}

func (c *heurCand) energy() float64 { return c.fitness - missingPenalty*float64(c.missing) }

// better orders candidates: feasible first, fewer missing inputs the user cannot be asked for
// (an id: a chain that asks for the club's name beats one that asks for its next match's id,
// as AlphaBeta asks), fewer missing, more of the stated values used (a stated value is there
// to be used; see AlphaBeta's grounding), more of the APIs the request names
// (SearchRequest.Named), fewer APIs (a detour through a hotel's coordinates is not a city's,
// unless the request names the hotel), more outputs that name a role the request says ("the
// team leading the Bundesliga" is the league leader's; see saysRole), higher fitness (what
// the graph learned weighs there), more inputs bound by an output of their very name (a
// producer of the consumer's family), key.
func (c *heurCand) better(d *heurCand) bool {
	switch {
	case c.opaque != d.opaque:
		return c.opaque < d.opaque
	case c.missing != d.missing:
		return c.missing < d.missing
	case c.used != d.used:
		return c.used > d.used
	case c.named != d.named:
		return c.named > d.named
	case c.apis != d.apis:
		return c.apis < d.apis
	case c.roles != d.roles:
		return c.roles > d.roles
	case c.fitness != d.fitness:
		return c.fitness > d.fitness
	case c.spelt != d.spelt:
		return c.spelt > d.spelt
	}
	return c.key < d.key
}

// eval decodes a genome and scores it.
func (h *heur) eval(genes []int) *heurCand {
	h.stats.Expanded++
	c := &heurCand{genes: genes, supplies: map[NodeID][]Supply{}}
	depth := map[NodeID]int{h.target: 0}
	deps := map[NodeID][]NodeID{} // API -> the producers binding its inputs
	order := []NodeID{h.target}
	var keys []string
	used := map[string]bool{}
	named := map[NodeID]bool{}
	for i := 0; i < len(order); i++ {
		api := order[i]
		for _, e := range h.g.Inputs(api) {
			in := Supply{API: api, Param: e.From, Required: e.Required}
			if v, ok := h.known.get(api, e.From); ok {
				in.Source, in.Value = SupplyGiven, v
				used[v] = true
			} else if !e.Required {
				in.Source = SupplyUnbound
			} else if l, ok := h.bind(genes, e.From, api, depth, deps, order); ok {
				in.Source, in.Producer, in.Output, in.Score = SupplyUpstream, l.api, l.output, l.weight
				if spelt(h.g, l, api, e.From) {
					c.spelt++
				}
				if h.named[h.g.Node(l.api).Name] && !givesBack(h.g, l, e.From) {
					named[l.api] = true
				}
				if saysRole(h.g, l.api, l.output, api, e.From, h.said) {
					c.roles++
				}
				deps[api] = append(deps[api], l.api)
				if _, seen := depth[l.api]; !seen {
					depth[l.api] = depth[api] + 1
					order = append(order, l.api)
				}
				keys = append(keys, h.g.Node(api).Name+"."+h.g.Node(e.From).Name+"<"+h.g.Node(l.api).Name)
			} else {
				in.Source = SupplyMissing
				c.missing++
				if opaque(h.g.Node(e.From).Name) {
					c.opaque++
				}
			}
			c.supplies[api] = append(c.supplies[api], in)
		}
	}
	c.apis, c.used, c.named = len(order), len(used), len(named)
	c.key = strings.Join(keys, ";")
	c.fitness = h.fitness(assemble(h.g, h.target, c.supplies), depth)
	return c
}

// bind picks the producer for parameter p of api: an API of the candidate that outputs it,
// else the gene's choice.
func (h *heur) bind(genes []int, p, api NodeID, depth map[NodeID]int, deps map[NodeID][]NodeID, order []NodeID) (link, bool) {
	j, ok := h.gene[p]
	if !ok {
		return link{}, false
	}
	ls := h.cands[j]
	for _, l := range ls {
		if _, seen := depth[l.api]; seen && l.api != api && !dependsOn(deps, l.api, api) {
			return l, true
		}
	}
	if genes[j] < 0 || genes[j] >= len(ls) {
		return link{}, false
	}
	l := ls[genes[j]]
	if _, seen := depth[l.api]; seen || depth[api]+1 > h.o.MaxDepth || len(order) >= h.o.MaxAPIs {
		// Already in the candidate means the loop above found it cyclic.
		return link{}, false
	}
	return l, true
}

// dependsOn reports whether from needs, directly or transitively, an output of to.
func dependsOn(deps map[NodeID][]NodeID, from, to NodeID) bool {
	if from == to {
		return true
	}
	seen := map[NodeID]bool{}
	stack := []NodeID{from}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range deps[n] {
			if d == to {
				return true
			}
			if !seen[d] {
				seen[d] = true
				stack = append(stack, d)
			}
		}
	}
	return false
}

// fitness is Eq. 23 for an assembled candidate.
func (h *heur) fitness(sg *Subgraph, depth map[NodeID]int) float64 {
	t := FitnessTerms(h.g, sg, depth)
	o := h.o
	return o.Compactness*t.Compactness + o.Density*t.Density - o.DepthPenalty*t.DepthPenalty +
		o.Weight*t.Weight - o.Complexity*t.Complexity
}

// Fitness holds the five terms of Eq. 23 for one subgraph, unweighted.
type Fitness struct {
	Compactness  float64 // mean closeness centrality of the API nodes
	Density      float64 // |P| / N
	DepthPenalty float64 // mean API depth / N
	Weight       float64 // cumulative link weight per binding
	Complexity   float64 // |E| / N
}

// FitnessTerms computes the terms of Eq. 23 for sg (see Heuristic). depth gives each API's
// depth; nil derives it from the bindings (shortest distance from the target).
func FitnessTerms(g *Graph, sg *Subgraph, depth map[NodeID]int) Fitness {
	if depth == nil {
		depth = map[NodeID]int{sg.Target: 0}
		for _, api := range sg.APIs { // APIs are breadth first from the target
			for _, in := range sg.inputsOf(api) {
				if _, ok := depth[in.Producer]; in.Source == SupplyUpstream && !ok {
					depth[in.Producer] = depth[api] + 1
				}
			}
		}
	}
	n := float64(len(sg.APIs) + len(sg.Params))
	var f Fitness
	if n == 0 {
		return f
	}
	// Nodes get dense local indices so that the breadth-first searches use slices.
	local := make(map[NodeID]int, int(n))
	for _, id := range sg.APIs {
		local[id] = len(local)
	}
	for _, id := range sg.Params {
		local[id] = len(local)
	}
	adj := make([][]int, len(local))
	for _, e := range sg.Edges {
		a, aok := local[e.From]
		b, bok := local[e.To]
		if aok && bok {
			adj[a] = append(adj[a], b)
			adj[b] = append(adj[b], a)
		}
	}
	dist := make([]int, len(local))
	queue := make([]int, 0, len(local))
	sumDepth := 0.0
	for i, a := range sg.APIs {
		f.Compactness += closeness(adj, i, dist, queue)
		sumDepth += float64(depth[a])
	}
	f.Compactness /= float64(len(sg.APIs))
	f.Density = float64(len(sg.Params)) / n
	f.DepthPenalty = sumDepth / float64(len(sg.APIs)) / n
	f.Complexity = float64(len(sg.Edges)) / n
	links, total := 0, 0.0
	for _, in := range sg.Inputs {
		if in.Source != SupplyUpstream {
			continue
		}
		links++
		rel := linkReliability(g, in.Producer, in.API) // as in Alpha-Beta's link score
		if e, ok := g.Edge(Outputs, in.Producer, in.Output); ok {
			w := e.Strength()
			if in.Output != in.Param {
				if fe, ok := g.Edge(Feeds, in.Output, in.Param); ok {
					w *= fe.Strength()
				}
			}
			total += w * rel
		}
		if w, ok := thenWeight(g, in.Producer, in.API); ok {
			total += w * rel
		}
	}
	f.Weight = 1
	if links > 0 {
		f.Weight = total / float64(links)
	}
	return f
}

// closeness is (r−1)/Σ dist for the r nodes reachable from v (1 for an isolated node, which
// is trivially compact). dist and queue are scratch space of the graph's size.
func closeness(adj [][]int, v int, dist, queue []int) float64 {
	for i := range dist {
		dist[i] = -1
	}
	dist[v] = 0
	queue = append(queue[:0], v)
	sum, reached := 0, 0
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, m := range adj[n] {
			if dist[m] < 0 {
				dist[m] = dist[n] + 1
				sum += dist[m]
				reached++
				queue = append(queue, m)
			}
		}
	}
	if sum == 0 {
		return 1
	}
	return float64(reached) / float64(sum)
}
