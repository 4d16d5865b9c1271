package neo4j_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	driver "github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/research/synth"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/bm25"
	"github.com/naviagent/navi/twnm/catalogs"
)

func TestFullTextQuery(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"the of and, please", ""},
		{"weather", "bm25_text:(weather) bm25_params:(weather)^0.3"},
		{"Weather in Paris: weather forecasts!", "bm25_text:(weather^2 pari forecast) bm25_params:(weather^2 pari forecast)^0.3"},
		{`c++ (beta) AND/OR "title"^2 user_id:*`, "bm25_text:(c beta titl 2 user id) bm25_params:(c beta titl 2 user id)^0.3"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, neo4j.TextQuery(tt.in), "%q", tt.in)
	}
}

func TestFullTextIndexIsCreated(t *testing.T) {
	stacktest.Store(t) // applies the schema
	d := testDriver(t)
	res, err := driver.ExecuteQuery(context.Background(), d,
		"SHOW FULLTEXT INDEXES YIELD name, labelsOrTypes, properties, options, state WHERE name = $name RETURN *",
		map[string]any{"name": neo4j.TextIndex}, driver.EagerResultTransformer)
	require.NoError(t, err)
	require.Len(t, res.Records, 1, "EnsureSchema creates %s", neo4j.TextIndex)
	m := res.Records[0].AsMap()
	assert.Equal(t, []any{"API"}, m["labelsOrTypes"])
	var props []any
	for _, f := range bm25.DefaultOptions().Fields {
		props = append(props, "bm25_"+f.Name)
	}
	assert.Equal(t, props, m["properties"], "one property per field of bm25.DefaultOptions")
	cfg, _ := m["options"].(map[string]any)["indexConfig"].(map[string]any)
	assert.Equal(t, "whitespace", cfg["fulltext.analyzer"])
	assert.Equal(t, false, cfg["fulltext.eventually_consistent"])
}

func TestFullTextImportWritesTokens(t *testing.T) {
	s := stacktest.Store(t)
	ctx := context.Background()
	prefix := stacktest.UniqueName("t") + "_"
	cat := catalog(prefix)
	_, err := s.LoadCatalog(ctx, cat)
	require.NoError(t, err)
	d := testDriver(t)
	t.Cleanup(func() { pruneAll(t, d, cat) })

	got := textSnapshot(t, d, prefix)
	require.Len(t, got, len(cat.APIs))
	docs := twnm.KinDocuments(cat.APIs, nil)
	for i, a := range cat.APIs {
		doc := docs[i]
		d := got[a.Name]
		assert.Equal(t, strings.Join(doc.Fields[bm25.FieldText], " "), d.text, a.Name)
		assert.Equal(t, strings.Join(doc.Fields[bm25.FieldParams], " "), d.params, a.Name)
	}
	// Restaurants' text: its name, then the words of its description, stemmed.
	assert.True(t, strings.HasPrefix(got[prefix+"Restaurants"].text, strings.TrimSuffix(prefix, "_")+" restaurant "), got[prefix+"Restaurants"].text)
	assert.True(t, strings.HasSuffix(got[prefix+"Restaurants"].text, " plac eat near coordinat"), got[prefix+"Restaurants"].text)
	// Its parameters: the names of its inputs and outputs, then what its output's description
	// says it gives.
	assert.Equal(t, strings.TrimSuffix(prefix, "_")+" lat "+strings.TrimSuffix(prefix, "_")+" lon "+strings.TrimSuffix(prefix, "_")+" restaurant id "+
		strings.Join(bm25.Tokens("ids of the restaurants found"), " "), got[prefix+"Restaurants"].params)
}

func TestFullTextWithoutTerms(t *testing.T) {
	s := stacktest.Store(t)
	ctx := context.Background()
	for _, q := range []string{"", "  ", "the and of, please", "?!"} {
		ms, err := s.TopAPIsText(ctx, q, 10, false)
		require.NoError(t, err, "%q", q)
		assert.Empty(t, ms, "%q", q)
	}
	ms, err := s.TopAPIsText(ctx, "weather", 0, false)
	require.NoError(t, err)
	assert.Empty(t, ms, "k = 0 asks for nothing")
	// Query syntax in a request is text, not Lucene operators.
	_, err = s.TopAPIsText(ctx, `weather AND "city" OR title:x^2 (a [b TO c]) -d +e ~f* \g /h/ && ||`, 5, false)
	require.NoError(t, err)
}

