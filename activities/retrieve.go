package activities

import (
	"context"
	"errors"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/retrieval"
	"github.com/naviagent/navi/toolcall"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/recall"
)

// The activity's input and results are the contract's: the workflows use them without
// linking this package.
type (
	RetrieveInput  = contract.RetrieveInput
	RetrieveResult = contract.RetrieveResult
	Intent         = contract.Intent
	SubGoal        = contract.SubGoal
)

// Kept under their old names; see package contract.
const (
	SearchAlphaBeta     = contract.SearchAlphaBeta
	SearchHeuristic     = contract.SearchHeuristic
	SearchNone          = contract.SearchNone
	DefaultTargets      = contract.DefaultTargets
	ErrTypeNoGraphStore = contract.ErrTypeNoGraphStore
	ErrTypeBadPlan      = contract.ErrTypeBadPlan
	ErrTypeNotInGraph   = contract.ErrTypeNotInGraph
)

// GraphStore is the part of the Neo4j store the agent's activities use.
type GraphStore interface {
	Subgraph(ctx context.Context, targets []string, o neo4j.SubgraphOptions) (*twnm.Graph, error)
	RecordFeedbackOnce(ctx context.Context, key string, invs []twnm.Invocation, trs []twnm.Transition) (bool, error)
	RecordGoals(ctx context.Context, key string, uses []neo4j.GoalUse, now time.Time) error
	ForgetGoals(ctx context.Context, key string) (int, error)
	AddOutputs(ctx context.Context, observed map[string][]twnm.Param) (int, error)
	ReadTx(ctx context.Context, what string, fn func(neo4j.Reads) error) error
}

// Retrieve finds the tools the request needs and their plans: the retrieval service
// (retrieval.Retrieve) over the worker's graph store, with Temporal's error types. A request
// it cannot read, or a subgraph that makes no plan, fails for good; Neo4j being down fails the
// attempt so that Temporal retries it.
func (a *Activities) Retrieve(ctx context.Context, in RetrieveInput) (RetrieveResult, error) {
	defer keepAlive(ctx)()
	if a.Store == nil || a.Embedder == nil {
		return RetrieveResult{}, temporal.NewNonRetryableApplicationError("retrieve: the worker has no graph store or embedder", ErrTypeNoGraphStore, nil)
	}
	res, err := retrieval.Retrieve(ctx, a.Store, a.Embedder, in)
	var (
		inputErr *retrieval.InputError
		planErr  *retrieval.PlanError
		storeErr *retrieval.StoreError
	)
	switch {
	case errors.As(err, &inputErr):
		return RetrieveResult{}, temporal.NewNonRetryableApplicationError(inputErr.Error(), ErrTypeInvalidInput, nil)
	case errors.As(err, &planErr):
		return RetrieveResult{}, temporal.NewNonRetryableApplicationError(planErr.Error(), ErrTypeBadPlan, planErr.Err)
	case errors.As(err, &storeErr):
		return RetrieveResult{}, graphError(storeErr.Err)
	case err != nil:
		return RetrieveResult{}, err
	}
	if a.Tools != nil {
		dropUncallable(&res, a.Tools)
	}
	log := activity.GetLogger(ctx)
	switch {
	case res.Refused != "":
		log.Info("refused the chosen final step", "final", res.Final, "why", res.Refused)
	case len(res.Candidates) == 0:
		log.Info("no relevant tool", "subGoals", len(res.SubGoals), "floor", recall.DefaultFloor)
	default:
		log.Info("retrieved candidates", "subGoals", len(res.SubGoals), "final", res.Final, "branches", res.Branches,
			"candidates", len(res.Candidates), "subgraphAPIs", res.SubgraphAPIs, "extracted", len(res.Extracted))
	}
	return res, nil
}

// dropUncallable leaves out the candidates whose plan calls an API this worker cannot
// authorize, its secret not set: that call would fail as not callable, the run would recombine
// through siblings that need the same secret, and then ask the user for an input no call could
// use. When no candidate is left, Refused says which secret is missing and where to set it, and
// the run ends saying so. A worker without a tool client (one that only reads the graph)
// leaves the candidates to the worker that calls.
func dropUncallable(res *RetrieveResult, tools *toolcall.Client) {
	var why string
	kept := res.Candidates[:0]
	for _, c := range res.Candidates {
		var err error
		for _, step := range c.Plan.Steps {
			if api, ok := res.APIs[step.API]; ok {
				if err = tools.CanAuthorize(api); err != nil {
					break
				}
			}
		}
		if err != nil {
			if why == "" {
				why = err.Error()
			}
			continue
		}
		kept = append(kept, c)
	}
	res.Candidates = kept
	if len(kept) == 0 && why != "" {
		res.Refused = why
	}
}
