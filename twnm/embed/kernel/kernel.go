// Package kernel holds the float32 compute kernels of the MiniLM sentence encoder in
// twnm/embed: a register-blocked matrix product over prepacked right-hand matrices, a GELU
// pass and a row softmax. On amd64 CPUs with AVX2 and FMA they run in assembly (a 6x16
// micro-kernel with twelve YMM accumulators); elsewhere, or when built with the purego tag,
// they run in portable Go with the same blocking and the same approximations.
//
// Within one process the results are deterministic and independent of how rows are grouped:
// every element of a product is accumulated over k in the same order whatever m is, so a
// sequence embedded alone or inside a batch gets the same numbers.
package kernel

import (
	"fmt"
	"math"
)

// PanelWidth is the number of columns of B in one packed panel: the width of the
// micro-kernel's output tile.
const PanelWidth = 16

// Rows of the micro-kernel's output tile.
const panelRows = 6

// Cache blocking: a kc×16 slice of a packed panel (24 KiB at kc = 384) stays in L1 while the
// micro-kernel runs over the mc rows of an A block, and the A block (mc×kc, 72 KiB) stays in
// L2 while the panels stream by.
const (
	kcBlock = 384
	mcBlock = 48
)

// Impl names the implementation in use: "avx2" (assembly with AVX2 and FMA) or "go".
func Impl() string {
	if useAsm {
		return "avx2"
	}
	return "go"
}

// PackedLen returns the length of the packed form of a k×n matrix: n rounded up to a multiple
// of PanelWidth, times k.
func PackedLen(k, n int) int { return (n + PanelWidth - 1) / PanelWidth * PanelWidth * k }

// PackT packs B = Wᵀ into dst for Gemm, where W is n×k with rows ldw floats apart (the layout
// of a linear layer's weight: one row per output). dst must hold PackedLen(k, n) floats; the
// columns past n of the last panel are zeroed.
func PackT(dst, w []float32, n, k, ldw int) {
	checkPack(dst, w, n, k, ldw, n, k)
	for j0 := 0; j0 < n; j0 += PanelWidth {
		panel := dst[j0*k : j0*k+PanelWidth*k]
		nb := min(PanelWidth, n-j0)
		for p := range k {
			row := panel[p*PanelWidth : p*PanelWidth+PanelWidth]
			for j := range nb {
				row[j] = w[(j0+j)*ldw+p]
			}
			clear(row[nb:])
		}
	}
}

// Pack packs B into dst for Gemm, where B is k×n with rows ldb floats apart. dst must hold
// PackedLen(k, n) floats; the columns past n of the last panel are zeroed.
func Pack(dst, b []float32, k, n, ldb int) {
	checkPack(dst, b, n, k, ldb, k, n)
	for j0 := 0; j0 < n; j0 += PanelWidth {
		panel := dst[j0*k : j0*k+PanelWidth*k]
		nb := min(PanelWidth, n-j0)
		for p := range k {
			row := panel[p*PanelWidth : p*PanelWidth+PanelWidth]
			copy(row[:nb], b[p*ldb+j0:p*ldb+j0+nb])
			clear(row[nb:])
		}
	}
}

func checkPack(dst, src []float32, n, k, ld, rows, cols int) {
	switch {
	case n < 0 || k < 0:
		panic(fmt.Sprintf("kernel: pack of a %dx%d matrix", k, n))
	case len(dst) < PackedLen(k, n):
		panic(fmt.Sprintf("kernel: pack destination has %d floats, want %d", len(dst), PackedLen(k, n)))
	case rows > 0 && cols > 0 && (ld < cols || len(src) < (rows-1)*ld+cols):
		panic(fmt.Sprintf("kernel: pack source of %d floats is too short for %dx%d with stride %d", len(src), rows, cols, ld))
	}
}

// Flags modify Gemm.
type Flags uint8

const (
	// Accumulate adds the product to C instead of overwriting C.
	Accumulate Flags = 1 << iota
	// GELU applies GELU (the erf form) to every element of C once the product and the bias
	// are in.
	GELU
)

