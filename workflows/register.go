package workflows

import (
	"fmt"
	"reflect"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/workflow"

	"github.com/naviagent/navi/contract"
)

// WorkflowRegistry is what RegisterReplay needs of a replayer.
type WorkflowRegistry interface {
	RegisterWorkflowWithOptions(w any, options workflow.RegisterOptions)
}

// Registry is what Register needs of a worker, a test environment or a plugin's registry.
type Registry interface {
	WorkflowRegistry
	RegisterActivityWithOptions(a any, options activity.RegisterOptions)
}

// navWorkflows are Navi's workflows and their names in package contract. The query workflow
// has two types, one function: its first (V1) and its current, which comes last so that a
// caller or a test that starts the function starts the current type.
var navWorkflows = []struct {
	fn   any
	name string
}{
	{QueryWorkflow, contract.WorkflowQueryV1},
	{QueryWorkflow, contract.WorkflowQuery},
	{RetrainWorkflow, contract.WorkflowRetrain},
	{RateWorkflow, contract.WorkflowRate},
}

// registerWorkflows adds Navi's workflows to r, under their names with contract.Prefix, or,
// with bare, under their Go names, which are contract's names of the types from before the
// prefix (no alias: a worker that has both still starts and continues the prefixed ones when
// given the function).
func registerWorkflows(r WorkflowRegistry, bare bool) {
	for _, w := range navWorkflows {
		o := workflow.RegisterOptions{Name: contract.Prefixed(w.name)}
		if bare {
			if w.name == contract.WorkflowQuery {
				continue // the current type came after the prefix: it has no bare name
			}
			o = workflow.RegisterOptions{}
		}
		r.RegisterWorkflowWithOptions(w.fn, o)
	}
}

// Register adds Navi's workflows and the activities they run to r, under the names of package
// contract with contract.Prefix: the workflows navi.QueryWorkflow, navi.RetrainWorkflow and
// navi.RateWorkflow, which callers start by name, and the activities, the methods of acts (an
// *activities.Activities), navi.Decide, navi.Retrieve, navi.CallTool, ..., which runs schedule
// since the navi-names change; a host's own workflows and activities keep their names. A
// worker that still has runs or schedules from before the prefix adds RegisterBareNames. acts
// is not typed here so that this package links none of the activities' dependencies (Neo4j's
// driver, the LLM client).
func Register(r Registry, acts any) {
	registerWorkflows(r, false)
	r.RegisterActivityWithOptions(acts, activity.RegisterOptions{Name: contract.Prefix})
}

// RegisterBareNames adds the workflows and the activities of acts to r under their bare names
// too (QueryWorkflow, Decide, CallTool, ...): the runs and schedules started before the prefix
// use those, and a worker that runs them needs them until they end. Navi's own worker registers
// them; a host whose own workflows or activities use such a name does not.
func RegisterBareNames(r Registry, acts any) {
	registerWorkflows(r, true)
	r.RegisterActivityWithOptions(acts, activity.RegisterOptions{})
}

// RegisterReplay adds Navi's workflows to a replayer under both names, so that it replays the
// histories of runs started before the prefix and after.
func RegisterReplay(r WorkflowRegistry) {
	registerWorkflows(r, false)
	registerWorkflows(r, true)
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
	if version(ctx, prefixedNamesChange, prefixedNamesVersion) >= prefixedNamesVersion {
		return contract.Prefixed
	}
	return func(name string) string { return name }
}

// version is workflow.GetVersion of change, for the changes made before the query workflow's
// current type (contract.WorkflowQuery): a run of that type takes every one of them as made,
// max, and records no marker; a run of another type (the query workflow's first,
// contract.WorkflowQueryV1, and the other workflows) records one, as before. A change made
// after the current type calls workflow.GetVersion itself. See docs/versioning.md.
func version(ctx workflow.Context, change string, max workflow.Version) workflow.Version {
	if currentType(ctx) {
		return max
	}
	return workflow.GetVersion(ctx, change, workflow.DefaultVersion, max)
}

// currentType reports whether the run is of the query workflow's current type.
func currentType(ctx workflow.Context) bool {
	return workflow.GetInfo(ctx).WorkflowType.Name == contract.Prefixed(contract.WorkflowQuery)
}
