package activities_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/planner/llm"
	"github.com/naviagent/navi/planner/llm/llmtest"
)

const decideModel = "navi-test-model"

func decide(t *testing.T, a *activities.Activities, in activities.DecideInput) (planner.Result, error) {
	t.Helper()
	return execute[planner.Result](t, a, "Decide", in)
}

// llmPlanner is the real LLM planner talking to a scripted endpoint.
func llmPlanner(t *testing.T, srv *llmtest.Server) planner.Planner {
	t.Helper()
	p, err := llm.New(llm.Config{BaseURL: srv.URL + "/v1", Model: decideModel, APIKey: "sk-navi-test"})
	require.NoError(t, err)
	return p
}

func startContext(query string) planner.Context {
	return planner.Context{Query: query, Observation: "the user asked", Step: 1, MaxSteps: 8}
}

func TestDecideGraphFirst(t *testing.T) {
	const query = "What is the current weather in Paris?"
	for _, name := range []string{activities.PlannerGraphFirst, ""} {
		t.Run("planner "+name, func(t *testing.T) {
			res, err := decide(t, &activities.Activities{}, activities.DecideInput{Planner: name, Context: startContext(query)})
			require.NoError(t, err)
			assert.Equal(t, planner.GraphFirstName, res.Planner)
			require.Len(t, res.Decisions, 1)
			d := res.Decisions[0]
			assert.Equal(t, planner.RetrieveAPI, d.Action, "with no candidates yet, the first step recalls APIs")
			assert.Equal(t, query, d.RecallDescription)
			assert.Equal(t, planner.Usage{Decisions: 1}, res.Usage, "graph-first calls no model")
		})
	}
}

func TestDecideLLM(t *testing.T) {
	retrieveWeather := planner.Decision{DependencyRank: 1, Intent: "weather in Paris", Action: planner.RetrieveAPI,
		RecallDescription: "current weather of a city"}
	for _, name := range []string{activities.PlannerLLM, ""} {
		t.Run("planner "+name, func(t *testing.T) {
			srv := llmtest.Script(t, llmtest.Answer(retrieveWeather))
			a := &activities.Activities{LLM: llmPlanner(t, srv)}
			// NoInertia: a run's first retrieval is otherwise inertial (TestDecideInertia).
			res, err := decide(t, a, activities.DecideInput{Planner: name, Context: startContext("What is the current weather in Paris?"), NoInertia: true})
			require.NoError(t, err)
			assert.Equal(t, "llm:"+decideModel, res.Planner, "the worker's LLM decides")
			assert.Equal(t, []planner.Decision{retrieveWeather}, res.Decisions)
			assert.Equal(t, 1, res.Usage.LLMCalls)
			assert.Equal(t, 1, srv.Count())
			assert.Contains(t, srv.Last(t).User(), "What is the current weather in Paris?")
		})
	}

	t.Run("graph-first asked for by name", func(t *testing.T) {
		srv := llmtest.Script(t)
		res, err := decide(t, &activities.Activities{LLM: llmPlanner(t, srv)},
			activities.DecideInput{Planner: activities.PlannerGraphFirst, Context: startContext("weather in Paris")})
		require.NoError(t, err)
		assert.Equal(t, planner.GraphFirstName, res.Planner)
		assert.Zero(t, srv.Count(), "the LLM is not called")
	})
}

// Decide projects the first decision onto what the context admits, and returns the projection
// beside the decision: an admissible one as it is, an inadmissible one replaced.
func TestDecideProjects(t *testing.T) {
	tests := []struct {
		name     string
		proposed planner.Decision
		replaced bool
		executed planner.Action
	}{
		{"admissible", planner.Decision{DependencyRank: 1, Action: planner.RetrieveAPI, RecallDescription: "current weather of a city"},
			false, planner.RetrieveAPI},
		// No API was retrieved yet: a call of one cannot run, and graph-first recalls instead.
		{"replaced", planner.Decision{DependencyRank: 1, Action: planner.CallAPI, TargetAPI: "made.Up"}, true, planner.RetrieveAPI},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.Script(t, llmtest.Answer(tt.proposed))
			res, err := decide(t, &activities.Activities{LLM: llmPlanner(t, srv)},
				activities.DecideInput{Context: startContext("What is the current weather in Paris?"), NoInertia: true})
			require.NoError(t, err)
			require.NotNil(t, res.Projection)
			assert.Equal(t, tt.replaced, res.Projection.Replaced)
			assert.Equal(t, map[bool]int{true: 1}[tt.replaced], res.Usage.Replaced, "a replaced decision is counted")
			assert.Equal(t, tt.executed, res.Projection.Decision.Action)
			assert.Equal(t, tt.proposed.Action, res.Decisions[0].Action, "the planner's own decision is kept beside it")
			if tt.replaced {
				assert.Contains(t, res.Projection.Reason, "made.Up")
			}
		})
	}
}

