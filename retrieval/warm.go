package retrieval

import (
	"context"
	"errors"
	"fmt"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/twnm/embed"
)

// Defaults of WarmOptions.
const (
	// DefaultWarmRequests is how many retrievals a warm-up runs. Neo4j compiles its hot paths
	// (Cypher's runtime, Bolt, the indexes) once it has run them many times: on a 2-core
	// machine the first 300 queries after a restart took 2.1 times as long as the 300 of the
	// steady state, 1.3–1.8 times after 400 retrievals of warm-up, and no less after 1,000.
	DefaultWarmRequests = 400
	// DefaultWarmBudget bounds a warm-up's time, however slow the store.
	DefaultWarmBudget = 30 * time.Second
	// warmParallel retrievals run at once: a worker's activities run concurrently, and the
	// store's connection pool warms with them (32 at once warmed no better).
	warmParallel = 4
)

// WarmOptions sizes Warm. The zero value takes the defaults.
type WarmOptions struct {
	// Requests is how many retrievals to run (DefaultWarmRequests when 0).
	Requests int
	// Budget stops the warm-up when it has run this long (DefaultWarmBudget when 0).
	Budget time.Duration
}

// WarmStats is what a warm-up did.
type WarmStats struct {
	Retrievals int
	Elapsed    time.Duration
	// First and Last are the times of the first and the last tenth of the retrievals, each
	// over its count: how much faster the store became.
	First, Last time.Duration
}

// Warm runs Retrieve over texts, in turn, warmParallel at a time, until it has run o.Requests
// retrievals or o.Budget has passed: the store's query paths are then compiled and its caches
// filled before a user's request pays for them. It writes nothing. A text Retrieve refuses is
// passed over; a retrieval that fails otherwise (the store or the encoder down) ends the
// warm-up with its error.
func Warm(ctx context.Context, store Store, emb embed.Embedder, texts []string, o WarmOptions) (WarmStats, error) {
	if o.Requests <= 0 {
		o.Requests = DefaultWarmRequests
	}
	if o.Budget <= 0 {
		o.Budget = DefaultWarmBudget
	}
	var st WarmStats
	if len(texts) == 0 {
		return st, nil
	}
	ctx, cancel := context.WithTimeout(ctx, o.Budget)
	defer cancel()
	start := time.Now()
	tenth := max(1, o.Requests/10)
	// A tenth at a time: the first and the last are timed, and the budget is checked between.
	for st.Retrievals < o.Requests && ctx.Err() == nil {
		n := min(tenth, o.Requests-st.Retrievals)
		t0 := time.Now()
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(warmParallel)
		for i := range n {
			d := texts[(st.Retrievals+i)%len(texts)]
			g.Go(func() error {
				_, err := Retrieve(gctx, store, emb, contract.RetrieveInput{Description: d, Text: d})
				var inputErr *InputError
				var planErr *PlanError
				if err != nil && !errors.As(err, &inputErr) && !errors.As(err, &planErr) {
					return fmt.Errorf("warm the store: retrieve %q: %w", d, err)
				}
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			st.Elapsed = time.Since(start)
			if ctx.Err() != nil && errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
				return st, nil // the budget is spent
			}
			return st, err
		}
		per := time.Since(t0) / time.Duration(n)
		if st.Retrievals == 0 {
			st.First = per
		}
		st.Retrievals += n
		st.Last = per
	}
	st.Elapsed = time.Since(start)
	return st, nil
}
