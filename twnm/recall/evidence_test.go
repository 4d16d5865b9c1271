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

// lengthEmbedder gives each text a vector of its length, so that a vector says which text
// it is of.
type lengthEmbedder struct{}

func (lengthEmbedder) Name() string { return "length" }
func (lengthEmbedder) Dim() int     { return 2 }
func (lengthEmbedder) Embed(_ context.Context, texts []string) ([][]float64, error) {
	out := make([][]float64, len(texts))
	for i, t := range texts {
		out[i] = []float64{float64(len(t)), 1}
	}
	return out, nil
}

// recordingLearned is a learned source that records the vectors it was asked about.
type recordingLearned struct {
	scoredSource
	asked *[][]float64
}

func (r recordingLearned) Served(_ context.Context, vec []float64, _ int) ([]Hit, error) {
	*r.asked = append(*r.asked, vec)
	return nil, nil
}

func TestRetrieveComparesPastSubGoalsByWhatTheyAsk(t *testing.T) {
	var asked [][]float64
	src := recordingLearned{scoredSource{lex: 1, dense: 0.5}, &asked}
	const request = "What is the air quality index at latitude 25.2048, longitude 55.2708?"
	_, err := Retrieve(context.Background(), src, lengthEmbedder{}, request, Options{})
	require.NoError(t, err)
	require.NotEmpty(t, asked)
	// The values the request states are left out of what is compared with past sub-goals.
	want := float64(len("What is the air quality index at latitude , longitude ?"))
	assert.Contains(t, asked, []float64{want, 1})
	assert.NotContains(t, asked, []float64{float64(len(request)), 1})
}
