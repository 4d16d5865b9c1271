package retrievaleval

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Ranker ranks a catalog's APIs for a query.
type Ranker interface {
	// Rank returns API names of the catalog, best first, without repeats: at least the top 12
	// (the metrics read the top 10), possibly all. It is called from several goroutines at once.
	Rank(ctx context.Context, query string) ([]string, error)
}

// Planner is a Ranker that also plans: the chain of calls it would make for a query, producers
// first, the final step last. Evaluate scores it on the multi-step tasks whose gold chain is
// ordered (Task.Ordered): is the plan the gold chain, call for call, in order (in any order
// where the task says so: Task.AnyOrder)?
type Planner interface {
	Ranker
	Plan(ctx context.Context, query string) ([]string, error)
}

// RankerFunc adapts a function to Ranker.
type RankerFunc func(ctx context.Context, query string) ([]string, error)

// Rank calls f.
func (f RankerFunc) Rank(ctx context.Context, query string) ([]string, error) { return f(ctx, query) }

// Method is a retrieval method under evaluation. New builds its ranker for one set, once per
// set: it may index or embed the whole catalog there, and a method that learns from past
// requests may learn from the set's other tasks (leave-one-out), never from the one it ranks.
type Method struct {
	Name string
	Note string
	New  func(ctx context.Context, s Set) (Ranker, error)
}

// Options configures Evaluate.
type Options struct {
	// Workers is how many queries run at once; 0 means GOMAXPROCS.
	Workers int
	// Progress, when set, gets a line per (set, method) as it starts and ends, and one every
	// 10 s while its queries run.
	Progress io.Writer
	// Limit, when positive, evaluates only the first Limit tasks of each set.
	Limit int
}

// progressEvery is the least time between two progress lines of one (set, method) run.
const progressEvery = 10 * time.Second

// TopN is how many of each ranking's first names a TaskResult keeps.
const TopN = 5

// Evaluate runs every method on every set and scores the rankings. Any error of a method (of
// New, of Rank, or a ranking naming an API not in the catalog or one twice) stops it, naming
// the set, the method and the task.
func Evaluate(ctx context.Context, sets []Set, methods []Method, o Options) (Report, error) {
	if len(sets) == 0 {
		return Report{}, errors.New("retrieval eval: no sets")
	}
	if len(methods) == 0 {
		return Report{}, errors.New("retrieval eval: no methods")
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	rep := Report{Workers: workers, Limit: max(o.Limit, 0)}
	seen := map[string]bool{}
	for _, m := range methods {
		switch {
		case m.Name == "":
			return Report{}, errors.New("retrieval eval: a method has no name")
		case seen[m.Name]:
			return Report{}, fmt.Errorf("retrieval eval: method %s listed twice", m.Name)
		case m.New == nil:
			return Report{}, fmt.Errorf("retrieval eval: method %s has no New", m.Name)
		}
		seen[m.Name] = true
		rep.Methods = append(rep.Methods, MethodInfo{Name: m.Name, Note: m.Note})
	}
	clear(seen)
	for _, s := range sets {
		if seen[s.Name] {
			return Report{}, fmt.Errorf("retrieval eval: set %s listed twice", s.Name)
		}
		seen[s.Name] = true
		tasks := s.Tasks
		if o.Limit > 0 && len(tasks) > o.Limit {
			tasks = tasks[:o.Limit]
		}
		if len(tasks) == 0 {
			return Report{}, fmt.Errorf("retrieval eval: set %s has no tasks", s.Name)
		}
		rep.Sets = append(rep.Sets, SetInfo{Name: s.Name, Tasks: len(tasks), Total: len(s.Tasks), APIs: len(s.Catalog.APIs), Note: s.Note})
		known := apiNames(s.Catalog)
		for _, m := range methods {
			res, err := evaluateOne(ctx, s, tasks, m, known, workers, o.Progress)
			if err != nil {
				return Report{}, err
			}
			rep.Results = append(rep.Results, res)
		}
	}
	return rep, nil
}

// evaluateOne builds one method's ranker for one set and ranks the tasks.
func evaluateOne(ctx context.Context, s Set, tasks []Task, m Method, known map[string]bool, workers int, progress io.Writer) (Result, error) {
	var mu sync.Mutex // say is called from the workers too
	say := func(format string, args ...any) {
		if progress != nil {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(progress, format+"\n", args...)
		}
	}
	say("%s (%d tasks, %d APIs) × %s: building", s.Name, len(tasks), len(s.Catalog.APIs), m.Name)
	start := time.Now()
	r, err := m.New(ctx, s)
	if err != nil {
		return Result{}, fmt.Errorf("retrieval eval: set %s, method %s: build: %w", s.Name, m.Name, err)
	}
	if r == nil {
		return Result{}, fmt.Errorf("retrieval eval: set %s, method %s: New returned no ranker", s.Name, m.Name)
	}
	res := Result{Set: s.Name, Method: m.Name, Tasks: len(tasks), BuildSeconds: time.Since(start).Seconds()}

	start = time.Now()
	out := make([]TaskResult, len(tasks))
	// Each task's error, so that the one reported is the first task's whatever the workers'
	// timing (the others stop taking tasks at the first error).
	errs := make([]error, len(tasks))
	var failed atomic.Bool
	var next, done atomic.Int64
	last := time.Now() // of the last progress line; under mu
	var wg sync.WaitGroup
	for range min(workers, len(tasks)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(tasks) || ctx.Err() != nil || failed.Load() {
					return
				}
				t := tasks[i]
				tr, err := rankTask(ctx, r, t, known)
				if err != nil {
					errs[i] = fmt.Errorf("retrieval eval: set %s, method %s, task %s: %w", s.Name, m.Name, t.ID, err)
					failed.Store(true)
					return
				}
				out[i] = tr
				d := done.Add(1)
				if progress != nil && d < int64(len(tasks)) {
					mu.Lock()
					if now := time.Now(); now.Sub(last) >= progressEvery {
						last = now
						fmt.Fprintf(progress, "%s × %s: %d of %d tasks ranked\n", s.Name, m.Name, d, len(tasks))
					}
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return Result{}, err
		}
	}
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("retrieval eval: set %s, method %s: %w", s.Name, m.Name, err)
	}
	res.WallSeconds = time.Since(start).Seconds()
	res.PerTask = out
	scores := make([]Score, len(out))
	millis := make([]float64, len(out))
	for i, tr := range out {
		scores[i], millis[i] = tr.Score, tr.Millis
	}
	res.Metrics = Aggregate(scores, millis)
	res.MultiStep, res.ChainExact = chainExact(out)
	say("%s × %s: built in %.2fs, ranked %d tasks in %.2fs (%.1f ms/query): @1 %s  R@5 %s",
		s.Name, m.Name, res.BuildSeconds, len(tasks), res.WallSeconds, res.QueryMillis, pct(res.Hit1), pct(res.Recall5))
	return res, nil
}

