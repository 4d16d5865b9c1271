package ad

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

const (
	fdEps = 1e-6
	fdRel = 1e-5 // relative tolerance
	fdAbs = 1e-7 // absolute floor for gradients near zero
)

func newRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }

// randDense returns an r×c matrix with entries uniform in (−1, 1).
func randDense(rng *rand.Rand, r, c int) *mat.Dense {
	d := make([]float64, r*c)
	for i := range d {
		d[i] = 2*rng.Float64() - 1
	}
	return mat.NewDense(r, c, d)
}

// awayFromZero returns entries with magnitude in [0.1, 1), random sign, so that kinked
// functions (ReLU, Hinge) are never evaluated within fdEps of their kink.
func awayFromZero(rng *rand.Rand, r, c int) *mat.Dense {
	d := make([]float64, r*c)
	for i := range d {
		v := 0.1 + 0.9*rng.Float64()
		if rng.IntN(2) == 0 {
			v = -v
		}
		d[i] = v
	}
	return mat.NewDense(r, c, d)
}

// fdCase is one op under finite-difference test: inputs become Params (Vars), and op builds
// the op's output from their nodes on a fresh tape. Constants and indices are captured by op.
type fdCase struct {
	name   string
	inputs []*mat.Dense
	op     func(t *Tape, in []*Node) *Node
}

// checkGrad builds loss = Sum(Mul(op(inputs), R)) with a fixed random R, so every output
// element matters with a distinct weight, and compares Backward's gradient of every input
// element with the central difference (f(x+eps) − f(x−eps)) / 2eps.
func checkGrad(t *testing.T, tc fdCase) {
	t.Helper()
	params := make([]*Param, len(tc.inputs))
	for i, m := range tc.inputs {
		r, c := m.Dims()
		params[i] = NewParam(tc.name, r, c)
		params[i].Value.Copy(m)
	}
	var R *mat.Dense
	build := func() (*Tape, *Node) {
		tp := NewTape()
		nodes := make([]*Node, len(params))
		for i, p := range params {
			nodes[i] = tp.Var(p)
		}
		out := tc.op(tp, nodes)
		if R == nil {
			r, c := out.Value.Dims()
			R = randDense(newRNG(99), r, c)
		}
		return tp, tp.Sum(tp.Mul(out, tp.Const(R)))
	}
	f := func() float64 {
		_, loss := build()
		return loss.Scalar()
	}
	tp, loss := build()
	tp.Backward(loss)

	for pi, p := range params {
		w := p.Value.RawMatrix().Data
		g := p.Grad.RawMatrix().Data
		for i := range w {
			orig := w[i]
			w[i] = orig + fdEps
			fp := f()
			w[i] = orig - fdEps
			fm := f()
			w[i] = orig
			num := (fp - fm) / (2 * fdEps)
			tol := fdAbs + fdRel*math.Max(math.Abs(num), math.Abs(g[i]))
			assert.InDeltaf(t, num, g[i], tol, "%s: input %d element %d: numeric %.10g, backward %.10g", tc.name, pi, i, num, g[i])
		}
	}
}