// TestFullTextWidens checks that filters and equal scores past the first hits the index
// gives do not cost results: the query is repeated for more hits.
func TestFullTextWidens(t *testing.T) {
	s := stacktest.Store(t)
	ctx := context.Background()
	d := testDriver(t)
	prefix := stacktest.UniqueName("t") + "_"
	w := word(prefix, "zeta")
	// Ranked: the fewer filler words, the better. The 50 best are pruned.
	ranked := twnm.Catalog{Name: prefix + "ranked"}
	for i := 0; i < 60; i++ {
		ranked.APIs = append(ranked.APIs, twnm.API{Name: fmt.Sprintf("%sR%02d", prefix, i), Description: w + strings.Repeat(" lorem", i)})
	}
	// Tied: 40 APIs of one score, imported in reverse order of name.
	tied := twnm.Catalog{Name: prefix + "tied"}
	for i := 39; i >= 0; i-- {
		tied.APIs = append(tied.APIs, twnm.API{Name: fmt.Sprintf("%sT%02d", prefix, i), Description: word(prefix, "eta") + " ipsum"})
	}
	for _, c := range []twnm.Catalog{ranked, tied} {
		_, err := s.LoadCatalog(ctx, c)
		require.NoError(t, err)
		t.Cleanup(func() { pruneAll(t, d, c) })
	}
	var best []string
	for _, a := range ranked.APIs[:50] {
		best = append(best, a.Name)
	}
	prune(t, d, best)

	got, err := s.TopAPIsText(ctx, w, 5, false)
	require.NoError(t, err)
	assert.Equal(t, []string{prefix + "R50", prefix + "R51", prefix + "R52", prefix + "R53", prefix + "R54"}, matchNames(got),
		"the best active APIs, past 50 pruned ones")

	got, err = s.TopAPIsText(ctx, word(prefix, "eta"), 3, false)
	require.NoError(t, err)
	assert.Equal(t, []string{prefix + "T00", prefix + "T01", prefix + "T02"}, matchNames(got), "equal scores: by name")
	require.Len(t, got, 3)
	assert.Equal(t, got[0].Score, got[2].Score)
}

// A text that more APIs match equally than a retrieval reads to break the tie still gets its k,
// by name among the hits read.
func TestFullTextManyTies(t *testing.T) {
	s := stacktest.Store(t)
	ctx := context.Background()
	d := testDriver(t)
	prefix := stacktest.UniqueName("t") + "_"
	w := word(prefix, "theta")
	c := twnm.Catalog{Name: prefix + "many"}
	for i := 0; i < 900; i++ {
		c.APIs = append(c.APIs, twnm.API{Name: fmt.Sprintf("%sM%03d", prefix, i), Description: w + " values"})
	}
	_, err := s.LoadCatalog(ctx, c)
	require.NoError(t, err)
	t.Cleanup(func() { pruneAll(t, d, c) })

	got, err := s.TopAPIsText(ctx, w, 3, false)
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.True(t, slices.IsSorted(matchNames(got)), "by name: %v", matchNames(got))
	for _, m := range got {
		assert.True(t, strings.HasPrefix(m.Name, prefix+"M"), m.Name)
		assert.Equal(t, got[0].Score, m.Score)
	}
}

// bm25Queries are requests for the APIs of bm25Catalog.
var bm25Queries = []string{
	"convert an RGB color code to hex",
	"validate an email address",
	"What is the latest crypto news from CoinDesk?",
	"search domains by keyword",
	"prayer time for my zone",
	"a random quote from movies and TV shows",
	"text to speech converter",
	"list movies with Rotten Tomatoes ratings",
	"phone images by id",
	"get metadata about a Spotify track",
	"detect the language of a text",
	"get a skin from a uuid",
	"jobs for React developers",
	"news news latest news",
	"products in a category",
}

// bm25Catalog is every sixth API of the StableToolBench slice in twnm/catalogs/testdata (61
// APIs), their names and parameter names prefixed; every third is callable.
func bm25Catalog(t testing.TB, prefix string) twnm.Catalog {
	stb, err := catalogs.StableToolBench("../twnm/catalogs/testdata/stabletoolbench")
	require.NoError(t, err)
	c := twnm.Catalog{Name: prefix + "stb"}
	for i, a := range stb.APIs {
		if i%6 != 0 {
			continue
		}
		a.Name = prefix + a.Name
		a.Inputs, a.Outputs = prefixed(prefix, a.Inputs), prefixed(prefix, a.Outputs)
		if len(c.APIs)%3 == 0 {
			a.Endpoint = &twnm.Endpoint{Method: "GET", BaseURL: "https://example.invalid/v1"}
			for k := range a.Inputs {
				a.Inputs[k].In = ""
			}
		}
		c.APIs = append(c.APIs, a)
	}
	return c
}

