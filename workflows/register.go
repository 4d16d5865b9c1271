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

// Register adds Navi's workflows and the activities they run to r: the workflows under their
// Go names (QueryWorkflow, RetrainWorkflow, RateWorkflow), the activities, the methods of acts
// (an *activities.Activities), under the names of package contract with contract.Prefix
// (navi.Decide, navi.Retrieve, navi.CallTool, ...), which runs schedule since the navi-names
// change, so that a host's own activities keep their names. A worker that still has runs
// started before that change adds RegisterBareNames. acts is not typed here so that this
// package links none of the activities' dependencies (Neo4j's driver, the LLM client).
func Register(r Registry, acts any) {
	r.RegisterWorkflowWithOptions(QueryWorkflow, workflow.RegisterOptions{})
	r.RegisterWorkflowWithOptions(RetrainWorkflow, workflow.RegisterOptions{})
	r.RegisterWorkflowWithOptions(RateWorkflow, workflow.RegisterOptions{})
	r.RegisterActivityWithOptions(acts, activity.RegisterOptions{Name: contract.Prefix})
}

// RegisterBareNames adds the activities of acts to r under their bare names too (Decide,
// CallTool, ...): the runs started before the navi-names change schedule those, and a worker
// that runs them needs them until they end. Navi's own worker registers them; a host whose
// own activities use such a name does not.
func RegisterBareNames(r Registry, acts any) {
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
		r.RegisterActivityWithOptions(m.Interface(), activity.RegisterOptions{Name: contract.Prefixed(name)})
	}
	return nil
}

// activityNamer returns how a run names the activities it schedules: with contract.Prefix from
// the navi-names change on, bare in the runs recorded before it. Each workflow calls it once, at
// its start.
func activityNamer(ctx workflow.Context) func(string) string {
	if workflow.GetVersion(ctx, prefixedNamesChange, workflow.DefaultVersion, prefixedNamesVersion) >= prefixedNamesVersion {
		return contract.Prefixed
	}
	return func(name string) string { return name }
}
