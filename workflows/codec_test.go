package workflows

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/codec"
)

// TestQueryWorkflowUnderTheCodec runs a chain with every payload (input, activity arguments
// and results, the answer) through the AES-GCM codec: the workflow needs nothing of its own
// to run encrypted.
func TestQueryWorkflowUnderTheCodec(t *testing.T) {
	key, err := codec.NewKey("k1")
	require.NoError(t, err)
	keys, err := codec.ParseKeys(key, "")
	require.NoError(t, err)
	env := newEnv(t, nil)
	env.SetDataConverter(codec.New(keys).DataConverter())
	env.OnActivity("navi.Retrieve", mock.Anything, mock.Anything).Return(retrieved("Rome"), nil).Once()
	onCall(env, "geo.Geocode").Return(func(_ context.Context, in activities.CallToolInput) (activities.CallToolResult, error) {
		assert.Equal(t, map[string]string{"city": "Rome"}, in.Args, "arguments arrive decoded")
		return toolOK(rome), nil
	}).Once()
	onCall(env, "weather.Current").Return(toolOK(weather), nil).Once()
	var fb feedbackSink
	fb.on(env)

	env.ExecuteWorkflow(QueryWorkflow, QueryRequest{Query: "weather in Rome"})
	res := result(t, env)
	assert.Equal(t, StatusAnswered, res.Status)
	assert.Equal(t, "weather.Current answered: temp_c: 21.5.", res.Answer)
	assert.Equal(t, "Rome", state(t, env).Plan.Steps[0].Bindings[0].Value)
	require.Len(t, fb.runs, 1)
	env.AssertExpectations(t)
}
