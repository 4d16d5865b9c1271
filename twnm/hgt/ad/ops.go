package ad

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// MatMul returns the matrix product a·b: a r×k, b k×c → r×c, computed by gonum's BLAS.
func (t *Tape) MatMul(a, b *Node) *Node {
	t.own("MatMul", a, b)
	r, k := a.Value.Dims()
	k2, c := b.Value.Dims()
	if k != k2 {
		fail("MatMul: %s by %s", shape(a.Value), shape(b.Value))
	}
	v := mat.NewDense(r, c, nil)
	v.Mul(a.Value, b.Value)
	out := t.node(v, a, b)
	if out.needGrad {
		out.back = func() {
			// Gemm with beta = 1 accumulates the products straight into the input
			// gradients: the same BLAS call mat.Dense.Mul makes, without a temporary.
			g := out.Grad.RawMatrix()
			if a.needGrad { // dA += dOut·Bᵀ  (r×c)(c×k)
				blas64.Gemm(blas.NoTrans, blas.Trans, 1, g, b.Value.RawMatrix(), 1, a.Grad.RawMatrix())
			}
			if b.needGrad { // dB += Aᵀ·dOut  (k×r)(r×c)
				gemmTNAcc(a.Value.RawMatrix(), g, b.Grad.RawMatrix())
			}
		}
	}
	return out
}

// gemmTNAcc adds aᵀ·g into dst, with a r×k, g r×c and dst k×c.
//
// This is the weight gradient of x·W: a long r (nodes or edges) and a small k×c output.
// gonum parallelises Gemm over 64×64 blocks of the output and runs serially below 4 blocks,
// so a 64×64 weight gradient would use one core however long r is. Splitting r across
// GOMAXPROCS workers, each summing into a private k×c buffer, halves it on 2 cores
// (8000×64 by 64×64: 7.0 → 3.8 ms).
func gemmTNAcc(a, g, dst blas64.General) {
	const (
		minWork    = 1 << 20 // multiply-adds below which goroutines cost more than they save
		minRows    = 256     // rows per worker
		gonumBlock = 64      // gonum's Gemm block size; it goes parallel from 4 blocks
	)
	r, k, c := a.Rows, a.Cols, g.Cols
	workers := min(runtime.GOMAXPROCS(0), r/minRows)
	outBlocks := ((k + gonumBlock - 1) / gonumBlock) * ((c + gonumBlock - 1) / gonumBlock)
	if workers < 2 || outBlocks >= 4 || r*k*c < minWork {
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, a, g, 1, dst)
		return
	}
	rows := func(m blas64.General, s, e int) blas64.General {
		return blas64.General{Rows: e - s, Cols: m.Cols, Stride: m.Stride, Data: m.Data[s*m.Stride : (e-1)*m.Stride+m.Cols]}
	}
	parts := make([]float64, (workers-1)*k*c)
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		s, e := w*r/workers, (w+1)*r/workers
		part := blas64.General{Rows: k, Cols: c, Stride: c, Data: parts[(w-1)*k*c : w*k*c]}
		wg.Go(func() { blas64.Gemm(blas.Trans, blas.NoTrans, 1, rows(a, s, e), rows(g, s, e), 0, part) })
	}
	// Worker 0 accumulates straight into dst while the others run.
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, rows(a, 0, r/workers), rows(g, 0, r/workers), 1, dst)
	wg.Wait()
	for w := 1; w < workers; w++ {
		part := parts[(w-1)*k*c : w*k*c]
		for i := 0; i < k; i++ {
			addTo(dst.Data[i*dst.Stride:i*dst.Stride+c], part[i*c:(i+1)*c], 1)
		}
	}
}

