package bench

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/toolworld"
)

var (
	gold = Variant{Name: "gold", Planner: "graph-first", Search: "alphabeta", Feedback: true, Pruning: true, HGT: true}
	weak = Variant{Name: "weak", Planner: "llm", Search: "heuristic"}
)

// reverseDelay makes later tasks finish first: task i of n sleeps (n-i) milliseconds.
func reverseDelay(tasks []toolworld.Task) func(Variant, toolworld.Task) time.Duration {
	pos := map[string]int{}
	for i, t := range tasks {
		pos[t.ID] = i
	}
	return func(_ Variant, t toolworld.Task) time.Duration {
		return time.Duration(len(tasks)-pos[t.ID]) * 3 * time.Millisecond
	}
}

func TestRunOrdersOutcomesAndComputesMetrics(t *testing.T) {
	tasks := fakeTasks()
	runner := &fakeRunner{delay: reverseDelay(tasks)}
	r, err := Run(context.Background(), Options{
		Variants: []Variant{gold, weak}, Tasks: tasks, Concurrency: 6, Seed: 7, Command: []string{"navi", "bench"},
	}, runner)
	require.NoError(t, err)

	assert.False(t, r.Partial)
	assert.Equal(t, uint64(7), r.Seed)
	assert.Equal(t, []string{"navi", "bench"}, r.Command)
	assert.Equal(t, []Variant{gold, weak}, r.Variants)
	assert.Equal(t, 6, r.Concurrency)
	require.Len(t, r.Outcomes, 12)
	for i, o := range r.Outcomes {
		wantVariant := []string{"gold", "weak"}[i/6]
		assert.Equal(t, wantVariant, o.Variant, "outcome %d", i)
		assert.Equal(t, i%6, o.Index, "outcome %d", i)
		assert.Equal(t, tasks[i%6].ID, o.TaskID, "outcome %d", i)
		assert.Equal(t, "wf-"+wantVariant+"-"+tasks[i%6].ID, o.WorkflowID)
		assert.Empty(t, o.Phase)
		assert.Zero(t, o.Batch)
	}

	require.Len(t, r.Metrics, 2)
	cases := []struct {
		name string
		got  Metrics
		want Metrics
	}{
		// gold: steps 2,3,4 twice → 3; LLM calls the same; tokens 110 per call → 330; tool
		// calls 1,2,3 twice → 2; walls 100,100,200,200,300,300 ms → p50 200, p95 300.
		{"gold all", r.Metrics[0].All(), Metrics{Tasks: 6, Runs: 6, Completed: 6, Succeeded: 6, LinkTasks: 4,
			TCR: 1, TSR: 1, Steps: 3, LLMCalls: 3, Tokens: 330, ToolCalls: 2, WallP50MS: 200, WallP95MS: 300, NodeF1: 1, LinkF1: 1}},
		{"gold hard", r.Metrics[0].ByDifficulty("hard"), Metrics{Tasks: 2, Runs: 2, Completed: 2, Succeeded: 2, LinkTasks: 2,
			TCR: 1, TSR: 1, Steps: 4, LLMCalls: 4, Tokens: 440, ToolCalls: 3, WallP50MS: 300, WallP95MS: 300, NodeF1: 1, LinkF1: 1}},
		// weak: easy solved, medium answered wrong, hard failed. TCR 4/6, TSR 2/6, Steps 2
		// (the easy ones), tool calls 1, recombinations 2/6; node-F1 (1+1+2/3+2/3+1/2+1/2)/6
		// = 13/18; link-F1 0 over the 4 tasks with links.
		{"weak all", r.Metrics[1].All(), Metrics{Tasks: 6, Runs: 6, Completed: 4, Succeeded: 2, LinkTasks: 4,
			TCR: 4.0 / 6, TSR: 2.0 / 6, Steps: 2, LLMCalls: 3, Tokens: 330, ToolCalls: 1, Recombinations: 2.0 / 6,
			WallP50MS: 200, WallP95MS: 300, NodeF1: 13.0 / 18, LinkF1: 0}},
		{"weak medium", r.Metrics[1].ByDifficulty("medium"), Metrics{Tasks: 2, Runs: 2, Completed: 2, Succeeded: 0, LinkTasks: 2,
			TCR: 1, TSR: 0, Steps: 0, LLMCalls: 3, Tokens: 330, ToolCalls: 1, WallP50MS: 200, WallP95MS: 200, NodeF1: 2.0 / 3, LinkF1: 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assertMetrics(t, c.want, c.got)
		})
	}
}

