// Package toolcall performs one HTTP call of a catalog API (toolspec.API): it builds the request
// from the catalog's endpoint and typed inputs, classifies the answer into typed errors that
// say whether a retry can help, keeps a running call alive with heartbeats, and keeps large
// outputs out of the result so that they never reach a workflow history.
//
// It knows nothing of Temporal; the activities package maps its errors to Temporal ones.
package toolcall

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/naviagent/navi/toolspec"
)

// Defaults of the Client fields left at zero.
const (
	DefaultMaxOutputBytes    = 16 << 10
	DefaultMaxResponseBytes  = 32 << 20
	DefaultHeartbeatInterval = time.Second
	DefaultUserAgent         = "navi-toolcall/1"
	// MaxSummaryRunes bounds each string of a truncated output.
	MaxSummaryRunes = 256
)

// Client calls catalog APIs over HTTP. The zero value is usable: http.DefaultClient, the
// default limits, and no output store (a large output is then truncated without a Ref).
// A Client is safe for concurrent use if its HTTP client and output store are.
type Client struct {
	// HTTP sends the requests; nil means http.DefaultClient. Its Timeout, if any, bounds
	// every call; the API's catalog timeout bounds each call of that API.
	HTTP *http.Client
	// UserAgent is sent with every request (DefaultUserAgent when empty).
	UserAgent string
	// MaxOutputBytes is the largest output, JSON-encoded, that a Result carries in full
	// (DefaultMaxOutputBytes when zero). It keeps workflow histories small: Temporal stores
	// every activity result, and rejects payloads over a few MiB.
	MaxOutputBytes int
	// Outputs stores the full body of an output over MaxOutputBytes; nil keeps only the
	// summary.
	Outputs OutputStore
	// Secrets resolves the secrets of APIs with an Auth; nil refuses to call them.
	Secrets SecretSource
	// MCP calls the APIs an MCP server serves (toolspec.API.MCP); nil refuses to call them.
	MCP MCPCaller
	// HeartbeatInterval is the time between two CallOptions.Heartbeat calls while a request
	// is in flight (DefaultHeartbeatInterval when zero). Keep it well under the activity's
	// heartbeat timeout.
	HeartbeatInterval time.Duration
	// MaxResponseBytes bounds the body read from the tool (DefaultMaxResponseBytes when
	// zero); a 2xx body over it is an ErrBadResponse.
	MaxResponseBytes int64
}

// CallOptions are the per-call settings of Call.
type CallOptions struct {
	// IdempotencyKey, when set, is sent as the Idempotency-Key header so that a tool which
	// supports it answers a repeated request without repeating its effect.
	IdempotencyKey string
	// Heartbeat, when set, is called every HeartbeatInterval while the request is in flight,
	// with a Progress, from another goroutine; Call does not return before the last call
	// ends.
	Heartbeat func(details any)
	// OutputKey is the key a large output is stored under; empty means IdempotencyKey, and
	// when that is empty too, the API name and the start time.
	OutputKey string
}

// Progress is what Call passes to CallOptions.Heartbeat.
type Progress struct {
	API     string        `json:"api"`
	Elapsed time.Duration `json:"elapsed"`
}

// Result is a successful call: toolspec.Result, the plain type the workflows' contract carries.
type Result = toolspec.Result

// Call calls api once with args (input name to value, in their text form). The request is
// built from api.Endpoint and api.Inputs: see the package tests for the exact shape. An
// api.Timeout bounds the call.
//
// A failed call returns an *Error whose Kind says whether retrying can help (see the Err*
// sentinels and Error.Retryable), except when ctx itself ends: then the error wraps
// ctx.Err(), so that a cancelled caller sees its cancellation.
func (c *Client) Call(ctx context.Context, api toolspec.API, args map[string]string, opts CallOptions) (Result, error) {
	if c == nil {
		c = &Client{}
	}
	start := time.Now()
	callCtx := ctx
	if api.Timeout > 0 {
		var cancel context.CancelFunc
		callCtx, cancel = context.WithTimeout(ctx, time.Duration(api.Timeout))
		defer cancel()
	}
	if api.MCP != nil {
		return c.callMCP(ctx, callCtx, api, args, opts, start)
	}
	req, err := buildRequest(callCtx, api, args)
	if err != nil {
		return Result{}, err
	}
	// The secret goes on the request and nowhere else: every error below is redacted.
	secret, err := c.authorize(req, api)
	if err != nil {
		return Result{}, err
	}
	req.Header.Set("User-Agent", cmp.Or(c.UserAgent, DefaultUserAgent))
	// An API that honours no key gets none: net/http resends a request that carries one,
	// once, when a reused connection breaks after the request was written.
	if opts.IdempotencyKey != "" && api.CallEffect() != toolspec.EffectUnsafe {
		req.Header.Set("Idempotency-Key", opts.IdempotencyKey)
	}

	stop := startHeartbeat(cmp.Or(c.HeartbeatInterval, DefaultHeartbeatInterval), opts.Heartbeat, api.Name, start)
	// Whether the request was written whole decides, for an API that honours no key,
	// whether a failure after it may have done what the call does (see unknownOutcome).
	var sent atomic.Bool
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
		WroteRequest: func(w httptrace.WroteRequestInfo) {
			if w.Err == nil {
				sent.Store(true)
			}
		},
	}))
	resp, body, err := c.send(req)
	stop()
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, fmt.Errorf("call %s: %w", api.Name, ctx.Err())
		}
		e := &Error{Kind: ErrUnavailable, API: api.Name, Err: err, Sent: sent.Load()}
		if errors.Is(err, context.DeadlineExceeded) && callCtx.Err() != nil {
			e.Detail = fmt.Sprintf("no answer within the API's timeout of %s", time.Duration(api.Timeout))
		}
		if resp != nil {
			e.Status = resp.StatusCode
		}
		return Result{}, unknownOutcome(api, e).redact(secret)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return Result{}, unknownOutcome(api, classify(api.Name, resp, body, time.Now())).redact(secret)
	}
	if int64(len(body)) > cmp.Or(c.MaxResponseBytes, DefaultMaxResponseBytes) {
		return Result{}, &Error{Kind: ErrBadResponse, API: api.Name, Status: resp.StatusCode,
			Detail: fmt.Sprintf("body over %d bytes", cmp.Or(c.MaxResponseBytes, DefaultMaxResponseBytes))}
	}
	output, err := decodeOutput(body)
	if err != nil {
		return Result{}, (&Error{Kind: ErrBadResponse, API: api.Name, Status: resp.StatusCode,
			Detail: "body is not JSON", Body: excerpt(body, BodyExcerptBytes), Err: err}).redact(secret)
	}
	if secret != "" {
		// A tool may echo its key (in any JSON escaping): redact the decoded strings, and
		// keep their encoding as the body the output store may get.
		redactValue(output, secret)
		if b, err := json.Marshal(output); err == nil {
			body = b
		}
	}
	return c.keep(ctx, api, opts, start, Result{API: api.Name, Status: resp.StatusCode, Output: output}, body)
}

