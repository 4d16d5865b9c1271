package twnm

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Ground returns p without the producer branches that cannot run (an input of theirs is
// missing, there or further up) where the input they feed has other producers in g as well:
// with nothing stated for any of them to run on, which producer the request means is a guess
// ("what's the weather like?" does not mean the weather at some hotel), so that input is
// asked for instead and becomes missing. A branch that is the only way to its input stays,
// and so does one that feeds an identifier (which a user gets from its issuer, not states):
// its own inputs are asked for ("which city?" for the hotel search that gives a booking its
// hotel id). Producers count as the search counts them, without the APIs of exclude
// (SearchRequest.Exclude). The target stays; p itself is not changed.
func Ground(p Plan, g *Graph, exclude map[NodeID]bool) Plan {
	out := Plan{Target: p.Target, Score: p.Score, Steps: make([]Step, len(p.Steps))}
	for i, st := range p.Steps {
		out.Steps[i] = Step{API: st.API, Bindings: slices.Clone(st.Bindings)}
	}
	runs := map[string]bool{} // steps come after their producers
	for _, st := range out.Steps {
		runs[st.API] = !slices.ContainsFunc(st.Bindings, func(b Binding) bool {
			return b.Required && (b.Source == SupplyMissing || b.Source == SupplyUpstream && !runs[b.FromAPI])
		})
	}
	cut := false
	for i, st := range out.Steps {
		for j, b := range st.Bindings {
			if !b.Required || b.Source != SupplyUpstream || runs[b.FromAPI] || Identifier(b.Param) || producersOf(g, st.API, b.Param, exclude) < 2 {
				continue
			}
			out.Steps[i].Bindings[j] = Binding{Param: b.Param, Required: true, Source: SupplyMissing}
			cut = true
		}
	}
	if !cut {
		return p
	}
	// Drop the steps that feed nothing any more, from the last: a dropped step's producers
	// may feed nothing then either.
	for i := len(out.Steps) - 1; i >= 0; i-- {
		api := out.Steps[i].API
		if api == out.Target || slices.ContainsFunc(out.Steps[i+1:], func(st Step) bool {
			return slices.ContainsFunc(st.Bindings, func(b Binding) bool { return b.Source == SupplyUpstream && b.FromAPI == api })
		}) {
			continue
		}
		out.Steps = slices.Delete(out.Steps, i, i+1)
	}
	return out
}

// producersOf counts the APIs of g but those of exclude able to feed input param of api.
func producersOf(g *Graph, api, param string, exclude map[NodeID]bool) int {
	id, ok := g.APIByName(api)
	node, ok2 := g.ParamOf(api, param, true)
	if !ok || !ok2 {
		return 0
	}
	return len(producerLinks(g, node, id, exclude, nil))
}

// ErrPlanCycle is wrapped by Plan when the subgraph's bindings form a cycle.
var ErrPlanCycle = errors.New("dependency cycle")

// Plan orders the subgraph's APIs so that every producer comes before its consumers, ties
// broken by API name (Kahn's algorithm) with the target last, and binds each input. known holds the user's
// values, keyed as SearchRequest.Known is: a known value binds an input the subgraph left
// given, missing or unbound, and overrides the value the search saw; inputs the subgraph
// binds upstream stay upstream. A cycle is an error naming the APIs on it.
func (s *Subgraph) Plan(g *Graph, known map[string]string) (Plan, error) {
	values := resolveParams(g, known)
	deps := map[NodeID]map[NodeID]bool{}
	users := map[NodeID][]NodeID{}
	inSub := map[NodeID]bool{}
	for _, a := range s.APIs {
		inSub[a] = true
		deps[a] = map[NodeID]bool{}
	}
	for _, in := range s.Inputs {
		if in.Source != SupplyUpstream {
			continue
		}
		if !inSub[in.Producer] {
			return Plan{}, fmt.Errorf("plan %s: %s.%s is bound by %s, which is not in the subgraph",
				g.Node(s.Target).Name, g.Node(in.API).Name, g.Node(in.Param).Name, nodeName(g, in.Producer))
		}
		if !deps[in.API][in.Producer] {
			deps[in.API][in.Producer] = true
			users[in.Producer] = append(users[in.Producer], in.API)
		}
	}
	byName := func(ids []NodeID) {
		sort.Slice(ids, func(i, j int) bool { return g.Node(ids[i]).Name < g.Node(ids[j]).Name })
	}
	pending := map[NodeID]int{}
	var ready []NodeID
	for _, a := range s.APIs {
		pending[a] = len(deps[a])
		if pending[a] == 0 {
			ready = append(ready, a)
		}
	}
	var order []NodeID
	for len(ready) > 0 {
		byName(ready)
		// The target answers: it comes last even where joined branches (Join) leave other
		// APIs free after it.
		k := 0
		if ready[0] == s.Target && len(ready) > 1 {
			k = 1
		}
		a := ready[k]
		ready = append(ready[:k:k], ready[k+1:]...)
		order = append(order, a)
		for _, u := range users[a] {
			if pending[u]--; pending[u] == 0 {
				ready = append(ready, u)
			}
		}
	}
	if len(order) < len(s.APIs) {
		var stuck []NodeID
		for _, a := range s.APIs {
			if pending[a] > 0 {
				stuck = append(stuck, a)
			}
		}
		byName(stuck)
		names := make([]string, len(stuck))
		for i, a := range stuck {
			names[i] = g.Node(a).Name
		}
		return Plan{}, fmt.Errorf("plan %s: %w among %s", g.Node(s.Target).Name, ErrPlanCycle, strings.Join(names, ", "))
	}

	index := make(map[NodeID]int, len(order))
	for i, a := range order {
		index[a] = i
	}
	p := Plan{Target: g.Node(s.Target).Name, Score: s.Score, Steps: make([]Step, len(order))}
	for i, a := range order {
		st := Step{API: g.Node(a).Name}
		for _, in := range s.inputsOf(a) {
			b := Binding{Param: catalogParamName(g, a, in.Param, true), Required: in.Required, Source: in.Source, Value: in.Value}
			if v, ok := values.get(in.API, in.Param); ok && in.Source != SupplyUpstream {
				b.Source, b.Value = SupplyGiven, v
			}
			if in.Source == SupplyUpstream {
				b.FromAPI, b.FromOutput = g.Node(in.Producer).Name, catalogParamName(g, in.Producer, in.Output, false)
				b.Predicted = predictedOnly(g, in.Output, in.Param)
			}
			st.Bindings = append(st.Bindings, b)
		}
		p.Steps[i] = st
	}
	return p, nil
}

// predictedOnly is the predicted probability of the FEEDS edge from output to param where the
// link predictor alone found it (no catalog confidence, no observed call), else 0.
func predictedOnly(g *Graph, output, param NodeID) float64 {
	if output == param {
		return 0
	}
	e, ok := g.Edge(Feeds, output, param)
	if !ok || !e.HasPrediction || e.Confidence > 0 || e.Count > 0 {
		return 0
	}
	return e.Predicted
}

// resolved is a plan read on a graph: each step's API node and its inputs as supplies.
type resolved struct {
	nodes    []NodeID // per step
	target   NodeID
	supplies map[NodeID][]Supply
	given    map[string]string // parameter node name → value, of the given bindings
}

// ResolvePlan checks that g holds every API and input of p and that every upstream binding
// comes from an earlier step's output; the error names the step and what g lacks.
func ResolvePlan(p Plan, g *Graph) error {
	_, err := resolvePlan(p, g)
	return err
}

// resolvePlan reads p on g, for recombination.
func resolvePlan(p Plan, g *Graph) (resolved, error) {
	r := resolved{nodes: make([]NodeID, len(p.Steps)), supplies: make(map[NodeID][]Supply, len(p.Steps)), given: map[string]string{}}
	for i, st := range p.Steps {
		id, ok := g.APIByName(st.API)
		if !ok {
			return resolved{}, fmt.Errorf("plan step %d: API %s is not in the graph", i+1, st.API)
		}
		r.nodes[i] = id
		if st.API == p.Target {
			r.target = id
		}
		var ins []Supply
		for _, b := range st.Bindings {
			node, ok := g.ParamOf(st.API, b.Param, true)
			if !ok {
				return resolved{}, fmt.Errorf("plan step %d: %s has no input %s in the graph", i+1, st.API, b.Param)
			}
			in := Supply{API: id, Param: node, Required: b.Required, Source: b.Source, Value: b.Value}
			switch b.Source {
			case SupplyGiven:
				r.given[g.Node(node).Name] = b.Value
			case SupplyUpstream:
				k := p.StepOf(b.FromAPI)
				if k < 0 || k >= i {
					return resolved{}, fmt.Errorf("plan step %d: %s.%s comes from %s, which no earlier step calls", i+1, st.API, b.Param, b.FromAPI)
				}
				out, ok := g.ParamOf(b.FromAPI, b.FromOutput, false)
				if !ok {
					return resolved{}, fmt.Errorf("plan step %d: %s has no output %s", i+1, b.FromAPI, b.FromOutput)
				}
				in.Producer, in.Output = r.nodes[k], out
			}
			ins = append(ins, in)
		}
		r.supplies[id] = ins
	}
	return r, nil
}

// ChainRuns counts the earlier runs in which the chain of plan ran well, as g has learned
// them: the fewest successes among its target and the data flows (THEN edges) its steps take
// from one another; 0 when one of them has never run or is less reliable than floor.
func (g *Graph) ChainRuns(plan Plan, floor float64) int {
	target, ok := g.APIByName(plan.Target)
	if !ok || g.Node(target).Reliability() < floor {
		return 0
	}
	least := g.Node(target).Success
	for _, st := range plan.Steps {
		to, ok := g.APIByName(st.API)
		if !ok {
			return 0
		}
		for _, b := range st.Bindings {
			if b.Source != SupplyUpstream {
				continue
			}
			from, ok := g.APIByName(b.FromAPI)
			if !ok {
				return 0
			}
			e, ok := g.Edge(Then, from, to)
			if !ok || e.Reliability() < floor {
				return 0
			}
			least = min(least, e.Success)
		}
	}
	return int(least)
}
