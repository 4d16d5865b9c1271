package workflows_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/workflows"
)

// TestAgentCallsTheSourceAsked imports two sources whose specs share an operation (getPet),
// each served by its own server, as navi tools import names them (<source>.getPet): a request
// that names a source is answered by that source's API, and the other's server hears nothing.
func TestAgentCallsTheSourceAsked(t *testing.T) {
	store := stacktest.Store(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	type shop struct {
		source string
		calls  atomic.Int32
		srv    *httptest.Server
	}
	// Unique words for the two sources: the shared test graph holds other tests' APIs.
	word := strings.ReplaceAll(stacktest.UniqueName("pets"), "-", "")
	shops := []*shop{{source: word + "north"}, {source: word + "south"}}
	for _, sh := range shops {
		sh.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			sh.calls.Add(1)
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"name": "Rex of " + sh.source, "species": "dog"})
		}))
		defer sh.srv.Close()
		api := twnm.API{Name: sh.source + ".getPet", Provider: sh.source, Description: "Reads a pet of the " + sh.source + " shop by its id.",
			Endpoint: &twnm.Endpoint{Method: "GET", Path: "/pets/{id}", BaseURL: sh.srv.URL},
			Inputs:   []twnm.Param{{Name: "id", Type: "string", Required: true, In: twnm.InPath, Description: "The pet's id."}},
			Outputs:  []twnm.Param{{Name: "name", Type: "string"}, {Name: "species", Type: "string"}}}
		_, err := store.LoadCatalog(ctx, twnm.Catalog{Name: sh.source, APIs: []twnm.API{api}})
		require.NoError(t, err)
		t.Cleanup(func() { _, _ = store.DeleteCatalog(context.Background(), sh.source) })
	}
	a := startAgent(t, agentOptions{})
	for i, asked := range shops {
		other := shops[1-i]
		before := other.calls.Load()
		_, res := a.ask(ctx, t, workflows.QueryRequest{Query: "Read pet pet-7 from the " + asked.source + " shop", NoFeedback: true})
		require.Equal(t, workflows.StatusAnswered, res.Status, res.Answer)
		assert.Equal(t, []string{asked.source + ".getPet"}, []string(res.Chain))
		assert.Equal(t, "Rex of "+asked.source, res.Results[asked.source+".getPet"]["name"])
		assert.Equal(t, int32(1), asked.calls.Load())
		assert.Equal(t, before, other.calls.Load(), "the other source's server hears nothing")
	}
}
