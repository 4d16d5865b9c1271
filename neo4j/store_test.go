package neo4j_test

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/embed"
)

func TestOpenErrors(t *testing.T) {
	ctx := context.Background()
	good := stacktest.Neo4jOptions(t)

	t.Run("wrong password", func(t *testing.T) {
		o := good
		o.Password = "not-the-password"
		_, err := neo4j.Open(ctx, o)
		require.ErrorIs(t, err, neo4j.ErrUnauthorized)
		assert.Contains(t, err.Error(), "NAVI_NEO4J_PASSWORD")
		assert.NotContains(t, err.Error(), "not-the-password", "the password must never appear in errors")
	})
	t.Run("nothing listening", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		addr := l.Addr().String()
		require.NoError(t, l.Close())
		_, err = neo4j.Open(ctx, neo4j.Options{URI: "bolt://" + addr, User: "neo4j", Password: "x", Timeout: 2 * time.Second})
		require.ErrorIs(t, err, neo4j.ErrUnavailable)
		assert.Contains(t, err.Error(), "make up")
	})
}

// catalog returns three APIs whose names start with prefix, chained through shared parameters:
// Geocode -> (lat, lon) -> Weather and Restaurants. Their descriptions carry the words
// word(prefix, "geocode"), word(prefix, "weather") and word(prefix, "restaurants").
func catalog(prefix string) twnm.Catalog {
	p := func(n string) string { return prefix + n }
	w := func(n string) string { return word(prefix, n) + " " }
	// The parameters have descriptions, as real catalogs do: without them the random prefix
	// is most of each parameter's text, and about one prefix in seven makes two different
	// parameters (city, restaurant_ids) embed alike enough to share a node.
	lat := twnm.Param{Name: p("lat"), Description: "latitude in degrees"}
	lon := twnm.Param{Name: p("lon"), Description: "longitude in degrees"}
	typed := func(q twnm.Param, typ string) twnm.Param { q.Type = typ; return q }
	required := func(q twnm.Param) twnm.Param { q.Required = true; return q }
	return twnm.Catalog{Name: p("cat"), APIs: []twnm.API{
		{Name: p("Geocode"), Provider: p("maps"), Description: w("geocode") + "turns a city into coordinates",
			Inputs:  []twnm.Param{{Name: p("city"), Type: "string", Required: true, Description: "the name of a city"}},
			Outputs: []twnm.Param{typed(lat, "number"), typed(lon, "number")}},
		{Name: p("Weather"), Provider: p("maps"), Description: w("weather") + "current weather at coordinates",
			Inputs:  []twnm.Param{required(lat), required(lon), {Name: p("units"), Description: "metric or imperial"}},
			Outputs: []twnm.Param{{Name: p("temperature"), Description: "the air temperature"}}},
		{Name: p("Restaurants"), Provider: p("dine"), Description: w("restaurants") + w("weather") + "places to eat near coordinates",
			Inputs:  []twnm.Param{required(lat), required(lon)},
			Outputs: []twnm.Param{{Name: p("restaurant_ids"), Description: "ids of the restaurants found"}}},
	}}
}

// word is a search term unique to one test: prefix without its separator, then n.
func word(prefix, n string) string { return strings.TrimSuffix(prefix, "_") + n }

// countAll runs each query of queries, with $p bound to prefix, and returns its count n by key.
func countAll(t *testing.T, s *neo4j.Store, prefix string, queries map[string]string) map[string]int64 {
	t.Helper()
	got := map[string]int64{}
	for key, q := range queries {
		n, err := neo4j.QueryCount(context.Background(), s, q, map[string]any{"p": prefix})
		require.NoError(t, err, key)
		got[key] = n
	}
	return got
}

// ownGraph counts the nodes and structural edges whose names start with prefix.
func ownGraph(t *testing.T, s *neo4j.Store, prefix string) map[string]int64 {
	return countAll(t, s, prefix, map[string]string{
		"apis":     "MATCH (a:API) WHERE a.name STARTS WITH $p RETURN count(a) AS n",
		"params":   "MATCH (x:Param) WHERE x.name STARTS WITH $p RETURN count(x) AS n",
		"input_of": "MATCH (:Param)-[e:INPUT_OF]->(a:API) WHERE a.name STARTS WITH $p RETURN count(e) AS n",
		"required": "MATCH (:Param)-[e:INPUT_OF {required: true}]->(a:API) WHERE a.name STARTS WITH $p RETURN count(e) AS n",
		"outputs":  "MATCH (a:API)-[e:OUTPUTS]->(:Param) WHERE a.name STARTS WITH $p RETURN count(e) AS n",
	})
}

