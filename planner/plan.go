package planner

import (
	"fmt"
	"strings"

	"github.com/naviagent/navi/twnm"
)

// FromTwnm converts a twnm plan to the form workflows keep.
func FromTwnm(p twnm.Plan) Plan {
	out := Plan{Target: p.Target, Score: p.Score, Steps: make([]PlanStep, len(p.Steps))}
	for i, s := range p.Steps {
		st := PlanStep{API: s.API, Bindings: make([]Binding, len(s.Bindings))}
		for j, b := range s.Bindings {
			nb := Binding{Param: b.Param, Required: b.Required, Source: b.Source.String(), Value: b.Value}
			if b.From != nil {
				nb.FromAPI, nb.FromOutput = b.From.API, b.From.Output
			}
			st.Bindings[j] = nb
		}
		out.Steps[i] = st
	}
	return out
}

// Bind returns p with the values of known and params bound to the inputs they name: a key
// "API.param" binds that input of that API, a bare "param" binds every input of that name.
// The most specific key wins ("API.param" over "param"), then params (a decision's own
// values) over known. Inputs the
// plan binds upstream keep their producer, so a value stated by the user never cuts a chain
// the search chose; given, missing and unbound inputs take the value.
func Bind(p Plan, known, params map[string]string) Plan {
	out := Plan{Target: p.Target, Score: p.Score, Steps: make([]PlanStep, len(p.Steps))}
	for i, s := range p.Steps {
		st := PlanStep{API: s.API, Bindings: make([]Binding, len(s.Bindings))}
		for j, b := range s.Bindings {
			if b.Source != SourceUpstream {
				if v, ok := lookup(s.API, b.Param, params, known); ok {
					b.Source, b.Value = SourceGiven, v
				}
			}
			st.Bindings[j] = b
		}
		out.Steps[i] = st
	}
	return out
}

// lookup finds the value of input param of api in the maps, most specific key and first map
// first. Empty values do not bind.
func lookup(api, param string, maps ...map[string]string) (string, bool) {
	for _, key := range []string{api + "." + param, param} {
		for _, m := range maps {
			if v := strings.TrimSpace(m[key]); v != "" {
				return v, true
			}
		}
	}
	return "", false
}

// ToTwnm resolves p against g, a graph holding every API of the plan, into the twnm form that
// recombination works on. An API or input g does not know is an error naming it.
func (p Plan) ToTwnm(g *twnm.Graph) (twnm.Plan, error) {
	out := twnm.Plan{Target: p.Target, Score: p.Score, Steps: make([]twnm.Step, len(p.Steps))}
	index := map[string]int{}
	for i, s := range p.Steps {
		id, ok := g.APIByName(s.API)
		if !ok {
			return twnm.Plan{}, fmt.Errorf("plan step %d: API %s is not in the graph", i+1, s.API)
		}
		if s.API == p.Target {
			out.TargetNode = id
		}
		st := twnm.Step{API: s.API, Node: id, Bindings: make([]twnm.Binding, len(s.Bindings))}
		for j, b := range s.Bindings {
			node, ok := g.ParamOf(s.API, b.Param, true)
			if !ok {
				return twnm.Plan{}, fmt.Errorf("plan step %d: %s has no input %s in the graph", i+1, s.API, b.Param)
			}
			src, err := twnm.ParseSupplySource(b.Source)
			if err != nil {
				return twnm.Plan{}, fmt.Errorf("plan step %d: %s.%s: %w", i+1, s.API, b.Param, err)
			}
			tb := twnm.Binding{Param: b.Param, Node: node, Required: b.Required, Source: src, Value: b.Value}
			if src == twnm.SupplyUpstream {
				k, ok := index[b.FromAPI]
				if !ok {
					return twnm.Plan{}, fmt.Errorf("plan step %d: %s.%s comes from %s, which no earlier step calls", i+1, s.API, b.Param, b.FromAPI)
				}
				tb.From = &twnm.StepOutput{Step: k, API: b.FromAPI, Output: b.FromOutput}
			}
			st.Bindings[j] = tb
		}
		out.Steps[i] = st
		index[s.API] = i
	}
	return out, nil
}
