package neo4j_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/embed"
	"github.com/naviagent/navi/twnm/recall"
)

func TestTopCallableAPIsSkipsAPIsWithoutEndpoint(t *testing.T) {
	s := stacktest.Store(t)
	ctx := context.Background()
	word := stacktest.UniqueName("zq")

	endpoints := []*twnm.Endpoint{
		nil,                               // a tool description only
		{Method: "GET"},                   // a method, no URL
		{Method: "GET", Path: "/" + word}, // a path, no base URL
		{Method: "GET", Path: "/" + word, BaseURL: "http://127.0.0.1:9/v1"}, // callable
		{Method: "GET", Path: "http://127.0.0.1:9/v1/" + word},              // callable: the path is a full URL
	}
	var apis []twnm.API
	callable := map[string]bool{}
	for i, ep := range endpoints {
		a := twnm.API{Name: fmt.Sprintf("%s.Op%d", word, i), Description: "Finds the " + word + " of a " + word + ".", Endpoint: ep,
			Outputs: []twnm.Param{{Name: word, Type: "string"}}}
		callable[a.Name] = a.Callable()
		apis = append(apis, a)
	}
	_, err := s.LoadCatalog(ctx, twnm.Catalog{Name: word, APIs: apis})
	require.NoError(t, err)
	// Other tests retrieve from the same graph: the callable APIs must not stay there.
	t.Cleanup(func() {
		for name, ok := range callable {
			if ok {
				_ = s.SetStatus(context.Background(), name, twnm.Pruned)
			}
		}
	})

	vecs, err := stacktest.Embedder(t).Embed(ctx, []string{"Find the " + word + " of a " + word})
	require.NoError(t, err)
	names := func(all bool) []string {
		t.Helper()
		top := s.TopCallableAPIs
		if all {
			top = s.TopAPIs
		}
		ms, err := top(ctx, vecs[0], len(apis))
		require.NoError(t, err)
		var out []string
		for _, m := range ms {
			if _, mine := callable[m.Name]; mine {
				out = append(out, m.Name)
			}
		}
		return out
	}

	all := names(true)
	assert.ElementsMatch(t, []string{word + ".Op0", word + ".Op1", word + ".Op2", word + ".Op3", word + ".Op4"}, all,
		"TopAPIs returns every API, callable or not")
	assert.ElementsMatch(t, []string{word + ".Op3", word + ".Op4"}, names(false),
		"TopCallableAPIs returns only the APIs with an absolute URL")

	none, err := s.TopCallableAPIs(ctx, vecs[0], 0)
	require.NoError(t, err)
	assert.Empty(t, none, "k = 0 asks for nothing")
	none, err = s.TopCallableAPIs(ctx, make([]float64, stacktest.Embedder(t).Dim()), 5)
	require.NoError(t, err)
	assert.Empty(t, none, "a zero vector is similar to nothing")
}