func TestLoadCatalogIsIdempotent(t *testing.T) {
	s := stacktest.Store(t)
	ctx := context.Background()
	prefix := stacktest.UniqueName("t") + "_"
	cat := catalog(prefix)

	// Six parameters, unless clustering merges two: the random prefix every name shares can
	// make two names alike enough (about one prefix in eleven), so the count is Build's.
	g, err := twnm.Build(ctx, cat, twnm.BuildOptions{Embedder: embed.Default()})
	require.NoError(t, err)
	params := len(g.Nodes()) - len(g.APIs())
	require.Contains(t, []int{5, 6}, params)

	stats, err := s.LoadCatalog(ctx, cat)
	require.NoError(t, err)
	assert.Equal(t, neo4j.LoadStats{APIs: 3, Params: params, Inputs: 6, Outputs: 4, Added: 3}, stats)
	want := map[string]int64{"apis": 3, "params": int64(params), "input_of": 6, "required": 5, "outputs": 4}
	assert.Equal(t, want, ownGraph(t, s, prefix))

	stats, err = s.LoadCatalog(ctx, cat)
	require.NoError(t, err)
	assert.Equal(t, want, ownGraph(t, s, prefix), "loading the same catalog twice changes nothing")
	assert.Equal(t, 3, stats.Unchanged, "and says so")
	assert.Zero(t, stats.Added+stats.Changed)
}

func TestLoadCatalogRejectsInvalidAndWritesNothing(t *testing.T) {
	s := stacktest.Store(t)
	prefix := stacktest.UniqueName("t") + "_"
	cat := catalog(prefix)
	cat.APIs = append(cat.APIs, twnm.API{Name: prefix + "Geocode"}) // duplicate name

	_, err := s.LoadCatalog(context.Background(), cat)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "name repeats apis[0]")
	assert.Equal(t, int64(0), ownGraph(t, s, prefix)["apis"])
}

func TestCypherInjectionIsStoredVerbatim(t *testing.T) {
	s := stacktest.Store(t)
	ctx := context.Background()
	marker := stacktest.UniqueName("inj")
	name := marker + `'}) MATCH (n) DETACH DELETE n //`
	desc := `"; MATCH (n) DETACH DELETE n; RETURN "` + " {name: $x} `backtick` \\ " + marker
	// A bystander of another catalog: an injection that ran would delete it. (Counting every
	// node would race with the other packages' tests, which share the store.)
	bystander := stacktest.UniqueName("bystander") // a name of its own: FindAPIs(marker) must find only the injected API
	_, err := s.LoadCatalog(ctx, twnm.Catalog{Name: "bystander-" + marker, APIs: []twnm.API{{Name: bystander, Description: "stays " + bystander}}})
	require.NoError(t, err)

	_, err = s.LoadCatalog(ctx, twnm.Catalog{Name: "injection", APIs: []twnm.API{{
		Name: name, Description: desc, Inputs: []twnm.Param{{Name: marker + `") DETACH DELETE p //`, Required: true}},
	}}})
	require.NoError(t, err)

	found, err := s.FindAPIs(ctx, marker, 5)
	require.NoError(t, err)
	require.Len(t, found, 1)
	assert.Equal(t, name, found[0].Name)
	assert.Equal(t, desc, found[0].Description)
	assert.Equal(t, []string{marker + `") DETACH DELETE p //`}, found[0].Inputs)

	still, err := s.FindAPIs(ctx, bystander, 5)
	require.NoError(t, err)
	require.Len(t, still, 1, "nothing was deleted")
	assert.Equal(t, bystander, still[0].Name)
}

func TestFindAPIsRanksByMatchedTerms(t *testing.T) {
	s := stacktest.Store(t)
	ctx := context.Background()
	prefix := stacktest.UniqueName("t") + "_"
	_, err := s.LoadCatalog(ctx, catalog(prefix))
	require.NoError(t, err)

	// Restaurants mentions both words; Weather one; Geocode none.
	found, err := s.FindAPIs(ctx, fmt.Sprintf("the %s and %s", word(prefix, "restaurants"), word(prefix, "weather")), 10)
	require.NoError(t, err)
	require.Len(t, found, 2)
	assert.Equal(t, prefix+"Restaurants", found[0].Name)
	assert.Equal(t, int64(2), found[0].Score)
	assert.ElementsMatch(t, []string{prefix + "lat", prefix + "lon"}, found[0].Inputs)
	assert.Equal(t, []string{prefix + "restaurant_ids"}, found[0].Outputs)
	assert.Equal(t, prefix+"Weather", found[1].Name)
	assert.Equal(t, int64(1), found[1].Score)

	limited, err := s.FindAPIs(ctx, word(prefix, "weather"), 1)
	require.NoError(t, err)
	assert.Len(t, limited, 1)

	none, err := s.FindAPIs(ctx, "the and of", 10)
	require.NoError(t, err)
	assert.Empty(t, none, "a query of stop words finds nothing")
}
