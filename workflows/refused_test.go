package workflows

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/twnm"
)

// A tool that refuses a value the user stated (its 400 names the input) is not routed around:
// another tool would answer something else from a value the user did not mean. The run asks
// for that input once, with the tool's reason, and calls the tool again with the answer; with
// no answer it ends as a clarification timeout that says what was refused. A refusal that
// names no input, or an input the user did not state, is recombined as before.
func TestQueryWorkflowAsksForARefusedValue(t *testing.T) {
	const (
		named  = `{"api":"geo.Geocode","error":"unknown city \"Rom\"","parameter":"city"}`
		quoted = `{"error":"unknown city \"Rom\""}`
		asked  = `geo.Geocode did not accept "Rom" as the city (unknown city "Rom"). Which city should I use?`
	)
	tests := []struct {
		name       string
		param      string // the input the refusal names
		body       string
		answer     string // the user's, "" for none
		status     string
		question   string
		recombined bool
	}{
		{name: "the user gives the value", param: "city", body: named, answer: "Rome", status: StatusAnswered, question: asked},
		{name: "no answer", param: "city", body: named, status: StatusClarifyTimeout, question: asked},
		{name: "the refusal quotes the value", body: quoted, answer: "Rome", status: StatusAnswered, question: asked},
		{name: "no input named or quoted", body: `{"error":"bad request"}`, status: StatusFailed, recombined: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(t, nil)
			env.OnActivity("navi.Retrieve", mock.Anything, mock.MatchedBy(func(in activities.RetrieveInput) bool { return len(in.Exclude) == 0 })).
				Return(retrieved("Rom"), nil).Once()
			env.OnActivity("navi.Retrieve", mock.Anything, mock.MatchedBy(func(in activities.RetrieveInput) bool { return len(in.Exclude) == 1 })).
				Return(activities.RetrieveResult{}, nil).Maybe()
			var cities []string
			onCall(env, "geo.Geocode").Return(func(_ context.Context, in activities.CallToolInput) (activities.CallToolResult, error) {
				cities = append(cities, in.Args["city"])
				if in.Args["city"] == "Rom" {
					return activities.CallToolResult{}, temporal.NewNonRetryableApplicationError("geo.Geocode: HTTP 400", activities.ErrTypeToolRejected,
						nil, activities.ToolFailure{API: "geo.Geocode", Param: tt.param, Status: 400, Body: tt.body})
				}
				return toolOK(rome), nil
			})
			onCall(env, "weather.Current").Return(toolOK(weather), nil).Maybe()
			recombined := false
			for _, s := range []string{twnm.StrategySubstitution, twnm.StrategyUpstreamReroute, twnm.StrategySubgraphSwitch} {
				onRecombine(env, s).Return(func(context.Context, activities.RecombineInput) (activities.RecombineResult, error) {
					recombined = true
					return activities.RecombineResult{Strategy: s, Reason: "no usable API other than geo.Geocode provides latitude"}, nil
				}).Maybe()
			}
			asked := ""
			env.RegisterDelayedCallback(func() {
				s := state(t, env)
				asked = s.Question
				if tt.answer != "" {
					require.Equal(t, StatusWaiting, s.Status)
					assert.Equal(t, []string{"geo.Geocode.city"}, s.QuestionParams)
					env.UpdateWorkflow(AnswerUpdate, "a", &testsuite.TestUpdateCallback{
						OnReject: func(err error) { t.Errorf("answer rejected: %v", err) }, OnAccept: func() {}, OnComplete: func(any, error) {},
					}, ClarifyAnswer{Text: tt.answer})
				}
			}, time.Second)
			var fb feedbackSink
			fb.on(env)

			env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Rom", ClarifyDeadline: time.Minute, MaxSteps: 6})
			res := result(t, env)
			assert.Equal(t, tt.status, res.Status, res.Answer)
			assert.Equal(t, tt.question, asked)
			assert.Equal(t, tt.recombined, recombined)
			switch tt.status {
			case StatusAnswered:
				assert.Equal(t, []string{"Rom", "Rome"}, cities)
				assert.Equal(t, 21.5, res.Results["weather.Current"]["temp_c"])
				for _, run := range fb.runs {
					for _, inv := range run.Invocations {
						assert.True(t, inv.Success, "the refused value is not held against %s", inv.API)
					}
				}
			case StatusClarifyTimeout:
				assert.Equal(t, []string{"Rom"}, cities)
				assert.Contains(t, res.Answer, `geo.Geocode did not accept "Rom" as the city (unknown city "Rom"), and no other city arrived within 1m0s.`)
			}
		})
	}
}
