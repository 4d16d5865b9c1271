package workflows_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/workflows"
)

// reservations is a tool that books a table and honours no idempotency key: POST
// /reservations?city= books (the first request takes slow to answer, so that a worker can be
// killed meanwhile, and books before it answers); GET /reservations?city= finds the booking,
// or answers 404.
type reservations struct {
	slow  time.Duration
	mu    sync.Mutex
	posts int
	made  map[string]string // city → reservation id
}

func (s *reservations) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	city := r.URL.Query().Get("city")
	s.mu.Lock()
	switch r.Method {
	case http.MethodPost:
		s.posts++
		first := s.posts == 1
		id := "rsv-" + strings.ToLower(city)
		s.made[city] = id
		s.mu.Unlock()
		if first {
			time.Sleep(s.slow)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"reservation_id": id})
		return
	case http.MethodGet:
		id, ok := s.made[city]
		s.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"reservation_id": id})
		return
	}
	s.mu.Unlock()
	w.WriteHeader(http.StatusMethodNotAllowed)
}

func (s *reservations) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.posts
}

// TestUnsafeCallCutOffByACrash kills the worker while a booking that honours no idempotency
// key is in flight, and starts another; or, with no crash, the booking outlives its own
// timeout (1 s for a tool that answers in 4): the booking is never sent twice. With a check
// API in the catalog the run finds the booking through it and answers with it; without one
// the run asks the user whether to send it again, and the answer "no" ends it without a
// second booking, nor another tool's. The histories replay (and are recorded with
// NAVI_RECORD_HISTORIES).
func TestUnsafeCallCutOffByACrash(t *testing.T) {
	store := stacktest.Store(t)
	c := stacktest.TemporalClient(t)
	bin := buildWorker(t)
	for _, tc := range []struct {
		name    string
		check   bool
		timeout bool // the call times out; no crash
	}{{"check", true, false}, {"ask", false, false}, {"timeout_check", true, true}, {"timeout_ask", false, true}} {
		t.Run(tc.name, func(t *testing.T) {
			tool := &reservations{slow: 4 * time.Second, made: map[string]string{}}
			srv := httptest.NewServer(tool)
			defer srv.Close()
			word := strings.ReplaceAll(stacktest.UniqueName("tablebook"), "-", "")
			book := twnm.API{Name: word + ".Reserve", Description: "Reserves a " + word + " table in a city's restaurant.",
				Endpoint: &twnm.Endpoint{Method: "POST", Path: "/reservations", BaseURL: srv.URL},
				Inputs:   []twnm.Param{{Name: "city", Type: "string", Required: true, In: twnm.InQuery}},
				Outputs:  []twnm.Param{{Name: "reservation_id", Type: "string"}}}
			if tc.timeout {
				book.Timeout = twnm.Duration(time.Second)
			}
			cat := twnm.Catalog{Name: word, APIs: []twnm.API{book}}
			if tc.check {
				cat.APIs[0].Check = word + ".FindReservation"
				cat.APIs = append(cat.APIs, twnm.API{Name: word + ".FindReservation", Description: "Finds the " + word + " reservation of a city.",
					Endpoint: &twnm.Endpoint{Method: "GET", Path: "/reservations", BaseURL: srv.URL},
					Inputs:   []twnm.Param{{Name: "city", Type: "string", Required: true, In: twnm.InQuery}},
					Outputs:  []twnm.Param{{Name: "reservation_id", Type: "string"}}})
			}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			_, err := store.LoadCatalog(ctx, cat)
			require.NoError(t, err)

			queue := stacktest.UniqueName("navi-e2e-unsafe-")
			first := startWorkerProcess(t, bin, queue)
			run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: stacktest.UniqueName("navi-e2e-unsafe-"), TaskQueue: queue},
				contract.Prefixed(contract.WorkflowQuery), workflows.QueryRequest{Query: "Please reserve a " + word + " table in Rome."})
			require.NoError(t, err)
			require.Eventually(t, func() bool { return tool.count() == 1 }, time.Minute, 50*time.Millisecond, "the booking is sent")
			if !tc.timeout {
				require.NoError(t, first.Process.Signal(syscall.SIGKILL))
				_ = first.Wait()
				startWorkerProcess(t, bin, queue)
			}

			if !tc.check {
				require.Eventually(t, func() bool {
					v, err := c.QueryWorkflow(ctx, run.GetID(), run.GetRunID(), workflows.StateQuery)
					var s workflows.QueryState
					return err == nil && v.Get(&s) == nil && strings.Contains(s.Question, "Should I send it again?")
				}, time.Minute, 200*time.Millisecond, "the run asks whether to send the booking again")
				h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: run.GetID(), RunID: run.GetRunID(),
					UpdateName: workflows.AnswerUpdate, Args: []any{workflows.ClarifyAnswer{Text: "no"}}, WaitForStage: client.WorkflowUpdateStageCompleted})
				require.NoError(t, err)
				require.NoError(t, h.Get(ctx, nil))
			}
			var res workflows.QueryResult
			if err := run.Get(ctx, &res); err != nil {
				qctx, qcancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer qcancel()
				if v, qerr := c.QueryWorkflow(qctx, run.GetID(), run.GetRunID(), workflows.StateQuery); qerr == nil {
					var s workflows.QueryState
					_ = v.Get(&s)
					for _, e := range s.Trace {
						t.Logf("trace: %s %v %s", e.Kind, e.OK, e.Summary)
					}
				}
				require.NoError(t, err)
			}
			assert.Equal(t, 1, tool.count(), "the booking was sent once")
			assert.Zero(t, res.Recombinations, "a crash is not the tool's failure")
			v, err := c.QueryWorkflow(ctx, run.GetID(), run.GetRunID(), workflows.StateQuery)
			require.NoError(t, err)
			var s workflows.QueryState
			require.NoError(t, v.Get(&s))
			var trace []string
			for _, e := range s.Trace {
				trace = append(trace, e.Summary)
			}
			when := "before its worker was lost"
			if tc.timeout {
				when = "though it gave no answer"
			}
			if tc.check {
				require.Equal(t, workflows.StatusAnswered, res.Status, res.Answer)
				assert.Equal(t, "rsv-rome", res.Results[word+".Reserve"]["reservation_id"], "the check's answer stands for the call's")
				assert.Contains(t, strings.Join(trace, "\n"), "took effect "+when+": "+word+".FindReservation found it")
			} else {
				assert.Equal(t, workflows.StatusDeclined, res.Status, "not knowing, the run books nothing in its place; the user declined")
				assert.Contains(t, res.Answer, "I did not send it again")
				assert.Contains(t, strings.Join(trace, "\n"), `the user answered "no" to sending it again`)
			}
			replayAndRecord(t, history(ctx, t, c, run.GetID(), run.GetRunID()), "query_v5_cutoff_"+tc.name)
		})
	}
}