// AddBias returns a + bias with the 1×c bias added to every row of the r×c a → r×c.
func (t *Tape) AddBias(a, bias *Node) *Node {
	t.own("AddBias", a, bias)
	r, c := a.Value.Dims()
	if br, bc := bias.Value.Dims(); br != 1 || bc != c {
		fail("AddBias: %s plus bias %s, want 1×%d", shape(a.Value), shape(bias.Value), c)
	}
	v := mat.NewDense(r, c, nil)
	ov, av, bv := data("", v), vals(a), vals(bias)
	for i := 0; i < r; i++ {
		o, x := ov[i*c:(i+1)*c], av[i*c:(i+1)*c]
		for j := range o {
			o[j] = x[j] + bv[j]
		}
	}
	out := t.node(v, a, bias)
	if out.needGrad {
		out.back = func() {
			g := grads(out)
			if a.needGrad {
				addTo(grads(a), g, 1)
			}
			if bias.needGrad {
				db := grads(bias)
				for i := 0; i < r; i++ {
					gi := g[i*c : (i+1)*c]
					for j := range db {
						db[j] += gi[j]
					}
				}
			}
		}
	}
	return out
}

// Add returns the elementwise sum a + b of two r×c nodes → r×c.
func (t *Tape) Add(a, b *Node) *Node { return t.addSub("Add", a, b, 1) }

// Sub returns the elementwise difference a − b of two r×c nodes → r×c.
func (t *Tape) Sub(a, b *Node) *Node { return t.addSub("Sub", a, b, -1) }

func (t *Tape) addSub(op string, a, b *Node, sign float64) *Node {
	t.own(op, a, b)
	sameShape(op, a, b)
	r, c := a.Value.Dims()
	v := mat.NewDense(r, c, nil)
	ov, av, bv := data("", v), vals(a), vals(b)
	for i := range ov {
		ov[i] = av[i] + sign*bv[i]
	}
	out := t.node(v, a, b)
	if out.needGrad {
		out.back = func() {
			g := grads(out)
			if a.needGrad {
				addTo(grads(a), g, 1)
			}
			if b.needGrad {
				addTo(grads(b), g, sign)
			}
		}
	}
	return out
}

// Mul returns the elementwise (Hadamard) product a ⊙ b of two r×c nodes → r×c.
func (t *Tape) Mul(a, b *Node) *Node {
	t.own("Mul", a, b)
	sameShape("Mul", a, b)
	r, c := a.Value.Dims()
	v := mat.NewDense(r, c, nil)
	ov, av, bv := data("", v), vals(a), vals(b)
	for i := range ov {
		ov[i] = av[i] * bv[i]
	}
	out := t.node(v, a, b)
	if out.needGrad {
		out.back = func() {
			g := grads(out)
			if a.needGrad {
				da := grads(a)
				for i, gi := range g {
					da[i] += gi * bv[i]
				}
			}
			if b.needGrad {
				db := grads(b)
				for i, gi := range g {
					db[i] += gi * av[i]
				}
			}
		}
	}
	return out
}

// Scale returns s·a for an r×c node → r×c.
func (t *Tape) Scale(a *Node, s float64) *Node {
	t.own("Scale", a)
	r, c := a.Value.Dims()
	v := mat.NewDense(r, c, nil)
	ov, av := data("", v), vals(a)
	for i := range ov {
		ov[i] = s * av[i]
	}
	out := t.node(v, a)
	if out.needGrad {
		out.back = func() { addTo(grads(a), grads(out), s) }
	}
	return out
}

// GatherRows returns the rows of a (n×c) picked by idx: out[i] = a[idx[i]] → len(idx)×c.
// Indices may repeat; each must be in [0, n). Its backward is a scatter-add.
func (t *Tape) GatherRows(a *Node, idx []int) *Node {
	t.own("GatherRows", a)
	n, c := a.Value.Dims()
	if len(idx) == 0 {
		fail("GatherRows: no indices (result would be 0×%d)", c)
	}
	checkIndices("GatherRows", idx, n)
	v := mat.NewDense(len(idx), c, nil)
	ov, av := data("", v), vals(a)
	for i, k := range idx {
		copy(ov[i*c:(i+1)*c], av[k*c:(k+1)*c])
	}
	out := t.node(v, a)
	if out.needGrad {
		out.back = func() { scatterAdd(grads(a), grads(out), idx, c) }
	}
	return out
}

