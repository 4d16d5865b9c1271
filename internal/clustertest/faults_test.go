//go:build cluster

package clustertest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"

	"github.com/naviagent/navi/internal/config"
	"github.com/naviagent/navi/internal/devstack"
	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/toolspec"
	"github.com/naviagent/navi/toolworld"
	"github.com/naviagent/navi/workflows"
)

// Sizes of the load; NAVI_CLUSTER_RUNS overrides the number of runs.
const (
	defaultRuns = 240
	concurrency = 32
	// recoveryBound is how soon after a fault every run in flight must have finished.
	recoveryBound = 60 * time.Second
)

// fault is one thing the test breaks while the load runs: at is the number of runs started
// when it waits for the stack to be whole (it strikes concurrency runs later), down how long
// the service stays dead.
type fault struct {
	name    string // what the report calls it
	service string // the stack's service, as in <state>/run/<service>.pid
	at      int
	down    time.Duration
}

// run is one query's fate.
type run struct {
	id         string
	start, end time.Time
	status     string
	err        error
}

// faultReport is what a fault did to the runs in flight when it struck.
type faultReport struct {
	Name     string `json:"name"`
	InFlight int    `json:"in_flight"`
	// Delays are the runs' latencies beyond the median of the runs no fault touched, in
	// seconds: what the fault added.
	DelayP50 float64 `json:"delay_p50_s"`
	DelayP95 float64 `json:"delay_p95_s"`
	// LastDone is how long after the fault the last of them finished, in seconds.
	LastDone float64 `json:"last_done_s"`
	// Slowest is the run in flight that took the longest, to read its history.
	Slowest string `json:"slowest"`
}

func TestClusterSurvivesFaults(t *testing.T) {
	state := os.Getenv("NAVI_CLUSTER_STATE")
	require.NotEmpty(t, state, "NAVI_CLUSTER_STATE names the state folder of the cluster `make cluster` started")
	env := readEnv(t, filepath.Join(state, "stack.env"))
	require.NotEmpty(t, os.Getenv("NAVI_NEO4J_PASSWORD"), "NAVI_NEO4J_PASSWORD: the cluster's Neo4j password, to bring the stack back")
	n := defaultRuns
	if v := os.Getenv("NAVI_CLUSTER_RUNS"); v != "" {
		var err error
		n, err = strconv.Atoi(v)
		require.NoError(t, err, "NAVI_CLUSTER_RUNS")
	}
	opts, err := config.WithFrontends(client.Options{Namespace: env["NAVI_TEMPORAL_NAMESPACE"]}, env["NAVI_TEMPORAL_ADDRESS"])
	require.NoError(t, err)
	require.Contains(t, opts.HostPort, ",", "the cluster has several frontends: %s", env["NAVI_TEMPORAL_ADDRESS"])
	c, err := client.Dial(opts)
	require.NoError(t, err)
	defer c.Close()

	tasks, err := toolworld.GenerateTasks(toolworld.TaskOptions{Seed: 11, N: n})
	require.NoError(t, err)
	faults := []fault{
		{name: "Temporal node 2 killed", service: "temporal-2", at: n / 6, down: 10 * time.Second},
		{name: "worker 2 killed", service: "worker-2", at: n / 2, down: 5 * time.Second},
		{name: "PostgreSQL killed", service: "postgres", at: 5 * n / 6, down: 2 * time.Second},
	}
	require.Less(t, faults[len(faults)-1].at+concurrency, n, "too few runs (NAVI_CLUSTER_RUNS) for the last fault to strike under load")
	prefix := fmt.Sprintf("navi-cluster-%d", time.Now().Unix())
	runs := make([]run, n)
	struck := make([]time.Time, len(faults))

	var wg sync.WaitGroup
	sem := make(chan struct{}, concurrency)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	next := 0
	var back sync.WaitGroup // the restarts
	var up sync.Mutex       // one navi dev up at a time
	for i, task := range tasks {
		if next < len(faults) && i == faults[next].at {
			// One fault at a time: the stack is whole again before the next strikes.
			back.Wait()
		}
		sem <- struct{}{}
		if next < len(faults) && i == faults[next].at+concurrency {
			// It strikes once the load is back at full concurrency, a run having just
			// finished: on a fast machine the runs started before the wait have all
			// finished by its end, and a fault that strikes an idle cluster proves nothing.
			struck[next] = strike(t, ctx, state, env, faults[next], &back, &up)
			next++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			runs[i] = query(ctx, c, env["NAVI_TASK_QUEUE"], fmt.Sprintf("%s-%04d", prefix, i), task.Query)
		}()
	}
	wg.Wait()
	back.Wait()

	// Every run ends with a status of Navi's; none is lost (failed, timed out) or stuck.
	var lost []string
	for _, r := range runs {
		if r.err != nil {
			lost = append(lost, fmt.Sprintf("%s: %v", r.id, r.err))
		}
	}
	assert.Empty(t, lost, "runs lost")

	// No tool effect twice: a write runs at most once per run (a retry with the run's
	// idempotency key is answered from the tool world's stored answer).
	writes := map[string]bool{}
	for _, api := range toolworld.Catalog("").APIs {
		writes[api.Name] = api.Effect != toolspec.EffectRead
	}
	var twice []string
	deduplicated := 0
	for _, r := range runs {
		calls, dedup := stacktest.ToolCallsAt(t, env["NAVI_TOOLWORLD_URL"], "navi/"+r.id+"/")
		for api, k := range calls {
			if writes[api] && k > 1 {
				twice = append(twice, fmt.Sprintf("%s: %s ran %d times", r.id, api, k))
			}
		}
		for _, k := range dedup {
			deduplicated += k
		}
	}
	assert.Empty(t, twice, "tool effects done twice")

	// What each fault did to the runs in flight when it struck.
	var calm []time.Duration
	for _, r := range runs {
		if r.err == nil && !slices.ContainsFunc(struck, func(at time.Time) bool { return inFlight(r, at) }) {
			calm = append(calm, r.end.Sub(r.start))
		}
	}
	median := quantile(calm, 0.5)
	var reports []faultReport
	for k, f := range faults {
		rep := faultReport{Name: f.name}
		var delays []time.Duration
		var last time.Duration
		for _, r := range runs {
			if r.err != nil || !inFlight(r, struck[k]) {
				continue
			}
			rep.InFlight++
			delays = append(delays, max(0, r.end.Sub(r.start)-median))
			if r.end.Sub(struck[k]) > last {
				last, rep.Slowest = r.end.Sub(struck[k]), r.id
			}
		}
		rep.DelayP50, rep.DelayP95, rep.LastDone = quantile(delays, 0.5).Seconds(), quantile(delays, 0.95).Seconds(), last.Seconds()
		reports = append(reports, rep)
		assert.LessOrEqual(t, last, recoveryBound, "%s: the runs in flight finish within %s", f.name, recoveryBound)
		assert.Positive(t, rep.InFlight, "%s struck while runs were in flight", f.name)
	}
	var statuses = map[string]int{}
	for _, r := range runs {
		statuses[r.status]++
	}
	summary := map[string]any{
		"runs": n, "concurrency": concurrency, "lost": len(lost), "effects_twice": len(twice),
		"deduplicated_retries": deduplicated, "statuses": statuses,
		"median_latency_s": median.Seconds(), "faults": reports,
	}
	b, _ := json.MarshalIndent(summary, "", "  ")
	t.Logf("cluster faults:\n%s", b)
	if out := os.Getenv("NAVI_CLUSTER_REPORT"); out != "" {
		require.NoError(t, os.WriteFile(out, append(b, '\n'), 0o644))
	}
}

