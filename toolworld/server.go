package toolworld

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/naviagent/navi/twnm"
)

// Fault modes, the values of Fault.Mode.
const (
	ModeNone        = "none"         // no fault; setting it clears the API's fault
	ModeDown        = "down"         // 503 Service Unavailable
	ModeSlow        = "slow"         // answers after LatencyMS more milliseconds
	ModeFlaky       = "flaky"        // a fraction ErrorRate of calls answer 500
	ModeRateLimited = "rate_limited" // 429 Too Many Requests with Retry-After
	ModeDrift       = "drift"        // one output field is renamed with the suffix "_v2"
	ModeDeprecated  = "deprecated"   // 410 Gone
	// ModeWrong answers 200 with wrong figures for a share ErrorRate of the inputs (some
	// regions, cities, ids: decided by the call's inputs and Seed, so that the same input is
	// always wrong): every number of the answer is off. Nothing in the answer says so; only
	// someone who knows the right answer can tell.
	ModeWrong = "wrong"
)

// Defaults of the fault parameters left at zero.
const (
	defaultLatencyMS   = 500
	defaultErrorRate   = 0.5
	defaultRetryAfterS = 1
)

// DefaultIdempotencyKeys is how many idempotency keys a Server remembers when
// Options.IdempotencyKeys is zero.
const DefaultIdempotencyKeys = 10_000

// Headers of idempotent requests: the key a client sends, and the mark of a replayed answer.
const (
	HeaderIdempotencyKey     = "Idempotency-Key"
	HeaderIdempotentReplayed = "Idempotent-Replayed"
)

// Fault is a fault injected into one API.
type Fault struct {
	API  string `json:"api"`
	Mode string `json:"mode"`
	// LatencyMS is the delay a slow API adds (500 when zero).
	LatencyMS int `json:"latency_ms,omitempty"`
	// ErrorRate is the fraction of calls a flaky API fails, in [0, 1] (0.5 when zero).
	ErrorRate float64 `json:"error_rate,omitempty"`
	// RetryAfterS is the Retry-After a rate-limited API answers, in seconds (1 when zero).
	RetryAfterS int `json:"retry_after_s,omitempty"`
	// Seed seeds the sequence that decides which calls of a flaky API fail: the same seed
	// gives the same sequence of failures from the time the fault is set.
	Seed uint64 `json:"seed,omitempty"`
	// Field is the output a drifting API renames (its first output when empty).
	Field string `json:"field,omitempty"`
	// KeyPrefix, when set, limits the fault to requests whose Idempotency-Key starts with it.
	// Navi's keys start with "navi/<workflow ID>/", so a fault can break a tool for one run
	// while other runs on the same server call it normally.
	KeyPrefix string `json:"key_prefix,omitempty"`
}

// Options configure a Server.
type Options struct {
	// Faults are injected at start; each must name a known API and mode.
	Faults []Fault
	// BaseURL is the base_url of the endpoints in /catalog.json and the server of
	// /openapi.json; when empty, it is http:// and the Host of the request.
	BaseURL string
	// Logger receives one debug line per request; nil discards them.
	Logger *slog.Logger
	// IdempotencyKeys is how many idempotency keys with a stored answer the server
	// remembers (DefaultIdempotencyKeys when zero or less); beyond it the oldest is forgotten.
	IdempotencyKeys int
}

// Server is the tool world over HTTP. It is safe for concurrent use.
type Server struct {
	tools   []Tool
	byName  map[string]Tool
	mux     *http.ServeMux
	log     *slog.Logger
	baseURL string

	mu     sync.Mutex
	faults map[string]*faultState
	calls  map[string]int
	// dedup counts, per API, the requests answered from a stored idempotent answer.
	dedup map[string]int
	// idem holds the idempotency keys in flight and those with a stored answer; idemOrder
	// is a ring of the latter, oldest at idemNext once full, which bounds the map.
	idem      map[idemKey]*idemEntry
	idemOrder []idemKey
	idemNext  int
	idemCap   int
	// keyed is a ring of the last keyedCap requests that carried an idempotency key, executed
	// or deduplicated, so that a test can count the calls of one workflow (CallsByKey).
	keyed     []keyedRequest
	keyedNext int
}

// keyedCap bounds the log of keyed requests.
const keyedCap = 100_000

