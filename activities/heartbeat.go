package activities

import (
	"context"
	"time"

	"go.temporal.io/sdk/activity"
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

// keepAlive heartbeats every KeepAliveInterval until the returned stop is called. Outside an
// activity (a test calling the method directly) it does nothing.
func keepAlive(ctx context.Context) (stop func()) {
	if !activity.IsActivity(ctx) {
		return func() {}
	}
	return beatEvery(ctx, KeepAliveInterval, func() { activity.RecordHeartbeat(ctx) })
}

// beatEvery calls beat every interval until stop is called or ctx ends; stop returns once
// the last beat is done.
func beatEvery(ctx context.Context, every time.Duration, beat func()) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				beat()
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}
