package llm_test

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/planner/llm"
)

// decisionShapes decodes the decision shapes of a schema.
func decisionShapes(t *testing.T, raw json.RawMessage) []shape {
	t.Helper()
	var s struct {
		Properties struct {
			Decisions struct {
				Items struct {
					AnyOf []shape `json:"anyOf"`
				}
			}
		}
	}
	require.NoError(t, json.Unmarshal(raw, &s))
	return s.Properties.Decisions.Items.AnyOf
}

// shape is one decision shape: its action, the APIs it may name and its params' inputs.
type shape struct {
	Properties struct {
		Action    struct{ Const string }
		TargetAPI *struct {
			Const string
			Enum  []string
		} `json:"target_api"`
		Params struct {
			Properties map[string]any
		}
	}
}

// shapes reads a schema's decision shapes: each action and, for call_api and clarify_intent,
// the APIs it may name.
func shapes(t *testing.T, raw json.RawMessage) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, shape := range decisionShapes(t, raw) {
		action := shape.Properties.Action.Const
		if _, ok := out[action]; !ok {
			out[action] = nil
		}
		if api := shape.Properties.TargetAPI; api != nil {
			if api.Const != "" {
				out[action] = append(out[action], api.Const) // one call_api shape per candidate
			}
			out[action] = append(out[action], api.Enum...)
		}
	}
	return out
}

func TestSchema(t *testing.T) {
	ready := func(api string) planner.Candidate {
		return planner.Candidate{API: api, Plan: planner.Plan{Target: api, Steps: []planner.PlanStep{{API: api,
			Bindings: []planner.Binding{{Param: "city", Required: true, Source: planner.SourceGiven, Value: "Rome"}}}}}}
	}
	missing := func(api string) planner.Candidate {
		return planner.Candidate{API: api, Plan: planner.Plan{Target: api, Steps: []planner.PlanStep{{API: api,
			Bindings: []planner.Binding{{Param: "city", Required: true, Source: planner.SourceMissing}}}}}}
	}
	tests := []struct {
		name string
		c    planner.Context
		want map[string][]string
	}{
		{name: "no candidates: nothing to call or name",
			c:    planner.Context{Query: "hi"},
			want: map[string][]string{"retrieve_api": nil, "direct_answer": nil, "clarify_intent": nil}},
		{name: "a ready plan: call it, no retrieval",
			c: planner.Context{Candidates: []planner.Candidate{ready("weather.Current"), missing("stay.Search")}},
			want: map[string][]string{"call_api": {"weather.Current", "stay.Search"}, "direct_answer": nil,
				"clarify_intent": {"", "weather.Current", "stay.Search"}}},
		{name: "every plan lacks an input: retrieval stays",
			c: planner.Context{Candidates: []planner.Candidate{missing("stay.Search")}},
			want: map[string][]string{"call_api": {"stay.Search"}, "retrieve_api": nil, "direct_answer": nil,
				"clarify_intent": {"", "stay.Search"}}},
		{name: "the retrieval budget spent: no retrieval",
			c:    planner.Context{Candidates: []planner.Candidate{missing("stay.Search")}, Recalled: []string{"a", "b", "c", "d"}},
			want: map[string][]string{"call_api": {"stay.Search"}, "direct_answer": nil, "clarify_intent": {"", "stay.Search"}}},
		{name: "right after the model's retrieval: no retrieval",
			c: planner.Context{Candidates: []planner.Candidate{missing("stay.Search")}, Recalled: []string{"a", "b"},
				History: []planner.Turn{{Decision: planner.Decision{Action: planner.RetrieveAPI, RecallDescription: "b"}}}},
			want: map[string][]string{"call_api": {"stay.Search"}, "direct_answer": nil, "clarify_intent": {"", "stay.Search"}}},
		{name: "called and failed APIs are not called again",
			c: planner.Context{Candidates: []planner.Candidate{ready("a.X"), ready("b.Y"), missing("c.Z")},
				Called: []string{"a.X"}, Failed: []string{"b.Y"}},
			want: map[string][]string{"call_api": {"c.Z"}, "retrieve_api": nil, "direct_answer": nil,
				"clarify_intent": {"", "a.X", "b.Y", "c.Z"}}},
		{name: "a completed chain leaves only the request's other parts",
			c: planner.Context{Candidates: []planner.Candidate{ready("a.X"), ready("b.Y"), missing("c.Z")},
				Called: []string{"a.X"}, Completed: []string{"a.X"}, Parts: []string{"c.Z"}},
			want: map[string][]string{"call_api": {"c.Z"}, "direct_answer": nil,
				"clarify_intent": {"", "a.X", "b.Y", "c.Z"}}},
		{name: "a completed chain: the plans ranked above its target that go on from it",
			c: planner.Context{Candidates: []planner.Candidate{
				{API: "c.Z", Plan: planner.Plan{Target: "c.Z", Steps: []planner.PlanStep{{API: "p.P"}, {API: "a.X"}, {API: "c.Z"}}}},
				{API: "d.W", Plan: planner.Plan{Target: "d.W", Steps: []planner.PlanStep{{API: "p.P"}, {API: "d.W"}}}},
				ready("a.X"),
				{API: "e.V", Plan: planner.Plan{Target: "e.V", Steps: []planner.PlanStep{{API: "a.X"}, {API: "e.V"}}}}},
				Called: []string{"p.P", "a.X"}, Completed: []string{"a.X"}},
			want: map[string][]string{"call_api": {"c.Z"}, "direct_answer": nil,
				"clarify_intent": {"", "c.Z", "d.W", "a.X", "e.V"}}},
		{name: "a completed chain and no other part: answer",
			c: planner.Context{Candidates: []planner.Candidate{ready("a.X"), ready("b.Y")},
				Called: []string{"a.X"}, Completed: []string{"a.X"}},
			want: map[string][]string{"direct_answer": nil,
				"clarify_intent": {"", "a.X", "b.Y"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, shapes(t, llm.Schema(tt.c)))
		})
	}

	t.Run("a call's params are the inputs its plan lacks", func(t *testing.T) {
		shapes := decisionShapes(t, llm.Schema(planner.Context{Candidates: []planner.Candidate{missing("a.X"), ready("b.Y")}}))
		require.GreaterOrEqual(t, len(shapes), 2)
		assert.Equal(t, []string{"a.X.city"}, slices.Collect(maps.Keys(shapes[0].Properties.Params.Properties)))
		assert.Empty(t, shapes[1].Properties.Params.Properties, "a ready plan takes no value from the model")
	})

	t.Run("fields in the order a model writes them", func(t *testing.T) {
		raw := string(llm.Schema(planner.Context{Candidates: []planner.Candidate{missing("a.X")}}))
		call := raw[strings.Index(raw, `"anyOf":[`):] // call_api's shape is the first
		var last int
		for _, key := range []string{`"dependency_rank"`, `"intent"`, `"action"`, `"target_api"`, `"params"`} {
			i := strings.Index(call, key)
			require.Positive(t, i, key)
			assert.Greater(t, i, last, "%s comes after the fields before it", key)
			last = i
		}
	})
}
