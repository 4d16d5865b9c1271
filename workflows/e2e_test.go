package workflows_test

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/worker"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/workflows"
)

// flakyGraph fails the first failures reads as an unreachable Neo4j would, then reads the
// real store: a Neo4j outage in the middle of a run.
type flakyGraph struct {
	*neo4j.Store
	failures int32
	calls    atomic.Int32
}

func (g *flakyGraph) FindAPIs(ctx context.Context, query string, limit int) ([]neo4j.APIMatch, error) {
	if g.calls.Add(1) <= g.failures {
		return nil, fmt.Errorf("find APIs: %w: connection refused (injected)", neo4j.ErrUnavailable)
	}
	return g.Store.FindAPIs(ctx, query, limit)
}

// TestQueryWorkflowOnRealStack runs the query workflow on the real Temporal server against the
// real Neo4j, with Neo4j failing the first two reads: the run must retry and complete, show its
// status in search attributes and its activity summary in the history, and replay cleanly.
func TestQueryWorkflowOnRealStack(t *testing.T) {
	store := stacktest.Store(t)
	c := stacktest.TemporalClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	word := stacktest.UniqueName("forecast")
	_, err := store.LoadCatalog(ctx, twnm.Catalog{Name: "e2e", APIs: []twnm.API{
		{Name: word + "_Weather", Description: "Current " + word + " at coordinates",
			Inputs:  []twnm.Param{{Name: word + "_lat", Required: true}, {Name: word + "_lon", Required: true}},
			Outputs: []twnm.Param{{Name: word + "_temperature"}}},
	}})
	require.NoError(t, err)

	graph := &flakyGraph{Store: store, failures: 2}
	taskQueue := stacktest.UniqueName("navi-e2e-")
	w := worker.New(c, taskQueue, worker.Options{})
	workflows.Register(w, &activities.Activities{Graph: graph})
	require.NoError(t, w.Start())
	defer w.Stop()

	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: stacktest.UniqueName("navi-e2e-"), TaskQueue: taskQueue},
		workflows.QueryWorkflow, workflows.QueryRequest{Query: "What is the " + word + " in Paris?"})
	require.NoError(t, err)
	var res workflows.QueryResult
	require.NoError(t, run.Get(ctx, &res))

	assert.Equal(t, workflows.StatusAnswered, res.Status)
	require.Len(t, res.Tools, 1)
	assert.Equal(t, word+"_Weather", res.Tools[0].Name)
	assert.ElementsMatch(t, []string{word + "_lat", word + "_lon"}, res.Tools[0].Inputs)
	assert.GreaterOrEqual(t, res.Graph.APIs, int64(1))
	assert.Equal(t, int32(3), graph.calls.Load(), "two failed attempts, then success")

	desc, err := c.DescribeWorkflowExecution(ctx, run.GetID(), run.GetRunID())
	require.NoError(t, err)
	sa := desc.GetWorkflowExecutionInfo().GetSearchAttributes().GetIndexedFields()
	var status, planner string
	var steps int64
	require.NoError(t, converter.GetDefaultDataConverter().FromPayload(sa["NaviStatus"], &status))
	require.NoError(t, converter.GetDefaultDataConverter().FromPayload(sa["NaviPlanner"], &planner))
	require.NoError(t, converter.GetDefaultDataConverter().FromPayload(sa["NaviSteps"], &steps))
	assert.Equal(t, workflows.StatusAnswered, status)
	assert.Equal(t, workflows.PlannerGraphLookup, planner)
	assert.Equal(t, int64(1), steps)

	hist := history(ctx, t, c, run.GetID(), run.GetRunID())
	var summary string
	var attempt int32
	for _, e := range hist.GetEvents() {
		switch e.GetEventType() {
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
			require.NoError(t, converter.GetDefaultDataConverter().FromPayload(e.GetUserMetadata().GetSummary(), &summary))
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED:
			attempt = e.GetActivityTaskStartedEventAttributes().GetAttempt()
		}
	}
	assert.Equal(t, `look up tools for "What is the `+word+` in Paris?"`, summary)
	assert.Equal(t, int32(3), attempt, "the history records the attempt that succeeded")

	replayer := worker.NewWorkflowReplayer()
	replayer.RegisterWorkflow(workflows.QueryWorkflow)
	require.NoError(t, replayer.ReplayWorkflowHistory(nil, hist), "the recorded history replays on this code")

	if path := os.Getenv("NAVI_RECORD_HISTORY"); path != "" {
		b, err := protojson.MarshalOptions{Indent: "  "}.Marshal(hist)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(path, b, 0o644))
	}
}

func history(ctx context.Context, t *testing.T, c client.Client, id, runID string) *historypb.History {
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
