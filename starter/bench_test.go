package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/converter"

	"github.com/naviagent/navi/bench"
	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/toolworld"
	"github.com/naviagent/navi/workflows"
)

func TestSimulatedUserAnswer(t *testing.T) {
	u := simulatedUser{
		chain: []string{"geo.Geocode", "airq.Current"},
		records: map[string]string{
			"geo.Geocode.city":       "Rome",
			"airq.Current.latitude":  "41.9028",
			"airq.Current.longitude": "12.4964",
		},
		given: map[string]string{"geo.Geocode.city": "Rome", "geo.Geocode.country": "IT"},
	}
	tests := []struct {
		name   string
		params []string
		want   string
	}{
		{"records, in the order asked", []string{"airq.Current.longitude", "airq.Current.latitude"}, "longitude 12.4964, latitude 41.9028"},
		{"one param", []string{"geo.Geocode.city"}, "city Rome"},
		{"by name at another API", []string{"airq.Forecast.latitude", "airq.Forecast.longitude"}, "latitude 41.9028, longitude 12.4964"},
		{"missing: the given values are added", []string{"dine.RestaurantDetails.restaurant_id"}, "city Rome, country IT"},
		{"missing and known: each name once", []string{"airq.Current.latitude", "x.Y.zip", "geo.Geocode.city"}, "latitude 41.9028, city Rome, country IT"},
		{"no param named: the given values", nil, "city Rome, country IT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, u.answer(tt.params))
		})
	}
	assert.Empty(t, simulatedUser{}.answer([]string{"a.B.c"}), "nothing to say")
	assert.Equal(t, "param", paramName("param"))
	assert.Equal(t, "latitude", paramName("a.b.latitude"))
}

// The simulated user answers a generated task from the values the gold chain's calls produce.
func TestSimulatedUserFromGoldChain(t *testing.T) {
	tasks, err := bench.GenerateTasks(3, 1, toolworld.DifficultyMedium)
	require.NoError(t, err)
	for _, task := range tasks {
		inputs, err := toolworld.ChainInputs(task)
		require.NoError(t, err)
		final := task.GoldChain[len(task.GoldChain)-1]
		var asked []string
		for k := range inputs {
			if strings.HasPrefix(k, final+".") {
				asked = append(asked, k)
			}
		}
		slices.Sort(asked)
		require.NotEmpty(t, asked, task.ID)
		got := newSimulatedUser(task, false).answer(asked)
		for _, k := range asked {
			assert.Contains(t, got, paramName(k)+" "+inputs[k], task.ID)
		}
	}
}

// The person the simulated user can be knows what the task states, not what the gold chain's
// tools produced: asked for an input a data flow feeds, it gives the task's values instead.
func TestSimulatedPersonKnowsNoToolMadeValue(t *testing.T) {
	tasks, err := bench.GenerateTasks(6, 1, toolworld.DifficultyMedium)
	require.NoError(t, err)
	checked := 0
	for _, task := range tasks {
		inputs, err := toolworld.ChainInputs(task)
		require.NoError(t, err)
		for _, f := range task.GoldFlow {
			key := f.ToAPI + "." + f.Input
			made, ok := inputs[key]
			require.True(t, ok, "%s: the flow into %s has a record", task.ID, key)
			chain := newSimulatedUser(task, false).answer([]string{key})
			person := newSimulatedUser(task, true).answer([]string{key})
			assert.Contains(t, chain, f.Input+" "+made, "%s: the chain's user gives the tool-made value", task.ID)
			assert.NotContains(t, person, made, "%s: the person does not know %s", task.ID, key)
			for k, v := range task.Given {
				assert.Contains(t, person, paramName(k)+" "+v, "%s: the person says what the task states", task.ID)
			}
			checked++
		}
	}
	require.Positive(t, checked, "the medium tasks have data flows")
}

