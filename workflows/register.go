package workflows

import (
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/workflow"
)

// Registry is what Register needs of a worker, a test environment, a replayer or a plugin's
// registry.
type Registry interface {
	RegisterWorkflowWithOptions(w any, options workflow.RegisterOptions)
	RegisterActivityWithOptions(a any, options activity.RegisterOptions)
}

// Register adds Navi's workflows and the activities they run to r, under their Go names
// (QueryWorkflow, RetrainWorkflow; the methods of acts, an *activities.Activities: Decide,
// Retrieve, CallTool, ..., the names in package contract). acts is not typed here so that
// this package links none of the activities' dependencies (Neo4j's driver, the LLM client).
func Register(r Registry, acts any) {
	r.RegisterWorkflowWithOptions(QueryWorkflow, workflow.RegisterOptions{})
	r.RegisterWorkflowWithOptions(RetrainWorkflow, workflow.RegisterOptions{})
	r.RegisterActivityWithOptions(acts, activity.RegisterOptions{})
}
