package workflows

import (
	"go.temporal.io/sdk/worker"

	"github.com/naviagent/navi/activities"
)

// Register adds Navi's workflows and the activities they run to a worker (or a test
// environment, or a replayer).
func Register(r worker.Registry, acts *activities.Activities) {
	r.RegisterWorkflow(QueryWorkflow)
	r.RegisterWorkflow(RetrainWorkflow)
	r.RegisterActivity(acts)
}
