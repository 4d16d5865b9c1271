package neo4j_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/embed"
)

func build(t *testing.T, c twnm.Catalog) *twnm.Graph {
	t.Helper()
	g, err := twnm.Build(context.Background(), c, twnm.BuildOptions{Embedder: embed.Default(), APIEmbedder: stacktest.Embedder(t)})
	require.NoError(t, err)
	return g
}

// apiProps counts the statistics and edges of the APIs whose names start with prefix.
func apiProps(t *testing.T, s *neo4j.Store, prefix string) map[string]int64 {
	return countAll(t, s, prefix, map[string]string{
		"apis":    "MATCH (a:API) WHERE a.name STARTS WITH $p RETURN count(a) AS n",
		"success": "MATCH (a:API) WHERE a.name STARTS WITH $p RETURN coalesce(sum(a.success), 0) AS n",
		"then":    "MATCH (a:API)-[e:THEN]->(b:API) WHERE a.name STARTS WITH $p RETURN count(e) AS n",
		"then_n":  "MATCH (a:API)-[e:THEN]->(b:API) WHERE a.name STARTS WITH $p RETURN coalesce(sum(e.count), 0) AS n",
		"feeds_n": "MATCH (:API)-[:OUTPUTS]->(p:Param)-[e:FEEDS]->(q:Param) WHERE p.name STARTS WITH $p RETURN coalesce(sum(e.count), 0) AS n",
		"inputs":  "MATCH (:Param)-[e:INPUT_OF]->(a:API) WHERE a.name STARTS WITH $p RETURN count(e) AS n",
		"renamed": "MATCH (a:API) WHERE a.name STARTS WITH $p AND a.description STARTS WITH 'v2' RETURN count(a) AS n",
	})
}

// forget deletes catalog from the test store when t ends: the store outlives the test, and
// other packages' tests retrieve from it (a test catalog's weather API would compete with the
// tool world's for "the current weather in Paris").
func forget(t testing.TB, s *neo4j.Store, catalog string) {
	t.Cleanup(func() { _, _ = s.DeleteCatalog(context.Background(), catalog) })
}

// importCatalog builds c (build) and imports it into s, to be deleted when t ends (forget);
// it returns the graph it built.
func importCatalog(t *testing.T, s *neo4j.Store, c twnm.Catalog) *twnm.Graph {
	t.Helper()
	g := build(t, c)
	_, err := s.Import(context.Background(), g, c.Name)
	forget(t, s, c.Name)
	require.NoError(t, err)
	return g
}

// imported opens the test store and imports catalog(prefix) under a fresh prefix.
func imported(t *testing.T) (*neo4j.Store, context.Context, string, twnm.Catalog) {
	t.Helper()
	s := stacktest.Store(t)
	prefix := stacktest.UniqueName("t") + "_"
	c := catalog(prefix)
	importCatalog(t, s, c)
	return s, context.Background(), prefix, c
}

func feedbackOf(prefix string, ok bool, at time.Time) ([]twnm.Invocation, []twnm.Transition) {
	p := func(n string) string { return prefix + n }
	return []twnm.Invocation{
			{API: p("Geocode"), Inputs: []string{p("city")}, Success: true, Time: at},
			{API: p("Weather"), Inputs: []string{p("lat"), p("lon")}, Success: ok, Time: at},
		}, []twnm.Transition{
			{Kind: twnm.Then, From: p("Geocode"), To: p("Weather"), Success: ok, Time: at},
			// lat feeds lat within one unified node (no edge); lon feeding units is a FEEDS edge.
			{Kind: twnm.Feeds, From: p("Geocode"), To: p("Weather"), FromParam: p("lat"), ToParam: p("lat"), Success: ok, Time: at},
			{Kind: twnm.Feeds, From: p("Geocode"), To: p("Weather"), FromParam: p("lon"), ToParam: p("units"), Success: ok, Time: at},
		}
}

