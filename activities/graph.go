package activities

import (
	"errors"
	"fmt"

	"go.temporal.io/sdk/temporal"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/neo4j"
)

// Error types of non-retryable activity failures, as seen in the workflow history.
const (
	ErrTypeInvalidInput = contract.ErrTypeInvalidInput
	ErrTypeGraphAuth    = contract.ErrTypeGraphAuth
)

// graphError marks failures no retry can fix as non-retryable.
func graphError(err error) error {
	if errors.Is(err, neo4j.ErrUnauthorized) {
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeGraphAuth, err)
	}
	return fmt.Errorf("read tool graph: %w", err)
}
