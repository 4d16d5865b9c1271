package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/naviagent/navi/toolworld"
)

// Phase is one stage of a scenario, such as the failure scenario's "baseline", "faults"
// and "recovery". Each variant runs the phases in order: Before, then the phase's tasks,
// then After.
type Phase struct {
	// Name identifies the phase in reports; it must be unique within a run.
	Name  string
	Tasks []toolworld.Task
	// Before prepares the phase (inject faults); nil for nothing. An error stops the run.
	Before func(ctx context.Context) error
	// After cleans up (remove the faults); nil for nothing. Once Before succeeded, After runs
	// even when the run stops early, like a defer, so that the stack is not left broken; it
	// then gets a context that is not cancelled, bounded by CleanupTimeout.
	After func(ctx context.Context) error
}

// CleanupTimeout bounds a phase's After when the run's context is already cancelled.
const CleanupTimeout = time.Minute

// Options configures Run.
type Options struct {
	// Variants are run one after the other, each over every task: they share the stack, so
	// running them at once would let one variant's faults or learning leak into another's.
	Variants []Variant
	// Tasks are the tasks, when the run has no phases; set either Tasks or Phases.
	Tasks []toolworld.Task
	// Phases are the stages of a scenario, run in order for each variant.
	Phases []Phase
	// Batches splits each variant's task sequence (phases concatenated) into that many
	// consecutive batches of near-equal size, for a learning curve; 0 or 1 for none. A
	// batch starts only when the previous one has finished, so batch k measures the agent
	// after it has learnt from batches 1 to k-1.
	Batches int
	// Concurrency bounds the tasks run at once; 0 or less means 1.
	Concurrency int
	// Progress receives a progress bar; nil for none.
	Progress io.Writer
	// Seed is recorded in the report (the seed the tasks were generated with).
	Seed uint64
	// Command is recorded in the report; nil records os.Args.
	Command []string
	// BeforeVariant, when set, runs before each variant's first task: reset what an
	// earlier variant learnt, or configure the stack for this one. An error stops the run.
	BeforeVariant func(ctx context.Context, v Variant) error
	// AfterBatch, when set and Batches > 1, runs after each batch of each variant (1-based
	// batch): retrain, say, before the next batch. An error stops the run.
	AfterBatch func(ctx context.Context, v Variant, batch int) error
}

// item is one task of a variant's sequence.
type item struct {
	phase int // index in the phases
	batch int // 1-based; 0 without batches
	index int // position in the sequence
	task  toolworld.Task
}

// Run runs every task under every variant through runner and reports the scored outcomes
// and metrics. Outcomes are ordered by variant then task position, whatever the order in
// which the runs finish.
//
// A Runner error is recorded in the task's outcome and the run goes on. When ctx is
// cancelled or a hook fails, Run stops starting tasks, waits for those running, and returns
// the partial report (Partial set) with the error; runs that failed because of the
// cancellation are left out rather than counted as failures.
func Run(ctx context.Context, opts Options, runner Runner) (Report, error) {
	phases, err := opts.validate(runner)
	if err != nil {
		return Report{}, err
	}
	seq := sequence(phases, opts.Batches)
	n := len(seq)
	conc := max(1, opts.Concurrency)
	slots := make([]*TaskOutcome, len(opts.Variants)*n)
	prog := newProgress(opts.Progress, len(slots))
	started := time.Now()

	runErr := func() error {
		for vi, v := range opts.Variants {
			if opts.BeforeVariant != nil {
				if err := opts.BeforeVariant(ctx, v); err != nil {
					return fmt.Errorf("bench: before variant %s: %w", v.Name, err)
				}
			}
			ex := executor{runner: runner, variant: v, phases: phases, conc: conc, prog: prog}
			if err := ex.run(ctx, seq, slots[vi*n:(vi+1)*n], opts); err != nil {
				return err
			}
		}
		return nil
	}()
	prog.finish()

	r := opts.report(phases, slots, started)
	if runErr != nil {
		r.Partial, r.Error = true, runErr.Error()
		return r, runErr
	}
	return r, nil
}

// validate checks the options and returns the phases to run: opts.Phases, or one unnamed
// phase of opts.Tasks.
func (opts Options) validate(runner Runner) ([]Phase, error) {
	if runner == nil {
		return nil, errors.New("bench: no runner")
	}
	if len(opts.Variants) == 0 {
		return nil, errors.New("bench: no variants")
	}
	names := map[string]bool{}
	for i, v := range opts.Variants {
		if v.Name == "" {
			return nil, fmt.Errorf("bench: variant %d has no name", i)
		}
		if names[v.Name] {
			return nil, fmt.Errorf("bench: duplicate variant %s", v.Name)
		}
		names[v.Name] = true
	}
	phases := opts.Phases
	switch {
	case len(opts.Phases) > 0 && len(opts.Tasks) > 0:
		return nil, errors.New("bench: set Tasks or Phases, not both")
	case len(opts.Phases) == 0:
		phases = []Phase{{Tasks: opts.Tasks}}
	}
	total := 0
	names = map[string]bool{}
	for i, p := range opts.Phases {
		if p.Name == "" {
			return nil, fmt.Errorf("bench: phase %d has no name", i)
		}
		if names[p.Name] {
			return nil, fmt.Errorf("bench: duplicate phase %s", p.Name)
		}
		names[p.Name] = true
	}
	for _, p := range phases {
		total += len(p.Tasks)
	}
	if total == 0 {
		return nil, errors.New("bench: no tasks")
	}
	if opts.Batches < 0 || opts.Batches > total {
		return nil, fmt.Errorf("bench: %d batches for %d tasks, want 0 to %d", opts.Batches, total, total)
	}
	return phases, nil
}