// ScatterAddRows sums the rows of a (m×c) into n rows: out[idx[i]] += a[i] → n×c, with
// len(idx) = m and each index in [0, n). Rows of out that no index hits are zero. Its
// backward is a gather.
func (t *Tape) ScatterAddRows(a *Node, idx []int, n int) *Node {
	t.own("ScatterAddRows", a)
	m, c := a.Value.Dims()
	if len(idx) != m {
		fail("ScatterAddRows: %s with %d indices", shape(a.Value), len(idx))
	}
	if n <= 0 {
		fail("ScatterAddRows: %d output rows", n)
	}
	checkIndices("ScatterAddRows", idx, n)
	v := mat.NewDense(n, c, nil)
	scatterAdd(data("", v), vals(a), idx, c)
	out := t.node(v, a)
	if out.needGrad {
		out.back = func() {
			da, g := grads(a), grads(out)
			for i, k := range idx {
				addTo(da[i*c:(i+1)*c], g[k*c:(k+1)*c], 1)
			}
		}
	}
	return out
}

// SegmentSoftmax returns the softmax of logits (E×H) over the rows that share a segment,
// for each column (head) independently → E×H: row i belongs to segment seg[i] in [0, n),
// and out[i,h] = exp(x[i,h]) / Σ_{j: seg[j]=seg[i]} exp(x[j,h]). In the HGT, rows are edges,
// segments are target nodes and each target's incoming edges get attention weights summing
// to 1 per head. Each segment's per-column maximum is subtracted first so exp cannot
// overflow; segments with no rows are simply absent. Logits must be finite.
func (t *Tape) SegmentSoftmax(logits *Node, seg []int, n int) *Node {
	t.own("SegmentSoftmax", logits)
	e, h := logits.Value.Dims()
	if len(seg) != e {
		fail("SegmentSoftmax: %s logits with %d segment ids", shape(logits.Value), len(seg))
	}
	if n <= 0 {
		fail("SegmentSoftmax: %d segments", n)
	}
	checkIndices("SegmentSoftmax", seg, n)
	x := vals(logits)
	// acc holds the per-segment, per-column maximum, then the sum of exponentials.
	acc := make([]float64, n*h)
	for i := range acc {
		acc[i] = math.Inf(-1)
	}
	for i, s := range seg {
		xi, mi := x[i*h:(i+1)*h], acc[s*h:(s+1)*h]
		for j := range xi {
			mi[j] = max(mi[j], xi[j])
		}
	}
	v := mat.NewDense(e, h, nil)
	y := data("", v)
	for i, s := range seg {
		xi, yi, mi := x[i*h:(i+1)*h], y[i*h:(i+1)*h], acc[s*h:(s+1)*h]
		for j := range yi {
			yi[j] = math.Exp(xi[j] - mi[j])
		}
	}
	clear(acc)
	for i, s := range seg {
		addTo(acc[s*h:(s+1)*h], y[i*h:(i+1)*h], 1)
	}
	// Every touched sum is ≥ 1 (the maximum contributes exp(0)), so the division is safe.
	for i, s := range seg {
		yi, si := y[i*h:(i+1)*h], acc[s*h:(s+1)*h]
		for j := range yi {
			yi[j] /= si[j]
		}
	}
	out := t.node(v, logits)
	if out.needGrad {
		out.back = func() {
			// Softmax Jacobian per segment and column: dx = y·(dy − Σ_seg y·dy).
			g, dx := grads(out), grads(logits)
			dot := acc // the sums are no longer needed; reuse the buffer
			clear(dot)
			for i, s := range seg {
				yi, gi, di := y[i*h:(i+1)*h], g[i*h:(i+1)*h], dot[s*h:(s+1)*h]
				for j := range yi {
					di[j] += yi[j] * gi[j]
				}
			}
			for i, s := range seg {
				yi, gi, di, xi := y[i*h:(i+1)*h], g[i*h:(i+1)*h], dot[s*h:(s+1)*h], dx[i*h:(i+1)*h]
				for j := range yi {
					xi[j] += yi[j] * (gi[j] - di[j])
				}
			}
		}
	}
	return out
}

