// Package contract is what callers of Navi's workflows and activities need, with no graph
// store driver, LLM client or numeric library linked: the activities' names, their inputs
// and results, the error types they fail with, their timeouts and retry policy, and the
// planner and search names a request chooses. The workflows run activities by these names,
// so that the package workflows links none of the activities' dependencies; package
// activities implements them (and keeps these types under their old names as aliases).
package contract

// Names of Navi's activities: the methods of activities.Activities, under which a worker
// registers them (also with Prefix) and a workflow runs them (with Prefix since the
// workflows' navi-names change). Recorded histories name them so: they do not change.
const (
	ActivityDecide                = "Decide"
	ActivityRetrieve              = "Retrieve"
	ActivityCallTool              = "CallTool"
	ActivityRecombine             = "Recombine"
	ActivityRecordFeedback        = "RecordFeedback"
	ActivityLookupTools           = "LookupTools"
	ActivityPropagateWeights      = "PropagateWeights"
	ActivityTrainModel            = "TrainModel"
	ActivityEvaluateModel         = "EvaluateModel"
	ActivityWriteModelPredictions = "WriteModelPredictions"
	ActivityPruneAndProbe         = "PruneAndProbe"
	ActivityActivateModel         = "ActivateModel"
)

// Prefix starts the names Navi's activities are registered and scheduled under (navi.Decide,
// navi.CallTool): a host application's worker that runs Navi beside its own activities then
// never sees two "Decide". Runs recorded before the prefix schedule the bare names above, which
// workers keep registering for them.
const Prefix = "navi."

// Prefixed is name with Prefix.
func Prefixed(name string) string { return Prefix + name }

// IsActivity reports whether an activity type of a history, prefixed or from before the
// prefix, is the activity name.
func IsActivity(activityType, name string) bool {
	return activityType == name || activityType == Prefixed(name)
}

// Error types of non-retryable LookupTools failures, as seen in the workflow history.
const (
	ErrTypeInvalidInput = "InvalidInput"
	ErrTypeGraphAuth    = "Neo4jUnauthorized"
)
