// Package ad is a small reverse-mode automatic differentiation on gonum matrices, enough for
// Navi's heterogeneous graph transformer: a Tape records operations on Nodes, each op with a
// hand-written backward rule, and Backward walks the tape in reverse.
//
// Shapes: every Node holds a dense r×c matrix (*mat.Dense, row-major). Rows are items (nodes
// or edges of the graph), columns are features. A scalar is 1×1. Multi-head tensors keep the
// H heads side by side in the columns: an E×(H·d) matrix is head h in columns [h·d, (h+1)·d).
//
// Building a step: create a Tape, put trainable Params on it with Var and fixed inputs with
// Const, combine them with the op methods, reduce to a 1×1 loss and call Backward(loss). The
// gradient of every Param reached from the loss is added into Param.Grad; Adam.Step then
// updates the Values and zeroes the Grads. A Tape is meant for one forward/backward pass and
// is not safe for concurrent use; use a new Tape per step.
//
// Aliasing: Var uses the Param's Value and Grad matrices themselves (no copy), so a Var node
// reads the weights as they are when the op runs, and Backward accumulates straight into
// Param.Grad. Const uses the given matrix without copying when it is contiguous (every matrix
// made by mat.NewDense is), and must not be modified until Backward has run. Every op returns
// a freshly allocated Value. Index and target slices passed to ops (GatherRows, ScatterAddRows,
// SegmentSoftmax, BCEWithLogits) are kept, not copied, and must not be modified until Backward
// has run.
//
// Errors: shape mismatches, indices out of range and similar misuse are programming errors,
// not data errors — the caller (package hgt) derives every shape from a graph it has already
// validated — so the ops panic with a message naming the op and the shapes, for example
// "ad: MatMul: 3×4 by 5×2", instead of returning errors that every line of model code would
// have to thread through. gonum cannot represent a matrix with zero rows or columns, so an op
// whose result would be empty (GatherRows with no indices, say) is also a programming error:
// callers skip empty relations instead.
//
// Efficiency: MatMul and its backward go through gonum's BLAS (blas64.Gemm, blocked and
// parallel), the backward accumulating into the gradients with beta = 1 instead of through
// temporaries; the weight gradient Xᵀ·dOut, whose small output gonum would compute on one
// core, is split over the long dimension across GOMAXPROCS goroutines. Every other op is a plain loop over the row-major backing slice with no
// per-element allocation. Gradient matrices are allocated once per node by Backward, only for
// nodes that depend on a Var.
//
// Every op is checked against central finite differences in ad_test.go.
package ad

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// Param is a trainable matrix. Value holds the weights; Grad (same shape) accumulates the
// gradient of every Backward that reached it until Adam.Step (or ZeroGrads) zeroes it.
type Param struct {
	Name        string
	Value, Grad *mat.Dense
}

// NewParam returns an r×c Param with Value and Grad all zero. Initialise weight matrices
// with InitXavier (or Fill for LayerNorm gains); biases usually stay at zero.
func NewParam(name string, r, c int) *Param {
	if r <= 0 || c <= 0 {
		fail("NewParam %q: %d×%d", name, r, c)
	}
	return &Param{Name: name, Value: mat.NewDense(r, c, nil), Grad: mat.NewDense(r, c, nil)}
}

// InitXavier fills Value with Glorot/Xavier uniform values in ±√(6/(r+c)), for a weight
// used as x·W with fan-in r and fan-out c. The caller owns and seeds rng, so training is
// reproducible from the seed.
func (p *Param) InitXavier(rng *rand.Rand) {
	r, c := p.Value.Dims()
	lim := math.Sqrt(6 / float64(r+c))
	raw := p.Value.RawMatrix()
	for i := 0; i < r; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+c]
		for j := range row {
			row[j] = lim * (2*rng.Float64() - 1)
		}
	}
}

// Fill sets every element of Value to v (for example 1 for a LayerNorm gain).
func (p *Param) Fill(v float64) {
	r, c := p.Value.Dims()
	raw := p.Value.RawMatrix()
	for i := 0; i < r; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+c]
		for j := range row {
			row[j] = v
		}
	}
}

// ZeroGrads sets the Grad of every Param to zero.
func ZeroGrads(params []*Param) {
	for _, p := range params {
		if p.Grad != nil {
			p.Grad.Zero()
		}
	}
}

// ClipGradNorm rescales the gradients of params so that their joint L2 norm is at most
// maxNorm, and returns the norm before clipping. Call it between Backward and Adam.Step.
func ClipGradNorm(params []*Param, maxNorm float64) float64 {
	var ss float64
	for _, p := range params {
		if p.Grad == nil {
			continue
		}
		for _, g := range data("ClipGradNorm", p.Grad) {
			ss += g * g
		}
	}
	norm := math.Sqrt(ss)
	if norm > maxNorm && norm > 0 {
		s := maxNorm / norm
		for _, p := range params {
			if p.Grad == nil {
				continue
			}
			g := data("ClipGradNorm", p.Grad)
			for i := range g {
				g[i] *= s
			}
		}
	}
	return norm
}

// Node is a value on a Tape. Value is its r×c matrix; Grad (same shape) holds ∂loss/∂Value
// after Backward, and stays nil for nodes that do not depend on any Var (Const nodes and
// everything computed from Consts alone). For a Var node, Grad is the Param's Grad.
type Node struct {
	Value, Grad *mat.Dense

	tape     *Tape
	idx      int    // position on the tape
	needGrad bool   // depends on some Var
	isVar    bool   // Grad is a Param's Grad: accumulate, never reset
	back     func() // adds this node's Grad into its inputs' Grads; nil when !needGrad
}

