package activities_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/toolcall"
	"github.com/naviagent/navi/toolworld"
	"github.com/naviagent/navi/twnm"
)

// callTool runs CallTool once in a fresh test environment, so that every run has the same
// activity info (workflow ID, run ID, activity ID), as the attempts of one activity do.
func callTool(t *testing.T, tools *toolcall.Client, in activities.CallToolInput) (activities.CallToolResult, error) {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	env.RegisterActivity(&activities.Activities{Tools: tools})
	v, err := env.ExecuteActivity("CallTool", in)
	if err != nil {
		return activities.CallToolResult{}, err
	}
	var res activities.CallToolResult
	require.NoError(t, v.Get(&res))
	return res, nil
}

// keyServer answers with answer and records the Idempotency-Key of every request.
type keyServer struct {
	*httptest.Server
	mu   sync.Mutex
	keys []string
}

func newKeyServer(t *testing.T, answer http.HandlerFunc) *keyServer {
	t.Helper()
	ks := &keyServer{}
	ks.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ks.mu.Lock()
		ks.keys = append(ks.keys, r.Header.Get("Idempotency-Key"))
		ks.mu.Unlock()
		answer(w, r)
	}))
	t.Cleanup(ks.Close)
	return ks
}

func (ks *keyServer) seenKeys() []string {
	ks.mu.Lock()
	defer ks.mu.Unlock()
	return append([]string(nil), ks.keys...)
}

func answer(status int, body string, header ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

func weatherAPI(base string) twnm.API {
	return twnm.API{Name: "weather.Current", Endpoint: &twnm.Endpoint{Method: "GET", Path: "/weather", BaseURL: base},
		Inputs: []twnm.Param{{Name: "city", Type: "string", In: twnm.InQuery, Required: true}}}
}

func TestCallToolSucceeds(t *testing.T) {
	ks := newKeyServer(t, answer(200, `{"temperature": 21.5, "city": "Paris"}`))
	res, err := callTool(t, &toolcall.Client{}, activities.CallToolInput{API: weatherAPI(ks.URL), Args: map[string]string{"city": "Paris"}, Step: 2})
	require.NoError(t, err)
	assert.Equal(t, "weather.Current", res.API)
	assert.Equal(t, 200, res.Status)
	assert.Equal(t, 2, res.Step)
	assert.Equal(t, "Paris", res.Output["city"])
	assert.InDelta(t, 21.5, res.Output["temperature"], 1e-9)
	assert.False(t, res.Truncated)
	require.Len(t, ks.seenKeys(), 1)
	assert.Equal(t, res.IdempotencyKey, ks.seenKeys()[0], "the request carries the key the result reports")
	assert.Regexp(t, `^navi/.+/.+/.+$`, res.IdempotencyKey)
}

func TestCallToolErrors(t *testing.T) {
	tests := []struct {
		name         string
		answer       http.HandlerFunc
		api          func(base string) twnm.API
		args         map[string]string
		tools        *toolcall.Client
		wantType     string
		nonRetryable bool
		status       int
		nextDelay    time.Duration
	}{
		{name: "400", answer: answer(400, `{"error": "bad city"}`), wantType: activities.ErrTypeToolRejected, nonRetryable: true, status: 400},
		{name: "404", answer: answer(404, ``), wantType: activities.ErrTypeToolRejected, nonRetryable: true, status: 404},
		{name: "410", answer: answer(410, `gone`), wantType: activities.ErrTypeToolRejected, nonRetryable: true, status: 410},
		{name: "422", answer: answer(422, ``), wantType: activities.ErrTypeToolRejected, nonRetryable: true, status: 422},
		{name: "401", answer: answer(401, ``), wantType: activities.ErrTypeToolUnauthorized, nonRetryable: true, status: 401},
		{name: "403", answer: answer(403, ``), wantType: activities.ErrTypeToolUnauthorized, nonRetryable: true, status: 403},
		{name: "not JSON", answer: answer(200, `<html>`), wantType: activities.ErrTypeToolBadResponse, nonRetryable: true, status: 200},
		{name: "unknown arg", args: map[string]string{"city": "P", "colour": "red"}, wantType: activities.ErrTypeToolInvalidInput, nonRetryable: true},
		{name: "missing arg", args: map[string]string{}, wantType: activities.ErrTypeToolInvalidInput, nonRetryable: true},
		{name: "no endpoint", api: func(string) twnm.API { return twnm.API{Name: "x.Y"} }, wantType: activities.ErrTypeToolNotCallable, nonRetryable: true},
		{name: "no tool client", tools: nil, wantType: activities.ErrTypeNoToolClient, nonRetryable: true},
		{name: "429", answer: answer(429, ``, "Retry-After", "7"), wantType: activities.ErrTypeToolRateLimited, status: 429, nextDelay: 7 * time.Second},
		{name: "429 default delay", answer: answer(429, ``), wantType: activities.ErrTypeToolRateLimited, status: 429, nextDelay: time.Second},
		{name: "408", answer: answer(408, ``), wantType: activities.ErrTypeToolUnavailable, status: 408},
		{name: "500", answer: answer(500, `boom`), wantType: activities.ErrTypeToolUnavailable, status: 500},
		{name: "503", answer: answer(503, ``), wantType: activities.ErrTypeToolUnavailable, status: 503},
		{name: "503 with Retry-After", answer: answer(503, ``, "Retry-After", "2"), wantType: activities.ErrTypeToolUnavailable, status: 503, nextDelay: 2 * time.Second},
		{name: "timeout", answer: func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}, api: func(base string) twnm.API {
			a := weatherAPI(base)
			a.Timeout = twnm.Duration(50 * time.Millisecond)
			return a
		}, wantType: activities.ErrTypeToolUnavailable},
		{name: "502 of a POST that honours no key", answer: answer(502, ``), api: func(base string) twnm.API {
			a := weatherAPI(base)
			a.Endpoint.Method = "POST"
			return a
		}, wantType: contract.ErrTypeToolOutcomeUnknown, nonRetryable: true, status: 502},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.answer == nil {
				tt.answer = answer(200, `{}`)
			}
			ks := newKeyServer(t, tt.answer)
			api := weatherAPI(ks.URL)
			if tt.api != nil {
				api = tt.api(ks.URL)
			}
			args := tt.args
			if args == nil {
				args = map[string]string{"city": "Paris"}
			}
			tools := tt.tools
			if tools == nil && tt.wantType != activities.ErrTypeNoToolClient {
				tools = &toolcall.Client{}
			}
			_, err := callTool(t, tools, activities.CallToolInput{API: api, Args: args, Step: 4})
			require.Error(t, err)
			var appErr *temporal.ApplicationError
			require.ErrorAs(t, err, &appErr, "%v", err)
			assert.Equal(t, tt.wantType, appErr.Type())
			assert.Equal(t, tt.nonRetryable, appErr.NonRetryable())
			assert.Equal(t, tt.nextDelay, appErr.NextRetryDelay())
			if tt.wantType == activities.ErrTypeNoToolClient {
				return
			}
			var failure activities.ToolFailure
			require.NoError(t, appErr.Details(&failure))
			assert.Equal(t, api.Name, failure.API)
			assert.Equal(t, 4, failure.Step)
			assert.Equal(t, tt.status, failure.Status)
			assert.Equal(t, tt.nextDelay, failure.RetryAfter)
			assert.Contains(t, appErr.Error(), api.Name)
		})
	}
}

