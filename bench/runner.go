package bench

import (
	"context"
	"time"

	"github.com/naviagent/navi/toolworld"
	"github.com/naviagent/navi/workflows"
)

// Variant is a named configuration of the agent; the Runner interprets the settings.
type Variant struct {
	// Name identifies the variant in reports; it must be unique within a run.
	Name string `json:"name"`
	// Planner is the planner to force ("graph-first" or "llm"); empty for the worker's.
	Planner string `json:"planner,omitempty"`
	// Search is the graph search ("alphabeta" or "heuristic"); empty for the default.
	Search string `json:"search,omitempty"`
	// Feedback turns on learning from run outcomes (edge weight updates).
	Feedback bool `json:"feedback"`
	// Pruning turns on pruning of failing APIs.
	Pruning bool `json:"pruning"`
	// HGT turns on the HGT link predictor.
	HGT bool `json:"hgt"`
	// NoInertia makes the LLM planner decide every step, even those the learned graph is sure
	// of (planner.Inertial).
	NoInertia bool `json:"no_inertia,omitempty"`
}

// Runner runs one task under one variant, typically by starting a QueryWorkflow and waiting
// for its result. Run calls it from several goroutines at once.
//
// An error means the run could not be carried out or gave no result (the workflow could not
// start, it failed); Run records it in the outcome and scores the task as a failure. A run
// that ended without an answer (failed, budget_exhausted) is not an error: return its result.
type Runner interface {
	Run(ctx context.Context, v Variant, t toolworld.Task) (Outcome, error)
}

// Outcome is what a Runner reports for one task.
type Outcome struct {
	Result workflows.QueryResult
	// Wall is the run's wall time; Run measures the Runner's call when it is zero.
	Wall       time.Duration
	WorkflowID string
	// Err describes a failure to run; Run fills it from the Runner's error when empty.
	Err string
}

// RunnerFunc adapts a function to a Runner.
type RunnerFunc func(ctx context.Context, v Variant, t toolworld.Task) (Outcome, error)

// Run calls f.
func (f RunnerFunc) Run(ctx context.Context, v Variant, t toolworld.Task) (Outcome, error) {
	return f(ctx, v, t)
}
