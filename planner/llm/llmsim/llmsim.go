// Package llmsim is a simulated LLM planner behind an OpenAI-compatible chat-completions
// endpoint, for the bench and for tests that need a model without one. It reads Navi's planner
// prompt (planner/llm) and decides as a careful planner would: retrieve when nothing is
// retrieved, call the best candidate whose plan has its inputs, ask for what it lacks, answer
// once the candidate has answered. Then, at a configurable rate, it errs the way weak models
// do: a tool name it made up, a wrong parameter, output that is not JSON, an answer before any
// call. The errors are seeded: the same seed and the same sequence of requests give the same
// errors.
package llmsim

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/naviagent/navi/planner"
)

// Error kinds, the values Stats counts by.
const (
	ErrMadeUpTool  = "made_up_tool"
	ErrWrongParam  = "wrong_param"
	ErrInvalidJSON = "invalid_json"
	ErrPremature   = "premature_answer"
)

// kinds are the error kinds in the order the seeded draw picks them.
var kinds = []string{ErrMadeUpTool, ErrWrongParam, ErrInvalidJSON, ErrPremature}

// Options configure a Server.
type Options struct {
	// ErrorRate is the share of answers that err, in [0, 1].
	ErrorRate float64 `json:"error_rate"`
	// Seed seeds the draw of which answers err and how.
	Seed uint64 `json:"seed"`
}

// Stats counts what a Server answered since its options were last set.
type Stats struct {
	Calls  int            `json:"calls"`
	Errors map[string]int `json:"errors"`
}

// Server is the simulated endpoint. It answers POST .../chat/completions under any prefix,
// and GET or POST /admin/options (the options; POST sets them and resets the stats and the
// draw) and GET /admin/stats. It is safe for concurrent use.
type Server struct {
	mu    sync.Mutex
	opts  Options
	rng   *rand.Rand
	stats Stats
}

// New returns a Server with opts.
func New(opts Options) (*Server, error) {
	s := &Server{}
	if err := s.SetOptions(opts); err != nil {
		return nil, err
	}
	return s, nil
}

// SetOptions replaces the options, and starts the stats and the seeded draw again.
func (s *Server) SetOptions(o Options) error {
	if !(o.ErrorRate >= 0 && o.ErrorRate <= 1) {
		return fmt.Errorf("llmsim: error rate %v: want a share in [0, 1]", o.ErrorRate)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.opts, s.rng, s.stats = o, rand.New(rand.NewPCG(o.Seed, 0x11a5)), Stats{Errors: map[string]int{}}
	return nil
}

// Stats returns what the server answered since its options were set.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := Stats{Calls: s.stats.Calls, Errors: map[string]int{}}
	for k, v := range s.stats.Errors {
		out.Errors[k] = v
	}
	return out
}

// draw counts a call and says how it errs ("" for not at all).
func (s *Server) draw() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats.Calls++
	if s.rng.Float64() >= s.opts.ErrorRate {
		return ""
	}
	k := kinds[s.rng.IntN(len(kinds))]
	s.stats.Errors[k]++
	return k
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/admin/options" && r.Method == http.MethodPost:
		var o Options
		if err := json.NewDecoder(r.Body).Decode(&o); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "options: invalid JSON: " + err.Error()})
			return
		}
		if err := s.SetOptions(o); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, o)
	case r.URL.Path == "/admin/options":
		s.mu.Lock()
		o := s.opts
		s.mu.Unlock()
		writeJSON(w, http.StatusOK, o)
	case r.URL.Path == "/admin/stats":
		writeJSON(w, http.StatusOK, s.Stats())
	case strings.HasSuffix(r.URL.Path, "/chat/completions") && r.Method == http.MethodPost:
		s.complete(w, r)
	default:
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "not found: " + r.Method + " " + r.URL.Path})
	}
}

// chatRequest is the part of a chat-completions request the simulation reads.
type chatRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
}