// keyedRequest is one request that carried an idempotency key.
type keyedRequest struct {
	api, key     string
	deduplicated bool
}

// idemKey scopes an idempotency key to one API: the same key sent to two APIs is two keys.
type idemKey struct{ api, key string }

// idemEntry is an idempotency key in flight until done is closed, then, when resp is set,
// the stored answer of its one execution.
type idemEntry struct {
	done chan struct{}
	resp *response
}

// faultState is a fault with the random sequence of a flaky one.
type faultState struct {
	Fault
	rng *rand.Rand
}

// New builds a Server of the whole registry. A fault of opts.Faults that names an unknown API
// or mode is logged at error level and skipped; use SetFault to get the error instead.
func New(opts Options) *Server {
	s := &Server{
		tools:   Registry(),
		mux:     http.NewServeMux(),
		log:     opts.Logger,
		baseURL: strings.TrimSuffix(opts.BaseURL, "/"),
		faults:  make(map[string]*faultState),
		calls:   make(map[string]int),
		dedup:   make(map[string]int),
		idem:    make(map[idemKey]*idemEntry),
		idemCap: opts.IdempotencyKeys,
	}
	if s.idemCap <= 0 {
		s.idemCap = DefaultIdempotencyKeys
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.byName = make(map[string]Tool, len(s.tools))
	for _, t := range s.tools {
		s.byName[t.API.Name] = t
		s.mux.Handle(t.API.Endpoint.Method+" "+t.API.Endpoint.Path, s.apiHandler(t))
	}
	s.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"status": "ok", "apis": len(s.tools)})
	})
	s.mux.HandleFunc("GET /catalog.json", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, Catalog(s.base(r)))
	})
	s.mux.HandleFunc("GET /openapi.json", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, OpenAPI(s.base(r)))
	})
	s.mux.HandleFunc("GET /admin/faults", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"faults": s.Faults()})
	})
	s.mux.HandleFunc("POST /admin/faults", s.postFault)
	s.mux.HandleFunc("GET /admin/stats", func(w http.ResponseWriter, r *http.Request) {
		if prefix := r.URL.Query().Get("key_prefix"); prefix != "" {
			calls, dedup := s.CallsByKey(prefix)
			writeJSON(w, http.StatusOK, map[string]any{"calls": calls, "deduplicated": dedup})
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"calls": s.Stats(), "deduplicated": s.Deduplicated()})
	})
	for _, f := range opts.Faults {
		if err := s.SetFault(f); err != nil {
			s.log.Error("toolworld: fault skipped", "err", err)
		}
	}
	return s
}

// ServeHTTP routes a request and logs it at debug level.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	s.mux.ServeHTTP(rec, r)
	s.log.Debug("toolworld request", "method", r.Method, "path", r.URL.Path, "status", rec.status, "duration", time.Since(start))
}

// Tools returns the APIs the server answers.
func (s *Server) Tools() []Tool { return append([]Tool(nil), s.tools...) }

// SetFault injects a fault into an API, replacing its fault; mode "none" clears it.
func (s *Server) SetFault(f Fault) error {
	t, ok := s.byName[f.API]
	if !ok {
		return fmt.Errorf("set fault: unknown api %q", f.API)
	}
	switch f.Mode {
	case ModeNone, ModeDown, ModeSlow, ModeFlaky, ModeRateLimited, ModeDrift, ModeDeprecated, ModeWrong:
	default:
		return fmt.Errorf("set fault on %s: unknown mode %q, want none, down, slow, flaky, rate_limited, drift, deprecated or wrong", f.API, f.Mode)
	}
	switch {
	case f.LatencyMS < 0:
		return fmt.Errorf("set fault on %s: latency_ms is %d, want 0 or more", f.API, f.LatencyMS)
	case f.ErrorRate < 0 || f.ErrorRate > 1:
		return fmt.Errorf("set fault on %s: error_rate is %g, want a fraction in [0, 1]", f.API, f.ErrorRate)
	case f.RetryAfterS < 0:
		return fmt.Errorf("set fault on %s: retry_after_s is %d, want 0 or more", f.API, f.RetryAfterS)
	}
	if f.Mode == ModeDrift {
		if f.Field == "" && len(t.API.Outputs) > 0 {
			f.Field = t.API.Outputs[0].Name
		}
		if !hasParam(t.API.Outputs, f.Field) {
			return fmt.Errorf("set fault on %s: drift field %q is not an output", f.API, f.Field)
		}
	}
	if f.Mode == ModeSlow && f.LatencyMS == 0 {
		f.LatencyMS = defaultLatencyMS
	}
	if (f.Mode == ModeFlaky || f.Mode == ModeWrong) && f.ErrorRate == 0 {
		f.ErrorRate = defaultErrorRate
	}
	if f.Mode == ModeRateLimited && f.RetryAfterS == 0 {
		f.RetryAfterS = defaultRetryAfterS
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if f.Mode == ModeNone {
		delete(s.faults, f.API)
		return nil
	}
	s.faults[f.API] = &faultState{Fault: f, rng: rand.New(rand.NewPCG(seedBytes(f.Seed)))}
	return nil
}

// Faults returns the faults in force, sorted by API name.
func (s *Server) Faults() []Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Fault, 0, len(s.faults))
	for _, f := range s.faults {
		out = append(out, f.Fault)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].API < out[j].API })
	return out
}

