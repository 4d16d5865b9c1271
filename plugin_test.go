package navi_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/naviagent/navi"
	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/codec"
	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/toolcall"
	"github.com/naviagent/navi/workflows"
)

func TestNewPluginChecksItsDependencies(t *testing.T) {
	store := stacktest.Store(t)
	full := func() *activities.Activities {
		return &activities.Activities{Store: store, Tools: &toolcall.Client{}, Embedder: stacktest.Embedder(t)}
	}
	tests := []struct {
		name string
		edit func(a *activities.Activities) *activities.Activities
		want string
	}{
		{"no activities", func(*activities.Activities) *activities.Activities { return nil }, "Options.Activities is nil"},
		{"no store", func(a *activities.Activities) *activities.Activities { a.Store = nil; return a }, "Activities.Store is nil"},
		{"no tools", func(a *activities.Activities) *activities.Activities { a.Tools = nil; return a }, "Activities.Tools is nil"},
		{"no embedder", func(a *activities.Activities) *activities.Activities { a.Embedder = nil; return a }, "Activities.Embedder is nil"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := navi.NewPlugin(navi.Options{Activities: tt.edit(full())})
			require.ErrorContains(t, err, tt.want)
		})
	}
	p, err := navi.NewPlugin(navi.Options{Activities: full()})
	require.NoError(t, err)
	assert.Equal(t, navi.PluginName, p.Name())
}

// greet is a host application's own workflow.
func greet(_ workflow.Context, name string) (string, error) { return "hello " + name, nil }

// TestHostWorkerRunsNavi adds Navi to a host application's client as a plugin, with a codec:
// the host's worker, which registers only the host's own workflow, runs it and a Navi query
// on the real stack, and Navi's payloads are encrypted.
func TestHostWorkerRunsNavi(t *testing.T) {
	store := stacktest.Store(t)
	stacktest.LoadToolWorld(t, store)
	key, err := codec.NewKey("host")
	require.NoError(t, err)
	keys, err := codec.ParseKeys(key, "")
	require.NoError(t, err)
	p, err := navi.NewPlugin(navi.Options{Codec: codec.New(keys), Activities: &activities.Activities{
		Graph: store, Store: store, Models: store, Embedder: stacktest.Embedder(t),
		Tools: &toolcall.Client{Outputs: toolcall.DirStore{Dir: t.TempDir()}}}})
	require.NoError(t, err)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := client.DialContext(ctx, client.Options{HostPort: stacktest.Env(t, stacktest.EnvTemporalAddress),
		Namespace: stacktest.Env(t, stacktest.EnvNamespace), Plugins: []client.Plugin{p}})
	require.NoError(t, err)
	defer c.Close()
	queue := stacktest.UniqueName("navi-host-")
	w := worker.New(c, queue, worker.Options{})
	w.RegisterWorkflow(greet)
	require.NoError(t, w.Start())
	defer w.Stop()

	hello, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: stacktest.UniqueName("host-greet-"), TaskQueue: queue}, greet, "ops")
	require.NoError(t, err)
	var greeting string
	require.NoError(t, hello.Get(ctx, &greeting))
	assert.Equal(t, "hello ops", greeting)

	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: stacktest.UniqueName("host-navi-"), TaskQueue: queue},
		workflows.QueryWorkflow, workflows.QueryRequest{Query: "What is the ground elevation at latitude 25.2048, longitude 55.2708?"})
	require.NoError(t, err)
	var res workflows.QueryResult
	require.NoError(t, run.Get(ctx, &res))
	require.Equal(t, workflows.StatusAnswered, res.Status, res.Answer)
	assert.Contains(t, res.Chain, "geo.Elevation")

	// The plugin's codec is the client's: read without it, the run's input is ciphertext.
	plain := stacktest.TemporalClient(t)
	it := plain.GetWorkflowHistory(ctx, run.GetID(), run.GetRunID(), false, 0)
	first, err := it.Next()
	require.NoError(t, err)
	input := first.GetWorkflowExecutionStartedEventAttributes().GetInput().GetPayloads()
	require.Len(t, input, 1)
	assert.Equal(t, codec.Encoding, string(input[0].GetMetadata()[converter.MetadataEncoding]))
}
