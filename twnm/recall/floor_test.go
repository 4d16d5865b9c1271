package recall

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scoredSource answers every text with one API: lexically with lex (none when 0), by meaning
// with dense.
type scoredSource struct{ lex, dense float64 }

func (s scoredSource) Lexical(context.Context, string, int) ([]Hit, error) {
	if s.lex == 0 {
		return nil, nil
	}
	return []Hit{{Name: "Reverse", Score: s.lex}}, nil
}

func (s scoredSource) Dense(context.Context, []float64, int) ([]Hit, error) {
	return []Hit{{Name: "Reverse", Score: s.dense}}, nil
}

// unitEmbedder gives every text the same vector: the source decides the similarity.
type unitEmbedder struct{}

func (unitEmbedder) Name() string { return "unit" }
func (unitEmbedder) Dim() int     { return 2 }
func (unitEmbedder) Embed(_ context.Context, texts []string) ([][]float64, error) {
	out := make([][]float64, len(texts))
	for i := range out {
		out[i] = []float64{1, 0}
	}
	return out, nil
}

func TestRetrieveWordlessFloor(t *testing.T) {
	tests := []struct {
		name         string
		src          scoredSource
		o            Options
		wantRelevant bool
	}{
		{"a shared word: the floor", scoredSource{lex: 1.2, dense: 0.24}, Options{}, true},
		{"no shared word: the higher floor", scoredSource{dense: 0.24}, Options{}, false},
		{"no shared word, plainly similar", scoredSource{dense: 0.31}, Options{}, true},
		{"under the floor either way", scoredSource{lex: 1.2, dense: 0.19}, Options{}, false},
		{"the higher floor disabled", scoredSource{dense: 0.24}, Options{WordlessFloor: -1}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Retrieve(context.Background(), tt.src, unitEmbedder{}, "Translate good morning into Japanese.", tt.o)
			require.NoError(t, err)
			assert.Equal(t, tt.wantRelevant, r.Whole().Relevant)
		})
	}
}

// A request that is one JSON value is data, not a task: nothing is relevant to it, however
// much its words match. A request that carries data beside its words is read as ever.
func TestRetrieveDataIsNoTask(t *testing.T) {
	src := scoredSource{lex: 1.2, dense: 0.9}
	for _, tt := range []struct {
		request      string
		wantRelevant bool
	}{
		{`{"a": 1, "b": [2, 3]}`, false},
		{` [{"name": "Rome", "entityType": "city"}] `, false},
		{`Create the entities [{"name": "Rome", "entityType": "city"}]`, true},
		{`{not json`, true},
	} {
		r, err := Retrieve(context.Background(), src, unitEmbedder{}, tt.request, Options{})
		require.NoError(t, err)
		assert.Equal(t, tt.wantRelevant, r.Whole().Relevant, tt.request)
		if !tt.wantRelevant {
			assert.Empty(t, r.Whole().Candidates, "nothing is searched for data")
		}
	}
}