func TestGradients(t *testing.T) {
	rng := newRNG(1)
	constA := randDense(rng, 5, 4)
	constW := randDense(rng, 3, 3)
	gatherIdx := []int{2, 0, 2, 1, 2}
	scatterIdx := []int{0, 3, 0, 1, 3} // rows 2 and 4 of the 5 outputs are never hit
	// Segment 1 is empty, segment 2 has a single row, segments 0 and 3 have several.
	seg := []int{0, 2, 0, 3, 3, 0}
	soft := []float64{1, 0, 0.25, 0.8, 0.5}
	weights := []float64{1, 2, 0.5, 0, 1.5}

	cases := []fdCase{
		{"MatMul", []*mat.Dense{randDense(rng, 3, 4), randDense(rng, 4, 2)},
			func(t *Tape, in []*Node) *Node { return t.MatMul(in[0], in[1]) }},
		{"MatMul const left", []*mat.Dense{randDense(rng, 4, 3)},
			func(t *Tape, in []*Node) *Node { return t.MatMul(t.Const(constA), in[0]) }},
		{"MatMul const right", []*mat.Dense{randDense(rng, 2, 3)},
			func(t *Tape, in []*Node) *Node { return t.MatMul(in[0], t.Const(constW)) }},
		{"MatMul same node twice", []*mat.Dense{randDense(rng, 3, 3)},
			func(t *Tape, in []*Node) *Node { return t.MatMul(in[0], in[0]) }},
		{"AddBias", []*mat.Dense{randDense(rng, 4, 3), randDense(rng, 1, 3)},
			func(t *Tape, in []*Node) *Node { return t.AddBias(in[0], in[1]) }},
		{"Add", []*mat.Dense{randDense(rng, 3, 2), randDense(rng, 3, 2)},
			func(t *Tape, in []*Node) *Node { return t.Add(in[0], in[1]) }},
		{"Sub", []*mat.Dense{randDense(rng, 3, 2), randDense(rng, 3, 2)},
			func(t *Tape, in []*Node) *Node { return t.Sub(in[0], in[1]) }},
		{"Mul", []*mat.Dense{randDense(rng, 3, 2), randDense(rng, 3, 2)},
			func(t *Tape, in []*Node) *Node { return t.Mul(in[0], in[1]) }},
		{"Scale", []*mat.Dense{randDense(rng, 3, 2)},
			func(t *Tape, in []*Node) *Node { return t.Scale(in[0], -2.5) }},
		{"GatherRows repeated", []*mat.Dense{randDense(rng, 3, 4)},
			func(t *Tape, in []*Node) *Node { return t.GatherRows(in[0], gatherIdx) }},
		{"ScatterAddRows repeated and unhit", []*mat.Dense{randDense(rng, 5, 3)},
			func(t *Tape, in []*Node) *Node { return t.ScatterAddRows(in[0], scatterIdx, 5) }},
		{"SegmentSoftmax", []*mat.Dense{randDense(rng, 6, 3)},
			func(t *Tape, in []*Node) *Node { return t.SegmentSoftmax(in[0], seg, 4) }},
		{"SegmentSoftmax large logits", []*mat.Dense{scaled(randDense(rng, 6, 2), 30)},
			func(t *Tape, in []*Node) *Node { return t.SegmentSoftmax(in[0], seg, 4) }},
		{"HeadDot", []*mat.Dense{randDense(rng, 4, 6), randDense(rng, 4, 6)},
			func(t *Tape, in []*Node) *Node { return t.HeadDot(in[0], in[1], 3) }},
		{"HeadDot same node", []*mat.Dense{randDense(rng, 3, 4)},
			func(t *Tape, in []*Node) *Node { return t.HeadDot(in[0], in[0], 2) }},
		{"HeadScale", []*mat.Dense{randDense(rng, 4, 6), randDense(rng, 4, 3)},
			func(t *Tape, in []*Node) *Node { return t.HeadScale(in[0], in[1], 3) }},
		{"ReLU", []*mat.Dense{awayFromZero(rng, 4, 3)},
			func(t *Tape, in []*Node) *Node { return t.ReLU(in[0]) }},
		{"Hinge", []*mat.Dense{awayFromZero(rng, 4, 3)},
			func(t *Tape, in []*Node) *Node { return t.Hinge(in[0]) }},
		{"GELU", []*mat.Dense{scaled(randDense(rng, 4, 3), 3)},
			func(t *Tape, in []*Node) *Node { return t.GELU(in[0]) }},
		{"Sigmoid", []*mat.Dense{scaled(randDense(rng, 4, 3), 4)},
			func(t *Tape, in []*Node) *Node { return t.Sigmoid(in[0]) }},
		{"Tanh", []*mat.Dense{scaled(randDense(rng, 4, 3), 2)},
			func(t *Tape, in []*Node) *Node { return t.Tanh(in[0]) }},
		{"Dropout", []*mat.Dense{randDense(rng, 4, 5)},
			func(t *Tape, in []*Node) *Node { return t.Dropout(in[0], 0.3, newRNG(7)) }},
		{"LayerNorm", []*mat.Dense{randDense(rng, 4, 5), randDense(rng, 1, 5), randDense(rng, 1, 5)},
			func(t *Tape, in []*Node) *Node { return t.LayerNorm(in[0], in[1], in[2], 1e-5) }},
		{"LayerNorm no affine", []*mat.Dense{randDense(rng, 3, 4)},
			func(t *Tape, in []*Node) *Node { return t.LayerNorm(in[0], nil, nil, 1e-5) }},
		{"Concat", []*mat.Dense{randDense(rng, 3, 2), randDense(rng, 3, 1), randDense(rng, 3, 3)},
			func(t *Tape, in []*Node) *Node { return t.Concat(in[0], in[1], in[2]) }},
		{"Concat with const", []*mat.Dense{randDense(rng, 5, 2)},
			func(t *Tape, in []*Node) *Node { return t.Concat(t.Const(constA), in[0]) }},
		{"GatedSkip 1×1 gate", []*mat.Dense{randDense(rng, 3, 4), randDense(rng, 3, 4), randDense(rng, 1, 1)},
			func(t *Tape, in []*Node) *Node { return t.GatedSkip(in[0], in[1], in[2]) }},
		{"GatedSkip 1×c gate", []*mat.Dense{randDense(rng, 3, 4), randDense(rng, 3, 4), randDense(rng, 1, 4)},
			func(t *Tape, in []*Node) *Node { return t.GatedSkip(in[0], in[1], in[2]) }},
		{"RowSum", []*mat.Dense{randDense(rng, 4, 3)},
			func(t *Tape, in []*Node) *Node { return t.RowSum(in[0]) }},
		{"Sum", []*mat.Dense{randDense(rng, 4, 3)},
			func(t *Tape, in []*Node) *Node { return t.Sum(in[0]) }},
		{"Mean", []*mat.Dense{randDense(rng, 4, 3)},
			func(t *Tape, in []*Node) *Node { return t.Mean(in[0]) }},
		{"BCEWithLogits soft weighted", []*mat.Dense{scaled(randDense(rng, 5, 1), 3)},
			func(t *Tape, in []*Node) *Node { return t.BCEWithLogits(in[0], soft, weights) }},
		{"BCEWithLogits unweighted", []*mat.Dense{scaled(randDense(rng, 5, 1), 3)},
			func(t *Tape, in []*Node) *Node { return t.BCEWithLogits(in[0], soft, nil) }},
		{"node used twice", []*mat.Dense{randDense(rng, 3, 3)},
			func(t *Tape, in []*Node) *Node {
				x := in[0]
				return t.Add(t.Mul(x, x), t.Sigmoid(t.MatMul(x, x)))
			}},
		{"margin loss", []*mat.Dense{randDense(rng, 4, 1), randDense(rng, 4, 1)},
			func(t *Tape, in []*Node) *Node {
				// [m − s(u,v) + s(u',v)]₊ with margins far from the kink.
				m := t.Const(mat.NewDense(4, 1, []float64{3, 3, -3, -3}))
				return t.Mean(t.Hinge(t.Add(m, t.Sub(in[1], in[0]))))
			}},
		{"attention pipeline", []*mat.Dense{randDense(rng, 4, 6), randDense(rng, 4, 6), randDense(rng, 4, 6)},
			func(t *Tape, in []*Node) *Node {
				// Edges src→dst over 4 nodes (node 3 receives nothing), 3 heads of size 2.
				src := []int{0, 1, 2, 0, 3, 1}
				dst := []int{1, 1, 0, 2, 2, 1}
				q := t.GatherRows(in[0], dst)
				k := t.GatherRows(in[1], src)
				v := t.GatherRows(in[2], src)
				att := t.SegmentSoftmax(t.Scale(t.HeadDot(q, k, 3), 1/math.Sqrt2), dst, 4)
				return t.ScatterAddRows(t.HeadScale(v, att, 3), dst, 4)
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { checkGrad(t, tc) })
	}
}

func scaled(m *mat.Dense, s float64) *mat.Dense {
	m.Scale(s, m)
	return m
}

// TestGemmTNAccParallel checks the row-split weight-gradient product, which the small
// finite-difference cases never reach, against gonum's Mul: odd row counts, several
// worker counts, accumulation into a non-zero destination.
func TestGemmTNAccParallel(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	rng := newRNG(5)
	a, g := randDense(rng, 3001, 40), randDense(rng, 3001, 24)
	var want mat.Dense
	want.Mul(a.T(), g)
	for _, procs := range []int{1, 2, 3, 7} {
		runtime.GOMAXPROCS(procs)
		dst := mat.NewDense(40, 24, nil)
		dst.Apply(func(_, _ int, _ float64) float64 { return 1 }, dst)
		gemmTNAcc(a.RawMatrix(), g.RawMatrix(), dst.RawMatrix())
		for i := range 40 {
			for j := range 24 {
				require.InDelta(t, want.At(i, j)+1, dst.At(i, j), 1e-10, "procs %d at %d,%d", procs, i, j)
			}
		}
	}
}

func TestSegmentSoftmaxValues(t *testing.T) {
	tp := NewTape()
	// Segment 1 empty, segment 2 a single row; large logits must not overflow.
	x := mat.NewDense(5, 2, []float64{
		1, 800,
		2, -3,
		3, 801,
		-5, 0,
		7, 1000,
	})
	seg := []int{0, 2, 0, 3, 3}
	y := tp.SegmentSoftmax(tp.Const(x), seg, 4).Value
	for i := range 5 {
		for j := range 2 {
			require.False(t, math.IsNaN(y.At(i, j)) || math.IsInf(y.At(i, j), 0), "row %d col %d", i, j)
		}
	}
	assert.InDelta(t, 1.0, y.At(1, 0), 1e-15) // single-row segment
	assert.InDelta(t, 1.0, y.At(1, 1), 1e-15)
	for j := range 2 {
		assert.InDelta(t, 1.0, y.At(0, j)+y.At(2, j), 1e-12)
		assert.InDelta(t, 1.0, y.At(3, j)+y.At(4, j), 1e-12)
	}
	assert.InDelta(t, 1/(1+math.E), y.At(0, 1), 1e-12)
	assert.InDelta(t, 1/(1+math.Exp(-2)), y.At(2, 0), 1e-12)
}

func TestScatterGatherValues(t *testing.T) {
	tp := NewTape()
	a := tp.Const(mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6}))
	s := tp.ScatterAddRows(a, []int{2, 0, 2}, 4).Value
	assert.Equal(t, []float64{3, 4, 0, 0, 6, 8, 0, 0}, s.RawMatrix().Data)
	g := tp.GatherRows(a, []int{2, 2, 0}).Value
	assert.Equal(t, []float64{5, 6, 5, 6, 1, 2}, g.RawMatrix().Data)
}

