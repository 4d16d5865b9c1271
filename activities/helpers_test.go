package activities_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/naviagent/navi/activities"
)

// execute runs the activity name of a once in a fresh test activity environment and decodes
// its result into a T.
func execute[T any](t *testing.T, a *activities.Activities, name string, in any) (T, error) {
	t.Helper()
	var res T
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	env.RegisterActivity(a)
	v, err := env.ExecuteActivity(name, in)
	if err != nil {
		return res, err
	}
	if v != nil && v.HasValue() {
		require.NoError(t, v.Get(&res))
	}
	return res, nil
}

// requireAppError asserts that err is an application error of type wantType whose
// retryability is as given, and returns it.
func requireAppError(t *testing.T, err error, wantType string, nonRetryable bool) *temporal.ApplicationError {
	t.Helper()
	require.Error(t, err)
	var appErr *temporal.ApplicationError
	require.True(t, errors.As(err, &appErr), "got %T: %v", err, err)
	if wantType != "" {
		assert.Equal(t, wantType, appErr.Type(), err.Error())
	}
	assert.Equal(t, nonRetryable, appErr.NonRetryable(), "non-retryable: %v", err)
	return appErr
}