// The subgraph read keeps the producers that matter when not all fit: those retrieval found
// relevant first, by score, then those that bind more of the level's inputs, then those that
// succeeded more, then those that give more outputs, never the first by name. The names are
// chosen so that name order is the reverse of what matters.
func TestSubgraphRanksProducersByRelevance(t *testing.T) {
	s := stacktest.Store(t)
	ctx := context.Background()
	p := stacktest.UniqueName("rank") + "_"
	x := twnm.Param{Name: p + "x", Type: "string", Required: true}
	// Three type classes: Build never clusters two of them into one parameter node.
	y := twnm.Param{Name: p + "y", Type: "integer", Required: true}
	z := twnm.Param{Name: p + "z", Type: "boolean"}
	out := func(ps ...twnm.Param) []twnm.Param {
		var o []twnm.Param
		for _, q := range ps {
			o = append(o, twnm.Param{Name: q.Name, Type: q.Type})
		}
		return o
	}
	c := twnm.Catalog{Name: p + "cat", APIs: []twnm.API{
		{Name: p + "target", Description: "needs x and y", Inputs: []twnm.Param{x, y}},
		{Name: p + "a_first_by_name", Description: "gives x", Outputs: out(x)},
		{Name: p + "b_relevant", Description: "gives x", Outputs: out(x)},
		{Name: p + "c_binds_both", Description: "gives x and y", Outputs: out(x, y)},
		{Name: p + "d_successful", Description: "gives y", Outputs: out(y)},
		{Name: p + "e_more_outputs", Description: "gives x and z", Outputs: out(x, z)},
	}}
	importCatalog(t, s, c)
	require.NoError(t, s.RecordFeedback(ctx, []twnm.Invocation{{API: p + "d_successful", Success: true, Time: time.Now()}}, nil))

	read := func(maxAPIs int, relevance map[string]float64) []string {
		t.Helper()
		scores := map[string]float64{}
		for name, v := range relevance {
			scores[p+name] = v
		}
		sub, err := s.Subgraph(ctx, []string{p + "target"}, neo4j.SubgraphOptions{Hops: 1, MaxAPIs: maxAPIs, Relevance: scores})
		require.NoError(t, err)
		var names []string
		for _, id := range sub.APIs() {
			names = append(names, strings.TrimPrefix(sub.Node(id).Name, p))
		}
		return names
	}
	tests := []struct {
		name      string
		maxAPIs   int
		relevance map[string]float64
		want      []string
	}{
		{"without relevance, binding both inputs first", 2, nil, []string{"target", "c_binds_both"}},
		{"then successful calls", 3, nil, []string{"target", "c_binds_both", "d_successful"}},
		{"then more outputs", 4, nil, []string{"target", "c_binds_both", "d_successful", "e_more_outputs"}},
		{"then the name", 5, nil, []string{"target", "c_binds_both", "d_successful", "e_more_outputs", "a_first_by_name"}},
		{"relevance first", 2, map[string]float64{"b_relevant": 0.9}, []string{"target", "b_relevant"}},
		{"by score, whatever else binds", 2, map[string]float64{"b_relevant": 0.9, "c_binds_both": 0.1}, []string{"target", "b_relevant"}},
		{"the rest after the scored", 4, map[string]float64{"b_relevant": 0.9, "a_first_by_name": 0.2},
			[]string{"target", "b_relevant", "a_first_by_name", "c_binds_both"}},
		{"equal scores: binds", 2, map[string]float64{"a_first_by_name": 0.5, "c_binds_both": 0.5}, []string{"target", "c_binds_both"}},
		{"all fit", 0, nil, []string{"target", "c_binds_both", "d_successful", "e_more_outputs", "a_first_by_name", "b_relevant"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.ElementsMatch(t, tt.want, read(tt.maxAPIs, tt.relevance))
		})
	}
}

// getAPI is an API of the catalog p+"cat", named p+name, that reads path by GET, with the
// inputs in and string outputs out.
func getAPI(p, name, path string, in []twnm.Param, out ...string) twnm.API {
	a := twnm.API{Name: p + name, Description: name, Source: p + "cat", Endpoint: &twnm.Endpoint{Method: "GET", Path: path}, Inputs: in}
	for _, o := range out {
		a.Outputs = append(a.Outputs, twnm.Param{Name: o, Type: "string"})
	}
	return a
}

// A path input that an API lists the collection of is read from that API alone, as the
// graph's search binds it (twnm.Graph.Listers): the sites' list for a site's forms, not the
// DNS zones whose site_id names it, however the relevance ranks them.
func TestSubgraphReadsTheListerOfAPathInput(t *testing.T) {
	s := stacktest.Store(t)
	ctx := context.Background()
	p := stacktest.UniqueName("list") + "_"
	site := twnm.Param{Name: p + "site_id", Type: "string", Required: true, In: "path"}
	c := twnm.Catalog{Name: p + "cat", APIs: []twnm.API{
		getAPI(p, "forms", "/"+p+"sites/{"+site.Name+"}/forms", []twnm.Param{site}, "form_name"),
		getAPI(p, "zones", "/"+p+"dns_zones", nil, site.Name),
		getAPI(p, "sites", "/"+p+"sites", nil, "id", "url"),
	}}
	importCatalog(t, s, c)
	sub, err := s.Subgraph(ctx, []string{p + "forms"}, neo4j.SubgraphOptions{Hops: 1, Relevance: map[string]float64{p + "zones": 0.9}})
	require.NoError(t, err)
	var names []string
	for _, id := range sub.APIs() {
		names = append(names, strings.TrimPrefix(sub.Node(id).Name, p))
	}
	assert.ElementsMatch(t, []string{"forms", "sites"}, names)
	forms, _ := sub.APIByName(p + "forms")
	listers := sub.Listers(forms, site.Name)
	require.Len(t, listers, 1, "the subgraph read back knows the lister")
	assert.Equal(t, p+"sites", sub.Node(listers[0]).Name)
}

