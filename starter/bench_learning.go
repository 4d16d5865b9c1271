package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"go.temporal.io/sdk/client"

	"github.com/naviagent/navi/bench"
	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/toolworld"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/workflows"
)

// The learning workload: two providers that describe themselves alike and serve the same
// chains, but differ in quality. The bad one is the one the catalog's structure favours, so a
// static graph keeps choosing it; only what the runs and the user's verdicts teach the graph
// can move a run off it. In the tool world only the geocoders are such providers: the other
// providers' ids feed only their own APIs.
const (
	phaseLearning = "learning"
	// learningPool is how many tasks are generated to draw the workload's from.
	learningPool = 2000
)

// geocoders are the two providers of coordinates.
var geocoders = []string{"geo.Geocode", "opengeo.Locate"}

// learningFaults are the workload's quality differences: geo.Geocode answers 60% of the
// cities with wrong coordinates (the same cities every time), opengeo.Locate is right but
// fails 30% of its calls (retried). Each has a line for the report.
func learningFaults(seed uint64) ([]toolworld.Fault, []string) {
	return []toolworld.Fault{
			{API: "geo.Geocode", Mode: toolworld.ModeWrong, ErrorRate: 0.6, Seed: seed},
			{API: "opengeo.Locate", Mode: toolworld.ModeFlaky, ErrorRate: 0.3, Seed: seed},
		}, []string{
			"geo.Geocode wrong for 60% of the cities",
			"opengeo.Locate fails 30% of its calls",
		}
}

// learningTasks draws n of the medium tasks (two calls) generated with seed, in the
// generator's order, whose chain geocodes for a step that takes latitude and longitude (see
// favoursFaulted). Medium tasks are those whose chain the planner's structure gets right
// (94% on the classic bench): what is left to learn is which provider to trust, not a chain
// it cannot build, whose failures would blame every provider it tried alike.
func learningTasks(n int, seed uint64) ([]toolworld.Task, error) {
	pool, err := bench.GenerateTasks(learningPool, seed, toolworld.DifficultyMedium)
	if err != nil {
		return nil, err
	}
	takers := latitudeTakers()
	var out []toolworld.Task
	for _, t := range pool {
		if len(out) < n && favoursFaulted(t.GoldChain, takers) {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("learning workload: no generated task geocodes for a step that takes latitude")
	}
	return out, nil
}

// favoursFaulted reports whether a chain geocodes and feeds the coordinates to a step that
// takes them as latitude and longitude: there the catalog's structure favours geo.Geocode, whose
// outputs are that very concept, over opengeo.Locate's lat and lon (joined by similarity), so
// a static graph takes the wrong geocoder where an equal one is at hand. takers are the APIs
// that take latitude (latitudeTakers).
func favoursFaulted(chain []string, takers map[string]bool) bool {
	for i, api := range chain[:max(0, len(chain)-1)] {
		if slices.Contains(geocoders, api) {
			return takers[chain[i+1]]
		}
	}
	return false
}

// latitudeTakers are the tool world's APIs that take an input named latitude.
func latitudeTakers() map[string]bool {
	out := map[string]bool{}
	for _, t := range toolworld.Classic() {
		if slices.ContainsFunc(t.API.Inputs, func(p twnm.Param) bool { return p.Name == "latitude" }) {
			out[t.API.Name] = true
		}
	}
	return out
}

// setLearningFaults sets the faults for the runs whose idempotency keys start with keys only:
// other users of the tool world see none. ModeNone clears them.
func setLearningFaults(ctx context.Context, world, keys string, faults []toolworld.Fault, mode string) error {
	for _, f := range faults {
		if mode == toolworld.ModeNone {
			f = toolworld.Fault{API: f.API, Mode: mode}
		}
		f.KeyPrefix = keys
		if err := toolworld.PostFault(ctx, world, f); err != nil {
			return err
		}
	}
	return nil
}

// runLearning runs the learning workload under the static graph and the dynamic ones (both
// searches, and the heuristic one with the HGT retrained after each batch), the simulated user
// rating every run of a variant with feedback from the gold answer (navi rate).
func (e *benchEnv) runLearning(ctx context.Context, s streams, dir string) error {
	faults, what := learningFaults(e.o.seed)
	tasks, err := learningTasks(e.o.learningN, e.o.seed)
	if err != nil {
		return err
	}
	var vs []bench.Variant
	for _, v := range []bench.Variant{variantStaticAlphaBeta, variantDynamicAlphaBeta, variantDynamicHeuristic, variantDynamicHGT} {
		v.Planner = e.o.planner
		vs = append(vs, v)
	}
	// The faults break the bench's own runs only: their keys start with navi/<the bench's prefix>.
	keys := "navi/" + e.prefix + "-"
	e.learning = &learningRun{note: strings.Join(what, "; ")}
	defer func() { e.learning = nil }()
	return e.run(ctx, s, "learning workload", dir, vs, bench.Options{Phases: []bench.Phase{
		{Name: phaseLearning, Tasks: tasks,
			Before: func(ctx context.Context) error { return setLearningFaults(ctx, e.o.world, keys, faults, "") },
			After: func(ctx context.Context) error {
				return setLearningFaults(ctx, e.o.world, keys, faults, toolworld.ModeNone)
			}},
	}})
}

// learningRun is the state of a learning workload in progress.
type learningRun struct {
	note string
}

// rateRun is the simulated user's verdict on a finished run (navi rate): good when the run
// answered the task's question right, by the gold answer.
func rateRun(ctx context.Context, tc client.Client, taskQueue, id string, good bool, chains []contract.FeedbackInput) error {
	if len(chains) == 0 {
		return nil // nothing ran: nothing to rate
	}
	run, err := tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id + "-rating", TaskQueue: taskQueue,
		StaticSummary: fmt.Sprintf("navi bench: the simulated user rates %s %s", id, verdictWord(good))},
		contract.Prefixed(contract.WorkflowRate), workflows.RateRequest{Workflow: id, Good: good, Note: "navi bench: the gold answer", Chains: chains})
	if err != nil {
		return fmt.Errorf("rate %s: %w", id, err)
	}
	if err := run.Get(ctx, nil); err != nil {
		return fmt.Errorf("rate %s: %w", id, err)
	}
	return nil
}

func verdictWord(good bool) string {
	if good {
		return "good"
	}
	return "bad"
}
