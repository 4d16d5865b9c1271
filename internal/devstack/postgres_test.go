package devstack

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// TestTemporalOnPostgres starts the real thing `make up PERSISTENCE=postgres` starts: the
// PostgreSQL binaries of `make postgres` (a cluster created on first start), then the dev
// server on it, which creates and migrates Temporal's two databases and registers the
// namespace with Navi's search attributes. A workflow runs to its end on it; the server
// restarted on the same data finds its history again. It fails, never skips, when the
// binaries are missing: make test builds them.
func TestTemporalOnPostgres(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	state := t.TempDir()
	// As root, the server runs as nobody, who must reach its folder (.state is 0755).
	for _, d := range []string{filepath.Dir(state), state} {
		require.NoError(t, os.Chmod(d, 0o755))
	}
	o := Options{Root: root, StateDir: state, Persistence: "postgres"}
	require.NoError(t, o.defaults())
	require.NoError(t, os.MkdirAll(o.runDir(), 0o755))
	require.NoError(t, os.MkdirAll(o.logDir(), 0o755))
	for _, p := range []*int{&o.PostgresPort, &o.TemporalPort} {
		*p, err = freePort(o.IP)
		require.NoError(t, err)
	}
	t.Cleanup(func() { _ = Down(o.StateDir, os.Stderr) })
	ep := o.endpoints()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	up := func(s *service) {
		pid, exited, err := start(o, s)
		require.NoError(t, err)
		require.NoError(t, waitHealthy(ctx, o, s, pid, exited), "%s", s.name)
	}
	up(o.postgres())
	node := o.temporalNode(ep, 1)
	node.healthy = func(ctx context.Context, _ int) error { return temporalHealthy(ctx, ep) } // no UI: port 0
	up(node)

	c, err := dial(ctx, ep)
	require.NoError(t, err)
	defer c.Close()
	attrs, err := c.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: ep.Namespace})
	require.NoError(t, err)
	assert.Contains(t, attrs.GetCustomAttributes(), "NaviToolsUsed", "the namespace has Navi's search attributes")

	w := worker.New(c, "pg-test", worker.Options{})
	w.RegisterWorkflowWithOptions(func(ctx workflow.Context, s string) (string, error) { return "hello " + s, nil },
		workflow.RegisterOptions{Name: "greet"})
	require.NoError(t, w.Start())
	defer w.Stop()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "pg-greet", TaskQueue: "pg-test"}, "greet", "postgres")
	require.NoError(t, err)
	var got string
	require.NoError(t, run.Get(ctx, &got))
	assert.Equal(t, "hello postgres", got)

	// The data outlives the server: restarted, it describes the finished run.
	pid, err := readPid(node.pidFile(o))
	require.NoError(t, err)
	require.NoError(t, stop(pid, 30*time.Second))
	up(node)
	// Healthy is the frontend answering; the history shards it reads from PostgreSQL may take a
	// moment more after a restart (one call timed out there), so the read is tried again.
	require.EventuallyWithT(t, func(ct *assert.CollectT) {
		desc, err := c.DescribeWorkflowExecution(ctx, "pg-greet", "")
		require.NoError(ct, err)
		assert.Equal(ct, enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED, desc.GetWorkflowExecutionInfo().GetStatus())
	}, 2*time.Minute, time.Second, "the restarted server describes the finished run")
}
