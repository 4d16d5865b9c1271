package navi_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/naviagent/navi"
	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/codec"
	"github.com/naviagent/navi/contract"
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

// hostClient is a host application's client with Navi's plugin made of o, its activities
// over the test stack's store; it closes when the test ends.
func hostClient(ctx context.Context, t *testing.T, o navi.Options) client.Client {
	t.Helper()
	store := stacktest.Store(t)
	o.Activities = &activities.Activities{Store: store, Models: store, Embedder: stacktest.Embedder(t),
		Tools: &toolcall.Client{Outputs: toolcall.DirStore{Dir: t.TempDir()}}}
	p, err := navi.NewPlugin(o)
	require.NoError(t, err)
	c, err := client.DialContext(ctx, client.Options{HostPort: stacktest.Env(t, stacktest.EnvTemporalAddress),
		Namespace: stacktest.Env(t, stacktest.EnvNamespace), Plugins: []client.Plugin{p}})
	require.NoError(t, err)
	t.Cleanup(c.Close)
	return c
}

// startHostWorker runs a worker of c on queue with the host's own workflow wf until the test
// ends.
func startHostWorker(t *testing.T, c client.Client, queue string, wf any) {
	t.Helper()
	w := worker.New(c, queue, worker.Options{})
	if wf != nil {
		w.RegisterWorkflow(wf)
		// The host's own activity has a name Navi's activities had before their navi. prefix:
		// registering it beside Navi's does not collide.
		w.RegisterActivityWithOptions(hostDecide, activity.RegisterOptions{Name: "Decide"})
	}
	require.NoError(t, w.Start())
	t.Cleanup(w.Stop)
}

// hostDecide is a host application's own activity, registered as "Decide".
func hostDecide(_ context.Context, name string) (string, error) {
	return "the host decided for " + name, nil
}

// greet is a host application's own workflow: it runs the host's Decide.
func greet(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var decided string
	if err := workflow.ExecuteActivity(ctx, "Decide", name).Get(ctx, &decided); err != nil {
		return "", err
	}
	return "hello " + name + ": " + decided, nil
}

// TestHostWorkerRunsNavi adds Navi to a host application's client as a plugin, with a codec:
// the host's worker, which registers only the host's own workflow and its own activity named
// Decide, runs them and a Navi query on the real stack, and Navi's payloads are encrypted.
func TestHostWorkerRunsNavi(t *testing.T) {
	stacktest.LoadToolWorld(t, stacktest.Store(t))
	key, err := codec.NewKey("host")
	require.NoError(t, err)
	keys, err := codec.ParseKeys(key, "")
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := hostClient(ctx, t, navi.Options{Codec: codec.New(keys)})
	queue := stacktest.UniqueName("navi-host-")
	startHostWorker(t, c, queue, greet)

	hello, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: stacktest.UniqueName("host-greet-"), TaskQueue: queue}, greet, "ops")
	require.NoError(t, err)
	var greeting string
	require.NoError(t, hello.Get(ctx, &greeting))
	assert.Equal(t, "hello ops: the host decided for ops", greeting)

	run, err := workflows.StartQuery(ctx, c, client.StartWorkflowOptions{ID: stacktest.UniqueName("host-navi-"), TaskQueue: queue},
		workflows.QueryRequest{Query: "What is the ground elevation at latitude 25.2048, longitude 55.2708?"})
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

// callOn runs one activity by name on a task queue, once, and returns its error: a host's
// probe of what a worker on that queue runs.
func callOn(ctx workflow.Context, queue, activity string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{TaskQueue: queue, StartToCloseTimeout: 10 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1}})
	err := workflow.ExecuteActivity(ctx, activity, "").Get(ctx, nil)
	if err != nil {
		return err.Error(), nil
	}
	return "", nil
}

// TestPluginTrainingWorker makes a second worker from the plugin's client on the training
// queue: it runs the training activities alone, so an agent activity sent there is refused by
// a worker that names what it runs.
func TestPluginTrainingWorker(t *testing.T) {
	trainQueue := stacktest.UniqueName("navi-host-train-")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := hostClient(ctx, t, navi.Options{TrainQueue: trainQueue})
	queue := stacktest.UniqueName("navi-host-")
	startHostWorker(t, c, queue, callOn)
	startHostWorker(t, c, trainQueue, nil)

	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: stacktest.UniqueName("host-probe-"), TaskQueue: queue},
		callOn, trainQueue, contract.Prefixed(contract.ActivityDecide))
	require.NoError(t, err)
	var refused string
	require.NoError(t, run.Get(ctx, &refused))
	assert.Contains(t, refused, "navi.Decide")
	assert.Contains(t, refused, "TrainModel", "the training worker names what it runs")
	assert.Contains(t, refused, "WriteModelPredictions")
	assert.NotContains(t, refused, "Retrieve", "and runs no agent activity")
}
