package recall

import (
	"context"
	"strings"
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

// wordSource matches, lexically, the texts that hold word, and remembers the texts it was
// asked about.
type wordSource struct {
	word  string
	asked *[]string
}

func (s wordSource) Lexical(_ context.Context, text string, _ int) ([]Hit, error) {
	*s.asked = append(*s.asked, text)
	if !strings.Contains(strings.ToLower(text), s.word) {
		return nil, nil
	}
	return []Hit{{Name: "Daily", Score: 1.2}}, nil
}

func (s wordSource) Dense(context.Context, []float64, int) ([]Hit, error) {
	return []Hit{{Name: "Daily", Score: 0.24}}, nil
}

// The words that date a request leave its lexical query ("weather tomorrow in Oslo" is ranked
// by "weather in Oslo"), but a tool that shares one of them still shares a word with the
// request: the lower floor holds.
func TestRetrieveDatedWordsAreShared(t *testing.T) {
	for _, tt := range []struct {
		word         string
		wantRelevant bool
	}{{"tomorrow", true}, {"snow", false}} {
		var asked []string
		r, err := Retrieve(context.Background(), wordSource{word: tt.word, asked: &asked}, unitEmbedder{}, "Will I need an umbrella in Lisbon tomorrow?", Options{})
		require.NoError(t, err)
		assert.Equal(t, tt.wantRelevant, r.Whole().Relevant, tt.word)
		assert.Equal(t, tt.wantRelevant, r.Whole().Worded, tt.word)
		assert.Equal(t, !tt.wantRelevant, r.Wordless(), "%s: the request shares a word with a tool by its date alone", tt.word)
		assert.Contains(t, asked, "Will I need an umbrella in Lisbon ?", "the lexical query has no date")
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

// stopEmbedder tells texts that end with a full stop from those that do not, as the sentence
// encoder does, and stopSource finds the one API less similar to the former.
type stopEmbedder struct{}

func (stopEmbedder) Name() string { return "stop" }
func (stopEmbedder) Dim() int     { return 2 }
func (stopEmbedder) Embed(_ context.Context, texts []string) ([][]float64, error) {
	out := make([][]float64, len(texts))
	for i, t := range texts {
		out[i] = []float64{0, 1}
		if strings.HasSuffix(t, ".") {
			out[i] = []float64{1, 0}
		}
	}
	return out, nil
}

type stopSource struct{}

func (stopSource) Lexical(context.Context, string, int) ([]Hit, error) {
	return []Hit{{Name: "Images", Score: 1.2}}, nil
}

func (stopSource) Dense(_ context.Context, vec []float64, _ int) ([]Hit, error) {
	return []Hit{{Name: "Images", Score: 0.1*vec[0] + 0.25*vec[1]}}, nil
}

// The whole request finds a tool where one of its clauses does, though its own words, with
// the full stop, fall under the floor.
func TestRetrieveWholeIsRelevantWhereAClauseIs(t *testing.T) {
	r, err := Retrieve(context.Background(), stopSource{}, stopEmbedder{}, "Give me one cover image of the movie Oppenheimer.", Options{})
	require.NoError(t, err)
	require.NotEmpty(t, r.Clauses())
	assert.True(t, r.Clauses()[0].Relevant)
	assert.InDelta(t, 0.1, r.Whole().Best, 1e-9, "the whole request alone is under the floor")
	assert.True(t, r.Whole().Relevant)

	// No clause is relevant: nor is the whole request.
	r, err = Retrieve(context.Background(), scoredSource{lex: 1.2, dense: 0.1}, unitEmbedder{}, "Give me one cover image of the movie Oppenheimer.", Options{})
	require.NoError(t, err)
	assert.False(t, r.Whole().Relevant)
}

// wholeSource finds the one API more similar to a text that ends with a full stop (see
// stopEmbedder): the whole request clears the floor, its clause without the stop does not.
type wholeSource struct{ stopSource }

func (wholeSource) Dense(_ context.Context, vec []float64, _ int) ([]Hit, error) {
	return []Hit{{Name: "Images", Score: 0.25*vec[0] + 0.1*vec[1]}}, nil
}

// A request of one clause is that clause: where the whole request clears the floor, its one
// clause is no unserved part.
func TestRetrieveOneClauseIsRelevantWhereTheWholeIs(t *testing.T) {
	r, err := Retrieve(context.Background(), wholeSource{}, stopEmbedder{}, "Give me one cover image of the movie Oppenheimer.", Options{})
	require.NoError(t, err)
	require.Len(t, r.Clauses(), 1)
	assert.InDelta(t, 0.1, r.Clauses()[0].Best, 1e-9, "the clause alone is under the floor")
	assert.True(t, r.Whole().Relevant)
	assert.True(t, r.Clauses()[0].Relevant)
	assert.True(t, r.Relevant())
}

// echoSource finds, for every text, one API named after the text it was asked with.
type echoSource struct{}

func (echoSource) Lexical(_ context.Context, text string, _ int) ([]Hit, error) {
	return []Hit{{Name: text, Score: 1}}, nil
}

func (echoSource) Dense(context.Context, []float64, int) ([]Hit, error) {
	return []Hit{{Name: "Any", Score: 0.5}}, nil
}

// Every clause of a compound request but the last has its head ranked on its own (Goal.Head),
// as the last clause's is (Result.Focus): each part chooses its final step as a request does.
func TestRetrieveRanksEveryClausesHead(t *testing.T) {
	r, err := Retrieve(context.Background(), echoSource{}, unitEmbedder{}, "Give me the details of the best home for sale near Boston. Also, book the best hotel in Madrid.", Options{})
	require.NoError(t, err)
	clauses := r.Clauses()
	require.Len(t, clauses, 2)
	head := clauses[0].Head
	require.NotNil(t, head, "the first clause's head")
	assert.True(t, strings.HasPrefix(clauses[0].Text, head.Text) && len(head.Text) < len(clauses[0].Text), "%q is the head of %q", head.Text, clauses[0].Text)
	require.NotEmpty(t, head.Candidates)
	assert.Contains(t, head.Candidates[0].Name, "details", "ranked by its own words")
	assert.NotContains(t, head.Candidates[0].Name, "Boston")
	assert.Nil(t, clauses[1].Head, "the last clause's head is the request's focus")
	require.NotNil(t, r.Focus)
}
