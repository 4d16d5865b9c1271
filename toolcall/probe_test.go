package toolcall

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/toolspec"
	"github.com/naviagent/navi/toolworld"
)

func TestProbe(t *testing.T) {
	world := toolworld.New(toolworld.Options{})
	srv := httptest.NewServer(world)
	defer srv.Close()
	c := &Client{}
	ctx := context.Background()
	tests := []struct {
		name   string
		api    string
		fault  string
		alive  bool
		status int
	}{
		{"up, missing inputs rejected", "geo.Geocode", "", true, http.StatusBadRequest},
		{"up, path parameter filled", "homes.Agent", "", true, http.StatusBadRequest},
		{"down", "geo.Geocode", toolworld.ModeDown, false, http.StatusServiceUnavailable},
		{"deprecated", "geo.Geocode", toolworld.ModeDeprecated, false, http.StatusGone},
		{"rate limited", "geo.Geocode", toolworld.ModeRateLimited, false, http.StatusTooManyRequests},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mode := tt.fault
			if mode == "" {
				mode = toolworld.ModeNone
			}
			require.NoError(t, world.SetFault(toolworld.Fault{API: tt.api, Mode: mode}))
			ep := endpointOf(t, srv.URL, tt.api)
			alive, status, err := c.Probe(ctx, tt.api, ep)
			require.NoError(t, err)
			assert.Equal(t, tt.alive, alive)
			assert.Equal(t, tt.status, status)
		})
	}
	alive, status, err := c.Probe(ctx, "gone.API", &toolspec.Endpoint{Method: "GET", Path: "/x", BaseURL: "http://127.0.0.1:1"})
	require.NoError(t, err, "no answer is not an error of the probe")
	assert.False(t, alive)
	assert.Zero(t, status)
	_, _, err = c.Probe(ctx, "no.Endpoint", nil)
	assert.ErrorIs(t, err, ErrNotCallable)
}

// endpointOf is the endpoint of a tool world API served at base.
func endpointOf(t *testing.T, base, api string) *toolspec.Endpoint {
	t.Helper()
	for _, a := range toolworld.Catalog(base).APIs {
		if a.Name == api {
			return a.Endpoint
		}
	}
	t.Fatalf("no API %s in the tool world", api)
	return nil
}