// assertMetrics compares the counts exactly and the means within 1e-9; the prompt and
// completion token means are not compared (Tokens covers them).
func assertMetrics(t *testing.T, want, got Metrics) {
	t.Helper()
	assert.Equal(t, [5]int{want.Tasks, want.Runs, want.Completed, want.Succeeded, want.LinkTasks},
		[5]int{got.Tasks, got.Runs, got.Completed, got.Succeeded, got.LinkTasks}, "tasks, runs, completed, succeeded, link tasks")
	for _, f := range []struct {
		name      string
		want, got float64
	}{
		{"TCR", want.TCR, got.TCR}, {"TSR", want.TSR, got.TSR}, {"Steps", want.Steps, got.Steps},
		{"LLMCalls", want.LLMCalls, got.LLMCalls}, {"Tokens", want.Tokens, got.Tokens},
		{"ToolCalls", want.ToolCalls, got.ToolCalls}, {"Recombinations", want.Recombinations, got.Recombinations},
		{"WallP50MS", want.WallP50MS, got.WallP50MS}, {"WallP95MS", want.WallP95MS, got.WallP95MS},
		{"NodeF1", want.NodeF1, got.NodeF1}, {"LinkF1", want.LinkF1, got.LinkF1},
	} {
		assert.InDelta(t, f.want, f.got, 1e-9, f.name)
	}
}

func TestRunBoundsConcurrency(t *testing.T) {
	tasks, err := GenerateTasks(24, 1, "")
	require.NoError(t, err)
	cases := []struct {
		name        string
		concurrency int
		want        int
	}{
		{"default is one at a time", 0, 1},
		{"three at a time", 3, 3},
		{"more slots than tasks", 100, 24},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			runner := &fakeRunner{delay: func(Variant, toolworld.Task) time.Duration { return 5 * time.Millisecond }}
			r, err := Run(context.Background(), Options{Variants: []Variant{gold}, Tasks: tasks, Concurrency: c.concurrency}, runner)
			require.NoError(t, err)
			assert.Len(t, r.Outcomes, 24)
			assert.Equal(t, c.want, runner.maxInflight)
		})
	}
}

func TestRunRunsVariantsOneAfterTheOther(t *testing.T) {
	tasks := fakeTasks()
	runner := &fakeRunner{delay: reverseDelay(tasks)}
	var ev events
	_, err := Run(context.Background(), Options{
		Variants: []Variant{gold, weak}, Tasks: tasks, Concurrency: 4,
		BeforeVariant: func(_ context.Context, v Variant) error {
			ev.add("variant %s after %d runs", v.Name, len(runner.startedRuns()))
			return nil
		},
	}, runner)
	require.NoError(t, err)
	assert.Equal(t, []string{"variant gold after 0 runs", "variant weak after 6 runs"}, ev.all())
	started := runner.startedRuns()
	for i, s := range started {
		assert.Equal(t, []string{"gold", "weak"}[i/6], s[:4], "run %d is %s", i, s)
	}
}

func TestRunRecordsRunnerErrors(t *testing.T) {
	tasks := fakeTasks()
	runner := &fakeRunner{hook: func(_ context.Context, _ Variant, task toolworld.Task) error {
		if task.ID == "m1" {
			return errors.New("workflow m1 failed: boom")
		}
		return nil
	}}
	r, err := Run(context.Background(), Options{Variants: []Variant{gold}, Tasks: tasks, Concurrency: 2}, runner)
	require.NoError(t, err)
	require.Len(t, r.Outcomes, 6)
	failed := r.Outcomes[1]
	assert.Equal(t, "m1", failed.TaskID)
	assert.Equal(t, "workflow m1 failed: boom", failed.Err)
	assert.False(t, failed.Completed)
	assert.False(t, failed.Success)
	assert.Positive(t, failed.WallMS, "Run measures the wall time the runner did not report")

	all := r.Metrics[0].All()
	assert.Equal(t, 6, all.Tasks)
	assert.Equal(t, 5, all.Runs)
	assert.InDelta(t, 5.0/6, all.TSR, 1e-12)
	// Usage is over the 5 runs with a result: tool calls (1+3+1+2+3)/5 = 2.
	assert.InDelta(t, 2.0, all.ToolCalls, 1e-12)
}

