package workflows

import (
	"context"
	"errors"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/naviagent/navi/contract"
)

// startAttempts bounds StartQuery's tries; between them it waits 0.5 s, doubling to 8 s.
const startAttempts = 6

// StartQuery starts a query workflow (contract.WorkflowQuery) with req, as a careful client
// does: a start that fails in transit (the frontend unavailable, its persistence recovering,
// the call's deadline passed) is tried again, up to startAttempts times while ctx lasts, under
// the same workflow ID with WorkflowIDConflictPolicy USE_EXISTING, so that a run the lost
// attempt did start is the one returned, never a second one. opts.ID must be set; a zero
// WorkflowTaskTimeout is contract.WorkflowTaskTimeout.
func StartQuery(ctx context.Context, c client.Client, opts client.StartWorkflowOptions, req QueryRequest) (client.WorkflowRun, error) {
	if opts.ID == "" {
		return nil, errors.New("start query: the workflow ID is empty: a retried start needs it to find the run")
	}
	if opts.WorkflowTaskTimeout == 0 {
		opts.WorkflowTaskTimeout = contract.WorkflowTaskTimeout
	}
	opts.WorkflowIDConflictPolicy = enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING
	wait := 500 * time.Millisecond
	for attempt := 1; ; attempt++ {
		run, err := c.ExecuteWorkflow(ctx, opts, contract.Prefixed(contract.WorkflowQuery), req)
		if err == nil || attempt == startAttempts || !transient(ctx, err) {
			if err != nil && attempt > 1 {
				err = fmt.Errorf("after %d attempts: %w", attempt, err)
			}
			return run, err
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("after %d attempts: %w (last: %w)", attempt, ctx.Err(), err)
		case <-time.After(wait):
		}
		wait = min(2*wait, 8*time.Second)
	}
}

// transient reports whether a start's error may pass by itself: the service unavailable or
// overloaded, or the call's own deadline passed while ctx, the caller's, still runs.
func transient(ctx context.Context, err error) bool {
	var (
		unavailable *serviceerror.Unavailable
		deadline    *serviceerror.DeadlineExceeded
		exhausted   *serviceerror.ResourceExhausted
	)
	switch {
	case errors.As(err, &unavailable), errors.As(err, &exhausted):
		return true
	case errors.As(err, &deadline), errors.Is(err, context.DeadlineExceeded):
		return ctx.Err() == nil
	}
	return false
}
