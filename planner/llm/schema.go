package llm

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/naviagent/navi/planner"
)

// Bounds the schema puts on an answer's free text, so that a small model cannot spend its
// token budget on one field: an intent is a line, an answer a short paragraph.
const (
	maxDecisions   = 3
	maxIntentRunes = 100
	maxAnswerRunes = 400
	maxRecallRunes = 200
	maxParamRunes  = 200
)

// Schema is the JSON schema of an answer for context c, sent as response_format json_schema
// (FormatSchema): {"decisions": [...]} with one to maxDecisions decisions, each one of the
// four actions with the fields that action needs, in the order a model should write them
// (the intent first, the action, then its arguments). It holds the prompt's own rules as the
// run's state gives them, not a vocabulary:
//   - call_api targets only a candidate not yet called or failed (Enforcement Constraints 5, 6
//     and 9), one shape per candidate. Once a target's chain has completed, only a candidate
//     that serves another part of the request (Context.Parts), or one that retrieval ranks
//     above that target and whose plan goes on from it (the target is one of its steps): the
//     chain toward the final step retrieval chose, not past it. With no such candidate,
//     call_api is left out.
//   - a call's params are the inputs its plan lacks ("API.param"), nothing else: the graph
//     binds the values the request states and the outputs that feed the chain, and a value
//     the model writes into a bound input would take that binding's place.
//   - retrieve_api is left out while a callable candidate's plan lacks no input: retrieval is
//     for parameters that are unavailable (Enforcement Constraint 8); and once a target's chain
//     has completed, which calls for the answer (Rule 3.1d); and once the retrieval budget is
//     spent (planner.MayRetrieve), where projection would replace it; and right after the
//     model's own retrieve_api: its candidates are what the model now decides on, and a small
//     model otherwise rephrases the same search until the budget is spent.
//   - clarify_intent names a candidate, or none.
//
// Endpoints that decode under the schema cannot answer outside it; others may ignore it, and
// ParseDecisions checks every answer either way.
func Schema(c planner.Context) json.RawMessage {
	str := func(max int) object { return object{{"type", "string"}, {"maxLength", max}} }
	shape := func(action planner.Action, args ...prop) object {
		props := object{
			{"dependency_rank", object{{"type", "integer"}}},
			{"intent", str(maxIntentRunes)},
			{"action", object{{"const", string(action)}}},
		}
		return object{{"type", "object"}, {"properties", append(props, args...)}}
	}
	var shapes []any
	named := []any{""}
	ready := false
	for _, cand := range c.Candidates {
		named = append(named, cand.API)
		if !callable(c, cand) {
			continue
		}
		missing := cand.Plan.Missing()
		ready = ready || len(cand.Plan.Steps) > 0 && len(missing) == 0
		params := object{}
		for _, in := range missing {
			params = append(params, prop{in, str(maxParamRunes)})
		}
		shapes = append(shapes, shape(planner.CallAPI, prop{"target_api", object{{"const", cand.API}}},
			prop{"params", object{{"type", "object"}, {"properties", params}}}))
	}
	if !ready && len(c.Completed) == 0 && planner.MayRetrieve(c) && !retrievedLast(c) {
		shapes = append(shapes, shape(planner.RetrieveAPI, prop{"recall_description", str(maxRecallRunes)}))
	}
	shapes = append(shapes, shape(planner.DirectAnswer, prop{"answer", str(maxAnswerRunes)}))
	clarify := []prop{{"answer", str(maxAnswerRunes)}}
	if len(named) > 1 {
		clarify = append([]prop{{"target_api", object{{"enum", named}}}}, clarify...)
	}
	shapes = append(shapes, shape(planner.ClarifyIntent, clarify...))

	decisions := object{{"type", "array"}, {"items", object{{"anyOf", shapes}}}, {"minItems", 1}, {"maxItems", maxDecisions}}
	root := object{{"type", "object"}, {"properties", object{{"decisions", decisions}}}, {"required", []string{"decisions"}}}
	raw, err := json.Marshal(root)
	if err != nil { // only strings, numbers, slices and objects: cannot happen
		return nil // the call asks for a JSON object instead
	}
	return raw
}

// callable reports whether a call_api decision may target cand in context c: not called or
// failed yet, and once a chain has completed, serving another part of the request or going on
// from a completed target that retrieval ranks below it. (Not from any API that ran: a
// producer shared by two candidates' plans would make the other one callable too; nor past
// the target: a chain that answered is not extended to the next API that could take it.)
func callable(c planner.Context, cand planner.Candidate) bool {
	switch {
	case slices.Contains(c.Called, cand.API) || slices.Contains(c.Failed, cand.API):
		return false
	case len(c.Completed) == 0 || slices.Contains(c.Parts, cand.API):
		return true
	}
	rank := func(api string) int {
		return slices.IndexFunc(c.Candidates, func(o planner.Candidate) bool { return o.API == api })
	}
	return slices.ContainsFunc(cand.Plan.APIs(), func(api string) bool {
		r := rank(api)
		return slices.Contains(c.Completed, api) && (r < 0 || rank(cand.API) < r)
	})
}

// retrievedLast reports whether the last step was a retrieve_api the model decided (not an
// inertial one).
func retrievedLast(c planner.Context) bool {
	n := len(c.History)
	return n > 0 && c.History[n-1].Decision.Action == planner.RetrieveAPI && !planner.IsInertial(c.History[n-1].Decision)
}

// prop is one key of an object, which keeps its keys in order: a decoder that follows the
// schema writes properties in the schema's order.
type prop struct {
	key   string
	value any
}

type object []prop

// MarshalJSON writes the properties in order.
func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(p.key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(p.value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
