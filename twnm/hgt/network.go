package hgt

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/hgt/ad"
	"github.com/naviagent/navi/twnm/hgt/hgtdata"
)

// Shapes. n_k is the number of nodes of kind k (API, Param), F the feature count, d = Hidden,
// H = Heads, d_k = d/H, E_r the visible edges of relation r. Node representations of kind k
// are n_k×d; multi-head tensors keep head h in columns [h·d_k, (h+1)·d_k).

// network holds the trainable parameters.
type network struct {
	hidden, heads, features int
	enc                     [2]encoder // by twnm.NodeKind
	layers                  []layer
	dec                     []decoder // by position in hgtdata.Predicted
	params                  []*ad.Param
}

// encoder is Eq. 18 for one node type: h' = LayerNorm(ReLU(x·W + b)), W F×d.
type encoder struct{ w, b, gain, shift *ad.Param }

// relationAttention holds one relation's projections in one layer: W_Q, W_K, W_V (d×d, all
// heads side by side) and the per-head bias b_r (1×H) of Eq. 19.
type relationAttention struct{ q, k, v, bias *ad.Param }

// update turns a node type's aggregated messages into its next representation: the heads,
// concatenated, are projected (GELU, then ·W + b, W d×d), mixed with the layer's input through
// a learnt gate (1×1), and normalised.
type update struct{ w, b, gate, gain, shift *ad.Param }

type layer struct {
	rel [hgtdata.NumRelations]relationAttention
	upd [2]update // by twnm.NodeKind of the target
}

// decoder scores a pair of one predicted kind: s(u,v) = h_u·W·h_vᵀ + b, W d×d. A bilinear
// form ranks candidate targets for a fixed source (unlike σ(wᵀ[h_u‖h_v]+b), which splits into
// f(u)+g(v)), is directed (W need not be symmetric), and scores all pairs with one product.
type decoder struct{ w, b *ad.Param }

var kindNames = [2]string{"API", "Param"}

// newNetwork lays out the parameters of a model reading features-long rows. Their order and
// names are the model file's.
func newNetwork(hidden, heads, layers, features int) *network {
	n := &network{hidden: hidden, heads: heads, features: features}
	p := func(name string, r, c int) *ad.Param {
		x := ad.NewParam(name, r, c)
		n.params = append(n.params, x)
		return x
	}
	d := hidden
	for k := range n.enc {
		pre := "encoder." + kindNames[k] + "."
		n.enc[k] = encoder{p(pre+"W", features, d), p(pre+"b", 1, d), p(pre+"gain", 1, d), p(pre+"shift", 1, d)}
	}
	n.layers = make([]layer, layers)
	for l := range n.layers {
		for r, rel := range hgtdata.Relations {
			pre := fmt.Sprintf("layer%d.%s.", l, rel)
			n.layers[l].rel[r] = relationAttention{p(pre+"Q", d, d), p(pre+"K", d, d), p(pre+"V", d, d), p(pre+"bias", 1, heads)}
		}
		for k := range n.layers[l].upd {
			pre := fmt.Sprintf("layer%d.update.%s.", l, kindNames[k])
			n.layers[l].upd[k] = update{p(pre+"W", d, d), p(pre+"b", 1, d), p(pre+"gate", 1, 1), p(pre+"gain", 1, d), p(pre+"shift", 1, d)}
		}
	}
	for _, kind := range hgtdata.Predicted {
		pre := "decoder." + kind.String() + "."
		n.dec = append(n.dec, decoder{p(pre+"W", d, d), p(pre+"b", 1, 1)})
	}
	return n
}

// init draws the weights from rng: Glorot-uniform matrices, unit gains, zero biases and
// gates (an even mix of a layer's input and output). The decoder's matrix is scaled by 1/√d
// so that initial scores of normalised representations are of order 1.
func (n *network) init(rng *rand.Rand) {
	for k := range n.enc {
		glorot(n.enc[k].w.Value, rng)
		fill(n.enc[k].gain.Value, 1)
	}
	for l := range n.layers {
		for r := range n.layers[l].rel {
			a := &n.layers[l].rel[r]
			glorot(a.q.Value, rng)
			glorot(a.k.Value, rng)
			glorot(a.v.Value, rng)
		}
		for k := range n.layers[l].upd {
			glorot(n.layers[l].upd[k].w.Value, rng)
			fill(n.layers[l].upd[k].gain.Value, 1)
		}
	}
	for i := range n.dec {
		glorot(n.dec[i].w.Value, rng)
		n.dec[i].w.Value.Scale(1/math.Sqrt(float64(n.hidden)), n.dec[i].w.Value)
	}
}

