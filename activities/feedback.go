package activities

import (
	"context"
	"errors"
	"strings"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/twnm"
)

// FeedbackInput is what one executed chain teaches the graph.
type FeedbackInput struct {
	// Key names the chain (workflow, run and chain number): a chain is counted once however
	// often the activity is retried.
	Key         string            `json:"key"`
	Invocations []twnm.Invocation `json:"invocations"`
	Transitions []twnm.Transition `json:"transitions,omitempty"`
}

// RecordFeedback adds a chain's invocation outcomes and data flows to the graph's statistics
// in Neo4j (counts, THEN and FEEDS edges, Eq. 4 weights) in one transaction that also marks
// the chain's key, so a retried attempt never counts a chain twice. A Neo4j that is down is
// retried.
func (a *Activities) RecordFeedback(ctx context.Context, in FeedbackInput) error {
	if a.Store == nil {
		return temporal.NewNonRetryableApplicationError("feedback: the worker has no graph store", ErrTypeNoGraphStore, nil)
	}
	if strings.TrimSpace(in.Key) == "" {
		return temporal.NewNonRetryableApplicationError("feedback: the chain key is empty", ErrTypeInvalidInput, nil)
	}
	fresh, err := a.Store.RecordFeedbackOnce(ctx, in.Key, in.Invocations, in.Transitions)
	if errors.Is(err, neo4j.ErrNotInGraph) {
		// The graph lost an API the chain called (a catalog re-imported without it): no
		// retry brings it back, and the run should not wait on one.
		return temporal.NewNonRetryableApplicationError("feedback: "+err.Error(), ErrTypeNotInGraph, err)
	}
	if err != nil {
		return graphError(err)
	}
	activity.GetLogger(ctx).Info("recorded feedback", "key", in.Key, "invocations", len(in.Invocations),
		"transitions", len(in.Transitions), "alreadyRecorded", !fresh)
	return nil
}
