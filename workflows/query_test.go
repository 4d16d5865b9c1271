package workflows

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/converter"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/planner/llm"
	"github.com/naviagent/navi/toolcall"
	"github.com/naviagent/navi/twnm"
)

// These tests run QueryWorkflow in Temporal's test suite with the real Decide activity (the
// graph-first planner, or a scripted planner standing in for the LLM) and the activities that
// reach Neo4j and the tools replaced by canned results. The integration tests in e2e_test.go
// run the same workflow against the real services.

func newEnv(_ testing.TB, llmPlanner planner.Planner) *testsuite.TestWorkflowEnvironment {
	var s testsuite.WorkflowTestSuite
	s.SetLogger(sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))))
	env := s.NewTestWorkflowEnvironment()
	acts := &activities.Activities{LLM: llmPlanner}
	Register(env, acts)
	RegisterBareNames(env, acts) // the runs that take the old paths (GetVersion mocked) schedule these
	return env
}

func api(name string, inputs, outputs []string) twnm.API {
	a := twnm.API{Name: name, Description: name + " does its job.", Endpoint: &twnm.Endpoint{Method: "GET", Path: "/x", BaseURL: "http://tools"}}
	for _, in := range inputs {
		a.Inputs = append(a.Inputs, twnm.Param{Name: in, Type: "string", Required: true})
	}
	for _, out := range outputs {
		a.Outputs = append(a.Outputs, twnm.Param{Name: out, Type: "string"})
	}
	return a
}

var testAPIs = map[string]twnm.API{
	"geo.Geocode":     api("geo.Geocode", []string{"city"}, []string{"latitude", "longitude"}),
	"weather.Current": api("weather.Current", []string{"latitude", "longitude"}, []string{"temp_c"}),
	"skycast.Now":     api("skycast.Now", []string{"latitude", "longitude"}, []string{"temp_c"}),
	"opengeo.Locate":  api("opengeo.Locate", []string{"city_name"}, []string{"lat", "lon"}),
}

// geoPlan is geo.Geocode(city) → target(latitude, longitude).
func geoPlan(target, city string) planner.Plan {
	b := planner.Binding{Param: "city", Required: true, Source: planner.SourceMissing}
	if city != "" {
		b.Source, b.Value = planner.SourceGiven, city
	}
	return planner.Plan{Target: target, Score: 0.7, Steps: []planner.PlanStep{
		{API: "geo.Geocode", Bindings: []planner.Binding{b}},
		{API: target, Bindings: []planner.Binding{
			{Param: "latitude", Required: true, Source: planner.SourceUpstream, FromAPI: "geo.Geocode", FromOutput: "latitude"},
			{Param: "longitude", Required: true, Source: planner.SourceUpstream, FromAPI: "geo.Geocode", FromOutput: "longitude"},
		}},
	}}
}

func retrieved(city string) activities.RetrieveResult {
	return activities.RetrieveResult{
		Candidates: []planner.Candidate{{API: "weather.Current", Description: "Current weather at a point.", Score: 0.8, Status: "active",
			Plan: geoPlan("weather.Current", city)}},
		Tree: "weather.Current (score 0.70)\n", APIs: testAPIs,
	}
}

func toolOK(out map[string]any) activities.CallToolResult {
	return activities.CallToolResult{Result: toolcall.Result{Status: 200, Output: out}}
}

var (
	rome    = map[string]any{"latitude": 41.9028, "longitude": 12.4964}
	weather = map[string]any{"temp_c": 21.5}
)

func onCall(env *testsuite.TestWorkflowEnvironment, apiName string) *testsuite.MockCallWrapper {
	return env.OnActivity("navi.CallTool", mock.Anything, mock.MatchedBy(func(in activities.CallToolInput) bool { return in.API.Name == apiName }))
}

func onRecombine(env *testsuite.TestWorkflowEnvironment, strategy string) *testsuite.MockCallWrapper {
	return env.OnActivity("navi.Recombine", mock.Anything, mock.MatchedBy(func(in activities.RecombineInput) bool { return in.Strategy == strategy }))
}

// onWeatherAt expects weather.Current called once at the point, and answers the weather.
func onWeatherAt(t *testing.T, env *testsuite.TestWorkflowEnvironment, lat, lon string) {
	onCall(env, "weather.Current").Return(func(_ context.Context, in activities.CallToolInput) (activities.CallToolResult, error) {
		assert.Equal(t, map[string]string{"latitude": lat, "longitude": lon}, in.Args)
		return toolOK(weather), nil
	}).Once()
}

// feedbackSink records what the feedback activity was given.
type feedbackSink struct {
	mu   sync.Mutex
	runs []activities.FeedbackInput
}

func (f *feedbackSink) on(env *testsuite.TestWorkflowEnvironment) {
	env.OnActivity("navi.RecordFeedback", mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.FeedbackInput) (activities.FeedbackResult, error) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.runs = append(f.runs, in)
		return activities.FeedbackResult{Recorded: in, Fresh: true}, nil
	})
}

func result(t *testing.T, env *testsuite.TestWorkflowEnvironment) QueryResult {
	t.Helper()
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, env.GetWorkflowError())
	var res QueryResult
	require.NoError(t, env.GetWorkflowResult(&res))
	return res
}

func state(t *testing.T, env *testsuite.TestWorkflowEnvironment) QueryState {
	t.Helper()
	v, err := env.QueryWorkflow(StateQuery)
	require.NoError(t, err)
	var s QueryState
	require.NoError(t, v.Get(&s))
	return s
}

func traceKinds(s QueryState) []string {
	out := make([]string, len(s.Trace))
	for i, e := range s.Trace {
		mark := "+"
		if !e.OK {
			mark = "-"
		}
		out[i] = e.Kind + mark
	}
	return out
}

func TestQueryWorkflowRunsAChainAndAnswers(t *testing.T) {
	env := newEnv(t, nil)
	// The days the request names relative to today are dated from the day the run started.
	env.SetStartTime(time.Date(2026, 11, 25, 23, 30, 0, 0, time.FixedZone("UTC-2", -2*3600)))
	env.OnActivity("navi.Retrieve", mock.Anything, mock.MatchedBy(func(in activities.RetrieveInput) bool {
		return in.Description == "weather in Rome" && in.Text == "weather in Rome" && in.Today == "2026-11-26"
	})).Return(retrieved("Rome"), nil).Once()
	// The geocoder's answer showed a field its record does not list: the feedback carries it.
	geocoded := toolOK(rome)
	geocoded.Observed = []twnm.Param{{Name: "country", Type: "string", Path: "address.country"}}
	onCall(env, "geo.Geocode").Return(func(_ context.Context, in activities.CallToolInput) (activities.CallToolResult, error) {
		assert.Equal(t, map[string]string{"city": "Rome"}, in.Args)
		return geocoded, nil
	}).Once()
	onCall(env, "weather.Current").Return(func(_ context.Context, in activities.CallToolInput) (activities.CallToolResult, error) {
		// Outputs of the first step are bound into the second, numbers written plainly.
		assert.Equal(t, map[string]string{"latitude": "41.9028", "longitude": "12.4964"}, in.Args)
		return toolOK(weather), nil
	}).Once()
	var fb feedbackSink
	fb.on(env)

	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: " weather in Rome "})
	res := result(t, env)
	assert.Equal(t, StatusAnswered, res.Status)
	assert.Equal(t, PlannerGraphFirst, res.Planner)
	assert.Equal(t, "weather.Current answered: temp_c: 21.5.", res.Answer)
	assert.Equal(t, []string{"geo.Geocode", "weather.Current"}, []string(res.Chain))
	assert.Equal(t, 3, res.Steps, "retrieve, call, answer")
	assert.Equal(t, 2, res.ToolCalls)
	assert.Zero(t, res.Usage.LLMCalls)
	assert.Equal(t, 21.5, res.Results["weather.Current"]["temp_c"])

	require.Len(t, fb.runs, 1)
	in := fb.runs[0]
	assert.Contains(t, in.Key, "/chain-1")
	require.Len(t, in.Invocations, 2)
	assert.Equal(t, geocoded.Observed, in.Invocations[0].Observed)
	assert.Equal(t, twnm.Invocation{API: "weather.Current", Inputs: []string{"latitude", "longitude"}, Success: true, Time: in.Invocations[1].Time}, in.Invocations[1])
	assert.Equal(t, []twnm.Transition{
		{Kind: twnm.Feeds, From: "geo.Geocode", To: "weather.Current", FromParam: "latitude", ToParam: "latitude", Success: true, Time: in.Transitions[0].Time},
		{Kind: twnm.Then, From: "geo.Geocode", To: "weather.Current", Success: true, Time: in.Transitions[0].Time},
		{Kind: twnm.Feeds, From: "geo.Geocode", To: "weather.Current", FromParam: "longitude", ToParam: "longitude", Success: true, Time: in.Transitions[0].Time},
	}, in.Transitions)

	s := state(t, env)
	assert.Equal(t, []string{"decide+", "retrieve+", "decide+", "call+", "call+", "decide+", "feedback+", "answer+"}, traceKinds(s))
	assert.Equal(t, []string{"geo.Geocode", "weather.Current"}, s.ToolsUsed)
	assert.Equal(t, "Rome", s.Plan.Steps[0].Bindings[0].Value)
	env.AssertExpectations(t)
}

