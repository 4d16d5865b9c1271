package toolcall_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/toolcall"
	"github.com/naviagent/navi/toolspec"
)

// seen is what a recording server saw of one request.
type seen struct {
	Method      string
	Path        string // escaped, as sent
	Query       map[string][]string
	Header      http.Header
	Cookies     map[string]string
	Body        string
	ContentType string
}

// recorder is an httptest server that records every request and answers with answer.
type recorder struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []seen
}

func newRecorder(t *testing.T, answer http.HandlerFunc) *recorder {
	t.Helper()
	rec := &recorder{}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		cookies := map[string]string{}
		for _, c := range r.Cookies() {
			cookies[c.Name] = c.Value
		}
		rec.mu.Lock()
		rec.reqs = append(rec.reqs, seen{
			Method: r.Method, Path: r.URL.EscapedPath(), Query: r.URL.Query(), Header: r.Header.Clone(),
			Cookies: cookies, Body: string(body), ContentType: r.Header.Get("Content-Type"),
		})
		rec.mu.Unlock()
		if answer == nil {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"ok": true}`)
			return
		}
		answer(w, r)
	}))
	t.Cleanup(rec.Close)
	return rec
}

func (r *recorder) requests() []seen {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]seen(nil), r.reqs...)
}

func (r *recorder) last(t *testing.T) seen {
	t.Helper()
	reqs := r.requests()
	require.NotEmpty(t, reqs, "the server got no request")
	return reqs[len(reqs)-1]
}

// answerWith answers every request with status, headers and body.
func answerWith(status int, body string, header ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

func endpoint(method, path, base string) *toolspec.Endpoint {
	return &toolspec.Endpoint{Method: method, Path: path, BaseURL: base}
}

func TestCallBuildsRequest(t *testing.T) {
	tests := []struct {
		name   string
		api    func(base string) toolspec.API
		args   map[string]string
		check  func(t *testing.T, r seen)
		output map[string]any
	}{
		{
			name: "path escaped, query, header and cookie",
			api: func(base string) toolspec.API {
				return toolspec.API{Name: "users.Posts", Endpoint: endpoint("GET", "/users/{user_id}/posts", base), Inputs: []toolspec.Param{
					{Name: "user_id", Type: "string", In: toolspec.InPath, Required: true},
					{Name: "limit", Type: "integer", In: toolspec.InQuery},
					{Name: "q", Type: "string", In: toolspec.InQuery},
					{Name: "X-Api-Version", Type: "string", In: toolspec.InHeader},
					{Name: "session", Type: "string", In: toolspec.InCookie},
				}}
			},
			args: map[string]string{"user_id": "a b/c?", "limit": "5", "q": "café & co", "X-Api-Version": "2", "session": "s3cr3t"},
			check: func(t *testing.T, r seen) {
				assert.Equal(t, "GET", r.Method)
				assert.Equal(t, "/users/a%20b%2Fc%3F/posts", r.Path)
				assert.Equal(t, map[string][]string{"limit": {"5"}, "q": {"café & co"}}, r.Query)
				assert.Equal(t, "2", r.Header.Get("X-Api-Version"))
				assert.Equal(t, map[string]string{"session": "s3cr3t"}, r.Cookies)
				assert.Empty(t, r.Body, "a GET has no body")
				assert.Empty(t, r.ContentType)
				assert.Equal(t, "application/json", r.Header.Get("Accept"))
				assert.Equal(t, toolcall.DefaultUserAgent, r.Header.Get("User-Agent"))
			},
		},
		{
			name: "an enumerated value in the schema's spelling",
			api: func(base string) toolspec.API {
				return toolspec.API{Name: "meteo.Forecast", Endpoint: endpoint("GET", "/forecast", base), Inputs: []toolspec.Param{
					{Name: "unit", Type: "string", In: toolspec.InQuery, Enum: []string{"Celsius", "Fahrenheit"}},
				}}
			},
			args: map[string]string{"unit": "fahrenheit"},
			check: func(t *testing.T, r seen) {
				assert.Equal(t, map[string][]string{"unit": {"Fahrenheit"}}, r.Query)
			},
		},
		{
			name: "body converted by type",
			api: func(base string) toolspec.API {
				return toolspec.API{Name: "stay.Book", Endpoint: endpoint("POST", "/bookings", base), Inputs: []toolspec.Param{
					{Name: "hotel_id", Type: "string", In: toolspec.InBody, Required: true},
					{Name: "nights", Type: "integer", In: toolspec.InBody, Required: true},
					{Name: "budget", Type: "number", In: toolspec.InBody},
					{Name: "breakfast", Type: "boolean", In: toolspec.InBody},
					{Name: "rooms", Type: "array", In: toolspec.InBody},
					{Name: "prefs", Type: "object", In: toolspec.InBody},
					{Name: "note", In: toolspec.InBody}, // no type: a string
					{Name: "code", Type: "string", In: toolspec.InBody},
					{Name: "unused", Type: "integer", In: toolspec.InBody},
				}}
			},
			args: map[string]string{"hotel_id": "htl-1", "nights": " 3", "budget": "120.5", "breakfast": "true",
				"rooms": "[1, 2]", "prefs": `{"floor": "high"}`, "note": "42", "code": "007", "unused": ""},
			check: func(t *testing.T, r seen) {
				assert.Equal(t, "POST", r.Method)
				assert.Equal(t, "application/json", r.ContentType)
				assert.JSONEq(t, `{"hotel_id": "htl-1", "nights": 3, "budget": 120.5, "breakfast": true,
					"rooms": [1, 2], "prefs": {"floor": "high"}, "note": "42", "code": "007"}`, r.Body)
			},
		},
		{
			name: "empty In: query for GET",
			api: func(base string) toolspec.API {
				return toolspec.API{Name: "geo.Geocode", Endpoint: endpoint("GET", "/geocode/{country}", base), Inputs: []toolspec.Param{
					{Name: "country", Required: true}, {Name: "city", Type: "string", Required: true},
				}}
			},
			args: map[string]string{"country": "FR", "city": "Paris"},
			check: func(t *testing.T, r seen) {
				assert.Equal(t, "/geocode/FR", r.Path, "a path variable with no In is a path input")
				assert.Equal(t, map[string][]string{"city": {"Paris"}}, r.Query)
			},
		},
		{
			name: "empty In: query for DELETE",
			api: func(base string) toolspec.API {
				return toolspec.API{Name: "cart.Remove", Endpoint: endpoint("DELETE", "/cart", base), Inputs: []toolspec.Param{{Name: "item", Required: true}}}
			},
			args: map[string]string{"item": "x1"},
			check: func(t *testing.T, r seen) {
				assert.Equal(t, "DELETE", r.Method)
				assert.Equal(t, map[string][]string{"item": {"x1"}}, r.Query)
				assert.Empty(t, r.Body)
			},
		},
		{
			name: "empty In: body for PUT",
			api: func(base string) toolspec.API {
				return toolspec.API{Name: "cart.Put", Endpoint: endpoint("PUT", "/cart", base), Inputs: []toolspec.Param{{Name: "qty", Type: "integer", Required: true}}}
			},
			args: map[string]string{"qty": "2"},
			check: func(t *testing.T, r seen) {
				assert.Empty(t, r.Query)
				assert.JSONEq(t, `{"qty": 2}`, r.Body)
			},
		},
		{
			name: "optional body inputs all absent: an empty object",
			api: func(base string) toolspec.API {
				return toolspec.API{Name: "jobs.Start", Endpoint: endpoint("POST", "/jobs", base), Inputs: []toolspec.Param{{Name: "label", In: toolspec.InBody}}}
			},
			args:  nil,
			check: func(t *testing.T, r seen) { assert.JSONEq(t, `{}`, r.Body) },
		},
		{
			name: "base URL with a path, a slash and a query",
			api: func(base string) toolspec.API {
				return toolspec.API{Name: "v.Search", Endpoint: endpoint("GET", "/search", base+"/v1/?api=2"), Inputs: []toolspec.Param{{Name: "q", In: toolspec.InQuery}}}
			},
			args: map[string]string{"q": "x"},
			check: func(t *testing.T, r seen) {
				assert.Equal(t, "/v1/search", r.Path)
				assert.Equal(t, map[string][]string{"api": {"2"}, "q": {"x"}}, r.Query, "the catalog URL's query is kept")
			},
		},
		{
			name: "full URL in the path wins over the base",
			api: func(base string) toolspec.API {
				return toolspec.API{Name: "full.Get", Endpoint: endpoint("GET", base+"/items/{id}", "https://unused.invalid"),
					Inputs: []toolspec.Param{{Name: "id", In: toolspec.InPath, Required: true}}}
			},
			args:  map[string]string{"id": "7"},
			check: func(t *testing.T, r seen) { assert.Equal(t, "/items/7", r.Path) },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := newRecorder(t, nil)
			var c toolcall.Client
			res, err := c.Call(context.Background(), tt.api(rec.URL), tt.args, toolcall.CallOptions{})
			require.NoError(t, err)
			assert.Equal(t, map[string]any{"ok": true}, res.Output)
			tt.check(t, rec.last(t))
		})
	}
}

func TestCallRejectsBadInputBeforeCalling(t *testing.T) {
	api := func(base string) toolspec.API {
		return toolspec.API{Name: "shop.Order", Endpoint: endpoint("POST", "/orders/{shop}", base), Inputs: []toolspec.Param{
			{Name: "shop", In: toolspec.InPath, Required: true},
			{Name: "qty", Type: "integer", In: toolspec.InBody, Required: true},
			{Name: "price", Type: "number", In: toolspec.InQuery},
			{Name: "gift", Type: "boolean", In: toolspec.InBody},
			{Name: "items", Type: "array", In: toolspec.InBody},
			{Name: "X-Trace", In: toolspec.InHeader},
			{Name: "sid", In: toolspec.InCookie},
			{Name: "size", In: toolspec.InQuery, Enum: []string{"small", "large"}},
			{Name: "channel", In: toolspec.InQuery, Pattern: "^(0|[1-9][0-9]*)$"},
		}}
	}
	ok := map[string]string{"shop": "s1", "qty": "1"}
	with := func(kv ...string) map[string]string {
		m := map[string]string{}
		for k, v := range ok {
			m[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i+1] == "<delete>" {
				delete(m, kv[i])
				continue
			}
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name  string
		args  map[string]string
		param string
		want  []string
	}{
		{"unknown arg", with("colour", "red"), "colour", []string{"unknown parameter(s) colour", "the inputs are shop, qty"}},
		{"unknown args", with("b", "1", "a", "2"), "", []string{"unknown parameter(s) a, b"}},
		{"missing required", with("qty", "<delete>"), "qty", []string{"required parameter qty (body) is missing"}},
		{"empty required", with("qty", ""), "qty", []string{"required parameter qty"}},
		{"missing path", with("shop", "<delete>"), "shop", []string{"required parameter shop (path) is missing"}},
		{"integer", with("qty", "two"), "qty", []string{"parameter qty", `want an integer, got "two"`}},
		{"integer with a fraction", with("qty", "1.5"), "qty", []string{"want an integer"}},
		{"number", with("price", "cheap"), "price", []string{"parameter price", "want a finite number"}},
		{"number NaN", with("price", "NaN"), "price", []string{"want a finite number"}},
		{"boolean", with("gift", "maybe"), "gift", []string{"parameter gift", "want a boolean"}},
		{"array", with("items", "1,2"), "items", []string{"want a JSON array"}},
		{"header line break", with("X-Trace", "a\r\nEvil: 1"), "X-Trace", []string{"line break"}},
		{"cookie", with("sid", `a"b;c`), "sid", []string{"cookie parameter sid"}},
		{"outside the enum", with("size", "medium"), "size", []string{"parameter size", `want one of small, large, got "medium"`}},
		{"outside the pattern", with("channel", "C01GEN4RL"), "channel", []string{"parameter channel", `want a value matching ^(0|[1-9][0-9]*)$, got "C01GEN4RL"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := newRecorder(t, nil)
			_, err := (&toolcall.Client{}).Call(context.Background(), api(rec.URL), tt.args, toolcall.CallOptions{})
			require.Error(t, err)
			require.ErrorIs(t, err, toolcall.ErrInvalidInput)
			var e *toolcall.Error
			require.ErrorAs(t, err, &e)
			assert.False(t, e.Retryable())
			assert.Equal(t, tt.param, e.Param)
			assert.Contains(t, err.Error(), "call shop.Order")
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
			assert.Empty(t, rec.requests(), "a bad call never reaches the tool")
		})
	}
}

func TestCallNotCallable(t *testing.T) {
	tests := []struct {
		name string
		api  toolspec.API
		want string
	}{
		{"no endpoint", toolspec.API{Name: "a.B"}, "no HTTP endpoint"},
		{"no base URL", toolspec.API{Name: "a.B", Endpoint: endpoint("GET", "/x", "")}, "has no base URL"},
		{"relative base URL", toolspec.API{Name: "a.B", Endpoint: endpoint("GET", "/x", "/api")}, "not an absolute"},
		{"path variable without input", toolspec.API{Name: "a.B", Endpoint: endpoint("GET", "/x/{id}", "http://127.0.0.1:1")}, "{id} names no path input"},
		{"bad template", toolspec.API{Name: "a.B", Endpoint: endpoint("GET", "/x/{id", "http://127.0.0.1:1")}, "unmatched {"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := (&toolcall.Client{}).Call(context.Background(), tt.api, nil, toolcall.CallOptions{})
			require.ErrorIs(t, err, toolcall.ErrNotCallable)
			assert.Contains(t, err.Error(), "call a.B")
			assert.Contains(t, err.Error(), tt.want)
			var e *toolcall.Error
			require.ErrorAs(t, err, &e)
			assert.False(t, e.Retryable())
		})
	}
}

func simpleAPI(base string) toolspec.API {
	return toolspec.API{Name: "weather.Current", Endpoint: endpoint("GET", "/weather", base),
		Inputs: []toolspec.Param{{Name: "city", Type: "string", In: toolspec.InQuery, Required: true}}}
}

func TestCallClassifiesAnswers(t *testing.T) {
	now := time.Now()
	long := strings.Repeat("a", 290) + "0123456789" + "NOT-IN-MESSAGE"
	tests := []struct {
		name       string
		answer     http.HandlerFunc
		kind       error // nil: success
		output     map[string]any
		status     int
		retryable  bool
		retryAfter time.Duration
		tolerance  time.Duration
		msg        []string
		notMsg     string
		param      string // the input the answer names as the one at fault
	}{
		{name: "200 object", answer: answerWith(200, `{"temp": 21.5, "city": "Paris", "ok": true, "n": null}`),
			output: map[string]any{"temp": json.Number("21.5"), "city": "Paris", "ok": true, "n": nil}, status: 200},
		{name: "201 array wrapped", answer: answerWith(201, `[1, "two"]`),
			output: map[string]any{"result": []any{json.Number("1"), "two"}}, status: 201},
		{name: "200 scalar wrapped", answer: answerWith(200, `"pong"`), output: map[string]any{"result": "pong"}, status: 200},
		{name: "200 null wrapped", answer: answerWith(200, `null`), output: map[string]any{"result": nil}, status: 200},
		{name: "204 empty", answer: answerWith(204, ``), output: map[string]any{}, status: 204},
		{name: "large integer keeps its digits", answer: answerWith(200, `{"id": 12345678901234567890}`),
			output: map[string]any{"id": json.Number("12345678901234567890")}, status: 200},
		{name: "200 not JSON", answer: answerWith(200, `<html>oops</html>`), kind: toolcall.ErrBadResponse, status: 200,
			msg: []string{"call weather.Current", "not JSON", "<html>oops</html>"}},
		{name: "200 trailing data", answer: answerWith(200, `{"a": 1} {"b": 2}`), kind: toolcall.ErrBadResponse, status: 200,
			msg: []string{"data after the JSON value"}},
		{name: "400", answer: answerWith(400, `{"error": "parameter city: is required"}`), kind: toolcall.ErrRejected, status: 400,
			msg: []string{"HTTP 400 Bad Request", "parameter city: is required"}},
		{name: "400 names the parameter", answer: answerWith(400, `{"error": "unknown city \"Pariss\"", "parameter": "city"}`),
			kind: toolcall.ErrRejected, status: 400, param: "city"},
		{name: "400 names it in an error object", answer: answerWith(400, `{"error": {"message": "No such city", "param": "city"}}`),
			kind: toolcall.ErrRejected, status: 400, param: "city"},
		{name: "422 problem details", answer: answerWith(422, `{"title": "bad input", "invalid-params": [{"name": "city", "reason": "unknown"}]}`),
			kind: toolcall.ErrRejected, status: 422, param: "city"},
		{name: "404", answer: answerWith(404, `not found`), kind: toolcall.ErrRejected, status: 404, msg: []string{"HTTP 404"}},
		{name: "405", answer: answerWith(405, ``), kind: toolcall.ErrRejected, status: 405},
		{name: "409", answer: answerWith(409, `conflict`), kind: toolcall.ErrRejected, status: 409},
		{name: "410", answer: answerWith(410, `{"error": "api deprecated and removed"}`), kind: toolcall.ErrRejected, status: 410, msg: []string{"deprecated"}},
		{name: "422", answer: answerWith(422, `bad`), kind: toolcall.ErrRejected, status: 422},
		{name: "418 other 4xx", answer: answerWith(418, `teapot`), kind: toolcall.ErrRejected, status: 418},
		{name: "body cut at 300 bytes", answer: answerWith(400, long), kind: toolcall.ErrRejected, status: 400,
			msg: []string{long[:300]}, notMsg: "NOT-IN-MESSAGE"},
		{name: "401", answer: answerWith(401, `no key`), kind: toolcall.ErrUnauthorized, status: 401, msg: []string{"HTTP 401", "no key"}},
		{name: "403", answer: answerWith(403, `forbidden`), kind: toolcall.ErrUnauthorized, status: 403},
		{name: "429 seconds", answer: answerWith(429, `slow down`, "Retry-After", "7"), kind: toolcall.ErrRateLimited, status: 429,
			retryable: true, retryAfter: 7 * time.Second, msg: []string{"HTTP 429"}},
		{name: "429 date", answer: answerWith(429, ``, "Retry-After", now.Add(90*time.Second).UTC().Format(http.TimeFormat)),
			kind: toolcall.ErrRateLimited, status: 429, retryable: true, retryAfter: 90 * time.Second, tolerance: 3 * time.Second},
		{name: "429 without Retry-After", answer: answerWith(429, ``), kind: toolcall.ErrRateLimited, status: 429,
			retryable: true, retryAfter: toolcall.DefaultRetryAfter},
		{name: "429 unreadable Retry-After", answer: answerWith(429, ``, "Retry-After", "soon"), kind: toolcall.ErrRateLimited, status: 429,
			retryable: true, retryAfter: toolcall.DefaultRetryAfter},
		{name: "408", answer: answerWith(408, ``), kind: toolcall.ErrUnavailable, status: 408, retryable: true},
		{name: "500", answer: answerWith(500, `{"error": "internal error (flaky)"}`), kind: toolcall.ErrUnavailable, status: 500, retryable: true, msg: []string{"HTTP 500"}},
		{name: "502", answer: answerWith(502, ``), kind: toolcall.ErrUnavailable, status: 502, retryable: true},
		{name: "503", answer: answerWith(503, ``), kind: toolcall.ErrUnavailable, status: 503, retryable: true},
		{name: "503 with Retry-After", answer: answerWith(503, ``, "Retry-After", "4"), kind: toolcall.ErrUnavailable, status: 503,
			retryable: true, retryAfter: 4 * time.Second},
		{name: "500 ignores Retry-After", answer: answerWith(500, ``, "Retry-After", "4"), kind: toolcall.ErrUnavailable, status: 500, retryable: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := newRecorder(t, tt.answer)
			res, err := (&toolcall.Client{}).Call(context.Background(), simpleAPI(rec.URL), map[string]string{"city": "Paris"}, toolcall.CallOptions{})
			if tt.kind == nil {
				require.NoError(t, err)
				assert.Equal(t, "weather.Current", res.API)
				assert.Equal(t, tt.status, res.Status)
				assert.Equal(t, tt.output, res.Output)
				assert.False(t, res.Truncated)
				assert.Positive(t, res.Duration)
				return
			}
			require.Error(t, err)
			require.ErrorIs(t, err, tt.kind)
			var e *toolcall.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, "weather.Current", e.API)
			assert.Equal(t, tt.status, e.Status)
			assert.Equal(t, tt.retryable, e.Retryable())
			assert.Equal(t, tt.param, e.Param)
			assert.InDelta(t, float64(tt.retryAfter), float64(e.RetryAfter), float64(tt.tolerance))
			assert.Contains(t, err.Error(), "call weather.Current")
			for _, m := range tt.msg {
				assert.Contains(t, err.Error(), m)
			}
			if tt.notMsg != "" {
				assert.NotContains(t, err.Error(), tt.notMsg)
			}
		})
	}
}

func TestErrorBodyStaysValidUTF8(t *testing.T) {
	body := "x" + strings.Repeat("€", 200) // the 300-byte cut falls inside a rune
	rec := newRecorder(t, answerWith(400, body))
	_, err := (&toolcall.Client{}).Call(context.Background(), simpleAPI(rec.URL), map[string]string{"city": "P"}, toolcall.CallOptions{})
	var e *toolcall.Error
	require.ErrorAs(t, err, &e)
	assert.True(t, utf8.ValidString(e.Body))
	assert.Equal(t, body[:298], e.Body)
}

func TestCallTransportFailures(t *testing.T) {
	t.Run("connection refused", func(t *testing.T) {
		srv := httptest.NewServer(http.NotFoundHandler())
		base := srv.URL
		srv.Close()
		_, err := (&toolcall.Client{}).Call(context.Background(), simpleAPI(base), map[string]string{"city": "P"}, toolcall.CallOptions{})
		require.ErrorIs(t, err, toolcall.ErrUnavailable)
		var e *toolcall.Error
		require.ErrorAs(t, err, &e)
		assert.True(t, e.Retryable())
		assert.Zero(t, e.Status)
	})

	slow := func(t *testing.T) *recorder {
		return newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		})
	}
	t.Run("API timeout", func(t *testing.T) {
		rec := slow(t)
		api := simpleAPI(rec.URL)
		api.Timeout = toolspec.Duration(50 * time.Millisecond)
		start := time.Now()
		_, err := (&toolcall.Client{}).Call(context.Background(), api, map[string]string{"city": "P"}, toolcall.CallOptions{})
		require.ErrorIs(t, err, toolcall.ErrUnavailable)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Contains(t, err.Error(), "no answer within the API's timeout of 50ms")
		assert.Less(t, time.Since(start), 3*time.Second)
	})
	t.Run("HTTP client timeout", func(t *testing.T) {
		rec := slow(t)
		c := &toolcall.Client{HTTP: &http.Client{Timeout: 50 * time.Millisecond}}
		_, err := c.Call(context.Background(), simpleAPI(rec.URL), map[string]string{"city": "P"}, toolcall.CallOptions{})
		require.ErrorIs(t, err, toolcall.ErrUnavailable)
	})
	t.Run("caller cancels", func(t *testing.T) {
		rec := slow(t)
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		_, err := (&toolcall.Client{}).Call(ctx, simpleAPI(rec.URL), map[string]string{"city": "P"}, toolcall.CallOptions{})
		require.ErrorIs(t, err, context.Canceled)
		var e *toolcall.Error
		assert.False(t, errors.As(err, &e), "the caller's own cancellation is not a tool failure")
		assert.Contains(t, err.Error(), "call weather.Current")
	})
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 7, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, false},
		{"0", 0, true},
		{"5", 5 * time.Second, true},
		{" 120 ", 2 * time.Minute, true},
		{"-1", 0, false},
		{"1.5", 0, false},
		{"soon", 0, false},
		{"99999999999999999999", 0, false}, // overflows int64: unreadable
		{"9223372036854775807", time.Duration(1<<63-1) / time.Second * time.Second, true},
		{"Tue, 01 Jul 2025 12:00:30 GMT", 30 * time.Second, true}, // IMF-fixdate
		{"Tuesday, 01-Jul-25 12:01:00 GMT", time.Minute, true},    // RFC 850
		{"Tue Jul  1 12:00:10 2025", 10 * time.Second, true},      // ANSI C asctime
		{"Tue, 01 Jul 2025 11:00:00 GMT", 0, true},                // in the past: now
		{"2025-07-01T12:00:30Z", 0, false},                        // not an HTTP date
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			d, ok := toolcall.ParseRetryAfter(tt.in, now)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, d)
		})
	}
}

func TestCallHeartbeatsWhileInFlight(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request) {
		time.Sleep(300 * time.Millisecond)
		_, _ = io.WriteString(w, `{"ok": true}`)
	})
	var beats atomic.Int32
	var mu sync.Mutex
	var details []any
	c := &toolcall.Client{HeartbeatInterval: 20 * time.Millisecond}
	res, err := c.Call(context.Background(), simpleAPI(rec.URL), map[string]string{"city": "P"}, toolcall.CallOptions{
		Heartbeat: func(d any) {
			beats.Add(1)
			mu.Lock()
			details = append(details, d)
			mu.Unlock()
		},
	})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"ok": true}, res.Output)
	n := beats.Load()
	assert.GreaterOrEqual(t, n, int32(5), "a 300ms call heartbeats every 20ms")
	mu.Lock()
	p, ok := details[0].(toolcall.Progress)
	mu.Unlock()
	require.True(t, ok, "heartbeat details are a Progress")
	assert.Equal(t, "weather.Current", p.API)
	assert.Positive(t, p.Elapsed)

	time.Sleep(60 * time.Millisecond)
	assert.Equal(t, n, beats.Load(), "no heartbeat after Call returns")
}

func TestCallWithoutHeartbeatOrFastCall(t *testing.T) {
	rec := newRecorder(t, nil)
	var beats atomic.Int32
	c := &toolcall.Client{HeartbeatInterval: time.Hour}
	_, err := c.Call(context.Background(), simpleAPI(rec.URL), map[string]string{"city": "P"},
		toolcall.CallOptions{Heartbeat: func(any) { beats.Add(1) }})
	require.NoError(t, err)
	assert.Zero(t, beats.Load())
	_, err = c.Call(context.Background(), simpleAPI(rec.URL), map[string]string{"city": "P"}, toolcall.CallOptions{})
	require.NoError(t, err, "no Heartbeat func is fine")
}

func TestCallIdempotencyKeyAndUserAgent(t *testing.T) {
	rec := newRecorder(t, nil)
	c := &toolcall.Client{UserAgent: "navi-test/9"}
	api := toolspec.API{Name: "stay.Book", Endpoint: endpoint("POST", "/book", rec.URL), Inputs: []toolspec.Param{{Name: "hotel_id", In: toolspec.InBody}},
		Effect: toolspec.EffectIdempotent}

	_, err := c.Call(context.Background(), api, map[string]string{"hotel_id": "h"}, toolcall.CallOptions{IdempotencyKey: "wf/run/5"})
	require.NoError(t, err)
	r := rec.last(t)
	assert.Equal(t, "wf/run/5", r.Header.Get("Idempotency-Key"))
	assert.Equal(t, "navi-test/9", r.Header.Get("User-Agent"))

	_, err = c.Call(context.Background(), simpleAPI(rec.URL), map[string]string{"city": "P"}, toolcall.CallOptions{IdempotencyKey: "k2"})
	require.NoError(t, err)
	assert.Equal(t, "k2", rec.last(t).Header.Get("Idempotency-Key"), "GETs carry the key too")

	_, err = c.Call(context.Background(), api, nil, toolcall.CallOptions{})
	require.NoError(t, err)
	assert.NotContains(t, rec.last(t).Header, "Idempotency-Key")

	// A POST that declares no effect honours no key: it gets none, or net/http would send it
	// again by itself when a reused connection breaks after writing it.
	api.Effect = ""
	_, err = c.Call(context.Background(), api, map[string]string{"hotel_id": "h"}, toolcall.CallOptions{IdempotencyKey: "wf/run/6"})
	require.NoError(t, err)
	assert.NotContains(t, rec.last(t).Header, "Idempotency-Key")
}

// bigOutput is an answer of about 20 KB: an array that makes it large, and scalars.
func bigOutput() (map[string]any, string) {
	items := make([]map[string]any, 200)
	for i := range items {
		items[i] = map[string]any{"id": fmt.Sprintf("item-%03d", i), "desc": strings.Repeat("x", 80)}
	}
	out := map[string]any{
		"city":    "Paris",
		"count":   200,
		"open":    true,
		"missing": nil,
		"blurb":   strings.Repeat("é", 300),
		"items":   items,
		"meta":    map[string]any{"page": 1},
	}
	b, _ := json.Marshal(out)
	return out, string(b)
}

func TestCallStoresLargeOutput(t *testing.T) {
	_, body := bigOutput()
	require.Greater(t, len(body), toolcall.DefaultMaxOutputBytes)
	rec := newRecorder(t, answerWith(200, body))
	dir := filepath.Join(t.TempDir(), "outputs")
	c := &toolcall.Client{Outputs: toolcall.DirStore{Dir: dir}}

	res, err := c.Call(context.Background(), simpleAPI(rec.URL), map[string]string{"city": "Paris"},
		toolcall.CallOptions{IdempotencyKey: "wf-1/run-1/7"})
	require.NoError(t, err)
	assert.True(t, res.Truncated)
	assert.Equal(t, len(body), res.Bytes)
	require.NotEmpty(t, res.Ref)
	assert.Equal(t, dir, filepath.Dir(res.Ref))
	assert.Equal(t, toolcall.FileName("wf-1/run-1/7"), filepath.Base(res.Ref), "the key names the file")
	stored, err := os.ReadFile(res.Ref)
	require.NoError(t, err)
	assert.Equal(t, body, string(stored), "the full body is stored")

	assert.Equal(t, map[string]any{
		"city": "Paris", "count": json.Number("200"), "open": true, "missing": nil,
		"blurb": strings.Repeat("é", toolcall.MaxSummaryRunes),
	}, res.Output, "only the scalars stay, strings cut to 256 runes")
	enc, err := json.Marshal(res)
	require.NoError(t, err)
	assert.Less(t, len(enc), 2048, "what reaches the history is small")

	// OutputKey wins over the idempotency key.
	res, err = c.Call(context.Background(), simpleAPI(rec.URL), map[string]string{"city": "Paris"},
		toolcall.CallOptions{IdempotencyKey: "k", OutputKey: "step-3"})
	require.NoError(t, err)
	assert.Equal(t, toolcall.FileName("step-3"), filepath.Base(res.Ref))
}

func TestCallLargeOutputLimits(t *testing.T) {
	out, body := bigOutput()
	delete(out, "items")
	small, _ := json.Marshal(out)

	t.Run("under the limit: whole", func(t *testing.T) {
		rec := newRecorder(t, answerWith(200, string(small)))
		c := &toolcall.Client{MaxOutputBytes: len(small) + 10, Outputs: failingStore{}}
		res, err := c.Call(context.Background(), simpleAPI(rec.URL), map[string]string{"city": "P"}, toolcall.CallOptions{})
		require.NoError(t, err)
		assert.False(t, res.Truncated)
		assert.Empty(t, res.Ref)
		assert.Contains(t, res.Output, "meta")
	})
	t.Run("custom limit, no store", func(t *testing.T) {
		rec := newRecorder(t, answerWith(200, string(small)))
		c := &toolcall.Client{MaxOutputBytes: 60}
		res, err := c.Call(context.Background(), simpleAPI(rec.URL), map[string]string{"city": "P"}, toolcall.CallOptions{})
		require.NoError(t, err)
		assert.True(t, res.Truncated)
		assert.Empty(t, res.Ref)
		enc, err := json.Marshal(res.Output)
		require.NoError(t, err)
		assert.LessOrEqual(t, len(enc), 60, "even the summary keeps within the limit")
		assert.Equal(t, "Paris", res.Output["city"], "the small scalars that fit are kept")
	})
	t.Run("store fails: retryable", func(t *testing.T) {
		rec := newRecorder(t, answerWith(200, body))
		c := &toolcall.Client{Outputs: failingStore{}}
		_, err := c.Call(context.Background(), simpleAPI(rec.URL), map[string]string{"city": "P"}, toolcall.CallOptions{})
		require.ErrorIs(t, err, toolcall.ErrOutputStore)
		var e *toolcall.Error
		require.ErrorAs(t, err, &e)
		assert.True(t, e.Retryable())
		assert.Contains(t, err.Error(), "disk full")
	})
	t.Run("body over the response limit", func(t *testing.T) {
		rec := newRecorder(t, answerWith(200, body))
		c := &toolcall.Client{MaxResponseBytes: 1000}
		_, err := c.Call(context.Background(), simpleAPI(rec.URL), map[string]string{"city": "P"}, toolcall.CallOptions{})
		require.ErrorIs(t, err, toolcall.ErrBadResponse)
		assert.Contains(t, err.Error(), "body over 1000 bytes")
	})
}

type failingStore struct{}

func (failingStore) Put(context.Context, string, []byte) (string, error) {
	return "", errors.New("disk full")
}

func TestDirStore(t *testing.T) {
	dir := t.TempDir()
	s := toolcall.DirStore{Dir: dir}
	keys := []string{"wf/run/1", "../../etc/passwd", ".hidden", "wf_run_1", "ключ", strings.Repeat("k", 500), ""}
	names := map[string]string{}
	for _, k := range keys {
		ref, err := s.Put(context.Background(), k, []byte("body of "+k))
		require.NoError(t, err, k)
		assert.Equal(t, dir, filepath.Dir(ref), "key %q stays inside the directory", k)
		name := filepath.Base(ref)
		assert.False(t, strings.HasPrefix(name, "."), name)
		assert.LessOrEqual(t, len(name), 120)
		if prev, dup := names[name]; dup {
			t.Errorf("keys %q and %q share file %s", prev, k, name)
		}
		names[name] = k
		got, err := os.ReadFile(ref)
		require.NoError(t, err)
		assert.Equal(t, "body of "+k, string(got))
	}

	// The same key replaces the body, and no temporary file is left.
	ref, err := s.Put(context.Background(), "wf/run/1", []byte("second"))
	require.NoError(t, err)
	got, err := os.ReadFile(ref)
	require.NoError(t, err)
	assert.Equal(t, "second", string(got))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, len(keys))

	_, err = toolcall.DirStore{}.Put(context.Background(), "k", nil)
	assert.ErrorContains(t, err, "Dir is empty")
}

// Outputs found by a path in the answer are set under their names, for later calls to bind:
// the first item's field of a list, a top-level field of that name left as it is.
func TestCallExposesNestedOutputs(t *testing.T) {
	body := `{"id": 7, "results": [{"id": 11, "name": "Sofia"}, {"id": 12}], "cast": [], "crew": [{"job": "Director"}]}`
	rec := newRecorder(t, answerWith(200, body))
	api := simpleAPI(rec.URL)
	api.Outputs = []toolspec.Param{
		{Name: "id", Type: "integer"},
		{Name: "results_id", Type: "integer", Path: "results[].id"},
		{Name: "name", Path: "results[].name"},
		{Name: "cast_id", Path: "cast[].id"}, // an empty list: nothing to expose
		{Name: "job", Path: "crew[].job"},
		{Name: "missing", Path: "results[].nope"},
	}
	res, err := (&toolcall.Client{}).Call(context.Background(), api, map[string]string{"city": "Paris"}, toolcall.CallOptions{})
	require.NoError(t, err)
	assert.Equal(t, json.Number("7"), res.Output["id"], "the top-level field stays")
	assert.Equal(t, json.Number("11"), res.Output["results_id"])
	assert.Equal(t, "Sofia", res.Output["name"])
	assert.Equal(t, "Director", res.Output["job"])
	assert.NotContains(t, res.Output, "cast_id")
	assert.NotContains(t, res.Output, "missing")
}

// An answer that is a list is read under toolspec.ResultKey, and its items' fields, which the
// importer finds there ("result[].id"), are set under their names like any nested output.
func TestCallExposesTheOutputsOfAList(t *testing.T) {
	rec := newRecorder(t, answerWith(200, `[{"id": "s1", "name": "docs-hub"}, {"id": "s2", "name": "bakery-landing"}]`))
	api := simpleAPI(rec.URL)
	api.Outputs = []toolspec.Param{{Name: "id", Type: "string", Path: "result[].id"}, {Name: "name", Type: "string", Path: "result[].name"}}
	res, err := (&toolcall.Client{}).Call(context.Background(), api, map[string]string{"city": "Paris"}, toolcall.CallOptions{})
	require.NoError(t, err)
	assert.Equal(t, "s1", res.Output["id"], "the first item's")
	got, ok := toolspec.Pick(res.Output, "result[].id", "bakery-landing")
	require.True(t, ok)
	assert.Equal(t, "s2", got, "the item a name picks")
}

// The outputs an answer shows and the catalog does not list come back by name, path and type,
// from the whole answer even when the history keeps a summary of it; a suspect answer
// teaches nothing.
func TestCallObservesUnlistedOutputs(t *testing.T) {
	tests := []struct {
		name string
		body string
		max  int
		want []toolspec.Param
	}{
		{name: "nested fields", body: `{"temp": 21, "station": {"id": "LIRA", "lat": 41.8}, "city": "Rome"}`, want: []toolspec.Param{
			{Name: "station_id", Type: "string", Path: "station.id"},
			{Name: "lat", Type: "number", Path: "station.lat"},
		}},
		{name: "a truncated answer", body: `{"temp": 21, "hours": [{"hour": 1, "note": "` + strings.Repeat("x", 400) + `"}]}`, max: 64, want: []toolspec.Param{
			{Name: "hour", Type: "number", Path: "hours[].hour"},
			{Name: "note", Type: "string", Path: "hours[].note"},
		}},
		{name: "a suspect answer", body: `{"error": "no such city", "detail": {"code": 7}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := newRecorder(t, answerWith(200, tt.body))
			api := simpleAPI(rec.URL)
			api.Outputs = []toolspec.Param{{Name: "temp", Type: "number"}, {Name: "id"}}
			res, err := (&toolcall.Client{MaxOutputBytes: tt.max}).Call(context.Background(), api, map[string]string{"city": "Rome"}, toolcall.CallOptions{})
			require.NoError(t, err)
			assert.Equal(t, tt.want, res.Observed)
			assert.Equal(t, tt.max > 0, res.Truncated)
		})
	}
}

