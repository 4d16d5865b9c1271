package neo4j_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/embed"
	"github.com/naviagent/navi/twnm/recall"
)

// A served sub-goal is found again by a request like it, once per key, bounded per API, and
// forgotten after the window; the store's scores are cosines, as in process.
func TestRecordGoalsServed(t *testing.T) {
	s, ctx, prefix, _ := imported(t)
	emb := stacktest.Embedder(t)
	weather := prefix + "Weather"
	// The shared test graph holds the same catalog from other tests and runs: a word of this
	// test's own keeps its sub-goal apart.
	asked := "will it rain in the old town of " + word(prefix, "city") + " this evening"
	vecs, err := emb.Embed(ctx, []string{asked, "is it going to rain in old " + word(prefix, "city") + " tonight"})
	require.NoError(t, err)

	key := stacktest.UniqueName("goals")
	use := []neo4j.GoalUse{{API: weather, Text: asked, Vector: vecs[0]}, {API: prefix + "Unknown", Text: asked, Vector: vecs[0]}}
	require.NoError(t, s.RecordGoals(ctx, key, use, time.Now()))
	require.NoError(t, s.RecordGoals(ctx, key, use, time.Now()), "a retried write")
	texts, err := s.Goals(ctx, weather)
	require.NoError(t, err)
	assert.Equal(t, []string{asked}, texts, "recorded once; the unknown API is skipped")

	served, err := s.Served(ctx, vecs[1], 1000, false)
	require.NoError(t, err)
	var score float64
	for _, h := range served {
		if h.Name == weather {
			score = h.Score
		}
	}
	assert.InDelta(t, embed.Cosine(vecs[0], vecs[1]), score, stacktest.IndexCosineDelta, "the score is the cosine: %v", served)

	// Bounded: the newest MaxGoalsPerAPI stay.
	for i := range recall.MaxGoalsPerAPI + 3 {
		v, err := emb.Embed(ctx, []string{fmt.Sprintf("weather question number %d", i)})
		require.NoError(t, err)
		at := time.Now().Add(time.Duration(i) * time.Second)
		require.NoError(t, s.RecordGoals(ctx, fmt.Sprintf("%s-%d", key, i), []neo4j.GoalUse{{API: weather, Text: fmt.Sprintf("q%d", i), Vector: v[0]}}, at))
	}
	texts, err = s.Goals(ctx, weather)
	require.NoError(t, err)
	require.Len(t, texts, recall.MaxGoalsPerAPI)
	assert.Equal(t, fmt.Sprintf("q%d", recall.MaxGoalsPerAPI+2), texts[0], "newest first")
	assert.NotContains(t, texts, asked, "the oldest went first")

	// Forgotten after the window: a sub-goal recorded long ago no longer serves, and the next
	// write for its API removes it.
	old := prefix + "Geocode"
	require.NoError(t, s.RecordGoals(ctx, key+"-old", []neo4j.GoalUse{{API: old, Text: "where is Tbilisi", Vector: vecs[0]}},
		time.Now().AddDate(0, 0, -neo4j.GoalWindowDays-1)))
	served, err = s.Served(ctx, vecs[0], 1000, false)
	require.NoError(t, err)
	for _, h := range served {
		assert.NotEqual(t, old, h.Name, "an old sub-goal no longer serves")
	}
	require.NoError(t, s.RecordGoals(ctx, key+"-new", []neo4j.GoalUse{{API: old, Text: "where is Batumi", Vector: vecs[1]}}, time.Now()))
	texts, err = s.Goals(ctx, old)
	require.NoError(t, err)
	assert.Equal(t, []string{"where is Batumi"}, texts)
}

// The store's dense scores are cosines, like recall.Memory's: the relevance floor means the
// same on both paths.
func TestRecallSourceDenseIsCosine(t *testing.T) {
	s, ctx, prefix, c := imported(t)
	emb := stacktest.Embedder(t)
	vecs, err := emb.Embed(ctx, []string{"current weather at a place called " + word(prefix, "weather"), twnm.APIText(c.APIs[1])})
	require.NoError(t, err)
	hits, err := s.RecallSource(false).Dense(ctx, vecs[0], 1000)
	require.NoError(t, err)
	found := false
	for _, h := range hits {
		if h.Name == prefix+"Weather" {
			found = true
			assert.InDelta(t, embed.Cosine(vecs[0], vecs[1]), h.Score, stacktest.IndexCosineDelta, "the cosine of the query and the API's text")
		}
		assert.LessOrEqual(t, h.Score, 1.0)
	}
	require.True(t, found, "%v", hits)
}

