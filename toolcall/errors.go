package toolcall

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/naviagent/navi/toolspec"
)

// Kinds of failure of a call. Every error Call returns for a failed call is an *Error whose
// Kind is one of these, so errors.Is(err, ErrRejected) and the like tell them apart; the
// exception is the cancellation or expiry of the caller's own context, which comes back as
// that context's error, wrapped.
var (
	// ErrInvalidInput: the arguments do not fit the API's inputs (unknown, missing, or not
	// of the declared type). Retrying the same arguments cannot help.
	ErrInvalidInput = errors.New("invalid tool input")
	// ErrNotCallable: the catalog record cannot be called (over HTTP: no endpoint, no
	// absolute URL, a path variable that names no input; as an MCP tool: no MCP client, a
	// server command that does not exist). Retrying cannot help.
	ErrNotCallable = errors.New("tool not callable")
	// ErrRejected: the tool answered a 4xx other than 401, 403, 408 and 429 (or an
	// unexpected 1xx or 3xx): the request itself is wrong.
	ErrRejected = errors.New("tool rejected the request")
	// ErrUnauthorized: the tool answered 401 or 403; only new credentials can help.
	ErrUnauthorized = errors.New("tool refused the credentials")
	// ErrRateLimited: the tool answered 429; retry after Error.RetryAfter.
	ErrRateLimited = errors.New("tool rate limited the call")
	// ErrUnavailable: the tool answered 408 or 5xx, timed out, or could not be reached;
	// a later attempt may succeed.
	ErrUnavailable = errors.New("tool unavailable")
	// ErrBadResponse: a 2xx answer that is not JSON, or too large to read. The tool did
	// run, so retrying would repeat its effect for the same broken answer.
	ErrBadResponse = errors.New("tool answered an invalid response")
	// ErrOutcomeUnknown: a call of an API that honours no idempotency key (EffectUnsafe)
	// may have reached the tool, and no answer says what it did: it timed out after the
	// request was sent, the connection broke after it, or a gateway lost the tool's answer
	// (502, 504). Sent again it may do what it does twice (book twice), so it is not
	// retried: the caller finds out (the API's check) or asks.
	ErrOutcomeUnknown = errors.New("tool call outcome unknown")
	// ErrOutputStore: the output was too large for the history and could not be stored.
	// Storage failures are usually transient, so this one is retryable.
	ErrOutputStore = errors.New("cannot store tool output")
)

// Error is a failed call: which API, which kind of failure and what the tool said.
type Error struct {
	// Kind is one of the Err* sentinels of this package.
	Kind error
	// API is the name of the API called.
	API string
	// Param names the input at fault, for ErrInvalidInput; empty otherwise or when several are.
	Param string
	// Status is the HTTP status the tool answered, 0 when there was no answer.
	Status int
	// Body is the start of the answer's body (at most BodyExcerptBytes bytes).
	Body string
	// RetryAfter is how long the tool asked to wait: for ErrRateLimited always (its
	// Retry-After, else DefaultRetryAfter), for a 503 when it sent a Retry-After.
	RetryAfter time.Duration
	// Err is the underlying error, if any (a transport or decoding error).
	Err error
	// Detail says what went wrong, in words.
	Detail string
	// Sent says that the request left for the tool (written whole to the connection, or
	// sent to the MCP server): a failure after it leaves the tool's outcome unknown.
	Sent bool `json:"-"`
}

// BodyExcerptBytes is how much of an error answer's body an Error keeps: enough to read the
// tool's message, little enough for a workflow history.
const BodyExcerptBytes = 300

// Error gives the API, the kind, the detail and, for an answer, its status and body excerpt.
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "call %s: %v", e.API, e.Kind)
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	if e.Status != 0 {
		fmt.Fprintf(&b, ": HTTP %d %s", e.Status, http.StatusText(e.Status))
	}
	if e.Body != "" {
		fmt.Fprintf(&b, ": %s", e.Body)
	}
	if e.Err != nil {
		fmt.Fprintf(&b, ": %v", e.Err)
	}
	return b.String()
}

// Is reports whether target is the error's Kind, so errors.Is(err, ErrRejected) works.
func (e *Error) Is(target error) bool { return target == e.Kind }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Retryable reports whether another attempt of the same call may succeed.
func (e *Error) Retryable() bool {
	switch e.Kind {
	case ErrRateLimited, ErrUnavailable, ErrOutputStore:
		return true
	}
	return false
}

