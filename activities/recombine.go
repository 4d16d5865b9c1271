package activities

import (
	"context"
	"errors"
	"fmt"

	"go.temporal.io/sdk/temporal"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/retrieval"
	"github.com/naviagent/navi/twnm"
)

// The activity's input and results are the contract's: the workflows use them without
// linking this package.
type (
	RecombineInput  = contract.RecombineInput
	RecombineResult = contract.RecombineResult
)

// Recombine tries one recombination strategy (NaviAgent Section 3.3) on a plan whose step
// failed after its retries. It reads the neighbourhood of the plan's APIs from Neo4j, so
// substitutes and reroutes may use APIs the plan never touched. Finding no alternative is a
// result, not an error: the workflow then tries the next strategy.
func (a *Activities) Recombine(ctx context.Context, in RecombineInput) (RecombineResult, error) {
	defer keepAlive(ctx)()
	if a.Store == nil {
		return RecombineResult{}, temporal.NewNonRetryableApplicationError("recombine: the worker has no graph store", ErrTypeNoGraphStore, nil)
	}
	if in.FailedStep < 0 || in.FailedStep >= len(in.Plan.Steps) {
		return RecombineResult{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("recombine: failed step %d is not in the %d-step plan", in.FailedStep, len(in.Plan.Steps)), ErrTypeBadPlan, nil)
	}
	switch in.Strategy {
	case twnm.StrategySubstitution, twnm.StrategyUpstreamReroute, twnm.StrategySubgraphSwitch:
	default:
		return RecombineResult{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("recombine: strategy %q is not one of %s, %s, %s", in.Strategy,
				twnm.StrategySubstitution, twnm.StrategyUpstreamReroute, twnm.StrategySubgraphSwitch), ErrTypeInvalidInput, nil)
	}
	searcher, err := retrieval.Searcher(in.Search)
	if err != nil {
		return RecombineResult{}, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeInvalidInput, nil)
	}
	g, err := a.Store.Subgraph(ctx, in.Plan.APIs(), neo4j.SubgraphOptions{})
	if err != nil {
		return RecombineResult{}, graphError(err)
	}
	// Other APIs that failed in this run are marked failed in this copy of the graph only,
	// so that no strategy brings them back.
	failed := in.Plan.Steps[in.FailedStep].API
	for _, api := range in.Exclude {
		if id, ok := g.APIByName(api); ok && api != failed {
			g.Node(id).Status = twnm.Pruned
		}
	}
	if err := twnm.ResolvePlan(in.Plan, g); err != nil {
		return RecombineResult{}, temporal.NewNonRetryableApplicationError("recombine: "+err.Error(), ErrTypeBadPlan, err)
	}
	rec, err := twnm.RecombineUsing(ctx, g, in.Plan, in.FailedStep, in.Known, searcher, in.Strategy)
	if errors.Is(err, twnm.ErrNoAlternative) {
		return RecombineResult{Strategy: in.Strategy, Reason: err.Error()}, nil
	}
	if err != nil {
		return RecombineResult{}, fmt.Errorf("recombine %s: %w", in.Strategy, err)
	}
	out := RecombineResult{Found: true, Strategy: rec.Strategy, Reason: rec.Reason, Plan: rec.Plan, APIs: map[string]twnm.API{}}
	for _, s := range rec.Plan.Steps {
		if id, ok := g.APIByName(s.API); ok && g.Node(id).API != nil {
			out.APIs[s.API] = *g.Node(id).API
		}
	}
	return out, nil
}
