package activities_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/twnm"
)

func lookup(t *testing.T, g activities.GraphReader, in activities.LookupToolsInput) (activities.LookupToolsResult, error) {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	env.RegisterActivity(&activities.Activities{Graph: g})
	v, err := env.ExecuteActivity("LookupTools", in)
	if err != nil {
		return activities.LookupToolsResult{}, err
	}
	var res activities.LookupToolsResult
	require.NoError(t, v.Get(&res))
	return res, nil
}

func TestLookupToolsReadsNeo4j(t *testing.T) {
	store := stacktest.Store(t)
	word := stacktest.UniqueName("hotel")
	apis := make([]twnm.API, 7)
	for i := range apis {
		apis[i] = twnm.API{Name: fmt.Sprintf("%s_Search%d", word, i), Description: "finds a " + word}
	}
	_, err := store.LoadCatalog(context.Background(), twnm.Catalog{Name: "lookup", APIs: apis})
	require.NoError(t, err)

	res, err := lookup(t, store, activities.LookupToolsInput{Query: "find me a " + word})
	require.NoError(t, err)
	assert.Len(t, res.Tools, activities.DefaultLookupLimit, "the default limit applies")
	assert.Equal(t, []string{"find", word}, res.Terms)
	assert.Equal(t, word+"_Search0", res.Tools[0].Name, "ties are broken by name")
	assert.GreaterOrEqual(t, res.Graph.APIs, int64(7))

	res, err = lookup(t, store, activities.LookupToolsInput{Query: word, Limit: 2})
	require.NoError(t, err)
	assert.Len(t, res.Tools, 2)
}

// failingGraph answers every read with one error.
type failingGraph struct{ err error }

func (g failingGraph) FindAPIs(context.Context, string, int) ([]neo4j.APIMatch, error) {
	return nil, g.err
}
func (g failingGraph) Counts(context.Context) (neo4j.Counts, error) { return neo4j.Counts{}, g.err }

func TestLookupToolsErrors(t *testing.T) {
	tests := []struct {
		name         string
		graph        activities.GraphReader
		query        string
		wantType     string
		nonRetryable bool
	}{
		{"empty query", failingGraph{}, "  ", activities.ErrTypeInvalidInput, true},
		{"bad credentials", failingGraph{fmt.Errorf("x: %w", neo4j.ErrUnauthorized)}, "weather", activities.ErrTypeGraphAuth, true},
		{"neo4j down", failingGraph{fmt.Errorf("x: %w", neo4j.ErrUnavailable)}, "weather", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := lookup(t, tt.graph, activities.LookupToolsInput{Query: tt.query})
			require.Error(t, err)
			var appErr *temporal.ApplicationError
			require.True(t, errors.As(err, &appErr), "got %T: %v", err, err)
			assert.Equal(t, tt.nonRetryable, appErr.NonRetryable(), err.Error())
			if tt.wantType != "" {
				assert.Equal(t, tt.wantType, appErr.Type())
			}
		})
	}
}
