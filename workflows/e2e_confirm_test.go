package workflows_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"

	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/workflows"
)

// TestConfirmedWriteOnRealStack runs a destructive call (an HTTP DELETE) through the real
// stack: the run asks the user to approve it, showing the call, and sends it once the answer
// Update says yes. Its history replays (and is recorded with NAVI_RECORD_HISTORIES).
func TestConfirmedWriteOnRealStack(t *testing.T) {
	store := stacktest.Store(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var deletes atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			deletes.Add(1)
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status": "cancelled"}`))
	}))
	defer srv.Close()
	word := strings.ReplaceAll(stacktest.UniqueName("tablebook"), "-", "")
	cancelAPI := twnm.API{Name: word + ".CancelReservation", Description: "Cancels the " + word + " table reservation of a city.",
		Endpoint: &twnm.Endpoint{Method: "DELETE", Path: "/reservations", BaseURL: srv.URL},
		Inputs:   []twnm.Param{{Name: "city", Type: "string", Required: true, In: twnm.InQuery}},
		Outputs:  []twnm.Param{{Name: "status", Type: "string"}}}
	_, err := store.LoadCatalog(ctx, twnm.Catalog{Name: word, APIs: []twnm.API{cancelAPI}})
	require.NoError(t, err)
	t.Cleanup(func() { _, _ = store.DeleteCatalog(context.Background(), word) })

	a := startAgent(t, agentOptions{})
	id := stacktest.UniqueName("navi-e2e-confirm-")
	run := a.start(ctx, t, id, workflows.QueryRequest{Query: "Cancel my " + word + " table reservation in Rome.", NoFeedback: true})
	var s workflows.QueryState
	require.Eventually(t, func() bool {
		v, err := a.c.QueryWorkflow(ctx, run.GetID(), run.GetRunID(), workflows.StateQuery)
		return err == nil && v.Get(&s) == nil && s.Confirm != ""
	}, time.Minute, 200*time.Millisecond, "the run asks to approve the call")
	assert.Equal(t, word+".CancelReservation", s.Confirm)
	assert.Equal(t, "Shall I call "+word+".CancelReservation(city=Rome)? I ask because it deletes or overwrites what it acts on. Answer yes or no.", s.Question)
	assert.Zero(t, deletes.Load(), "nothing is sent before the yes")
	h, err := a.c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: run.GetID(), RunID: run.GetRunID(),
		UpdateName: workflows.AnswerUpdate, Args: []any{workflows.ClarifyAnswer{Text: "yes"}}, WaitForStage: client.WorkflowUpdateStageCompleted})
	require.NoError(t, err)
	require.NoError(t, h.Get(ctx, nil))
	var res workflows.QueryResult
	require.NoError(t, run.Get(ctx, &res))
	require.Equal(t, workflows.StatusAnswered, res.Status, res.Answer)
	assert.Equal(t, []string{word + ".CancelReservation"}, []string(res.Chain))
	assert.Equal(t, int32(1), deletes.Load())
	replayAndRecord(t, history(ctx, t, a.c, run.GetID(), run.GetRunID()), "query_v12_confirm")
}
