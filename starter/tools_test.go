package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/neo4j"
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

// navi tools show prints an API with what users called it.
func TestToolsShow(t *testing.T) {
	stacktest.Export(t, stacktest.EnvNeo4jURI, stacktest.EnvNeo4jUser, stacktest.EnvNeo4jPassword)
	store := stacktest.Store(t)
	stacktest.LoadToolWorld(t, store)
	ctx := context.Background()
	asked := "how high above the sea is the summit at " + stacktest.UniqueName("peak")
	vecs, err := stacktest.Embedder(t).Embed(ctx, []string{asked})
	require.NoError(t, err)
	require.NoError(t, store.RecordGoals(ctx, stacktest.UniqueName("show"), []neo4j.GoalUse{{API: "geo.Elevation", Text: asked, Vector: vecs[0]}}, time.Now()))

	var out bytes.Buffer
	require.NoError(t, tools([]string{"show", "geo.Elevation"}, streams{&out, io.Discard}))
	assert.Regexp(t, `(?m)^api\s+geo.Elevation$`, out.String())
	assert.Regexp(t, `(?m)^status\s+active, \d+ successful and \d+ failed calls$`, out.String())
	assert.Contains(t, out.String(), fmt.Sprintf("%q", asked))

	err = tools([]string{"show", "no.SuchAPI"}, streams{io.Discard, io.Discard})
	require.ErrorContains(t, err, "API no.SuchAPI is not in the graph")
}

// navi graph reembed moves the graph to an embedder; here to the one it has (the shared test
// graph keeps one), which changes no vector.
func TestGraphReembed(t *testing.T) {
	stacktest.Export(t, stacktest.EnvNeo4jURI, stacktest.EnvNeo4jUser, stacktest.EnvNeo4jPassword)
	stacktest.LoadToolWorld(t, stacktest.Store(t))
	var out, progress bytes.Buffer
	require.NoError(t, graphCmd([]string{"reembed"}, streams{&out, &progress}))
	assert.Regexp(t, `^graph moved to all-minilm-l6-v2@[0-9a-f]{12} \(384 dimensions\): \d+ APIs and \d+ past sub-goals reembedded, the vector indexes kept, every statistic kept\n$`, out.String())
	assert.Contains(t, progress.String(), "reembedded ")

	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "navi graph reembed"},
		{[]string{"reembed", "-embedder", "word2vec"}, `embedder "word2vec"`},
	} {
		err := graphCmd(tt.args, streams{io.Discard, io.Discard})
		require.ErrorContains(t, err, tt.want)
	}
}