func TestBCEWithLogitsValue(t *testing.T) {
	tp := NewTape()
	x := []float64{0, 2, -1}
	y := []float64{1, 0.25, 0}
	w := []float64{1, 2, 0.5}
	got := tp.BCEWithLogits(tp.Const(mat.NewDense(3, 1, x)), y, w).Scalar()
	// By hand: ℓ = −y·log σ(x) − (1−y)·log(1−σ(x)).
	//   x=0,  y=1:    log 2                                 = 0.6931471805599453
	//   x=2,  y=0.25: −0.25·log σ(2) − 0.75·log σ(−2)       = 1.6269280110429716
	//   x=−1, y=0:    −log(1−σ(−1)) = log(1+e^−1)           = 0.31326168751822286
	// weighted mean: (0.693147… + 2·1.590949… + 0.5·0.313261…)/3
	want := (0.6931471805599453 + 2*1.6269280110429716 + 0.5*0.31326168751822286) / 3
	assert.InDelta(t, want, got, 1e-12)
	for i := range x {
		s := 1 / (1 + math.Exp(-x[i]))
		naive := -y[i]*math.Log(s) - (1-y[i])*math.Log(1-s)
		want := []float64{0.6931471805599453, 1.6269280110429716, 0.31326168751822286}[i]
		assert.InDelta(t, want, naive, 1e-12, "hand value %d", i)
	}

	// Stability: extreme logits give finite, exact losses where the naive form gives Inf/NaN.
	p := NewParam("x", 4, 1)
	copy(p.Value.RawMatrix().Data, []float64{1000, -1000, 1000, -1000})
	tp = NewTape()
	loss := tp.BCEWithLogits(tp.Var(p), []float64{1, 1, 0, 0}, nil)
	assert.InDelta(t, (0+1000+1000+0)/4.0, loss.Scalar(), 1e-9)
	tp.Backward(loss)
	assert.InDeltaSlice(t, []float64{0, -0.25, 0.25, 0}, p.Grad.RawMatrix().Data, 1e-12)
}