// glorot fills the r×c weight m (used as x·m, fan-in r, fan-out c) with Glorot-uniform values
// in ±√(6/(r+c)), row by row from rng.
func glorot(m *mat.Dense, rng *rand.Rand) {
	r, c := m.Dims()
	lim := math.Sqrt(6 / float64(r+c))
	data := m.RawMatrix().Data
	for i := range data[:r*c] {
		data[i] = lim * (2*rng.Float64() - 1)
	}
}

// fill sets every element of m to x.
func fill(m *mat.Dense, x float64) {
	r, c := m.Dims()
	data := m.RawMatrix().Data
	for i := range data[:r*c] {
		data[i] = x
	}
}

// clipGradNorm rescales the gradients of params so that their joint L2 norm is at most
// maxNorm.
func clipGradNorm(params []*ad.Param, maxNorm float64) {
	var ss float64
	for _, p := range params {
		for _, g := range p.Grad.RawMatrix().Data {
			ss += g * g
		}
	}
	if norm := math.Sqrt(ss); norm > maxNorm {
		for _, p := range params {
			p.Grad.Scale(maxNorm/norm, p.Grad)
		}
	}
}

// view is the input of one forward pass: a message-passing graph as index lists and constant
// matrices.
type view struct {
	ix   *hgtdata.NodeIndex
	rows [2]int        // n_k
	x    [2]*mat.Dense // n_k×F features; nil when n_k = 0
	rel  [hgtdata.NumRelations]relationView
	into [2]incoming // by target kind
}

// relationView is one relation's visible edges: rows of the source and target kinds, the
// statistical weights broadcast over heads (E_r×H), and the rows the edges take in their
// target kind's stacked edge list.
type relationView struct {
	src, dst []int
	weight   *mat.Dense
	stacked  []int
}

// incoming stacks the edges of every relation into one node kind, relation after relation,
// so that the softmax runs per target over all its incoming edges of all relations (Eq. 19).
type incoming struct {
	rels  []int // relations with edges into this kind, in hgtdata.Relations order
	dst   []int // target row of each stacked edge: the softmax segments
	total int
}

// newView builds a view from a message-passing graph and its feature rows.
func newView(mg *hgtdata.MessageGraph, feats [2][]float64, features, heads int) *view {
	v := &view{ix: mg.Index}
	for k := range v.rows {
		v.rows[k] = len(mg.Index.Nodes[k])
		if v.rows[k] > 0 {
			v.x[k] = mat.NewDense(v.rows[k], features, feats[k])
		}
	}
	for r, rel := range hgtdata.Relations {
		re := &mg.Relations[r]
		if re.Len() == 0 {
			continue
		}
		w := mat.NewDense(re.Len(), heads, nil)
		raw := w.RawMatrix().Data
		for i, x := range re.Weight {
			for h := range heads {
				raw[i*heads+h] = x
			}
		}
		in := &v.into[rel.Dst()]
		rv := relationView{src: re.Src, dst: re.Dst, weight: w, stacked: make([]int, re.Len())}
		for i := range rv.stacked {
			rv.stacked[i] = in.total + i
		}
		in.rels = append(in.rels, r)
		in.dst = append(in.dst, re.Dst...)
		in.total += re.Len()
		v.rel[r] = rv
	}
	return v
}

// pass is one forward pass on a tape; it puts each parameter on the tape once.
type pass struct {
	t    *ad.Tape
	vars map[*ad.Param]*ad.Node
}

func newPass() *pass { return &pass{t: ad.NewTape(), vars: map[*ad.Param]*ad.Node{}} }

func (p *pass) v(x *ad.Param) *ad.Node {
	if n, ok := p.vars[x]; ok {
		return n
	}
	n := p.t.Var(x)
	p.vars[x] = n
	return n
}

const normEps = 1e-5

