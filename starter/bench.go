package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/bench"
	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/internal/config"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/toolcall"
	"github.com/naviagent/navi/toolworld"
)

// The variants of the NaviAgent paper's ablations (Tables 3 and 4) and of its failure
// scenario (Appendix F.2): configurations of the same code, set per run by QueryRequest
// (Search, NoFeedback) and by the bench's hooks (retraining, pruning).
var (
	variantNoGraph          = bench.Variant{Name: "no-graph", Search: "none"}
	variantStaticAlphaBeta  = bench.Variant{Name: "static+alphabeta", Search: "alphabeta"}
	variantDynamicAlphaBeta = bench.Variant{Name: "dynamic+alphabeta", Search: "alphabeta", Feedback: true}
	variantDynamicHeuristic = bench.Variant{Name: "dynamic+heuristic", Search: "heuristic", Feedback: true}
	variantDynamicHGT       = bench.Variant{Name: "dynamic+heuristic+hgt", Search: "heuristic", Feedback: true, HGT: true}
	variantDynamicPruning   = bench.Variant{Name: "dynamic+alphabeta+pruning", Search: "alphabeta", Feedback: true, Pruning: true}
	// variantDynamicNoInertia asks the LLM planner every step (with the graph-first planner,
	// which calls no LLM, it is dynamic+alphabeta).
	variantDynamicNoInertia = bench.Variant{Name: "dynamic+alphabeta+noinertia", Search: "alphabeta", Feedback: true, NoInertia: true}

	// ablationVariants are the variants `navi bench` runs by default, in order.
	ablationVariants = []bench.Variant{variantNoGraph, variantStaticAlphaBeta, variantDynamicAlphaBeta, variantDynamicHeuristic, variantDynamicHGT}
	// failureVariants are the variants of the failure scenario.
	failureVariants = []bench.Variant{variantDynamicAlphaBeta, variantDynamicPruning}
	// knownVariants are the variants -variants accepts.
	knownVariants = append(slices.Clone(ablationVariants), variantDynamicPruning, variantDynamicNoInertia)
)

// Phases of the failure scenario.
const (
	phaseFaults   = "faults"
	phaseRecovery = "recovery"
)

// Settings of the simulated user and of the retraining.
const (
	// maxAnswers is how many questions the simulated user answers in one run; a run that
	// asks more waits until its clarification deadline.
	maxAnswers = 3
	// faultSalt separates the fault choice's random stream from the task generator's.
	faultSalt = 0xfa17
)

// SimulatedUserFile is the log of the simulated user's exchanges, written next to the report.
const SimulatedUserFile = "simulated_user.json"

// benchOptions are the flags of navi bench.
type benchOptions struct {
	n               int
	seed            uint64
	tasksFile       string
	difficulty      string
	concurrency     int
	batches         int
	variants        string
	failures        bool
	failureN        int
	learning        bool
	learningN       int
	faultFraction   float64
	planner         string
	out             string
	clarifyDeadline time.Duration
	maxSteps        int
	taskTimeout     time.Duration
	retrainTimeout  time.Duration
	world           string
	reset           bool
	timeout         time.Duration
	user            string // userChain or userPerson
}

// The simulated user's models (-user).
const (
	// userChain is NaviAgent's (Appendix E.3.4): it answers from every parameter record of
	// the gold chain, the identifiers its tools produced included.
	userChain = "chain"
	// userPerson knows what the person asking would: the values the task states and the gold
	// chain's inputs that no tool of the chain produced, but not an identifier a tool made
	// ("htl-london-f6c0"); asked for one, it says what it knows instead.
	userPerson = "person"
)