func TestAdamQuadratic(t *testing.T) {
	// f(w) = Σ a_i·(w_i − c_i)², minimum at c.
	target := []float64{3, -2, 0.5, 10}
	curv := []float64{1, 4, 0.5, 2}
	p := NewParam("w", 2, 2)
	opt := &Adam{LR: 0.05}
	for range 3000 {
		tp := NewTape()
		w := tp.Var(p)
		d := tp.Sub(w, tp.Const(mat.NewDense(2, 2, target)))
		loss := tp.Sum(tp.Mul(tp.Mul(d, d), tp.Const(mat.NewDense(2, 2, curv))))
		tp.Backward(loss)
		opt.Step([]*Param{p})
		require.Equal(t, []float64{0, 0, 0, 0}, p.Grad.RawMatrix().Data, "Step zeroes Grad")
	}
	assert.InDeltaSlice(t, target, p.Value.RawMatrix().Data, 1e-3)
}

func TestAdamFirstStepAndWeightDecay(t *testing.T) {
	// With bias correction the first step is −LR·sign(g) (up to eps), whatever |g|.
	p := NewParam("w", 1, 3)
	copy(p.Grad.RawMatrix().Data, []float64{1e-3, -50, 2})
	(&Adam{LR: 0.1}).Step([]*Param{p})
	assert.InDeltaSlice(t, []float64{-0.1, 0.1, -0.1}, p.Value.RawMatrix().Data, 1e-5)

	// Decoupled decay with a zero gradient shrinks weights by (1 − LR·WeightDecay) only.
	q := NewParam("q", 1, 2)
	copy(q.Value.RawMatrix().Data, []float64{2, -4})
	(&Adam{LR: 0.1, WeightDecay: 0.5}).Step([]*Param{q})
	assert.InDeltaSlice(t, []float64{1.9, -3.8}, q.Value.RawMatrix().Data, 1e-12)
}

