package twnm

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Plan is an executable toolchain: the APIs of a subgraph in dependency order, each input
// bound to a user value or to an earlier step's output.
type Plan struct {
	Target     string // the target API, the last step
	TargetNode NodeID
	Score      float64 // the subgraph's score
	Steps      []Step
}

// Step is one API call of a plan.
type Step struct {
	API      string
	Node     NodeID
	Bindings []Binding // one per input, in Graph.Inputs order (required first, then by name)
}

// Binding says where one input of a step comes from. Source is SupplyGiven (Value),
// SupplyUpstream (From), SupplyMissing (required, nothing binds it) or SupplyUnbound
// (optional, left out of the call).
type Binding struct {
	Param    string // the API's own name for the input
	Node     NodeID // the input's parameter node
	Required bool
	Source   SupplySource
	Value    string
	From     *StepOutput
}

// StepOutput names an output of an earlier step.
type StepOutput struct {
	Step   int    // index into Plan.Steps
	API    string // that step's API
	Output string // the API's own name for the output
}

// Missing lists the required inputs no one binds, as "API.param", in step order.
func (p Plan) Missing() []string {
	var out []string
	for _, s := range p.Steps {
		for _, b := range s.Bindings {
			if b.Source == SupplyMissing {
				out = append(out, s.API+"."+b.Param)
			}
		}
	}
	return out
}

// StepOf returns the index of the step calling api, or −1.
func (p Plan) StepOf(api string) int {
	for i, s := range p.Steps {
		if s.API == api {
			return i
		}
	}
	return -1
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
	p := Plan{Target: g.Node(s.Target).Name, TargetNode: s.Target, Score: s.Score, Steps: make([]Step, len(order))}
	for i, a := range order {
		st := Step{API: g.Node(a).Name, Node: a}
		for _, in := range s.inputsOf(a) {
			b := Binding{Param: catalogParamName(g, a, in.Param, true), Node: in.Param, Required: in.Required,
				Source: in.Source, Value: in.Value}
			if v, ok := values.get(in.API, in.Param); ok && in.Source != SupplyUpstream {
				b.Source, b.Value = SupplyGiven, v
			}
			if in.Source == SupplyUpstream {
				b.From = &StepOutput{Step: index[in.Producer], API: g.Node(in.Producer).Name,
					Output: catalogParamName(g, in.Producer, in.Output, false)}
			}
			st.Bindings = append(st.Bindings, b)
		}
		p.Steps[i] = st
	}
	return p, nil
}

// subgraph turns a plan back into a subgraph, for recombination.
func (p Plan) subgraph(g *Graph) (map[NodeID][]Supply, error) {
	supplies := make(map[NodeID][]Supply, len(p.Steps))
	for _, st := range p.Steps {
		var ins []Supply
		for _, b := range st.Bindings {
			in := Supply{API: st.Node, Param: b.Node, Required: b.Required, Source: b.Source, Value: b.Value}
			if b.Source == SupplyUpstream {
				if b.From == nil || b.From.Step < 0 || b.From.Step >= len(p.Steps) {
					return nil, fmt.Errorf("plan step %s: input %s has no valid source step", st.API, b.Param)
				}
				prod := p.Steps[b.From.Step]
				out, ok := g.ParamOf(prod.API, b.From.Output, false)
				if !ok {
					return nil, fmt.Errorf("plan step %s: %s has no output %s", st.API, prod.API, b.From.Output)
				}
				in.Producer, in.Output = prod.Node, out
			}
			ins = append(ins, in)
		}
		supplies[st.Node] = ins
	}
	return supplies, nil
}