// rankTask ranks one task's query and scores the ranking; a Planner also plans a multi-step
// task whose gold chain is ordered.
func rankTask(ctx context.Context, r Ranker, t Task, known map[string]bool) (TaskResult, error) {
	start := time.Now()
	ranking, err := r.Rank(ctx, t.Query)
	elapsed := time.Since(start)
	if err != nil {
		return TaskResult{}, err
	}
	var plan []string
	if p, ok := r.(Planner); ok && t.Ordered && len(t.Chain) > 1 {
		if plan, err = p.Plan(ctx, t.Query); err != nil {
			return TaskResult{}, fmt.Errorf("plan: %w", err)
		}
		if plan == nil {
			plan = []string{} // planned, and nothing found: not the same as not planned
		}
		for i, name := range plan {
			if !known[name] {
				return TaskResult{}, fmt.Errorf("plan[%d]: API %q is not in the catalog", i, name)
			}
		}
	}
	seen := make(map[string]bool, len(ranking))
	for i, name := range ranking {
		switch {
		case !known[name]:
			return TaskResult{}, fmt.Errorf("ranking[%d]: API %q is not in the catalog", i, name)
		case seen[name]:
			return TaskResult{}, fmt.Errorf("ranking[%d]: API %q ranked twice", i, name)
		}
		seen[name] = true
	}
	return TaskResult{
		ID:       t.ID,
		Query:    t.Query,
		Final:    t.Final,
		Chain:    t.Chain,
		Score:    ScoreTask(t, ranking),
		Top:      append([]string(nil), ranking[:min(TopN, len(ranking))]...),
		Plan:     plan,
		AnyOrder: t.AnyOrder,
		Millis:   float64(elapsed.Microseconds()) / 1000,
	}, nil
}

// sameCalls reports whether plan makes the calls of chain, each as often, in any order.
func sameCalls(plan, chain []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(plan)), slices.Sorted(slices.Values(chain)))
}

// chainExact counts the planned tasks and the share whose plan is their gold chain; 0 and
// nil when none was planned.
func chainExact(out []TaskResult) (int, *float64) {
	planned, exact := 0, 0
	for _, tr := range out {
		if tr.Plan == nil {
			continue
		}
		planned++
		if slices.Equal(tr.Plan, tr.Chain) || tr.AnyOrder && sameCalls(tr.Plan, tr.Chain) {
			exact++
		}
	}
	if planned == 0 {
		return 0, nil
	}
	share := float64(exact) / float64(planned)
	return planned, &share
}