// embed runs the encoder and the HGT layers: the final n_k×d representation of each kind,
// nil for a kind with no nodes.
func (n *network) embed(p *pass, v *view) [2]*ad.Node {
	t := p.t
	var h [2]*ad.Node
	for k := range h {
		if v.rows[k] == 0 {
			continue
		}
		e := &n.enc[k]
		z := t.AddBias(t.MatMul(t.Const(v.x[k]), p.v(e.w)), p.v(e.b))
		h[k] = t.LayerNorm(t.ReLU(z), p.v(e.gain), p.v(e.shift), normEps)
	}
	dk := n.hidden / n.heads
	invSqrtDk := 1 / math.Sqrt(float64(dk))
	for l := range n.layers {
		ly := &n.layers[l]
		var next [2]*ad.Node
		for k := range next {
			if v.rows[k] == 0 {
				continue
			}
			in := &v.into[k]
			var agg *ad.Node
			if in.total > 0 {
				// Attention logits of every incoming edge, stacked relation after relation (Eq. 19):
				// (W_Q h_target)·(W_K h_source)/√d_k + b_r + w̃, per head.
				logits := make([]*ad.Node, len(in.rels))
				values := make([]*ad.Node, len(in.rels))
				var stacked *ad.Node
				for i, r := range in.rels {
					rel, rv, a := hgtdata.Relations[r], &v.rel[r], &ly.rel[r]
					q := t.GatherRows(t.MatMul(h[rel.Dst()], p.v(a.q)), rv.dst)
					key := t.GatherRows(t.MatMul(h[rel.Src()], p.v(a.k)), rv.src)
					values[i] = t.GatherRows(t.MatMul(h[rel.Src()], p.v(a.v)), rv.src)
					lg := t.Add(t.Scale(t.HeadDot(q, key, n.heads), invSqrtDk), t.Const(rv.weight))
					logits[i] = t.AddBias(lg, p.v(a.bias))
					if len(in.rels) == 1 {
						stacked = logits[i]
					} else {
						s := t.ScatterAddRows(logits[i], rv.stacked, in.total)
						if stacked == nil {
							stacked = s
						} else {
							stacked = t.Add(stacked, s)
						}
					}
				}
				alpha := t.SegmentSoftmax(stacked, in.dst, v.rows[k])
				// Messages W_V h_source weighted by attention, summed per target.
				for i, r := range in.rels {
					rv := &v.rel[r]
					a := alpha
					if len(in.rels) > 1 {
						a = t.GatherRows(alpha, rv.stacked)
					}
					m := t.ScatterAddRows(t.HeadScale(values[i], a, n.heads), rv.dst, v.rows[k])
					if agg == nil {
						agg = m
					} else {
						agg = t.Add(agg, m)
					}
				}
			} else {
				// No visible edge enters this kind: every message sum is zero.
				agg = t.Const(mat.NewDense(v.rows[k], n.hidden, nil))
			}
			u := &ly.upd[k]
			out := t.AddBias(t.MatMul(t.GELU(agg), p.v(u.w)), p.v(u.b))
			next[k] = t.LayerNorm(t.GatedSkip(h[k], out, p.v(u.gate)), p.v(u.gain), p.v(u.shift), normEps)
		}
		h = next
	}
	return h
}

// score returns the decoder's logits s(u,v) for pairs of one predicted kind, as rows of that
// kind's endpoint nodes: len(from)×1. from and to must not be empty.
func (n *network) score(p *pass, h [2]*ad.Node, kind twnm.EdgeKind, from, to []int) *ad.Node {
	t := p.t
	d := &n.dec[hgtdata.PredictedIndex(kind)]
	src, dst := hgtdata.Endpoints(kind)
	proj := t.MatMul(h[src], p.v(d.w)) // n_src×d
	s := t.RowSum(t.Mul(t.GatherRows(proj, from), t.GatherRows(h[dst], to)))
	return t.AddBias(s, p.v(d.b))
}

// probabilities returns σ(s(u,v)) for each pair over view v, in order.
func (n *network) probabilities(v *view, pairs []hgtdata.Pair) []float64 {
	out := make([]float64, len(pairs))
	if len(pairs) == 0 {
		return out
	}
	p := newPass()
	h := n.embed(p, v)
	for _, kind := range hgtdata.Predicted {
		var from, to, at []int
		for i, q := range pairs {
			if q.Kind == kind {
				from, to, at = append(from, v.ix.Row[q.From]), append(to, v.ix.Row[q.To]), append(at, i)
			}
		}
		if len(at) == 0 {
			continue
		}
		s := n.score(p, h, kind, from, to).Value.RawMatrix().Data
		for j, i := range at {
			out[i] = sigmoid(s[j])
		}
	}
	return out
}

func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// column returns xs as an len(xs)×1 matrix.
func column(xs []float64) *mat.Dense { return mat.NewDense(len(xs), 1, xs) }

// snapshot copies every parameter's values into buf (allocated when nil) and returns it.
func (n *network) snapshot(buf [][]float64) [][]float64 {
	if buf == nil {
		buf = make([][]float64, len(n.params))
	}
	for i, p := range n.params {
		buf[i] = append(buf[i][:0], p.Value.RawMatrix().Data...)
	}
	return buf
}

// restore sets the parameters to a snapshot; nil leaves them as they are.
func (n *network) restore(buf [][]float64) {
	if buf == nil {
		return
	}
	for i, p := range n.params {
		copy(p.Value.RawMatrix().Data, buf[i])
	}
}