// clarifyEnv is a test environment for "weather now": the city is missing, the run asks for
// it, and with "Rome" retrieval plans geo.Geocode → weather.Current, each called once.
func clarifyEnv(t *testing.T) *testsuite.TestWorkflowEnvironment {
	t.Helper()
	env := newEnv(t, nil)
	env.OnActivity("navi.Retrieve", mock.Anything, mock.MatchedBy(func(in activities.RetrieveInput) bool { return in.Text == "weather now" })).
		Return(retrieved(""), nil).Once()
	env.OnActivity("navi.Retrieve", mock.Anything, mock.MatchedBy(func(in activities.RetrieveInput) bool { return in.Text == "weather now\nRome" })).
		Return(retrieved("Rome"), nil).Once()
	onCall(env, "geo.Geocode").Return(toolOK(rome), nil).Once()
	onCall(env, "weather.Current").Return(toolOK(weather), nil).Once()
	(&feedbackSink{}).on(env)
	return env
}

func TestQueryWorkflowClarifies(t *testing.T) {
	env := clarifyEnv(t)

	var rejected, tooLarge, accepted error
	var answered string
	env.RegisterDelayedCallback(func() {
		s := state(t, env)
		assert.Equal(t, StatusWaiting, s.Status)
		assert.Contains(t, s.Question, "What is the city?")
		assert.Equal(t, []string{"geo.Geocode.city"}, s.QuestionParams)
		assert.False(t, s.Deadline.IsZero())
		env.UpdateWorkflow(AnswerUpdate, "empty", &testsuite.TestUpdateCallback{
			OnReject: func(err error) { rejected = err }, OnAccept: func() {}, OnComplete: func(any, error) {},
		}, ClarifyAnswer{Text: "  "})
		env.UpdateWorkflow(AnswerUpdate, "large", &testsuite.TestUpdateCallback{
			OnReject: func(err error) { tooLarge = err }, OnAccept: func() {}, OnComplete: func(any, error) {},
		}, ClarifyAnswer{Text: strings.Repeat("Rome ", 30)})
		env.UpdateWorkflow(AnswerUpdate, "rome", &testsuite.TestUpdateCallback{
			OnReject: func(err error) { accepted = err }, OnAccept: func() {},
			OnComplete: func(v any, err error) {
				require.NoError(t, err)
				answered, _ = v.(string)
			},
		}, ClarifyAnswer{Text: "Rome"})
	}, 3*time.Hour)

	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather now", Limits: Limits{MaxAnswerBytes: 100}})
	res := result(t, env)
	assert.Equal(t, StatusAnswered, res.Status)
	require.Error(t, rejected)
	assert.Contains(t, rejected.Error(), "the answer is empty")
	require.Error(t, tooLarge, "an answer over the run's limit is refused, and the run still takes the next")
	assert.Contains(t, tooLarge.Error(), "the answer is 150 B, over the limit of 100 B (NAVI_MAX_ANSWER_BYTES)")
	assert.NoError(t, accepted)
	assert.Contains(t, answered, "What is the city?", "the update returns the question it answered")
	s := state(t, env)
	assert.Empty(t, s.Question)
	assert.Contains(t, traceKinds(s), "clarify+")
	env.AssertExpectations(t)
}

func TestQueryWorkflowClarificationTimesOut(t *testing.T) {
	env := newEnv(t, nil)
	env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(retrieved(""), nil).Once()
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather now", ClarifyDeadline: 2 * time.Hour})
	res := result(t, env)
	assert.Equal(t, StatusClarifyTimeout, res.Status)
	assert.Contains(t, res.Answer, "within 2h0m0s")
	assert.Zero(t, res.ToolCalls)
}

func TestQueryWorkflowAnswerWithoutQuestionIsRejected(t *testing.T) {
	env := newEnv(t, nil)
	env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(retrieved("Rome"), nil)
	onCall(env, "geo.Geocode").Return(toolOK(rome), nil)
	onCall(env, "weather.Current").Return(toolOK(weather), nil)
	(&feedbackSink{}).on(env)
	var rejected error
	env.RegisterDelayedCallback(func() {
		env.UpdateWorkflow(AnswerUpdate, "x", &testsuite.TestUpdateCallback{
			OnReject: func(err error) { rejected = err }, OnAccept: func() {}, OnComplete: func(any, error) {},
		}, ClarifyAnswer{Text: "Rome"})
	}, 0)
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Rome"})
	result(t, env)
	require.Error(t, rejected)
	assert.Contains(t, rejected.Error(), "no question is pending")
}

func TestQueryWorkflowRecombines(t *testing.T) {
	skycast := geoPlan("skycast.Now", "Rome")
	tests := []struct {
		name     string
		found    string // the strategy that finds a plan; "" for none
		status   string
		chain    []string
		recombos int
	}{
		{"substitution", twnm.StrategySubstitution, StatusAnswered, []string{"geo.Geocode", "skycast.Now"}, 1},
		{"upstream reroute", twnm.StrategyUpstreamReroute, StatusAnswered, []string{"geo.Geocode", "skycast.Now"}, 1},
		{"subgraph switch", twnm.StrategySubgraphSwitch, StatusAnswered, []string{"geo.Geocode", "skycast.Now"}, 1},
		{"no alternative", "", StatusFailed, []string{"geo.Geocode"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(t, nil)
			env.OnActivity("navi.Retrieve", mock.Anything, mock.MatchedBy(func(in activities.RetrieveInput) bool { return len(in.Exclude) == 0 })).
				Return(retrieved("Rome"), nil).Once()
			onCall(env, "geo.Geocode").Return(toolOK(rome), nil).Once()
			onCall(env, "weather.Current").Return(activities.CallToolResult{},
				temporal.NewNonRetryableApplicationError("weather.Current: HTTP 410: deprecated", activities.ErrTypeToolRejected, nil)).Once()
			for _, s := range []string{twnm.StrategySubstitution, twnm.StrategyUpstreamReroute, twnm.StrategySubgraphSwitch} {
				res := activities.RecombineResult{Strategy: s, Reason: "no usable API other than weather.Current provides temp_c"}
				if s == tt.found {
					res = activities.RecombineResult{Found: true, Strategy: s, Reason: "skycast.Now replaces weather.Current", Plan: skycast, APIs: testAPIs}
				}
				onRecombine(env, s).Return(func(_ context.Context, in activities.RecombineInput) (activities.RecombineResult, error) {
					assert.Equal(t, 1, in.FailedStep)
					assert.Equal(t, []string{"weather.Current"}, in.Exclude)
					return res, nil
				}).Maybe()
			}
			onCall(env, "skycast.Now").Return(toolOK(weather), nil).Maybe()
			// After a failure with no alternative, graph-first recalls again without the failed API.
			env.OnActivity("navi.Retrieve", mock.Anything, mock.MatchedBy(func(in activities.RetrieveInput) bool { return len(in.Exclude) == 1 })).
				Return(activities.RetrieveResult{}, nil).Maybe()
			var fb feedbackSink
			fb.on(env)

			env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Rome"})
			res := result(t, env)
			assert.Equal(t, tt.status, res.Status, res.Answer)
			assert.Equal(t, tt.chain, []string(res.Chain))
			assert.Equal(t, tt.recombos, res.Recombinations)
			s := state(t, env)
			var recombs []string
			for _, e := range s.Trace {
				if e.Kind == TraceRecombine {
					recombs = append(recombs, fmt.Sprintf("%v %s", e.OK, strings.SplitN(e.Summary, ":", 2)[0]))
				}
			}
			var want []string
			for _, st := range recombinationStrategies {
				if st == tt.found {
					want = append(want, "true "+st)
					break
				}
				want = append(want, "false "+st+" for weather.Current")
			}
			assert.Equal(t, want, recombs, "each strategy is a step of its own")
			if tt.found == "" {
				assert.Contains(t, res.Answer, "weather.Current failed")
			} else {
				assert.Equal(t, "skycast.Now answered: temp_c: 21.5.", res.Answer)
				assert.Equal(t, 1, fb.countFailures("weather.Current"))
			}
		})
	}
}

func (f *feedbackSink) countFailures(api string) int {
	n := 0
	for _, r := range f.runs {
		for _, inv := range r.Invocations {
			if inv.API == api && !inv.Success {
				n++
			}
		}
	}
	return n
}

