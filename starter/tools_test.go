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
	for env, test := range map[string]string{
		"NAVI_NEO4J_URI":      stacktest.EnvNeo4jURI,
		"NAVI_NEO4J_USER":     stacktest.EnvNeo4jUser,
		"NAVI_NEO4J_PASSWORD": stacktest.EnvNeo4jPassword,
	} {
		t.Setenv(env, stacktest.Env(t, test))
	}
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
	resp, err := http.Get(stacktest.Env(t, "NAVI_TEST_TOOLWORLD_URL") + "/healthz")
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}
