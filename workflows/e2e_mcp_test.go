package workflows_test

import (
	"context"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/mcptool"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/planner/llm"
	"github.com/naviagent/navi/planner/llm/llmtest"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/workflows"
)

// importMCPTool imports the tool of the reference MCP server whose name ends in suffix into
// the real Neo4j, under a catalog of the test's own, removed when the test ends: the shared
// store serves other tests at the same time.
func importMCPTool(ctx context.Context, t *testing.T, store *neo4j.Store, suffix string) twnm.API {
	t.Helper()
	bin, err := filepath.Abs("../mcptool/testdata/server/node_modules/.bin/mcp-server-everything")
	require.NoError(t, err)
	full, err := mcptool.Import(ctx, mcptool.StdioPrefix+bin)
	require.NoError(t, err, "the test MCP server is not installed: run make mcp-servers")
	var tool twnm.API
	for _, a := range full.APIs {
		if strings.HasSuffix(a.Name, suffix) {
			tool = a
		}
	}
	require.NotEmpty(t, tool.Name, "no tool %s", suffix)
	// Named after the test, so that no other import of the server's tools stands in its way.
	name := "mcp-e2e-" + strings.ToLower(t.Name())
	tool.Name, tool.Provider = name+"."+tool.MCP.Tool, name
	cat := twnm.Catalog{Name: name, APIs: []twnm.API{tool}}
	_, err = store.LoadCatalogWith(ctx, cat, neo4j.ImportOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { _, _ = store.DeleteCatalog(context.Background(), cat.Name) })
	return tool
}

// TestAgentCallsAnMCPTool imports the get-sum tool of the reference MCP server
// (@modelcontextprotocol/server-everything, over stdio, as make mcp-servers installs it)
// into the real Neo4j, and a run retrieves and calls it: the call goes through the CallTool
// activity to the server, and the activity's summary names the tool.
func TestAgentCallsAnMCPTool(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	sum := importMCPTool(ctx, t, stacktest.Store(t), ".get-sum")
	pool := &mcptool.Pool{}
	defer pool.Close()
	srv := llmtest.New(t, toolScript(sum.Name, "SumAPI(description: returns the sum of two numbers, input: a:number, b:number)",
		map[string]string{"a": "2", "b": "3.5"}, "2 and 3.5 make 5.5."))
	p, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "scripted"})
	require.NoError(t, err)
	a := startAgent(t, agentOptions{LLM: p, MCP: pool})

	run, res := a.ask(ctx, t, workflows.QueryRequest{Query: "What is the sum of 2 and 3.5?", NoInertia: true}) // the script decides every step
	require.Equal(t, workflows.StatusAnswered, res.Status, res.Answer)
	assert.Equal(t, []string{sum.Name}, []string(res.Chain))
	var called string
	for _, e := range history(ctx, t, a.c, run.GetID(), run.GetRunID()).GetEvents() {
		if attrs := e.GetActivityTaskScheduledEventAttributes(); attrs.GetActivityType().GetName() == contract.Prefixed(contract.ActivityCallTool) {
			called = e.GetUserMetadata().GetSummary().String()
		}
	}
	assert.Contains(t, called, sum.Name, "the UI's summary of the call names the MCP tool")
	v, err := a.c.QueryWorkflow(ctx, run.GetID(), run.GetRunID(), workflows.StateQuery)
	require.NoError(t, err)
	var st workflows.QueryState
	require.NoError(t, v.Get(&st))
	var trace []string
	for _, e := range st.Trace {
		if e.Kind == workflows.TraceCall {
			trace = append(trace, e.Summary)
		}
	}
	assert.Contains(t, strings.Join(trace, "\n"), "5.5", "the server's answer reached the run")
}

// TestWorkerCrashMidMCPCall kills the worker process while an MCP tool call is in flight (the
// reference server's long-running operation, 6 s) and starts another: the attempt the crash
// cut off times out on its heartbeat, the call is retried on the new worker, which opens its
// own session with the server, and the run answers.
func TestWorkerCrashMidMCPCall(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	long := importMCPTool(ctx, t, stacktest.Store(t), ".trigger-long-running-operation")
	srv := llmtest.New(t, toolScript(long.Name, "LongRunningAPI(description: a long running operation with progress updates)",
		map[string]string{"duration": "6", "steps": "3"}, "The operation completed."))
	c := stacktest.TemporalClient(t)
	bin := buildWorker(t)
	queue := stacktest.UniqueName("navi-e2e-mcp-crash-")
	llmEnv := []string{"NAVI_LLM_BASE_URL=" + srv.URL, "NAVI_LLM_MODEL=scripted"}
	first := startWorkerProcess(t, bin, queue, llmEnv...)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: stacktest.UniqueName("navi-e2e-mcp-crash-"), TaskQueue: queue},
		contract.Prefixed(contract.WorkflowQuery), workflows.QueryRequest{Query: "Run the long running operation for 6 seconds in 3 steps."})
	require.NoError(t, err)

	require.Eventually(t, func() bool {
		d, err := c.DescribeWorkflowExecution(ctx, run.GetID(), run.GetRunID())
		if err != nil {
			return false
		}
		for _, a := range d.GetPendingActivities() {
			if a.GetActivityType().GetName() == contract.Prefixed(contract.ActivityCallTool) && a.GetState() == enumspb.PENDING_ACTIVITY_STATE_STARTED {
				return true
			}
		}
		return false
	}, time.Minute, 100*time.Millisecond, "the MCP call starts")
	time.Sleep(time.Second) // well inside the call
	require.NoError(t, first.Process.Signal(syscall.SIGKILL))
	_ = first.Wait()

	startWorkerProcess(t, bin, queue, llmEnv...)
	var res workflows.QueryResult
	require.NoError(t, run.Get(ctx, &res))
	require.Equal(t, workflows.StatusAnswered, res.Status, res.Answer)
	assert.Equal(t, []string{long.Name}, []string(res.Chain))
	var timedOut bool
	for _, e := range history(ctx, t, c, run.GetID(), run.GetRunID()).GetEvents() {
		timedOut = timedOut || e.GetActivityTaskTimedOutEventAttributes() != nil
	}
	assert.True(t, timedOut, "the attempt the crash cut off timed out, and the call ran again")
}