// HeadDot returns the per-head dot product of corresponding rows of a and b, both
// E×(H·d) with H = heads → E×H: out[i,h] = Σ_{j<d} a[i,h·d+j]·b[i,h·d+j].
func (t *Tape) HeadDot(a, b *Node, heads int) *Node {
	t.own("HeadDot", a, b)
	sameShape("HeadDot", a, b)
	e, hd := a.Value.Dims()
	d := headDim("HeadDot", a.Value, heads)
	v := mat.NewDense(e, heads, nil)
	ov, av, bv := data("", v), vals(a), vals(b)
	for i := 0; i < e; i++ {
		ai, bi, oi := av[i*hd:(i+1)*hd], bv[i*hd:(i+1)*hd], ov[i*heads:(i+1)*heads]
		for h := range oi {
			var s float64
			for j := h * d; j < (h+1)*d; j++ {
				s += ai[j] * bi[j]
			}
			oi[h] = s
		}
	}
	out := t.node(v, a, b)
	if out.needGrad {
		out.back = func() {
			g := grads(out)
			// da[i,h·d+j] += g[i,h]·b[i,h·d+j], and symmetrically for b.
			headAcc := func(dst, src []float64) {
				for i := 0; i < e; i++ {
					di, si, gi := dst[i*hd:(i+1)*hd], src[i*hd:(i+1)*hd], g[i*heads:(i+1)*heads]
					for h, gh := range gi {
						for j := h * d; j < (h+1)*d; j++ {
							di[j] += gh * si[j]
						}
					}
				}
			}
			if a.needGrad {
				headAcc(grads(a), bv)
			}
			if b.needGrad {
				headAcc(grads(b), av)
			}
		}
	}
	return out
}

// HeadScale scales each head of v (E×(H·d), H = heads) by a per-row, per-head weight from
// w (E×H) → E×(H·d): out[i,h·d+j] = w[i,h]·v[i,h·d+j]. In the HGT it weights each edge's
// message by its attention.
func (t *Tape) HeadScale(v, w *Node, heads int) *Node {
	t.own("HeadScale", v, w)
	e, hd := v.Value.Dims()
	d := headDim("HeadScale", v.Value, heads)
	if we, wh := w.Value.Dims(); we != e || wh != heads {
		fail("HeadScale: values %s, weights %s, want %d×%d", shape(v.Value), shape(w.Value), e, heads)
	}
	res := mat.NewDense(e, hd, nil)
	ov, vv, wv := data("", res), vals(v), vals(w)
	for i := 0; i < e; i++ {
		oi, vi, wi := ov[i*hd:(i+1)*hd], vv[i*hd:(i+1)*hd], wv[i*heads:(i+1)*heads]
		for h, wh := range wi {
			for j := h * d; j < (h+1)*d; j++ {
				oi[j] = wh * vi[j]
			}
		}
	}
	out := t.node(res, v, w)
	if out.needGrad {
		out.back = func() {
			g := grads(out)
			var dv, dw []float64
			if v.needGrad {
				dv = grads(v)
			}
			if w.needGrad {
				dw = grads(w)
			}
			for i := 0; i < e; i++ {
				gi, vi, wi := g[i*hd:(i+1)*hd], vv[i*hd:(i+1)*hd], wv[i*heads:(i+1)*heads]
				for h, wh := range wi {
					if dv != nil {
						dvi := dv[i*hd : (i+1)*hd]
						for j := h * d; j < (h+1)*d; j++ {
							dvi[j] += wh * gi[j]
						}
					}
					if dw != nil {
						var s float64
						for j := h * d; j < (h+1)*d; j++ {
							s += gi[j] * vi[j]
						}
						dw[i*heads+h] += s
					}
				}
			}
		}
	}
	return out
}

// ReLU returns max(0, a) elementwise → same shape as a. The gradient at 0 is taken as 0.
func (t *Tape) ReLU(a *Node) *Node { return t.relu("ReLU", a) }

