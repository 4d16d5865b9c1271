package workflows_test

import (
	"context"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"golang.org/x/sync/errgroup"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/planner/llm"
	"github.com/naviagent/navi/planner/llm/llmtest"
	"github.com/naviagent/navi/toolworld"
	"github.com/naviagent/navi/workflows"
)

// Benchmarks of the agent on the real test stack (Temporal server, Neo4j with the tool world's
// catalog, the tool world's HTTP tools), with an in-process worker on a task queue of its own.
// Like the integration tests they fail, not skip, without the stack. Run them with
// `make bench-agent`, or by hand against a running test stack:
//
//	go test -run '^$' -bench 'PlannerStepOverhead|ConcurrentQueries' -benchtime 20x ./workflows/

// timedStore counts the time retrieval spends in its read transaction of Neo4j (full-text
// and vector search of the sub-goals, which the transaction embeds, and the subgraph).
type timedStore struct {
	*neo4j.Store
	nanos atomic.Int64
}

func (s *timedStore) ReadTx(ctx context.Context, what string, fn func(neo4j.Reads) error) error {
	defer s.since(time.Now())
	return s.Store.ReadTx(ctx, what, fn)
}

func (s *timedStore) since(start time.Time) { s.nanos.Add(int64(time.Since(start))) }

func (s *timedStore) total() time.Duration { return time.Duration(s.nanos.Load()) }

// BenchmarkPlannerStepOverhead measures what one planner step costs beyond the LLM and the
// tools: Temporal's workflow and activity tasks, the history, the activities' own work, and
// retrieval from Neo4j. Each run answers the easy elevation query in three steps (retrieve,
// call geo.Elevation, answer), one run at a time:
//
//   - llm: the real go-openai client (llm.New) against a scripted endpoint that answers at
//     once (llmtest, no delay);
//   - graph-first: the graph-first planner, no LLM.
//
// ms/step is (wall time from start to result − time in the LLM endpoint − time in the tool
// calls) / planner steps. ms/run is the wall time; llm-ms/run the endpoint's time, measured in
// the server from reading a request to writing its answer (llmtest.Server.Busy), so the
// client's side of each call (prompt, HTTP, parsing) counts as overhead; tool-ms/run the tool
// calls' own durations (toolcall.Result.Duration, read from the run's history);
// retrieve-ms/run the Neo4j reads of retrieval, which are part of the overhead. On the test
// stack most of a step is the Temporal dev server persisting each transition.
//
// The reference, in the same run on the same server: activity-round-trip runs a workflow of
// three no-op activities one after another; ms/activity is its wall time over three, the
// start and result amortised alike. Each planner reports x-activity, its ms/step over that.
func BenchmarkPlannerStepOverhead(b *testing.B) {
	srv := llmtest.New(b, elevationScript)
	p, err := llm.New(llm.Config{BaseURL: srv.URL + "/v1", Model: "scripted"})
	require.NoError(b, err)
	store := &timedStore{Store: stacktest.Store(b)}
	a := startAgent(b, agentOptions{Graph: store, LLM: p})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	perActivity := activityRoundTrip(ctx, b, a.c)

	for _, plannerName := range []string{activities.PlannerLLM, activities.PlannerGraphFirst} {
		req := workflows.QueryRequest{Query: elevationQuery, Planner: plannerName}
		a.ask(ctx, b, req) // warm up: connections, caches, the worker's pollers
		b.Run(plannerName, func(b *testing.B) {
			var wall, inLLM, inTools, inRetrieve time.Duration
			var runs, steps int
			for b.Loop() {
				llm0, retrieve0 := srv.Busy(), store.total()
				start := time.Now()
				run, res := a.ask(ctx, b, req)
				wall += time.Since(start)
				inLLM += srv.Busy() - llm0
				inRetrieve += store.total() - retrieve0
				if res.Status != workflows.StatusAnswered || res.Steps != 3 {
					b.Fatalf("run %s: %s after %d steps: %s", run.GetID(), res.Status, res.Steps, res.Answer)
				}
				runs, steps = runs+1, steps+res.Steps
				b.StopTimer()
				inTools += toolTime(ctx, b, a.c, run)
				b.StartTimer()
			}
			n := float64(runs)
			perStep := ms(wall-inLLM-inTools) / float64(steps)
			b.ReportMetric(perStep, "ms/step")
			if perActivity > 0 {
				b.ReportMetric(perStep/perActivity, "x-activity")
			}
			b.ReportMetric(ms(wall)/n, "ms/run")
			b.ReportMetric(ms(inLLM)/n, "llm-ms/run")
			b.ReportMetric(ms(inTools)/n, "tool-ms/run")
			b.ReportMetric(ms(inRetrieve)/n, "retrieve-ms/run")
		})
	}
}

