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
	"github.com/naviagent/navi/workflows"
)

// The learning workload: providers that describe themselves alike but differ in quality.
// Each fault is on a producer the catalog's structure favours over an alternative that
// serves the same chains, so a static graph keeps choosing it; only what the runs and the
// user's verdicts teach the graph can move a run off it.
const (
	phaseLearning = "learning"
	// learningPool is how many tasks are generated to draw the workload's from.
	learningPool = 2000
)

// learningFault is one quality difference of the workload; fromBatch > 1 sets it only from
// that batch on (a provider that drifts in the middle of the bench).
type learningFault struct {
	fault     toolworld.Fault
	fromBatch int
	what      string
}

// learningFaults are the workload's bad providers: a geocoder wrong for 60% of the cities, a
// restaurant search that fails 40% of calls, a slow hotel search, and a listings search that
// renames its ids from the middle of the bench (batch mid).
func learningFaults(seed uint64, mid int) []learningFault {
	return []learningFault{
		{fault: toolworld.Fault{API: "geo.Geocode", Mode: toolworld.ModeWrong, ErrorRate: 0.6, Seed: seed}, fromBatch: 1,
			what: "geo.Geocode wrong for 60% of the cities"},
		{fault: toolworld.Fault{API: "dine.SearchNearby", Mode: toolworld.ModeFlaky, ErrorRate: 0.4, Seed: seed}, fromBatch: 1,
			what: "dine.SearchNearby fails 40% of calls"},
		{fault: toolworld.Fault{API: "stay.SearchHotels", Mode: toolworld.ModeSlow, LatencyMS: 300}, fromBatch: 1,
			what: "stay.SearchHotels 300 ms slower"},
		{fault: toolworld.Fault{API: "homes.Listings", Mode: toolworld.ModeDrift, Field: "listing_id"}, fromBatch: mid,
			what: fmt.Sprintf("homes.Listings renames listing_id from batch %d", mid)},
	}
}

// learningAlternatives are the providers that serve the same chains as the faulted ones.
var learningAlternatives = []string{"opengeo.Locate", "eatly.FindPlaces", "lodgr.FindHotels", "nestfind.Search"}

// learningTasks draws n tasks whose gold chain goes through a faulted provider or its
// alternative before its last step (as a producer: the step graph search chooses, while
// retrieval chooses the last one by the words of the request), from tasks generated with
// seed, in the generator's order.
func learningTasks(n int, seed uint64, faults []learningFault) ([]toolworld.Task, error) {
	pool, err := bench.GenerateTasks(learningPool, seed, "all")
	if err != nil {
		return nil, err
	}
	affected := slices.Clone(learningAlternatives)
	for _, f := range faults {
		affected = append(affected, f.fault.API)
	}
	var out []toolworld.Task
	for _, t := range pool {
		producers := t.GoldChain[:max(0, len(t.GoldChain)-1)]
		if len(out) < n && slices.ContainsFunc(producers, func(api string) bool { return slices.Contains(affected, api) }) {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("learning workload: no generated task goes through %s", strings.Join(affected, ", "))
	}
	return out, nil
}

// setLearningFaults sets the faults due at batch (1 before the first task), for the runs
// whose idempotency keys start with keys only: other users of the tool world see no fault.
func setLearningFaults(ctx context.Context, world, keys string, faults []learningFault, batch int) error {
	for _, f := range faults {
		if f.fromBatch == batch {
			fault := f.fault
			fault.KeyPrefix = keys
			if err := toolworld.PostFault(ctx, world, fault); err != nil {
				return err
			}
		}
	}
	return nil
}

// clearLearningFaults clears the workload's faults, set or not.
func clearLearningFaults(ctx context.Context, world string, faults []learningFault) error {
	for _, f := range faults {
		if err := toolworld.PostFault(ctx, world, toolworld.Fault{API: f.fault.API, Mode: toolworld.ModeNone}); err != nil {
			return err
		}
	}
	return nil
}

// runLearning runs the learning workload under the static and the dynamic graph, the
// simulated user rating every run of the dynamic one from the gold answer (navi rate).
func (e *benchEnv) runLearning(ctx context.Context, s streams, dir string) error {
	batches := max(1, e.o.batches)
	faults := learningFaults(e.o.seed, (batches+1)/2+1)
	tasks, err := learningTasks(e.o.learningN, e.o.seed, faults)
	if err != nil {
		return err
	}
	var vs []bench.Variant
	for _, v := range []bench.Variant{variantStaticAlphaBeta, variantDynamicAlphaBeta} {
		v.Planner = e.o.planner
		vs = append(vs, v)
	}
	var what []string
	for _, f := range faults {
		what = append(what, f.what)
	}
	// The faults break the bench's own runs only: their keys start with navi/<the bench's prefix>.
	keys := "navi/" + e.prefix + "-"
	e.learning = &learningRun{faults: faults, keys: keys, note: strings.Join(what, "; ")}
	defer func() { e.learning = nil }()
	return e.run(ctx, s, "learning workload", dir, vs, bench.Options{Phases: []bench.Phase{
		{Name: phaseLearning, Tasks: tasks,
			Before: func(ctx context.Context) error { return setLearningFaults(ctx, e.o.world, keys, faults, 1) },
			After:  func(ctx context.Context) error { return clearLearningFaults(ctx, e.o.world, faults) }},
	}})
}

// learningRun is the state of a learning workload in progress.
type learningRun struct {
	faults []learningFault
	keys   string // the prefix of the idempotency keys the faults break
	note   string
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
