package embed

import (
	"math"
	"slices"

	"github.com/naviagent/navi/twnm/embed/kernel"
)

// ExactLimit is the number of vectors up to which an Index compares a query with every vector
// (see Above); past it, with the vectors' clusters only.
const ExactLimit = 4096

// Index finds the vectors similar to many queries at once. Up to ExactLimit vectors it is
// exact (Above). Past it, it is an inverted file: the vectors are grouped in about √n
// clusters by a few rounds of k-means over their directions, and a query is compared with
// the members of the Probe clusters whose centres are most similar to it, so that a query
// costs about (√n + Probe·√n) products instead of n. Vectors in other clusters are missed:
// an approximate search, deterministic for given vectors. The clusters cost about
// kmeansRounds·√n products a vector, so they are made on the first search of at least that
// many queries; fewer queries (a tool integrated alone) are compared with every vector.
// An Index is not safe for concurrent use.
type Index struct {
	vectors [][]float64
	dim     int
	k       int // the clusters past ExactLimit: about √n
	// Past ExactLimit: the unit vectors (n×dim, row-major), the cluster centres (k×dim, unit
	// length, packed for kernel.Gemm) and each cluster's members, in vector order.
	unit    []float32
	centres []float32
	packed  []float32
	members [][]int
}

// Probe is how many clusters an Index past ExactLimit searches for each query.
const Probe = 12

// kmeansRounds is how many rounds of k-means shape the clusters.
const kmeansRounds = 4

// NewIndex indexes vectors, which must all have the length of the first (others, and zero
// vectors, match nothing).
func NewIndex(vectors [][]float64) *Index {
	x := &Index{vectors: vectors}
	if len(vectors) > 0 {
		x.dim = len(vectors[0])
	}
	if len(vectors) > ExactLimit {
		x.k = int(math.Ceil(math.Sqrt(float64(len(vectors)))))
	}
	return x
}

// cluster groups the vectors in x.k clusters (see Index).
func (x *Index) cluster() {
	n, d, k := len(x.vectors), x.dim, x.k
	x.unit = make([]float32, n*d)
	for j, v := range x.vectors {
		if len(v) == d {
			unit(x.unit[j*d:(j+1)*d], v)
		}
	}
	x.centres = make([]float32, k*d)
	for c := range k { // spread over the vectors, in order: deterministic
		j := c * n / k
		copy(x.centres[c*d:(c+1)*d], x.unit[j*d:(j+1)*d])
	}
	assign := make([]int, n)
	for round := range kmeansRounds {
		x.pack(k)
		nearest(x.unit, n, d, x.packed, k, assign)
		if round == kmeansRounds-1 {
			break
		}
		sums := make([]float64, k*d)
		for j, c := range assign {
			for i, f := range x.unit[j*d : (j+1)*d] {
				sums[c*d+i] += float64(f)
			}
		}
		for c := range k {
			var ss float64
			for _, f := range sums[c*d : (c+1)*d] {
				ss += f * f
			}
			if ss == 0 {
				continue // an empty cluster keeps its centre
			}
			inv := 1 / math.Sqrt(ss)
			for i := range d {
				x.centres[c*d+i] = float32(sums[c*d+i] * inv)
			}
		}
	}
	x.members = make([][]int, k)
	for j, c := range assign {
		x.members[c] = append(x.members[c], j)
	}
}

// pack packs the k centres for kernel.Gemm.
func (x *Index) pack(k int) {
	if len(x.packed) != kernel.PackedLen(x.dim, k) {
		x.packed = make([]float32, kernel.PackedLen(x.dim, k))
	}
	kernel.PackT(x.packed, x.centres, k, x.dim, x.dim)
}

// nearest writes into assign the centre (of k, packed) most similar to each of the n unit
// vectors of w (n×d), ties to the lower centre.
func nearest(w []float32, n, d int, packed []float32, k int, assign []int) {
	c := make([]float32, aboveRows*k)
	for lo := 0; lo < n; lo += aboveRows {
		m := min(aboveRows, n-lo)
		kernel.Gemm(m, k, d, w[lo*d:], d, packed, nil, c, k, 0)
		for i := range m {
			row := c[i*k : (i+1)*k]
			best := 0
			for j, s := range row {
				if s > row[best] {
					best = j
				}
			}
			assign[lo+i] = best
		}
	}
}

// Above returns, for each query, the indexed vectors whose cosine similarity with it is at
// least floor, in the order of the vectors, with their scores (float32 products, within
// about 1e-6 of Cosine's). Up to ExactLimit vectors, or for fewer than kmeansRounds·√n
// queries, this is the package's Above; otherwise only the members of the Probe clusters
// nearest each query are compared.
func (x *Index) Above(queries [][]float64, floor float64) [][]Scored {
	if x.k == 0 || x.members == nil && len(queries) < kmeansRounds*x.k {
		return Above(queries, x.vectors, floor)
	}
	if x.members == nil {
		x.cluster()
	}
	out := make([][]Scored, len(queries))
	d, k := x.dim, len(x.members)
	probe := min(Probe, k)
	inBlocks(len(queries), func() func(lo, m int) {
		a := make([]float32, aboveRows*d)
		c := make([]float32, aboveRows*k)
		order := make([]int, k)
		return func(lo, m int) {
			loadUnits(a, queries[lo:lo+m], d)
			kernel.Gemm(m, k, d, a, d, x.packed, nil, c, k, 0)
			for i := range m {
				scores := c[i*k : (i+1)*k]
				for j := range order {
					order[j] = j
				}
				slices.SortStableFunc(order, func(p, q int) int {
					switch {
					case scores[p] > scores[q]:
						return -1
					case scores[p] < scores[q]:
						return 1
					}
					return 0
				})
				q := a[i*d : (i+1)*d]
				var hits []Scored
				for _, cl := range order[:probe] {
					for _, j := range x.members[cl] {
						if s := dot32(q, x.unit[j*d:(j+1)*d]); float64(s) >= floor {
							hits = append(hits, Scored{Index: j, Score: float64(s)})
						}
					}
				}
				slices.SortFunc(hits, func(p, q Scored) int { return p.Index - q.Index })
				out[lo+i] = hits
			}
		}
	})
	return out
}

// dot32 is the dot product of two float32 vectors of one length.
func dot32(a, b []float32) float32 {
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}