// Hinge returns [a]₊ = max(0, a) elementwise → same shape as a, for margin losses such as
// [m − s(u,v) + s(u',v)]₊. It is the same function as ReLU; the separate name keeps loss
// code readable. The gradient at 0 is taken as 0.
func (t *Tape) Hinge(a *Node) *Node { return t.relu("Hinge", a) }

func (t *Tape) relu(op string, a *Node) *Node {
	t.own(op, a)
	r, c := a.Value.Dims()
	v := mat.NewDense(r, c, nil)
	ov, av := data("", v), vals(a)
	for i, x := range av {
		ov[i] = max(x, 0)
	}
	out := t.node(v, a)
	if out.needGrad {
		out.back = func() {
			g, da := grads(out), grads(a)
			for i, x := range av {
				if x > 0 {
					da[i] += g[i]
				}
			}
		}
	}
	return out
}

// GELU constants for the tanh approximation 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))).
const (
	geluK = 0.7978845608028654 // √(2/π)
	geluA = 0.044715
)

// GELU returns the Gaussian error linear unit elementwise, in its tanh approximation
// 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))) → same shape as a.
func (t *Tape) GELU(a *Node) *Node {
	t.own("GELU", a)
	r, c := a.Value.Dims()
	v := mat.NewDense(r, c, nil)
	ov, av := data("", v), vals(a)
	for i, x := range av {
		ov[i] = 0.5 * x * (1 + math.Tanh(geluK*(x+geluA*x*x*x)))
	}
	out := t.node(v, a)
	if out.needGrad {
		out.back = func() {
			g, da := grads(out), grads(a)
			for i, x := range av {
				th := math.Tanh(geluK * (x + geluA*x*x*x))
				d := 0.5*(1+th) + 0.5*x*(1-th*th)*geluK*(1+3*geluA*x*x)
				da[i] += g[i] * d
			}
		}
	}
	return out
}

// Sigmoid returns the logistic function σ(a) = 1/(1+e^−a) elementwise → same shape as a.
func (t *Tape) Sigmoid(a *Node) *Node {
	t.own("Sigmoid", a)
	r, c := a.Value.Dims()
	v := mat.NewDense(r, c, nil)
	ov, av := data("", v), vals(a)
	for i, x := range av {
		ov[i] = sigmoid(x)
	}
	out := t.node(v, a)
	if out.needGrad {
		out.back = func() {
			g, da := grads(out), grads(a)
			for i, y := range ov {
				da[i] += g[i] * y * (1 - y)
			}
		}
	}
	return out
}

// Tanh returns tanh(a) elementwise → same shape as a.
func (t *Tape) Tanh(a *Node) *Node {
	t.own("Tanh", a)
	r, c := a.Value.Dims()
	v := mat.NewDense(r, c, nil)
	ov, av := data("", v), vals(a)
	for i, x := range av {
		ov[i] = math.Tanh(x)
	}
	out := t.node(v, a)
	if out.needGrad {
		out.back = func() {
			g, da := grads(out), grads(a)
			for i, y := range ov {
				da[i] += g[i] * (1 - y*y)
			}
		}
	}
	return out
}

// Dropout zeroes each element of a (r×c) with probability p and scales the survivors by
// 1/(1−p) (inverted dropout, so no rescaling is needed at inference) → r×c. The mask is drawn
// from rng, which the caller seeds for reproducible training. p = 0 returns a itself; p must
// be in [0, 1). Do not call it at inference.
func (t *Tape) Dropout(a *Node, p float64, rng *rand.Rand) *Node {
	t.own("Dropout", a)
	if !(p >= 0 && p < 1) {
		fail("Dropout: probability %v not in [0, 1)", p)
	}
	if p == 0 {
		return a
	}
	if rng == nil {
		fail("Dropout: nil rng")
	}
	r, c := a.Value.Dims()
	v := mat.NewDense(r, c, nil)
	ov, av := data("", v), vals(a)
	keep := 1 / (1 - p)
	mask := make([]float64, len(av))
	for i, x := range av {
		if rng.Float64() >= p {
			mask[i] = keep
			ov[i] = keep * x
		}
	}
	out := t.node(v, a)
	if out.needGrad {
		out.back = func() {
			g, da := grads(out), grads(a)
			for i, m := range mask {
				da[i] += g[i] * m
			}
		}
	}
	return out
}

