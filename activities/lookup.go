package activities

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/neo4j"
)

// The activity's input and results are the contract's: the workflows use them without
// linking this package.
type (
	LookupToolsInput  = contract.LookupToolsInput
	LookupToolsResult = contract.LookupToolsResult
)

// GraphReader is the part of the tool graph store the lookup needs.
type GraphReader interface {
	FindAPIs(ctx context.Context, query string, limit int) ([]neo4j.APIMatch, error)
	Counts(ctx context.Context) (neo4j.Counts, error)
}

// Error types of non-retryable activity failures, as seen in the workflow history.
const (
	ErrTypeInvalidInput = contract.ErrTypeInvalidInput
	ErrTypeGraphAuth    = contract.ErrTypeGraphAuth
	DefaultLookupLimit  = 5
	maxLookupLimit      = 50
)

// LookupTools reads the tool graph in Neo4j: the APIs whose name or description mention the
// query's words, best first, and the graph's size. A Neo4j that is down fails the attempt so
// that Temporal retries it; rejected credentials or an empty query fail it for good.
func (a *Activities) LookupTools(ctx context.Context, in LookupToolsInput) (LookupToolsResult, error) {
	if strings.TrimSpace(in.Query) == "" {
		return LookupToolsResult{}, temporal.NewNonRetryableApplicationError("query is empty", ErrTypeInvalidInput, nil)
	}
	limit := in.Limit
	if limit <= 0 {
		limit = DefaultLookupLimit
	}
	limit = min(limit, maxLookupLimit)

	counts, err := a.Graph.Counts(ctx)
	if err != nil {
		return LookupToolsResult{}, graphError(err)
	}
	tools, err := a.Graph.FindAPIs(ctx, in.Query, limit)
	if err != nil {
		return LookupToolsResult{}, graphError(err)
	}
	activity.GetLogger(ctx).Info("looked up tools", "matches", len(tools), "graphAPIs", counts.APIs)
	return LookupToolsResult{Terms: neo4j.Terms(in.Query), Tools: tools, Graph: counts}, nil
}

// graphError marks failures no retry can fix as non-retryable.
func graphError(err error) error {
	if errors.Is(err, neo4j.ErrUnauthorized) {
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeGraphAuth, err)
	}
	return fmt.Errorf("read tool graph: %w", err)
}
