package embed

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// topics returns k random directions of dimension d.
func topics(rng *rand.Rand, k, d int) [][]float64 {
	out := make([][]float64, k)
	for t := range out {
		out[t] = make([]float64, d)
		for i := range d {
			out[t][i] = rng.NormFloat64()
		}
	}
	return out
}

// clustered returns n vectors around the topics, each a topic (in turn) plus noise of the
// given scale.
func clustered(rng *rand.Rand, n int, topics [][]float64, noise float64) [][]float64 {
	out := make([][]float64, n)
	for j := range out {
		c := topics[j%len(topics)]
		out[j] = make([]float64, len(c))
		for i := range c {
			out[j][i] = c[i] + noise*rng.NormFloat64()
		}
	}
	return out
}

func TestIndexExactUpToTheLimit(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ts := topics(rng, 10, 16)
	vectors := clustered(rng, 300, ts, 0.5)
	queries := clustered(rng, 70, ts, 0.5)
	assert.Equal(t, Above(queries, vectors, 0.6), NewIndex(vectors).Above(queries, 0.6))
	assert.Equal(t, [][]Scored{nil}, NewIndex(nil).Above(queries[:1], 0.6))
}

func TestIndexClustersPastTheLimit(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ts := topics(rng, 150, 32)
	vectors := clustered(rng, ExactLimit+1500, ts, 0.6)
	queries := clustered(rng, 400, ts, 0.6)
	const floor = 0.7
	exact := Above(queries, vectors, floor)
	x := NewIndex(vectors)

	// Fewer queries than clustering would pay for are compared with every vector.
	assert.Equal(t, exact[:10], x.Above(queries[:10], floor))
	assert.Nil(t, x.members, "no clusters yet")

	got := x.Above(queries, floor)
	require.NotNil(t, x.members, "past the limit, for 4·√n queries or more, the index clusters")
	assert.Len(t, x.members, 75, "about √n clusters")
	var want, found int
	for i := range queries {
		in := map[int]float64{}
		for _, s := range exact[i] {
			in[s.Index] = s.Score
		}
		want += len(exact[i])
		for k, s := range got[i] {
			score, ok := in[s.Index]
			require.True(t, ok, "query %d: vector %d is no exact hit", i, s.Index)
			assert.InDelta(t, score, s.Score, 1e-6)
			if k > 0 {
				assert.Less(t, got[i][k-1].Index, s.Index, "in the order of the vectors")
			}
		}
		found += len(got[i])
	}
	require.NotZero(t, want)
	t.Logf("recall %d of %d", found, want)
	assert.GreaterOrEqual(t, float64(found)/float64(want), 0.95, "recall %d of %d", found, want)
	assert.Equal(t, got, NewIndex(vectors).Above(queries, floor), "deterministic")
}
