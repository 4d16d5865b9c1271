package twnm

import (
	"fmt"
	"strings"
)

// Tree serializes the subgraph as the compact dependency tree NaviAgent gives the LLM
// (Section 3.1.1). The first line is the target and the score to two decimals; below it,
// each input of an API is a branch, in Graph.Inputs order (required first, then by name):
//
//	NAME ← PRODUCER.OUTPUT        bound by an upstream output; the producer is the branch's
//	                              child, with its own inputs below it
//	NAME ← PRODUCER.OUTPUT (see above)  the producer was already expanded higher up
//	NAME = "VALUE" (given)        a user value, Go-quoted
//	NAME (required, missing)      nothing binds it
//	NAME (optional, unbound)
//
// Names are the APIs' own parameter names (the catalog's, not the cluster's). Branches use
// the box-drawing characters ├─ └─ │ with three columns per level. For example:
//
//	GetWeatherForCoordinates (score 0.36)
//	├─ latitude ← Geocoding.latitude
//	│  └─ Geocoding
//	│     └─ address = "Paris" (given)
//	├─ longitude ← Geocoding.longitude (see above)
//	└─ units (optional, unbound)
func (s *Subgraph) Tree(g *Graph) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (score %.2f)\n", g.Node(s.Target).Name, s.Score)
	expanded := map[NodeID]bool{s.Target: true}
	s.writeInputs(&b, g, s.Target, "", expanded)
	return b.String()
}

func (s *Subgraph) writeInputs(b *strings.Builder, g *Graph, api NodeID, indent string, expanded map[NodeID]bool) {
	ins := s.inputsOf(api)
	for i, in := range ins {
		branch, more := "├─ ", "│  "
		if i == len(ins)-1 {
			branch, more = "└─ ", "   "
		}
		name := catalogParamName(g, api, in.Param, true)
		b.WriteString(indent + branch + name)
		switch in.Source {
		case SupplyGiven:
			fmt.Fprintf(b, " = %q (given)\n", in.Value)
		case SupplyMissing:
			b.WriteString(" (required, missing)\n")
		case SupplyUnbound:
			b.WriteString(" (optional, unbound)\n")
		case SupplyUpstream:
			prod := g.Node(in.Producer).Name
			fmt.Fprintf(b, " ← %s.%s", prod, catalogParamName(g, in.Producer, in.Output, false))
			if expanded[in.Producer] {
				b.WriteString(" (see above)\n")
				continue
			}
			expanded[in.Producer] = true
			b.WriteString("\n" + indent + more + "└─ " + prod + "\n")
			s.writeInputs(b, g, in.Producer, indent+more+"   ", expanded)
		}
	}
}

// catalogParamName is the name API api gives parameter node param among its inputs (or
// outputs), falling back to the node's name.
func catalogParamName(g *Graph, api, param NodeID, input bool) string {
	n := g.Node(api)
	if n.API != nil {
		ps := n.API.Outputs
		if input {
			ps = n.API.Inputs
		}
		for _, p := range ps {
			if id, ok := g.ParamOf(n.Name, p.Name, input); ok && id == param {
				return p.Name
			}
		}
	}
	return g.Node(param).Name
}
