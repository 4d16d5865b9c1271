//go:build amd64 && !purego

package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// withGo runs f with the portable kernels.
func withGo(t *testing.T, f func()) {
	t.Helper()
	saved := useAsm
	useAsm = false
	defer func() { useAsm = saved }()
	f()
}

// The assembly and the portable kernels must agree, on odd sizes, up to the rounding of FMA.
func TestAsmMatchesGo(t *testing.T) {
	if !useAsm {
		t.Log("this CPU lacks AVX2 or FMA: only the portable kernels run")
		return
	}
	r := rand.New(rand.NewPCG(11, 12))
	for _, s := range []struct{ m, n, k int }{{1, 1, 1}, {5, 17, 3}, {6, 16, 1}, {7, 31, 5}, {13, 47, 129}, {61, 100, 257}, {100, 384, 1536}} {
		t.Run(fmt.Sprintf("gemm-%dx%dx%d", s.m, s.n, s.k), func(t *testing.T) {
			a := randSlice(r, s.m*s.k)
			w := randSlice(r, s.n*s.k)
			bias := randSlice(r, s.n)
			p := make([]float32, PackedLen(s.k, s.n))
			PackT(p, w, s.n, s.k, s.k)
			asm := make([]float32, s.m*s.n)
			Gemm(s.m, s.n, s.k, a, s.k, p, bias, asm, s.n, GELU)
			pure := make([]float32, s.m*s.n)
			withGo(t, func() { Gemm(s.m, s.n, s.k, a, s.k, p, bias, pure, s.n, GELU) })
			tol := 2e-6 * math.Sqrt(float64(s.k))
			for i := range asm {
				require.InDelta(t, pure[i], asm[i], tol, "element %d", i)
			}
		})
	}
	t.Run("gelu", func(t *testing.T) {
		x := make([]float32, 0, 24001)
		for v := -12.0; v <= 12.0; v += 0.001 {
			x = append(x, float32(v))
		}
		asm := append([]float32(nil), x...)
		GELUInPlace(asm)
		for i, v := range x {
			require.InDelta(t, GELU32(v), asm[i], 1e-6*math.Max(1, math.Abs(float64(v))), "gelu(%g)", v)
		}
	})
	t.Run("softmax", func(t *testing.T) {
		for _, n := range []int{8, 16, 40, 256} {
			x := randSlice(r, n)
			for i := range x {
				x[i] *= 20
			}
			asm := append([]float32(nil), x...)
			Softmax(asm)
			pure := append([]float32(nil), x...)
			softmaxGo(pure)
			for i := range x {
				require.InDelta(t, pure[i], asm[i], 3e-7, "n=%d i=%d", n, i)
			}
		}
	})
}
