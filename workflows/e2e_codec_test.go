package workflows_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/codec"
	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/internal/config"
	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/toolcall"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/workflows"
)

// TestEncryptedPayloads runs a query with payload encryption configured as users configure it
// (NAVI_CODEC_KEYS through config.Config): the run answers; the server's history holds the
// query and the tool's output only as ciphertext; the codec server decodes them as the UI
// asks it to; and the history replays under the codec, as navi replay does.
func TestEncryptedPayloads(t *testing.T) {
	word := strings.ReplaceAll(stacktest.UniqueName("mistralcast"), "-", "")
	outlook := "sunny-" + word
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"outlook": outlook, "echo": r.URL.Query().Get("city")})
	}))
	defer srv.Close()
	store := stacktest.Store(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, err := store.LoadCatalog(ctx, twnm.Catalog{Name: word, APIs: []twnm.API{outlookAPI(word, srv.URL)}})
	require.NoError(t, err)

	key, err := codec.NewKey("e2e")
	require.NoError(t, err)
	cfg := config.Config{TemporalAddress: stacktest.Env(t, stacktest.EnvTemporalAddress),
		Namespace: stacktest.Env(t, stacktest.EnvNamespace), CodecKeys: key}
	opts, err := cfg.ClientOptions(nil)
	require.NoError(t, err)
	c, err := client.DialContext(ctx, opts)
	require.NoError(t, err)
	defer c.Close()
	queue := stacktest.UniqueName("navi-e2e-codec-")
	w := worker.New(c, queue, worker.Options{})
	workflows.Register(w, &activities.Activities{Store: store, Models: store, Embedder: stacktest.Embedder(t),
		Tools: &toolcall.Client{Outputs: toolcall.DirStore{Dir: t.TempDir()}}})
	require.NoError(t, w.Start())
	defer w.Stop()

	query := "What is the " + word + " outlook for Rome?"
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: stacktest.UniqueName("navi-e2e-codec-"), TaskQueue: queue},
		contract.Prefixed(contract.WorkflowQuery), workflows.QueryRequest{Query: query})
	require.NoError(t, err)
	var res workflows.QueryResult
	require.NoError(t, run.Get(ctx, &res))
	require.Equal(t, workflows.StatusAnswered, res.Status, res.Answer)
	assert.Equal(t, outlook, res.Results[word+".Outlook"]["outlook"], "the client decodes what the worker encrypted")

	// The server holds ciphertext: read without the codec, no payload says the query or the
	// tool's answer; the tool's name shows in the search attributes only (they are indexed, so
	// they stay clear: Navi puts tool names and statuses there, never user text).
	hist := history(ctx, t, stacktest.TemporalClient(t), run.GetID(), run.GetRunID())
	for _, e := range hist.Events {
		b, err := proto.Marshal(e)
		require.NoError(t, err)
		for _, plain := range []string{query, outlook, "Rome"} {
			assert.False(t, bytes.Contains(b, []byte(plain)), "event %d (%s) holds %q in clear", e.EventId, e.EventType, plain)
		}
		if e.GetUpsertWorkflowSearchAttributesEventAttributes() == nil {
			assert.False(t, bytes.Contains(b, []byte(word)), "event %d (%s) names the tool in clear", e.EventId, e.EventType)
		}
	}
	input := hist.Events[0].GetWorkflowExecutionStartedEventAttributes().GetInput()
	require.Len(t, input.GetPayloads(), 1)
	assert.Equal(t, codec.Encoding, string(input.Payloads[0].Metadata[converter.MetadataEncoding]))

	// The codec server decodes it as the Temporal UI asks (its origin, X-Namespace).
	cdc, err := cfg.Codec()
	require.NoError(t, err)
	ui := "http://localhost:8233"
	cs := httptest.NewServer(codec.Handler(cdc, codec.ServerOptions{Origins: []string{ui}}))
	defer cs.Close()
	body, err := protojson.Marshal(input)
	require.NoError(t, err)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cs.URL+"/decode", bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Origin", ui)
	req.Header.Set("X-Namespace", cfg.Namespace)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	decoded, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var out commonpb.Payloads
	require.NoError(t, protojson.Unmarshal(decoded, &out))
	var got workflows.QueryRequest
	require.NoError(t, converter.GetDefaultDataConverter().FromPayloads(&out, &got))
	assert.Equal(t, query, got.Query)

	// The recorded history replays under the codec (navi replay), and not without it.
	replay := func(dc converter.DataConverter) error {
		r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{DataConverter: dc})
		require.NoError(t, err)
		workflows.RegisterReplay(r)
		return r.ReplayWorkflowHistory(sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler)), hist)
	}
	require.NoError(t, replay(cdc.DataConverter()))
	assert.Error(t, replay(converter.GetDefaultDataConverter()), "ciphertext does not decode without the key")
}
