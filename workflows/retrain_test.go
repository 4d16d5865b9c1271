package workflows

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/temporal"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/twnm/hgt"
)

// The retrain workflow's branches in Temporal's test suite; e2e_retrain_test.go runs it on
// the real stack.

func TestRetrainWorkflow(t *testing.T) {
	trained := activities.TrainResult{Version: "hgt-v2", Metrics: hgt.Metrics{ValAUC: 0.8, AUC: 0.79}, Attempt: 1}
	tests := []struct {
		name      string
		eval      activities.EvaluateResult
		activated bool
		predicted bool
		shadow    bool
	}{
		{"better model is activated", activities.EvaluateResult{Version: "hgt-v2", ValAUC: 0.8, Active: "hgt-v1", ActiveValAUC: 0.7, NotWorse: true, Reason: "not worse"}, true, true, false},
		{"first model is activated", activities.EvaluateResult{Version: "hgt-v2", ValAUC: 0.8, NotWorse: true, Reason: "no model is active"}, true, true, false},
		{"worse model is kept out", activities.EvaluateResult{Version: "hgt-v2", ValAUC: 0.6, Active: "hgt-v1", ActiveValAUC: 0.7, Reason: "worse"}, false, false, false},
		{"a shadow run writes predictions and activates nothing", activities.EvaluateResult{Version: "hgt-v2", ValAUC: 0.8, NotWorse: true, Reason: "no model is active"}, false, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(t, nil)
			var order []string
			record := func(name string) { order = append(order, name) }
			env.OnActivity("navi.PropagateWeights", mock.Anything).Return(func(context.Context) (activities.PropagateResult, error) {
				record("propagate")
				return activities.PropagateResult{Edges: 10, Updated: 3}, nil
			}).Once()
			env.OnActivity("navi.TrainModel", mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.TrainInput) (activities.TrainResult, error) {
				record("train")
				assert.Equal(t, "hgt-v2", in.Version)
				assert.Equal(t, uint64(7), in.Config.Seed, "the request's config reaches training")
				return trained, nil
			}).Once()
			env.OnActivity("navi.EvaluateModel", mock.Anything, "hgt-v2").Return(func(context.Context, string) (activities.EvaluateResult, error) {
				record("evaluate")
				return tt.eval, nil
			}).Once()
			env.OnActivity("navi.WriteModelPredictions", mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.PredictInput) (activities.PredictResult, error) {
				record("predict")
				assert.Zero(t, in.MissingThreshold, "the model's own threshold")
				assert.Equal(t, DefaultMaxMissing, in.MaxMissing)
				return activities.PredictResult{Predicted: 12, Missing: 2, Written: 12}, nil
			}).Maybe()
			env.OnActivity("navi.PruneAndProbe", mock.Anything, mock.Anything).Return(func(context.Context, activities.PruneProbeInput) (activities.PruneProbeResult, error) {
				record("prune")
				return activities.PruneProbeResult{Pruned: []string{"old.API"}}, nil
			}).Once()
			env.OnActivity("navi.ActivateModel", mock.Anything, "hgt-v2").Return(func(context.Context, string) error {
				record("activate")
				return nil
			}).Maybe()

			cfg := hgt.DefaultConfig()
			cfg.Seed = 7
			env.ExecuteWorkflow(RetrainWorkflow, RetrainRequest{Version: "hgt-v2", Config: &cfg, NoActivate: tt.shadow})
			require.True(t, env.IsWorkflowCompleted())
			require.NoError(t, env.GetWorkflowError())
			var res RetrainResult
			require.NoError(t, env.GetWorkflowResult(&res))
			assert.Equal(t, tt.activated, res.Activated)
			assert.Equal(t, trained, res.Train)
			assert.Equal(t, []string{"old.API"}, res.Pruning.Pruned)
			want := []string{"propagate", "train", "evaluate", "predict", "prune", "activate"}
			switch {
			case !tt.predicted:
				want = []string{"propagate", "train", "evaluate", "prune"}
			case tt.shadow:
				want = want[:5]
			}
			assert.Equal(t, want, order)
		})
	}
}

func TestRetrainWorkflowTrainingFails(t *testing.T) {
	env := newEnv(t, nil)
	env.OnActivity("navi.PropagateWeights", mock.Anything).Return(activities.PropagateResult{}, nil)
	env.OnActivity("navi.TrainModel", mock.Anything, mock.Anything).Return(activities.TrainResult{},
		temporal.NewNonRetryableApplicationError("train: the graph has no behavioural edges", activities.ErrTypeTrainingInput, nil)).Once()
	env.ExecuteWorkflow(RetrainWorkflow, RetrainRequest{})
	require.True(t, env.IsWorkflowCompleted())
	err := env.GetWorkflowError()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no behavioural edges")
	env.AssertExpectations(t)
}
