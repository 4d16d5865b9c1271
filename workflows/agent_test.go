package workflows_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/planner/llm/llmtest"
	"github.com/naviagent/navi/toolcall"
	"github.com/naviagent/navi/workflows"
)

// Helpers shared by the integration tests (e2e_test.go) and the benchmarks (bench_test.go):
// an in-process worker on the real test stack, and the scripted LLM of the elevation query.

// agent is a worker running on a task queue of its own, and a client to start runs on it.
type agent struct {
	c         client.Client
	store     *neo4j.Store
	taskQueue string
}

// agentOptions are the worker's dependencies; zero fields take the real stack's.
type agentOptions struct {
	// Graph is the store of retrieval, recombination and feedback; nil is the test Neo4j.
	Graph activities.GraphStore
	// LLM is the worker's default planner; nil is graph-first.
	LLM planner.Planner
	// ToolHTTP sends the tool calls; nil is http.DefaultClient.
	ToolHTTP *http.Client
	// MCP calls the tools of MCP servers; nil calls none.
	MCP toolcall.MCPCaller
}

// startAgent loads the tool world into Neo4j and starts a worker with o's dependencies on a
// task queue of its own; the worker stops when the test or benchmark ends.
func startAgent(t testing.TB, o agentOptions) agent {
	t.Helper()
	store := stacktest.Store(t)
	stacktest.LoadToolWorld(t, store)
	if o.Graph == nil {
		o.Graph = store
	}
	a := agent{c: stacktest.TemporalClient(t), store: store, taskQueue: stacktest.UniqueName("navi-e2e-")}
	w := worker.New(a.c, a.taskQueue, worker.Options{})
	workflows.Register(w, &activities.Activities{Store: o.Graph, Models: store, Embedder: stacktest.Embedder(t), LLM: o.LLM,
		Tools: &toolcall.Client{HTTP: o.ToolHTTP, MCP: o.MCP, Outputs: toolcall.DirStore{Dir: t.TempDir()}}})
	require.NoError(t, w.Start())
	t.Cleanup(w.Stop)
	return a
}

func (a agent) start(ctx context.Context, t testing.TB, id string, req workflows.QueryRequest) client.WorkflowRun {
	t.Helper()
	run, err := a.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: a.taskQueue}, contract.Prefixed(contract.WorkflowQuery), req)
	require.NoError(t, err)
	return run
}

// waitQuestion waits, as navi ask does, for the run to ask a question other than the one keyed
// after (workflows.QuestionUpdate), or to end.
func (a agent) waitQuestion(ctx context.Context, t testing.TB, id, after string) workflows.Pending {
	t.Helper()
	h, err := a.c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: id, UpdateName: workflows.QuestionUpdate,
		Args: []any{workflows.QuestionWait{After: after}}, WaitForStage: client.WorkflowUpdateStageCompleted})
	require.NoError(t, err)
	var p workflows.Pending
	require.NoError(t, h.Get(ctx, &p))
	return p
}

// answerAndWait answers the question run waits on with text and waits for the run's result.
func (a agent) answerAndWait(ctx context.Context, t testing.TB, run client.WorkflowRun, text string) workflows.QueryResult {
	t.Helper()
	handle, err := a.c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID: run.GetID(), UpdateName: workflows.AnswerUpdate, Args: []any{workflows.ClarifyAnswer{Text: text}},
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	require.NoError(t, err)
	require.NoError(t, handle.Get(ctx, nil))
	var res workflows.QueryResult
	require.NoError(t, run.Get(ctx, &res))
	return res
}

func (a agent) ask(ctx context.Context, t testing.TB, req workflows.QueryRequest) (client.WorkflowRun, workflows.QueryResult) {
	t.Helper()
	run := a.start(ctx, t, stacktest.UniqueName("navi-e2e-"), req)
	var res workflows.QueryResult
	require.NoError(t, run.Get(ctx, &res))
	return run, res
}

func history(ctx context.Context, t testing.TB, c client.Client, id, runID string) *historypb.History {
	t.Helper()
	it := c.GetWorkflowHistory(ctx, id, runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var h historypb.History
	for it.HasNext() {
		e, err := it.Next()
		require.NoError(t, err)
		h.Events = append(h.Events, e)
	}
	require.NotEmpty(t, h.Events)
	require.Equal(t, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, h.Events[0].GetEventType())
	return &h
}

// elevationQuery is the easy tool-world query the scripted LLM answers: one call of geo.Elevation.
const elevationQuery = "What is the ground elevation at latitude 25.2048, longitude 55.2708?"

// toolScript plans a one-call query as a model would: recall with recall, call api with
// params once the prompt offers it, answer once the call completed. It reads the prompt, not
// the call count, so it serves any number of runs.
func toolScript(api, recall string, params map[string]string, answer string) func(llmtest.Request) llmtest.Response {
	return func(req llmtest.Request) llmtest.Response {
		switch {
		case !strings.Contains(req.User(), api):
			return llmtest.Answer(planner.Decision{DependencyRank: 1, Action: planner.RetrieveAPI, RecallDescription: recall})
		case !strings.Contains(req.User(), "completed"):
			return llmtest.Answer(planner.Decision{DependencyRank: 1, Action: planner.CallAPI, TargetAPI: api, Params: params})
		}
		return llmtest.Answer(planner.Decision{DependencyRank: 1, Action: planner.DirectAnswer, Answer: answer})
	}
}

// elevationScript plans elevationQuery: one call of geo.Elevation.
var elevationScript = toolScript("geo.Elevation",
	"ElevationAPI(description: ground elevation at a point, input: latitude:number, longitude:number; output: elevation_m:number)",
	map[string]string{"latitude": "25.2048", "longitude": "55.2708"}, "The ground is 559 m above sea level there.")
