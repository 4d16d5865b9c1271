package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func randSlice(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(r.NormFloat64())
	}
	return s
}

// refGemm is the float64 reference of Gemm for W given n×k (C = A·Wᵀ + bias).
func refGemm(m, n, k int, a []float32, lda int, w []float32, bias, c []float32, ldc int, f Flags) []float64 {
	out := make([]float64, m*n)
	for i := range m {
		for j := range n {
			var s float64
			for p := range k {
				s += float64(a[i*lda+p]) * float64(w[j*k+p])
			}
			if bias != nil {
				s += float64(bias[j])
			}
			if f&Accumulate != 0 {
				s += float64(c[i*ldc+j])
			}
			if f&GELU != 0 {
				s = 0.5 * s * (1 + math.Erf(s/math.Sqrt2))
			}
			out[i*n+j] = s
		}
	}
	return out
}

func TestGemm(t *testing.T) {
	tests := []struct {
		m, n, k int
		f       Flags
		bias    bool
	}{
		{1, 1, 1, 0, false},
		{1, 16, 384, 0, true},
		{5, 17, 3, 0, true},
		{6, 16, 4, 0, false},
		{7, 33, 257, GELU, true},
		{12, 1152, 384, 0, true},
		{13, 48, 513, Accumulate, true},
		{97, 40, 31, GELU, false},
		{200, 19, 600, Accumulate | GELU, true},
		{3, 5, 0, 0, true},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%dx%dx%d-f%d-bias%v", tt.m, tt.n, tt.k, tt.f, tt.bias), func(t *testing.T) {
			lda, ldc := tt.k+3, tt.n+5
			a := randSlice(r, tt.m*lda)
			w := randSlice(r, tt.n*tt.k)
			var bias []float32
			if tt.bias {
				bias = randSlice(r, tt.n)
			}
			c := randSlice(r, tt.m*ldc)
			guard := append([]float32(nil), c...)
			want := refGemm(tt.m, tt.n, tt.k, a, lda, w, bias, c, ldc, tt.f)

			b := make([]float32, PackedLen(tt.k, tt.n))
			PackT(b, w, tt.n, tt.k, tt.k)
			Gemm(tt.m, tt.n, tt.k, a, lda, b, bias, c, ldc, tt.f)
			tol := 1e-5 * math.Sqrt(float64(tt.k)+1) * 4
			for i := range tt.m {
				for j := range ldc {
					if j >= tt.n {
						require.Equal(t, guard[i*ldc+j], c[i*ldc+j], "column %d past n written in row %d", j, i)
						continue
					}
					require.InDelta(t, want[i*tt.n+j], float64(c[i*ldc+j]), tol, "C[%d][%d]", i, j)
				}
			}
		})
	}
}

func TestPackAgreesWithPackT(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	k, n := 37, 21
	w := randSlice(r, n*k) // n×k
	bt := make([]float32, k*n)
	for j := range n {
		for p := range k {
			bt[p*n+j] = w[j*k+p]
		}
	}
	p1 := make([]float32, PackedLen(k, n))
	p2 := make([]float32, PackedLen(k, n))
	for i := range p2 {
		p2[i] = 7 // Pack must zero the padding
	}
	PackT(p1, w, n, k, k)
	Pack(p2, bt, k, n, n)
	assert.Equal(t, p1, p2)
}

// A row's result must not depend on the rows around it: the encoder relies on it for
// batched and single embeddings to agree.
func TestGemmRowIndependence(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	n, k := 48, 300
	w := randSlice(r, n*k)
	b := make([]float32, PackedLen(k, n))
	PackT(b, w, n, k, k)
	bias := randSlice(r, n)
	m := 101
	a := randSlice(r, m*k)
	all := make([]float32, m*n)
	Gemm(m, n, k, a, k, b, bias, all, n, GELU)
	for _, i := range []int{0, 5, 6, 50, 96, 100} {
		one := make([]float32, n)
		Gemm(1, n, k, a[i*k:], k, b, bias, one, n, GELU)
		require.Equal(t, all[i*n:(i+1)*n], one, "row %d", i)
	}
}

func TestErf32AndGELU32(t *testing.T) {
	for x64 := -6.0; x64 <= 6.0; x64 += 0.001 {
		x := float64(float32(x64))
		assert.InDelta(t, math.Erf(x), float64(Erf32(float32(x))), 5e-7, "erf(%g)", x)
		want := 0.5 * x * (1 + math.Erf(x/math.Sqrt2))
		assert.InDelta(t, want, float64(GELU32(float32(x))), 1e-6*math.Max(1, math.Abs(x)), "gelu(%g)", x)
	}
}

func TestExp32(t *testing.T) {
	for x64 := -87.0; x64 <= 88.0; x64 += 0.0137 {
		x := float64(float32(x64))
		want := math.Exp(x)
		got := float64(Exp32(float32(x)))
		assert.InEpsilon(t, want, got, 3e-7, "exp(%g)", x)
	}
	assert.Equal(t, float32(1), Exp32(0))
	assert.Equal(t, float32(0), Exp32(float32(math.Inf(-1))))
	assert.Equal(t, float32(0), Exp32(-1000))
}

func TestSoftmax(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 3, 8, 16, 29, 64, 256} {
		x := randSlice(r, n)
		for i := range x {
			x[i] *= 5
		}
		if n > 2 {
			x[n-1] = float32(math.Inf(-1)) // masked
		}
		var mx float64 = math.Inf(-1)
		for _, v := range x {
			mx = math.Max(mx, float64(v))
		}
		want := make([]float64, n)
		var sum float64
		for i, v := range x {
			want[i] = math.Exp(float64(v) - mx)
			sum += want[i]
		}
		Softmax(x)
		for i := range x {
			require.InDelta(t, want[i]/sum, float64(x[i]), 1e-6, "n=%d i=%d", n, i)
		}
	}
}

func TestGELUInPlace(t *testing.T) {
	v := []float32{-10, -3, -1, -0.5, 0, 0.5, 1, 3, 10, 0.1, -0.1}
	got := append([]float32(nil), v...)
	GELUInPlace(got)
	for i, x := range v {
		want := 0.5 * float64(x) * (1 + math.Erf(float64(x)/math.Sqrt2))
		assert.InDelta(t, want, float64(got[i]), 2e-6, "gelu(%g)", x)
	}
}

func benchGemm(b *testing.B, m, n, k int) {
	r := rand.New(rand.NewPCG(1, 1))
	a := randSlice(r, m*k)
	w := randSlice(r, n*k)
	p := make([]float32, PackedLen(k, n))
	PackT(p, w, n, k, k)
	bias := randSlice(r, n)
	c := make([]float32, m*n)
	b.ResetTimer()
	for b.Loop() {
		Gemm(m, n, k, a, k, p, bias, c, n, 0)
	}
	b.ReportMetric(float64(2*m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
}

// The encoder's shapes: a 12-token query through the feed-forward input layer, and a batch
// of 640 tokens through both feed-forward layers.
func BenchmarkGemm(b *testing.B) {
	for _, s := range []struct{ m, n, k int }{{12, 1536, 384}, {640, 1536, 384}, {640, 384, 1536}, {640, 1152, 384}} {
		b.Run(fmt.Sprintf("%dx%dx%d", s.m, s.n, s.k), func(b *testing.B) { benchGemm(b, s.m, s.n, s.k) })
	}
}