// LayerNorm normalises each row of a (r×c) to zero mean and unit variance, then applies the
// per-column gain gamma and shift beta (both 1×c) → r×c:
// out[i,j] = gamma[j]·(a[i,j] − μ_i)/√(σ²_i + eps) + beta[j], with μ_i and σ²_i the mean and
// biased variance of row i. gamma or beta may be nil, meaning all ones and all zeros.
func (t *Tape) LayerNorm(a, gamma, beta *Node, eps float64) *Node {
	t.own("LayerNorm", a)
	r, c := a.Value.Dims()
	var gv, bv []float64
	if gamma != nil {
		t.own("LayerNorm", gamma)
		if gr, gc := gamma.Value.Dims(); gr != 1 || gc != c {
			fail("LayerNorm: %s with gamma %s, want 1×%d", shape(a.Value), shape(gamma.Value), c)
		}
		gv = vals(gamma)
	}
	if beta != nil {
		t.own("LayerNorm", beta)
		if br, bc := beta.Value.Dims(); br != 1 || bc != c {
			fail("LayerNorm: %s with beta %s, want 1×%d", shape(a.Value), shape(beta.Value), c)
		}
		bv = vals(beta)
	}
	if !(eps > 0) {
		fail("LayerNorm: eps %v must be positive", eps)
	}
	v := mat.NewDense(r, c, nil)
	ov, av := data("", v), vals(a)
	xhat := make([]float64, r*c) // normalised rows, kept for backward
	inv := make([]float64, r)    // 1/√(σ²+eps) per row
	n := float64(c)
	for i := 0; i < r; i++ {
		xi, hi, oi := av[i*c:(i+1)*c], xhat[i*c:(i+1)*c], ov[i*c:(i+1)*c]
		var mu float64
		for _, x := range xi {
			mu += x
		}
		mu /= n
		var vr float64
		for _, x := range xi {
			vr += (x - mu) * (x - mu)
		}
		s := 1 / math.Sqrt(vr/n+eps)
		inv[i] = s
		for j, x := range xi {
			h := (x - mu) * s
			hi[j] = h
			if gv != nil {
				h *= gv[j]
			}
			if bv != nil {
				h += bv[j]
			}
			oi[j] = h
		}
	}
	out := t.node(v, a, gamma, beta)
	if out.needGrad {
		var dh []float64 // scratch row for ∂loss/∂x̂
		if a.needGrad {
			dh = make([]float64, c)
		}
		out.back = func() {
			g := grads(out)
			if gamma != nil && gamma.needGrad {
				dg := grads(gamma)
				for i := 0; i < r*c; i += c {
					for j := range dg {
						dg[j] += g[i+j] * xhat[i+j]
					}
				}
			}
			if beta != nil && beta.needGrad {
				db := grads(beta)
				for i := 0; i < r*c; i += c {
					addTo(db, g[i:i+c], 1)
				}
			}
			if !a.needGrad {
				return
			}
			// With x̂ = (x−μ)·s, s = 1/√(σ²+eps):
			// dx = s·(dx̂ − mean(dx̂) − x̂·mean(dx̂·x̂)).
			da := grads(a)
			for i := 0; i < r; i++ {
				gi, hi, di := g[i*c:(i+1)*c], xhat[i*c:(i+1)*c], da[i*c:(i+1)*c]
				var m1, m2 float64
				for j := range dh {
					d := gi[j]
					if gv != nil {
						d *= gv[j]
					}
					dh[j] = d
					m1 += d
					m2 += d * hi[j]
				}
				m1 /= n
				m2 /= n
				s := inv[i]
				for j := range di {
					di[j] += s * (dh[j] - m1 - hi[j]*m2)
				}
			}
		}
	}
	return out
}