func TestParseVariants(t *testing.T) {
	vs, err := parseVariants("", "graph-first")
	require.NoError(t, err)
	assert.Empty(t, vs)
	vs, err = parseVariants("none", "graph-first")
	require.NoError(t, err)
	assert.Empty(t, vs)

	vs, err = parseVariants(variantNames(ablationVariants), "graph-first")
	require.NoError(t, err)
	require.Len(t, vs, 5)
	assert.Equal(t, bench.Variant{Name: "no-graph", Planner: "graph-first", Search: "none"}, vs[0])
	assert.Equal(t, bench.Variant{Name: "static+alphabeta", Planner: "graph-first", Search: "alphabeta"}, vs[1])
	assert.Equal(t, bench.Variant{Name: "dynamic+alphabeta", Planner: "graph-first", Search: "alphabeta", Feedback: true}, vs[2])
	assert.Equal(t, bench.Variant{Name: "dynamic+heuristic", Planner: "graph-first", Search: "heuristic", Feedback: true}, vs[3])
	assert.Equal(t, bench.Variant{Name: "dynamic+heuristic+hgt", Planner: "graph-first", Search: "heuristic", Feedback: true, HGT: true}, vs[4])

	vs, err = parseVariants(" dynamic+alphabeta+pruning , no-graph", "llm")
	require.NoError(t, err)
	assert.Equal(t, []bench.Variant{
		{Name: "dynamic+alphabeta+pruning", Planner: "llm", Search: "alphabeta", Feedback: true, Pruning: true},
		{Name: "no-graph", Planner: "llm", Search: "none"},
	}, vs, "the order given, the planner set")

	for _, bad := range []string{"graph", "no-graph,no-graph", "no-graph,", "static"} {
		_, err := parseVariants(bad, "")
		assert.ErrorIs(t, err, errUsage, bad)
	}
	assert.Equal(t, "no-graph,static+alphabeta,dynamic+alphabeta,dynamic+heuristic,dynamic+heuristic+hgt", variantNames(ablationVariants))
}

func TestChooseFaults(t *testing.T) {
	apis := toolworldAPIs()
	require.Len(t, apis, 41)
	a := chooseFaults(apis, 1, 0.1)
	assert.Len(t, a, 4, "10%% of 41 APIs")
	assert.True(t, slices.IsSorted(a))
	for _, api := range a {
		assert.Contains(t, apis, api)
	}
	assert.Equal(t, a, chooseFaults(apis, 1, 0.1), "the same seed, the same faults")
	shuffled := slices.Clone(apis)
	slices.Reverse(shuffled)
	assert.Equal(t, a, chooseFaults(shuffled, 1, 0.1), "whatever the order of the APIs")
	assert.Equal(t, slices.Clone(apis), apis, "the input is left alone")
	differ := false
	for seed := uint64(2); seed < 10 && !differ; seed++ {
		differ = !slices.Equal(a, chooseFaults(apis, seed, 0.1))
	}
	assert.True(t, differ, "another seed, other faults")

	hundred := make([]string, 100)
	for i := range hundred {
		hundred[i] = string(rune('A'+i/26)) + string(rune('a'+i%26))
	}
	assert.Len(t, chooseFaults(hundred, 7, 0.1), 10)
	assert.Len(t, chooseFaults(apis[:3], 1, 0.1), 1, "at least one")
	assert.Len(t, chooseFaults(apis, 1, 1), 41)
	assert.Empty(t, chooseFaults(nil, 1, 0.1))
}

// The failure scenario's hooks set and clear faults in a real tool world server; clearing
// leaves a fault scoped to another run's keys alone.
func TestBenchFaultHooks(t *testing.T) {
	world := toolworld.New(toolworld.Options{})
	ts := httptest.NewServer(world)
	defer ts.Close()
	ctx := context.Background()

	faults := chooseFaults(toolworldAPIs(), 1, 0.1)
	require.NoError(t, setFaults(ctx, ts.URL, faults, toolworld.ModeDown))
	scoped := toolworld.Fault{API: "geo.Geocode", Mode: toolworld.ModeDown, KeyPrefix: "navi/other-test/"}
	require.NoError(t, world.SetFault(scoped))
	var down []string
	for _, f := range world.Faults() {
		down = append(down, f.API)
	}
	assert.Len(t, down, len(faults)+1)

	require.NoError(t, clearFaults(ctx, ts.URL))
	assert.Equal(t, []toolworld.Fault{scoped}, world.Faults())

	require.NoError(t, setFaults(ctx, ts.URL, faults, toolworld.ModeDown))
	require.NoError(t, setFaults(ctx, ts.URL, faults, toolworld.ModeNone))
	assert.Equal(t, []toolworld.Fault{scoped}, world.Faults())

	assert.Error(t, clearFaults(ctx, "http://127.0.0.1:1"), "no tool world")
}

func TestBenchUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-n", "0"}, {"-concurrency", "0"}, {"-fault-fraction", "0"}, {"-planner", "gpt"},
		{"-variants", "nope"}, {"-variants", "none", "-failures=false", "-learning=false"}, {"-learning-n", "0"}, {"extra"},
	} {
		err := benchmark(args, streams{&bytes.Buffer{}, &bytes.Buffer{}})
		assert.ErrorIs(t, err, errUsage, "%v", args)
	}
}