// The candidates that take an item of a collection a target lists are read with the targets,
// as recall.BoundedRead reads them in process: the sites' forms beside the list of sites, not
// the DNS zones, which take no site, nor the deploys, which no candidate names.
func TestSubgraphReadsTheItemPartsOfAListedCollection(t *testing.T) {
	s := stacktest.Store(t)
	ctx := context.Background()
	p := stacktest.UniqueName("parts") + "_"
	site := twnm.Param{Name: p + "site_id", Type: "string", Required: true, In: "path"}
	c := twnm.Catalog{Name: p + "cat", APIs: []twnm.API{
		getAPI(p, "sites", "/"+p+"sites", nil, "id", "url"),
		getAPI(p, "forms", "/"+p+"sites/{"+site.Name+"}/forms", []twnm.Param{site}, "form_name"),
		getAPI(p, "deploys", "/"+p+"sites/{"+site.Name+"}/deploys", []twnm.Param{site}, "deploy_id"),
		getAPI(p, "zones", "/"+p+"dns_zones", nil, "zone_id"),
	}}
	g := importCatalog(t, s, c)
	relevance := map[string]float64{p + "sites": 1, p + "zones": 0.9, p + "forms": 0.4}
	sub, err := s.Subgraph(ctx, []string{p + "sites"}, neo4j.SubgraphOptions{Hops: 1, Relevance: relevance})
	require.NoError(t, err)
	var names []string
	for _, id := range sub.APIs() {
		names = append(names, sub.Node(id).Name)
	}
	assert.ElementsMatch(t, []string{p + "sites", p + "forms"}, names)
	assert.Equal(t, map[string]bool{p + "sites": true, p + "forms": true},
		recall.BoundedRead(recall.GraphLinks{G: g}, []string{p + "sites"}, relevance, 10), "the same read in process")
}

// A subgraph reads every target, once, before any producer, and an API the graph lacks as
// nothing.
func TestSubgraphReadsTargetsFirst(t *testing.T) {
	s, ctx, prefix, _ := imported(t)
	targets := []string{prefix + "Restaurants", prefix + "Weather", prefix + "Restaurants", prefix + "Missing"}
	read := func(maxAPIs int) []string {
		t.Helper()
		sub, err := s.Subgraph(ctx, targets, neo4j.SubgraphOptions{MaxAPIs: maxAPIs})
		require.NoError(t, err)
		var names []string
		for _, id := range sub.APIs() {
			names = append(names, strings.TrimPrefix(sub.Node(id).Name, prefix))
		}
		return names
	}
	assert.ElementsMatch(t, []string{"Restaurants", "Weather"}, read(3), "the targets fill MaxAPIs: no producer")
	assert.ElementsMatch(t, []string{"Restaurants", "Weather", "Geocode"}, read(0), "then their producers")
}