// benchmark runs `navi bench`: a task suite through the running stack under the paper's
// ablation variants, then the failure scenario, and writes the reports.
func benchmark(args []string, s streams) error {
	c := newCommand("bench")
	var o benchOptions
	fs := c.fs
	fs.IntVar(&o.n, "n", 150, "number of generated tool-world tasks (ignored with -tasks)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the generated tasks, of the faults and of the retraining")
	fs.StringVar(&o.tasksFile, "tasks", "", "a JSONL file of tasks (as navi-toolworld tasks writes them) instead of generated ones")
	fs.StringVar(&o.difficulty, "difficulty", "all", "difficulty of the generated tasks: easy, medium, hard, all (the three), renamed (flows across names, over the renamed providers too), or compound (two or three questions in one query)")
	fs.IntVar(&o.concurrency, "concurrency", 4, "tasks run at once")
	fs.IntVar(&o.batches, "batches", 5, "learning-curve batches per variant (retraining and pruning run after each); 1 for none")
	fs.StringVar(&o.variants, "variants", variantNames(ablationVariants), "comma-separated variants to run, or none; known: "+variantNames(knownVariants))
	fs.BoolVar(&o.failures, "failures", true, "also run the failure scenario: "+variantNames(failureVariants)+" with a share of the APIs down, then recovered")
	fs.BoolVar(&o.learning, "learning", true, "also run the learning workload: two geocoders that describe themselves alike but differ in quality (one wrong for 60% of the cities, one flaky), under static+alphabeta and the three dynamic variants, the simulated user rating each dynamic run from the gold answer")
	fs.IntVar(&o.learningN, "learning-n", 100, "tasks of the learning workload")
	fs.IntVar(&o.failureN, "failure-n", 0, "tasks per phase of the failure scenario, the first of the suite (0: all)")
	fs.Float64Var(&o.faultFraction, "fault-fraction", 0.1, "share of the tool world's APIs down in the failure scenario's first phase")
	fs.StringVar(&o.planner, "planner", "graph-first", `planner of every run: graph-first, llm, or "" for the worker's`)
	fs.StringVar(&o.out, "out", "results/bench", "directory of the reports (the failure scenario's in its failures/ subdirectory)")
	fs.DurationVar(&o.clarifyDeadline, "clarify-deadline", 30*time.Second, "how long a run waits for the simulated user (who answers at most 3 questions a run)")
	fs.IntVar(&o.maxSteps, "max-steps", 0, "bound on planner decisions per run (0: the workflow's default)")
	fs.DurationVar(&o.taskTimeout, "task-timeout", 5*time.Minute, "how long one run may take")
	fs.DurationVar(&o.retrainTimeout, "retrain-timeout", 5*time.Minute, "how long one retraining (the hgt variant's, after each batch) may take")
	fs.StringVar(&o.world, "toolworld", config.Getenv("NAVI_TOOLWORLD_URL", "http://127.0.0.1:8300"), "tool world URL, for its fault injection (NAVI_TOOLWORLD_URL)")
	fs.BoolVar(&o.reset, "reset", true, "reset the tool world's learned statistics and deactivate the model before each variant")
	fs.DurationVar(&o.timeout, "timeout", 3*time.Hour, "how long the whole bench may take")
	fs.StringVar(&o.user, "user", userChain, "the simulated user: chain (NaviAgent's: answers from the gold chain's parameter records, "+
		"tool-made ids included) or person (knows the values the task states and the chain's inputs no tool of it made, not a tool-made id)")
	if _, err := c.parse(args, 0, 0, "no arguments"); err != nil {
		return err
	}
	if err := o.check(); err != nil {
		return err
	}
	variants, err := parseVariants(o.variants, o.planner)
	if err != nil {
		return err
	}
	var tasks []toolworld.Task
	if o.tasksFile != "" {
		tasks, err = bench.LoadTasks(o.tasksFile)
	} else {
		tasks, err = bench.GenerateTasks(o.n, o.seed, o.difficulty)
	}
	if err != nil {
		return err
	}
	if len(tasks) == 0 {
		return fmt.Errorf("%w: no tasks to run", errUsage)
	}
	if len(variants) == 0 && !o.failures && !o.learning {
		return fmt.Errorf("%w: -variants none, -learning=false and -failures=false leave nothing to run", errUsage)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	tc, err := c.cfg.DialTemporal(ctx, sdkLogger())
	if err != nil {
		return err
	}
	defer tc.Close()
	store, err := c.cfg.OpenGraph(ctx)
	if err != nil {
		return err
	}
	defer store.Close(context.Background())

	dc, err := c.dataConverter()
	if err != nil {
		return err
	}
	env := &benchEnv{
		o: o, cfg: c.cfg, tc: tc, dc: dc, store: store, tools: &toolcall.Client{},
		prefix:  newRunID("navi-bench"),
		command: append([]string{"navi", "bench"}, args...),
	}
	fmt.Fprintf(s.err, "navi bench: %d tasks (seed %d), planner %s, concurrency %d, runs %s-*\n",
		len(tasks), o.seed, orWorker(o.planner), o.concurrency, env.prefix)

	var runErr error
	if len(variants) > 0 {
		runErr = env.run(ctx, s, "ablations", o.out, variants, bench.Options{Tasks: tasks})
	}
	if o.learning && runErr == nil {
		runErr = env.runLearning(ctx, s, filepath.Join(o.out, "learning"))
	}
	if o.failures && runErr == nil {
		ft := tasks
		if o.failureN > 0 && o.failureN < len(ft) {
			ft = ft[:o.failureN]
		}
		faults := chooseFaults(toolworldAPIs(), o.seed, o.faultFraction)
		fv := make([]bench.Variant, len(failureVariants))
		for i, v := range failureVariants {
			v.Planner = o.planner
			fv[i] = v
		}
		env.faults = faults
		runErr = env.run(ctx, s, "failure scenario", filepath.Join(o.out, "failures"), fv, bench.Options{Phases: []bench.Phase{
			{Name: phaseFaults, Tasks: ft,
				Before: func(ctx context.Context) error { return setFaults(ctx, o.world, faults, toolworld.ModeDown) },
				After:  func(ctx context.Context) error { return setFaults(ctx, o.world, faults, toolworld.ModeNone) }},
			{Name: phaseRecovery, Tasks: ft},
		}})
	}
	return runErr
}

// check rejects flag values that cannot work.
func (o benchOptions) check() error {
	switch {
	case o.n <= 0 && o.tasksFile == "":
		return fmt.Errorf("%w: -n %d: want a positive number of tasks", errUsage, o.n)
	case o.concurrency <= 0:
		return fmt.Errorf("%w: -concurrency %d: want 1 or more", errUsage, o.concurrency)
	case o.batches < 0:
		return fmt.Errorf("%w: -batches %d: want 0 or more", errUsage, o.batches)
	case o.learningN <= 0:
		return fmt.Errorf("%w: -learning-n %d: want 1 or more", errUsage, o.learningN)
	case o.failureN < 0:
		return fmt.Errorf("%w: -failure-n %d: want 0 or more", errUsage, o.failureN)
	case !(o.faultFraction > 0 && o.faultFraction <= 1):
		return fmt.Errorf("%w: -fault-fraction %v: want a share in (0, 1]", errUsage, o.faultFraction)
	case o.planner != "" && o.planner != "graph-first" && o.planner != "llm":
		return fmt.Errorf("%w: -planner %q: want graph-first, llm or \"\"", errUsage, o.planner)
	case o.clarifyDeadline <= 0 || o.taskTimeout <= 0 || o.retrainTimeout <= 0 || o.timeout <= 0:
		return fmt.Errorf("%w: -clarify-deadline, -task-timeout, -retrain-timeout and -timeout must be positive", errUsage)
	case o.out == "":
		return fmt.Errorf("%w: -out is empty", errUsage)
	case o.user != userChain && o.user != userPerson:
		return fmt.Errorf("%w: -user %q: want %s or %s", errUsage, o.user, userChain, userPerson)
	}
	return nil
}

func orWorker(planner string) string {
	if planner == "" {
		return "the worker's"
	}
	return planner
}

// variantNames joins the variants' names with commas.
func variantNames(vs []bench.Variant) string {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.Name
	}
	return strings.Join(names, ",")
}