func TestQueryWorkflowRecombinesAfterDrift(t *testing.T) {
	env := newEnv(t, nil)
	env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(retrieved("Rome"), nil).Once()
	// geo.Geocode answers, but with its outputs renamed: weather.Current cannot be bound.
	onCall(env, "geo.Geocode").Return(toolOK(map[string]any{"latitude_v2": 41.9, "longitude": 12.5}), nil).Once()
	locate := planner.Plan{Target: "weather.Current", Steps: []planner.PlanStep{
		{API: "opengeo.Locate", Bindings: []planner.Binding{{Param: "city_name", Required: true, Source: planner.SourceGiven, Value: "Rome"}}},
		{API: "weather.Current", Bindings: []planner.Binding{
			{Param: "latitude", Required: true, Source: planner.SourceUpstream, FromAPI: "opengeo.Locate", FromOutput: "lat"},
			{Param: "longitude", Required: true, Source: planner.SourceUpstream, FromAPI: "opengeo.Locate", FromOutput: "lon"},
		}},
	}}
	onRecombine(env, twnm.StrategySubstitution).Return(func(_ context.Context, in activities.RecombineInput) (activities.RecombineResult, error) {
		assert.Equal(t, 0, in.FailedStep, "the producer that drifted is the failed step")
		return activities.RecombineResult{Found: true, Strategy: twnm.StrategySubstitution, Plan: locate, APIs: testAPIs}, nil
	}).Once()
	onCall(env, "opengeo.Locate").Return(toolOK(map[string]any{"lat": 41.9, "lon": 12.5}), nil).Once()
	onWeatherAt(t, env, "41.9", "12.5")
	(&feedbackSink{}).on(env)
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Rome"})
	res := result(t, env)
	assert.Equal(t, StatusAnswered, res.Status)
	assert.Equal(t, []string{"geo.Geocode", "opengeo.Locate", "weather.Current"}, []string(res.Chain))
	env.AssertExpectations(t)
}

func TestQueryWorkflowBudgetExhausted(t *testing.T) {
	env := newEnv(t, nil)
	env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(retrieved(""), nil).Once()
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather now", MaxSteps: 1})
	res := result(t, env)
	assert.Equal(t, StatusBudgetExhausted, res.Status)
	assert.Equal(t, 1, res.Steps)
	assert.Contains(t, res.Answer, "budget of 1 planner steps")
}

func TestQueryWorkflowNoTools(t *testing.T) {
	env := newEnv(t, nil)
	env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(activities.RetrieveResult{}, nil).Once()
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "translate this poem"})
	res := result(t, env)
	assert.Equal(t, StatusNoTools, res.Status)
	assert.Equal(t, 2, res.Steps)
}

func TestQueryWorkflowRejectsEmptyQuery(t *testing.T) {
	env := newEnv(t, nil)
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "  "})
	require.True(t, env.IsWorkflowCompleted())
	var appErr *temporal.ApplicationError
	require.ErrorAs(t, env.GetWorkflowError(), &appErr)
	assert.Equal(t, activities.ErrTypeInvalidInput, appErr.Type())
}

// A query over the run's limit ends the run at once, before it enters any command: no
// activity runs and nothing jams.
func TestQueryWorkflowRejectsOversizedQuery(t *testing.T) {
	for _, tt := range []struct {
		name   string
		limits Limits
		size   int
		want   string
	}{
		{"the default limit", Limits{}, 450 << 10, "the query is 450 KiB, over the limit of 16 KiB (NAVI_MAX_QUERY_BYTES)"},
		{"a lower limit", Limits{MaxQueryBytes: 1000}, 1001, "the query is 1001 B, over the limit of 1000 B"},
		{"no limit above the cap", Limits{MaxQueryBytes: 1 << 30}, 300 << 10, "over the limit of 256 KiB"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(t, nil)
			env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: strings.Repeat("x", tt.size), Limits: tt.limits})
			require.True(t, env.IsWorkflowCompleted())
			var appErr *temporal.ApplicationError
			require.ErrorAs(t, env.GetWorkflowError(), &appErr)
			assert.Equal(t, ErrTypeInputTooLarge, appErr.Type())
			assert.True(t, appErr.NonRetryable())
			assert.Contains(t, appErr.Message(), tt.want)
			env.AssertExpectations(t) // no activity was expected, and none ran
		})
	}
	// At the limit, the run goes on (and ends for another reason: these tests have no graph).
	env := newEnv(t, nil)
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: strings.Repeat("x", 1000), Limits: Limits{MaxQueryBytes: 1000}})
	var appErr *temporal.ApplicationError
	if errors.As(env.GetWorkflowError(), &appErr) {
		assert.NotEqual(t, ErrTypeInputTooLarge, appErr.Type())
	}
}

func TestQueryWorkflowContinuesAsNew(t *testing.T) {
	env := newEnv(t, nil)
	env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(retrieved("Rome"), nil).Once()
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Rome", ContinueAfter: 1})
	require.True(t, env.IsWorkflowCompleted())
	var can *workflow.ContinueAsNewError
	require.ErrorAs(t, env.GetWorkflowError(), &can)
	var next QueryRequest
	require.NoError(t, converter.GetDefaultDataConverter().FromPayloads(can.Input, &next))
	require.NotNil(t, next.Carry)
	assert.Equal(t, 1, next.Carry.State.Step)
	assert.Equal(t, []string{"weather in Rome"}, next.Carry.Context.Recalled)
	assert.Len(t, next.Carry.Context.Candidates, 1)

	// The continuation picks up where the first run stopped: no second retrieval.
	assert.Equal(t, 1, next.ContinueAfter, "the options carry over")
	next.ContinueAfter = 0
	env2 := newEnv(t, nil)
	onCall(env2, "geo.Geocode").Return(toolOK(rome), nil).Once()
	onCall(env2, "weather.Current").Return(toolOK(weather), nil).Once()
	(&feedbackSink{}).on(env2)
	env2.ExecuteWorkflow(QueryWorkflow, next)
	res := result(t, env2)
	assert.Equal(t, StatusAnswered, res.Status)
	assert.Equal(t, 3, res.Steps, "steps count across runs")
	env2.AssertExpectations(t)
}

// scriptedPlanner stands in for the LLM planner: it returns its decisions in order, each
// costing one call.
type scriptedPlanner struct {
	mu        sync.Mutex
	decisions []planner.Decision
	err       error
	seen      []planner.Context
}

func (p *scriptedPlanner) Decide(_ context.Context, c planner.Context) (planner.Result, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seen = append(p.seen, c)
	usage := planner.Usage{LLMCalls: 1, PromptTokens: 100, CompletionTokens: 20}
	if p.err != nil {
		return planner.Result{Planner: "llm:test", Usage: usage}, p.err
	}
	d := p.decisions[0]
	p.decisions = p.decisions[1:]
	return planner.Result{Planner: "llm:test", Decisions: []planner.Decision{d}, Usage: usage}, nil
}

// arrayPlanner stands in for an LLM that answers a decision array per step.
type arrayPlanner struct {
	mu    sync.Mutex
	steps [][]planner.Decision
}

func (p *arrayPlanner) Decide(context.Context, planner.Context) (planner.Result, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	ds := p.steps[0]
	p.steps = p.steps[1:]
	return planner.Result{Planner: "llm:test", Decisions: ds, Usage: planner.Usage{LLMCalls: 1}}, nil
}

// An LLM's decision array runs whole: its two call_api sub-intents of one rank run in one
// step, the geocoding they share called once; the next step answers from both.
func TestQueryWorkflowRunsTheLLMsDecisionArray(t *testing.T) {
	call := func(api string) planner.Decision {
		return planner.Decision{Action: planner.CallAPI, TargetAPI: api, DependencyRank: 1}
	}
	p := &arrayPlanner{steps: [][]planner.Decision{
		{{Action: planner.RetrieveAPI, RecallDescription: "weather", DependencyRank: 1}},
		{call("weather.Current"), call("skycast.Now"), call("made.Up"), {Action: planner.CallAPI, TargetAPI: "news.Top", DependencyRank: 2}},
		{{Action: planner.DirectAnswer, Answer: "21.5 °C on both services.", DependencyRank: 1}},
	}}
	env := newEnv(t, p)
	res := retrieved("Rome")
	res.Candidates = append(res.Candidates, planner.Candidate{API: "skycast.Now", Score: 0.7, Status: "active", Plan: geoPlan("skycast.Now", "Rome")})
	res.APIs["skycast.Now"] = testAPIs["skycast.Now"]
	env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(res, nil).Once()
	onCall(env, "geo.Geocode").Return(toolOK(rome), nil).Once()
	onCall(env, "skycast.Now").Return(toolOK(weather), nil).Once()
	onWeatherAt(t, env, "41.9028", "12.4964")
	(&feedbackSink{}).on(env)
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "the weather in Rome from both services", Planner: activities.PlannerLLM, NoInertia: true})
	out := result(t, env)
	require.Equal(t, StatusAnswered, out.Status, out.Answer)
	assert.Equal(t, "21.5 °C on both services.", out.Answer)
	assert.Equal(t, 3, out.ToolCalls, "one geocoding for two consumers")
	assert.Equal(t, 3, out.Steps, "retrieve, both calls, answer")
	var decided []string
	for _, e := range state(t, env).Trace {
		if e.Kind == TraceDecide {
			decided = append(decided, e.Summary)
		}
	}
	require.Len(t, decided, 3)
	assert.Equal(t, "llm:test decided call_api weather.Current, with skycast.Now (left out: made.Up is not among the candidate APIs "+
		"(weather.Current, skycast.Now)) (+1 later sub-intents)", decided[1])
	env.AssertExpectations(t)
}

