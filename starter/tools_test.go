package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/toolworld"
)

// TestToolsLoadFromURL loads the tool world's catalog, served over HTTP, into the test Neo4j,
// as `make run` does.
func TestToolsLoadFromURL(t *testing.T) {
	stacktest.Export(t, stacktest.EnvNeo4jURI, stacktest.EnvNeo4jUser, stacktest.EnvNeo4jPassword)
	srv := httptest.NewServer(toolworld.New(toolworld.Options{}))
	defer srv.Close()

	require.NoError(t, tools([]string{"load", srv.URL + "/catalog.json"}))
	store := stacktest.Store(t)
	found, err := store.FindAPIs(context.Background(), "geocode", 50)
	require.NoError(t, err)
	var names []string
	for _, f := range found {
		names = append(names, f.Name)
	}
	assert.Contains(t, names, "geo.Geocode")

	err = tools([]string{"load", srv.URL + "/no-such-catalog.json"})
	require.ErrorContains(t, err, "HTTP 404")
}

// The test stack runs the tool world as one of its processes.
func TestStackRunsTheToolWorld(t *testing.T) {
	resp, err := http.Get(stacktest.Env(t, stacktest.EnvToolWorld) + "/healthz")
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}
