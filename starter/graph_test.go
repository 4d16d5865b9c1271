package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
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

// navi graph reembed rewrites the vectors of the graph it is pointed at (NAVI_NEO4J_*) with
// the configured embedder and keeps what the graph learned. The shared test graph records the
// standard embedder, so the command runs with its default, which is that one: an API
// imported with vectors of another embedder gets its text's vector back.
func TestGraphReembedRewritesVectors(t *testing.T) {
	stacktest.Export(t, stacktest.EnvNeo4jURI, stacktest.EnvNeo4jUser, stacktest.EnvNeo4jPassword)
	stacktest.LockVectors(t)
	store := stacktest.Store(t)
	emb := stacktest.Embedder(t)
	ctx := context.Background()
	word := stacktest.UniqueName("glacier")
	api := twnm.API{Name: word + ".Depth", Description: "How deep the " + word + " ice is at a point.",
		Inputs: []twnm.Param{{Name: word + "_point", Type: "string", Required: true}}, Outputs: []twnm.Param{{Name: word + "_depth", Type: "number"}}}
	g, err := twnm.Build(ctx, twnm.Catalog{Name: word, APIs: []twnm.API{api}}, twnm.BuildOptions{Embedder: embed.Default(), APIEmbedder: stacktest.SameVector(emb.Dim())})
	require.NoError(t, err)
	_, err = store.Import(ctx, g, word)
	require.NoError(t, err)
	t.Cleanup(func() { _, _ = store.DeleteCatalog(context.Background(), word) })
	require.NoError(t, store.RecordFeedback(ctx, []twnm.Invocation{{API: api.Name, Success: true, Time: time.Now()}}, nil))
	text, err := emb.Embed(ctx, []string{twnm.APIText(api)})
	require.NoError(t, err)
	own := func() float64 { return stacktest.DenseScore(t, store, text[0], api.Name) } // the API's cosine with its text's vector
	require.Less(t, own(), 0.9, "imported with another embedder's vector")

	var out, progress bytes.Buffer
	require.NoError(t, graphCmd([]string{"reembed", "-every", "1"}, streams{&out, &progress}))
	assert.Regexp(t, fmt.Sprintf(`^graph moved to \S+ \(%d dimensions\): \d+ APIs and \d+ past sub-goals reembedded, the vector indexes kept, every statistic kept\n`, emb.Dim()),
		out.String())
	assert.Contains(t, progress.String(), "reembedding the graph at "+stacktest.Env(t, stacktest.EnvNeo4jURI))
	lines := regexp.MustCompile(`reembedded (\d+) of (\d+) vectors`).FindAllStringSubmatch(progress.String(), -1)
	require.NotEmpty(t, lines, progress.String())
	last := lines[len(lines)-1]
	assert.Equal(t, last[2], last[1], "the last progress line says all are done")

	assert.InDelta(t, 1, own(), stacktest.IndexCosineDelta, "the vector is its text's again")
	sub, err := store.Subgraph(ctx, []string{api.Name}, neo4j.SubgraphOptions{Hops: 1, MaxAPIs: 1})
	require.NoError(t, err)
	id, ok := sub.APIByName(api.Name)
	require.True(t, ok)
	assert.Equal(t, int64(1), sub.Node(id).Success, "statistics kept")
	// The graph still records the embedder every worker uses.
	s, err := neo4j.OpenWithSchema(ctx, stacktest.Neo4jOptions(t))
	require.NoError(t, err)
	require.NoError(t, s.Close(ctx))
}

// navi graph reembed -h says what the command does and which flags it takes.
func TestGraphReembedHelp(t *testing.T) {
	var help bytes.Buffer
	err := graphCmd([]string{"reembed", "-h"}, streams{io.Discard, &help})
	require.ErrorIs(t, err, flag.ErrHelp)
	for _, want := range []string{"usage: navi graph reembed [flags]", "every learned statistic", "schema mismatch", "-embedder", "-every", "-neo4j-uri"} {
		assert.Contains(t, help.String(), want)
	}
	assert.NotContains(t, help.String(), "-temporal-address", "the command does not talk to Temporal")
}

// Mistakes in the call are usage errors, found before anything is written; a Neo4j that does
// not answer says so.
func TestGraphReembedErrors(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		usage bool
		want  string
	}{
		{"no subcommand", nil, true, "navi graph reembed"},
		{"other subcommand", []string{"rebuild"}, true, "navi graph reembed"},
		{"an argument", []string{"reembed", "minilm"}, true, "no arguments"},
		{"unknown embedder", []string{"reembed", "-embedder", "word2vec"}, true, `embedder "word2vec" (NAVI_EMBEDDER): want minilm or hashed`},
		{"no progress step", []string{"reembed", "-every", "0"}, true, "-every 0"},
		{"neo4j down", []string{"reembed", "-embedder", "hashed", "-neo4j-uri", "bolt://127.0.0.1:1"}, false, "is Neo4j running"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := graphCmd(tt.args, streams{io.Discard, io.Discard})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Equal(t, tt.usage, errors.Is(err, errUsage))
			if strings.Contains(tt.name, "down") {
				assert.ErrorIs(t, err, neo4j.ErrUnavailable)
			}
		})
	}
}