func TestQueryWorkflowProjectsLLMDecisions(t *testing.T) {
	p := &scriptedPlanner{decisions: []planner.Decision{
		{Action: planner.RetrieveAPI, RecallDescription: "WeatherAPI(description: current weather)"},
		{Action: planner.CallAPI, TargetAPI: "made.Up"}, // not a candidate: projected
		{Action: planner.DirectAnswer, Answer: "It is 21.5 °C in Rome."},
	}}
	env := newEnv(t, p)
	env.OnActivity("navi.Retrieve", mock.Anything, mock.MatchedBy(func(in activities.RetrieveInput) bool {
		return in.Description == "WeatherAPI(description: current weather)" && in.Text == "weather in Rome"
	})).Return(retrieved("Rome"), nil).Once()
	onCall(env, "geo.Geocode").Return(toolOK(rome), nil).Once()
	onCall(env, "weather.Current").Return(toolOK(weather), nil).Once()
	(&feedbackSink{}).on(env)
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Rome", NoInertia: true})
	res := result(t, env)
	assert.Equal(t, StatusAnswered, res.Status)
	assert.Equal(t, "It is 21.5 °C in Rome.", res.Answer)
	assert.Equal(t, "llm:test", res.Planner)
	assert.Equal(t, planner.Usage{LLMCalls: 3, PromptTokens: 300, CompletionTokens: 60, Decisions: 3, Replaced: 1}, res.Usage)
	s := state(t, env)
	var projected string
	for _, e := range s.Trace {
		if e.Kind == TraceProject {
			projected = e.Summary
		}
	}
	assert.Equal(t, "call_api made.Up is not admissible (made.Up is not among the candidate APIs (weather.Current)); doing call_api weather.Current instead", projected)
	// The planner saw the last turns and the retrieval's observation.
	require.Len(t, p.seen, 3)
	assert.Contains(t, p.seen[1].Observation, "Retrieved candidates: weather.Current")
	assert.Len(t, p.seen[2].History, 2)
	assert.Equal(t, []string{"weather.Current"}, p.seen[2].Completed)
}

// The run executes the decision the Decide activity projected, not one of its own: the
// projection is made outside workflow code, and recorded as the activity's result.
func TestQueryWorkflowExecutesTheActivitysProjection(t *testing.T) {
	env := newEnv(t, nil)
	proposed := planner.Decision{Action: planner.DirectAnswer, Answer: "proposed"}
	executed := planner.Decision{Action: planner.DirectAnswer, Answer: "projected by the activity"}
	env.OnActivity("navi.Decide", mock.Anything, mock.Anything).Return(planner.Result{Planner: "llm:test", Decisions: []planner.Decision{proposed},
		Projection: &planner.Projection{Decision: executed, Replaced: true, Proposed: proposed, Reason: "a test"}}, nil).Once()
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Rome", NoInertia: true})
	res := result(t, env)
	assert.Equal(t, "projected by the activity", res.Answer)
	var projected string
	for _, e := range state(t, env).Trace {
		if e.Kind == TraceProject {
			projected = e.Summary
		}
	}
	assert.Equal(t, `direct_answer "proposed" is not admissible (a test); doing direct_answer "projected by the activity" instead`, projected)
}

// An LLM whose answers stay invalid does not end the run: each step falls back to the
// graph-first planner, the trace says so, and the state counts the invalid answers' calls.
func TestQueryWorkflowPlannerInvalidOutput(t *testing.T) {
	p := &scriptedPlanner{err: fmt.Errorf("%w: decision 1: action \"call\" is not one of call_api, direct_answer, retrieve_api, clarify_intent", llm.ErrInvalidOutput)}
	env := newEnv(t, p)
	env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(retrieved("Rome"), nil).Once()
	onCall(env, "geo.Geocode").Return(toolOK(rome), nil).Once()
	onCall(env, "weather.Current").Return(toolOK(weather), nil).Once()
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "What is the weather in Rome?", NoInertia: true})
	res := result(t, env)
	assert.Equal(t, StatusAnswered, res.Status, res.Answer)
	s := state(t, env)
	steps := len(p.seen)
	require.Positive(t, steps)
	assert.Equal(t, steps, s.Usage.LLMCalls, "every model call is counted")
	assert.Equal(t, steps, s.Usage.Invalid)
	var decided []string
	for _, e := range s.Trace {
		if e.Kind == TraceDecide {
			decided = append(decided, e.Summary)
		}
	}
	require.Len(t, decided, steps)
	assert.Contains(t, decided[0], "llm:test's answer stayed invalid after a repair, so graph-first decided retrieve_api")
	assert.Contains(t, decided[0], `action "call" is not one of`)
}

func TestQueryWorkflowLLMPlannerMissing(t *testing.T) {
	env := newEnv(t, nil)
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Rome", Planner: "llm", NoInertia: true})
	res := result(t, env)
	assert.Equal(t, StatusPlannerFailed, res.Status)
	assert.Contains(t, res.Answer, "NAVI_LLM_BASE_URL")
}

// Attempts lost to dead workers (heartbeat or start-to-close timeouts) are called again under
// the same idempotency key and never count against the tool: no recombination, no failed call
// in the feedback. Past MaxWorkerLosses the call is given up, still without blaming the tool.
func TestQueryWorkflowWorkerLossIsNotTheTools(t *testing.T) {
	lost := func(tt enumspb.TimeoutType) error { return temporal.NewTimeoutError(tt, nil) }
	t.Run("lost twice, then answered", func(t *testing.T) {
		env := newEnv(t, nil)
		env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(retrieved("Rome"), nil).Once()
		onCall(env, "geo.Geocode").Return(toolOK(rome), nil).Once()
		var keys []string
		calls := 0
		onCall(env, "weather.Current").Return(func(_ context.Context, in activities.CallToolInput) (activities.CallToolResult, error) {
			keys = append(keys, in.IdempotencyKey)
			calls++
			switch calls {
			case 1:
				return activities.CallToolResult{}, lost(enumspb.TIMEOUT_TYPE_HEARTBEAT)
			case 2:
				return activities.CallToolResult{}, lost(enumspb.TIMEOUT_TYPE_START_TO_CLOSE)
			}
			return toolOK(weather), nil
		}).Times(3)
		var fb feedbackSink
		fb.on(env)
		env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Rome"})
		res := result(t, env)
		assert.Equal(t, StatusAnswered, res.Status)
		assert.Zero(t, res.Recombinations)
		require.Len(t, keys, 3)
		assert.Equal(t, keys[0], keys[2], "every attempt of the call carries one key")
		assert.Contains(t, keys[0], "/call-2")
		require.Len(t, fb.runs, 1)
		for _, inv := range fb.runs[0].Invocations {
			assert.True(t, inv.Success, "%s: a lost attempt is no failure", inv.API)
		}
		env.AssertExpectations(t) // Recombine was never called
	})
	t.Run("lost past the limit", func(t *testing.T) {
		env := newEnv(t, nil)
		env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(retrieved("Rome"), nil)
		onCall(env, "geo.Geocode").Return(toolOK(rome), nil).Once()
		onCall(env, "weather.Current").Return(activities.CallToolResult{}, lost(enumspb.TIMEOUT_TYPE_HEARTBEAT))
		var fb feedbackSink
		fb.on(env)
		env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Rome", MaxSteps: 4})
		require.True(t, env.IsWorkflowCompleted())
		s := state(t, env)
		assert.Contains(t, traceWith(s, "lost to workers"), fmt.Sprintf("%d attempts lost to workers", MaxWorkerLosses+1))
		assertNotBlamed(t, s, &fb, "weather.Current")
	})
}

// traceWith is the last trace entry of s that says text, or "".
func traceWith(s QueryState, text string) string {
	var line string
	for _, e := range s.Trace {
		if strings.Contains(e.Summary, text) {
			line = e.Summary
		}
	}
	return line
}

// assertNotBlamed checks that the run neither recombined around api nor recorded a call of it.
func assertNotBlamed(t *testing.T, s QueryState, fb *feedbackSink, api string) {
	t.Helper()
	assert.NotContains(t, traceKinds(s), "recombine-")
	for _, run := range fb.runs {
		for _, inv := range run.Invocations {
			assert.NotEqual(t, api, inv.API, "a call of %s is recorded", api)
		}
	}
}

// unsafeRetrieved is retrieved("Rome") with weather.Current made a POST that honours no
// idempotency key, checked by check when it is not "" (a GET of weather.Lookup taking the
// latitude).
func unsafeRetrieved(check string) activities.RetrieveResult {
	res := retrieved("Rome")
	apis := maps.Clone(res.APIs)
	book := apis["weather.Current"]
	ep := *book.Endpoint
	ep.Method = "POST"
	book.Endpoint, book.Check = &ep, check
	book.Confirm = twnm.ConfirmNever // approving the call is another test's: here it is sent at once
	apis["weather.Current"] = book
	if check != "" {
		apis[check] = api(check, []string{"latitude"}, []string{"temp_c"})
	}
	res.APIs = apis
	return res
}