// Concat places parts side by side in columns: parts r×c₁, r×c₂, … → r×(c₁+c₂+…).
func (t *Tape) Concat(parts ...*Node) *Node {
	if len(parts) == 0 {
		fail("Concat: no parts")
	}
	t.own("Concat", parts...)
	r, _ := parts[0].Value.Dims()
	total := 0
	for _, p := range parts {
		pr, pc := p.Value.Dims()
		if pr != r {
			fail("Concat: %s beside %s", shape(parts[0].Value), shape(p.Value))
		}
		total += pc
	}
	v := mat.NewDense(r, total, nil)
	ov := data("", v)
	off := 0
	for _, p := range parts {
		_, pc := p.Value.Dims()
		pv := vals(p)
		for i := 0; i < r; i++ {
			copy(ov[i*total+off:i*total+off+pc], pv[i*pc:(i+1)*pc])
		}
		off += pc
	}
	out := t.node(v, parts...)
	if out.needGrad {
		out.back = func() {
			g := grads(out)
			off := 0
			for _, p := range parts {
				_, pc := p.Value.Dims()
				if p.needGrad {
					dp := grads(p)
					for i := 0; i < r; i++ {
						addTo(dp[i*pc:(i+1)*pc], g[i*total+off:i*total+off+pc], 1)
					}
				}
				off += pc
			}
		}
	}
	return out
}

// GatedSkip mixes a layer's input x and output h (both r×c) through a learnt gate:
// σ(gate)·h + (1−σ(gate))·x → r×c. gate is 1×1 (one gate for all columns) or 1×c (one per
// column), shared by all rows; a gate of 0 starts as an even mix.
func (t *Tape) GatedSkip(x, h, gate *Node) *Node {
	t.own("GatedSkip", x, h, gate)
	sameShape("GatedSkip", x, h)
	r, c := x.Value.Dims()
	gr, gc := gate.Value.Dims()
	if gr != 1 || (gc != 1 && gc != c) {
		fail("GatedSkip: %s with gate %s, want 1×1 or 1×%d", shape(x.Value), shape(gate.Value), c)
	}
	// Expand the gate to one value per column so both shapes share one loop.
	sg := make([]float64, c)
	gv := vals(gate)
	for j := range sg {
		sg[j] = sigmoid(gv[j%gc])
	}
	v := mat.NewDense(r, c, nil)
	ov, xv, hv := data("", v), vals(x), vals(h)
	for i := 0; i < r*c; i += c {
		for j, s := range sg {
			ov[i+j] = xv[i+j] + s*(hv[i+j]-xv[i+j])
		}
	}
	out := t.node(v, x, h, gate)
	if out.needGrad {
		out.back = func() {
			g := grads(out)
			if x.needGrad {
				dx := grads(x)
				for i := 0; i < r*c; i += c {
					for j, s := range sg {
						dx[i+j] += (1 - s) * g[i+j]
					}
				}
			}
			if h.needGrad {
				dh := grads(h)
				for i := 0; i < r*c; i += c {
					for j, s := range sg {
						dh[i+j] += s * g[i+j]
					}
				}
			}
			if gate.needGrad {
				dg := grads(gate)
				for i := 0; i < r*c; i += c {
					for j, s := range sg {
						dg[j%gc] += g[i+j] * (hv[i+j] - xv[i+j]) * s * (1 - s)
					}
				}
			}
		}
	}
	return out
}

// RowSum sums each row: r×c → r×1.
func (t *Tape) RowSum(a *Node) *Node {
	t.own("RowSum", a)
	r, c := a.Value.Dims()
	v := mat.NewDense(r, 1, nil)
	ov, av := data("", v), vals(a)
	for i := range ov {
		var s float64
		for _, x := range av[i*c : (i+1)*c] {
			s += x
		}
		ov[i] = s
	}
	out := t.node(v, a)
	if out.needGrad {
		out.back = func() {
			g, da := grads(out), grads(a)
			for i, gi := range g {
				di := da[i*c : (i+1)*c]
				for j := range di {
					di[j] += gi
				}
			}
		}
	}
	return out
}

