package workflows

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"go.temporal.io/api/serviceerror"
)

func TestStartTransient(t *testing.T) {
	live := context.Background()
	done, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		err  error
		want bool
	}{
		{"the frontend unavailable", live, serviceerror.NewUnavailable("connection refused"), true},
		{"the server overloaded", live, &serviceerror.ResourceExhausted{Message: "rate limited"}, true},
		{"the call's deadline passed", live, serviceerror.NewDeadlineExceeded("context deadline exceeded"), true},
		{"wrapped", live, fmt.Errorf("start: %w", context.DeadlineExceeded), true},
		{"the caller's deadline passed", done, context.DeadlineExceeded, false},
		{"a bad request", live, serviceerror.NewInvalidArgument("bad task queue"), false},
		{"another error", live, errors.New("no such workflow type"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, transient(tt.ctx, tt.err))
		})
	}
}