// parseVariants turns -variants into variants, in the order listed, each with the planner
// set; "none" or an empty list gives none.
func parseVariants(list, planner string) ([]bench.Variant, error) {
	list = strings.TrimSpace(list)
	if list == "" || list == "none" {
		return nil, nil
	}
	var out []bench.Variant
	seen := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		i := slices.IndexFunc(knownVariants, func(v bench.Variant) bool { return v.Name == name })
		switch {
		case name == "":
			return nil, fmt.Errorf("%w: -variants %q: empty name", errUsage, list)
		case i < 0:
			return nil, fmt.Errorf("%w: -variants: unknown variant %q, want some of %s", errUsage, name, variantNames(knownVariants))
		case seen[name]:
			return nil, fmt.Errorf("%w: -variants: %s listed twice", errUsage, name)
		}
		seen[name] = true
		v := knownVariants[i]
		v.Planner = planner
		out = append(out, v)
	}
	return out, nil
}

// toolworldAPIs returns the names of the tool world's classic APIs, sorted: the failure
// scenario's faults are drawn from them, as they were before the renamed providers existed.
func toolworldAPIs() []string {
	var names []string
	for _, t := range toolworld.Classic() {
		names = append(names, t.API.Name)
	}
	slices.Sort(names)
	return names
}