// A call of an API that honours no idempotency key (a POST with no declared effect) whose
// worker was lost, or that was sent and got no answer (its timeout, a broken connection), is
// not sent again blindly: it may have booked already. The run calls the API's check when the
// catalog names one (found: the call took effect; nothing: it is sent again), else asks the
// user; never a recombination or feedback against the tool.
func TestQueryWorkflowUnsafeCallCutOff(t *testing.T) {
	causes := []struct {
		name  string
		err   error
		when  string // how the trace dates what the check found
		whose string // what the run says happened to the call
	}{
		{"worker lost", temporal.NewTimeoutError(enumspb.TIMEOUT_TYPE_HEARTBEAT, nil), "before its worker was lost", "its worker was lost mid-call"},
		{"no answer", temporal.NewNonRetryableApplicationError("weather.Current: no answer within the API's timeout of 2s, after the request was sent",
			contract.ErrTypeToolOutcomeUnknown, nil, activities.ToolFailure{API: "weather.Current"}), "though it gave no answer", "its call got no answer after it was sent"},
	}
	for _, cause := range causes {
		t.Run(cause.name, func(t *testing.T) { testUnsafeCallCutOff(t, cause.err, cause.when, cause.whose) })
	}
	assert.Equal(t, twnm.EffectUnsafe, unsafeRetrieved("").APIs["weather.Current"].CallEffect())
}

func testUnsafeCallCutOff(t *testing.T, cut error, when, whose string) {
	notFound := temporal.NewNonRetryableApplicationError("weather.Lookup: HTTP 404", activities.ErrTypeToolRejected, nil,
		activities.ToolFailure{API: "weather.Lookup", Status: 404})
	tests := []struct {
		name     string
		check    string
		lookup   func() (activities.CallToolResult, error) // the check's answer
		answer   string                                    // the user's, "" for none
		calls    int                                       // of weather.Current
		answered bool
		trace    string
	}{
		{name: "no check, no answer", calls: 1, trace: "no answer within"},
		{name: "no check, the user says no", answer: "no, leave it", calls: 1, trace: `the user answered "no, leave it"`},
		{name: "no check, the user says yes", answer: "Yes please", calls: 2, answered: true, trace: "the user asked to send it again"},
		{name: "the check finds it", check: "weather.Lookup", calls: 1, answered: true, trace: "took effect " + when + ": weather.Lookup found it",
			lookup: func() (activities.CallToolResult, error) { return toolOK(weather), nil }},
		{name: "the check finds nothing", check: "weather.Lookup", calls: 2, answered: true, trace: "did not take effect",
			lookup: func() (activities.CallToolResult, error) { return toolOK(map[string]any{"temp_c": nil}), nil }},
		{name: "the check answers 404", check: "weather.Lookup", calls: 2, answered: true, trace: "did not take effect",
			lookup: func() (activities.CallToolResult, error) { return activities.CallToolResult{}, notFound }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(t, nil)
			env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(unsafeRetrieved(tt.check), nil)
			onCall(env, "geo.Geocode").Return(toolOK(rome), nil).Once()
			calls := 0
			onCall(env, "weather.Current").Return(func(context.Context, activities.CallToolInput) (activities.CallToolResult, error) {
				if calls++; calls == 1 {
					return activities.CallToolResult{}, cut
				}
				return toolOK(weather), nil
			}).Times(tt.calls)
			if tt.lookup != nil {
				onCall(env, "weather.Lookup").Return(func(_ context.Context, in activities.CallToolInput) (activities.CallToolResult, error) {
					assert.Equal(t, map[string]string{"latitude": "41.9028"}, in.Args, "the check takes the call's arguments it names")
					return tt.lookup()
				}).Once()
			}
			if tt.answer != "" {
				env.RegisterDelayedCallback(func() {
					s := state(t, env)
					require.Equal(t, StatusWaiting, s.Status)
					assert.Contains(t, s.Question, "Should I send it again?")
					env.UpdateWorkflow(AnswerUpdate, "a", &testsuite.TestUpdateCallback{
						OnReject: func(err error) { t.Errorf("answer rejected: %v", err) }, OnAccept: func() {}, OnComplete: func(any, error) {},
					}, ClarifyAnswer{Text: tt.answer})
				}, time.Minute)
			}
			var fb feedbackSink
			fb.on(env)
			env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Rome", MaxSteps: 4})
			require.True(t, env.IsWorkflowCompleted())
			s := state(t, env)
			assert.NotEmpty(t, traceWith(s, tt.trace), "trace says %q", tt.trace)
			assert.NotContains(t, traceKinds(s), "recombine-")
			if tt.answered {
				res := result(t, env)
				assert.Equal(t, StatusAnswered, res.Status)
				assert.Equal(t, 21.5, res.Results["weather.Current"]["temp_c"])
			} else {
				// Not knowing, the run stops: another tool in its place might book twice. The
				// user's no is a decline, not a failure.
				res := result(t, env)
				want := StatusFailed
				if tt.answer != "" {
					want = StatusDeclined
				}
				assert.Equal(t, want, res.Status)
				assert.Contains(t, res.Answer, "I did not send it again ("+tt.trace)
				assert.Contains(t, traceWith(s, "may have taken effect"), "weather.Current: "+whose)
				assertNotBlamed(t, s, &fb, "weather.Current")
			}
			assert.Equal(t, tt.calls, calls)
			env.AssertExpectations(t)
		})
	}
}

func TestAffirmativeAndEmptyOutput(t *testing.T) {
	for answer, want := range map[string]bool{"yes": true, "Yes, please.": true, "y": true, "ok": true, "send it": true,
		"no": false, "not yet": false, "": false, "maybe": false} {
		assert.Equal(t, want, affirmative(answer), answer)
	}
	for _, tt := range []struct {
		out  map[string]any
		want bool
	}{
		{nil, true},
		{map[string]any{"items": []any{}, "id": "", "x": nil, "m": map[string]any{"k": nil}}, true},
		{map[string]any{"items": []any{1}}, false},
		{map[string]any{"n": 0.0}, false},
		{map[string]any{"ok": false}, false},
	} {
		assert.Equal(t, tt.want, emptyOutput(tt.out), "%v", tt.out)
	}
}

// A tool's own errors count: retried with the policy's backoff, and after the last attempt the
// tool has failed.
func TestQueryWorkflowToolErrorsCount(t *testing.T) {
	env := newEnv(t, nil)
	env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(retrieved("Rome"), nil)
	onCall(env, "geo.Geocode").Return(toolOK(rome), nil).Once()
	unavailable := temporal.NewApplicationError("weather.Current: HTTP 503", activities.ErrTypeToolUnavailable, activities.ToolFailure{API: "weather.Current"})
	onCall(env, "weather.Current").Return(activities.CallToolResult{}, unavailable).Times(activities.DefaultToolAttempts)
	for _, s := range []string{twnm.StrategySubstitution, twnm.StrategyUpstreamReroute, twnm.StrategySubgraphSwitch} {
		onRecombine(env, s).Return(activities.RecombineResult{Strategy: s, Reason: "nothing else"}, nil).Once()
	}
	var fb feedbackSink
	fb.on(env)
	start := env.Now()
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Rome", MaxSteps: 3})
	require.True(t, env.IsWorkflowCompleted())
	assert.GreaterOrEqual(t, env.Now().Sub(start), activities.DefaultToolInitialInterval*3, "backoff of 1 s, then 2 s")
	require.NotEmpty(t, fb.runs)
	last := fb.runs[0].Invocations[len(fb.runs[0].Invocations)-1]
	assert.Equal(t, "weather.Current", last.API)
	assert.False(t, last.Success, "the tool failed, and the graph hears of it")
	env.AssertExpectations(t)
}

// A client waits for the run's questions with the QuestionUpdate instead of polling: sent
// before the run asks, it returns the question when it is asked; sent again after it, it
// returns when the run ends.
func TestQueryWorkflowQuestionUpdate(t *testing.T) {
	env := clarifyEnv(t)

	wait := func(id, after string, got *Pending, at *time.Time) {
		env.UpdateWorkflow(QuestionUpdate, id, &testsuite.TestUpdateCallback{
			OnReject: func(err error) { t.Errorf("%s rejected: %v", id, err) }, OnAccept: func() {},
			OnComplete: func(v any, err error) {
				require.NoError(t, err)
				*got, *at = v.(Pending), env.Now()
			},
		}, QuestionWait{After: after})
	}
	var first, second Pending
	var firstAt, secondAt, answeredAt time.Time
	start := env.Now()
	env.RegisterDelayedCallback(func() { wait("first", "", &first, &firstAt) }, 0)
	env.RegisterDelayedCallback(func() {
		require.NotEmpty(t, first.Question, "the first wait returned the question")
		wait("second", first.Key(), &second, &secondAt)
		answeredAt = env.Now()
		env.UpdateWorkflow(AnswerUpdate, "answer", &testsuite.TestUpdateCallback{
			OnReject: func(err error) { t.Errorf("answer rejected: %v", err) }, OnAccept: func() {}, OnComplete: func(any, error) {},
		}, ClarifyAnswer{Text: "Rome"})
	}, time.Hour)

	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather now"})
	res := result(t, env)
	assert.Equal(t, StatusAnswered, res.Status)
	assert.Contains(t, first.Question, "What is the city?")
	assert.Equal(t, []string{"geo.Geocode.city"}, first.Params)
	assert.False(t, first.Deadline.IsZero())
	assert.Less(t, firstAt.Sub(start), time.Hour, "the first wait returned when the run asked, not later")
	assert.True(t, second.Ended, "the second wait returned when the run ended")
	assert.False(t, secondAt.Before(answeredAt))
	assert.Equal(t, "", Pending{}.Key())
	assert.NotEqual(t, first.Key(), Pending{Question: first.Question, Deadline: first.Deadline.Add(time.Second)}.Key(), "asked again")
}

