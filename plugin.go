// Package navi is Navi as a Temporal plugin: add it to a client, and every worker made from
// that client runs Navi's workflows and activities beside the application's own, and every
// payload goes through Navi's codec when one is configured.
//
//	p, err := navi.NewPlugin(navi.Options{Activities: acts, Codec: cdc})
//	c, err := client.Dial(client.Options{HostPort: "localhost:7233", Plugins: []client.Plugin{p}})
//	w := worker.New(c, "my-queue", worker.Options{})
//	w.RegisterWorkflow(MyWorkflow) // the application's own, beside Navi's
//	err = w.Run(worker.InterruptCh())
package navi

import (
	"context"
	"errors"

	"go.temporal.io/sdk/temporal"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/codec"
	"github.com/naviagent/navi/workflows"
)

// PluginName is the name the plugin registers under.
const PluginName = "navi"

// Options configures the plugin.
type Options struct {
	// Activities holds what Navi's activities use: the graph store (Store; Graph and Models
	// default to it when they are the same store), the tool client, the embedder the graph
	// was built with, and an LLM planner or none.
	Activities *activities.Activities
	// Codec encrypts every payload of the client and its workers (codec.New); nil leaves
	// payloads as they are.
	Codec *codec.Codec
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
	so := temporal.SimplePluginOptions{
		Name: PluginName,
		RunContextBefore: func(_ context.Context, rc temporal.SimplePluginRunContextBeforeOptions) error {
			workflows.Register(rc.Registry, acts) // a replayer's registry ignores the activities
			return nil
		},
	}
	if o.Codec != nil {
		so.DataConverter, so.FailureConverter = o.Codec.DataConverter(), o.Codec.FailureConverter()
	}
	return temporal.NewSimplePlugin(so)
}