func TestAccumulation(t *testing.T) {
	p := NewParam("x", 1, 2)
	copy(p.Value.RawMatrix().Data, []float64{3, -1})
	c := mat.NewDense(1, 2, []float64{5, 7})

	// Two Var nodes of one Param and a node used twice: d/dx Σ(x·x + x·c) = 2x + c.
	tp := NewTape()
	x1, x2 := tp.Var(p), tp.Var(p)
	cn := tp.Const(c)
	loss := tp.Sum(tp.Add(tp.Mul(x1, x1), tp.Mul(x2, cn)))
	tp.Backward(loss)
	assert.Equal(t, []float64{11, 5}, p.Grad.RawMatrix().Data)
	assert.Nil(t, cn.Grad, "Const gets no gradient")

	// A second Backward adds to the Param's gradient until it is zeroed.
	tp.Backward(loss)
	assert.Equal(t, []float64{22, 10}, p.Grad.RawMatrix().Data)
	ZeroGrads([]*Param{p})
	assert.Equal(t, []float64{0, 0}, p.Grad.RawMatrix().Data)

	// A loss built from constants only has nothing to differentiate.
	tp = NewTape()
	l := tp.Sum(tp.Const(c))
	tp.Backward(l)
	assert.Nil(t, l.Grad)
}

func TestInitXavierReproducible(t *testing.T) {
	a, b := NewParam("a", 64, 32), NewParam("b", 64, 32)
	a.InitXavier(newRNG(42))
	b.InitXavier(newRNG(42))
	assert.Equal(t, a.Value.RawMatrix().Data, b.Value.RawMatrix().Data)
	lim := math.Sqrt(6.0 / 96)
	var nonzero int
	for _, v := range a.Value.RawMatrix().Data {
		require.LessOrEqual(t, math.Abs(v), lim)
		if v != 0 {
			nonzero++
		}
	}
	assert.Equal(t, 64*32, nonzero)
	a.Fill(1)
	assert.Equal(t, 1.0, a.Value.At(63, 31))
}