// The data-flow links Build finds between differently named parameters are stored with their
// confidence and read back with it; feedback on them is kept when the catalog is imported
// again, and forgotten, the link kept, when the catalog's learned statistics are reset.
func TestImportKeepsLinks(t *testing.T) {
	s := stacktest.Store(t)
	ctx := context.Background()
	p := stacktest.UniqueName("link") + "_"
	c := twnm.Catalog{Name: p + "cat", APIs: []twnm.API{
		{Name: p + "Place", Description: "finds a place", Inputs: []twnm.Param{{Name: p + "address", Required: true}},
			Outputs: []twnm.Param{{Name: p + "placeId", Type: "string"}}},
		{Name: p + "Route", Description: "plans a route", Inputs: []twnm.Param{{Name: "origin_" + p + "placeId", Type: "string", Required: true}},
			Outputs: []twnm.Param{{Name: p + "duration", Type: "number"}}},
	}}
	build := func() *twnm.Graph {
		g, err := twnm.Build(ctx, c, twnm.BuildOptions{Embedder: embed.Default(), APIEmbedder: stacktest.Embedder(t)})
		require.NoError(t, err)
		return g
	}
	st, err := s.Import(ctx, build(), c.Name)
	forget(t, s, c.Name)
	require.NoError(t, err)
	t.Cleanup(func() { _, _ = s.DeleteCatalog(context.Background(), c.Name) })
	assert.Equal(t, 1, st.Links)

	link := func() *twnm.Edge {
		t.Helper()
		sub, err := s.Subgraph(ctx, []string{p + "Route"}, neo4j.SubgraphOptions{Hops: 1})
		require.NoError(t, err)
		names := []string{}
		for _, id := range sub.APIs() {
			names = append(names, sub.Node(id).Name)
		}
		require.ElementsMatch(t, []string{p + "Route", p + "Place"}, names, "the subgraph follows the link to its producer")
		for _, e := range sub.Edges() {
			if e.Kind == twnm.Feeds {
				return e
			}
		}
		require.FailNow(t, "no FEEDS edge read")
		return nil
	}
	assert.InDelta(t, 0.9, link().Confidence, 1e-9, "the input alone names a role")
	require.NoError(t, s.RecordFeedback(ctx, []twnm.Invocation{{API: p + "Place", Success: true, Time: time.Now()}, {API: p + "Route", Success: true, Time: time.Now()}},
		[]twnm.Transition{{Kind: twnm.Feeds, From: p + "Place", FromParam: p + "placeId", To: p + "Route", ToParam: "origin_" + p + "placeId", Success: true, Time: time.Now()}}))
	_, err = s.Import(ctx, build(), c.Name)
	forget(t, s, c.Name)
	require.NoError(t, err)
	e := link()
	assert.Equal(t, int64(1), e.Count, "history kept")
	assert.InDelta(t, 0.9, e.Confidence, 1e-9)

	_, err = s.ResetLearned(ctx, c.Name)
	require.NoError(t, err)
	e = link()
	assert.Zero(t, e.Count, "history forgotten")
	assert.InDelta(t, 0.9, e.Confidence, 1e-9, "the catalog's link kept")
	assert.InDelta(t, 0.9, e.Strength(), 1e-9)
}

// A parameter that more than 100 APIs output is a generic value: a subgraph read binds it only
// from the producers retrieval found relevant and those whose calls into the consumer
// succeeded, while an input few APIs give brings in all of its producers.
func TestSubgraphGenericParameter(t *testing.T) {
	s := stacktest.Store(t)
	ctx := context.Background()
	p := stacktest.UniqueName("hub") + "_"
	generic := twnm.Param{Name: p + "ref", Type: "string", Required: true}
	rare := twnm.Param{Name: p + "count", Type: "integer", Required: true}
	c := twnm.Catalog{Name: p + "cat", APIs: []twnm.API{
		{Name: p + "target", Description: "needs a reference and a count", Inputs: []twnm.Param{generic, rare}},
		{Name: p + "count_a", Description: "gives a count", Outputs: []twnm.Param{{Name: rare.Name, Type: rare.Type}}},
		{Name: p + "count_b", Description: "gives a count too", Outputs: []twnm.Param{{Name: rare.Name, Type: rare.Type}}},
	}}
	for i := range 101 {
		c.APIs = append(c.APIs, twnm.API{Name: fmt.Sprintf("%sgen_%03d", p, i), Description: "gives a reference",
			Outputs: []twnm.Param{{Name: generic.Name, Type: generic.Type}}})
	}
	importCatalog(t, s, c)

	read := func(relevance map[string]float64) []string {
		t.Helper()
		scores := map[string]float64{}
		for name, v := range relevance {
			scores[p+name] = v
		}
		sub, err := s.Subgraph(ctx, []string{p + "target"}, neo4j.SubgraphOptions{Hops: 1, Relevance: scores})
		require.NoError(t, err)
		var names []string
		for _, id := range sub.APIs() {
			names = append(names, strings.TrimPrefix(sub.Node(id).Name, p))
		}
		return names
	}
	assert.ElementsMatch(t, []string{"target", "count_a", "count_b"}, read(nil), "none of the 101 generic producers")
	assert.ElementsMatch(t, []string{"target", "count_a", "count_b", "gen_007"}, read(map[string]float64{"gen_007": 0.5}),
		"the relevant one")

	// A successful call of gen_050 into the target proves it.
	now := time.Now()
	require.NoError(t, s.RecordFeedback(ctx,
		[]twnm.Invocation{{API: p + "gen_050", Success: true, Time: now}, {API: p + "target", Success: true, Time: now}},
		[]twnm.Transition{{Kind: twnm.Then, From: p + "gen_050", To: p + "target", Success: true, Time: now}}))
	assert.ElementsMatch(t, []string{"target", "count_a", "count_b", "gen_007", "gen_050"}, read(map[string]float64{"gen_007": 0.5}),
		"the relevant one and the proven one")
}