func (s *Server) complete(w http.ResponseWriter, r *http.Request) {
	var req chatRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]string{"message": "invalid request: " + err.Error()}})
		return
	}
	var system, user string
	for _, m := range req.Messages {
		switch {
		case m.Role == "system" && system == "":
			system = m.Content
		case m.Role == "user" && user == "":
			user = m.Content
		}
	}
	d := Decide(user)
	content := answer(d)
	switch s.draw() {
	case ErrMadeUpTool:
		content = answer(planner.Decision{Action: planner.CallAPI, TargetAPI: "made.Up" + strings.ReplaceAll(d.TargetAPI, ".", ""), Intent: d.Intent})
	case ErrWrongParam:
		if in := firstInput(user, d.TargetAPI); d.Action == planner.CallAPI && in != "" {
			d.Params = map[string]string{in: "n/a"}
		}
		content = answer(d)
	case ErrInvalidJSON:
		content = content[:len(content)/2]
	case ErrPremature:
		content = answer(planner.Decision{Action: planner.DirectAnswer, Answer: "It is probably fine; no tool is needed.", Intent: d.Intent})
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id": "llmsim", "object": "chat.completion", "created": time.Now().Unix(), "model": req.Model,
		"choices": []map[string]any{{"index": 0, "message": map[string]string{"role": "assistant", "content": content}, "finish_reason": "stop"}},
		"usage":   map[string]int{"prompt_tokens": (len(system) + len(user)) / 4, "completion_tokens": len(content) / 4, "total_tokens": (len(system) + len(user) + len(content)) / 4},
	})
}

// answer is the protocol's answer object holding d.
func answer(d planner.Decision) string {
	d.DependencyRank = 1
	b, _ := json.Marshal(map[string]any{"decisions": []planner.Decision{d}}) // strings and a map of strings: cannot fail
	return string(b)
}

// candidate is one candidate API as the prompt lists it.
type candidate struct {
	api, status, missing, firstInput string
}

var (
	candidateLine = regexp.MustCompile(`(?m)^\d+\. (\S+) \[status: (\w+), score: [-0-9.]+\]$`)
	inputsLine    = regexp.MustCompile(`(?m)^   inputs: ([A-Za-z0-9_.\[\]-]+) \(`)
	missingLine   = regexp.MustCompile(`(?m)^   plan missing inputs: (.+)$`)
	executedLine  = regexp.MustCompile(`(?m)^# Successfully Executed APIs: \[(.*)\]$`)
	queryBlock    = regexp.MustCompile(`(?s)# User Query:\n(.*?)\n(?:\n#|$)`)
)

// candidates reads the candidate APIs of a prompt's user message, in order.
func candidates(user string) []candidate {
	locs := candidateLine.FindAllStringSubmatchIndex(user, -1)
	out := make([]candidate, 0, len(locs))
	for i, l := range locs {
		end := len(user)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		block := user[l[1]:end]
		c := candidate{api: user[l[2]:l[3]], status: user[l[4]:l[5]], missing: "none"}
		if m := missingLine.FindStringSubmatch(block); m != nil {
			c.missing = strings.TrimSpace(m[1])
		}
		if m := inputsLine.FindStringSubmatch(block); m != nil {
			c.firstInput = m[1]
		}
		out = append(out, c)
	}
	return out
}

// Decide is the careful planner's decision for a planner prompt's first user message (the
// candidates and the state): retrieve for the query when nothing is retrieved; answer once the best active
// candidate has answered; ask for the inputs its plan lacks, once; else call it.
func Decide(user string) planner.Decision {
	query := ""
	if m := queryBlock.FindStringSubmatch(user); m != nil {
		query = strings.TrimSpace(m[1])
	}
	var executed []string
	if m := executedLine.FindStringSubmatch(user); m != nil && m[1] != "" {
		executed = strings.Split(m[1], ", ")
	}
	var best *candidate
	for _, c := range candidates(user) {
		if c.status == "active" || c.status == "unknown" {
			best = &c
			break
		}
	}
	switch {
	case best == nil:
		return planner.Decision{Action: planner.RetrieveAPI, RecallDescription: query, Intent: query}
	case contains(executed, best.api):
		return planner.Decision{Action: planner.DirectAnswer, Answer: best.api + " answered the question.", Intent: query}
	case best.missing != "none" && !strings.Contains(user, "# Clarifications"):
		return planner.Decision{Action: planner.ClarifyIntent, Answer: "What is " + best.missing + "?", Intent: query}
	}
	return planner.Decision{Action: planner.CallAPI, TargetAPI: best.api, Intent: query}
}

// firstInput is the first input the user message lists for the candidate api.
func firstInput(user, api string) string {
	for _, c := range candidates(user) {
		if c.api == api {
			return c.firstInput
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if strings.TrimSpace(v) == s {
			return true
		}
	}
	return false
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v) // the client went away: nothing to do
}