// Calls returns how many requests reached an API's endpoint, faulted and invalid ones
// included; requests answered from a stored idempotent answer are not calls (see Deduplicated).
func (s *Server) Calls(api string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[api]
}

// Stats returns the call count of every API called at least once.
func (s *Server) Stats() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int, len(s.calls))
	for k, v := range s.calls {
		out[k] = v
	}
	return out
}

// logKeyed records a keyed request; s.mu is held.
func (s *Server) logKeyed(r keyedRequest) {
	if len(s.keyed) < keyedCap {
		s.keyed = append(s.keyed, r)
		return
	}
	s.keyed[s.keyedNext] = r
	s.keyedNext = (s.keyedNext + 1) % keyedCap
}

// CallsByKey counts, per API, the requests among the last 100,000 keyed ones whose
// idempotency key starts with prefix: those that executed the API (calls) and those answered
// from a stored answer (deduplicated). Navi's keys start with the workflow ID, so this gives
// the calls of one run however many runs share the server.
func (s *Server) CallsByKey(prefix string) (calls, deduplicated map[string]int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	calls, deduplicated = map[string]int{}, map[string]int{}
	for _, r := range s.keyed {
		if !strings.HasPrefix(r.key, prefix) {
			continue
		}
		if r.deduplicated {
			deduplicated[r.api]++
		} else {
			calls[r.api]++
		}
	}
	return calls, deduplicated
}

// Deduplicated returns, for every API that had any, how many requests carried an
// Idempotency-Key already answered and got the stored answer instead of a call.
func (s *Server) Deduplicated() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int, len(s.dedup))
	for k, v := range s.dedup {
		out[k] = v
	}
	return out
}

func (s *Server) base(r *http.Request) string {
	if s.baseURL != "" {
		return s.baseURL
	}
	return "http://" + r.Host
}

func (s *Server) postFault(w http.ResponseWriter, r *http.Request) {
	dec := json.NewDecoder(io.LimitReader(r.Body, 1<<16))
	dec.DisallowUnknownFields()
	var f Fault
	if err := dec.Decode(&f); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": fmt.Sprintf("fault: invalid JSON: %v", err)})
		return
	}
	if err := s.SetFault(f); err != nil {
		status := http.StatusBadRequest
		if _, ok := s.byName[f.API]; !ok {
			status = http.StatusNotFound
		}
		writeJSON(w, status, map[string]any{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"faults": s.Faults()})
}

// verdict is what the fault of an API decides for one call.
type verdict struct {
	status     int
	retryAfter int
	delay      time.Duration
	drift      string
	reason     string
	// wrong is the share of inputs answered with wrong figures (ModeWrong), and seed the
	// fault's seed that picks them.
	wrong float64
	seed  uint64
}

