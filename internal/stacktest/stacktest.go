// Package stacktest gives integration tests the endpoints of the real test stack that
// `make test` starts (Temporal dev server, Neo4j, worker on free ports). Tests fail, never skip,
// when the stack is not there.
package stacktest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/toolworld"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/embed"
)

// Variables that `make test` exports from .state/test/stack.env. The NAVI_TEST_ prefix keeps a
// developer's production settings (NAVI_*) from ever reaching a test that writes.
const (
	EnvTemporalAddress = "NAVI_TEST_TEMPORAL_ADDRESS"
	EnvNamespace       = "NAVI_TEST_TEMPORAL_NAMESPACE"
	EnvTaskQueue       = "NAVI_TEST_TASK_QUEUE"
	EnvUI              = "NAVI_TEST_TEMPORAL_UI"
	EnvNeo4jURI        = "NAVI_TEST_NEO4J_URI"
	EnvNeo4jUser       = "NAVI_TEST_NEO4J_USER"
	EnvNeo4jPassword   = "NAVI_TEST_NEO4J_PASSWORD"
	EnvToolWorld       = "NAVI_TEST_TOOLWORLD_URL"
)

// Env returns the value of a stack variable, failing the test when it is missing.
func Env(t testing.TB, name string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		t.Fatalf("%s is not set: this test needs the real test stack; run it with `make test` "+
			"(or `make test-stack`, then `set -a; . .state/test/stack.env; set +a` and NAVI_TEST_NEO4J_PASSWORD)", name)
	}
	return v
}

// Export sets, for the test's duration, the NAVI_* variable of each given NAVI_TEST_* stack
// variable (EnvNeo4jURI sets NAVI_NEO4J_URI), so that code reading its configuration from the
// environment, like the navi command line, talks to the test stack.
func Export(t testing.TB, vars ...string) {
	t.Helper()
	for _, v := range vars {
		t.Setenv("NAVI_"+strings.TrimPrefix(v, "NAVI_TEST_"), Env(t, v))
	}
}

// Neo4jOptions are the connection settings of the test Neo4j.
func Neo4jOptions(t testing.TB) neo4j.Options {
	return neo4j.Options{URI: Env(t, EnvNeo4jURI), User: Env(t, EnvNeo4jUser), Password: Env(t, EnvNeo4jPassword)}
}

// Store opens the test Neo4j with its schema applied and closes it when the test ends.
func Store(t testing.TB) *neo4j.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := neo4j.OpenWithSchema(ctx, Neo4jOptions(t))
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	return s
}

// TemporalClient dials the test Temporal server and closes the client when the test ends.
func TemporalClient(t testing.TB) client.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// Workers started on this client log through it: warnings and errors only, so that a
	// failing test's output shows what matters.
	logger := sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	c, err := client.DialContext(ctx, client.Options{HostPort: Env(t, EnvTemporalAddress), Namespace: Env(t, EnvNamespace), Logger: logger})
	require.NoError(t, err, "dial the test Temporal server")
	t.Cleanup(c.Close)
	return c
}

// UniqueName returns prefix followed by random hex, for graph nodes, task queues and workflow
// IDs that must not collide with other tests running at the same time.
func UniqueName(prefix string) string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// LoadToolWorld loads the catalog of the stack's tool world into the test Neo4j and returns
// the tool world's URL. Every test loads the same catalog from the same server, so tests
// running side by side agree on where each API lives.
func LoadToolWorld(t testing.TB, s *neo4j.Store) string {
	t.Helper()
	world := Env(t, EnvToolWorld)
	var cat twnm.Catalog
	getJSON(t, world+"/catalog.json", &cat)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := s.LoadCatalog(ctx, cat)
	require.NoError(t, err, "load the tool world's catalog")
	return world
}

// InjectFault sets a fault in the stack's tool world and clears it when the test ends. Give
// it a KeyPrefix ("navi/<workflow ID>/") so that it breaks the tool for one run only: other
// tests share the tool world.
func InjectFault(t testing.TB, f toolworld.Fault) {
	t.Helper()
	world := Env(t, EnvToolWorld)
	require.NoError(t, toolworld.PostFault(context.Background(), world, f))
	t.Cleanup(func() {
		_ = toolworld.PostFault(context.Background(), world, toolworld.Fault{API: f.API, Mode: toolworld.ModeNone})
	})
}

// ToolCalls returns, per API, the requests to the stack's tool world whose idempotency key
// starts with prefix: those that ran the API, and those answered from a stored answer.
func ToolCalls(t testing.TB, prefix string) (calls, deduplicated map[string]int) {
	t.Helper()
	return ToolCallsAt(t, Env(t, EnvToolWorld), prefix)
}

// ToolCallsAt is ToolCalls of the tool world at base, for a stack other than the test stack.
func ToolCallsAt(t testing.TB, base, prefix string) (calls, deduplicated map[string]int) {
	t.Helper()
	var stats struct {
		Calls        map[string]int `json:"calls"`
		Deduplicated map[string]int `json:"deduplicated"`
	}
	getJSON(t, base+"/admin/stats?key_prefix="+url.QueryEscape(prefix), &stats)
	return stats.Calls, stats.Deduplicated
}

func getJSON(t testing.TB, u string, v any) {
	t.Helper()
	resp, err := http.Get(u)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "GET %s", u)
	require.NoError(t, json.NewDecoder(resp.Body).Decode(v), "decode %s", u)
}

// IndexCosineDelta is how far a score from a Neo4j vector index may stray from the exact
// cosine: the index keeps its vectors in float32 without quantizing them (see
// neo4j.EnsureSchema), so only rounding is left.
const IndexCosineDelta = 1e-5

// SameVector is an embedder of that many dimensions that gives every text the same vector,
// the first axis: another embedder than the store's, of its dimension, for writing vectors
// that a reembedding must replace.
type SameVector int

// Name implements embed.Embedder.
func (d SameVector) Name() string { return "same-vector" }

// Dim implements embed.Embedder.
func (d SameVector) Dim() int { return int(d) }

// Embed implements embed.Embedder.
func (d SameVector) Embed(_ context.Context, texts []string) ([][]float64, error) {
	out := make([][]float64, len(texts))
	for i := range out {
		out[i] = make([]float64, d)
		out[i][0] = 1
	}
	return out, nil
}

// DenseScore is the score the store's vector index gives API api for vec (the cosine, within
// IndexCosineDelta), or 0 when api is not among the 1,000 nearest.
func DenseScore(t testing.TB, s *neo4j.Store, vec []float64, api string) float64 {
	t.Helper()
	hits, err := s.RecallSource(false).Dense(context.Background(), vec, 1000)
	require.NoError(t, err)
	for _, h := range hits {
		if h.Name == api {
			return h.Score
		}
	}
	return 0
}

// Embedder returns the embedder the store's API vectors come from (embed.Standard), failing
// the test when it cannot load (the model weights missing: make models).
func Embedder(t testing.TB) embed.Embedder {
	t.Helper()
	emb, err := embed.Standard()
	if err != nil {
		t.Fatalf("embedder: %v", err)
	}
	return emb
}