func prefixed(prefix string, ps []twnm.Param) []twnm.Param {
	out := slices.Clone(ps)
	for i := range out {
		out[i].Name = prefix + out[i].Name
	}
	return out
}

// TestFullTextMatchesBM25 checks that Neo4j's full-text index ranks as package bm25 does:
// the same top 10, scores equal to 1e-4 relative. The Go index is built from the text of every
// API node in the database, since Lucene's statistics (document counts, frequencies, average
// lengths) cover them all; the comparison is repeated if another test changed the graph
// meanwhile.
func TestFullTextMatchesBM25(t *testing.T) {
	s := stacktest.Store(t)
	ctx := context.Background()
	d := testDriver(t)
	prefix := stacktest.UniqueName("t") + "_"
	cat := bm25Catalog(t, prefix)
	_, err := s.LoadCatalog(ctx, cat)
	require.NoError(t, err)
	t.Cleanup(func() { pruneAll(t, d, cat) })
	pruned := prefix + "Cryptocurrency_News.CoinDesk"
	require.NoError(t, s.SetStatus(ctx, pruned, twnm.Pruned))
	awaitTextIndex(t, d)

	type result struct {
		query    string
		callable bool
		got      []neo4j.Match
		want     []bm25.Hit
	}
	var results []result
	var mine map[string]int // per query, how many of this test's APIs match it
	for attempt := 1; ; attempt++ {
		before := textSnapshot(t, d, "")
		ix, docs := goIndex(before)
		results, mine = nil, map[string]int{}
		for _, q := range bm25Queries {
			scores := ix.Scores(q)
			for name := range scores {
				if strings.HasPrefix(name, prefix) {
					mine[q]++
				}
			}
			for _, callable := range []bool{false, true} {
				got, err := s.TopAPIsText(ctx, q, 10, callable)
				require.NoError(t, err)
				results = append(results, result{q, callable, got, rank(scores, docs, 10, callable)})
			}
		}
		if after := textSnapshot(t, d, ""); equalSnapshots(before, after) {
			break
		}
		require.Less(t, attempt, 5, "the graph kept changing under the comparison")
	}

	var maxAbs, maxRel float64
	exact, total := 0, 0
	for _, r := range results {
		require.Equal(t, hitNames(r.want), matchNames(r.got), "%q callable=%v: Neo4j and package bm25 rank alike", r.query, r.callable)
		for i, m := range r.got {
			w := r.want[i].Score
			assert.InEpsilon(t, w, m.Score, 1e-4, "%q %s", r.query, m.Name)
			maxAbs = math.Max(maxAbs, math.Abs(m.Score-w))
			maxRel = math.Max(maxRel, math.Abs(m.Score-w)/w)
			if m.Score == w {
				exact++
			}
			total++
		}
	}
	t.Logf("%d results compared: %d bit-identical, largest difference %.3g (%.3g relative)", total, exact, maxAbs, maxRel)
	for _, q := range bm25Queries {
		assert.Positive(t, mine[q], "%q matches an API of the test's catalog", q)
	}

	// The filters: the pruned API matches its request but is never returned; callable
	// results are callable APIs only.
	all, _ := goIndex(textSnapshot(t, d, prefix))
	assert.Contains(t, all.Scores(bm25Queries[2]), pruned)
	callable := map[string]bool{}
	for _, a := range cat.APIs {
		callable[a.Name] = a.Callable()
	}
	for _, r := range results {
		assert.NotContains(t, matchNames(r.got), pruned)
		for _, m := range r.got {
			if ok, mine := callable[m.Name]; mine && r.callable {
				assert.True(t, ok, "%q: %s is not callable", r.query, m.Name)
			}
		}
	}
}

// textDoc is what the full-text index holds of an API node, and the filters' inputs.
type textDoc struct {
	text, params, status string
	callable             bool
}

// textSnapshot reads the indexed text of the API nodes whose names start with prefix.
func textSnapshot(t testing.TB, d driver.DriverWithContext, prefix string) map[string]textDoc {
	t.Helper()
	res, err := driver.ExecuteQuery(context.Background(), d, `
MATCH (a:API) WHERE a.name STARTS WITH $prefix AND (a.bm25_text IS NOT NULL OR a.bm25_params IS NOT NULL)
RETURN a.name AS name, coalesce(a.bm25_text, '') AS text, coalesce(a.bm25_params, '') AS params,
       coalesce(a.status, 'active') AS status, coalesce(a.callable, false) AS callable`,
		map[string]any{"prefix": prefix}, driver.EagerResultTransformer, driver.ExecuteQueryWithReadersRouting())
	require.NoError(t, err)
	out := make(map[string]textDoc, len(res.Records))
	for _, r := range res.Records {
		m := r.AsMap()
		out[m["name"].(string)] = textDoc{text: m["text"].(string), params: m["params"].(string),
			status: m["status"].(string), callable: m["callable"].(bool)}
	}
	return out
}