// decide counts the call and applies the API's fault, under the lock.
func (s *Server) decide(api, key string) verdict {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls[api]++
	f, ok := s.faults[api]
	if !ok || !strings.HasPrefix(key, f.KeyPrefix) {
		return verdict{}
	}
	switch f.Mode {
	case ModeDown:
		return verdict{status: http.StatusServiceUnavailable, reason: "service unavailable"}
	case ModeDeprecated:
		return verdict{status: http.StatusGone, reason: "api deprecated and removed"}
	case ModeRateLimited:
		return verdict{status: http.StatusTooManyRequests, retryAfter: f.RetryAfterS, reason: "rate limit exceeded"}
	case ModeFlaky:
		if f.rng.Float64() < f.ErrorRate {
			return verdict{status: http.StatusInternalServerError, reason: "internal error (flaky)"}
		}
	case ModeSlow:
		return verdict{delay: time.Duration(f.LatencyMS) * time.Millisecond}
	case ModeDrift:
		return verdict{drift: f.Field}
	case ModeWrong:
		return verdict{wrong: f.ErrorRate, seed: f.Seed}
	}
	return verdict{}
}

func (s *Server) apiHandler(t Tool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if key := r.Header.Get(HeaderIdempotencyKey); key != "" {
			s.serveIdempotent(w, r, t, key)
			return
		}
		if resp, ok := s.execute(t, r); ok {
			resp.write(w)
		}
	})
}

// serveIdempotent answers a request that carries an idempotency key. The first request with
// the key executes the API; one that comes while it runs waits for it; one that comes after
// gets its stored answer, marked with Idempotent-Replayed, and is counted as deduplicated,
// not as a call, so that the API runs once per key however often a client retries.
//
// Only an answer of the API itself (2xx) is stored. A fault (503, 500, 429, 410) or an
// invalid input is not: the API did not run, and a client retrying with the same key after
// such an answer must reach it again. The same holds when the first request's client goes
// away: a waiting request then executes in its place.
func (s *Server) serveIdempotent(w http.ResponseWriter, r *http.Request, t Tool, key string) {
	k := idemKey{api: t.API.Name, key: key}
	for {
		s.mu.Lock()
		e, seen := s.idem[k]
		if !seen {
			e = &idemEntry{done: make(chan struct{})}
			s.idem[k] = e
			s.logKeyed(keyedRequest{api: k.api, key: key})
			s.mu.Unlock()
			s.executeOnce(w, r, t, k, e)
			return
		}
		if e.resp != nil {
			s.dedup[k.api]++
			s.logKeyed(keyedRequest{api: k.api, key: key, deduplicated: true})
			resp := e.resp
			s.mu.Unlock()
			w.Header().Set(HeaderIdempotentReplayed, "true")
			resp.write(w)
			return
		}
		s.mu.Unlock()
		select {
		case <-e.done: // look again: stored, or forgotten and free to execute
		case <-r.Context().Done():
			return // the client is gone
		}
	}
}

// executeOnce executes the API for the entry k, which this request put in flight, then stores
// or forgets the answer and releases the requests waiting on it.
func (s *Server) executeOnce(w http.ResponseWriter, r *http.Request, t Tool, k idemKey, e *idemEntry) {
	finished := false
	defer func() {
		if !finished {
			s.finish(k, e, nil) // a panicking handler must not leave waiters blocked
		}
	}()
	resp, ok := s.execute(t, r)
	var stored *response
	if ok && resp.status >= 200 && resp.status < 300 {
		stored = &resp
	}
	s.finish(k, e, stored)
	finished = true
	if ok {
		resp.write(w)
	}
}

// finish stores resp under k, evicting the oldest stored key when the ring is full, or
// forgets k when resp is nil; then it wakes the requests waiting on e.
func (s *Server) finish(k idemKey, e *idemEntry, resp *response) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer close(e.done)
	if resp == nil {
		delete(s.idem, k)
		return
	}
	e.resp = resp
	// Each stored key is in the ring once and stays in the map until evicted from it, so the
	// slot being overwritten names a stored entry, never one in flight.
	if len(s.idemOrder) < s.idemCap {
		s.idemOrder = append(s.idemOrder, k)
		return
	}
	delete(s.idem, s.idemOrder[s.idemNext])
	s.idemOrder[s.idemNext] = k
	s.idemNext = (s.idemNext + 1) % s.idemCap
}

// response is an answer of an API, kept whole so that it can be replayed.
type response struct {
	status     int
	retryAfter int
	body       []byte
}

func jsonResponse(status int, v any) response {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return response{status: http.StatusInternalServerError, body: []byte(`{"error": "encode response"}` + "\n")}
	}
	return response{status: status, body: buf.Bytes()}
}

func (resp response) write(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	if resp.retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(resp.retryAfter))
	}
	w.WriteHeader(resp.status)
	_, _ = w.Write(resp.body) // the client may be gone; nothing else to do
}