// sequence lays out the tasks of the phases one after the other; with batches > 1, task i
// of n goes to batch ⌊i·batches/n⌋+1, so batch sizes differ by at most one.
func sequence(phases []Phase, batches int) []item {
	var seq []item
	for pi, p := range phases {
		for _, t := range p.Tasks {
			seq = append(seq, item{phase: pi, index: len(seq), task: t})
		}
	}
	if batches > 1 {
		for i := range seq {
			seq[i].batch = i*batches/len(seq) + 1
		}
	}
	return seq
}

// report builds the report from the outcomes recorded so far.
func (opts Options) report(phases []Phase, slots []*TaskOutcome, started time.Time) Report {
	r := Report{
		Seed:        opts.Seed,
		Command:     opts.Command,
		Started:     started.UTC(),
		ElapsedS:    time.Since(started).Seconds(),
		Concurrency: max(1, opts.Concurrency),
		Variants:    opts.Variants,
		Outcomes:    []TaskOutcome{},
	}
	if r.Command == nil {
		r.Command = os.Args
	}
	if opts.Batches > 1 {
		r.Batches = opts.Batches
	}
	var phaseNames []string
	for _, p := range opts.Phases {
		r.Phases = append(r.Phases, PhaseInfo{Name: p.Name, Tasks: len(p.Tasks)})
		phaseNames = append(phaseNames, p.Name)
	}
	for _, s := range slots {
		if s != nil {
			r.Outcomes = append(r.Outcomes, *s)
		}
	}
	variants := make([]string, len(opts.Variants))
	for i, v := range opts.Variants {
		variants[i] = v.Name
	}
	r.Metrics = Summarize(r.Outcomes, variants, phaseNames, r.Batches)
	return r
}

// executor runs one variant's sequence.
type executor struct {
	runner  Runner
	variant Variant
	phases  []Phase
	conc    int
	prog    *progress
}

// run runs the phases in order, each split at batch boundaries into segments that run
// one after the other, and records each outcome in slots at its task's position.
func (ex executor) run(ctx context.Context, seq []item, slots []*TaskOutcome, opts Options) error {
	lo := 0
	for pi, p := range ex.phases {
		hi := lo
		for hi < len(seq) && seq[hi].phase == pi {
			hi++
		}
		if err := ex.phase(ctx, p, seq, slots, lo, hi, opts); err != nil {
			return err
		}
		lo = hi
	}
	return nil
}

// phase runs seq[lo:hi], the tasks of phase p, between its hooks.
func (ex executor) phase(ctx context.Context, p Phase, seq []item, slots []*TaskOutcome, lo, hi int, opts Options) (err error) {
	name := ex.variant.Name
	if p.Name != "" {
		name += "/" + p.Name
	}
	if p.Before != nil {
		if err := p.Before(ctx); err != nil {
			return fmt.Errorf("bench: %s: before: %w", name, err)
		}
	}
	if p.After != nil {
		defer func() {
			actx := ctx
			if ctx.Err() != nil {
				// Clean up even after a cancellation, or the next run finds the faults.
				var cancel context.CancelFunc
				actx, cancel = context.WithTimeout(context.WithoutCancel(ctx), CleanupTimeout)
				defer cancel()
			}
			if aerr := p.After(actx); aerr != nil {
				err = errors.Join(err, fmt.Errorf("bench: %s: after: %w", name, aerr))
			}
		}()
	}
	for start := lo; start < hi; {
		end := start + 1
		for end < hi && seq[end].batch == seq[start].batch {
			end++
		}
		if err := ex.segment(ctx, name, seq[start:end], slots[start:end]); err != nil {
			return fmt.Errorf("bench: %s: %w", name, err)
		}
		// The batch is over when the next task (maybe of the next phase) is in another.
		b := seq[start].batch
		if opts.AfterBatch != nil && b > 0 && (end == len(seq) || seq[end].batch != b) {
			if err := opts.AfterBatch(ctx, ex.variant, b); err != nil {
				return fmt.Errorf("bench: %s: after batch %d: %w", name, b, err)
			}
		}
		start = end
	}
	return nil
}

// segment runs items at most ex.conc at a time and waits for them all. It stops starting
// tasks when ctx is done and then returns ctx's error.
func (ex executor) segment(ctx context.Context, label string, items []item, slots []*TaskOutcome) error {
	sem := make(chan struct{}, ex.conc)
	var wg sync.WaitGroup
	for i, it := range items {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Go(func() {
			defer func() { <-sem }()
			if rec := ex.one(ctx, it); rec != nil {
				slots[i] = rec
				ex.prog.add(label, rec.Success)
			}
		})
	}
	wg.Wait()
	return ctx.Err()
}

// one runs a task and scores it; nil when the run failed because ctx was cancelled.
func (ex executor) one(ctx context.Context, it item) *TaskOutcome {
	start := time.Now()
	o, err := ex.runner.Run(ctx, ex.variant, it.task)
	wall := time.Since(start)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		if o.Err == "" {
			o.Err = err.Error()
		}
	}
	if o.Wall <= 0 {
		o.Wall = wall
	}
	rec := Score(it.task, o)
	rec.Variant = ex.variant.Name
	rec.Phase = ex.phases[it.phase].Name
	rec.Batch = it.batch
	rec.Index = it.index
	return &rec
}
