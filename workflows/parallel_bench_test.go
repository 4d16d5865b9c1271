package workflows

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/workflow"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/planner"
)

// independentSteps is a plan of three tool calls none of which needs another's output.
func independentSteps() planner.Plan {
	given := func(param, v string) []planner.Binding {
		return []planner.Binding{{Param: param, Required: true, Source: planner.SourceGiven, Value: v}}
	}
	return planner.Plan{Target: "weather.Current", Score: 0.7, Steps: []planner.PlanStep{
		{API: "opengeo.Locate", Bindings: given("city_name", "Paris")},
		{API: "geo.Geocode", Bindings: given("city", "Rome")},
		{API: "weather.Current", Bindings: append(given("latitude", "41.9"), given("longitude", "12.5")...)},
	}}
}

// BenchmarkIndependentSteps runs a plan of three independent tool calls of 100 ms each in
// Temporal's test suite, with the steps called at once (parallelStepsChange) and one after
// another (as runs recorded before it): the wall time of one run per op.
func BenchmarkIndependentSteps(b *testing.B) {
	plan := independentSteps()
	slow := func(context.Context, activities.CallToolInput) (activities.CallToolResult, error) {
		time.Sleep(100 * time.Millisecond)
		return toolOK(weather), nil
	}
	for _, v := range []struct {
		name    string
		version workflow.Version
	}{{"at-once", parallelStepsVersion}, {"in-turn", workflow.DefaultVersion}} {
		b.Run(v.name, func(b *testing.B) {
			for range b.N {
				env := newEnv(b, &scriptedPlanner{decisions: []planner.Decision{
					{Action: planner.RetrieveAPI, RecallDescription: "weather"},
					{Action: planner.CallAPI, TargetAPI: "weather.Current"},
					{Action: planner.DirectAnswer, Answer: "done"},
				}})
				env.OnGetVersion(parallelStepsChange, workflow.DefaultVersion, parallelStepsVersion).Return(v.version)
				res := retrieved("Rome")
				res.Candidates[0].Plan = plan
				env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(res, nil)
				env.OnActivity("navi.CallTool", mock.Anything, mock.Anything).Return(slow)
				(&feedbackSink{}).on(env)
				env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Rome, and where is Paris?"})
				require.True(b, env.IsWorkflowCompleted())
				require.NoError(b, env.GetWorkflowError())
			}
		})
	}
}

// MaxParallel bounds the calls of a plan's independent steps that run at once.
func TestQueryWorkflowMaxParallel(t *testing.T) {
	plan := independentSteps()
	for _, tt := range []struct{ max, want int }{{0, 3}, {2, 2}, {1, 1}} {
		t.Run(fmt.Sprint(tt.max), func(t *testing.T) {
			var calls inFlight
			env := newEnv(t, nil)
			res := retrieved("Rome")
			res.Candidates[0].Plan = plan
			env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(res, nil)
			env.OnActivity("navi.CallTool", mock.Anything, mock.Anything).Return(calls.call(weather)).Times(3)
			(&feedbackSink{}).on(env)
			env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Rome, and where is Paris?", MaxParallel: tt.max})
			assert.Equal(t, StatusAnswered, result(t, env).Status)
			assert.Equal(t, tt.want, calls.max, "calls at once")
			env.AssertExpectations(t)
		})
	}
}
