package workflows

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/twnm"
)

func TestRateWorkflow(t *testing.T) {
	chain := contract.FeedbackInput{Key: "run/1/chain-1",
		Invocations: []twnm.Invocation{{API: "geo.Geocode", Success: true}, {API: "skycast.Now", Success: false}, {API: "weather.Current", Success: true}},
		Transitions: []twnm.Transition{{Kind: twnm.Feeds, From: "geo.Geocode", To: "weather.Current", Success: true}},
		Goals:       []contract.GoalFeedback{{API: "weather.Current", Text: "weather in Rome"}}}
	tests := []struct {
		name string
		good bool
	}{
		{"bad: what succeeded is taken back", false},
		{"good: what succeeded is confirmed", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(t, nil)
			var got []activities.FeedbackInput
			env.OnActivity("navi.RecordFeedback", mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.FeedbackInput) (activities.FeedbackResult, error) {
				got = append(got, in)
				return activities.FeedbackResult{Recorded: in, Fresh: true}, nil
			})
			env.ExecuteWorkflow(RateWorkflow, RateRequest{Workflow: "run", Good: tt.good, Chains: []contract.FeedbackInput{chain}})
			require.True(t, env.IsWorkflowCompleted())
			require.NoError(t, env.GetWorkflowError())
			var res RateResult
			require.NoError(t, env.GetWorkflowResult(&res))
			assert.Equal(t, RateResult{Chains: 1, Invocations: 1, Transitions: 1}, res, "the answering call and the flow into it")
			require.Len(t, got, 1)
			assert.Regexp(t, `^rating/.+/0$`, got[0].Key, "a key of the rating's own, not the run's")
			// The geocoder answered (its data is judged through the flow); skycast failed already.
			assert.Equal(t, []twnm.Invocation{{API: "weather.Current", Success: tt.good, Revised: true, Signal: twnm.SignalUser}}, got[0].Invocations)
			assert.Equal(t, []twnm.Transition{{Kind: twnm.Feeds, From: "geo.Geocode", To: "weather.Current", Success: tt.good, Revised: true}}, got[0].Transitions)
			assert.Empty(t, got[0].Goals, "a rating teaches retrieval nothing new")
			if tt.good {
				assert.Empty(t, got[0].Forget)
			} else {
				assert.Equal(t, []string{"run/1/chain-1"}, got[0].Forget, "a rejected run's sub-goals are forgotten")
			}
			assert.True(t, chain.Invocations[0].Success, "the request's chain is not changed")
		})
	}
	// A graph that stays down fails the rating, saying which chain; one that comes back is retried.
	env := newEnv(t, nil)
	env.OnActivity("navi.RecordFeedback", mock.Anything, mock.Anything).Return(activities.FeedbackResult{}, errors.New("neo4j is down")).Once()
	env.OnActivity("navi.RecordFeedback", mock.Anything, mock.Anything).Return(activities.FeedbackResult{}, nil).Once()
	env.ExecuteWorkflow(RateWorkflow, RateRequest{Workflow: "run", Chains: []contract.FeedbackInput{chain}})
	require.NoError(t, env.GetWorkflowError(), "retried after the graph came back")
	env.AssertExpectations(t)
}
