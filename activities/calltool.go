package activities

import (
	"context"
	"errors"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/toolcall"
)

// The activity's input and results are the contract's: the workflows use them without
// linking this package.
type (
	CallToolInput  = contract.CallToolInput
	CallToolResult = contract.CallToolResult
	ToolFailure    = contract.ToolFailure
)

// Kept under their old names; see package contract.
const (
	ErrTypeToolInvalidInput     = contract.ErrTypeToolInvalidInput
	ErrTypeToolNotCallable      = contract.ErrTypeToolNotCallable
	ErrTypeToolRejected         = contract.ErrTypeToolRejected
	ErrTypeToolUnauthorized     = contract.ErrTypeToolUnauthorized
	ErrTypeToolBadResponse      = contract.ErrTypeToolBadResponse
	ErrTypeNoToolClient         = contract.ErrTypeNoToolClient
	ErrTypeToolRateLimited      = contract.ErrTypeToolRateLimited
	ErrTypeToolUnavailable      = contract.ErrTypeToolUnavailable
	ErrTypeToolOutputStore      = contract.ErrTypeToolOutputStore
	DefaultToolAttempts         = contract.DefaultToolAttempts
	DefaultToolInitialInterval  = contract.DefaultToolInitialInterval
	DefaultToolBackoff          = contract.DefaultToolBackoff
	DefaultToolMaxInterval      = contract.DefaultToolMaxInterval
	DefaultToolStartToClose     = contract.DefaultToolStartToClose
	DefaultToolHeartbeatTimeout = contract.DefaultToolHeartbeatTimeout
)

// NonRetryableToolErrorTypes is contract.NonRetryableToolErrorTypes, kept under its old name.
var NonRetryableToolErrorTypes = contract.NonRetryableToolErrorTypes

// ToolRetryPolicy is contract.ToolRetryPolicy, kept under its old name.
var ToolRetryPolicy = contract.ToolRetryPolicy

// CallTool calls one catalog API over HTTP with a.Tools and returns its output; an output
// too large for the history comes back as a summary and a reference to the stored body.
//
// Every attempt sends the same Idempotency-Key (ToolIdempotencyKey): an attempt that timed
// out may have reached the tool, and a tool that honours the key then answers the retry
// without booking the hotel twice. While the request is in flight the activity heartbeats,
// so a heartbeat timeout finds a dead worker long before the start-to-close timeout would.
//
// Failures are application errors of the ErrTypeTool* types with a ToolFailure detail: bad
// arguments, a rejected request, refused credentials or a broken answer fail for good, as
// does a call of an API that honours no idempotency key whose outcome is unknown (sent, then
// no answer: ErrTypeToolOutcomeUnknown, which the workflow resolves); a 429
// is retried after the tool's Retry-After (NextRetryDelay; a Retry-After of 0 leaves the
// delay to the retry policy), and 408, 5xx, timeouts and unreachable tools are retried by
// the policy (see ToolRetryPolicy), a 503 with a Retry-After after that delay.
func (a *Activities) CallTool(ctx context.Context, in CallToolInput) (CallToolResult, error) {
	if a.Tools == nil {
		return CallToolResult{}, temporal.NewNonRetryableApplicationError(
			"call tool: the worker has no tool client (Activities.Tools)", ErrTypeNoToolClient, nil)
	}
	key := in.IdempotencyKey
	if key == "" {
		key = ToolIdempotencyKey(activity.GetInfo(ctx))
	}
	res, err := a.Tools.Call(ctx, in.API, in.Args, toolcall.CallOptions{
		IdempotencyKey: key,
		Heartbeat:      func(details any) { activity.RecordHeartbeat(ctx, details) },
	})
	if err != nil {
		return CallToolResult{}, toolError(in.Step, err) // the SDK logs the failure
	}
	activity.GetLogger(ctx).Info("called tool", "api", res.API, "step", in.Step, "status", res.Status, "bytes", res.Bytes,
		"truncated", res.Truncated, "duration", res.Duration)
	return CallToolResult{Result: res, Step: in.Step, IdempotencyKey: key}, nil
}

// ToolIdempotencyKey is the Idempotency-Key of a CallTool activity: workflow ID, run ID and
// activity ID. It leaves out the attempt on purpose: every retry of the activity is the same
// logical call and must carry the same key, or the tool cannot tell a retry from a new
// request. The run ID is in it because a workflow ID outlives its runs (continue-as-new, a
// later run under the same ID) and activity IDs restart in each run, so without it a new
// run's first call would get an old run's stored answer. An activity started outside a
// workflow uses its activity run ID in place of the workflow's.
func ToolIdempotencyKey(info activity.Info) string {
	if info.WorkflowExecution.ID == "" {
		return "navi/activity/" + info.ActivityID + "/" + info.ActivityRunID
	}
	return "navi/" + info.WorkflowExecution.ID + "/" + info.WorkflowExecution.RunID + "/" + info.ActivityID
}

// toolError maps a toolcall error to a Temporal application error of an ErrTypeTool* type.
// An error that is not a *toolcall.Error is the activity's own context ending (cancellation,
// or its timeout); it is returned as it is, so the SDK reports a cancellation as one.
func toolError(step int, err error) error {
	var e *toolcall.Error
	if !errors.As(err, &e) {
		return err
	}
	detail := ToolFailure{API: e.API, Step: step, Param: e.Param, Status: e.Status, Body: e.Body, RetryAfter: e.RetryAfter}
	msg := e.Error()
	switch {
	case errors.Is(e, toolcall.ErrInvalidInput):
		return temporal.NewNonRetryableApplicationError(msg, ErrTypeToolInvalidInput, nil, detail)
	case errors.Is(e, toolcall.ErrNotCallable):
		return temporal.NewNonRetryableApplicationError(msg, ErrTypeToolNotCallable, nil, detail)
	case errors.Is(e, toolcall.ErrRejected):
		return temporal.NewNonRetryableApplicationError(msg, ErrTypeToolRejected, nil, detail)
	case errors.Is(e, toolcall.ErrUnauthorized):
		return temporal.NewNonRetryableApplicationError(msg, ErrTypeToolUnauthorized, nil, detail)
	case errors.Is(e, toolcall.ErrBadResponse):
		return temporal.NewNonRetryableApplicationError(msg, ErrTypeToolBadResponse, nil, detail)
	case errors.Is(e, toolcall.ErrOutcomeUnknown):
		return temporal.NewNonRetryableApplicationError(msg, contract.ErrTypeToolOutcomeUnknown, nil, detail)
	case errors.Is(e, toolcall.ErrRateLimited):
		return temporal.NewApplicationErrorWithOptions(msg, ErrTypeToolRateLimited, temporal.ApplicationErrorOptions{
			NextRetryDelay: e.RetryAfter, Details: []any{detail}})
	case errors.Is(e, toolcall.ErrOutputStore):
		return temporal.NewApplicationError(msg, ErrTypeToolOutputStore, detail)
	default: // toolcall.ErrUnavailable, and any kind added later
		// A 503 with Retry-After says when to come back; otherwise the policy decides (0).
		return temporal.NewApplicationErrorWithOptions(msg, ErrTypeToolUnavailable, temporal.ApplicationErrorOptions{
			NextRetryDelay: e.RetryAfter, Details: []any{detail}})
	}
}
