package activities

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/subgoal"
)

// The activity's input and results are the contract's: the workflows use them without
// linking this package.
type (
	FeedbackInput  = contract.FeedbackInput
	FeedbackResult = contract.FeedbackResult
	GoalFeedback   = contract.GoalFeedback
)

// RecordFeedback adds a chain's invocation outcomes and data flows to the graph's statistics
// in Neo4j (counts, THEN and FEEDS edges, Eq. 4 weights) in one transaction that also marks
// the chain's key, so a retried attempt never counts a chain twice. A Neo4j that is down is
// retried. It answers with what it recorded (contract.FeedbackResult).
func (a *Activities) RecordFeedback(ctx context.Context, in FeedbackInput) (FeedbackResult, error) {
	defer keepAlive(ctx)()
	if a.Store == nil {
		return FeedbackResult{}, temporal.NewNonRetryableApplicationError("feedback: the worker has no graph store", ErrTypeNoGraphStore, nil)
	}
	if strings.TrimSpace(in.Key) == "" {
		return FeedbackResult{}, temporal.NewNonRetryableApplicationError("feedback: the chain key is empty", ErrTypeInvalidInput, nil)
	}
	fresh, err := a.Store.RecordFeedbackOnce(ctx, in.Key, in.Invocations, in.Transitions)
	if errors.Is(err, neo4j.ErrNotInGraph) {
		// The graph lost an API the chain called (a catalog re-imported without it): no
		// retry brings it back, and the run should not wait on one.
		return FeedbackResult{}, temporal.NewNonRetryableApplicationError("feedback: "+err.Error(), ErrTypeNotInGraph, err)
	}
	if err != nil {
		return FeedbackResult{}, graphError(err)
	}
	if !in.GoalsOnRating {
		if err := a.recordGoals(ctx, in); err != nil {
			return FeedbackResult{}, err
		}
	}
	forgot := 0
	for _, key := range in.Forget {
		n, err := a.Store.ForgetGoals(ctx, key)
		if err != nil {
			return FeedbackResult{}, graphError(err)
		}
		forgot += n
	}
	outputs, err := a.addObserved(ctx, in)
	if err != nil {
		return FeedbackResult{}, err
	}
	activity.GetLogger(ctx).Info("recorded feedback", "key", in.Key, "invocations", len(in.Invocations),
		"transitions", len(in.Transitions), "goals", len(in.Goals), "goalsForgotten", forgot, "outputsAdded", outputs, "alreadyRecorded", !fresh)
	return FeedbackResult{Recorded: in, Fresh: fresh}, nil
}

// addObserved adds to the APIs the outputs that the chain's successful calls saw in their
// answers and the APIs' records do not list (neo4j.Store.AddOutputs): later plans can bind
// inputs from them. Idempotent: an output already listed is not added again.
func (a *Activities) addObserved(ctx context.Context, in FeedbackInput) (int, error) {
	observed := map[string][]twnm.Param{}
	for _, inv := range in.Invocations {
		if inv.Success && len(inv.Observed) > 0 {
			observed[inv.API] = append(observed[inv.API], inv.Observed...)
		}
	}
	if len(observed) == 0 {
		return 0, nil
	}
	n, err := a.Store.AddOutputs(ctx, observed)
	if errors.Is(err, neo4j.ErrCatalogTooLarge) {
		// Nothing is lost that matters: the next import of that catalog may list them.
		activity.GetLogger(ctx).Warn("outputs the answers showed are not added", "key", in.Key, "reason", err.Error())
		return n, nil
	}
	if err != nil {
		return n, graphError(err)
	}
	if n > 0 {
		activity.GetLogger(ctx).Info("added the outputs answers showed", "key", in.Key, "apis", len(observed), "outputs", n)
	}
	return n, nil
}

// recordGoals embeds the served sub-goals and attaches them to their APIs (idempotent by the
// chain's key, in.GoalsKey or else in.Key, so a retried attempt whose counts were already
// recorded still writes them).
func (a *Activities) recordGoals(ctx context.Context, in FeedbackInput) error {
	if len(in.Goals) == 0 {
		return nil
	}
	if a.Embedder == nil {
		return temporal.NewNonRetryableApplicationError("feedback: the worker has no embedder for the served sub-goals", ErrTypeNoGraphStore, nil)
	}
	texts := make([]string, len(in.Goals))
	for i, g := range in.Goals {
		texts[i] = subgoal.Query(g.Text) // as retrieval embeds a sub-goal
	}
	vecs, err := a.Embedder.Embed(ctx, texts)
	if err != nil {
		return fmt.Errorf("feedback: embed %d sub-goals: %w", len(texts), err)
	}
	uses := make([]neo4j.GoalUse, len(in.Goals))
	for i, g := range in.Goals {
		uses[i] = neo4j.GoalUse{API: g.API, Text: g.Text, Vector: vecs[i]}
		if a.NoGoalText {
			uses[i].Text = ""
		}
	}
	if err := a.Store.RecordGoals(ctx, cmp.Or(in.GoalsKey, in.Key), uses, time.Now()); err != nil {
		return graphError(err)
	}
	return nil
}
