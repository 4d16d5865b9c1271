package embed

import (
	"math"
	"runtime"
	"sync"

	"github.com/naviagent/navi/twnm/embed/kernel"
)

// aboveRows is how many queries one matrix product scores at a time: their scores against
// every vector (aboveRows × len(vectors) float32s) are kept until read.
const aboveRows = 64

// Above returns, for each query, the vectors whose cosine similarity with it is at least floor,
// in the order of vectors, with their scores. It is an exact nearest-vector search for many
// queries at once: the vectors are normalised and packed once, then each block of queries is
// scored against all of them in one float32 matrix product (kernel.Gemm), the blocks spread
// over GOMAXPROCS goroutines. Scores are float32 products, within about 1e-6 of Cosine's.
// Vectors of another length than the first query's, and zero vectors, match nothing. The
// result is deterministic.
func Above(queries, vectors [][]float64, floor float64) [][]Scored {
	out := make([][]Scored, len(queries))
	if len(queries) == 0 || len(vectors) == 0 {
		return out
	}
	dim := len(queries[0])
	n := len(vectors)
	w := make([]float32, n*dim) // n×dim, one normalised vector a row
	for j, v := range vectors {
		if len(v) == dim {
			unit(w[j*dim:(j+1)*dim], v)
		}
	}
	b := make([]float32, kernel.PackedLen(dim, n))
	kernel.PackT(b, w, n, dim, dim)

	inBlocks(len(queries), func() func(lo, m int) {
		a := make([]float32, aboveRows*dim)
		c := make([]float32, aboveRows*n)
		return func(lo, m int) {
			loadUnits(a, queries[lo:lo+m], dim)
			kernel.Gemm(m, n, dim, a, dim, b, nil, c, n, 0)
			for i := range m {
				var hits []Scored
				for j, s := range c[i*n : (i+1)*n] {
					if float64(s) >= floor {
						hits = append(hits, Scored{Index: j, Score: float64(s)})
					}
				}
				out[lo+i] = hits // each block writes its own rows
			}
		}
	})
	return out
}

// inBlocks calls work for each block of at most aboveRows of n queries (lo, m: the block's
// first query and its size), the blocks spread over GOMAXPROCS goroutines; each goroutine
// makes its own work with newWork, with scratch buffers of its own.
func inBlocks(n int, newWork func() func(lo, m int)) {
	blocks := (n + aboveRows - 1) / aboveRows
	workers := max(1, min(runtime.GOMAXPROCS(0), blocks))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work := newWork()
			for blk := range next {
				lo := blk * aboveRows
				work(lo, min(aboveRows, n-lo))
			}
		}()
	}
	for blk := range blocks {
		next <- blk
	}
	close(next)
	wg.Wait()
}

// loadUnits writes the queries, scaled to unit length, as the rows of a (dim floats each);
// rows of a query of another length are zeros.
func loadUnits(a []float32, queries [][]float64, dim int) {
	clear(a)
	for i, q := range queries {
		if len(q) == dim {
			unit(a[i*dim:(i+1)*dim], q)
		}
	}
}

// unit writes v scaled to unit length into dst (zeros for a zero vector).
func unit(dst []float32, v []float64) {
	var ss float64
	for _, x := range v {
		ss += x * x
	}
	if ss == 0 {
		clear(dst)
		return
	}
	inv := 1 / math.Sqrt(ss)
	for i, x := range v {
		dst[i] = float32(x * inv)
	}
}