// branchPlan is geoPlan's weather chain with another part beside it: opengeo.Locate of Paris,
// which nothing in the chain needs.
func branchPlan() planner.Plan {
	p := geoPlan("weather.Current", "Rome")
	p.Steps = append([]planner.PlanStep{{API: "opengeo.Locate", Bindings: []planner.Binding{
		{Param: "city_name", Required: true, Source: planner.SourceGiven, Value: "Paris"}}}}, p.Steps...)
	return p
}

// inFlight counts the tool calls running at once in a test, and the most there were.
type inFlight struct {
	mu       sync.Mutex
	now, max int
}

// call is a mocked CallTool that takes a moment of real time and answers out.
func (f *inFlight) call(out map[string]any) func(context.Context, activities.CallToolInput) (activities.CallToolResult, error) {
	return func(context.Context, activities.CallToolInput) (activities.CallToolResult, error) {
		f.mu.Lock()
		f.now++
		f.max = max(f.max, f.now)
		f.mu.Unlock()
		time.Sleep(200 * time.Millisecond)
		f.mu.Lock()
		f.now--
		f.mu.Unlock()
		return toolOK(out), nil
	}
}

// The plan's independent steps (the other part, and the chain's first step) run at once; the
// step that needs one of them runs after it.
func TestQueryWorkflowCallsIndependentStepsAtOnce(t *testing.T) {
	env := newEnv(t, &scriptedPlanner{decisions: []planner.Decision{
		{Action: planner.RetrieveAPI, RecallDescription: "weather"},
		{Action: planner.CallAPI, TargetAPI: "weather.Current"},
		{Action: planner.DirectAnswer, Answer: "21.5 °C in Rome."},
	}})
	res := retrieved("Rome")
	res.Candidates[0].Plan = branchPlan()
	env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(res, nil).Once()
	var f inFlight
	onCall(env, "opengeo.Locate").Return(f.call(map[string]any{"lat": 48.8566, "lon": 2.3522})).Once()
	onCall(env, "geo.Geocode").Return(f.call(rome)).Once()
	onCall(env, "weather.Current").Return(f.call(weather)).Once()
	(&feedbackSink{}).on(env)
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Rome, and where is Paris?", NoInertia: true})
	out := result(t, env)
	require.Equal(t, StatusAnswered, out.Status, out.Answer)
	assert.Equal(t, 2, f.max, "opengeo.Locate and geo.Geocode ran at once")
	assert.ElementsMatch(t, []string{"opengeo.Locate", "geo.Geocode", "weather.Current"}, state(t, env).ToolsUsed)
	env.AssertExpectations(t)
}

// A part of the request that fails for good, with no recombination, does not stop the final
// step's chain: the run answers, and the observation says what failed. Where retrieval read the
// user's words, the answer covers part of the request, and the status says so.
func TestQueryWorkflowOtherPartFailsAlone(t *testing.T) {
	const query = "weather in Rome, and where is Paris?"
	for _, tt := range []struct {
		recall string // what the planner had retrieval read
		want   string
	}{
		{query, StatusPartial},      // the user's words: Paris is a part of the request
		{"weather", StatusAnswered}, // a planner's own description: its parts are not the request's
	} {
		t.Run(tt.recall, func(t *testing.T) {
			p := &scriptedPlanner{decisions: []planner.Decision{
				{Action: planner.RetrieveAPI, RecallDescription: tt.recall},
				{Action: planner.CallAPI, TargetAPI: "weather.Current"},
				{Action: planner.DirectAnswer, Answer: "21.5 °C in Rome; I could not locate Paris."},
			}}
			env := newEnv(t, p)
			res := retrieved("Rome")
			res.Candidates[0].Plan, res.Branches = branchPlan(), []string{"opengeo.Locate"}
			env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(res, nil).Once()
			onCall(env, "opengeo.Locate").Return(activities.CallToolResult{},
				temporal.NewNonRetryableApplicationError("opengeo.Locate: 404", activities.ErrTypeToolRejected, nil)).Once()
			onCall(env, "geo.Geocode").Return(toolOK(rome), nil).Once()
			onCall(env, "weather.Current").Return(toolOK(weather), nil).Once()
			for _, s := range []string{twnm.StrategySubstitution, twnm.StrategyUpstreamReroute, twnm.StrategySubgraphSwitch} {
				onRecombine(env, s).Return(activities.RecombineResult{Reason: "nothing else"}, nil)
			}
			(&feedbackSink{}).on(env)
			env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: query, NoInertia: true})
			out := result(t, env)
			require.Equal(t, tt.want, out.Status, out.Answer)
			assert.ElementsMatch(t, []string{"geo.Geocode", "weather.Current"}, state(t, env).ToolsUsed)
			require.Len(t, p.seen, 3)
			assert.Contains(t, p.seen[2].Observation, "opengeo.Locate failed")
			assert.Contains(t, p.seen[2].Observation, "weather.Current returned")
			env.AssertExpectations(t)
		})
	}
}

// A call that answers 2xx with no answer in it (toolcall.Suspect) serves the run, but the
// feedback records it as a failure, and the trace says why.
func TestQueryWorkflowSuspectAnswerIsNotLearned(t *testing.T) {
	env := newEnv(t, &scriptedPlanner{decisions: []planner.Decision{
		{Action: planner.RetrieveAPI, RecallDescription: "weather"},
		{Action: planner.CallAPI, TargetAPI: "weather.Current"},
		{Action: planner.DirectAnswer, Answer: "No weather for Rome."},
	}})
	env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(retrieved("Rome"), nil).Once()
	onCall(env, "geo.Geocode").Return(toolOK(rome), nil).Once()
	empty := toolOK(map[string]any{})
	empty.Suspect = "the answer is empty"
	onCall(env, "weather.Current").Return(empty, nil).Once()
	var sink feedbackSink
	sink.on(env)
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Rome", NoInertia: true})
	res := result(t, env)
	require.Equal(t, StatusAnswered, res.Status, res.Answer)
	require.Len(t, sink.runs, 1)
	outcomes := map[string]bool{}
	signals := map[string]twnm.Signal{}
	for _, inv := range sink.runs[0].Invocations {
		outcomes[inv.API], signals[inv.API] = inv.Success, inv.Signal
	}
	assert.Equal(t, map[string]bool{"geo.Geocode": true, "weather.Current": false}, outcomes)
	assert.Equal(t, map[string]twnm.Signal{"geo.Geocode": "", "weather.Current": twnm.SignalCatalog}, signals, "the catalog check judged it")
	var traced string
	for _, e := range state(t, env).Trace {
		if e.Kind == TraceCall && strings.HasPrefix(e.Summary, "weather.Current(") {
			traced = e.Summary
		}
	}
	assert.Contains(t, traced, "(the answer is empty: not learned as a success)")
}

// An API that answered, but is hardly similar to the request, does not teach retrieval that
// the request asks for it; its calls count as they went.
func TestQueryWorkflowIrrelevantAnswerTeachesRetrievalNothing(t *testing.T) {
	tests := []struct {
		relevance float64
		learned   bool
	}{
		{0.6, true},
		{planner.DefaultOptions.AnswerRelevanceFloor / 2, false},
		{0, true}, // not measured
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.relevance), func(t *testing.T) {
			env := newEnv(t, nil)
			res := retrieved("Rome")
			res.Candidates[0].Relevance = tt.relevance
			res.SubGoals = []contract.SubGoal{{Text: "weather in Rome", Whole: true}}
			env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(res, nil).Once()
			onCall(env, "geo.Geocode").Return(toolOK(rome), nil).Once()
			onCall(env, "weather.Current").Return(toolOK(weather), nil).Once()
			var sink feedbackSink
			sink.on(env)
			env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Rome"})
			require.Equal(t, StatusAnswered, result(t, env).Status)
			require.Len(t, sink.runs, 1)
			for _, inv := range sink.runs[0].Invocations {
				assert.True(t, inv.Success, inv.API)
			}
			var noted bool
			for _, e := range state(t, env).Trace {
				noted = noted || e.Kind == TraceFeedback && strings.Contains(e.Summary, "not relevant enough to the request")
			}
			if tt.learned {
				assert.Equal(t, []contract.GoalFeedback{{API: "weather.Current", Text: "weather in Rome"}}, sink.runs[0].Goals)
				assert.True(t, sink.runs[0].GoalsOnRating, "proposed, learned on a good verdict")
				assert.False(t, noted)
				var said bool
				for _, e := range state(t, env).Trace {
					said = said || e.Kind == TraceFeedback && strings.Contains(e.Summary, "when the run is rated good")
				}
				assert.True(t, said, "the trace says what teaches retrieval the request")
			} else {
				assert.Empty(t, sink.runs[0].Goals)
				assert.True(t, noted, "the trace says why")
			}
		})
	}
}

