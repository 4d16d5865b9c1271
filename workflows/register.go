package workflows

import (
	"fmt"
	"reflect"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/workflow"

	"github.com/naviagent/navi/contract"
)

// Registry is what Register needs of a worker, a test environment, a replayer or a plugin's
// registry.
type Registry interface {
	RegisterWorkflowWithOptions(w any, options workflow.RegisterOptions)
	RegisterActivityWithOptions(a any, options activity.RegisterOptions)
}

// Register adds Navi's workflows and the activities they run to r, under their Go names
// (QueryWorkflow, RetrainWorkflow, RateWorkflow; the methods of acts, an *activities.Activities: Decide,
// Retrieve, CallTool, ..., the names in package contract). acts is not typed here so that
// this package links none of the activities' dependencies (Neo4j's driver, the LLM client).
func Register(r Registry, acts any) {
	r.RegisterWorkflowWithOptions(QueryWorkflow, workflow.RegisterOptions{})
	r.RegisterWorkflowWithOptions(RetrainWorkflow, workflow.RegisterOptions{})
	r.RegisterWorkflowWithOptions(RateWorkflow, workflow.RegisterOptions{})
	r.RegisterActivityWithOptions(acts, activity.RegisterOptions{})
}

// TrainingActivities are the activities RetrainWorkflow runs on its training queue
// (RetrainRequest.TrainQueue): the model's training and its predictions, which take the
// machine. The others run on the queue of the workflows.
var TrainingActivities = []string{contract.ActivityTrainModel, contract.ActivityWriteModelPredictions}

// RegisterTraining adds to r the training activities alone, the methods of acts (an
// *activities.Activities) named in TrainingActivities: a training worker runs nothing else.
// It fails, naming the method, when acts lacks one.
func RegisterTraining(r Registry, acts any) error {
	v := reflect.ValueOf(acts)
	for _, name := range TrainingActivities {
		m := v.MethodByName(name)
		if !m.IsValid() {
			return fmt.Errorf("register the training activities: %T has no method %s", acts, name)
		}
		r.RegisterActivityWithOptions(m.Interface(), activity.RegisterOptions{Name: name})
	}
	return nil
}
