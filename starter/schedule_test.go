package main

import (
	"bytes"
	"context"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"

	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/workflows"
)

// TestScheduleRetrain creates the retrain Schedule on the test Temporal server, then updates
// its interval; the schedule runs RetrainWorkflow on the worker's task queue.
func TestScheduleRetrain(t *testing.T) {
	useStack(t)
	c := stacktest.TemporalClient(t)
	ctx := context.Background()
	h := c.ScheduleClient().GetHandle(ctx, workflows.RetrainScheduleID)
	_ = h.Delete(ctx) // a schedule left by an interrupted earlier run
	t.Cleanup(func() { _ = h.Delete(context.Background()) })

	var out bytes.Buffer
	require.NoError(t, schedule([]string{"retrain", "-every", "2h", "-train-queue", "navi-test-train"}, streams{&out, io.Discard}))
	assert.Contains(t, out.String(), "navi-retrain created: every 2h0m0s")
	assert.Contains(t, out.String(), "/schedules/navi-retrain")
	desc, err := h.Describe(ctx)
	require.NoError(t, err)
	require.Len(t, desc.Schedule.Spec.Intervals, 1)
	assert.Equal(t, 2*time.Hour, desc.Schedule.Spec.Intervals[0].Every)
	require.NotEmpty(t, desc.Info.NextActionTimes)
	action, ok := desc.Schedule.Action.(*client.ScheduleWorkflowAction)
	require.True(t, ok)
	assert.Equal(t, "navi.RetrainWorkflow", action.Workflow)
	assert.Equal(t, stacktest.Env(t, stacktest.EnvTaskQueue), action.TaskQueue)

	out.Reset()
	require.NoError(t, schedule([]string{"retrain", "-every", "30m"}, streams{&out, io.Discard}))
	assert.Contains(t, out.String(), "navi-retrain updated: every 30m0s")
	desc, err = h.Describe(ctx)
	require.NoError(t, err)
	assert.Equal(t, 30*time.Minute, desc.Schedule.Spec.Intervals[0].Every)

	err = schedule([]string{"retrain", "-every", "10s"}, streams{io.Discard, io.Discard})
	require.ErrorIs(t, err, errUsage)
	err = schedule([]string{"nonsense"}, streams{io.Discard, io.Discard})
	require.ErrorIs(t, err, errUsage)
}