func TestDecideErrors(t *testing.T) {
	tests := []struct {
		name      string
		planner   string
		responses []llmtest.Response // nil: the worker has no LLM
		wantType  string
		retryable bool
		wantMsg   []string
		calls     int
	}{
		{name: "llm without an LLM", planner: activities.PlannerLLM,
			wantType: activities.ErrTypeNoLLM, wantMsg: []string{"NAVI_LLM_BASE_URL", "NAVI_LLM_MODEL"}},
		{name: "unknown planner", planner: "oracle",
			wantType: activities.ErrTypeInvalidInput, wantMsg: []string{`planner "oracle" is not one of graph-first, llm`}},
		{name: "401", planner: activities.PlannerLLM,
			responses: []llmtest.Response{{Status: http.StatusUnauthorized, Message: "Incorrect API key provided"}},
			wantType:  activities.ErrTypeLLMUnauthorized, calls: 1, wantMsg: []string{"refused the credentials", "401"}},
		{name: "403", planner: "",
			responses: []llmtest.Response{{Status: http.StatusForbidden}},
			wantType:  activities.ErrTypeLLMUnauthorized, calls: 1, wantMsg: []string{"403"}},
		{name: "unknown model", planner: activities.PlannerLLM,
			responses: []llmtest.Response{{Status: http.StatusNotFound, Message: "The model `" + decideModel + "` does not exist"}},
			wantType:  activities.ErrTypeLLMRejected, calls: 1, wantMsg: []string{"rejected the request", "404", "does not exist"}},
		{name: "server error", planner: activities.PlannerLLM,
			responses: []llmtest.Response{{Status: http.StatusInternalServerError}},
			retryable: true, calls: 1, wantMsg: []string{"decide step 1", "500"}},
		{name: "rate limited", planner: activities.PlannerLLM,
			responses: []llmtest.Response{{Status: http.StatusTooManyRequests}},
			retryable: true, calls: 1, wantMsg: []string{"429"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &activities.Activities{}
			var srv *llmtest.Server
			if tt.responses != nil {
				srv = llmtest.Script(t, tt.responses...)
				a.LLM = llmPlanner(t, srv)
			}
			_, err := decide(t, a, activities.DecideInput{Planner: tt.planner, Context: startContext("What is the current weather in Paris?"), NoInertia: true})
			appErr := requireAppError(t, err, tt.wantType, !tt.retryable)
			for _, m := range tt.wantMsg {
				assert.Contains(t, appErr.Error(), m)
			}
			assert.NotContains(t, appErr.Error(), "sk-navi-test", "the API key never shows")
			if srv != nil {
				assert.Equal(t, tt.calls, srv.Count(), "model calls")
			}
		})
	}
}

// An LLM answer that stays invalid after the repair does not fail the step: the graph-first
// planner decides it, and the result says why and keeps what the two calls cost.
func TestDecideFallsBackOnInvalidOutput(t *testing.T) {
	tests := []struct {
		name      string
		responses []llmtest.Response
		wantMsg   []string
	}{
		{name: "invalid JSON twice",
			responses: []llmtest.Response{{Content: `{"decisions": [`}, {Content: "I would look up the weather."}},
			wantMsg: []string{"invalid planner output", "llm:" + decideModel,
				"first answer: your answer is not valid JSON", `(output "{\"decisions\": [")`,
				"repair answer: your answer contains no JSON", `(output "I would look up the weather.")`}},
		{name: "an unknown action twice",
			responses: []llmtest.Response{
				{Content: `{"decisions": [{"dependency_rank": 1, "action": "search"}]}`},
				{Content: `{"decisions": [{"dependency_rank": 1, "action": "search"}]}`}},
			wantMsg: []string{`action "search" is not one of`}},
		{name: "no decisions",
			responses: []llmtest.Response{{Content: `{"decisions": []}`}, {Content: `[]`}},
			wantMsg:   []string{"no decisions"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.Script(t, tt.responses...)
			in := activities.DecideInput{Planner: activities.PlannerLLM, Context: startContext("What is the current weather in Paris?"), NoInertia: true}
			res, err := decide(t, &activities.Activities{LLM: llmPlanner(t, srv)}, in)
			require.NoError(t, err)
			want, err := planner.GraphFirst{}.Decide(context.Background(), in.Context)
			require.NoError(t, err)
			assert.Equal(t, want.Decisions, res.Decisions, "the graph-first planner's decisions")
			require.NotNil(t, res.Projection)
			assert.Equal(t, "llm:"+decideModel, res.Planner)
			for _, m := range tt.wantMsg {
				assert.Contains(t, res.Fallback, m)
			}
			assert.Equal(t, 2, srv.Count(), "model calls")
			assert.Equal(t, 2, res.Usage.LLMCalls, "both calls are counted")
			assert.Equal(t, 1, res.Usage.Invalid)
			assert.Positive(t, res.Usage.PromptTokens)
		})
	}
}