func TestRunCancellation(t *testing.T) {
	tasks := fakeTasks()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var afterCtxErr atomic.Value
	runner := &fakeRunner{hook: func(rctx context.Context, _ Variant, task toolworld.Task) error {
		switch task.ID {
		case "e1", "m1", "h1":
			return nil
		}
		// From the fourth task on, the user interrupts and the runs wait for it.
		cancel()
		<-rctx.Done()
		return fmt.Errorf("run %s: %w", task.ID, rctx.Err())
	}}
	r, err := Run(ctx, Options{
		Variants: []Variant{gold, weak}, Concurrency: 1,
		Phases: []Phase{{Name: "only", Tasks: tasks, After: func(actx context.Context) error {
			afterCtxErr.Store(fmt.Sprint(actx.Err()))
			return nil
		}}},
	}, runner)
	require.ErrorIs(t, err, context.Canceled)
	assert.True(t, r.Partial)
	assert.Contains(t, r.Error, "context canceled")
	var ids []string
	for _, o := range r.Outcomes {
		ids = append(ids, o.Variant+"/"+o.TaskID)
	}
	assert.Equal(t, []string{"gold/e1", "gold/m1", "gold/h1"}, ids, "the cancelled run is left out")
	assert.Equal(t, []string{"gold/e1", "gold/m1", "gold/h1", "gold/e2"}, runner.startedRuns(), "nothing starts after the cancellation")
	assert.Equal(t, "<nil>", afterCtxErr.Load(), "After cleans up with a live context")
	assert.Equal(t, 3, r.Metrics[0].All().Tasks)
	assert.Equal(t, 0, r.Metrics[1].All().Tasks)
}

func TestRunCancelledWhileWaitingForASlot(t *testing.T) {
	tasks, err := GenerateTasks(30, 1, "")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	var once sync.Once
	runner := &fakeRunner{
		delay: func(Variant, toolworld.Task) time.Duration { return time.Hour },
		hook: func(context.Context, Variant, toolworld.Task) error {
			once.Do(func() { time.AfterFunc(20*time.Millisecond, cancel) })
			return nil
		},
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		r, err := Run(ctx, Options{Variants: []Variant{gold}, Tasks: tasks, Concurrency: 4}, runner)
		assert.ErrorIs(t, err, context.Canceled)
		assert.Empty(t, r.Outcomes)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after the cancellation")
	}
	assert.Len(t, runner.startedRuns(), 4, "only the first four started")
}

func TestRunPhasesFailureScenario(t *testing.T) {
	tasks := fakeTasks()[:3]
	var broken atomic.Bool
	var ev events
	runner := &fakeRunner{broken: broken.Load}
	hook := func(what string, fault bool) func(context.Context) error {
		return func(context.Context) error {
			ev.add("%s", what)
			broken.Store(fault)
			return nil
		}
	}
	r, err := Run(context.Background(), Options{
		Variants: []Variant{gold, weak}, Concurrency: 3,
		Phases: []Phase{
			{Name: "baseline", Tasks: tasks},
			{Name: "faults", Tasks: tasks, Before: hook("inject", true), After: hook("heal", false)},
			{Name: "recovery", Tasks: tasks},
		},
		BeforeVariant: func(_ context.Context, v Variant) error { ev.add("variant %s", v.Name); return nil },
	}, runner)
	require.NoError(t, err)
	assert.Equal(t, []string{"variant gold", "inject", "heal", "variant weak", "inject", "heal"}, ev.all())
	assert.Equal(t, []PhaseInfo{{"baseline", 3}, {"faults", 3}, {"recovery", 3}}, r.Phases)

	require.Len(t, r.Outcomes, 18)
	for i, o := range r.Outcomes {
		assert.Equal(t, []string{"baseline", "faults", "recovery"}[i%9/3], o.Phase, "outcome %d", i)
		assert.Equal(t, i%9, o.Index)
	}
	cases := []struct {
		variant, phase string
		i, p           int
		tsr            float64
	}{
		{"gold", "baseline", 0, 0, 1},
		{"gold", "faults", 0, 1, 0},
		{"gold", "recovery", 0, 2, 1},
		{"weak", "baseline", 1, 0, 1.0 / 3},
		{"weak", "faults", 1, 1, 0},
		{"weak", "recovery", 1, 2, 1.0 / 3},
	}
	for _, c := range cases {
		t.Run(c.variant+"/"+c.phase, func(t *testing.T) {
			g := r.Metrics[c.i].Phases[c.p]
			assert.Equal(t, c.phase, g.Group)
			assert.Equal(t, 3, g.Tasks)
			assert.InDelta(t, c.tsr, g.TSR, 1e-12)
		})
	}
}

