package embed

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAboveMatchesCosine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	vec := func(d int) []float64 {
		v := make([]float64, d)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		return v
	}
	// More queries than one block, vectors that are not unit length, one zero vector and one
	// of another length.
	queries := make([][]float64, 150)
	for i := range queries {
		queries[i] = vec(24)
	}
	vectors := make([][]float64, 90)
	for j := range vectors {
		vectors[j] = vec(24)
	}
	vectors[3] = make([]float64, 24)
	vectors[7] = vec(10)
	queries[5] = vectors[11] // itself: cosine 1

	const floor = 0.3
	got := Above(queries, vectors, floor)
	require.Len(t, got, len(queries))
	for i, q := range queries {
		var want []int
		for j, v := range vectors {
			if len(v) == len(q) && Cosine(q, v) >= floor+1e-5 {
				want = append(want, j)
			}
		}
		var idx []int
		for _, s := range got[i] {
			idx = append(idx, s.Index)
			if len(vectors[s.Index]) == len(q) {
				assert.InDelta(t, Cosine(q, vectors[s.Index]), s.Score, 1e-5)
			}
			assert.GreaterOrEqual(t, s.Score, floor)
		}
		for _, j := range want {
			assert.Contains(t, idx, j, "query %d, vector %d", i, j)
		}
		assert.NotContains(t, idx, 3, "a zero vector matches nothing")
		assert.NotContains(t, idx, 7, "a vector of another length matches nothing")
	}
	assert.InDelta(t, 1, got[5][indexOf(got[5], 11)].Score, 1e-5)
	assert.Equal(t, got, Above(queries, vectors, floor), "deterministic")
	assert.Equal(t, [][]Scored{nil}, Above([][]float64{vec(24)}, nil, floor))
}

func indexOf(ss []Scored, j int) int {
	for i, s := range ss {
		if s.Index == j {
			return i
		}
	}
	return -1
}