// A plan may bind an input from a place in an earlier answer, such as an item of a list other
// than the first: the step takes the value there.
func TestQueryWorkflowBindsFromAPathThePlanNames(t *testing.T) {
	env := newEnv(t, nil)
	r := retrieved("Rome")
	plan := geoPlan("weather.Current", "Rome")
	plan.Steps[1].Bindings[0].FromOutput = "places[1].lat"
	plan.Steps[1].Bindings[1].FromOutput = "places[1].lon"
	r.Candidates[0].Plan = plan
	env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(r, nil).Once()
	onCall(env, "geo.Geocode").Return(toolOK(map[string]any{"latitude": 1.0, "longitude": 2.0,
		"places": []any{map[string]any{"lat": 1.0, "lon": 2.0}, map[string]any{"lat": 41.9, "lon": 12.5}}}), nil).Once()
	onWeatherAt(t, env, "41.9", "12.5")
	(&feedbackSink{}).on(env)
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Rome"})
	res := result(t, env)
	assert.Equal(t, StatusAnswered, res.Status)
	env.AssertExpectations(t)
}

// A plan may name the item of an earlier answer's list that the request means (the place
// called Trastevere): the step takes its value from that item, not from the list's first;
// where the list holds no such item, the step is not called, the producer is not taken for
// failed, and the run says so.
func TestQueryWorkflowBindsFromTheItemThePlanNames(t *testing.T) {
	places := map[string]any{"places": []any{
		map[string]any{"name": "Centro", "lat": 1.0, "lon": 2.0},
		map[string]any{"name": "Trastevere", "lat": 41.9, "lon": 12.5}}}
	for _, tt := range []struct {
		name, item string
		found      bool
	}{
		{"named", "trastevere", true},
		{"not in the list", "Monti", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(t, nil)
			r := retrieved("Rome")
			// The geocoder's catalog entry says where its outputs lie in its answer.
			r.APIs = maps.Clone(r.APIs)
			geo := r.APIs["geo.Geocode"]
			geo.Outputs = []twnm.Param{{Name: "latitude", Path: "places[].lat"}, {Name: "longitude", Path: "places[].lon"}}
			r.APIs["geo.Geocode"] = geo
			plan := geoPlan("weather.Current", "Rome")
			for i := range 2 {
				plan.Steps[1].Bindings[i].Item = tt.item
			}
			r.Candidates[0].Plan = plan
			env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(r, nil).Once()
			onCall(env, "geo.Geocode").Return(toolOK(places), nil).Once()
			if tt.found {
				onWeatherAt(t, env, "41.9", "12.5")
			}
			(&feedbackSink{}).on(env)
			env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Trastevere, Rome"})
			res := result(t, env)
			if tt.found {
				assert.Equal(t, StatusAnswered, res.Status)
			} else {
				assert.Equal(t, []string{"geo.Geocode"}, []string(res.Chain), "the weather was not called")
				var said bool
				for _, e := range state(t, env).Trace {
					said = said || strings.Contains(e.Summary, `geo.Geocode lists nothing named "Monti"`)
				}
				assert.True(t, said, "the trace says which item the list lacks")
			}
			env.AssertExpectations(t)
		})
	}
}

// A producer two parts of a compound plan share is called once, and both consumers take its
// output: the weather and the air quality of one geocoded city.
func TestQueryWorkflowSharedProducerCalledOnce(t *testing.T) {
	upstream := func(api string) planner.PlanStep {
		return planner.PlanStep{API: api, Bindings: []planner.Binding{
			{Param: "latitude", Required: true, Source: planner.SourceUpstream, FromAPI: "geo.Geocode", FromOutput: "latitude"},
			{Param: "longitude", Required: true, Source: planner.SourceUpstream, FromAPI: "geo.Geocode", FromOutput: "longitude"},
		}}
	}
	plan := geoPlan("weather.Current", "Rome")
	plan.Steps = []planner.PlanStep{plan.Steps[0], upstream("skycast.Now"), upstream("weather.Current")}
	env := newEnv(t, nil)
	res := retrieved("Rome")
	res.Candidates[0].Plan = plan
	env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(res, nil).Once()
	onCall(env, "geo.Geocode").Return(toolOK(rome), nil).Once()
	onCall(env, "skycast.Now").Return(func(_ context.Context, in activities.CallToolInput) (activities.CallToolResult, error) {
		assert.Equal(t, map[string]string{"latitude": "41.9028", "longitude": "12.4964"}, in.Args)
		return toolOK(weather), nil
	}).Once()
	onWeatherAt(t, env, "41.9028", "12.4964")
	(&feedbackSink{}).on(env)
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "the weather in Rome from both services"})
	out := result(t, env)
	require.Equal(t, StatusAnswered, out.Status, out.Answer)
	assert.Equal(t, 3, out.ToolCalls, "one geocoding for two consumers")
	env.AssertExpectations(t)
}

// A value only one part of a compound request lacks is asked for, naming that part's input;
// once answered, both parts run and the answer covers both.
func TestQueryWorkflowClarifiesInsideOnePart(t *testing.T) {
	env := newEnv(t, nil)
	asking := branchPlan()
	asking.Steps[0].Bindings[0].Source, asking.Steps[0].Bindings[0].Value = planner.SourceMissing, ""
	first := retrieved("Rome")
	first.Candidates[0].Plan, first.Branches = asking, []string{"opengeo.Locate"}
	second := retrieved("Rome")
	second.Candidates[0].Plan, second.Branches = branchPlan(), []string{"opengeo.Locate"}
	env.OnActivity("navi.Retrieve", mock.Anything, mock.MatchedBy(func(in activities.RetrieveInput) bool { return !strings.Contains(in.Text, "\n") })).
		Return(first, nil).Once()
	// The answer goes back with the inputs it was asked for; no earlier reading of the request
	// goes back as if the user had given it.
	env.OnActivity("navi.Retrieve", mock.Anything, mock.MatchedBy(func(in activities.RetrieveInput) bool {
		return strings.HasSuffix(in.Text, "\nParis") && len(in.Known) == 0 && len(in.Answers) == 1 &&
			in.Answers[0].Answer == "Paris" && slices.Equal(in.Answers[0].Params, []string{"opengeo.Locate.city_name"})
	})).Return(second, nil).Once()
	onCall(env, "opengeo.Locate").Return(toolOK(map[string]any{"lat": 48.85, "lon": 2.35}), nil).Once()
	onCall(env, "geo.Geocode").Return(toolOK(rome), nil).Once()
	onCall(env, "weather.Current").Return(toolOK(weather), nil).Once()
	(&feedbackSink{}).on(env)
	var question string
	var params []string
	env.RegisterDelayedCallback(func() {
		s := state(t, env)
		require.Equal(t, StatusWaiting, s.Status)
		question, params = s.Question, s.QuestionParams
		assert.Empty(t, s.ToolsUsed, "nothing ran before the question")
		env.UpdateWorkflow(AnswerUpdate, "paris", &testsuite.TestUpdateCallback{
			OnReject: func(err error) { t.Errorf("the answer was refused: %v", err) }, OnAccept: func() {}, OnComplete: func(any, error) {},
		}, ClarifyAnswer{Text: "Paris"})
	}, time.Hour)
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Rome, and where is the other city?"})
	res := result(t, env)
	require.Equal(t, StatusAnswered, res.Status, res.Answer)
	assert.Equal(t, []string{"opengeo.Locate.city_name"}, params, "the question asks for the part's input")
	assert.Contains(t, question, "What is the city name?")
	assert.ElementsMatch(t, []string{"opengeo.Locate", "geo.Geocode", "weather.Current"}, state(t, env).ToolsUsed)
	assert.Contains(t, res.Answer, "opengeo.Locate")
	assert.Contains(t, res.Answer, "weather.Current")
	env.AssertExpectations(t)
}

// Inertial steps: the run retrieves first, and a chain the graph has seen run well is called,
// and answered, without the LLM; the run counts the decisions saved. With NoInertia the LLM decides every step.
func TestQueryWorkflowInertialSteps(t *testing.T) {
	for _, noInertia := range []bool{false, true} {
		t.Run(fmt.Sprintf("no inertia %v", noInertia), func(t *testing.T) {
			p := &scriptedPlanner{decisions: []planner.Decision{
				{Action: planner.RetrieveAPI, RecallDescription: "WeatherAPI(description: current weather)"},
				{Action: planner.CallAPI, TargetAPI: "weather.Current"},
				{Action: planner.DirectAnswer, Answer: "It is 21.5 °C in Rome."},
			}}
			env := newEnv(t, p)
			res := retrieved("Rome")
			res.Candidates[0].Proven = planner.DefaultOptions.InertiaMinRuns
			env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(res, nil).Once()
			onCall(env, "geo.Geocode").Return(toolOK(rome), nil).Once()
			onCall(env, "weather.Current").Return(toolOK(weather), nil).Once()
			(&feedbackSink{}).on(env)
			env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Rome", Planner: activities.PlannerLLM, NoInertia: noInertia})
			out := result(t, env)
			require.Equal(t, StatusAnswered, out.Status, out.Answer)
			assert.Equal(t, []string{"geo.Geocode", "weather.Current"}, []string(out.Chain))
			if noInertia {
				assert.Equal(t, planner.Usage{LLMCalls: 3, PromptTokens: 300, CompletionTokens: 60, Decisions: 3}, out.Usage)
				assert.Equal(t, "It is 21.5 °C in Rome.", out.Answer)
				return
			}
			assert.Equal(t, planner.Usage{LLMSaved: 3, Decisions: 3}, out.Usage, "the first retrieval, the call and the answer were inertial")
			assert.Empty(t, p.seen, "the LLM was never asked")
			assert.Contains(t, out.Answer, "weather.Current answered")
			var decided []string
			for _, e := range state(t, env).Trace {
				if e.Kind == TraceDecide {
					decided = append(decided, e.Summary)
				}
			}
			require.Len(t, decided, 3)
			assert.True(t, strings.HasPrefix(decided[0], "inertia decided retrieve_api"), decided[0])
			assert.True(t, strings.HasPrefix(decided[1], "inertia decided call_api weather.Current"), decided[1])
		})
	}
}

