package retrieval_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/retrieval"
)

func TestWarm(t *testing.T) {
	store := stacktest.Store(t)
	stacktest.LoadToolWorld(t, store)
	emb := stacktest.Embedder(t)
	ctx := context.Background()
	texts, err := store.APIDescriptions(ctx, 10)
	require.NoError(t, err)
	require.Len(t, texts, 10, "ten of the graph's descriptions, spread over it")
	assert.NotEqual(t, texts[0], texts[1])

	st, err := retrieval.Warm(ctx, store, emb, texts, retrieval.WarmOptions{Requests: 25})
	require.NoError(t, err)
	assert.Equal(t, 25, st.Retrievals, "every retrieval asked for ran, the texts in turn")
	assert.Positive(t, st.First)
	assert.Positive(t, st.Last)
	assert.GreaterOrEqual(t, st.Elapsed, st.Last)

	st, err = retrieval.Warm(ctx, store, emb, nil, retrieval.WarmOptions{})
	require.NoError(t, err)
	assert.Zero(t, st.Retrievals, "nothing to ask: nothing runs")

	// A budget spent ends the warm-up without an error: it warmed what it could.
	st, err = retrieval.Warm(ctx, store, emb, texts, retrieval.WarmOptions{Requests: 100_000, Budget: 300 * time.Millisecond})
	require.NoError(t, err)
	assert.Less(t, st.Retrievals, 100_000)
}

// brokenEmbedder fails every call, as an encoder whose model is gone would.
type brokenEmbedder struct{}

func (brokenEmbedder) Name() string { return "broken" }
func (brokenEmbedder) Dim() int     { return 384 }
func (brokenEmbedder) Embed(context.Context, []string) ([][]float64, error) {
	return nil, errors.New("the model is gone")
}

func TestWarmFails(t *testing.T) {
	store := stacktest.Store(t)
	// A retrieval that fails for another reason than its text ends the warm-up with the error.
	st, err := retrieval.Warm(context.Background(), store, brokenEmbedder{}, []string{"weather now"}, retrieval.WarmOptions{Requests: 4})
	require.ErrorContains(t, err, "the model is gone")
	assert.Zero(t, st.Retrievals)
}