// Gemm computes C = A·B + bias, or C += A·B + bias with Accumulate, then GELU with GELU.
// C is m×n with rows ldc floats apart, A is m×k with rows lda floats apart, B is k×n packed
// by Pack or PackT, and bias (length n, broadcast over rows) may be nil. Only the first n
// columns of C are written.
func Gemm(m, n, k int, a []float32, lda int, b, bias, c []float32, ldc int, f Flags) {
	switch {
	case m < 0 || n < 0 || k < 0:
		panic(fmt.Sprintf("kernel: gemm of %dx%d by %dx%d", m, k, k, n))
	case m == 0 || n == 0:
		return
	case k > 0 && (lda < k || len(a) < (m-1)*lda+k):
		panic(fmt.Sprintf("kernel: gemm A of %d floats is too short for %dx%d with stride %d", len(a), m, k, lda))
	case len(b) < PackedLen(k, n):
		panic(fmt.Sprintf("kernel: gemm packed B has %d floats, want %d", len(b), PackedLen(k, n)))
	case ldc < n || len(c) < (m-1)*ldc+n:
		panic(fmt.Sprintf("kernel: gemm C of %d floats is too short for %dx%d with stride %d", len(c), m, n, ldc))
	case bias != nil && len(bias) < n:
		panic(fmt.Sprintf("kernel: gemm bias has %d floats, want %d", len(bias), n))
	}

	for i := range m {
		row := c[i*ldc : i*ldc+n]
		switch {
		case f&Accumulate == 0 && bias == nil:
			clear(row)
		case f&Accumulate == 0:
			copy(row, bias[:n])
		case bias != nil:
			for j, v := range bias[:n] {
				row[j] += v
			}
		}
	}

	// Scratch for a partial tile: the last rows of an A block padded with zero rows to a full
	// micro-kernel height, and a 6×16 tile of C for partial rows or columns.
	var apad [panelRows * kcBlock]float32
	var ctile [panelRows * PanelWidth]float32
	for i0 := 0; i0 < m; i0 += mcBlock {
		mb := min(mcBlock, m-i0)
		full := mb / panelRows * panelRows
		rem := mb - full
		for k0 := 0; k0 < k; k0 += kcBlock {
			kb := min(kcBlock, k-k0)
			last := k0+kb == k
			if rem > 0 {
				clear(apad[:panelRows*kb])
				for r := range rem {
					src := a[(i0+full+r)*lda+k0:]
					copy(apad[r*kb:r*kb+kb], src[:kb])
				}
			}
			for j0 := 0; j0 < n; j0 += PanelWidth {
				nb := min(PanelWidth, n-j0)
				bp := b[j0*k+k0*PanelWidth : j0*k+(k0+kb)*PanelWidth]
				for i := 0; i < full; i += panelRows {
					ci := (i0+i)*ldc + j0
					if nb == PanelWidth {
						microKernel(kb, a[(i0+i)*lda+k0:], lda, bp, c[ci:], ldc)
						continue
					}
					loadTile(&ctile, c[ci:], ldc, panelRows, nb)
					microKernel(kb, a[(i0+i)*lda+k0:], lda, bp, ctile[:], PanelWidth)
					storeTile(&ctile, c[ci:], ldc, panelRows, nb)
				}
				if rem > 0 {
					ci := (i0+full)*ldc + j0
					loadTile(&ctile, c[ci:], ldc, rem, nb)
					microKernel(kb, apad[:], kb, bp, ctile[:], PanelWidth)
					storeTile(&ctile, c[ci:], ldc, rem, nb)
				}
				if last && f&GELU != 0 {
					geluRows(c[i0*ldc+j0:], mb, nb, ldc)
				}
			}
		}
		if k == 0 && f&GELU != 0 {
			geluRows(c[i0*ldc:], mb, n, ldc)
		}
	}
}

func loadTile(t *[panelRows * PanelWidth]float32, c []float32, ldc, rows, cols int) {
	clear(t[:])
	for r := range rows {
		copy(t[r*PanelWidth:r*PanelWidth+cols], c[r*ldc:r*ldc+cols])
	}
}

func storeTile(t *[panelRows * PanelWidth]float32, c []float32, ldc, rows, cols int) {
	for r := range rows {
		copy(c[r*ldc:r*ldc+cols], t[r*PanelWidth:r*PanelWidth+cols])
	}
}

// microKernelGo is the portable micro-kernel: C[0:6][0:16] += A[0:6][0:k]·B[0:k][0:16], A
// rows lda apart, B one packed panel slice (16 floats per k), C rows ldc apart. Every element
// is accumulated over k in order, as the assembly kernel does. It works on 2×4 sub-tiles, a
// size whose accumulators the compiler mostly keeps in registers.
func microKernelGo(k int, a []float32, lda int, b, c []float32, ldc int) {
	a = a[:(panelRows-1)*lda+k]
	b = b[:k*PanelWidth]
	for i := 0; i < panelRows; i += 2 {
		a0 := a[i*lda : i*lda+k]
		a1 := a[(i+1)*lda : (i+1)*lda+k]
		a1 = a1[:len(a0)]
		for j := 0; j < PanelWidth; j += 4 {
			var c00, c01, c02, c03, c10, c11, c12, c13 float32
			bs := b[j:]
			for p, x0 := range a0 {
				x1 := a1[p]
				bp := (*[4]float32)(bs)
				if p+1 < len(a0) {
					bs = bs[PanelWidth:]
				}
				c00 += x0 * bp[0]
				c01 += x0 * bp[1]
				c02 += x0 * bp[2]
				c03 += x0 * bp[3]
				c10 += x1 * bp[0]
				c11 += x1 * bp[1]
				c12 += x1 * bp[2]
				c13 += x1 * bp[3]
			}
			r0 := (*[4]float32)(c[i*ldc+j:])
			r1 := (*[4]float32)(c[(i+1)*ldc+j:])
			r0[0] += c00
			r0[1] += c01
			r0[2] += c02
			r0[3] += c03
			r1[0] += c10
			r1[1] += c11
			r1[2] += c12
			r1[3] += c13
		}
	}
}