func TestClipGradNorm(t *testing.T) {
	p, q := NewParam("p", 1, 2), NewParam("q", 1, 1)
	copy(p.Grad.RawMatrix().Data, []float64{3, 0})
	q.Grad.Set(0, 0, 4)
	assert.InDelta(t, 5.0, ClipGradNorm([]*Param{p, q}, 1), 1e-15)
	assert.InDeltaSlice(t, []float64{0.6, 0}, p.Grad.RawMatrix().Data, 1e-15)
	assert.InDelta(t, 0.8, q.Grad.At(0, 0), 1e-15)
	assert.InDelta(t, 1.0, ClipGradNorm([]*Param{p, q}, 10), 1e-15) // under the limit: unchanged
	assert.InDelta(t, 0.8, q.Grad.At(0, 0), 1e-15)
}

func TestDropout(t *testing.T) {
	tp := NewTape()
	a := tp.Const(mat.NewDense(100, 100, nil))
	a.Value.Apply(func(_, _ int, _ float64) float64 { return 1 }, a.Value)
	assert.Same(t, a, tp.Dropout(a, 0, nil), "p = 0 is the identity")
	y := tp.Dropout(a, 0.25, newRNG(3)).Value.RawMatrix().Data
	var kept int
	for _, v := range y {
		if v != 0 {
			require.InDelta(t, 1/0.75, v, 1e-15)
			kept++
		}
	}
	assert.InDelta(t, 0.75, float64(kept)/1e4, 0.02)
	tp2 := NewTape()
	y2 := tp2.Dropout(tp2.Const(a.Value), 0.25, newRNG(3)).Value.RawMatrix().Data
	assert.Equal(t, y, y2, "same seed, same mask")
}

func TestShapePanics(t *testing.T) {
	tp := NewTape()
	a := tp.Const(mat.NewDense(3, 4, nil))
	b := tp.Const(mat.NewDense(5, 2, nil))
	cases := []struct {
		name string
		f    func()
		msg  string
	}{
		{"MatMul", func() { tp.MatMul(a, b) }, "ad: MatMul: 3×4 by 5×2"},
		{"Add", func() { tp.Add(a, b) }, "ad: Add: 3×4 and 5×2"},
		{"AddBias", func() { tp.AddBias(a, b) }, "ad: AddBias: 3×4 plus bias 5×2, want 1×4"},
		{"GatherRows", func() { tp.GatherRows(a, []int{0, 3}) }, "ad: GatherRows: index 3 at position 1 out of range [0, 3)"},
		{"GatherRows empty", func() { tp.GatherRows(a, nil) }, "ad: GatherRows: no indices (result would be 0×4)"},
		{"ScatterAddRows", func() { tp.ScatterAddRows(a, []int{0, 1}, 4) }, "ad: ScatterAddRows: 3×4 with 2 indices"},
		{"SegmentSoftmax", func() { tp.SegmentSoftmax(a, []int{0, 1, 2}, 2) }, "ad: SegmentSoftmax: index 2 at position 2 out of range [0, 2)"},
		{"HeadDot", func() { tp.HeadDot(a, a, 3) }, "ad: HeadDot: 3×4 does not split into 3 heads"},
		{"GatedSkip", func() { tp.GatedSkip(a, a, b) }, "ad: GatedSkip: 3×4 with gate 5×2, want 1×1 or 1×4"},
		{"Backward", func() { tp.Backward(a) }, "ad: Backward: loss is 3×4, want 1×1"},
		{"other tape", func() { NewTape().Sum(a) }, "ad: Sum: node from another tape"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { assert.PanicsWithValue(t, tc.msg, tc.f) })
	}
}

