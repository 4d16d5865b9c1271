package twnm

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Recombination strategies (NaviAgent Section 3.3), in order of preference.
const (
	StrategySubstitution    = "substitution"
	StrategyUpstreamReroute = "upstream_reroute"
	StrategySubgraphSwitch  = "subgraph_switch"
)

// ErrNoAlternative is wrapped by Recombine when no strategy yields a plan without the
// failed API.
var ErrNoAlternative = errors.New("no alternative path")

// Recombination is a repaired plan and how it was found.
type Recombination struct {
	Strategy string // one of the Strategy constants
	Plan     Plan
	Reason   string // what replaced what, for the workflow history
}

// Recombine repairs plan after step failedStep failed for good, trying in order:
//
//  1. I/O-equivalent substitution: another usable API, not already in the plan, that outputs
//     every parameter the failed API provides to later steps (all its outputs when it is the
//     target) and whose required inputs are bound by given values or by outputs of the steps
//     before failedStep, which have run. The strongest (sum of its OUTPUTS strengths to the
//     needed outputs and THEN strengths to the consumers), then by name, replaces it.
//  2. Upstream rerouting: for each step that consumed the failed API's outputs, s searches
//     again with that step as target and the failed API excluded; the inputs it took from
//     the failed API are rebound to the new subpath, every other binding of the plan stays.
//  3. Subgraph switching: s searches the plan's target again with the failed API excluded.
//
// Known values are known plus the plan's given bindings. The returned plan never contains
// the failed API; its steps keep their API names, so results of steps that already ran can
// be reused by name. When nothing works the error wraps ErrNoAlternative and says which
// outputs no other API provides.
func Recombine(ctx context.Context, g *Graph, plan Plan, failedStep int, known map[string]string, s Searcher) (Recombination, error) {
	return RecombineUsing(ctx, g, plan, failedStep, known, s, StrategySubstitution, StrategyUpstreamReroute, StrategySubgraphSwitch)
}

// RecombineUsing is Recombine restricted to the given strategies, tried in the order given, so
// that a workflow can run each strategy as a step of its own. An unknown strategy is an error.
func RecombineUsing(ctx context.Context, g *Graph, plan Plan, failedStep int, known map[string]string, s Searcher, strategies ...string) (Recombination, error) {
	if failedStep < 0 || failedStep >= len(plan.Steps) {
		return Recombination{}, fmt.Errorf("recombine: failed step %d is not in the %d-step plan", failedStep, len(plan.Steps))
	}
	rp, err := resolvePlan(plan, g)
	if err != nil {
		return Recombination{}, fmt.Errorf("recombine: %w", err)
	}
	r := &recombiner{g: g, plan: plan, nodes: rp.nodes, target: rp.target, failedStep: failedStep, failed: rp.nodes[failedStep], s: s}
	r.supplies = rp.supplies
	r.known = rp.given
	for k, v := range known {
		r.known[k] = v
	}
	r.knownIDs = resolveParams(g, r.known)
	r.needs()

	var whys []string
	for _, strategy := range strategies {
		var (
			rec Recombination
			ok  bool
			why string
			err error
		)
		switch strategy {
		case StrategySubstitution:
			rec, ok = r.substitute()
			why = "no I/O-equivalent API"
		case StrategyUpstreamReroute:
			if len(r.consumers) == 0 {
				why = "no later step consumes its outputs"
				break
			}
			rec, ok, why, err = r.reroute(ctx)
		case StrategySubgraphSwitch:
			rec, ok, why, err = r.switchSubgraph(ctx)
		default:
			return Recombination{}, fmt.Errorf("recombine: unknown strategy %q", strategy)
		}
		if err != nil {
			return Recombination{}, err
		}
		if ok {
			return rec, nil
		}
		whys = append(whys, strategy+": "+why)
	}
	return Recombination{}, fmt.Errorf("recombine after %s failed: %w: no usable API other than %s provides %s (%s)",
		g.Node(r.failed).Name, ErrNoAlternative, g.Node(r.failed).Name, r.neededNames(), strings.Join(whys, "; "))
}

type recombiner struct {
	g          *Graph
	plan       Plan
	nodes      []NodeID // the plan's steps' API nodes
	target     NodeID   // the plan's target's node
	failedStep int
	failed     NodeID
	s          Searcher
	supplies   map[NodeID][]Supply
	known      map[string]string
	knownIDs   knownValues
	needed     []NodeID // output parameter nodes of the failed API the plan needs
	consumers  []NodeID // APIs whose inputs the failed API binds, in step order
}