// GELUInPlace replaces every x of v by GELU(x) = x/2·(1 + erf(x/√2)).
func GELUInPlace(v []float32) {
	geluRows(v, 1, len(v), len(v))
}

func geluRowsGo(c []float32, rows, cols, ldc int) {
	for r := range rows {
		row := c[r*ldc : r*ldc+cols]
		for i, x := range row {
			row[i] = GELU32(x)
		}
	}
}

// Coefficients of the rational approximation of erf on [-4, 4] (as in Eigen's fast erf for
// float; outside that interval erf is ±1 to float32 precision): erf(z) = z·P(z²)/Q(z²).
const (
	erfA1  = -1.60960333262415e-02
	erfA3  = -2.95459980854025e-03
	erfA5  = -7.34990630326855e-04
	erfA7  = -5.69250639462346e-05
	erfA9  = -2.10102402082508e-06
	erfA11 = 2.77068142495902e-08
	erfA13 = -2.72614225801306e-10
	erfB0  = -1.42647390514189e-02
	erfB2  = -7.37332916720468e-03
	erfB4  = -1.68282697438203e-03
	erfB6  = -2.13374055278905e-04
	erfB8  = -1.45660718464996e-05
)

// Erf32 is the float32 erf approximation the kernels use: within a few float32 ulps of erf.
func Erf32(x float32) float32 {
	z := min(max(x, -4), 4)
	z2 := z * z
	p := float32(erfA13)
	p = p*z2 + erfA11
	p = p*z2 + erfA9
	p = p*z2 + erfA7
	p = p*z2 + erfA5
	p = p*z2 + erfA3
	p = p*z2 + erfA1
	p *= z
	q := float32(erfB8)
	q = q*z2 + erfB6
	q = q*z2 + erfB4
	q = q*z2 + erfB2
	q = q*z2 + erfB0
	return p / q
}

// GELU32 is GELU in float32 with Erf32.
func GELU32(x float32) float32 {
	return 0.5 * x * (1 + Erf32(x*math.Sqrt2/2))
}

// Constants of Exp32 (the Cephes expf reduction and polynomial).
const (
	expHi    = 88.3762626647949
	expLo    = -88.3762626647949
	expLog2e = 1.44269504088896341
	expC1    = 0.693359375
	expC2    = -2.12194440e-4
	expP0    = 1.9875691500e-4
	expP1    = 1.3981999507e-3
	expP2    = 8.3334519073e-3
	expP3    = 4.1665795894e-2
	expP4    = 1.6666665459e-1
	expP5    = 5.0000001201e-1
)

// Exp32 is the float32 exp the softmax uses: within two float32 ulps of exp for results in the
// normal range; inputs below about -87.3 give 0.
func Exp32(x float32) float32 {
	x = min(max(x, expLo), expHi)
	fx := float32(math.Floor(float64(x*expLog2e + 0.5)))
	r := x - fx*expC1
	r -= fx * expC2
	z := r * r
	y := float32(expP0)
	y = y*r + expP1
	y = y*r + expP2
	y = y*r + expP3
	y = y*r + expP4
	y = y*r + expP5
	y = y*z + r + 1
	return y * math.Float32frombits(uint32(int32(fx)+127)<<23)
}

// Softmax replaces the row x by its softmax, exp(x - max x) / Σ exp(x - max x). An element of
// -Inf (a masked position) gets 0. x must not be empty.
func Softmax(x []float32) {
	if len(x) == 0 {
		panic("kernel: softmax of an empty row")
	}
	if useAsm && len(x)%8 == 0 {
		softmaxAsm(x)
		return
	}
	softmaxGo(x)
}

func softmaxGo(x []float32) {
	mx := x[0]
	for _, v := range x[1:] {
		mx = max(mx, v)
	}
	var sum float32
	for i, v := range x {
		e := Exp32(v - mx)
		x[i] = e
		sum += e
	}
	inv := 1 / sum
	for i := range x {
		x[i] *= inv
	}
}