func TestImportFailingMidwayLeavesTheGraphUntouched(t *testing.T) {
	s, ctx, prefix, _ := imported(t)
	invs, trs := feedbackOf(prefix, true, time.Now())
	require.NoError(t, s.RecordFeedback(ctx, invs, trs))
	before := apiProps(t, s, prefix)
	require.Equal(t, int64(3), before["apis"])

	// v2 rewrites every description and adds an API; its import dies after the second batch.
	v2 := catalog(prefix)
	for i := range v2.APIs {
		v2.APIs[i].Description = "v2 " + v2.APIs[i].Description
	}
	v2.APIs = append(v2.APIs, twnm.API{Name: prefix + "Extra", Inputs: []twnm.Param{{Name: prefix + "city", Required: true}}})
	crash := errors.New("worker lost its connection")
	neo4j.SetAfterBatch(t, func(batch int) error {
		if batch == 2 {
			return crash
		}
		return nil
	})
	_, err := s.Import(ctx, build(t, v2), v2.Name)
	forget(t, s, v2.Name)
	require.ErrorIs(t, err, crash)
	assert.Equal(t, before, apiProps(t, s, prefix), "nothing of the failed import is visible")

	neo4j.SetAfterBatch(t, nil)
	_, err = s.Import(ctx, build(t, v2), v2.Name)
	forget(t, s, v2.Name)
	require.NoError(t, err)
	after := apiProps(t, s, prefix)
	assert.Equal(t, int64(4), after["apis"])
	assert.Equal(t, int64(3), after["renamed"])
	assert.Equal(t, before["success"], after["success"], "re-import keeps statistics")
	assert.Equal(t, before["then_n"], after["then_n"], "re-import keeps behavioural edges")
}

func TestImportRemovesStaleStructuralEdges(t *testing.T) {
	s, ctx, prefix, c := imported(t)
	require.Equal(t, int64(6), apiProps(t, s, prefix)["inputs"])

	c.APIs[1].Inputs = c.APIs[1].Inputs[:2] // Weather loses its optional units
	_, err := s.Import(ctx, build(t, c), c.Name)
	forget(t, s, c.Name)
	require.NoError(t, err)
	assert.Equal(t, int64(5), apiProps(t, s, prefix)["inputs"])
}