// keep finishes a call's result: nested outputs exposed by their names, and an output too
// large for the history stored whole (body, or its JSON when body is nil) with a summary
// kept in its place.
func (c *Client) keep(ctx context.Context, api toolspec.API, opts CallOptions, start time.Time, res Result, body []byte) (Result, error) {
	output := res.Output
	res.Suspect = Suspect(api, output)
	if res.Suspect == "" {
		res.Observed = toolspec.Observe(api, output)
	}
	exposeNested(output, api.Outputs)
	encoded, err := json.Marshal(output)
	if body == nil {
		if err != nil {
			return Result{}, &Error{Kind: ErrBadResponse, API: api.Name, Detail: "output is not JSON", Err: err}
		}
		body = encoded // the answer as it came: no body but its JSON
	}
	res.Bytes = len(body)

	limit := cmp.Or(c.MaxOutputBytes, DefaultMaxOutputBytes)
	if err != nil || len(encoded) > limit {
		// Too large for a history (an unencodable output cannot go there either): store the
		// body whole, and keep the scalar fields, which are what later calls chain on.
		if c.Outputs != nil {
			key := cmp.Or(opts.OutputKey, opts.IdempotencyKey)
			if key == "" {
				key = api.Name + "-" + strconv.FormatInt(start.UnixNano(), 10)
			}
			ref, err := c.Outputs.Put(ctx, key, body)
			if err != nil {
				return Result{}, &Error{Kind: ErrOutputStore, API: api.Name, Status: res.Status,
					Detail: fmt.Sprintf("output of %d bytes, over the %d-byte limit", len(encoded), limit), Err: err}
			}
			res.Ref = ref
		}
		res.Output = summarize(output, limit)
		res.Truncated = true
	}
	res.Duration = time.Since(start)
	return res, nil
}

// send does the request and reads the body, which is then closed. A body over the response
// limit is read up to one byte past it, which is enough to tell.
func (c *Client) send(req *http.Request) (*http.Response, []byte, error) {
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, cmp.Or(c.MaxResponseBytes, DefaultMaxResponseBytes)+1))
	if err != nil {
		// The connection broke mid-answer: as unreachable as no answer at all.
		return resp, nil, fmt.Errorf("read body: %w", err)
	}
	return resp, body, nil
}

// startHeartbeat calls fn every interval until the returned stop is called; stop waits for a
// running fn to return, so that no heartbeat outlives the call.
func startHeartbeat(interval time.Duration, fn func(any), api string, start time.Time) (stop func()) {
	if fn == nil {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				fn(Progress{API: api, Elapsed: now.Sub(start)})
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
	}
}

// decodeOutput reads a JSON body into an object, wrapping any other value as {"result": v}.
// Numbers stay json.Number, so large integers (ids) keep every digit. An empty body (204 No
// Content) is the empty object.
func decodeOutput(body []byte) (map[string]any, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON value")
	}
	if m, ok := v.(map[string]any); ok {
		return m, nil
	}
	return map[string]any{toolspec.ResultKey: v}, nil
}

// exposeNested sets, for each declared output with a path (toolspec.Param.Path) whose name the
// answer has no top-level field for, the value the path finds: later calls bind inputs from
// outputs by name, and a list's first item (the first search result's id) is what they take.
func exposeNested(output map[string]any, outputs []toolspec.Param) {
	for _, p := range outputs {
		if p.Path == "" {
			continue
		}
		if _, ok := output[p.Name]; ok {
			continue
		}
		if v, ok := toolspec.Lookup(output, p.Path); ok {
			output[p.Name] = v
		}
	}
}

// summarize keeps the top-level scalar fields of output, strings cut to MaxSummaryRunes
// runes, in name order while their encoding stays within limit bytes.
func summarize(output map[string]any, limit int) map[string]any {
	keys := make([]string, 0, len(output))
	for k := range output {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := map[string]any{}
	size := len("{}")
	for _, k := range keys {
		v := output[k]
		switch x := v.(type) {
		case string:
			if utf8.RuneCountInString(x) > MaxSummaryRunes {
				v = string([]rune(x)[:MaxSummaryRunes])
			}
		case json.Number, float64, bool, nil:
		default:
			continue // an object or array: the reason the output is large
		}
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(v)
		if err != nil {
			continue
		}
		entry := len(kb) + 1 + len(vb) + 1 // "key":value,
		if size+entry > limit {
			continue
		}
		size += entry
		out[k] = v
	}
	return out
}