// needs finds what the failed API provides: the outputs later steps consume, or all its
// outputs when nothing consumes them (it is the target).
func (r *recombiner) needs() {
	seen := map[NodeID]bool{}
	for _, node := range r.nodes {
		for _, in := range r.supplies[node] {
			if in.Source != SupplyUpstream || in.Producer != r.failed {
				continue
			}
			if !seen[in.Output] {
				seen[in.Output] = true
				r.needed = append(r.needed, in.Output)
			}
			if len(r.consumers) == 0 || r.consumers[len(r.consumers)-1] != node {
				r.consumers = append(r.consumers, node)
			}
		}
	}
	if len(r.needed) == 0 {
		for _, e := range r.g.Out(r.failed) {
			if e.Kind == Outputs {
				r.needed = append(r.needed, e.To)
			}
		}
	}
	sort.Slice(r.needed, func(i, j int) bool { return r.needed[i] < r.needed[j] })
}

func (r *recombiner) neededNames() string {
	names := make([]string, len(r.needed))
	for i, p := range r.needed {
		names[i] = catalogParamName(r.g, r.failed, p, false)
	}
	return strings.Join(names, ", ")
}

func (r *recombiner) exclude() map[NodeID]bool { return map[NodeID]bool{r.failed: true} }

// target is the plan's target after the failed API is replaced by sub (when it was the
// target).
// A repair whose new steps change more than the failed API did is refused (see
// effectRank).
func (r *recombiner) finish(strategy string, target NodeID, supplies map[NodeID][]Supply, score float64, reason string) (Recombination, bool) {
	sg := assemble(r.g, target, supplies)
	sg.Score = score
	limit := effectRank(r.g, r.failed)
	for _, a := range sg.APIs {
		if a == r.failed {
			return Recombination{}, false
		}
		if !slices.Contains(r.nodes, a) && effectRank(r.g, a) > limit {
			return Recombination{}, false
		}
	}
	p, err := sg.Plan(r.g, r.known)
	if err != nil || len(p.Missing()) > 0 {
		return Recombination{}, false
	}
	return Recombination{Strategy: strategy, Plan: p, Reason: reason}, true
}

// substitute tries I/O-equivalent substitution.
func (r *recombiner) substitute() (Recombination, bool) {
	if len(r.needed) == 0 {
		return Recombination{}, false
	}
	inPlan := map[NodeID]bool{}
	for _, node := range r.nodes {
		inPlan[node] = true
	}
	// Outputs of the steps that ran, by parameter node, to the first step producing each.
	ran := map[NodeID]NodeID{}
	for _, node := range r.nodes[:r.failedStep] {
		for _, e := range r.g.Out(node) {
			if _, ok := ran[e.To]; e.Kind == Outputs && !ok {
				ran[e.To] = node
			}
		}
	}
	type cand struct {
		api      NodeID
		strength float64
	}
	var cands []cand
	for _, e := range r.g.In(r.needed[0]) {
		v := e.From
		if e.Kind != Outputs || v == r.failed || inPlan[v] || !usableAPI(r.g, v, nil) {
			continue
		}
		c := cand{api: v}
		ok := true
		for _, o := range r.needed {
			oe, has := r.g.Edge(Outputs, v, o)
			if !has {
				ok = false
				break
			}
			c.strength += oe.Strength()
		}
		for _, in := range r.g.Inputs(v) {
			_, given := r.knownIDs.get(v, in.From)
			_, produced := ran[in.From]
			if in.Required && !given && !produced {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		for _, u := range r.consumers {
			if w, has := thenWeight(r.g, v, u); has {
				c.strength += w
			}
		}
		cands = append(cands, c)
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].strength != cands[j].strength {
			return cands[i].strength > cands[j].strength
		}
		return r.g.Node(cands[i].api).Name < r.g.Node(cands[j].api).Name
	})
	for _, c := range cands {
		sup := cloneSupplies(r.supplies)
		delete(sup, r.failed)
		var ins []Supply
		for _, e := range r.g.Inputs(c.api) {
			in := Supply{API: c.api, Param: e.From, Required: e.Required, Source: SupplyUnbound}
			if v, ok := r.knownIDs.get(c.api, e.From); ok {
				in.Source, in.Value = SupplyGiven, v
			} else if p, ok := ran[e.From]; ok {
				in.Source, in.Producer, in.Output = SupplyUpstream, p, e.From
			}
			ins = append(ins, in)
		}
		sup[c.api] = ins
		for api, ins := range sup {
			for i := range ins {
				if ins[i].Source == SupplyUpstream && ins[i].Producer == r.failed {
					ins[i].Producer = c.api
				}
			}
			sup[api] = ins
		}
		target := r.target
		if target == r.failed {
			target = c.api
		}
		reason := fmt.Sprintf("%s replaces %s, providing %s", r.g.Node(c.api).Name, r.g.Node(r.failed).Name, r.neededNames())
		if rec, ok := r.finish(StrategySubstitution, target, sup, r.plan.Score, reason); ok {
			return rec, true
		}
	}
	return Recombination{}, false
}