// The status says what the answer is: answered when the chain ran and every part of the
// request has its answer, partial when a part found no tool, failed when the planner ends
// with no chain run to its end ("I could not complete the request").
func TestQueryWorkflowTruthfulStatus(t *testing.T) {
	tests := []struct {
		name      string
		unserved  string // a sub-goal that finds no tool
		unplanned string // a sub-goal whose tool could not join the plan
		noChain   bool   // the planner answers before any chain ran
		want      string
	}{
		{name: "every part answered", want: StatusAnswered},
		{name: "a part found no tool", unserved: "book me a dentist", want: StatusPartial},
		{name: "a part's tool could not join the plan", unplanned: "book me a dentist", want: StatusPartial},
		// An LLM planner's recall description is no part of the request.
		{name: "a clause of the planner's description found no tool", unserved: "output: temp_c:number", want: StatusAnswered},
		{name: "no chain ran: the city never came", noChain: true, want: StatusFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			decisions := []planner.Decision{{Action: planner.RetrieveAPI, RecallDescription: "weather"}}
			if !tt.noChain {
				decisions = append(decisions, planner.Decision{Action: planner.CallAPI, TargetAPI: "weather.Current"})
			}
			decisions = append(decisions, planner.Decision{Action: planner.DirectAnswer, Answer: "Here is what I found."})
			env := newEnv(t, &scriptedPlanner{decisions: decisions})
			res := retrieved("Rome")
			if tt.noChain {
				res = retrieved("") // the city is missing: answering at once is not a guess
			}
			if tt.unserved != "" {
				res.SubGoals = append(res.SubGoals, activities.SubGoal{Text: tt.unserved, Relevant: false})
			}
			if tt.unplanned != "" {
				res.Unplanned = []string{tt.unplanned}
			}
			env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(res, nil).Once()
			if !tt.noChain {
				onCall(env, "geo.Geocode").Return(toolOK(rome), nil).Once()
				onCall(env, "weather.Current").Return(toolOK(weather), nil).Once()
				(&feedbackSink{}).on(env)
			}
			env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Rome and book me a dentist", NoInertia: true})
			out := result(t, env)
			assert.Equal(t, tt.want, out.Status, out.Answer)
			st := state(t, env)
			assert.Equal(t, tt.want, st.Status)
			if tt.unplanned != "" {
				assert.Equal(t, []string{tt.unplanned}, st.Unplanned)
				assert.NotEmpty(t, traceWith(st, "could join the plan"), "the trace says which part stays unanswered")
			}
			env.AssertExpectations(t)
		})
	}
}

// A long request's retrieval read only some of its parts: the trace says so.
func TestQueryWorkflowTracesSkippedParts(t *testing.T) {
	env := newEnv(t, &scriptedPlanner{decisions: []planner.Decision{
		{Action: planner.RetrieveAPI, RecallDescription: "weather"},
		{Action: planner.CallAPI, TargetAPI: "weather.Current"},
		{Action: planner.DirectAnswer, Answer: "21.5 °C in Rome."},
	}})
	res := retrieved("Rome")
	res.SubGoals, res.Skipped = []activities.SubGoal{{Text: "weather in Rome", Relevant: true}}, 7
	env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(res, nil).Once()
	onCall(env, "geo.Geocode").Return(toolOK(rome), nil).Once()
	onCall(env, "weather.Current").Return(toolOK(weather), nil).Once()
	(&feedbackSink{}).on(env)
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Rome", NoInertia: true})
	require.Equal(t, StatusAnswered, result(t, env).Status)
	assert.NotEmpty(t, traceWith(state(t, env), "retrieval read its first parts and its last, and left out 7"))
}

// A call the confirmation policy names waits for the user's yes, showing the call: by default
// a destructive call, or a write fed by another call's output; every write under "writes";
// none under "never". The API's own policy wins over the request's. A no ends the run
// declined, no answer in time ends it clarification_timeout; either way the call is not sent.
func TestQueryWorkflowConfirmsWrites(t *testing.T) {
	tests := []struct {
		name    string
		api     string // the API made a write
		method  string
		apiPol  string // its own policy
		reqPol  string // the request's
		answer  string // "" for none
		asks    bool
		calls   int // of api
		status  string
		showing string // what the question shows
	}{
		{name: "a write fed by a read's output, approved", api: "weather.Current", method: "POST", answer: "yes", asks: true, calls: 1, status: StatusAnswered,
			showing: "Shall I call weather.Current(latitude=41.9028, longitude=12.4964)? I ask because it changes state with values another call found. Answer yes or no."},
		{name: "a write fed by a read's output, refused", api: "weather.Current", method: "POST", answer: "no thanks", asks: true, status: StatusDeclined},
		{name: "a write fed by a read's output, no answer", api: "weather.Current", method: "POST", asks: true, status: StatusClarifyTimeout},
		{name: "the request's policy is never", api: "weather.Current", method: "POST", reqPol: twnm.ConfirmNever, calls: 1, status: StatusAnswered},
		{name: "the API's policy wins", api: "weather.Current", method: "POST", apiPol: twnm.ConfirmNever, reqPol: twnm.ConfirmWrites, calls: 1, status: StatusAnswered},
		{name: "a destructive call of given values", api: "geo.Geocode", method: "DELETE", answer: "yes", asks: true, calls: 1, status: StatusAnswered,
			showing: "Shall I call geo.Geocode(city=Rome)? I ask because it deletes or overwrites what it acts on. Answer yes or no."},
		{name: "a write of given values", api: "geo.Geocode", method: "POST", calls: 1, status: StatusAnswered},
		{name: "a write of given values, every write confirmed", api: "geo.Geocode", method: "POST", reqPol: twnm.ConfirmWrites, answer: "y", asks: true, calls: 1, status: StatusAnswered},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(t, nil)
			res := retrieved("Rome")
			apis := maps.Clone(res.APIs)
			w := apis[tt.api]
			ep := *w.Endpoint
			ep.Method = tt.method
			w.Endpoint, w.Effect, w.Confirm = &ep, twnm.EffectIdempotent, tt.apiPol
			apis[tt.api], res.APIs = w, apis
			env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(res, nil)
			answers := map[string]map[string]any{"geo.Geocode": rome, "weather.Current": weather}
			calls := map[string]int{}
			for _, name := range []string{"geo.Geocode", "weather.Current"} {
				onCall(env, name).Return(func(context.Context, activities.CallToolInput) (activities.CallToolResult, error) {
					calls[name]++
					return toolOK(answers[name]), nil
				}).Maybe()
			}
			var pending Pending
			env.RegisterDelayedCallback(func() {
				s := state(t, env)
				pending = s.Pending()
				if tt.answer != "" && s.Status == StatusWaiting {
					env.UpdateWorkflow(AnswerUpdate, "a", &testsuite.TestUpdateCallback{
						OnReject: func(err error) { t.Errorf("answer rejected: %v", err) }, OnAccept: func() {}, OnComplete: func(any, error) {},
					}, ClarifyAnswer{Text: tt.answer})
				}
			}, time.Minute)
			(&feedbackSink{}).on(env)
			env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Rome", MaxSteps: 4, Confirm: tt.reqPol, ClarifyDeadline: time.Hour})
			out := result(t, env)
			assert.Equal(t, tt.status, out.Status, out.Answer)
			assert.Equal(t, tt.calls, calls[tt.api])
			if tt.asks {
				assert.Equal(t, tt.api, pending.Confirm, "the question asks to approve a call of %s", tt.api)
				if tt.showing != "" {
					assert.Equal(t, tt.showing, pending.Question)
				}
			} else {
				assert.Empty(t, pending.Question, "nothing to approve")
			}
			if tt.status == StatusDeclined {
				assert.Contains(t, out.Answer, `I did not call `+tt.api+`: you answered "no thanks"`)
			}
		})
	}
}

// A chain retrieval refused (a write the request does not ask for) ends the run no_tools,
// saying why.
func TestQueryWorkflowRefusedWrite(t *testing.T) {
	env := newEnv(t, nil)
	env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(activities.RetrieveResult{
		SubGoals: []activities.SubGoal{{Text: "DROP TABLE users", Relevant: true}, {Text: "'; DROP TABLE users; --", Whole: true, Relevant: true}},
		Refused:  "dine.Reserve would create, and the request asks to delete",
	}, nil)
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "'; DROP TABLE users; --", NoInertia: true})
	out := result(t, env)
	assert.Equal(t, StatusNoTools, out.Status, out.Answer)
	assert.Empty(t, out.Chain)
	assert.NotEmpty(t, traceWith(state(t, env), "No tool in the graph does what the request asks: dine.Reserve would create, and the request asks to delete."))
	assert.Contains(t, out.Answer, "dine.Reserve would create, and the request asks to delete", "the answer says why")
}