func equalSnapshots(a, b map[string]textDoc) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// goIndex indexes the stored tokens as they are: Lucene's whitespace analyzer splits them on
// spaces, and so does strings.Fields.
func goIndex(snap map[string]textDoc) (*bm25.Index, map[string]textDoc) {
	docs := make([]bm25.Document, 0, len(snap))
	for name, d := range snap {
		docs = append(docs, bm25.Document{ID: name, Fields: map[string][]string{
			bm25.FieldText: strings.Fields(d.text), bm25.FieldParams: strings.Fields(d.params)}})
	}
	return bm25.New(docs, bm25.DefaultOptions()), snap
}

// rank applies TopAPIsText's filters and order to scores.
func rank(scores map[string]float64, docs map[string]textDoc, k int, callable bool) []bm25.Hit {
	var hits []bm25.Hit
	for name, sc := range scores {
		if d := docs[name]; d.status == "active" && (!callable || d.callable) {
			hits = append(hits, bm25.Hit{ID: name, Score: sc})
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].ID < hits[j].ID
	})
	return hits[:min(k, len(hits))]
}

func hitNames(hs []bm25.Hit) []string {
	out := []string{}
	for _, h := range hs {
		out = append(out, h.ID)
	}
	return out
}

func matchNames(ms []neo4j.Match) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, m.Name)
	}
	return out
}

// testDriver opens a driver of its own on the test Neo4j, for reads the Store does not offer.
func testDriver(t testing.TB) driver.DriverWithContext {
	t.Helper()
	o := stacktest.Neo4jOptions(t)
	d, err := driver.NewDriverWithContext(o.URI, driver.BasicAuth(o.User, o.Password, ""))
	require.NoError(t, err)
	t.Cleanup(func() { _ = d.Close(context.Background()) })
	return d
}

// awaitTextIndex waits until the full-text index is online: EnsureSchema may have just created
// it over a graph that other tests filled.
func awaitTextIndex(t testing.TB, d driver.DriverWithContext) {
	t.Helper()
	_, err := driver.ExecuteQuery(context.Background(), d, "CALL db.awaitIndex($name, 120)",
		map[string]any{"name": neo4j.TextIndex}, driver.EagerResultTransformer)
	require.NoError(t, err)
}

// pruneAll takes a test's APIs out of every other test's retrieval, in one write (Store's
// SetStatus takes one transaction per API).
func pruneAll(t testing.TB, d driver.DriverWithContext, c twnm.Catalog) {
	var names []string
	for _, a := range c.APIs {
		names = append(names, a.Name)
	}
	prune(t, d, names)
}

func prune(t testing.TB, d driver.DriverWithContext, names []string) {
	_, err := driver.ExecuteQuery(context.Background(), d, "UNWIND $names AS name MATCH (a:API {name: name}) SET a.status = 'pruned'",
		map[string]any{"names": names}, driver.EagerResultTransformer, driver.ExecuteQueryWithWritersRouting())
	require.NoError(t, err)
}

// BenchmarkTopAPIsText is one text retrieval, top 10, over 2,000 synthetic APIs (imported
// once, under fixed names, so that a rerun changes nothing) besides whatever the graph holds.
func BenchmarkTopAPIsText(b *testing.B) {
	s := stacktest.Store(b)
	ctx := context.Background()
	c := synth.Catalog(2000, 2)
	c.Name = "bm25bench-2000"
	for i := range c.APIs {
		c.APIs[i].Name = "bm25bench" + c.APIs[i].Name
		c.APIs[i].Inputs = prefixed("bm25bench_", c.APIs[i].Inputs)
		c.APIs[i].Outputs = prefixed("bm25bench_", c.APIs[i].Outputs)
	}
	if _, err := s.LoadCatalog(ctx, c); err != nil {
		b.Fatal(err)
	}
	awaitTextIndex(b, testDriver(b))
	words := []string{"city", "hotel", "team", "match", "listing", "station", "restaurant", "region", "player", "forecast",
		"id", "name", "code", "score", "price", "date", "latitude", "longitude", "rating", "count"}
	queries := make([]string, 64)
	for i := range queries {
		queries[i] = fmt.Sprintf("find the %s %s and %s of domain %d", words[i%20], words[(i*7)%20], words[(i*13+5)%20], i%40)
	}
	var lat []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		if _, err := s.TopAPIsText(ctx, queries[i%len(queries)], 10, false); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
		i++
	}
	reportLatency(b, lat)
}
