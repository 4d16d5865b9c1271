package workflows_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	driver "github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"google.golang.org/protobuf/proto"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/toolcall"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/workflows"
)

type fixedSecrets map[string]string

func (s fixedSecrets) Secret(name string) (string, error) {
	if v, ok := s[name]; ok {
		return v, nil
	}
	return "", toolcall.ErrNoSecret
}

// outlookAPI is a one-call tool named after word (a word no other API has, so that retrieval
// finds it), served at baseURL: GET /outlook?city= answers {"outlook", "echo"}.
func outlookAPI(word, baseURL string) twnm.API {
	return twnm.API{
		Name: word + ".Outlook", Description: "The " + word + " outlook of a city.",
		Endpoint: &twnm.Endpoint{Method: "GET", Path: "/outlook", BaseURL: baseURL},
		Inputs:   []twnm.Param{{Name: "city", Type: "string", Required: true, In: twnm.InQuery}},
		Outputs:  []twnm.Param{{Name: "outlook", Type: "string"}, {Name: "echo", Type: "string"}},
	}
}

// TestCanarySecretStaysInTheRequest runs a query whose tool needs a bearer token, planted as a
// canary, and echoes it back: the run answers, the tool saw the token, and the canary is
// nowhere else: not in the run's history, not in the worker's logs (at debug level), not in
// Neo4j.
func TestCanarySecretStaysInTheRequest(t *testing.T) {
	canary := "canary-" + stacktest.UniqueName("secret")
	var seen sync.Map
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+canary {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		seen.Store("auth", true)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"outlook": "sunny", "echo": r.Header.Get("Authorization")})
	}))
	defer srv.Close()

	store := stacktest.Store(t)
	word := strings.ReplaceAll(stacktest.UniqueName("zephyrcast"), "-", "")
	api := outlookAPI(word, srv.URL)
	api.Auth = &twnm.Auth{Scheme: twnm.AuthBearer, Secret: word + ".token"}
	cat := twnm.Catalog{Name: word, APIs: []twnm.API{api}}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, err := store.LoadCatalog(ctx, cat)
	require.NoError(t, err)

	var logs stacktest.SyncBuffer
	c, err := client.DialContext(ctx, client.Options{HostPort: stacktest.Env(t, stacktest.EnvTemporalAddress),
		Namespace: stacktest.Env(t, stacktest.EnvNamespace),
		Logger:    sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))})
	require.NoError(t, err)
	defer c.Close()
	queue := stacktest.UniqueName("navi-e2e-canary-")
	w := worker.New(c, queue, worker.Options{})
	workflows.Register(w, &activities.Activities{Store: store, Models: store, Embedder: stacktest.Embedder(t),
		Tools: &toolcall.Client{Outputs: toolcall.DirStore{Dir: t.TempDir()}, Secrets: fixedSecrets{word + ".token": canary}}})
	require.NoError(t, w.Start())
	defer w.Stop()

	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: stacktest.UniqueName("navi-e2e-canary-"), TaskQueue: queue},
		contract.Prefixed(contract.WorkflowQuery), workflows.QueryRequest{Query: "What is the " + word + " outlook for Rome?"})
	require.NoError(t, err)
	var res workflows.QueryResult
	require.NoError(t, run.Get(ctx, &res))
	require.Equal(t, workflows.StatusAnswered, res.Status, res.Answer)
	require.Contains(t, res.Chain, word+".Outlook")
	_, ok := seen.Load("auth")
	require.True(t, ok, "the tool saw the token")
	assert.Equal(t, "sunny", res.Results[word+".Outlook"]["outlook"])
	assert.Equal(t, "Bearer [redacted]", res.Results[word+".Outlook"]["echo"], "the echoed token is redacted")

	// The binary encoding carries payloads as they are (JSON would base64 them).
	hist, err := proto.Marshal(history(ctx, t, c, run.GetID(), run.GetRunID()))
	require.NoError(t, err)
	// (Contains, not assert.Contains: a failure would print the whole history, canary and all.)
	assert.False(t, bytes.Contains(hist, []byte(canary)), "the history holds the canary")
	assert.True(t, bytes.Contains(hist, []byte("[redacted]")), "the history holds the redacted echo: the search can find text")
	assert.False(t, strings.Contains(logs.String(), canary), "the worker's logs hold the canary")
	assert.NotEmpty(t, logs.String(), "the logs were captured")
	o := stacktest.Neo4jOptions(t)
	drv, err := driver.NewDriverWithContext(o.URI, driver.BasicAuth(o.User, o.Password, ""))
	require.NoError(t, err)
	defer drv.Close(ctx)
	rec, err := driver.ExecuteQuery(ctx, drv, `
CALL () { MATCH (x) WHERE any(k IN keys(x) WHERE (x[k] IS :: STRING AND x[k] CONTAINS $c)
  OR (x[k] IS :: LIST<STRING NOT NULL> AND any(v IN x[k] WHERE v CONTAINS $c))) RETURN count(x) AS nodes }
CALL () { MATCH ()-[r]->() WHERE any(k IN keys(r) WHERE r[k] IS :: STRING AND r[k] CONTAINS $c) RETURN count(r) AS rels }
RETURN nodes + rels AS n`, map[string]any{"c": canary}, driver.EagerResultTransformer)
	require.NoError(t, err)
	n, _ := rec.Records[0].Get("n")
	assert.Equal(t, int64(0), n, "no node or edge of Neo4j holds the canary")
}