// A call of an API that honours no idempotency key (a POST with no declared effect) that was
// sent and got no answer, or whose gateway lost the answer, may have taken effect: its
// outcome is unknown, and it is not retryable. The same failures of a read, of an idempotent
// call, or before the request left, stay retryable; so do the tool's own refusals (503). The
// tool sees each call once.
func TestCallUnsafeOutcomeUnknown(t *testing.T) {
	slow := func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}
	hangUp := func(w http.ResponseWriter, r *http.Request) { // reads the request, then drops the line
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			_ = conn.Close()
		}
	}
	refused := httptest.NewServer(http.NotFoundHandler())
	refusedURL := refused.URL
	refused.Close()
	tests := []struct {
		name   string
		answer http.HandlerFunc // nil: nothing listens
		method string
		effect string
		kind   error
		seen   int // requests the tool saw
	}{
		{name: "unsafe, timed out after sending", answer: slow, method: "POST", kind: toolcall.ErrOutcomeUnknown, seen: 1},
		{name: "unsafe, connection dropped after sending", answer: hangUp, method: "POST", kind: toolcall.ErrOutcomeUnknown, seen: 1},
		{name: "unsafe, gateway lost the answer", answer: answerWith(502, `{}`), method: "POST", kind: toolcall.ErrOutcomeUnknown, seen: 1},
		{name: "unsafe, gateway timed out", answer: answerWith(504, `{}`), method: "POST", kind: toolcall.ErrOutcomeUnknown, seen: 1},
		{name: "unsafe, the tool refused", answer: answerWith(503, `{}`), method: "POST", kind: toolcall.ErrUnavailable, seen: 1},
		{name: "unsafe, never reached", method: "POST", kind: toolcall.ErrUnavailable},
		{name: "idempotent, timed out", answer: slow, method: "POST", effect: toolspec.EffectIdempotent, kind: toolcall.ErrUnavailable, seen: 1},
		{name: "read, timed out", answer: slow, method: "GET", kind: toolcall.ErrUnavailable, seen: 1},
		{name: "read, gateway lost the answer", answer: answerWith(502, `{}`), method: "GET", kind: toolcall.ErrUnavailable, seen: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := refusedURL
			var rec *recorder
			if tt.answer != nil {
				rec = newRecorder(t, tt.answer)
				base = rec.URL
			}
			api := simpleAPI(base)
			api.Endpoint.Method, api.Effect = tt.method, tt.effect
			api.Timeout = toolspec.Duration(200 * time.Millisecond)
			_, err := (&toolcall.Client{}).Call(context.Background(), api, map[string]string{"city": "P"}, toolcall.CallOptions{})
			var e *toolcall.Error
			require.ErrorAs(t, err, &e)
			assert.ErrorIs(t, err, tt.kind)
			unknown := errors.Is(tt.kind, toolcall.ErrOutcomeUnknown)
			assert.Equal(t, !unknown, e.Retryable())
			if unknown {
				assert.Contains(t, err.Error(), "weather.Current honours no idempotency key, so it may have taken effect and is not sent again")
			}
			if rec != nil {
				rec.mu.Lock()
				defer rec.mu.Unlock()
				assert.Len(t, rec.reqs, tt.seen)
			}
		})
	}
}