// reroute tries upstream rerouting; why says what it lacked when it fails.
func (r *recombiner) reroute(ctx context.Context) (Recombination, bool, string, error) {
	sup := cloneSupplies(r.supplies)
	delete(sup, r.failed)
	var via []string
	for _, c := range r.consumers {
		sg, err := r.s.Search(ctx, r.g, SearchRequest{Target: c, Known: r.known, Exclude: r.exclude()})
		if err != nil {
			if ctx.Err() != nil {
				return Recombination{}, false, "", fmt.Errorf("recombine: upstream reroute: %w", err)
			}
			return Recombination{}, false, fmt.Sprintf("rerouting to %s: %v", r.g.Node(c).Name, err), nil
		}
		fresh := map[NodeID][]Supply{}
		for _, in := range sg.Inputs {
			fresh[in.API] = append(fresh[in.API], in)
		}
		ins := sup[c]
		for i := range ins {
			if ins[i].Source != SupplyUpstream || ins[i].Producer != r.failed {
				continue
			}
			repl, ok := findSupply(fresh[c], ins[i].Param)
			if !ok || repl.Source == SupplyMissing {
				return Recombination{}, false, fmt.Sprintf("no other subpath produces %s for %s",
					catalogParamName(r.g, c, ins[i].Param, true), r.g.Node(c).Name), nil
			}
			ins[i] = repl
			if repl.Source == SupplyUpstream {
				via = append(via, r.g.Node(repl.Producer).Name)
			}
		}
		// The new subpath's APIs bring their bindings; APIs already planned keep theirs.
		for api, fs := range fresh {
			if _, ok := sup[api]; !ok && api != c {
				sup[api] = fs
			}
		}
	}
	reason := fmt.Sprintf("rerouted around %s through %s", r.g.Node(r.failed).Name, strings.Join(dedupe(via), ", "))
	if rec, ok := r.finish(StrategyUpstreamReroute, r.target, sup, r.plan.Score, reason); ok {
		return rec, true, "", nil
	}
	return Recombination{}, false, "rerouting left inputs unbound or formed a cycle", nil
}

// switchSubgraph tries subgraph switching.
func (r *recombiner) switchSubgraph(ctx context.Context) (Recombination, bool, string, error) {
	if r.target == r.failed {
		return Recombination{}, false, "the failed API is the target", nil
	}
	sg, err := r.s.Search(ctx, r.g, SearchRequest{Target: r.target, Known: r.known, Exclude: r.exclude()})
	if err != nil {
		if ctx.Err() != nil {
			return Recombination{}, false, "", fmt.Errorf("recombine: subgraph switch: %w", err)
		}
		return Recombination{}, false, fmt.Sprintf("switching subgraph: %v", err), nil
	}
	if !sg.Feasible() {
		var miss []string
		for _, m := range sg.Missing() {
			miss = append(miss, r.g.Node(m.API).Name+"."+catalogParamName(r.g, m.API, m.Param, true))
		}
		return Recombination{}, false, "a new subgraph for " + r.plan.Target + " leaves " + strings.Join(miss, ", ") + " missing", nil
	}
	fresh := map[NodeID][]Supply{}
	for _, in := range sg.Inputs {
		fresh[in.API] = append(fresh[in.API], in)
	}
	reason := fmt.Sprintf("new subgraph for %s without %s", r.plan.Target, r.g.Node(r.failed).Name)
	if rec, ok := r.finish(StrategySubgraphSwitch, r.target, fresh, sg.Score, reason); ok {
		return rec, true, "", nil
	}
	return Recombination{}, false, "the new subgraph could not be planned", nil
}

// effectRank orders what a call of api changes: 0 for a read, 1 for an idempotent write, 2
// for an unsafe one. A repair replaces a call only by calls of the same rank or a lower one:
// a read by reads, never by a write that happens to output what it gave (a milestone list by
// the milestone creation).
func effectRank(g *Graph, api NodeID) int {
	n := g.Node(api)
	if n.API == nil {
		return 0
	}
	switch n.API.CallEffect() {
	case EffectRead:
		return 0
	case EffectIdempotent:
		return 1
	}
	return 2
}

func findSupply(ins []Supply, param NodeID) (Supply, bool) {
	for _, in := range ins {
		if in.Param == param {
			return in, true
		}
	}
	return Supply{}, false
}

func cloneSupplies(m map[NodeID][]Supply) map[NodeID][]Supply {
	out := make(map[NodeID][]Supply, len(m))
	for k, v := range m {
		out[k] = append([]Supply(nil), v...)
	}
	return out
}

func dedupe(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