// Example trains a two-layer perceptron on XOR: Params are initialised from a seeded RNG,
// each step records a fresh Tape, Backward fills Param.Grad and Adam.Step applies and
// zeroes it.
func Example() {
	rng := rand.New(rand.NewPCG(1, 2))
	w1, b1 := NewParam("w1", 2, 8), NewParam("b1", 1, 8)
	w2, b2 := NewParam("w2", 8, 1), NewParam("b2", 1, 1)
	w1.InitXavier(rng)
	w2.InitXavier(rng)
	params := []*Param{w1, b1, w2, b2}
	x := mat.NewDense(4, 2, []float64{0, 0, 0, 1, 1, 0, 1, 1})
	y := []float64{0, 1, 1, 0}
	opt := &Adam{LR: 0.05}
	var loss float64
	for range 500 {
		tp := NewTape()
		h := tp.Tanh(tp.AddBias(tp.MatMul(tp.Const(x), tp.Var(w1)), tp.Var(b1)))
		logits := tp.AddBias(tp.MatMul(h, tp.Var(w2)), tp.Var(b2)) // 4×1
		l := tp.BCEWithLogits(logits, y, nil)
		tp.Backward(l)
		opt.Step(params)
		loss = l.Scalar()
	}
	fmt.Println(loss < 0.01)
	// Output: true
}

// BenchmarkMatMulLayer is one dense layer at HGT scale: ReLU(X·W + b) with X 8000×64 and
// W 64×64, forward and backward with gradients for X, W and b.
func BenchmarkMatMulLayer(b *testing.B) {
	rng := newRNG(1)
	x, w, bias := NewParam("x", 8000, 64), NewParam("w", 64, 64), NewParam("b", 1, 64)
	x.InitXavier(rng)
	w.InitXavier(rng)
	r := randDense(rng, 8000, 64)
	b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "procs")
	b.ResetTimer()
	for b.Loop() {
		tp := NewTape()
		h := tp.ReLU(tp.AddBias(tp.MatMul(tp.Var(x), tp.Var(w)), tp.Var(bias)))
		tp.Backward(tp.Sum(tp.Mul(h, tp.Const(r))))
	}
}

// BenchmarkMatMul isolates the product 8000×64 by 64×64 and its two backward products.
func BenchmarkMatMul(b *testing.B) {
	rng := newRNG(1)
	x, w := NewParam("x", 8000, 64), NewParam("w", 64, 64)
	x.InitXavier(rng)
	w.InitXavier(rng)
	for b.Loop() {
		tp := NewTape()
		y := tp.MatMul(tp.Var(x), tp.Var(w))
		tp.Backward(tp.Sum(y))
	}
}

// BenchmarkAttention is one attention pass at HGT scale: 8,000 nodes, 24,000 edges, 8 heads
// of size 8 (hidden 64), gathering queries, keys and values per edge, a per-target segment
// softmax and the scatter of weighted messages, forward and backward.
func BenchmarkAttention(b *testing.B) {
	const n, e, heads, hidden = 8000, 24000, 8, 64
	rng := newRNG(1)
	h := NewParam("h", n, hidden)
	h.InitXavier(rng)
	wq, wk, wv := NewParam("wq", hidden, hidden), NewParam("wk", hidden, hidden), NewParam("wv", hidden, hidden)
	for _, p := range []*Param{wq, wk, wv} {
		p.InitXavier(rng)
	}
	src, dst := make([]int, e), make([]int, e)
	for i := range src {
		src[i], dst[i] = rng.IntN(n), rng.IntN(n)
	}
	r := randDense(rng, n, hidden)
	b.ResetTimer()
	for b.Loop() {
		tp := NewTape()
		x := tp.Var(h)
		q := tp.GatherRows(tp.MatMul(x, tp.Var(wq)), dst)
		k := tp.GatherRows(tp.MatMul(x, tp.Var(wk)), src)
		v := tp.GatherRows(tp.MatMul(x, tp.Var(wv)), src)
		att := tp.SegmentSoftmax(tp.Scale(tp.HeadDot(q, k, heads), 1/math.Sqrt(hidden/heads)), dst, n)
		msg := tp.ScatterAddRows(tp.HeadScale(v, att, heads), dst, n)
		tp.Backward(tp.Sum(tp.Mul(msg, tp.Const(r))))
	}
}
