package llm

import (
	"testing"

	"github.com/naviagent/navi/planner"
)

// FuzzParseDecisions feeds arbitrary model output to the decision parser: it may refuse it,
// never panic, and what it accepts is a protocol-valid decision list.
// Run with: go test -fuzz FuzzParseDecisions ./planner/llm
func FuzzParseDecisions(f *testing.F) {
	for _, seed := range []string{
		`[{"dependency_rank": 1, "action": "call_api", "target_api": "geo.Geocode", "params": {"city": "Rome"}}]`,
		"```json\n[{\"dependency_rank\": 1, \"action\": \"direct_answer\", \"answer\": \"hi\"}]\n```",
		`{"dependency_rank": 1, "action": "retrieve_api", "recall_description": "weather"}`,
		`[{"dependency_rank": "1", "action": "clarify_intent"}`,
		`Sure! Here is my decision: [{"action": "call_api"}] hope it helps`,
		``, `null`, `[]`, `[{}]`, "\x00\xff",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, content string) {
		ds, err := ParseDecisions(content)
		if err != nil {
			return
		}
		for _, d := range ds {
			switch d.Action {
			case planner.DirectAnswer, planner.ClarifyIntent, planner.RetrieveAPI, planner.CallAPI:
			default:
				t.Fatalf("accepted an unknown action %q from %q", d.Action, content)
			}
		}
	})
}