// unknownOutcome makes e an ErrOutcomeUnknown where api honours no idempotency key and e
// leaves open whether the tool did what it does: the request was sent and no answer came
// (ErrUnavailable after Sent), or a gateway answered 502 or 504 in the tool's place. A
// request that never left, and the tool's own 500, 503, 408 or 429, are taken at the tool's
// word: it did not do it.
func unknownOutcome(api toolspec.API, e *Error) *Error {
	if api.CallEffect() != toolspec.EffectUnsafe || !errors.Is(e, ErrUnavailable) {
		return e
	}
	gateway := e.Status == http.StatusBadGateway || e.Status == http.StatusGatewayTimeout
	if !gateway && !(e.Sent && e.Status == 0) && !(e.Sent && e.Status >= 200 && e.Status < 300) {
		return e
	}
	e.Kind = ErrOutcomeUnknown
	why := "no answer came after the request was sent"
	if gateway {
		why = "a gateway lost the tool's answer"
	}
	if e.Detail != "" {
		why = e.Detail + ", after the request was sent"
	}
	e.Detail = why + "; " + api.Name + " honours no idempotency key, so it may have taken effect and is not sent again"
	return e
}

// invalidInput is an ErrInvalidInput naming the API and, when there is one, the param.
func invalidInput(api, param, format string, args ...any) *Error {
	return &Error{Kind: ErrInvalidInput, API: api, Param: param, Detail: fmt.Sprintf(format, args...)}
}

func notCallable(api, format string, args ...any) *Error {
	return &Error{Kind: ErrNotCallable, API: api, Detail: fmt.Sprintf(format, args...)}
}

// DefaultRetryAfter is the wait of a 429 answer without a usable Retry-After header.
const DefaultRetryAfter = time.Second

// classify turns a non-2xx answer into an *Error. now is the time Retry-After dates are
// measured from.
func classify(api string, resp *http.Response, body []byte, now time.Time) *Error {
	e := &Error{API: api, Status: resp.StatusCode, Body: excerpt(body, BodyExcerptBytes)}
	switch code := resp.StatusCode; {
	case code == http.StatusTooManyRequests:
		e.Kind = ErrRateLimited
		d, ok := ParseRetryAfter(resp.Header.Get("Retry-After"), now)
		if !ok {
			d = DefaultRetryAfter
		}
		e.RetryAfter = d
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		e.Kind = ErrUnauthorized
	case code == http.StatusRequestTimeout || code >= 500:
		e.Kind = ErrUnavailable
		// A 503 may say when to come back; without it the retry policy decides.
		if d, ok := ParseRetryAfter(resp.Header.Get("Retry-After"), now); ok && code == http.StatusServiceUnavailable {
			e.RetryAfter = d
		}
	default:
		// 4xx, and the 1xx and 3xx the transport did not handle itself: retrying the same
		// request gets the same answer.
		e.Kind = ErrRejected
		e.Param = namedParam(body)
	}
	return e
}

// namedParam is the input a JSON error body names as the one at fault, by the keys APIs use
// for it: "parameter", "param" or "field" (Stripe's error.param, the tool world's parameter),
// at the top or in an "error" object, or the first of RFC 9457's "invalid-params". "" for
// none.
func namedParam(body []byte) string {
	var doc map[string]any
	if json.Unmarshal(body, &doc) != nil {
		return ""
	}
	for _, d := range []any{doc, doc["error"]} {
		m, _ := d.(map[string]any)
		for _, k := range []string{"parameter", "param", "field"} {
			if s, ok := m[k].(string); ok && s != "" {
				return s
			}
		}
	}
	for _, k := range []string{"invalid-params", "invalid_params"} {
		if ps, ok := doc[k].([]any); ok && len(ps) > 0 {
			if m, ok := ps[0].(map[string]any); ok {
				if s, ok := m["name"].(string); ok {
					return s
				}
			}
		}
	}
	return ""
}

// ParseRetryAfter reads a Retry-After header value: a number of seconds or an HTTP date,
// the wait being measured from now. ok is false when the value is empty or neither form;
// a date in the past gives 0.
func ParseRetryAfter(v string, now time.Time) (d time.Duration, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		// Cap before multiplying so that an absurd value cannot overflow into a negative wait.
		const maxSecs = int64((1<<63 - 1) / int64(time.Second))
		return time.Duration(min(secs, maxSecs)) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}

// excerpt returns at most n bytes of b as text, cut at a rune boundary so that the message
// stays valid UTF-8, with surrounding space removed.
func excerpt(b []byte, n int) string {
	if len(b) > n {
		b = b[:n]
		for len(b) > 0 && !utf8.Valid(b) {
			// Drop the bytes of a rune cut in half (at most 3).
			b = b[:len(b)-1]
			if len(b) < n-utf8.UTFMax {
				break
			}
		}
	}
	return strings.TrimSpace(strings.ToValidUTF8(string(b), "\uFFFD"))
}