// A step that is sure runs without the LLM: a run's first retrieval, the call of a proven
// chain's target, then the answer. NoInertia asks the LLM every step.
func TestDecideInertia(t *testing.T) {
	first := llmtest.Script(t, llmtest.Answer(planner.Decision{Action: planner.RetrieveAPI, RecallDescription: "weather"}))
	res, err := decide(t, &activities.Activities{LLM: llmPlanner(t, first)},
		activities.DecideInput{Planner: activities.PlannerLLM, Context: startContext("What is the current weather in Rome?")})
	require.NoError(t, err)
	assert.Equal(t, planner.InertiaName, res.Planner)
	assert.Equal(t, planner.Usage{LLMSaved: 1, Decisions: 1}, res.Usage)
	assert.Equal(t, planner.RetrieveAPI, res.Projection.Decision.Action)
	assert.Equal(t, "What is the current weather in Rome?", res.Projection.Decision.RecallDescription, "with the request itself")
	assert.Zero(t, first.Count(), "no LLM call")

	cand := planner.Candidate{API: "weather.Current", Status: "active", Score: 1, Proven: planner.DefaultOptions.InertiaMinRuns,
		Plan: planner.Plan{Target: "weather.Current", Steps: []planner.PlanStep{{API: "weather.Current",
			Bindings: []planner.Binding{{Param: "latitude", Required: true, Source: planner.SourceGiven, Value: "41.9"}}}}}}
	c := startContext("What is the current weather in Rome?")
	c.Recalled, c.Candidates = []string{c.Query}, []planner.Candidate{cand}

	srv := llmtest.Script(t, llmtest.Answer(planner.Decision{Action: planner.CallAPI, TargetAPI: "weather.Current"}))
	a := &activities.Activities{LLM: llmPlanner(t, srv)}
	res, err = decide(t, a, activities.DecideInput{Planner: activities.PlannerLLM, Context: c})
	require.NoError(t, err)
	assert.Equal(t, planner.InertiaName, res.Planner)
	assert.Equal(t, planner.Usage{LLMSaved: 1, Decisions: 1}, res.Usage)
	require.NotNil(t, res.Projection)
	assert.Equal(t, "weather.Current", res.Projection.Decision.TargetAPI)
	assert.False(t, res.Projection.Replaced)
	assert.Zero(t, srv.Count(), "no LLM call")

	c.Called, c.Completed = []string{"weather.Current"}, []string{"weather.Current"}
	c.Results = map[string]map[string]any{"weather.Current": {"temperature": 21}}
	c.History = []planner.Turn{{Observation: "retrieved", Decision: res.Projection.Decision}}
	res, err = decide(t, a, activities.DecideInput{Planner: activities.PlannerLLM, Context: c})
	require.NoError(t, err)
	assert.Equal(t, planner.DirectAnswer, res.Projection.Decision.Action)
	assert.Equal(t, planner.InertiaName, res.Planner)
	assert.Zero(t, srv.Count(), "the answer needs no LLM call either")

	res, err = decide(t, a, activities.DecideInput{Planner: activities.PlannerLLM, Context: c, NoInertia: true})
	require.NoError(t, err)
	assert.Equal(t, "llm:"+decideModel, res.Planner)
	assert.Equal(t, 1, srv.Count(), "without inertia the LLM decides")
}