// chooseFaults picks the share frac of apis (at least one), by a shuffle seeded with seed:
// the same seed and APIs always give the same faults. The result is sorted.
func chooseFaults(apis []string, seed uint64, frac float64) []string {
	if len(apis) == 0 {
		return nil
	}
	s := slices.Clone(apis)
	slices.Sort(s)
	rng := rand.New(rand.NewPCG(seed, faultSalt))
	rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
	k := min(len(s), max(1, int(math.Round(frac*float64(len(s))))))
	out := s[:k]
	slices.Sort(out)
	return out
}

// setFaults puts every API of apis in mode (down, or none to clear), for every run.
func setFaults(ctx context.Context, world string, apis []string, mode string) error {
	for _, api := range apis {
		if err := toolworld.PostFault(ctx, world, toolworld.Fault{API: api, Mode: mode}); err != nil {
			return err
		}
	}
	return nil
}

// clearFaults clears the tool world's faults that break every run (those without a key
// prefix). A fault scoped to one run's keys is left alone: it breaks no bench run, and it
// belongs to whoever set it (another test on a shared stack).
func clearFaults(ctx context.Context, world string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(world, "/")+"/admin/faults", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("list the tool world's faults: %w (is the tool world running at %s? NAVI_TOOLWORLD_URL)", err, world)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("list the tool world's faults: HTTP %d", resp.StatusCode)
	}
	var list struct {
		Faults []toolworld.Fault `json:"faults"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		return fmt.Errorf("list the tool world's faults: %w", err)
	}
	for _, f := range list.Faults {
		if f.KeyPrefix == "" {
			if err := toolworld.PostFault(ctx, world, toolworld.Fault{API: f.API, Mode: toolworld.ModeNone}); err != nil {
				return err
			}
		}
	}
	return nil
}

// benchEnv is what the runs and hooks of one `navi bench` share.
type benchEnv struct {
	o       benchOptions
	cfg     config.Config
	tc      client.Client
	dc      converter.DataConverter // reads the runs' histories for the simulated user's ratings
	store   *neo4j.Store
	tools   *toolcall.Client
	prefix  string   // of every workflow ID the bench starts
	command []string // recorded in the reports
	faults  []string // the failure scenario's faults, once chosen
	// learning is the learning workload in progress: its runs are rated.
	learning *learningRun
}

// run runs one bench.Run (the ablations or the failure scenario) and writes its results into
// dir: the report, the simulated user's log and the notes of the hooks. It prints the
// Markdown report on s.out.
func (e *benchEnv) run(ctx context.Context, s streams, what, dir string, variants []bench.Variant, opts bench.Options) error {
	total := len(opts.Tasks)
	for _, p := range opts.Phases {
		total += len(p.Tasks)
	}
	notes := &benchNotes{}
	runner := &stackRunner{
		tc: e.tc, taskQueue: e.cfg.TaskQueue, prefix: e.prefix,
		clarifyDeadline: e.o.clarifyDeadline, maxSteps: e.o.maxSteps, timeout: e.o.taskTimeout, person: e.o.user == userPerson,
		user: &userLog{},
	}
	if l := e.learning; l != nil {
		runner.rate = func(ctx context.Context, id string, good bool) error {
			chains, err := recordedChains(ctx, e.tc, e.dc, id)
			if err != nil {
				return err
			}
			return rateRun(ctx, e.tc, e.cfg.TaskQueue, id, good, chains)
		}
		notes.add("learning workload: %s; the simulated user rates every run of a variant with feedback good or bad by the gold answer (navi rate)", l.note)
	}
	opts.Variants = variants
	opts.Batches = min(e.o.batches, total)
	opts.Concurrency = e.o.concurrency
	opts.Progress = s.err
	opts.Seed = e.o.seed
	opts.Command = e.command
	opts.BeforeVariant = e.beforeVariant // the progress line names the variant
	opts.AfterBatch = func(ctx context.Context, v bench.Variant, batch int) error {
		if batch >= opts.Batches {
			return nil // nothing runs after the last batch: it would learn for nothing
		}
		if v.HGT {
			notes.add("%s, after batch %d: %s", v.Name, batch, e.retrain(ctx, v, batch))
		}
		if v.Pruning {
			notes.add("%s, after batch %d: %s", v.Name, batch, e.pruneAndProbe(ctx))
		}
		return nil
	}
	if len(opts.Phases) > 0 && opts.Phases[0].Name == phaseFaults {
		notes.add("faults of phase %s: %s down for every run (%d of %d APIs, chosen with seed %d); phase %s: recovered",
			phaseFaults, strings.Join(e.faults, ", "), len(e.faults), len(toolworldAPIs()), e.o.seed, phaseRecovery)
	}

	fmt.Fprintf(s.err, "\n%s: %d variant(s) × %d task run(s)\n", what, len(variants), total)
	rep, runErr := bench.Run(ctx, opts, runner)
	if len(rep.Variants) == 0 {
		return runErr // the options were refused: nothing ran
	}
	if err := bench.WriteResults(dir, rep); err != nil {
		return errors.Join(runErr, err)
	}
	log := runner.user.forReport(rep)
	if err := writeJSONFile(filepath.Join(dir, SimulatedUserFile), log); err != nil {
		return errors.Join(runErr, err)
	}
	md := filepath.Join(dir, bench.ReportMarkdown)
	if err := appendFile(md, func(w io.Writer) { writeBenchNotes(w, rep, log, notes.list(), e.o.user) }); err != nil {
		return errors.Join(runErr, err)
	}
	b, err := os.ReadFile(md)
	if err != nil {
		return errors.Join(runErr, err)
	}
	fmt.Fprintf(s.out, "\n%s\n", b)
	fmt.Fprintf(s.err, "%s: results in %s\n", what, dir)
	return runErr
}

// beforeVariant starts every variant from the same static graph: the tool world's learned
// statistics forgotten, no model active, no fault.
func (e *benchEnv) beforeVariant(ctx context.Context, v bench.Variant) error {
	if e.o.reset {
		if err := resetToolWorld(ctx, e.store); err != nil {
			return err
		}
	}
	return clearFaults(ctx, e.o.world)
}

// resetToolWorld resets the learned statistics of the tool world's APIs in store and
// deactivates the model, so that a run's figures do not depend on earlier runs; the catalog
// must have been imported.
func resetToolWorld(ctx context.Context, store *neo4j.Store) error {
	catalog := toolworld.Catalog("").Name
	n, err := store.ResetLearned(ctx, catalog)
	if err != nil {
		return fmt.Errorf("reset the %s catalog's statistics: %w", catalog, err)
	}
	if n == 0 {
		return fmt.Errorf("the graph has no API of the %s catalog: import it first (navi tools import $NAVI_TOOLWORLD_URL/catalog.json)", catalog)
	}
	return store.DeactivateModel(ctx)
}

// hgtConfig is the retraining's model: hgt.DefaultConfig, smaller and shorter so that a
// retraining fits between two batches, written out because the bench starts the retraining
// workflow by name without importing its package.
func hgtConfig(seed uint64) map[string]any {
	return map[string]any{
		"Hidden": 16, "Heads": 8, "Layers": 2, "Negatives": 5,
		"LR": 0.005, "WeightDecay": 1e-4, "Mu0": 1, "Gamma": 0.97,
		"Epochs": 30, "Patience": 5, "ValFrac": 0.1, "TestFrac": 0.1, "Seed": seed,
	}
}

// retrain runs one retraining of the graph model (the hgt variant, after a batch) and says
// how it went; a failure is reported, not returned, so that the bench goes on.
func (e *benchEnv) retrain(ctx context.Context, v bench.Variant, batch int) string {
	id := fmt.Sprintf("%s-retrain-%s-%d", e.prefix, v.Name, batch)
	rctx, cancel := context.WithTimeout(ctx, e.o.retrainTimeout)
	defer cancel()
	start := time.Now()
	run, err := e.tc.ExecuteWorkflow(rctx, client.StartWorkflowOptions{
		ID: id, TaskQueue: e.cfg.TaskQueue, WorkflowExecutionTimeout: e.o.retrainTimeout,
		StaticSummary: fmt.Sprintf("navi bench: retrain after batch %d of %s", batch, v.Name),
	}, contract.Prefixed(contract.WorkflowRetrain), map[string]any{"config": hgtConfig(e.o.seed), "max_probes": 0})
	if err != nil {
		return fmt.Sprintf("retraining failed: start %s: %v", contract.Prefixed(contract.WorkflowRetrain), err)
	}
	var res struct {
		Version    string `json:"version"`
		Activated  bool   `json:"activated"`
		Evaluation struct {
			Reason string `json:"reason"`
		} `json:"evaluation"`
	}
	if err := waitWorkflow(rctx, e.tc, run, &res); err != nil {
		return fmt.Sprintf("retraining %s failed after %s: %v", id, time.Since(start).Round(time.Second), err)
	}
	return fmt.Sprintf("retrained in %s: model %s, activated %t (%s)", time.Since(start).Round(time.Second), res.Version, res.Activated, res.Evaluation.Reason)
}

// pruneAndProbe runs targeted pruning and probing (the pruning variant, after a batch) and
// says what changed; a failure is reported, not returned.
func (e *benchEnv) pruneAndProbe(ctx context.Context) string {
	res, err := activities.PruneAndProbeNow(ctx, e.store, e.tools, activities.PruneProbeInput{})
	if err != nil {
		return fmt.Sprintf("pruning and probing failed: %v", err)
	}
	return fmt.Sprintf("pruned [%s], reactivated [%s], still down [%s]",
		strings.Join(res.Pruned, " "), strings.Join(res.Reactivated, " "), strings.Join(res.StillDown, " "))
}

// benchNotes collects what the hooks did, in order.
type benchNotes struct {
	notes []string
}

func (n *benchNotes) add(format string, args ...any) {
	n.notes = append(n.notes, fmt.Sprintf(format, args...))
}

func (n *benchNotes) list() []string { return n.notes }

// writeBenchNotes writes the Markdown sections that the bench adds to the report: the
// simulated user's figures per variant, and the hooks' notes.
func writeBenchNotes(w io.Writer, rep bench.Report, log []userRecord, notes []string, user string) {
	knows := "the gold chain's parameter records"
	if user == userPerson {
		knows = "what the person asking would know: the values the task states and the gold chain's inputs that no tool of the chain produced (not a tool-made id)"
	}
	fmt.Fprintf(w, "\n## Simulated user\n\nAnswers at most %d questions a run with %s (%s).\n\n", maxAnswers, knows, SimulatedUserFile)
	fmt.Fprintln(w, "| Variant | Runs | Runs that asked | Questions | Answered | Clarification timeouts |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, v := range rep.Variants {
		var runs, asked, questions, answered, timeouts int
		for _, o := range rep.Outcomes {
			if o.Variant != v.Name {
				continue
			}
			runs++
			if o.Result.Status == "clarification_timeout" {
				timeouts++
			}
		}
		for _, r := range log {
			if r.Variant == v.Name {
				asked++
				questions += r.Questions
				answered += r.Answered
			}
		}
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d |\n", v.Name, runs, asked, questions, answered, timeouts)
	}
	if len(notes) > 0 {
		fmt.Fprintf(w, "\n## Notes\n\n")
		for _, n := range notes {
			fmt.Fprintf(w, "- %s\n", n)
		}
	}
}

// writeJSONFile writes v as indented JSON into path.
func writeJSONFile(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// appendFile appends what write writes to the file at path.
func appendFile(path string, write func(io.Writer)) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	var b strings.Builder
	write(&b)
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
