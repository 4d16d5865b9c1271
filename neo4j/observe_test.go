package neo4j_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/twnm"
)

// storedAPI reads an API's record back from the store.
func storedAPI(t *testing.T, s *neo4j.Store, name string) twnm.API {
	t.Helper()
	snap, err := s.Subgraph(context.Background(), []string{name}, neo4j.SubgraphOptions{})
	require.NoError(t, err)
	id, ok := snap.APIByName(name)
	require.True(t, ok, name)
	return *snap.Node(id).API
}

func TestAddOutputsJoinsTheGraphAndKeepsWhatWasLearned(t *testing.T) {
	s, ctx, prefix, c := imported(t)
	invs, trs := feedbackOf(prefix, true, time.Now())
	require.NoError(t, s.RecordFeedback(ctx, invs, trs))
	before := apiProps(t, s, prefix)

	// The restaurants' answer names each one's city inside the list: Geocode's input.
	var answer map[string]any
	require.NoError(t, json.Unmarshal([]byte(`{"`+prefix+`restaurant_ids": [1, 2], "results": [{"`+prefix+`city": "Rome", "stars": 4}]}`), &answer))
	observed := twnm.Observe(c.APIs[2], answer)
	require.Len(t, observed, 2)
	n, err := s.AddOutputs(ctx, map[string][]twnm.Param{prefix + "Restaurants": observed, prefix + "Gone": {{Name: "x"}}})
	require.NoError(t, err)
	assert.Equal(t, 2, n)

	rest := storedAPI(t, s, prefix+"Restaurants")
	assert.Contains(t, rest.Outputs, twnm.Param{Name: prefix + "city", Type: "string", Path: "results[]." + prefix + "city"})
	joined, err := neo4j.QueryCount(ctx, s, `
MATCH (:API {name: $r})-[:OUTPUTS {param: $city}]->(p:Param)-[:INPUT_OF {param: $city}]->(:API {name: $g})
RETURN count(p) AS n`, map[string]any{"r": prefix + "Restaurants", "g": prefix + "Geocode", "city": prefix + "city"})
	require.NoError(t, err)
	assert.Equal(t, int64(1), joined, "the city the answer shows is the node Geocode takes its city from")
	after := apiProps(t, s, prefix)
	for _, k := range []string{"apis", "success", "then", "then_n", "feeds_n", "inputs"} {
		assert.Equal(t, before[k], after[k], k)
	}

	n, err = s.AddOutputs(ctx, map[string][]twnm.Param{prefix + "Restaurants": observed})
	require.NoError(t, err)
	assert.Zero(t, n, "outputs listed already are not added again")
	assert.Len(t, storedAPI(t, s, prefix+"Restaurants").Outputs, 3)
}

func TestAddOutputsRebuildsACatalogChangedMeanwhile(t *testing.T) {
	s, ctx, prefix, _ := imported(t)

	// Another writer re-imports the catalog with Weather described anew between AddOutputs'
	// read and its import: the first rebuild must not undo that.
	reads := 0
	neo4j.SetAfterObservedRead(t, func(string) error {
		reads++
		if reads == 1 {
			changed := catalog(prefix)
			changed.APIs[1].Description = "v2 " + changed.APIs[1].Description
			_, err := s.LoadCatalog(ctx, changed)
			return err
		}
		return nil
	})
	n, err := s.AddOutputs(ctx, map[string][]twnm.Param{prefix + "Geocode": {{Name: prefix + "country", Type: "string", Path: "address." + prefix + "country"}}})
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Equal(t, 2, reads, "the catalog was read again after the other import")
	assert.Equal(t, int64(1), apiProps(t, s, prefix)["renamed"], "the other writer's change stays")
	assert.Len(t, storedAPI(t, s, prefix+"Geocode").Outputs, 3)
}

// A catalog too large to rebuild keeps its records; the error says so.
func TestAddOutputsLeavesALargeCatalog(t *testing.T) {
	s, ctx, prefix, _ := imported(t)
	neo4j.SetMaxRebuildAPIs(t, 2)
	n, err := s.AddOutputs(ctx, map[string][]twnm.Param{prefix + "Geocode": {{Name: prefix + "country", Type: "string", Path: "address." + prefix + "country"}}})
	require.ErrorIs(t, err, neo4j.ErrCatalogTooLarge)
	assert.Zero(t, n)
	assert.Len(t, storedAPI(t, s, prefix+"Geocode").Outputs, 2)
}
