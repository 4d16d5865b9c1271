//go:build !amd64 || purego

package kernel

// useAsm is false: no assembly kernels for this architecture or build.
const useAsm = false

func microKernel(k int, a []float32, lda int, b, c []float32, ldc int) {
	microKernelGo(k, a, lda, b, c, ldc)
}

func geluRows(c []float32, rows, cols, ldc int) {
	if rows == 0 || cols == 0 {
		return
	}
	geluRowsGo(c, rows, cols, ldc)
}

func softmaxAsm(x []float32) { softmaxGo(x) }