// Scalar returns the value of a 1×1 node (a loss, say).
func (n *Node) Scalar() float64 {
	if r, c := n.Value.Dims(); r != 1 || c != 1 {
		fail("Scalar: %s is not 1×1", shape(n.Value))
	}
	return n.Value.At(0, 0)
}

// Tape records ops in the order they are applied. The zero value is ready to use.
type Tape struct {
	nodes []*Node
}

// NewTape returns an empty Tape.
func NewTape() *Tape { return &Tape{} }

// Var puts the trainable p on the tape; Backward adds the node's gradient into p.Grad
// (allocating p.Grad if it is nil). Calling Var twice with the same Param is fine: both
// nodes share p.Grad, so both contributions are summed.
func (t *Tape) Var(p *Param) *Node {
	if p == nil || p.Value == nil {
		fail("Var: nil Param or Param.Value")
	}
	r, c := p.Value.Dims()
	contiguous("Var "+p.Name, p.Value)
	if p.Grad == nil {
		p.Grad = mat.NewDense(r, c, nil)
	}
	if gr, gc := p.Grad.Dims(); gr != r || gc != c {
		fail("Var %q: Value %s, Grad %s", p.Name, shape(p.Value), shape(p.Grad))
	}
	contiguous("Var "+p.Name, p.Grad)
	n := &Node{Value: p.Value, Grad: p.Grad, needGrad: true, isVar: true}
	t.push(n)
	return n
}

// Const puts the fixed r×c matrix m on the tape; no gradient flows into it. m is used
// without copying unless it is a non-contiguous view, which is copied.
func (t *Tape) Const(m *mat.Dense) *Node {
	if m == nil || m.IsEmpty() {
		fail("Const: nil or empty matrix")
	}
	if raw := m.RawMatrix(); raw.Stride != raw.Cols {
		m = mat.DenseCopyOf(m)
	}
	n := &Node{Value: m}
	t.push(n)
	return n
}

// Backward computes ∂loss/∂x for every node x recorded up to loss that depends on a Var,
// seeding ∂loss/∂loss = 1, and adds the gradients of Var nodes into their Params' Grad.
// loss must be 1×1 and on this tape. Node gradients (other than Params') are reset at the
// start of each Backward; Param gradients accumulate until zeroed.
func (t *Tape) Backward(loss *Node) {
	t.own("Backward", loss)
	if r, c := loss.Value.Dims(); r != 1 || c != 1 {
		fail("Backward: loss is %s, want 1×1", shape(loss.Value))
	}
	if !loss.needGrad {
		return
	}
	for _, n := range t.nodes[:loss.idx+1] {
		if !n.needGrad || n.isVar {
			continue
		}
		if n.Grad == nil {
			r, c := n.Value.Dims()
			n.Grad = mat.NewDense(r, c, nil)
		} else {
			n.Grad.Zero()
		}
	}
	loss.Grad.RawMatrix().Data[0]++
	// Reverse tape order is a topological order of the reversed graph: every consumer of a
	// node was recorded after it, so a node's Grad is complete before its back rule runs.
	for i := loss.idx; i >= 0; i-- {
		if b := t.nodes[i].back; b != nil {
			b()
		}
	}
}

func (t *Tape) push(n *Node) {
	n.tape = t
	n.idx = len(t.nodes)
	t.nodes = append(t.nodes, n)
}

// node records an op result v computed from inputs; the result needs a gradient when any
// input does. The caller sets back when the result needs a gradient.
func (t *Tape) node(v *mat.Dense, inputs ...*Node) *Node {
	n := &Node{Value: v}
	for _, in := range inputs {
		if in != nil && in.needGrad {
			n.needGrad = true
			break
		}
	}
	t.push(n)
	return n
}

// own panics unless every node is non-nil and was recorded on t: mixing tapes would run
// back rules in the wrong order.
func (t *Tape) own(op string, nodes ...*Node) {
	for _, n := range nodes {
		if n == nil {
			fail("%s: nil node", op)
		}
		if n.tape != t {
			fail("%s: node from another tape", op)
		}
	}
}

// fail panics with a programming-error message prefixed by "ad: ".
func fail(format string, args ...any) {
	panic(fmt.Sprintf("ad: "+format, args...))
}

func shape(m *mat.Dense) string {
	r, c := m.Dims()
	return fmt.Sprintf("%d×%d", r, c)
}

func contiguous(op string, m *mat.Dense) {
	if raw := m.RawMatrix(); raw.Stride != raw.Cols {
		fail("%s: matrix is a non-contiguous view (stride %d, %d columns)", op, raw.Stride, raw.Cols)
	}
}

// data returns the row-major elements of a contiguous matrix. Every matrix this package
// works on is contiguous: op results and gradients are made by mat.NewDense, Var checks the
// Param's matrices, and Const copies views.
func data(op string, m *mat.Dense) []float64 {
	raw := m.RawMatrix()
	if raw.Stride != raw.Cols {
		contiguous(op, m)
	}
	return raw.Data[:raw.Rows*raw.Cols]
}

// vals and grads return the backing slices of a node's Value and Grad.
func vals(n *Node) []float64  { return data("", n.Value) }
func grads(n *Node) []float64 { return data("", n.Grad) }
