package toolspec

import (
	"fmt"
	"strings"
)

// Plan is an executable toolchain: the APIs of a subgraph in dependency order, each input
// bound to a user value or to an earlier step's output. It is the one plan type of Navi: the
// search makes it, the planner binds it, the workflow keeps it in its state and histories (as
// JSON, by API and parameter names, so that it means the same on any graph) and recombination
// reads it back (twnm.ResolvePlan: the names on its graph).
type Plan struct {
	Target string  `json:"target"` // the target API, the last step
	Score  float64 `json:"score"`  // the subgraph's score
	Steps  []Step  `json:"steps"`
}

// Step is one API call of a plan.
type Step struct {
	API      string    `json:"api"`
	Bindings []Binding `json:"bindings,omitempty"` // one per input, in the graph's order (required first, then by name)
}

// Binding says where one input of a step comes from. Source is SupplyGiven (Value),
// SupplyUpstream (output FromOutput of the earlier step calling FromAPI), SupplyMissing
// (required, nothing binds it) or SupplyUnbound (optional, left out of the call).
type Binding struct {
	Param      string       `json:"param"` // the API's own name for the input
	Required   bool         `json:"required,omitempty"`
	Source     SupplySource `json:"source"`
	Value      string       `json:"value,omitempty"`
	FromAPI    string       `json:"from_api,omitempty"`
	FromOutput string       `json:"from_output,omitempty"` // the producer's own name for the output
	// Predicted is the link predictor's probability where the upstream binding rests on a
	// predicted link alone: a FEEDS edge that neither the catalog's names nor any call showed.
	Predicted float64 `json:"predicted,omitempty"`
	// Item, on an upstream binding from a list, is what the request calls the item the input
	// takes: the item one of whose fields it is (Pick: the channel named "Board Prep"), not
	// the list's first; empty where the request names none.
	Item string `json:"item,omitempty"`
}

// PredictedLinks describes the plan's bindings that rest on a predicted link alone, in step
// order: "geo.Geocode → weather.Current, p = 0.91".
func (p Plan) PredictedLinks() []string {
	var out []string
	for _, s := range p.Steps {
		for _, b := range s.Bindings {
			if b.Source == SupplyUpstream && b.Predicted > 0 {
				out = append(out, fmt.Sprintf("%s → %s, p = %.2f", b.FromAPI, s.API, b.Predicted))
			}
		}
	}
	return out
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

// APIs lists the plan's APIs in step order.
func (p Plan) APIs() []string {
	out := make([]string, len(p.Steps))
	for i, s := range p.Steps {
		out[i] = s.API
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

// SupplySource says how an input of a plan's step (Binding) is bound.
type SupplySource uint8

// Supply sources.
const (
	SupplyGiven    SupplySource = iota // a value the user supplied
	SupplyUpstream                     // an output of another API of the subgraph
	SupplyMissing                      // required, and neither given nor produced
	SupplyUnbound                      // optional, and neither given nor produced
)

var supplySourceNames = [...]string{"given", "upstream", "missing", "unbound"}

// String names the source: given, upstream, missing or unbound.
func (s SupplySource) String() string {
	if int(s) < len(supplySourceNames) {
		return supplySourceNames[s]
	}
	return fmt.Sprintf("SupplySource(%d)", s)
}

// MarshalText writes the source's name, as plans in workflow histories spell it.
func (s SupplySource) MarshalText() ([]byte, error) {
	if int(s) >= len(supplySourceNames) {
		return nil, fmt.Errorf("supply source %d is not one of %s", s, strings.Join(supplySourceNames[:], ", "))
	}
	return []byte(supplySourceNames[s]), nil
}

// UnmarshalText reads a source's name (ParseSupplySource).
func (s *SupplySource) UnmarshalText(b []byte) error {
	v, err := ParseSupplySource(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// ParseSupplySource is the inverse of SupplySource.String.
func ParseSupplySource(name string) (SupplySource, error) {
	for i, n := range supplySourceNames {
		if n == name {
			return SupplySource(i), nil
		}
	}
	return 0, fmt.Errorf("supply source %q is not one of %s", name, strings.Join(supplySourceNames[:], ", "))
}

// Chain is a tool chain as the names of its APIs in call order, producers before their
// consumers and the final step, which answers the request, last: what retrieval plans
// (recall.Result.Chain), what a run called (its result's Chain) and what a data set's task
// expects (a gold chain) alike.
type Chain []string

// Final is the chain's final step, "" for an empty chain.
func (c Chain) Final() string {
	if len(c) == 0 {
		return ""
	}
	return c[len(c)-1]
}
