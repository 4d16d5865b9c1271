package bench

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/toolworld"
	"github.com/naviagent/navi/workflows"
)

// fakeTasks are two tasks of each difficulty with linear gold chains, so that the metrics
// of the fake runner's variants can be computed by hand (see fakeOutcome).
func fakeTasks() []toolworld.Task {
	mk := func(id, diff string, chain ...string) toolworld.Task {
		t := toolworld.Task{ID: id, Query: "query " + id, Difficulty: diff, GoldChain: chain,
			Expected: map[string]any{"answer": id, "value": 42}}
		for i := 1; i < len(chain); i++ {
			t.GoldFlow = append(t.GoldFlow,
				toolworld.Flow{FromAPI: chain[i-1], Output: "x", ToAPI: chain[i], Input: "x"},
				toolworld.Flow{FromAPI: chain[i-1], Output: "y", ToAPI: chain[i], Input: "y"})
		}
		return t
	}
	return []toolworld.Task{
		mk("e1", "easy", "A"),
		mk("m1", "medium", "A", "B"),
		mk("h1", "hard", "A", "B", "C"),
		mk("e2", "easy", "D"),
		mk("m2", "medium", "D", "E"),
		mk("h2", "hard", "D", "E", "F"),
	}
}

// fakeOutcome is the deterministic outcome of a task under a variant. With n = the gold
// chain's length, every run takes n+1 steps and LLM calls, 100 prompt and 10 completion
// tokens per LLM call, and n×100ms of wall time.
//
//   - "gold" calls the gold chain and answers right.
//   - "weak" solves easy tasks; on medium ones it calls only the last API and answers wrong
//     (n tool calls: 1); on hard ones it calls the first API, recombines once and fails.
//   - "broken" (or any variant when the runner is broken) fails at once: no call, status
//     failed.
func fakeOutcome(v Variant, t toolworld.Task, broken bool) Outcome {
	n := len(t.GoldChain)
	r := workflows.QueryResult{
		Status: workflows.StatusAnswered,
		Steps:  n + 1,
		Usage:  planner.Usage{LLMCalls: n + 1, PromptTokens: 100 * (n + 1), CompletionTokens: 10 * (n + 1)},
	}
	solve := func() {
		r.Chain = t.GoldChain
		r.ToolCalls = n
		r.Results = map[string]map[string]any{t.GoldChain[n-1]: asJSON(t.Expected)}
	}
	switch {
	case broken || v.Name == "broken":
		r = workflows.QueryResult{Status: workflows.StatusFailed, Steps: 1, Usage: planner.Usage{LLMCalls: 1}}
	case v.Name == "gold" || t.Difficulty == toolworld.DifficultyEasy:
		solve()
	case t.Difficulty == toolworld.DifficultyMedium:
		last := t.GoldChain[n-1]
		r.Chain, r.ToolCalls = []string{last}, 1
		r.Results = map[string]map[string]any{last: {"answer": "wrong", "value": 42.0}}
	default:
		r.Status, r.Chain, r.ToolCalls, r.Recombinations = workflows.StatusFailed, t.GoldChain[:1], 1, 1
	}
	return Outcome{Result: r, Wall: time.Duration(n) * 100 * time.Millisecond, WorkflowID: "wf-" + v.Name + "-" + t.ID}
}

// asJSON returns a copy of m with its ints as float64, as results decoded from Temporal's
// JSON hold them.
func asJSON(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if i, ok := v.(int); ok {
			v = float64(i)
		}
		out[k] = v
	}
	return out
}

// fakeRunner runs tasks with fakeOutcome, after an optional delay, and records what it saw.
type fakeRunner struct {
	// delay, when set, is how long a task takes: to make runs finish out of order.
	delay func(v Variant, t toolworld.Task) time.Duration
	// hook, when set, runs first; a non-nil error is returned as the run's error.
	hook func(ctx context.Context, v Variant, t toolworld.Task) error
	// broken, when set, says whether the stack is broken (faults injected) right now.
	broken func() bool

	mu          sync.Mutex
	inflight    int
	maxInflight int
	started     []string // variant/task, in start order
}

func (f *fakeRunner) Run(ctx context.Context, v Variant, t toolworld.Task) (Outcome, error) {
	f.mu.Lock()
	f.inflight++
	f.maxInflight = max(f.maxInflight, f.inflight)
	f.started = append(f.started, v.Name+"/"+t.ID)
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.inflight--
		f.mu.Unlock()
	}()
	if f.hook != nil {
		if err := f.hook(ctx, v, t); err != nil {
			return Outcome{}, err
		}
	}
	if f.delay != nil {
		select {
		case <-time.After(f.delay(v, t)):
		case <-ctx.Done():
			return Outcome{}, fmt.Errorf("fake run %s: %w", t.ID, ctx.Err())
		}
	}
	return fakeOutcome(v, t, f.broken != nil && f.broken()), nil
}

func (f *fakeRunner) startedRuns() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.started...)
}

// events is a concurrency-safe log of hook calls and runs.
type events struct {
	mu  sync.Mutex
	log []string
}

func (e *events) add(format string, args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.log = append(e.log, fmt.Sprintf(format, args...))
}

func (e *events) all() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.log...)
}