func TestRunBatches(t *testing.T) {
	tasks, err := GenerateTasks(10, 3, toolworld.DifficultyEasy)
	require.NoError(t, err)
	// The agent "learns" at the end of each batch: it solves tasks only once it has.
	var learnt atomic.Int32
	var mu sync.Mutex
	finished := map[string]bool{}
	var overlaps []string
	batchOf := map[string]int{}
	runner := &fakeRunner{
		delay: reverseDelay(tasks),
		hook: func(_ context.Context, v Variant, task toolworld.Task) error {
			mu.Lock()
			defer mu.Unlock()
			// Every task of an earlier batch has finished when a batch starts.
			for id, b := range batchOf {
				if b < batchOf[task.ID] && !finished[v.Name+id] {
					overlaps = append(overlaps, task.ID+" started before "+id+" finished")
				}
			}
			return nil
		},
	}
	var ev events
	inner := runner
	wrapped := RunnerFunc(func(ctx context.Context, v Variant, task toolworld.Task) (Outcome, error) {
		o, err := inner.Run(ctx, v, task)
		if learnt.Load() == 0 {
			o.Result.Status = "failed"
		}
		mu.Lock()
		finished[v.Name+task.ID] = true
		mu.Unlock()
		return o, err
	})
	// 10 tasks in 3 batches: ⌊3i/10⌋+1 gives 4, 3 and 3 tasks.
	wantBatches := []int{1, 1, 1, 1, 2, 2, 2, 3, 3, 3}
	for i, task := range tasks {
		batchOf[task.ID] = wantBatches[i]
	}
	r, err := Run(context.Background(), Options{
		Variants: []Variant{gold, weak}, Tasks: tasks, Concurrency: 8, Batches: 3,
		BeforeVariant: func(context.Context, Variant) error { learnt.Store(0); return nil },
		AfterBatch: func(_ context.Context, v Variant, b int) error {
			ev.add("%s learns from batch %d", v.Name, b)
			learnt.Add(1)
			return nil
		},
	}, wrapped)
	require.NoError(t, err)
	assert.Empty(t, overlaps)
	assert.Equal(t, 3, r.Batches)
	assert.Equal(t, []string{
		"gold learns from batch 1", "gold learns from batch 2", "gold learns from batch 3",
		"weak learns from batch 1", "weak learns from batch 2", "weak learns from batch 3",
	}, ev.all())
	for i, o := range r.Outcomes {
		assert.Equal(t, wantBatches[i%10], o.Batch, "outcome %d", i)
	}
	for _, vm := range r.Metrics {
		require.Len(t, vm.Batches, 3)
		for b, want := range []struct {
			tasks int
			tsr   float64
		}{{4, 0}, {3, 1}, {3, 1}} {
			assert.Equal(t, fmt.Sprint(b+1), vm.Batches[b].Group)
			assert.Equal(t, want.tasks, vm.Batches[b].Tasks, "%s batch %d", vm.Variant, b+1)
			assert.InDelta(t, want.tsr, vm.Batches[b].TSR, 1e-12, "%s batch %d", vm.Variant, b+1)
		}
	}
}

func TestRunBatchSpanningPhases(t *testing.T) {
	tasks := fakeTasks()
	var ev events
	runner := &fakeRunner{hook: func(_ context.Context, _ Variant, task toolworld.Task) error {
		ev.add("run %s", task.ID)
		return nil
	}}
	// Six tasks in two batches of three; the first batch ends inside the second phase.
	r, err := Run(context.Background(), Options{
		Variants: []Variant{gold}, Concurrency: 1, Batches: 2,
		Phases: []Phase{
			{Name: "p1", Tasks: tasks[:2], After: func(context.Context) error { ev.add("after p1"); return nil }},
			{Name: "p2", Tasks: tasks[2:], Before: func(context.Context) error { ev.add("before p2"); return nil }},
		},
		AfterBatch: func(_ context.Context, _ Variant, b int) error { ev.add("batch %d", b); return nil },
	}, runner)
	require.NoError(t, err)
	assert.Equal(t, []string{
		"run e1", "run m1", "after p1", "before p2", "run h1", "batch 1", "run e2", "run m2", "run h2", "batch 2",
	}, ev.all())
	var batches []int
	for _, o := range r.Outcomes {
		batches = append(batches, o.Batch)
	}
	assert.Equal(t, []int{1, 1, 1, 2, 2, 2}, batches)
}

