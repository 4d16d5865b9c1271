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
	proposed := chain
	proposed.GoalsOnRating = true
	tests := []struct {
		name      string
		chain     contract.FeedbackInput
		good      bool
		wantGoals []contract.GoalFeedback // recorded by the rating, under the run's key
		forget    []string
	}{
		{"bad: what succeeded is taken back", chain, false, nil, []string{"run/1/chain-1"}},
		{"good: what succeeded is confirmed", chain, true, nil, nil},
		{"bad, goals awaiting the verdict: none is learned, none stays", proposed, false, nil, []string{"run/1/chain-1"}},
		{"good, goals awaiting the verdict: retrieval learns them", proposed, true, chain.Goals, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(t, nil)
			var got []activities.FeedbackInput
			env.OnActivity("navi.RecordFeedback", mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.FeedbackInput) (activities.FeedbackResult, error) {
				got = append(got, in)
				return activities.FeedbackResult{Recorded: in, Fresh: true}, nil
			})
			env.ExecuteWorkflow(RateWorkflow, RateRequest{Workflow: "run", Good: tt.good, Chains: []contract.FeedbackInput{tt.chain}})
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
			assert.Equal(t, tt.wantGoals, got[0].Goals)
			if tt.wantGoals != nil {
				assert.Equal(t, "run/1/chain-1", got[0].GoalsKey, "under the run's key: a later bad verdict forgets them")
			}
			assert.False(t, got[0].GoalsOnRating, "the rating records what it carries")
			assert.Equal(t, tt.forget, got[0].Forget)
			assert.True(t, tt.chain.Invocations[0].Success, "the request's chain is not changed")
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
