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
// relevant first, then those that bind more of the level's inputs, then those that succeeded
// more, never the first by name.
func TestSubgraphRanksProducersByRelevance(t *testing.T) {
	s := stacktest.Store(t)
	ctx := context.Background()
	p := stacktest.UniqueName("rank") + "_"
	x := twnm.Param{Name: p + "x", Type: "string", Required: true}
	y := twnm.Param{Name: p + "y", Type: "string", Required: true}
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
	}}
	g, err := twnm.Build(ctx, c, twnm.BuildOptions{Embedder: embed.Default(), APIEmbedder: stacktest.Embedder(t)})
	require.NoError(t, err)
	_, err = s.Import(ctx, g, c.Name)
	require.NoError(t, err)
	require.NoError(t, s.RecordFeedback(ctx, []twnm.Invocation{{API: p + "d_successful", Success: true, Time: time.Now()}}, nil))

	read := func(o neo4j.SubgraphOptions) []string {
		t.Helper()
		o.Hops = 1
		sub, err := s.Subgraph(ctx, []string{p + "target"}, o)
		require.NoError(t, err)
		var names []string
		for _, id := range sub.APIs() {
			names = append(names, strings.TrimPrefix(sub.Node(id).Name, p))
		}
		return names
	}
	assert.ElementsMatch(t, []string{"target", "c_binds_both"}, read(neo4j.SubgraphOptions{MaxAPIs: 2}), "binding both inputs first")
	assert.ElementsMatch(t, []string{"target", "c_binds_both", "d_successful"}, read(neo4j.SubgraphOptions{MaxAPIs: 3}), "then successful calls")
	assert.ElementsMatch(t, []string{"target", "b_relevant"}, read(neo4j.SubgraphOptions{MaxAPIs: 2, Relevance: map[string]float64{p + "b_relevant": 0.9}}),
		"relevance first")
	assert.ElementsMatch(t, []string{"target", "c_binds_both", "d_successful", "b_relevant", "a_first_by_name"}, read(neo4j.SubgraphOptions{}), "all fit")
}
