package workflows_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/workflow"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/workflows"
)

// registry records what is registered.
type registry struct{ workflows, activities []string }

func (r *registry) RegisterWorkflowWithOptions(_ any, o workflow.RegisterOptions) {
	r.workflows = append(r.workflows, o.Name)
}

func (r *registry) RegisterActivityWithOptions(_ any, o activity.RegisterOptions) {
	r.activities = append(r.activities, o.Name)
}

func TestRegisterTraining(t *testing.T) {
	var r registry
	require.NoError(t, workflows.RegisterTraining(&r, &activities.Activities{}))
	assert.Empty(t, r.workflows)
	assert.Equal(t, []string{"TrainModel", "navi.TrainModel", "WriteModelPredictions", "navi.WriteModelPredictions"}, r.activities)

	err := workflows.RegisterTraining(&registry{}, struct{}{})
	assert.ErrorContains(t, err, "struct {} has no method TrainModel")
}
