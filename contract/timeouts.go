package contract

import (
	"time"
)

// Heartbeats of the activities that do not stream progress of their own (Decide, Retrieve,
// Recombine, RecordFeedback): they beat every KeepAliveInterval while they run, and the
// workflow gives them a heartbeat timeout of KeepAliveTimeout. A worker that dies mid-call
// is then noticed in seconds, and the attempt retried on another worker, instead of after
// the start-to-close timeout (a minute or two). These activities take a tenth of a second
// or so: most end before their first beat. The SDK sends a heartbeat at most every 0.8
// heartbeat timeouts, so a 3 s timeout leaves a beat 0.6 s to arrive.
const (
	KeepAliveInterval = time.Second
	KeepAliveTimeout  = 3 * time.Second
)

// How soon a run notices that the worker holding it died (see make cluster's worker kills).
//   - WorkflowTaskTimeout: a workflow task started on a dead worker is given to another after
//     this (Temporal's default is 10 s). A Navi workflow task only replays and decides what to
//     schedule, in milliseconds; the planning is in activities.
//   - StickyScheduleToStartTimeout: a run's next workflow task waits this long for the worker
//     that cached the run before any worker may take it (the SDK's default is 5 s).
const (
	WorkflowTaskTimeout          = 3 * time.Second
	StickyScheduleToStartTimeout = time.Second
)