func TestConcurrentFeedbackLosesNoIncrement(t *testing.T) {
	s, ctx, prefix, _ := imported(t)

	const writers, runs = 8, 20
	var wg sync.WaitGroup
	errs := make(chan error, writers*runs)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; r < runs; r++ {
				invs, trs := feedbackOf(prefix, r%4 != 0, time.Now())
				errs <- s.RecordFeedback(ctx, invs, trs)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	got := apiProps(t, s, prefix)
	assert.Equal(t, int64(writers*runs*2-writers*runs/4), got["success"], "Geocode always succeeds, Weather 3 in 4")
	assert.Equal(t, int64(1), got["then"], "one THEN edge, however many writers created it at once")
	assert.Equal(t, int64(writers*runs), got["then_n"])
	assert.Equal(t, int64(writers*runs), got["feeds_n"])

	// Eq. 4 on the stored weight: successful transitions over all calls of Weather.
	g, err := s.Subgraph(ctx, []string{prefix + "Weather"}, neo4j.SubgraphOptions{})
	require.NoError(t, err)
	weather, _ := g.APIByName(prefix + "Weather")
	geocode, ok := g.APIByName(prefix + "Geocode")
	require.True(t, ok, "the producer is read with the target")
	then, ok := g.Edge(twnm.Then, geocode, weather)
	require.True(t, ok)
	assert.Equal(t, int64(writers*runs*3/4), then.Success)
	assert.InDelta(t, 0.75, then.Weight, 1e-9)
}

func TestFeedbackNamingAnUnknownAPIWritesNothing(t *testing.T) {
	s, ctx, prefix, _ := imported(t)
	invs, trs := feedbackOf(prefix, true, time.Now())
	invs = append(invs, twnm.Invocation{API: prefix + "Ghost", Success: true, Time: time.Now()})
	err := s.RecordFeedback(ctx, invs, trs)
	require.ErrorContains(t, err, "1 of 3 rows name an API or parameter the graph does not have")
	assert.Equal(t, int64(0), apiProps(t, s, prefix)["success"])
}

func TestVectorRetrievalAndSubgraph(t *testing.T) {
	s, ctx, prefix, c := imported(t)

	desc := c.APIs[1].Description // Weather's
	vecs, err := stacktest.Embedder(t).Embed(ctx, []string{prefix + "Weather. " + desc})
	require.NoError(t, err)
	top, err := s.TopAPIs(ctx, vecs[0], 3)
	require.NoError(t, err)
	require.NotEmpty(t, top)
	assert.Equal(t, prefix+"Weather", top[0].Name)

	g, err := s.Subgraph(ctx, []string{prefix + "Weather"}, neo4j.SubgraphOptions{})
	require.NoError(t, err)
	target, ok := g.APIByName(prefix + "Weather")
	require.True(t, ok)
	sub, err := twnm.DefaultAlphaBeta().Search(ctx, g, twnm.SearchRequest{Target: target, Known: map[string]string{prefix + "city": "Paris"}})
	require.NoError(t, err)
	plan, err := sub.Plan(g, map[string]string{prefix + "city": "Paris"})
	require.NoError(t, err)
	require.Len(t, plan.Steps, 2)
	assert.Equal(t, prefix+"Geocode", plan.Steps[0].API, "the graph read from Neo4j yields the chain")
	assert.Empty(t, plan.Missing())

	require.NoError(t, s.SetStatus(ctx, prefix+"Weather", twnm.Pruned))
	top, err = s.TopAPIs(ctx, vecs[0], 3)
	require.NoError(t, err)
	for _, m := range top {
		assert.NotEqual(t, prefix+"Weather", m.Name, "pruned APIs are not retrieved")
	}
	require.NoError(t, s.SetStatus(ctx, prefix+"Weather", twnm.Active))
	require.ErrorContains(t, s.SetStatus(ctx, prefix+"Nope", twnm.Pruned), "no such API")
}

func TestPredictionsAndModelSwitch(t *testing.T) {
	s, ctx, prefix, _ := imported(t)
	version := stacktest.UniqueName("v")

	n, err := s.WritePredictions(ctx, version, []neo4j.Prediction{
		{Kind: twnm.Then, From: prefix + "Geocode", To: prefix + "Weather", Weight: 0.9},
		{Kind: twnm.Then, From: prefix + "Geocode", To: prefix + "Restaurants", Weight: 0.6}, // a missing edge
		{Kind: twnm.Then, From: prefix + "Ghost", To: prefix + "Weather", Weight: 0.5},
	})
	require.NoError(t, err)
	assert.Equal(t, 2, n, "the prediction naming an unknown API is skipped")

	read := func() (*twnm.Graph, *twnm.Edge, *twnm.Edge) {
		g, err := s.Subgraph(ctx, []string{prefix + "Weather", prefix + "Restaurants"}, neo4j.SubgraphOptions{})
		require.NoError(t, err)
		geo, _ := g.APIByName(prefix + "Geocode")
		w, _ := g.APIByName(prefix + "Weather")
		r, _ := g.APIByName(prefix + "Restaurants")
		e1, ok1 := g.Edge(twnm.Then, geo, w)
		e2, ok2 := g.Edge(twnm.Then, geo, r)
		require.True(t, ok1 && ok2)
		return g, e1, e2
	}
	if active, _ := s.ActiveModel(ctx); active != version {
		_, e1, _ := read()
		assert.False(t, e1.HasPrediction && e1.Predicted == 0.9, "an inactive version is not read")
	}
	require.NoError(t, s.ActivateModel(ctx, version))
	active, err := s.ActiveModel(ctx)
	require.NoError(t, err)
	assert.Equal(t, version, active)
	_, e1, e2 := read()
	assert.True(t, e1.HasPrediction)
	assert.Equal(t, 0.9, e1.Predicted)
	assert.Equal(t, 0.6, e2.Strength(), "a predicted missing edge carries its predicted weight")
	assert.Zero(t, e2.Count)

	_, err = s.WritePredictions(ctx, "v1'}) DETACH DELETE n //", nil)
	require.ErrorContains(t, err, "want 1 to 64 letters")
}

func TestSchemaMismatch(t *testing.T) {
	s := stacktest.Store(t)
	err := s.EnsureSchema(context.Background(), neo4j.SchemaOptions{Embedder: "other-embedder-8", Dim: 8})
	require.ErrorIs(t, err, neo4j.ErrSchemaMismatch)
	assert.Contains(t, err.Error(), fmt.Sprintf("%d-dimensional", stacktest.Embedder(t).Dim()))
	assert.Contains(t, err.Error(), "navi graph reembed")
}

func TestSnapshot(t *testing.T) {
	s, ctx, prefix, c := imported(t)
	invs, trs := feedbackOf(prefix, true, time.Now())
	require.NoError(t, s.RecordFeedback(ctx, invs, trs))

	g, err := s.Snapshot(ctx)
	require.NoError(t, err)
	id, ok := g.APIByName(prefix + "Geocode")
	require.True(t, ok)
	assert.Equal(t, int64(1), g.Node(id).Success)
	assert.Equal(t, c.APIs[0], *g.Node(id).API, "the catalog entry round-trips")
	// The day buckets come back as the sliding window: one call today, no failure, so Eq. 13
	// gives λ·σ(0) + (1−λ)·σ(1/1) = 0.25 + 0.5·0.731059 (0.75 if the window were lost).
	assert.InDelta(t, 0.25+0.5/(1+math.Exp(-1)), g.PruneScore(id, time.Now(), twnm.DefaultPrune), 1e-9)
	lat, ok := g.ParamOf(prefix+"Weather", prefix+"lat", true)
	require.True(t, ok)
	assert.Equal(t, int64(1), g.Node(lat).Success)
}

// An import that would change APIs of another catalog is refused and changes nothing; with
// Replace it takes them over and resets what was learned about them.
func TestImportRefusesAnotherCatalogsAPIs(t *testing.T) {
	s, ctx, prefix, c := imported(t)
	invs, trs := feedbackOf(prefix, true, time.Now())
	require.NoError(t, s.RecordFeedback(ctx, invs, trs))
	before := apiProps(t, s, prefix)
	require.Positive(t, before["success"])

	other := c
	other.Name = prefix + "other"
	other.APIs = append([]twnm.API(nil), c.APIs[:2]...)
	other.APIs[0].Description = "v2 " + other.APIs[0].Description
	_, err := s.Import(ctx, build(t, other), other.Name)
	forget(t, s, other.Name)
	var conflict *neo4j.CatalogConflictError
	require.ErrorAs(t, err, &conflict)
	assert.Equal(t, 2, conflict.Total)
	assert.Equal(t, []string{prefix + "Geocode", prefix + "Weather"}, conflict.APIs)
	assert.Equal(t, []string{c.Name, c.Name}, conflict.Owners)
	assert.ErrorContains(t, err, "import with -replace to take them over")
	assert.Equal(t, before, apiProps(t, s, prefix), "the refused import changed nothing")

	st, err := s.ImportWith(ctx, build(t, other), other.Name, neo4j.ImportOptions{Replace: true})
	require.NoError(t, err)
	assert.Equal(t, []string{prefix + "Geocode", prefix + "Weather"}, st.Replaced)
	after := apiProps(t, s, prefix)
	assert.Equal(t, int64(1), after["renamed"], "the new entry is written")
	assert.Zero(t, after["success"], "what was learned about the old tools is gone")
	assert.Zero(t, after["then"])
}

// A changed endpoint within one catalog resets what was learned about that API only.
func TestImportResetsAChangedEndpoint(t *testing.T) {
	s := stacktest.Store(t)
	ctx := context.Background()
	prefix := stacktest.UniqueName("t") + "_"
	c := catalog(prefix)
	for i := range c.APIs {
		c.APIs[i].Endpoint = &twnm.Endpoint{Method: "GET", BaseURL: "https://tools.example", Path: "/" + c.APIs[i].Name}
	}
	_, err := s.Import(ctx, build(t, c), c.Name)
	forget(t, s, c.Name)
	require.NoError(t, err)
	invs, trs := feedbackOf(prefix, true, time.Now())
	require.NoError(t, s.RecordFeedback(ctx, invs, trs))

	st, err := s.Import(ctx, build(t, c), c.Name)
	forget(t, s, c.Name)
	require.NoError(t, err)
	assert.Empty(t, st.Reset, "the same catalog again resets nothing")
	assert.Positive(t, apiProps(t, s, prefix)["success"])

	c.APIs[1].Endpoint = &twnm.Endpoint{Method: "GET", BaseURL: "https://other.example", Path: "/weather"}
	st, err = s.Import(ctx, build(t, c), c.Name)
	forget(t, s, c.Name)
	require.NoError(t, err)
	assert.Equal(t, []string{prefix + "Weather"}, st.Reset)
	n, err := neo4j.QueryCount(ctx, s, "MATCH (a:API {name: $n}) RETURN a.success AS n", map[string]any{"n": prefix + "Weather"})
	require.NoError(t, err)
	assert.Zero(t, n, "Weather's record is another tool's")
	n, err = neo4j.QueryCount(ctx, s, "MATCH (a:API {name: $n}) RETURN a.success AS n", map[string]any{"n": prefix + "Geocode"})
	require.NoError(t, err)
	assert.Equal(t, int64(1), n, "Geocode keeps its own")
	assert.Zero(t, apiProps(t, s, prefix)["then"], "the THEN edge into Weather is gone")
}

// A source is known by its name and its origin: an import of all of it retires the APIs it no
// longer has (kept, out of retrieval) and brings back those it has again; another origin
// under the same name is refused unless Replace; Sources counts them; DeleteCatalog removes
// the source whole.
func TestImportOfAWholeSource(t *testing.T) {
	s := stacktest.Store(t)
	ctx := context.Background()
	prefix := stacktest.UniqueName("t") + "_"
	c := catalog(prefix)
	forget(t, s, c.Name)
	whole := neo4j.ImportOptions{Whole: true, Origin: "tools.example"}
	_, err := s.ImportWith(ctx, build(t, c), c.Name, whole)
	require.NoError(t, err)
	invs, trs := feedbackOf(prefix, true, time.Now())
	require.NoError(t, s.RecordFeedback(ctx, invs, trs))

	fewer := c
	fewer.APIs = append([]twnm.API(nil), c.APIs[:len(c.APIs)-1]...)
	gone := c.APIs[len(c.APIs)-1].Name
	st, err := s.ImportWith(ctx, build(t, fewer), c.Name, whole)
	require.NoError(t, err)
	assert.Equal(t, []string{gone}, st.Retired)
	status := func(api string) string {
		n, err := neo4j.QueryCount(ctx, s, "MATCH (a:API {name: $n}) RETURN CASE a.status WHEN 'retired' THEN 1 WHEN 'active' THEN 2 ELSE 0 END AS n", map[string]any{"n": api})
		require.NoError(t, err)
		return [...]string{"other", "retired", "active"}[n]
	}
	assert.Equal(t, "retired", status(gone))
	for _, text := range []string{gone, c.APIs[len(c.APIs)-1].Description} {
		hits, err := s.RecallSource(false).Lexical(ctx, text, 50)
		require.NoError(t, err)
		for _, h := range hits {
			assert.NotEqual(t, gone, h.Name, "a retired API is out of retrieval")
		}
	}
	sources, err := s.Sources(ctx)
	require.NoError(t, err)
	i := slices.IndexFunc(sources, func(x neo4j.Source) bool { return x.Name == c.Name })
	require.GreaterOrEqual(t, i, 0)
	assert.Equal(t, neo4j.Source{Name: c.Name, Origin: "tools.example", APIs: len(c.APIs), Active: len(c.APIs) - 1, Retired: 1}, sources[i])

	st, err = s.ImportWith(ctx, build(t, c), c.Name, whole)
	require.NoError(t, err)
	assert.Empty(t, st.Retired)
	assert.Equal(t, "active", status(gone), "imported again, it is back")

	_, err = s.ImportWith(ctx, build(t, c), c.Name, neo4j.ImportOptions{Whole: true, Origin: "HOSTNAME"})
	var conflict *neo4j.SourceConflictError
	require.ErrorAs(t, err, &conflict)
	assert.ErrorContains(t, err, "source "+c.Name+" holds the APIs of tools.example, not HOSTNAME: import under another name (-as), or with -replace to take the source over")
	_, err = s.ImportWith(ctx, build(t, c), c.Name, neo4j.ImportOptions{Whole: true, Origin: "HOSTNAME", Replace: true})
	require.NoError(t, err)

	n, err := s.DeleteCatalog(ctx, c.Name)
	require.NoError(t, err)
	assert.Equal(t, len(c.APIs), n)
	sources, err = s.Sources(ctx)
	require.NoError(t, err)
	assert.False(t, slices.ContainsFunc(sources, func(x neo4j.Source) bool { return x.Name == c.Name }), "removed whole")
}
