package workflows_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/workflows"
)

// TestAgentTakesTheItemTheRequestNames imports a chat service whose invites are read per
// channel (/Channels/{ChannelSid}/Invites) and whose channels are listed (/Channels), served
// by its own server. Asked about the "Board Prep" channel, the run lists the channels and
// reads the invites of the channel of that name, not of the list's first; a name the list
// lacks reads no invites. Its history is recorded (query_v16_item_pick) and replays.
func TestAgentTakesTheItemTheRequestNames(t *testing.T) {
	store := stacktest.Store(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	word := strings.ReplaceAll(stacktest.UniqueName("parley"), "-", "")
	var mu sync.Mutex
	var invitesOf []string // the channels whose invites were read
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/Channels":
			_ = json.NewEncoder(w).Encode(map[string]any{"channels": []any{
				map[string]any{"sid": "CH1", "friendly_name": "General"},
				map[string]any{"sid": "CH2", "friendly_name": "Board Prep"}}})
		case strings.HasSuffix(r.URL.Path, "/Invites"):
			mu.Lock()
			invitesOf = append(invitesOf, strings.Split(r.URL.Path, "/")[2])
			mu.Unlock()
			_ = json.NewEncoder(w).Encode(map[string]any{"invites": []any{map[string]any{"identity": "ana"}}})
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	ep := func(path string) *twnm.Endpoint { return &twnm.Endpoint{Method: "GET", Path: path, BaseURL: srv.URL} }
	_, err := store.LoadCatalog(ctx, twnm.Catalog{Name: word, APIs: []twnm.API{
		{Name: word + ".ListChannel", Source: word, Provider: word, Description: "Lists the " + word + " channels.", Endpoint: ep("/Channels"),
			Outputs: []twnm.Param{{Name: "sid", Type: "string", Path: "channels[].sid"}, {Name: "friendly_name", Type: "string", Path: "channels[].friendly_name"}}},
		{Name: word + ".ListInvite", Source: word, Provider: word, Description: "Lists the pending " + word + " invites of a channel.",
			Endpoint: ep("/Channels/{ChannelSid}/Invites"),
			Inputs:   []twnm.Param{{Name: "ChannelSid", Type: "string", Required: true, In: twnm.InPath, Description: "The SID of the channel."}},
			Outputs:  []twnm.Param{{Name: "identity", Type: "string", Path: "invites[].identity"}}},
	}})
	require.NoError(t, err)
	t.Cleanup(func() { _, _ = store.DeleteCatalog(context.Background(), word) })

	a := startAgent(t, agentOptions{})
	run, res := a.ask(ctx, t, workflows.QueryRequest{Query: `Who has a pending ` + word + ` invite to the "Board Prep" channel?`, NoFeedback: true})
	require.Equal(t, workflows.StatusAnswered, res.Status, res.Answer)
	assert.Equal(t, []string{word + ".ListChannel", word + ".ListInvite"}, []string(res.Chain))
	assert.Equal(t, []string{"CH2"}, invitesOf, "the invites of the channel named so, not of the list's first")
	replayAndRecord(t, history(ctx, t, a.c, run.GetID(), run.GetRunID()), "query_v16_item_pick")

	mu.Lock()
	invitesOf = nil
	mu.Unlock()
	_, res = a.ask(ctx, t, workflows.QueryRequest{Query: `Who has a pending ` + word + ` invite to the "Escalations" channel?`, NoFeedback: true,
		ClarifyDeadline: 2 * time.Second})
	assert.NotEqual(t, workflows.StatusAnswered, res.Status, res.Answer)
	assert.Empty(t, invitesOf, "no channel of that name: no invites read")
}
