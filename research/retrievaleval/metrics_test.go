package retrievaleval

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestScoreTask(t *testing.T) {
	task := Task{ID: "t", Final: "C", Chain: []string{"A", "B", "C"}, Ordered: true}
	tests := []struct {
		name       string
		ranking    []string
		finalRank  int
		chainRanks []int
		hits       [3]bool // @1, @3, @10
		rr         float64
		recall5    float64
		ndcg10     float64
	}{
		{
			name:    "perfect",
			ranking: []string{"C", "A", "B", "X"}, finalRank: 1, chainRanks: []int{2, 3, 1},
			hits: [3]bool{true, true, true}, rr: 1, recall5: 1, ndcg10: 1,
		},
		{
			// Final at 2; A at 6 (outside the top 5); B missing.
			// Recall@5 = 1/3. DCG = 1/log2(3) + 1/log2(7); IDCG = 1 + 1/log2(3) + 1/2.
			name:    "partial",
			ranking: []string{"X", "C", "Y", "Z", "W", "A"}, finalRank: 2, chainRanks: []int{6, 0, 2},
			hits: [3]bool{false, true, true}, rr: 0.5, recall5: 1.0 / 3,
			ndcg10: (1/math.Log2(3) + 1/math.Log2(7)) / (1 + 1/math.Log2(3) + 0.5),
		},
		{
			// Final at 11: a hit nowhere, RR 1/11; A at 10 counts for NDCG only.
			name:    "deep",
			ranking: []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "C"}, finalRank: 11, chainRanks: []int{10, 0, 11},
			hits: [3]bool{false, false, false}, rr: 1.0 / 11, recall5: 0,
			ndcg10: (1 / math.Log2(11)) / (1 + 1/math.Log2(3) + 0.5),
		},
		{
			name:    "nothing found",
			ranking: []string{"X"}, finalRank: 0, chainRanks: []int{0, 0, 0},
		},
		{
			name:    "empty ranking",
			ranking: nil, finalRank: 0, chainRanks: []int{0, 0, 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ScoreTask(task, tt.ranking)
			assert.Equal(t, tt.finalRank, s.FinalRank)
			assert.Equal(t, tt.chainRanks, s.ChainRanks)
			assert.Equal(t, tt.hits, [3]bool{s.Hit(1), s.Hit(3), s.Hit(10)})
			assert.InDelta(t, tt.rr, s.ReciprocalRank(), 1e-12)
			assert.InDelta(t, tt.recall5, s.Recall5, 1e-12)
			assert.InDelta(t, tt.ndcg10, s.NDCG10, 1e-12)
		})
	}
}

func TestNDCGAt(t *testing.T) {
	tests := []struct {
		name  string
		ranks []int
		k     int
		want  float64
	}{
		{"one gold at 1", []int{1}, 10, 1},
		// One gold API: the ideal is 1 at rank 1, so rank 3 gives 1/log2(4) = 0.5.
		{"one gold at 3", []int{3}, 10, 0.5},
		{"one gold beyond k", []int{11}, 10, 0},
		// Two gold at 2 and 3: (1/log2 3 + 1/2) / (1 + 1/log2 3).
		{"two gold at 2 and 3", []int{3, 2}, 10, (1/math.Log2(3) + 0.5) / (1 + 1/math.Log2(3))},
		// Twelve gold APIs, the ideal DCG stops at k: all in the top 10 ranks is perfect.
		{"more gold than k", []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 10, 1},
		{"no gold", nil, 10, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, NDCGAt(tt.ranks, tt.k), 1e-12)
		})
	}
}

func TestRecallAt(t *testing.T) {
	tests := []struct {
		ranks []int
		k     int
		want  float64
	}{
		{[]int{1, 5}, 5, 1},
		{[]int{1, 6}, 5, 0.5},
		{[]int{0, 2, 9, 4}, 5, 0.5},
		{[]int{0}, 5, 0},
		{nil, 5, 0},
	}
	for _, tt := range tests {
		assert.InDelta(t, tt.want, RecallAt(tt.ranks, tt.k), 1e-12, "%v @%d", tt.ranks, tt.k)
	}
}

func TestAggregate(t *testing.T) {
	// Three tasks: Final at 1, at 4, missing. Hit@1 1/3, @3 1/3, @10 2/3, MRR (1 + 1/4 + 0)/3.
	scores := []Score{
		{FinalRank: 1, Recall5: 1, NDCG10: 1},
		{FinalRank: 4, Recall5: 0.5, NDCG10: 0.25},
		{FinalRank: 0},
	}
	m := Aggregate(scores, []float64{1, 2, 6})
	assert.InDelta(t, 1.0/3, m.Hit1, 1e-12)
	assert.InDelta(t, 1.0/3, m.Hit3, 1e-12)
	assert.InDelta(t, 2.0/3, m.Hit10, 1e-12)
	assert.InDelta(t, 1.25/3, m.MRR, 1e-12)
	assert.InDelta(t, 0.5, m.Recall5, 1e-12)
	assert.InDelta(t, 1.25/3, m.NDCG10, 1e-12)
	assert.InDelta(t, 3, m.QueryMillis, 1e-12)
	assert.Equal(t, Metrics{}, Aggregate(nil, nil))
}
