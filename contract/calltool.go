package contract

import (
	"time"

	"github.com/naviagent/navi/toolspec"
)

// CallToolInput is one call of a catalog API: its record, as the catalog gives it (with
// endpoint and inputs), the arguments by input name, and the plan step it performs.
type CallToolInput struct {
	API  toolspec.API      `json:"api"`
	Args map[string]string `json:"args,omitempty"`
	// Step is the index of the plan step, for logs and the caller's bookkeeping.
	Step int `json:"step"`
	// IdempotencyKey is the key of the logical call when the caller retries it as activities
	// of their own (each attempt a new activity); empty, the activity makes one
	// (ToolIdempotencyKey), the same for all of Temporal's retries of one activity.
	IdempotencyKey string `json:"idempotency_key,omitempty"`
}

// CallToolResult is a successful call: the toolspec.Result (api, status, output, bytes, ref,
// truncated, duration) with the step and the idempotency key the request carried.
type CallToolResult struct {
	toolspec.Result
	Step           int    `json:"step"`
	IdempotencyKey string `json:"idempotency_key"`
}

// ToolFailure is the detail of a CallTool application error: what the tool answered, for a
// workflow that chooses a substitute or reports the failure. Read it with
// ApplicationError.Details(&failure).
type ToolFailure struct {
	API        string        `json:"api"`
	Step       int           `json:"step"`
	Param      string        `json:"param,omitempty"`
	Status     int           `json:"status,omitempty"`
	Body       string        `json:"body,omitempty"`
	RetryAfter time.Duration `json:"retry_after,omitempty"`
}

// Error types of CallTool failures, as seen in the workflow history. The first seven are
// non-retryable: the same call cannot succeed later. The others are retried by the policy.
const (
	ErrTypeToolInvalidInput = "navi.ToolInvalidInput" // the args do not fit the API's inputs
	ErrTypeToolNotCallable  = "navi.ToolNotCallable"  // the catalog gives no usable HTTP endpoint
	ErrTypeToolRejected     = "navi.ToolRejected"     // the tool answered a 4xx such as 400, 404, 410, 422
	ErrTypeToolUnauthorized = "navi.ToolUnauthorized" // the tool answered 401 or 403
	ErrTypeToolBadResponse  = "navi.ToolBadResponse"  // a 2xx answer that is not JSON
	ErrTypeNoToolClient     = "navi.NoToolClient"     // the worker has no toolcall.Client
	// ErrTypeToolOutcomeUnknown: a call of an API that honours no idempotency key may have
	// reached the tool, and no answer says what it did. Not retried: the run finds out.
	ErrTypeToolOutcomeUnknown = "navi.ToolOutcomeUnknown"

	ErrTypeToolRateLimited = "navi.ToolRateLimited" // 429: retried after the tool's Retry-After
	ErrTypeToolUnavailable = "navi.ToolUnavailable" // 408, 5xx, timeout, unreachable
	ErrTypeToolOutputStore = "navi.ToolOutputStore" // a large output could not be stored
)

// NonRetryableToolErrorTypes are the CallTool error types no retry can fix, for a retry
// policy's NonRetryableErrorTypes. The activity marks them non-retryable itself; listing them
// in the policy too keeps a workflow's retries right should it wrap the errors.
func NonRetryableToolErrorTypes() []string {
	return ErrorTypes(ErrTypeToolInvalidInput, ErrTypeToolNotCallable, ErrTypeToolRejected,
		ErrTypeToolUnauthorized, ErrTypeToolBadResponse, ErrTypeNoToolClient, ErrTypeToolOutcomeUnknown)
}

// Defaults of ToolRetryPolicy, for the hints a catalog API leaves out.
const (
	DefaultToolAttempts        = 3
	DefaultToolInitialInterval = time.Second
	DefaultToolBackoff         = 2.0
	DefaultToolMaxInterval     = 10 * time.Second
	DefaultToolStartToClose    = 30 * time.Second
	// DefaultToolHeartbeatTimeout is KeepAliveTimeout: a tool call beats every second while
	// its request is in flight (toolcall.DefaultHeartbeatInterval), and a call on a worker
	// that died is retried elsewhere 3 s later, plus the retry's first interval (5 s added
	// 6.2 s at the 95th percentile to the runs a worker kill struck).
	DefaultToolHeartbeatTimeout = KeepAliveTimeout
	// toolTimeoutGrace is added to an API's own timeout for the start-to-close timeout, so
	// that the call times out first and the failure says so (ToolUnavailable, with the API's
	// timeout) instead of being a bare activity timeout.
	toolTimeoutGrace = 5 * time.Second
)

// ToolRetryPolicy gives the activity options of a CallTool of api from its catalog hints:
// the start-to-close timeout (the API's timeout plus a grace of 5s, else 30s), the heartbeat
// timeout (5s, five default heartbeat intervals of toolcall.Client) and the retry policy
// (the hint's attempts, else 3; its initial interval, else 1s; backoff 2; its maximum
// interval, else 10s or the initial interval if larger; the non-retryable error types).
func ToolRetryPolicy(api toolspec.API) (startToClose time.Duration, heartbeat time.Duration, policy *RetryPolicy) {
	startToClose = DefaultToolStartToClose
	if api.Timeout > 0 {
		startToClose = time.Duration(api.Timeout) + toolTimeoutGrace
	}
	policy = &RetryPolicy{
		InitialInterval:        DefaultToolInitialInterval,
		BackoffCoefficient:     DefaultToolBackoff,
		MaximumInterval:        DefaultToolMaxInterval,
		MaximumAttempts:        DefaultToolAttempts,
		NonRetryableErrorTypes: NonRetryableToolErrorTypes(),
	}
	if r := api.Retry; r != nil {
		if r.MaxAttempts > 0 {
			policy.MaximumAttempts = int32(min(r.MaxAttempts, 1<<31-1))
		}
		if r.InitialInterval > 0 {
			policy.InitialInterval = time.Duration(r.InitialInterval)
		}
		if r.MaxInterval > 0 {
			policy.MaximumInterval = time.Duration(r.MaxInterval)
		}
	}
	// Temporal rejects a maximum interval below the initial one.
	policy.MaximumInterval = max(policy.MaximumInterval, policy.InitialInterval)
	return startToClose, DefaultToolHeartbeatTimeout, policy
}

// RetryPolicy is a retry policy of Temporal's, as plain data: the fields of
// go.temporal.io/sdk/temporal.RetryPolicy, which the workflows hand to the SDK as they are.
// (This package links no SDK, so that a caller's import of it stays small.)
type RetryPolicy struct {
	InitialInterval        time.Duration
	BackoffCoefficient     float64
	MaximumInterval        time.Duration
	MaximumAttempts        int32
	NonRetryableErrorTypes []string
}
