package workflows_test

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/worker"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/twnm/hgt"
	"github.com/naviagent/navi/workflows"
)

// smallConfig trains in seconds on the test graph.
func smallConfig(epochs int) *hgt.Config {
	cfg := hgt.DefaultConfig()
	cfg.Hidden, cfg.Epochs, cfg.Patience = 16, epochs, epochs
	return &cfg
}

// TestRetrainOnRealStack runs the retrain workflow on the real stack after a few agent runs:
// weights are propagated, the HGT trains on the training queue (heartbeating), the model is
// saved in Neo4j, evaluated against the active one, its predictions written and, when not
// worse, activated; the graph's pruning and probing run.
func TestRetrainOnRealStack(t *testing.T) {
	a := startAgent(t, agentOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	_, res := a.ask(ctx, t, workflows.QueryRequest{Query: housingQuery}) // two calls: THEN and FEEDS edges
	require.Equal(t, workflows.StatusAnswered, res.Status)

	trainQueue := stacktest.UniqueName("navi-e2e-train-")
	w := worker.New(a.c, trainQueue, worker.Options{MaxConcurrentActivityExecutionSize: 1})
	require.NoError(t, workflows.RegisterTraining(w, &activities.Activities{Models: a.store, ModelDir: t.TempDir()}))
	require.NoError(t, w.Start())
	defer w.Stop()

	version := stacktest.UniqueName("hgt-e2e-")
	run, err := a.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: version, TaskQueue: a.taskQueue}, contract.Prefixed(contract.WorkflowRetrain),
		workflows.RetrainRequest{Version: version, Config: smallConfig(3), TrainQueue: trainQueue, MaxProbes: 5, PruneScope: version,
			// The graph is shared with the tests running beside this one: a shadow run, so
			// that a model trained for 3 epochs never steers their searches.
			NoActivate: true})
	require.NoError(t, err)
	var out workflows.RetrainResult
	require.NoError(t, run.Get(ctx, &out))

	assert.Equal(t, version, out.Version)
	assert.Positive(t, out.Propagated.Edges, "the agent's runs left behavioural edges")
	m := out.Train.Metrics
	assert.Positive(t, out.Train.Nodes)
	assert.Equal(t, int32(1), out.Train.Attempt)
	for name, v := range map[string]float64{"ACC": m.ACC, "F1": m.F1, "AUC": m.AUC, "ValAUC": m.ValAUC} {
		assert.True(t, v >= 0 && v <= 1, "%s = %v", name, v)
	}
	rec, err := a.store.LoadModel(ctx, version, true)
	require.NoError(t, err)
	assert.NotEmpty(t, rec.Data, "the model is saved in the graph store")
	assert.Equal(t, m.ValAUC, rec.ValAUC)
	assert.False(t, out.Activated, "a shadow run activates nothing")
	if out.Evaluation.NotWorse {
		assert.Positive(t, out.Predicted.Written, "predictions written, invisible until activated")
	}

	var summaries []string
	for _, e := range history(ctx, t, a.c, run.GetID(), run.GetRunID()).GetEvents() {
		if e.GetEventType() == enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED {
			var s string
			require.NoError(t, converter.GetDefaultDataConverter().FromPayload(e.GetUserMetadata().GetSummary(), &s))
			summaries = append(summaries, strings.SplitN(s, " ", 2)[0])
		}
	}
	want := []string{"propagate", "train", "evaluate", "write", "prune"}
	if !out.Evaluation.NotWorse {
		want = []string{"propagate", "train", "evaluate", "prune"}
	}
	assert.Equal(t, want, summaries)
}

// TestRetrainSurvivesTrainingWorkerCrash kills the training worker process during training
// and starts another: the attempt times out on its heartbeat, training restarts from the start
// on the new worker, and the retraining completes.
func TestRetrainSurvivesTrainingWorkerCrash(t *testing.T) {
	a := startAgent(t, agentOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin := buildWorker(t)
	trainQueue := stacktest.UniqueName("navi-e2e-train-")
	first := startWorkerProcess(t, bin, stacktest.UniqueName("navi-e2e-unused-"), "NAVI_TRAIN_TASK_QUEUE="+trainQueue)

	version := stacktest.UniqueName("hgt-e2e-crash-")
	run, err := a.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: version, TaskQueue: a.taskQueue}, contract.Prefixed(contract.WorkflowRetrain),
		workflows.RetrainRequest{Version: version, Config: smallConfig(400), TrainQueue: trainQueue, TrainHeartbeat: 5 * time.Second, PruneScope: version, NoActivate: true})
	require.NoError(t, err)

	// Wait for a heartbeat from training, then kill its worker.
	require.Eventually(t, func() bool {
		d, err := a.c.DescribeWorkflowExecution(ctx, run.GetID(), run.GetRunID())
		if err != nil {
			return false
		}
		for _, p := range d.GetPendingActivities() {
			if p.GetActivityType().GetName() == contract.Prefixed(contract.ActivityTrainModel) && p.GetHeartbeatDetails() != nil {
				return true
			}
		}
		return false
	}, 2*time.Minute, 200*time.Millisecond, "training heartbeats")
	require.NoError(t, first.Process.Signal(syscall.SIGKILL))
	_ = first.Wait()
	startWorkerProcess(t, bin, stacktest.UniqueName("navi-e2e-unused-"), "NAVI_TRAIN_TASK_QUEUE="+trainQueue)

	var out workflows.RetrainResult
	require.NoError(t, run.Get(ctx, &out))
	assert.Equal(t, int32(2), out.Train.Attempt, "the second attempt trained, on the new worker")
	_, err = a.store.LoadModel(ctx, version, false)
	require.NoError(t, err)
}
