package planner

import (
	"strings"
)

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
