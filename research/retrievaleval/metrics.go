package retrievaleval

import "math"

// Cut-offs of the metrics.
const (
	RecallK = 5
	NDCGK   = 10
)

// Score is one task's result under one method.
type Score struct {
	// FinalRank is the 1-based rank of the task's Final, 0 when the ranking lacks it.
	FinalRank int `json:"final_rank"`
	// ChainRanks holds the rank of each API of the task's Chain, in the Chain's order (0: not
	// ranked).
	ChainRanks []int   `json:"chain_ranks"`
	Recall5    float64 `json:"recall_at_5"`
	NDCG10     float64 `json:"ndcg_at_10"`
}

// Hit reports whether Final is ranked within the top k.
func (s Score) Hit(k int) bool { return s.FinalRank > 0 && s.FinalRank <= k }

// ReciprocalRank is 1/FinalRank, 0 when Final is not ranked.
func (s Score) ReciprocalRank() float64 {
	if s.FinalRank <= 0 {
		return 0
	}
	return 1 / float64(s.FinalRank)
}

// ScoreTask scores a ranking (API names, best first, without repeats) against a task's gold.
func ScoreTask(t Task, ranking []string) Score {
	pos := make(map[string]int, len(ranking))
	for i, name := range ranking {
		if _, ok := pos[name]; !ok {
			pos[name] = i + 1
		}
	}
	s := Score{FinalRank: pos[t.Final], ChainRanks: make([]int, len(t.Chain))}
	for i, a := range t.Chain {
		s.ChainRanks[i] = pos[a]
	}
	s.Recall5 = RecallAt(s.ChainRanks, RecallK)
	s.NDCG10 = NDCGAt(s.ChainRanks, NDCGK)
	return s
}

// RecallAt is the share of the gold APIs, given by their ranks (0: not ranked), that are
// ranked within the top k: |Chain ∩ top k| / |Chain|. It is 0 for no gold APIs.
func RecallAt(ranks []int, k int) float64 {
	if len(ranks) == 0 {
		return 0
	}
	n := 0
	for _, r := range ranks {
		if r > 0 && r <= k {
			n++
		}
	}
	return float64(n) / float64(len(ranks))
}

// NDCGAt is the normalized discounted cumulative gain at k with binary relevance, the gold
// APIs given by their ranks (0: not ranked): Σ 1/log2(r+1) over the gold ranks r ≤ k, divided
// by the ideal Σ_{r=1}^{min(len(ranks),k)} 1/log2(r+1). It is 0 for no gold APIs.
func NDCGAt(ranks []int, k int) float64 {
	var dcg, ideal float64
	for _, r := range ranks {
		if r > 0 && r <= k {
			dcg += 1 / math.Log2(float64(r)+1)
		}
	}
	for r := 1; r <= min(len(ranks), k); r++ {
		ideal += 1 / math.Log2(float64(r)+1)
	}
	if ideal == 0 {
		return 0
	}
	return dcg / ideal
}

// Metrics are the means over a set's tasks for one method, as fractions in [0, 1] (times in
// milliseconds).
type Metrics struct {
	Hit1    float64 `json:"hit_at_1"`
	Hit3    float64 `json:"hit_at_3"`
	Hit10   float64 `json:"hit_at_10"`
	MRR     float64 `json:"mrr"`
	Recall5 float64 `json:"recall_at_5"`
	NDCG10  float64 `json:"ndcg_at_10"`
	// QueryMillis is the mean wall time of one Rank call.
	QueryMillis float64 `json:"query_ms"`
}

// Aggregate averages the scores of a set's tasks; millis holds each task's Rank time, in
// the same order (it may be nil).
func Aggregate(scores []Score, millis []float64) Metrics {
	var m Metrics
	if len(scores) == 0 {
		return m
	}
	for _, s := range scores {
		m.Hit1 += b2f(s.Hit(1))
		m.Hit3 += b2f(s.Hit(3))
		m.Hit10 += b2f(s.Hit(10))
		m.MRR += s.ReciprocalRank()
		m.Recall5 += s.Recall5
		m.NDCG10 += s.NDCG10
	}
	n := float64(len(scores))
	m.Hit1 /= n
	m.Hit3 /= n
	m.Hit10 /= n
	m.MRR /= n
	m.Recall5 /= n
	m.NDCG10 /= n
	if len(millis) > 0 {
		for _, ms := range millis {
			m.QueryMillis += ms
		}
		m.QueryMillis /= float64(len(millis))
	}
	return m
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