// query runs one query to its end, approving its writes (the run asks nothing).
func query(ctx context.Context, c client.Client, queue, id, text string) run {
	r := run{id: id, start: time.Now()}
	wr, err := workflows.StartQuery(ctx, c, client.StartWorkflowOptions{
		ID: id, TaskQueue: queue, WorkflowExecutionTimeout: 5 * time.Minute,
	}, workflows.QueryRequest{
		Query: text, Confirm: toolspec.ConfirmNever, NoFeedback: true, ClarifyDeadline: 2 * time.Second,
	})
	if err != nil {
		r.err, r.end = fmt.Errorf("start: %w", err), time.Now()
		return r
	}
	var res workflows.QueryResult
	r.err = wr.Get(ctx, &res)
	r.end, r.status = time.Now(), res.Status
	return r
}

// strike kills the fault's service (its whole process group, as a crash would) and brings
// the stack back whole after the fault's downtime, in the background. It returns when the
// fault struck; back is done when the stack is whole again.
func strike(t *testing.T, ctx context.Context, state string, env map[string]string, f fault, back *sync.WaitGroup, up *sync.Mutex) time.Time {
	t.Helper()
	pid, err := devstack.Crash(state, f.service)
	require.NoError(t, err, "%s: is the cluster up?", f.name)
	at := time.Now()
	t.Logf("%s: killed %s (pid %d)", f.name, f.service, pid)
	back.Add(1)
	go func() {
		defer back.Done()
		time.Sleep(f.down)
		up.Lock()
		defer up.Unlock()
		root, _ := filepath.Abs("../..")
		_, err := devstack.Up(ctx, devstack.Options{
			Root: root, StateDir: state, Persistence: "postgres", TemporalNodes: 2, Workers: 2, Worker: true,
			Namespace: env["NAVI_TEMPORAL_NAMESPACE"], TaskQueue: env["NAVI_TASK_QUEUE"],
			Neo4jUser: env["NAVI_NEO4J_USER"], Neo4jPass: os.Getenv("NAVI_NEO4J_PASSWORD"),
		})
		if err != nil {
			t.Errorf("%s: bring the stack back: %v", f.name, err)
			return
		}
		t.Logf("%s: %s back after %s", f.name, f.service, time.Since(at).Round(100*time.Millisecond))
	}()
	return at
}

func inFlight(r run, at time.Time) bool { return r.start.Before(at) && r.end.After(at) }

// quantile is the q-quantile of ds (nearest rank); 0 for none.
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// readEnv reads the NAME=value lines of a stack.env.
func readEnv(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err, "is the cluster up?")
	defer f.Close()
	env := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			env[k] = v
		}
	}
	require.NoError(t, sc.Err())
	return env
}
