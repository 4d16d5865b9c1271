// Package contract is what callers of Navi's workflows and activities need, with no graph
// store driver, LLM client or numeric library linked: the activities' names, their inputs
// and results, the error types they fail with, their timeouts and retry policy, and the
// planner and search names a request chooses. The workflows run activities by these names,
// so that the package workflows links none of the activities' dependencies; package
// activities implements them (and keeps these types under their old names as aliases).
package contract

import (
	"slices"
	"strings"
)

// Names of Navi's activities: the methods of activities.Activities, under which a worker
// registers them (also with Prefix) and a workflow runs them (with Prefix since the
// workflows' navi-names change). Recorded histories name them so: they do not change.
const (
	ActivityDecide                = "Decide"
	ActivityRetrieve              = "Retrieve"
	ActivityCallTool              = "CallTool"
	ActivityRecombine             = "Recombine"
	ActivityRecordFeedback        = "RecordFeedback"
	ActivityPropagateWeights      = "PropagateWeights"
	ActivityTrainModel            = "TrainModel"
	ActivityEvaluateModel         = "EvaluateModel"
	ActivityWriteModelPredictions = "WriteModelPredictions"
	ActivityPruneAndProbe         = "PruneAndProbe"
	ActivityActivateModel         = "ActivateModel"
	ActivityPlannerName           = "PlannerName"
)

// Names of Navi's workflows: the functions of package workflows, registered under these with
// Prefix (navi.QueryWorkflowV2), which callers start, and, for the runs and schedules started
// before the prefix, without.
const (
	// WorkflowQuery is the query workflow's current type: its runs take every change made
	// before it as made, and record no version marker for them (docs/versioning.md).
	WorkflowQuery = "QueryWorkflowV2"
	// WorkflowQueryV1 is the query workflow's first type, whose runs record a version marker
	// for each change to its code (workflow.GetVersion). Workers keep it registered while its
	// runs may be open; nothing starts it any more.
	WorkflowQueryV1 = "QueryWorkflow"
	WorkflowRetrain = "RetrainWorkflow"
	WorkflowRate    = "RateWorkflow"
)

// Prefix starts the names Navi's activities are registered and scheduled under (navi.Decide,
// navi.CallTool): a host application's worker that runs Navi beside its own activities then
// never sees two "Decide". Runs recorded before the prefix schedule the bare names above, which
// workers keep registering for them.
const Prefix = "navi."

// Prefixed is name with Prefix.
func Prefixed(name string) string { return Prefix + name }

// Is reports whether a type name of a history, an activity's or a workflow's, prefixed or
// from before the prefix, is name.
func Is(typeName, name string) bool {
	return typeName == name || typeName == Prefixed(name)
}

// QueryTypes are the type names a run of the query workflow has: the current type, then the
// first, prefixed and from before the prefix.
var QueryTypes = []string{Prefixed(WorkflowQuery), Prefixed(WorkflowQueryV1), WorkflowQueryV1}

// IsQuery reports whether a history's workflow type name is one of QueryTypes.
func IsQuery(typeName string) bool { return slices.Contains(QueryTypes, typeName) }

// ErrorTypes lists error types with, for each, its name from before the prefix ("ToolRejected"
// for "navi.ToolRejected"), for a retry policy's NonRetryableErrorTypes: a run recorded before
// the prefix, replayed, and an activity of a worker not yet upgraded, fail with those.
func ErrorTypes(types ...string) []string {
	out := make([]string, 0, 2*len(types))
	for _, t := range types {
		out = append(out, t)
		if bare, ok := strings.CutPrefix(t, Prefix); ok {
			out = append(out, bare)
		}
	}
	return out
}

// Error types of non-retryable activity failures, as seen in the workflow history. Error
// types start with Prefix, as activity names do, so that a host's own errors never pass for
// Navi's.
const (
	ErrTypeInvalidInput = "navi.InvalidInput"
	ErrTypeGraphAuth    = "navi.Neo4jUnauthorized"
)