// roundTrips is the reference workflow of BenchmarkPlannerStepOverhead: n no-op activities,
// one after another.
func roundTrips(ctx workflow.Context, n int) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	for range n {
		if err := workflow.ExecuteActivity(ctx, noop).Get(ctx, nil); err != nil {
			return err
		}
	}
	return nil
}

func noop(context.Context) error { return nil }

// activityRoundTrip runs the activity-round-trip sub-benchmark on a worker of its own and
// returns its ms/activity (0 when the sub-benchmark did not run, filtered out by -bench).
func activityRoundTrip(ctx context.Context, b *testing.B, c client.Client) float64 {
	const n = 3
	queue := stacktest.UniqueName("navi-roundtrip-")
	w := worker.New(c, queue, worker.Options{})
	w.RegisterWorkflow(roundTrips)
	w.RegisterActivity(noop)
	require.NoError(b, w.Start())
	defer w.Stop()
	do := func(b *testing.B) {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: stacktest.UniqueName("navi-roundtrip-"), TaskQueue: queue}, roundTrips, n)
		require.NoError(b, err)
		require.NoError(b, run.Get(ctx, nil))
	}
	do(b) // warm up
	var perActivity float64
	b.Run("activity-round-trip", func(b *testing.B) {
		var wall time.Duration
		var runs int
		for b.Loop() {
			start := time.Now()
			do(b)
			wall += time.Since(start)
			runs++
		}
		perActivity = ms(wall) / float64(runs*n)
		b.ReportMetric(perActivity, "ms/activity")
	})
	return perActivity
}

// toolTime sums the durations of a run's successful tool calls, from its history.
func toolTime(ctx context.Context, b *testing.B, c client.Client, run client.WorkflowRun) time.Duration {
	b.Helper()
	calls := map[int64]bool{} // event IDs of the scheduled CallTool activities
	var total time.Duration
	for _, e := range history(ctx, b, c, run.GetID(), run.GetRunID()).GetEvents() {
		switch e.GetEventType() {
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
			if e.GetActivityTaskScheduledEventAttributes().GetActivityType().GetName() == contract.Prefixed(contract.ActivityCallTool) {
				calls[e.GetEventId()] = true
			}
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
			attrs := e.GetActivityTaskCompletedEventAttributes()
			if !calls[attrs.GetScheduledEventId()] {
				continue
			}
			var res activities.CallToolResult
			require.NoError(b, converter.GetDefaultDataConverter().FromPayloads(attrs.GetResult(), &res))
			total += res.Duration
		}
	}
	require.NotZero(b, len(calls), "the run called no tool")
	return total
}

// BenchmarkConcurrentQueries measures end-to-end throughput on this machine: b.N tool-world
// queries (a fixed mix of easy, medium and hard tasks, seed 1) answered by the graph-first
// planner, with 1, 8 or 32 of them in flight at a time. It reports queries/s (b.N over the
// wall time), the p50 and p95 latency of one query (start to result), and the fraction of
// queries answered (a run that asks the user a question gives up after a second, unanswered).
// The Temporal server, Neo4j and the tool world share the machine with the
// worker, so the figures are the whole stack's. make bench-agent runs concurrency 32 with
// 300 queries: the steady state, after warmUpQueries.
// The one-tool case runs easy tasks (one call each) one at a time: the latency of the shortest
// useful run.
func BenchmarkConcurrentQueries(b *testing.B) {
	tasks, err := toolworld.GenerateTasks(toolworld.TaskOptions{Seed: 1, N: 30, Difficulty: toolworld.DifficultyAll})
	require.NoError(b, err)
	easy, err := toolworld.GenerateTasks(toolworld.TaskOptions{Seed: 1, N: 30, Difficulty: toolworld.DifficultyEasy})
	require.NoError(b, err)
	a := startAgent(b, agentOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	ask := func(tasks []toolworld.Task, i int) (time.Duration, bool, error) {
		start := time.Now()
		query := tasks[i%len(tasks)].Query
		run, err := a.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: stacktest.UniqueName("navi-bench-"), TaskQueue: a.taskQueue,
			WorkflowTaskTimeout: contract.WorkflowTaskTimeout},
			contract.Prefixed(contract.WorkflowQuery), workflows.QueryRequest{Query: query, Planner: activities.PlannerGraphFirst, ClarifyDeadline: time.Second})
		var res workflows.QueryResult
		if err == nil {
			err = run.Get(ctx, &res)
		}
		if err == nil && res.Status != workflows.StatusAnswered {
			b.Logf("query %d (%q), run %s: %s: %s", i, query, run.GetID(), res.Status, res.Answer)
		}
		return time.Since(start), res.Status == workflows.StatusAnswered, err
	}
	// Warm up at full load: Neo4j's JIT, the server's caches and the worker's pools reach
	// their steady state, so that the figures below are that state's, not a start's.
	var warm errgroup.Group
	warm.SetLimit(32)
	for i := range warmUpQueries {
		warm.Go(func() error { _, _, err := ask(tasks, i); return err })
	}
	if err := warm.Wait(); err != nil {
		b.Fatal(err)
	}

	for _, c := range []struct {
		name        string
		tasks       []toolworld.Task
		concurrency int
	}{{"concurrency=1", tasks, 1}, {"concurrency=8", tasks, 8}, {"concurrency=32", tasks, 32}, {"one-tool", easy, 1}} {
		tasks, concurrency := c.tasks, c.concurrency
		b.Run(c.name, func(b *testing.B) {
			latencies := make([]time.Duration, b.N)
			answered := make([]bool, b.N)
			errs := make([]error, b.N)
			next := atomic.Int64{}
			var wg sync.WaitGroup
			b.ResetTimer()
			start := time.Now()
			for range min(concurrency, b.N) {
				wg.Go(func() {
					for i := int(next.Add(1) - 1); i < b.N; i = int(next.Add(1) - 1) {
						latencies[i], answered[i], errs[i] = ask(tasks, i)
					}
				})
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.StopTimer()
			ok := 0
			for i, err := range errs {
				if err != nil {
					b.Fatalf("query %d (%q): %v", i, tasks[i%len(tasks)].Query, err)
				}
				if answered[i] {
					ok++
				}
			}
			slices.Sort(latencies)
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "queries/s")
			b.ReportMetric(ms(percentile(latencies, 0.50)), "p50-ms")
			b.ReportMetric(ms(percentile(latencies, 0.95)), "p95-ms")
			b.ReportMetric(float64(ok)/float64(b.N), "answered")
		})
	}
}

