//go:build amd64 && !purego

package kernel

import "golang.org/x/sys/cpu"

// useAsm selects the AVX2+FMA assembly kernels; the operating system must also save the YMM
// registers, which cpu.X86.HasAVX reports.
var useAsm = cpu.X86.HasAVX && cpu.X86.HasAVX2 && cpu.X86.HasFMA

// sgemm6x16 is the assembly micro-kernel: C[0:6][0:16] += A[0:6][0:k]·B[0:k][0:16], with A
// rows lda floats apart, B a packed panel slice (16 floats per k) and C rows ldc floats apart.
//
//go:noescape
func sgemm6x16(k int, a *float32, lda int, b *float32, c *float32, ldc int)

// geluAVX2 applies GELU to rows rows of cols floats (cols a positive multiple of 8), rows ld
// floats apart.
//
//go:noescape
func geluAVX2(c *float32, rows, cols, ld int)

// softmaxAVX2 replaces the n floats at x (n a positive multiple of 8) by their softmax.
//
//go:noescape
func softmaxAVX2(x *float32, n int)

func microKernel(k int, a []float32, lda int, b, c []float32, ldc int) {
	if !useAsm {
		microKernelGo(k, a, lda, b, c, ldc)
		return
	}
	// The bounds the assembly reads and writes.
	_ = a[(panelRows-1)*lda+k-1]
	_ = b[k*PanelWidth-1]
	_ = c[(panelRows-1)*ldc+PanelWidth-1]
	sgemm6x16(k, &a[0], lda, &b[0], &c[0], ldc)
}

func geluRows(c []float32, rows, cols, ldc int) {
	if rows == 0 || cols == 0 {
		return
	}
	_ = c[(rows-1)*ldc+cols-1]
	if !useAsm {
		geluRowsGo(c, rows, cols, ldc)
		return
	}
	if v := cols / 8 * 8; v > 0 {
		geluAVX2(&c[0], rows, v, ldc)
	}
	if cols%8 != 0 {
		geluRowsGo(c[cols/8*8:], rows, cols%8, ldc)
	}
}

func softmaxAsm(x []float32) { softmaxAVX2(&x[0], len(x)) }
