package embed

import (
	"container/heap"
	"math"
	"slices"
)

// Scored is one ranked vector: its index in the slice given to TopK and its cosine score.
type Scored struct {
	Index int
	Score float64
}

// TopK returns the k vectors most similar to query by cosine similarity, best first; equal
// scores are ordered by index, so the result is deterministic. It returns all vectors when k
// exceeds their number and nil when k <= 0. Vectors whose length differs from the query's,
// and vectors scoring NaN (a NaN component), cannot be compared and are left out rather than
// ranked arbitrarily. A zero vector scores 0 (see Cosine).
//
// It scans all vectors once with a bounded heap: O(n·d + n·log k) time, O(k) extra memory.
func TopK(query []float64, vectors [][]float64, k int) []Scored {
	if k <= 0 {
		return nil
	}
	var qq float64
	for _, x := range query {
		qq += x * x
	}
	h := make(minHeap, 0, min(k, len(vectors)))
	for i, v := range vectors {
		if len(v) != len(query) {
			continue
		}
		// Cosine inlined: the query norm is computed once, not once per vector.
		var dot, vv float64
		for j, x := range v {
			dot += query[j] * x
			vv += x * x
		}
		s := 0.0
		if qq != 0 && vv != 0 {
			s = dot / math.Sqrt(qq*vv)
		}
		if math.IsNaN(s) {
			continue
		}
		c := Scored{Index: i, Score: s}
		switch {
		case len(h) < k:
			heap.Push(&h, c)
		case better(c, h[0]):
			h[0] = c
			heap.Fix(&h, 0)
		}
	}
	out := []Scored(h)
	slices.SortFunc(out, func(a, b Scored) int {
		switch {
		case better(a, b):
			return -1
		case better(b, a):
			return 1
		}
		return 0
	})
	return out
}

// better reports whether a ranks before b: higher score, then lower index.
func better(a, b Scored) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.Index < b.Index
}

// minHeap keeps the worst of the current top k at its root.
type minHeap []Scored

func (h minHeap) Len() int           { return len(h) }
func (h minHeap) Less(i, j int) bool { return better(h[j], h[i]) }
func (h minHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)        { *h = append(*h, x.(Scored)) }
func (h *minHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