// execute counts the call, applies the API's fault and runs the handler. ok is false when the
// client went away while a slow fault held the answer: there is nothing to write.
func (s *Server) execute(t Tool, r *http.Request) (resp response, ok bool) {
	name := t.API.Name
	v := s.decide(name, r.Header.Get(HeaderIdempotencyKey))
	if v.status != 0 {
		resp := jsonResponse(v.status, map[string]any{"error": v.reason, "api": name})
		resp.retryAfter = v.retryAfter
		return resp, true
	}
	if v.delay > 0 {
		timer := time.NewTimer(v.delay)
		select {
		case <-timer.C:
		case <-r.Context().Done():
			timer.Stop()
			return response{}, false
		}
	}
	inputs, err := readInputs(t.API, r)
	if err != nil {
		return errorResponse(name, err), true
	}
	out, err := t.Handle(inputs)
	if err != nil {
		return errorResponse(name, err), true
	}
	if v.wrong > 0 && wrongFor(inputs, v.seed) < v.wrong {
		for k, val := range out {
			out[k] = wrongValue(val)
		}
	}
	if v.drift != "" {
		if val, ok := out[v.drift]; ok {
			delete(out, v.drift)
			out[v.drift+"_v2"] = val
		}
	}
	return jsonResponse(http.StatusOK, out), true
}

// wrongFor maps a call's inputs to [0, 1) with seed: a ModeWrong API answers wrongly when it
// falls under the fault's share, the same way for the same inputs on every call.
func wrongFor(inputs map[string]string, seed uint64) float64 {
	keys := make([]string, 0, len(inputs))
	for k := range inputs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	h := fnv.New64a()
	fmt.Fprintf(h, "%d", seed)
	for _, k := range keys {
		fmt.Fprintf(h, "\x00%s=%s", k, strings.ToLower(strings.TrimSpace(inputs[k])))
	}
	return float64(h.Sum64()>>11) / (1 << 53)
}

// wrongValue is a plausible but wrong figure for v: numbers are off by a few units, anything
// else is left as it is.
func wrongValue(v any) any {
	switch x := v.(type) {
	case float64:
		return math.Round((x+3.7)*1e4) / 1e4
	case int:
		return x + 3
	case int64:
		return x + 3
	}
	return v
}

// readInputs gathers an API's inputs from the path, the query and the JSON body.
func readInputs(a twnm.API, r *http.Request) (map[string]string, error) {
	in := make(map[string]string, len(a.Inputs))
	var bodyVals map[string]json.RawMessage
	for _, p := range a.Inputs {
		switch p.In {
		case twnm.InPath:
			in[p.Name] = r.PathValue(p.Name)
		case twnm.InQuery:
			if q := r.URL.Query(); q.Has(p.Name) {
				in[p.Name] = q.Get(p.Name)
			}
		case twnm.InBody:
			if bodyVals == nil {
				bodyVals = map[string]json.RawMessage{}
				data, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
				if err != nil {
					return nil, fmt.Errorf("read body: %w", err)
				}
				if len(strings.TrimSpace(string(data))) > 0 {
					if err := json.Unmarshal(data, &bodyVals); err != nil {
						return nil, &InputError{Param: "body", Reason: fmt.Sprintf("want a JSON object: %v", err)}
					}
				}
			}
			if raw, ok := bodyVals[p.Name]; ok {
				var str string
				if json.Unmarshal(raw, &str) == nil {
					in[p.Name] = str
				} else if string(raw) != "null" {
					in[p.Name] = string(raw) // a number or boolean, in its JSON form
				}
			}
		}
	}
	return in, nil
}

func errorResponse(api string, err error) response {
	var ie *InputError
	if errors.As(err, &ie) {
		return jsonResponse(http.StatusBadRequest, map[string]any{"error": ie.Error(), "parameter": ie.Param, "api": api})
	}
	return jsonResponse(http.StatusInternalServerError, map[string]any{"error": err.Error(), "api": api})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	jsonResponse(status, v).write(w)
}

func hasParam(ps []twnm.Param, name string) bool {
	for _, p := range ps {
		if p.Name == name {
			return true
		}
	}
	return false
}

// statusRecorder remembers the status a handler wrote, for the request log.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}