// A write never runs with nothing to write: a required input of an API that changes state
// refuses blank text, [], {} and null before the call; a read takes what it is given.
func TestCallRefusesEmptyWrites(t *testing.T) {
	api := func(base, method string) toolspec.API {
		return toolspec.API{Name: "kg.CreateEntities", Endpoint: endpoint(method, "/entities", base), Inputs: []toolspec.Param{
			{Name: "entities", Type: "array", In: toolspec.InBody, Required: true},
			{Name: "note", In: toolspec.InQuery, Required: true},
			{Name: "meta", Type: "object", In: toolspec.InBody},
		}}
	}
	tests := []struct {
		name   string
		method string
		args   map[string]string
		param  string // "" when the call goes through
	}{
		{"empty array", "POST", map[string]string{"entities": "[]", "note": "n"}, "entities"},
		{"spaced empty array", "POST", map[string]string{"entities": " [ ] ", "note": "n"}, "entities"},
		{"blank text", "POST", map[string]string{"entities": `[{"name":"Rome"}]`, "note": "  "}, "note"},
		{"something to write", "POST", map[string]string{"entities": `[{"name":"Rome"}]`, "note": "n", "meta": "{}"}, ""},
		{"a read takes an empty list", "GET", map[string]string{"entities": "[]", "note": "n"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := newRecorder(t, nil)
			a := api(rec.URL, tt.method)
			if tt.method == "GET" {
				a.Inputs[0].In = toolspec.InQuery
			}
			_, err := (&toolcall.Client{}).Call(context.Background(), a, tt.args, toolcall.CallOptions{})
			if tt.param == "" {
				require.NoError(t, err)
				assert.Len(t, rec.requests(), 1)
				return
			}
			require.ErrorIs(t, err, toolcall.ErrInvalidInput)
			var e *toolcall.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tt.param, e.Param)
			assert.Contains(t, err.Error(), "is empty, and kg.CreateEntities changes state")
			assert.Empty(t, rec.requests(), "an empty write never reaches the tool")
		})
	}
}