func TestRunHookErrors(t *testing.T) {
	tasks := fakeTasks()
	boom := errors.New("boom")
	cases := []struct {
		name    string
		opts    Options
		wantErr string
		runs    int
	}{
		{
			name: "before variant",
			opts: Options{Variants: []Variant{gold, weak}, Tasks: tasks,
				BeforeVariant: func(_ context.Context, v Variant) error {
					if v.Name == "weak" {
						return boom
					}
					return nil
				}},
			wantErr: "bench: before variant weak: boom",
			runs:    6,
		},
		{
			name: "phase before",
			opts: Options{Variants: []Variant{gold}, Phases: []Phase{
				{Name: "ok", Tasks: tasks[:2]},
				{Name: "faults", Tasks: tasks, Before: func(context.Context) error { return boom }},
			}},
			wantErr: "bench: gold/faults: before: boom",
			runs:    2,
		},
		{
			name: "phase after",
			opts: Options{Variants: []Variant{gold, weak}, Phases: []Phase{
				{Name: "faults", Tasks: tasks, After: func(context.Context) error { return boom }},
			}},
			wantErr: "bench: gold/faults: after: boom",
			runs:    6,
		},
		{
			name: "after batch",
			opts: Options{Variants: []Variant{gold}, Tasks: tasks, Batches: 3,
				AfterBatch: func(_ context.Context, _ Variant, b int) error {
					if b == 2 {
						return boom
					}
					return nil
				}},
			wantErr: "after batch 2: boom",
			runs:    4,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := Run(context.Background(), c.opts, &fakeRunner{})
			require.ErrorIs(t, err, boom)
			assert.Contains(t, err.Error(), c.wantErr)
			assert.True(t, r.Partial)
			assert.Len(t, r.Outcomes, c.runs)
		})
	}
}

func TestRunValidation(t *testing.T) {
	tasks := fakeTasks()
	cases := []struct {
		name    string
		opts    Options
		runner  Runner
		wantErr string
	}{
		{"no runner", Options{Variants: []Variant{gold}, Tasks: tasks}, nil, "no runner"},
		{"no variants", Options{Tasks: tasks}, &fakeRunner{}, "no variants"},
		{"unnamed variant", Options{Variants: []Variant{{}}, Tasks: tasks}, &fakeRunner{}, "variant 0 has no name"},
		{"duplicate variant", Options{Variants: []Variant{gold, gold}, Tasks: tasks}, &fakeRunner{}, "duplicate variant gold"},
		{"no tasks", Options{Variants: []Variant{gold}}, &fakeRunner{}, "no tasks"},
		{"empty phases", Options{Variants: []Variant{gold}, Phases: []Phase{{Name: "p"}}}, &fakeRunner{}, "no tasks"},
		{"tasks and phases", Options{Variants: []Variant{gold}, Tasks: tasks, Phases: []Phase{{Name: "p", Tasks: tasks}}}, &fakeRunner{}, "not both"},
		{"unnamed phase", Options{Variants: []Variant{gold}, Phases: []Phase{{Tasks: tasks}}}, &fakeRunner{}, "phase 0 has no name"},
		{"duplicate phase", Options{Variants: []Variant{gold}, Phases: []Phase{{Name: "p", Tasks: tasks}, {Name: "p", Tasks: tasks}}}, &fakeRunner{}, "duplicate phase p"},
		{"negative batches", Options{Variants: []Variant{gold}, Tasks: tasks, Batches: -1}, &fakeRunner{}, "-1 batches for 6 tasks"},
		{"more batches than tasks", Options{Variants: []Variant{gold}, Tasks: tasks, Batches: 7}, &fakeRunner{}, "7 batches for 6 tasks"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Run(context.Background(), c.opts, c.runner)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.wantErr)
		})
	}
}

func TestRunDefaultsCommandToArgs(t *testing.T) {
	r, err := Run(context.Background(), Options{Variants: []Variant{gold}, Tasks: fakeTasks()[:1]}, &fakeRunner{})
	require.NoError(t, err)
	assert.NotEmpty(t, r.Command)
}
