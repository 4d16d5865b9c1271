package embed

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTopK(t *testing.T) {
	q := []float64{1, 0}
	vs := [][]float64{
		{0, 1},           // 0: score 0
		{1, 0},           // 1: score 1
		{1, 1},           // 2: score 1/√2
		{2, 0},           // 3: score 1, tie with 1
		{-1, 0},          // 4: score -1
		{0, 0},           // 5: zero vector, score 0, tie with 0
		{1, 0, 0},        // 6: other length, left out
		{math.NaN(), 1},  // 7: NaN, left out
		{2, 2},           // 8: score 1/√2, tie with 2
		{math.Inf(1), 0}, // 9: Inf/Inf is NaN, left out
		{0.5, -0.5},      // 10: score 1/√2, tie with 2 and 8
	}
	s := 1 / math.Sqrt2
	tests := []struct {
		name string
		k    int
		want []Scored
	}{
		{"zero", 0, nil},
		{"negative", -3, nil},
		{"one", 1, []Scored{{1, 1}}},
		{"ties by index", 2, []Scored{{1, 1}, {3, 1}}},
		{"three-way tie cut", 4, []Scored{{1, 1}, {3, 1}, {2, s}, {8, s}}},
		{"all", 100, []Scored{{1, 1}, {3, 1}, {2, s}, {8, s}, {10, s}, {0, 0}, {5, 0}, {4, -1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := TopK(q, vs, tt.k)
			require.Len(t, got, len(tt.want))
			for i := range got {
				assert.Equal(t, tt.want[i].Index, got[i].Index, "rank %d", i)
				assert.InDelta(t, tt.want[i].Score, got[i].Score, 1e-12, "rank %d", i)
			}
		})
	}
	assert.Empty(t, TopK(q, nil, 3))
}

// TestTopKMatchesSort compares TopK with a full sort on random vectors.
func TestTopKMatchesSort(t *testing.T) {
	vs := randomUnitVectors(2000, 32, 7)
	q := randomUnitVectors(1, 32, 8)[0]
	all := make([]Scored, len(vs))
	for i, v := range vs {
		all[i] = Scored{i, Cosine(q, v)}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Score > all[j].Score })
	for _, k := range []int{1, 10, 100, 2000} {
		got := TopK(q, vs, k)
		require.Len(t, got, k)
		for i := range got {
			assert.Equal(t, all[i].Index, got[i].Index, "k=%d rank %d", k, i)
			assert.InDelta(t, all[i].Score, got[i].Score, 1e-12)
		}
		assert.True(t, slices.IsSortedFunc(got, func(a, b Scored) int {
			if better(a, b) {
				return -1
			}
			return 1
		}))
	}
}

func BenchmarkTopK(b *testing.B) {
	vs := randomUnitVectors(16000, 256, 1)
	q := randomUnitVectors(1, 256, 2)[0]
	for _, k := range []int{10, 100} {
		b.Run("k="+strconv.Itoa(k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = TopK(q, vs, k)
			}
		})
	}
}
