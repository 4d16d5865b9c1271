package neo4j_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/twnm"
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