func TestCallToolIdempotencyKeyIsStableAcrossAttempts(t *testing.T) {
	ks := newKeyServer(t, answer(503, ``))
	in := activities.CallToolInput{API: weatherAPI(ks.URL), Args: map[string]string{"city": "Paris"}}
	for range 2 {
		_, err := callTool(t, &toolcall.Client{}, in)
		var appErr *temporal.ApplicationError
		require.ErrorAs(t, err, &appErr)
		require.Equal(t, activities.ErrTypeToolUnavailable, appErr.Type())
	}
	keys := ks.seenKeys()
	require.Len(t, keys, 2)
	assert.NotEmpty(t, keys[0])
	assert.Equal(t, keys[0], keys[1], "the same activity info gives the same key")

	// Another activity of the same run gets another key.
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	env.RegisterActivity(&activities.Activities{Tools: &toolcall.Client{}})
	_, _ = env.ExecuteActivity("CallTool", in)
	_, _ = env.ExecuteActivity("CallTool", in)
	keys = ks.seenKeys()
	require.Len(t, keys, 4)
	assert.NotEqual(t, keys[2], keys[3])
}

func TestCallToolIdempotencyKeyHelper(t *testing.T) {
	var info activity.Info
	info.WorkflowExecution.ID, info.WorkflowExecution.RunID, info.ActivityID = "wf", "run", "5"
	assert.Equal(t, "navi/wf/run/5", activities.ToolIdempotencyKey(info))
	info.Attempt = 3
	assert.Equal(t, "navi/wf/run/5", activities.ToolIdempotencyKey(info), "the attempt is not part of the key")
	info.WorkflowExecution.RunID = "run2"
	assert.Equal(t, "navi/wf/run2/5", activities.ToolIdempotencyKey(info), "a new run is a new call")

	standalone := activity.Info{ActivityID: "a1", ActivityRunID: "r1"}
	assert.Equal(t, "navi/activity/a1/r1", activities.ToolIdempotencyKey(standalone))
}

