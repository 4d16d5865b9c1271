// Package navi is Navi as a Temporal plugin: add it to a client, and every worker made from
// that client runs Navi's workflows and activities beside the application's own, and every
// payload goes through Navi's codec when one is configured.
//
//	p, err := navi.NewPlugin(navi.Options{Activities: acts, Codec: cdc})
//	c, err := client.Dial(client.Options{HostPort: "localhost:7233", Plugins: []client.Plugin{p}})
//	w := worker.New(c, "my-queue", worker.Options{})
//	w.RegisterWorkflow(MyWorkflow) // the application's own, beside Navi's
//	err = w.Run(worker.InterruptCh())
//
// Start a query with workflows.StartQuery(ctx, c, opts, workflows.QueryRequest{Query: "..."}),
// which retries a start lost in transit under opts.ID, or by its registered name:
// c.ExecuteWorkflow(ctx, opts, "navi.QueryWorkflowV2", ...) (contract.Prefixed(contract.WorkflowQuery)).
package navi

import (
	"context"
	"errors"
	"sync"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/codec"
	"github.com/naviagent/navi/workflows"
)

// PluginName is the name the plugin registers under.
const PluginName = "navi"

// TrainQueueOff is the Options.TrainQueue of a client with no training worker.
const TrainQueueOff = "off"

// Options configures the plugin.
type Options struct {
	// Activities holds what Navi's activities use: the graph store (Store; Models defaults
	// to it when it is the same store), the tool client, the embedder the graph
	// was built with, and an LLM planner or none.
	Activities *activities.Activities
	// Codec encrypts every payload of the client and its workers (codec.New); nil leaves
	// payloads as they are.
	Codec *codec.Codec
	// TrainQueue is the task queue of the retraining's heavy activities
	// (workflows.TrainingActivities); empty means workflows.DefaultTrainQueue. A worker made
	// from the client on that queue runs those activities alone; every other worker runs
	// Navi's workflows and all its activities. TrainQueueOff makes no worker a training one
	// (the workflows' own worker then runs the training too).
	TrainQueue string
	// BareNames also registers the workflows and activities under their names without
	// contract.Prefix (QueryWorkflow, Decide, CallTool, ...), for runs and schedules started
	// before Navi used the prefixed ones: a worker that took over such runs needs them until
	// they end. Off, a host's own workflow may be called QueryWorkflow and its activity Decide.
	// Callers start Navi's workflows by their prefixed names (navi.QueryWorkflowV2).
	BareNames bool
}

// NewPlugin returns the plugin for a client's Options.Plugins. It checks first that the
// activities have what every run needs (the graph store, the tool client and the embedder),
// so that a worker fails at its start, saying what is missing, rather than a run at the
// activity that needs it.
func NewPlugin(o Options) (*temporal.SimplePlugin, error) {
	acts := o.Activities
	switch {
	case acts == nil:
		return nil, errors.New("navi plugin: Options.Activities is nil")
	case acts.Store == nil:
		return nil, errors.New("navi plugin: Activities.Store is nil: Navi needs its graph store (neo4j.Open)")
	case acts.Tools == nil:
		return nil, errors.New("navi plugin: Activities.Tools is nil: Navi needs a tool client (toolcall.Client) to call tools")
	case acts.Embedder == nil:
		return nil, errors.New("navi plugin: Activities.Embedder is nil: Navi needs the embedder its graph was built with (embed.Standard)")
	}
	trainQueue := o.TrainQueue
	if trainQueue == "" {
		trainQueue = workflows.DefaultTrainQueue
	}
	var training sync.Map // worker instance key → true for a worker on trainQueue
	so := temporal.SimplePluginOptions{
		Name: PluginName,
		ConfigureWorker: func(_ context.Context, wo worker.PluginConfigureWorkerOptions) error {
			if wo.TaskQueue == trainQueue && trainQueue != TrainQueueOff {
				training.Store(wo.WorkerInstanceKey, true)
			}
			return nil
		},
		RunContextBefore: func(_ context.Context, rc temporal.SimplePluginRunContextBeforeOptions) error {
			if _, ok := training.Load(rc.InstanceKey); ok && !rc.WorkflowReplayer {
				return workflows.RegisterTraining(rc.Registry, acts)
			}
			workflows.Register(rc.Registry, acts) // a replayer's registry ignores the activities
			if o.BareNames {
				workflows.RegisterBareNames(rc.Registry, acts)
			}
			return nil
		},
	}
	if o.Codec != nil {
		so.DataConverter, so.FailureConverter = o.Codec.DataConverter(), o.Codec.FailureConverter()
	}
	return temporal.NewSimplePlugin(so)
}