// Sum returns the sum of all elements of a (r×c) → 1×1.
func (t *Tape) Sum(a *Node) *Node { return t.total("Sum", a, 1) }

// Mean returns the mean of all elements of a (r×c) → 1×1.
func (t *Tape) Mean(a *Node) *Node {
	r, c := a.Value.Dims()
	return t.total("Mean", a, 1/float64(r*c))
}

func (t *Tape) total(op string, a *Node, scale float64) *Node {
	t.own(op, a)
	var s float64
	for _, x := range vals(a) {
		s += x
	}
	out := t.node(mat.NewDense(1, 1, []float64{scale * s}), a)
	if out.needGrad {
		out.back = func() {
			g := scale * grads(out)[0]
			da := grads(a)
			for i := range da {
				da[i] += g
			}
		}
	}
	return out
}

// BCEWithLogits returns the weighted mean binary cross-entropy of logits (r×1) against soft
// targets in [0, 1] → 1×1: (1/r)·Σ_i w_i·ℓ_i with
// ℓ_i = −y_i·log σ(x_i) − (1−y_i)·log(1−σ(x_i)), computed in the stable form
// max(x,0) − x·y + log(1+e^−|x|). The mean divides by r, not by Σw. weights nil means all
// ones; otherwise len(weights) = r. Targets may be soft labels such as the statistical edge
// weight w̃.
func (t *Tape) BCEWithLogits(logits *Node, targets []float64, weights []float64) *Node {
	t.own("BCEWithLogits", logits)
	r, c := logits.Value.Dims()
	if c != 1 || len(targets) != r || (weights != nil && len(weights) != r) {
		fail("BCEWithLogits: logits %s, %d targets, %d weights, want r×1 and r of each",
			shape(logits.Value), len(targets), len(weights))
	}
	xv := vals(logits)
	var s float64
	for i, x := range xv {
		l := max(x, 0) - x*targets[i] + math.Log1p(math.Exp(-math.Abs(x)))
		if weights != nil {
			l *= weights[i]
		}
		s += l
	}
	inv := 1 / float64(r)
	out := t.node(mat.NewDense(1, 1, []float64{s * inv}), logits)
	if out.needGrad {
		out.back = func() {
			// ∂ℓ/∂x = σ(x) − y.
			g := grads(out)[0] * inv
			dx := grads(logits)
			for i, x := range xv {
				d := g * (sigmoid(x) - targets[i])
				if weights != nil {
					d *= weights[i]
				}
				dx[i] += d
			}
		}
	}
	return out
}

// sigmoid is σ(x), written so that exp never overflows.
func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// addTo sets dst += s·src over the common length.
func addTo(dst, src []float64, s float64) {
	src = src[:len(dst)]
	if s == 1 {
		for i, x := range src {
			dst[i] += x
		}
		return
	}
	for i, x := range src {
		dst[i] += s * x
	}
}

// scatterAdd adds row i of src (c columns) into row idx[i] of dst.
func scatterAdd(dst, src []float64, idx []int, c int) {
	for i, k := range idx {
		addTo(dst[k*c:(k+1)*c], src[i*c:(i+1)*c], 1)
	}
}

func checkIndices(op string, idx []int, n int) {
	for i, k := range idx {
		if k < 0 || k >= n {
			fail("%s: index %d at position %d out of range [0, %d)", op, k, i, n)
		}
	}
}

func sameShape(op string, a, b *Node) {
	ar, ac := a.Value.Dims()
	br, bc := b.Value.Dims()
	if ar != br || ac != bc {
		fail("%s: %s and %s", op, shape(a.Value), shape(b.Value))
	}
}

// headDim returns d for an E×(H·d) matrix with H = heads.
func headDim(op string, m *mat.Dense, heads int) int {
	_, hd := m.Dims()
	if heads <= 0 || hd%heads != 0 {
		fail("%s: %s does not split into %d heads", op, shape(m), heads)
	}
	return hd / heads
}