// A retried booking reaches the tool world twice with one key, and books once.
func TestCallToolBooksOnceAcrossAttempts(t *testing.T) {
	world := toolworld.New(toolworld.Options{})
	ts := httptest.NewServer(world)
	t.Cleanup(ts.Close)
	var book twnm.API
	for _, a := range toolworld.Catalog(ts.URL).APIs {
		if a.Name == "stay.Book" {
			book = a
		}
	}
	require.NotNil(t, book.Endpoint)
	in := activities.CallToolInput{API: book, Step: 1, Args: map[string]string{
		"hotel_id": "htl-123", "check_in": "2025-07-01", "nights": "2", "guest_name": "Ada Lovelace"}}

	first, err := callTool(t, &toolcall.Client{}, in)
	require.NoError(t, err)
	second, err := callTool(t, &toolcall.Client{}, in)
	require.NoError(t, err)
	assert.Equal(t, first.Output, second.Output)
	assert.Equal(t, first.IdempotencyKey, second.IdempotencyKey)
	assert.Equal(t, 1, world.Calls("stay.Book"), "the retry is answered from the stored booking")
	assert.Equal(t, map[string]int{"stay.Book": 1}, world.Deduplicated())
}

func TestCallToolHeartbeats(t *testing.T) {
	ks := newKeyServer(t, func(w http.ResponseWriter, _ *http.Request) {
		time.Sleep(300 * time.Millisecond)
		_, _ = io.WriteString(w, `{"ok": true}`)
	})
	var beats atomic.Int32
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	env.SetOnActivityHeartbeatListener(func(_ *activity.Info, details converter.EncodedValues) {
		var p toolcall.Progress
		if details.Get(&p) == nil && p.API == "weather.Current" {
			beats.Add(1)
		}
	})
	env.RegisterActivity(&activities.Activities{Tools: &toolcall.Client{HeartbeatInterval: 20 * time.Millisecond}})
	_, err := env.ExecuteActivity("CallTool", activities.CallToolInput{API: weatherAPI(ks.URL), Args: map[string]string{"city": "P"}})
	require.NoError(t, err)
	assert.Positive(t, beats.Load(), "the activity heartbeats while the call is in flight")
}

func TestCallToolRetryPolicy(t *testing.T) {
	// Each type as the activity fails with it, and as activities failed before the prefix (an
	// old worker's, a recorded run's).
	nonRetryable := []string{"navi.ToolInvalidInput", "ToolInvalidInput", "navi.ToolNotCallable", "ToolNotCallable",
		"navi.ToolRejected", "ToolRejected", "navi.ToolUnauthorized", "ToolUnauthorized",
		"navi.ToolBadResponse", "ToolBadResponse", "navi.NoToolClient", "NoToolClient",
		"navi.ToolOutcomeUnknown", "ToolOutcomeUnknown"}
	tests := []struct {
		name      string
		api       twnm.API
		start     time.Duration
		attempts  int32
		initial   time.Duration
		maxIntval time.Duration
	}{
		{"defaults", twnm.API{Name: "a"}, 30 * time.Second, 3, time.Second, 10 * time.Second},
		{"all hints", twnm.API{Name: "a", Timeout: twnm.Duration(20 * time.Second),
			Retry: &twnm.RetryHint{MaxAttempts: 5, InitialInterval: twnm.Duration(2 * time.Second), MaxInterval: twnm.Duration(time.Minute)}},
			25 * time.Second, 5, 2 * time.Second, time.Minute},
		{"one attempt", twnm.API{Name: "a", Retry: &twnm.RetryHint{MaxAttempts: 1}}, 30 * time.Second, 1, time.Second, 10 * time.Second},
		{"initial over the default maximum", twnm.API{Name: "a", Retry: &twnm.RetryHint{InitialInterval: twnm.Duration(30 * time.Second)}},
			30 * time.Second, 3, 30 * time.Second, 30 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start, hb, p := activities.ToolRetryPolicy(tt.api)
			assert.Equal(t, tt.start, start)
			assert.Equal(t, 3*time.Second, hb, "three of toolcall.Client's one-second beats: a dead worker's call is retried in seconds")
			require.NotNil(t, p)
			assert.Equal(t, tt.attempts, p.MaximumAttempts)
			assert.Equal(t, tt.initial, p.InitialInterval)
			assert.Equal(t, tt.maxIntval, p.MaximumInterval)
			assert.InDelta(t, 2.0, p.BackoffCoefficient, 1e-9)
			assert.ElementsMatch(t, nonRetryable, p.NonRetryableErrorTypes)
		})
	}
	// The policy's slice is the caller's to change.
	_, _, p := activities.ToolRetryPolicy(twnm.API{})
	p.NonRetryableErrorTypes[0] = "changed"
	_, _, p = activities.ToolRetryPolicy(twnm.API{})
	assert.Equal(t, activities.ErrTypeToolInvalidInput, p.NonRetryableErrorTypes[0])
}
