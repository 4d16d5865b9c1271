package activities

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// beatEvery beats while the activity runs and stops when told, or when the activity's
// context ends; keepAlive outside an activity does nothing.
func TestKeepAlive(t *testing.T) {
	var beats atomic.Int32
	stop := beatEvery(context.Background(), 20*time.Millisecond, func() { beats.Add(1) })
	time.Sleep(150 * time.Millisecond)
	stop()
	after := beats.Load()
	assert.GreaterOrEqual(t, after, int32(4), "about one beat per 20 ms for 150 ms")
	time.Sleep(60 * time.Millisecond)
	assert.Equal(t, after, beats.Load(), "no beat after stop")

	ctx, cancel := context.WithCancel(context.Background())
	var late atomic.Int32
	stop = beatEvery(ctx, 10*time.Millisecond, func() { late.Add(1) })
	cancel()
	time.Sleep(50 * time.Millisecond)
	assert.LessOrEqual(t, late.Load(), int32(1), "an ended context stops the beats")
	stop()

	keepAlive(context.Background())() // not an activity: nothing to beat, nothing to stop
}
