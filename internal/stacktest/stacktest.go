// Package stacktest gives integration tests the endpoints of the real test stack that
// `make test` starts (Temporal dev server, Neo4j, worker on free ports). Tests fail, never skip,
// when the stack is not there.
package stacktest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"

	"github.com/naviagent/navi/neo4j"
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
	c, err := client.DialContext(ctx, client.Options{HostPort: Env(t, EnvTemporalAddress), Namespace: Env(t, EnvNamespace)})
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