// TestBenchOnStack runs navi bench on six generated tasks with two variants through the test
// stack, whose worker is the real navi-worker: the reports are written, the rates are
// fractions, and the simulated user answered the question of a medium task's no-graph run.
//
// It passes -reset=false and -failures=false and runs only variants without feedback because
// the test stack is shared with the tests of other packages running at the same time:
// resetting, teaching or breaking the tool world's graph would change what their runs do.
func TestBenchOnStack(t *testing.T) {
	useStack(t)
	stacktest.Export(t, stacktest.EnvToolWorld)
	out := t.TempDir()
	var stdout, stderr stacktest.SyncBuffer
	start := time.Now()
	err := benchmark([]string{"-n", "6", "-seed", "1", "-variants", "no-graph,static+alphabeta", "-batches", "2",
		"-concurrency", "3", "-failures=false", "-learning=false", "-reset=false", "-clarify-deadline", "20s", "-task-timeout", "1m",
		"-timeout", "3m", "-out", out}, streams{&stdout, &stderr})
	require.NoError(t, err, stderr.String())
	t.Logf("navi bench on 6 tasks × 2 variants: %s", time.Since(start).Round(time.Millisecond))

	for _, f := range []string{bench.ReportJSON, bench.ReportMarkdown, bench.PlotTSRByDifficulty, bench.PlotLearningCurve, SimulatedUserFile} {
		fi, err := os.Stat(filepath.Join(out, f))
		require.NoError(t, err, f)
		assert.NotZero(t, fi.Size(), f)
	}
	_, err = os.Stat(filepath.Join(out, "failures"))
	assert.True(t, errors.Is(err, os.ErrNotExist), "no failure scenario")

	f, err := os.Open(filepath.Join(out, bench.ReportJSON))
	require.NoError(t, err)
	defer f.Close()
	rep, err := bench.ReadJSON(f)
	require.NoError(t, err)
	assert.Equal(t, uint64(1), rep.Seed)
	assert.Equal(t, []string{"navi", "bench", "-n", "6"}, rep.Command[:4])
	assert.Equal(t, 2, rep.Batches)
	assert.False(t, rep.Partial, rep.Error)
	require.Len(t, rep.Metrics, 2)
	assert.Equal(t, "no-graph", rep.Metrics[0].Variant)
	assert.Equal(t, "static+alphabeta", rep.Metrics[1].Variant)
	require.Len(t, rep.Outcomes, 12)
	for _, vm := range rep.Metrics {
		m := vm.All()
		assert.Equal(t, 6, m.Tasks, vm.Variant)
		assert.Equal(t, 6, m.Runs, "%s: every run gave a result", vm.Variant)
		assert.True(t, m.TCR >= 0 && m.TCR <= 1, "%s TCR %v", vm.Variant, m.TCR)
		assert.True(t, m.TSR >= 0 && m.TSR <= 1, "%s TSR %v", vm.Variant, m.TSR)
		assert.Len(t, vm.Batches, 2)
	}
	for _, o := range rep.Outcomes {
		assert.Empty(t, o.Err, o.TaskID)
		assert.Contains(t, o.WorkflowID, o.TaskID)
		assert.Positive(t, o.WallMS)
	}

	var log []userRecord
	b, err := os.ReadFile(filepath.Join(out, SimulatedUserFile))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &log))
	answered := false
	for _, r := range log {
		if r.Variant != "no-graph" || r.Difficulty != toolworld.DifficultyMedium || r.Answered == 0 {
			continue
		}
		require.NotEmpty(t, r.Exchanges)
		ex := r.Exchanges[0]
		assert.NotEmpty(t, ex.Question)
		assert.NotEmpty(t, ex.Params, "the question names the inputs it asks for")
		assert.NotEmpty(t, ex.Answer)
		assert.NotEqual(t, workflows.StatusClarifyTimeout, r.Status, "the answer arrived before the deadline")
		answered = true
	}
	assert.True(t, answered, "a no-graph run of a medium task asked, and the simulated user answered: %s", b)

	md := stdout.String()
	assert.Contains(t, md, "# Navi benchmark")
	assert.Contains(t, md, "| no-graph |")
	assert.Contains(t, md, "## Simulated user")
	assert.Contains(t, stderr.String(), "bench 12/12 100%")
}

