package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/internal/stacktest"
)

// TestToolsLoadFromURL loads the tool world's catalog, served over HTTP, into the test Neo4j,
// as `make run` does. It loads from the stack's tool world, as every test does: the endpoints
// in the shared graph must stay callable for the agent tests running beside it.
func TestToolsLoadFromURL(t *testing.T) {
	stacktest.Export(t, stacktest.EnvNeo4jURI, stacktest.EnvNeo4jUser, stacktest.EnvNeo4jPassword)
	world := stacktest.Env(t, stacktest.EnvToolWorld)

	var out bytes.Buffer
	require.NoError(t, tools([]string{"load", world + "/catalog.json"}, streams{&out, io.Discard}))
	assert.Regexp(t, `^loaded http://\S+/catalog.json: \d+ APIs, \d+ parameters \(graph now`, out.String())
	store := stacktest.Store(t)
	found, err := store.FindAPIs(context.Background(), "geocode", 50)
	require.NoError(t, err)
	var names []string
	for _, f := range found {
		names = append(names, f.Name)
	}
	assert.Contains(t, names, "geo.Geocode")

	err = tools([]string{"import", world + "/no-such-catalog.json"}, streams{io.Discard, io.Discard})
	require.ErrorContains(t, err, "HTTP 404")
}

// The test stack runs the tool world as one of its processes.
func TestStackRunsTheToolWorld(t *testing.T) {
	resp, err := http.Get(stacktest.Env(t, stacktest.EnvToolWorld) + "/healthz")
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}
