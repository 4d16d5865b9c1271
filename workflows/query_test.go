package workflows

import (
	"errors"
	"log/slog"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/neo4j"
)

func newEnv(t *testing.T) *testsuite.TestWorkflowEnvironment {
	var s testsuite.WorkflowTestSuite
	s.SetLogger(sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))))
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(QueryWorkflow)
	env.RegisterActivity(&activities.Activities{})
	return env
}

var weatherTools = activities.LookupToolsResult{
	Terms: []string{"weather", "paris"},
	Tools: []neo4j.APIMatch{
		{Name: "GetWeatherForCoordinates", Description: "Current weather.", Inputs: []string{"latitude", "longitude"}, Outputs: []string{"temperature"}, Score: 1},
	},
	Graph: neo4j.Counts{APIs: 14, Params: 43, Edges: 55},
}

func TestQueryWorkflowAnswers(t *testing.T) {
	env := newEnv(t)
	env.OnActivity("LookupTools", mock.Anything, activities.LookupToolsInput{Query: "weather in Paris"}).
		Return(weatherTools, nil).Once()
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "  weather in Paris "})
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, env.GetWorkflowError())
	var res QueryResult
	require.NoError(t, env.GetWorkflowResult(&res))

	assert.Equal(t, StatusAnswered, res.Status)
	assert.Equal(t, PlannerGraphLookup, res.Planner)
	assert.Equal(t, 1, res.Steps)
	assert.Equal(t, weatherTools.Tools, res.Tools)
	assert.Equal(t, "1 of 14 APIs in the tool graph fit \"weather in Paris\":\n"+
		"- GetWeatherForCoordinates(latitude, longitude) -> temperature: Current weather.", res.Answer)

	v, err := env.QueryWorkflow(StateQuery)
	require.NoError(t, err)
	var final QueryState
	require.NoError(t, v.Get(&final))
	assert.Equal(t, QueryState{Query: "weather in Paris", Status: StatusAnswered, Step: 1, Planner: PlannerGraphLookup}, final)
	env.AssertExpectations(t)
}

func TestQueryWorkflowNoTools(t *testing.T) {
	env := newEnv(t)
	env.OnActivity("LookupTools", mock.Anything, mock.Anything).
		Return(activities.LookupToolsResult{Terms: []string{"zebra"}, Graph: neo4j.Counts{APIs: 3, Params: 5}}, nil)
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "zebra"})
	require.NoError(t, env.GetWorkflowError())
	var res QueryResult
	require.NoError(t, env.GetWorkflowResult(&res))
	assert.Equal(t, StatusNoTools, res.Status)
	assert.Equal(t, `No tool in the graph (3 APIs, 5 parameters) matches "zebra" (looked for: zebra).`, res.Answer)
}

func TestQueryWorkflowRejectsEmptyQuery(t *testing.T) {
	env := newEnv(t)
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: " \n "})
	err := env.GetWorkflowError()
	require.Error(t, err)
	var appErr *temporal.ApplicationError
	require.True(t, errors.As(err, &appErr), "want an application error, got %v", err)
	assert.Equal(t, activities.ErrTypeInvalidInput, appErr.Type())
	assert.True(t, appErr.NonRetryable())
}

func TestQueryWorkflowFailsOnNonRetryableGraphError(t *testing.T) {
	env := newEnv(t)
	env.OnActivity("LookupTools", mock.Anything, mock.Anything).
		Return(activities.LookupToolsResult{}, temporal.NewNonRetryableApplicationError("bad credentials", activities.ErrTypeGraphAuth, nil)).Once()
	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather"})
	err := env.GetWorkflowError()
	require.Error(t, err)
	var actErr *temporal.ActivityError
	require.True(t, errors.As(err, &actErr), "want an activity error, got %v", err)
	var appErr *temporal.ApplicationError
	require.True(t, errors.As(actErr.Unwrap(), &appErr))
	assert.Equal(t, activities.ErrTypeGraphAuth, appErr.Type())
	assert.Contains(t, err.Error(), "look up tools")
	env.AssertExpectations(t) // called once: no retries of a non-retryable failure
}

func TestQuote(t *testing.T) {
	assert.Equal(t, `"short"`, quote("short", 10))
	assert.Equal(t, `"abcdefghi…"`, quote("abcdefghijklmnop", 10))
	assert.Equal(t, `"日本語…"`, quote("日本語テキスト", 4))
}