// The batched reads of a request's sub-goals (recall.Batch) give what one query per sub-goal
// gives, in one transaction (ReadTx), texts without terms and zero vectors included; every
// hit carries its API's provider.
func TestRecallSourceBatchMatchesOneByOne(t *testing.T) {
	s, ctx, prefix, c := imported(t)
	provider := map[string]string{}
	for _, a := range c.APIs {
		provider[a.Name] = a.Provider
	}
	ownProviders := func(what string, lists [][]recall.Hit) {
		checked := 0
		for _, hs := range lists {
			for _, h := range hs {
				if p, ok := provider[h.Name]; ok {
					assert.Equal(t, p, h.Provider, "%s: %s", what, h.Name)
					checked++
				}
			}
		}
		assert.Positive(t, checked, "%s: a hit of this test's catalog", what)
	}
	emb := stacktest.Embedder(t)
	asked := "coordinates of " + word(prefix, "city")
	vecs, err := emb.Embed(ctx, []string{asked, "weather at " + word(prefix, "weather"), "places to eat"})
	require.NoError(t, err)
	require.NoError(t, s.RecordGoals(ctx, stacktest.UniqueName("batch"), []neo4j.GoalUse{{API: prefix + "Geocode", Text: asked, Vector: vecs[0]}}, time.Now()))
	texts := []string{asked, "the of and", "", "weather " + word(prefix, "weather") + " restaurants"}
	vecs = append(vecs, make([]float64, len(vecs[0])))
	norm := func(hs []recall.Hit) []recall.Hit { // no hits, however written
		if len(hs) == 0 {
			return nil
		}
		return hs
	}

	for _, callable := range []bool{false, true} {
		err := s.ReadTx(ctx, "test", func(rd neo4j.Reads) error {
			src, ok := rd.RecallSource(callable).(recall.Batch)
			require.True(t, ok, "the store's source answers in batches")
			lex, err := src.LexicalAll(ctx, texts, 5)
			require.NoError(t, err)
			require.Len(t, lex, len(texts))
			for i, text := range texts {
				one, err := src.Lexical(ctx, text, 5)
				require.NoError(t, err)
				assert.Equal(t, norm(one), norm(lex[i]), "lexical %q, callable %v", text, callable)
			}
			dense, err := src.DenseAll(ctx, vecs, 5)
			require.NoError(t, err)
			served, err := src.ServedAll(ctx, vecs, 5)
			require.NoError(t, err)
			require.Len(t, dense, len(vecs))
			require.Len(t, served, len(vecs))
			for i, v := range vecs {
				one, err := src.Dense(ctx, v, 5)
				require.NoError(t, err)
				assert.Equal(t, norm(one), norm(dense[i]), "dense %d, callable %v", i, callable)
				one, err = src.(recall.Learned).Served(ctx, v, 5)
				require.NoError(t, err)
				assert.Equal(t, norm(one), norm(served[i]), "served %d, callable %v", i, callable)
			}
			if !callable { // the test catalog's APIs are not callable
				ownProviders("lexical", lex)
				ownProviders("dense", dense)
				ownProviders("served", served)
				assert.NotEmpty(t, served[0], "the recorded sub-goal serves")
				assert.NotEmpty(t, lex[0])
			}
			assert.Empty(t, lex[1], "stop words alone match nothing")
			assert.Empty(t, dense[len(vecs)-1], "a zero vector is similar to nothing")
			return nil
		})
		require.NoError(t, err)
	}
}

// A rejected run's sub-goals are forgotten by its chain's key; other runs' stay.
func TestForgetGoals(t *testing.T) {
	s, ctx, prefix, _ := imported(t)
	emb := stacktest.Embedder(t)
	weather := prefix + "Weather"
	texts := []string{"is the sky clear over " + word(prefix, "city"), "will it snow in " + word(prefix, "city")}
	vecs, err := emb.Embed(ctx, texts)
	require.NoError(t, err)
	rejected, kept := stacktest.UniqueName("run-a/chain-1"), stacktest.UniqueName("run-b/chain-1")
	require.NoError(t, s.RecordGoals(ctx, rejected, []neo4j.GoalUse{{API: weather, Text: texts[0], Vector: vecs[0]}}, time.Now()))
	require.NoError(t, s.RecordGoals(ctx, kept, []neo4j.GoalUse{{API: weather, Text: texts[1], Vector: vecs[1]}}, time.Now()))

	n, err := s.ForgetGoals(ctx, rejected)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	got, err := s.Goals(ctx, weather)
	require.NoError(t, err)
	assert.Equal(t, []string{texts[1]}, got)

	n, err = s.ForgetGoals(ctx, rejected)
	require.NoError(t, err)
	assert.Zero(t, n, "forgetting again forgets nothing")
	_, err = s.ForgetGoals(ctx, "")
	assert.Error(t, err)
}

// A sub-goal kept without its text (payload encryption on) still serves by its vector, is
// recorded once per key, and keeps nothing of the request in Neo4j (a re-embedding forgets
// it: see TestReembedKeepsStatistics).
func TestRecordGoalsWithoutText(t *testing.T) {
	s, ctx, prefix, _ := imported(t)
	emb := stacktest.Embedder(t)
	weather := prefix + "Weather"
	asked := "is it snowing over " + word(prefix, "city") + " right now"
	vecs, err := emb.Embed(ctx, []string{asked})
	require.NoError(t, err)
	key := stacktest.UniqueName("goals")
	use := []neo4j.GoalUse{{API: weather, Vector: vecs[0]}, {API: weather, Vector: vecs[0]}}
	require.NoError(t, s.RecordGoals(ctx, key, use, time.Now()))
	require.NoError(t, s.RecordGoals(ctx, key, use, time.Now()), "a retried write")
	texts, err := s.Goals(ctx, weather)
	require.NoError(t, err)
	assert.Equal(t, []string{"", ""}, texts, "two sub-goals, once each, no text")
	n, err := neo4j.QueryCount(ctx, s, "MATCH (g:Goal)-[:SERVED]->(:API {name: $api}) WHERE g.text CONTAINS $word RETURN count(g) AS n",
		map[string]any{"api": weather, "word": word(prefix, "city")})
	require.NoError(t, err)
	assert.Zero(t, n, "nothing of the request is in the graph")
	served, err := s.Served(ctx, vecs[0], 1000, false)
	require.NoError(t, err)
	assert.True(t, slices.ContainsFunc(served, func(h recall.Hit) bool { return h.Name == weather }), "it serves by its vector")
}
