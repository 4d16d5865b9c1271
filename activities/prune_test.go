package activities_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/toolcall"
	"github.com/naviagent/navi/toolworld"
	"github.com/naviagent/navi/twnm"
)

// PruneAndProbeNow on the real Neo4j: an API failing in its window is pruned (Eq. 13); a
// pruned API whose tool answers again is reactivated by its probe, one still down stays pruned.
func TestPruneAndProbe(t *testing.T) {
	store := stacktest.Store(t)
	ctx := context.Background()
	world := toolworld.New(toolworld.Options{})
	srv := httptest.NewServer(world)
	defer srv.Close()
	prefix := stacktest.UniqueName("pp") + "_"
	cat := toolworld.Catalog(srv.URL)
	var apis []twnm.API
	for _, a := range cat.APIs {
		if a.Name == "geo.Geocode" || a.Name == "geo.Elevation" || a.Name == "weather.Current" {
			a.Name = prefix + a.Name // the endpoint stays the tool world's
			apis = append(apis, a)
		}
	}
	_, err := store.LoadCatalog(ctx, twnm.Catalog{Name: prefix + "cat", APIs: apis})
	require.NoError(t, err)
	failing, recovered, down := prefix+"geo.Geocode", prefix+"geo.Elevation", prefix+"weather.Current"

	now := time.Now()
	var invs []twnm.Invocation
	for range 5 {
		invs = append(invs, twnm.Invocation{API: failing, Success: false, Time: now})
	}
	require.NoError(t, store.RecordFeedback(ctx, invs, nil))
	require.NoError(t, store.SetStatus(ctx, recovered, twnm.Pruned))
	require.NoError(t, store.SetStatus(ctx, down, twnm.Pruned))
	require.NoError(t, world.SetFault(toolworld.Fault{API: "weather.Current", Mode: toolworld.ModeDown}))

	res, err := activities.PruneAndProbeNow(ctx, store, &toolcall.Client{}, activities.PruneProbeInput{Scope: prefix})
	require.NoError(t, err)
	assert.Contains(t, res.Pruned, failing)
	assert.Contains(t, res.Reactivated, recovered)
	assert.Contains(t, res.StillDown, down)
	assert.NotContains(t, res.Reactivated, failing, "pruned in this round, probed in the next")
	for _, api := range append(append(res.Pruned, res.Reactivated...), res.StillDown...) {
		assert.Contains(t, api, prefix, "nothing outside the scope is touched")
	}

	g, err := store.Snapshot(ctx)
	require.NoError(t, err)
	status := func(api string) twnm.Status {
		id, ok := g.APIByName(api)
		require.True(t, ok)
		return g.Node(id).Status
	}
	assert.Equal(t, twnm.Pruned, status(failing))
	assert.Equal(t, twnm.Active, status(recovered))
	assert.Equal(t, twnm.Pruned, status(down))
}
