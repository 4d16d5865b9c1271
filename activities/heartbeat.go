package activities

import (
	"context"
	"time"

	"go.temporal.io/sdk/activity"

	"github.com/naviagent/navi/contract"
)

// Kept under their old names; see package contract.
const (
	KeepAliveInterval = contract.KeepAliveInterval
	KeepAliveTimeout  = contract.KeepAliveTimeout
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
