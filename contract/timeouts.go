package contract

import (
	"time"
)

// Heartbeats of the activities that do not stream progress of their own (Decide, Retrieve,
// Recombine, RecordFeedback): they beat every KeepAliveInterval while they run, and the
// workflow gives them a heartbeat timeout of KeepAliveTimeout. A worker that dies mid-call
// is then noticed in seconds, and the attempt retried on another worker, instead of after
// the start-to-close timeout (a minute or two).
const (
	KeepAliveInterval = 2 * time.Second
	KeepAliveTimeout  = 10 * time.Second
)