// warmUpQueries is how many queries BenchmarkConcurrentQueries runs, 32 at a time, before it
// measures.
const warmUpQueries = 96

// percentile is the nearest-rank percentile p of sorted durations.
func percentile(sorted []time.Duration, p float64) time.Duration {
	i := int(math.Ceil(float64(len(sorted))*p)) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// threeParts asks three independent questions of one point, each answered by one call
// (geo.Elevation, airq.Pollen, geo.Timezone).
const threeParts = "What is the ground elevation at latitude 48.8566, longitude 2.3522? Also, how high are pollen levels at latitude 48.8566, longitude 2.3522? And what time zone applies at latitude 48.8566, longitude 2.3522?"

// BenchmarkThreeBranches runs a compound request of three independent parts on the real stack,
// each of its tools slowed by 300 ms in the tool world: the parts' calls at once (the default)
// and one after another (QueryRequest.MaxParallel 1). at-once/in-turn is the first's mean wall
// time over the second's, from the same run.
func BenchmarkThreeBranches(b *testing.B) {
	a := startAgent(b, agentOptions{})
	const prefix = "navi-bench-branches-"
	for _, api := range []string{"geo.Elevation", "airq.Pollen", "geo.Timezone"} {
		stacktest.InjectFault(b, toolworld.Fault{API: api, Mode: toolworld.ModeSlow, LatencyMS: 300, KeyPrefix: "navi/" + prefix})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	ask := func(b *testing.B, maxParallel int) time.Duration {
		start := time.Now()
		run := a.start(ctx, b, stacktest.UniqueName(prefix), workflows.QueryRequest{Query: threeParts, MaxParallel: maxParallel})
		var res workflows.QueryResult
		require.NoError(b, run.Get(ctx, &res))
		wall := time.Since(start)
		if res.Status != workflows.StatusAnswered || res.ToolCalls != 3 {
			b.Fatalf("run %s: %s after %d calls (%v): %s", run.GetID(), res.Status, res.ToolCalls, res.Chain, res.Answer)
		}
		return wall
	}
	ask(b, 0)                // warm up: connections, caches, the worker's pollers
	var atOnce time.Duration // the mean wall time of a run with its calls at once
	for _, mode := range []struct {
		name string
		max  int
	}{{"at-once", 0}, {"in-turn", 1}} {
		b.Run(mode.name, func(b *testing.B) {
			var wall time.Duration
			runs := 0
			for b.Loop() {
				wall += ask(b, mode.max)
				runs++
			}
			mean := wall / time.Duration(runs)
			b.ReportMetric(ms(mean), "ms/run")
			if mode.max == 0 {
				atOnce = mean
			} else if atOnce > 0 {
				b.ReportMetric(float64(atOnce)/float64(mean), "at-once/in-turn")
			}
		})
	}
}