// The learning workload's tasks all geocode for a step that takes latitude (where the
// structure favours the wrong geocoder), each fault names an API the tool world has, and the
// faults are set for the bench's own keys only, then cleared.
func TestLearningWorkload(t *testing.T) {
	faults, what := learningFaults(1)
	require.Len(t, what, len(faults))
	tasks, err := learningTasks(60, 1)
	require.NoError(t, err)
	require.Len(t, tasks, 60)
	takers := latitudeTakers()
	assert.True(t, takers["weather.Current"])
	assert.False(t, takers["skycast.Now"], "skycast takes lat")
	for _, task := range tasks {
		i := slices.IndexFunc(task.GoldChain, func(api string) bool { return slices.Contains(geocoders, api) })
		require.GreaterOrEqual(t, i, 0, "%s: %v", task.ID, task.GoldChain)
		require.Less(t, i, len(task.GoldChain)-1, "%s: the geocoder feeds a step", task.ID)
		assert.True(t, takers[task.GoldChain[i+1]], "%s: %v", task.ID, task.GoldChain)
		assert.Equal(t, toolworld.DifficultyMedium, task.Difficulty)
	}
	assert.False(t, favoursFaulted([]string{"opengeo.Locate", "skycast.Now"}, takers), "skycast takes lat: no favour")
	assert.False(t, favoursFaulted([]string{"stay.SearchHotels", "stay.Book"}, takers))
	again, err := learningTasks(60, 1)
	require.NoError(t, err)
	assert.Equal(t, tasks, again, "seeded")

	world := toolworld.New(toolworld.Options{})
	ts := httptest.NewServer(world)
	defer ts.Close()
	ctx := context.Background()
	require.NoError(t, setLearningFaults(ctx, ts.URL, "navi/bench-x-", faults, ""))
	var set []string
	for _, f := range world.Faults() {
		assert.Equal(t, "navi/bench-x-", f.KeyPrefix, f.API)
		set = append(set, f.API)
	}
	assert.ElementsMatch(t, geocoders, set)
	require.NoError(t, setLearningFaults(ctx, ts.URL, "navi/bench-x-", faults, toolworld.ModeNone))
	assert.Empty(t, world.Faults())
}

// The learning workload's simulated user rates a finished run through a RateWorkflow of its
// own, started beside the run; a good verdict confirms the run's successful calls and teaches
// retrieval the sub-goals the run served, and a run that recorded nothing is not rated.
func TestBenchRatesRunOnStack(t *testing.T) {
	useStack(t)
	id, res := askJSON(t)
	require.Equal(t, workflows.StatusAnswered, res.Status, res.Answer)
	tc := stacktest.TemporalClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	chains, err := recordedChains(ctx, tc, converter.GetDefaultDataConverter(), id)
	require.NoError(t, err)
	require.NotEmpty(t, chains)
	queue := stacktest.Env(t, stacktest.EnvTaskQueue)
	// The sub-goals the run served wait for the verdict: a good one teaches retrieval them.
	store := stacktest.Store(t)
	learned := func(g contract.GoalFeedback) int {
		texts, err := store.Goals(ctx, g.API)
		require.NoError(t, err)
		return len(slices.DeleteFunc(texts, func(s string) bool { return s != g.Text }))
	}
	var proposed []contract.GoalFeedback
	before := map[contract.GoalFeedback]int{}
	for _, ch := range chains {
		if ch.GoalsOnRating {
			for _, g := range ch.Goals {
				proposed = append(proposed, g)
				before[g] = learned(g)
			}
		}
	}
	require.NotEmpty(t, proposed, "the run proposes what it served")
	require.NoError(t, rateRun(ctx, tc, queue, id, true, chains))
	for _, g := range proposed {
		assert.Equal(t, before[g]+1, learned(g), "the good verdict taught retrieval %q for %s", g.Text, g.API)
	}
	var rated workflows.RateResult
	require.NoError(t, tc.GetWorkflow(ctx, id+"-rating", "").Get(ctx, &rated))
	// The verdict is on the answer: the answering calls (no successful flow leaves them) and
	// the successful flows.
	answering, flows := 0, 0
	for _, ch := range chains {
		fed := map[string]bool{}
		for _, tr := range ch.Transitions {
			if tr.Success {
				fed[tr.From] = true
				flows++
			}
		}
		for _, inv := range ch.Invocations {
			if inv.Success && !fed[inv.API] {
				answering++
			}
		}
	}
	assert.Equal(t, workflows.RateResult{Chains: len(chains), Invocations: answering, Transitions: flows}, rated)
	assert.Positive(t, rated.Invocations)

	require.NoError(t, rateRun(ctx, tc, queue, "navi-no-such-run", false, nil), "nothing to rate")
	_, err = tc.DescribeWorkflowExecution(ctx, "navi-no-such-run-rating", "")
	assert.Error(t, err, "no rating was started")
}
