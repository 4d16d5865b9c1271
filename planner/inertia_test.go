package planner

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestInertial(t *testing.T) {
	proven := weatherCandidate("Rome")
	proven.Proven = DefaultOptions.InertiaMinRuns
	unproven := weatherCandidate("Rome")
	unproven.Proven = DefaultOptions.InertiaMinRuns - 1
	retrieved := func(c Candidate) Context {
		return Context{Query: "weather in Rome", Recalled: []string{"weather in Rome"}, Candidates: []Candidate{c}}
	}
	after := func(d Decision) Context {
		c := retrieved(proven)
		c.Called, c.Completed = []string{"geo.Geocode", "weather.Current"}, []string{"weather.Current"}
		c.Results = map[string]map[string]any{"weather.Current": {"temperature": 21}}
		c.History = []Turn{{Observation: "retrieved", Decision: d}}
		return c
	}
	call, _ := Inertial(retrieved(proven))
	failed := retrieved(proven)
	failed.Failed = []string{"skycast.Now"}
	answered := retrieved(unproven)
	answered.History = []Turn{{Decision: Decision{Action: ClarifyIntent, Answer: "Which city?"}}}
	answered.Clarifications = []QA{{Question: "Which city?", Answer: "Rome"}}
	answeredThenRecalled := answered
	answeredThenRecalled.History = append(answered.History, Turn{Decision: Decision{Action: RetrieveAPI, RecallDescription: "q"}})
	answeredThenRecalled.Candidates = []Candidate{weatherCandidate("")}
	tests := []struct {
		name   string
		c      Context
		ok     bool
		action Action
	}{
		{"a proven chain is called", retrieved(proven), true, CallAPI},
		{"an unproven one is the model's", retrieved(unproven), false, ""},
		{"the first retrieval", Context{Query: "weather in Rome"}, true, RetrieveAPI},
		{"a later first retrieval is the model's", Context{Query: "weather in Rome", History: []Turn{{Decision: Decision{Action: ClarifyIntent}}}}, false, ""},
		{"after a failure the model decides", failed, false, ""},
		{"the retrieval after an answer", answered, true, RetrieveAPI},
		{"a retrieval later than that is the model's", answeredThenRecalled, false, ""},
		{"the answer after an inertial call", after(call), true, DirectAnswer},
		{"the answer after the model's call is the model's", after(Decision{Action: CallAPI, TargetAPI: "weather.Current"}), false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, ok := Inertial(tt.c)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.action, d.Action)
			assert.Equal(t, ok, IsInertial(d))
			if ok {
				assert.False(t, Project(tt.c, d).Replaced, "an inertial step is admissible")
			}
		})
	}
	assert.Equal(t, "weather.Current", call.TargetAPI)
	assert.Contains(t, call.Analysis, "ran well in 3 earlier runs")
}
