package hgt

import (
	"cmp"
	"container/heap"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/hgt/hgtdata"
)

// Prediction is the model's probability for one behavioural edge.
type Prediction struct {
	Kind     twnm.EdgeKind // twnm.Then or twnm.Feeds
	From, To string        // node names: API names, or parameter cluster names
	Weight   float64       // the predicted probability p̂
	Missing  bool          // the edge is not in the graph: a predicted missing dependency
}

// Predict returns a probability for every behavioural edge of g, in the order of g.Edges(),
// followed by at most maxMissing pairs that are not edges of g, of the same kinds and node
// types, whose probability is at least missingThreshold, most probable first (none when
// maxMissing ≤ 0). Pairs of a node with itself are never proposed.
//
// Each existing edge is scored the way training scored edges: hidden from message passing,
// with its evidence. The edges are dealt into 1/SupervisionFrac folds (seeded), and each
// fold is scored over the graph without it. Missing pairs are scored over the whole graph.
// ctx is checked between forward passes and between blocks of candidate pairs.
func (m *Model) Predict(ctx context.Context, g *twnm.Graph, missingThreshold float64, maxMissing int) (preds []Prediction, err error) {
	if err := m.CheckLayout(g); err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			preds, err = nil, fmt.Errorf("hgt: predict with model %s: internal error: %v", m.version, r)
		}
	}()
	preds, err = m.predict(ctx, g, missingThreshold, maxMissing)
	if err != nil {
		return nil, fmt.Errorf("hgt: predict with model %s: %w", m.version, err)
	}
	return preds, nil
}

func (m *Model) predict(ctx context.Context, g *twnm.Graph, missingThreshold float64, maxMissing int) ([]Prediction, error) {
	ix := hgtdata.IndexNodes(g)
	viewOf := func(hidden []bool) *view {
		mg := hgtdata.NewMessageGraph(g, ix, hidden)
		return newView(mg, m.layout.Features(g, mg), m.layout.NumFeatures(), m.cfg.Heads)
	}

	// Existing edges, by fold. Targets carries each edge's evidence; derived candidates with
	// no edge are not scored here (they can come back as missing pairs).
	var existing []int // indices into targets
	targets := hgtdata.Targets(g, m.mode)
	for i, t := range targets {
		if !t.Derived {
			existing = append(existing, i)
		}
	}
	folds := max(2, int(math.Round(1/m.cfg.SupervisionFrac)))
	rng := rand.New(rand.NewPCG(m.cfg.Seed, streamFolds))
	order := rng.Perm(len(existing))
	weight := map[hgtdata.Pair]float64{}
	for f := range folds {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var fold []int
		for j, o := range order {
			if j%folds == f {
				fold = append(fold, existing[o])
			}
		}
		if len(fold) == 0 {
			continue
		}
		pairs := make([]hgtdata.Pair, len(fold))
		for i, k := range fold {
			pairs[i] = targets[k].Pair
		}
		probs := m.net.probabilities(viewOf(hgtdata.Hidden(len(g.Edges()), targets, fold)), pairs)
		for i, p := range pairs {
			weight[p] = probs[i]
		}
	}
	var preds []Prediction
	for _, e := range g.Edges() {
		if e.Kind.Behavioural() {
			preds = append(preds, Prediction{Kind: e.Kind, From: g.Node(e.From).Name, To: g.Node(e.To).Name,
				Weight: weight[hgtdata.Pair{Kind: e.Kind, From: e.From, To: e.To}]})
		}
	}
	if maxMissing <= 0 {
		return preds, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	missing, err := m.missing(ctx, g, viewOf(nil), missingThreshold, maxMissing)
	if err != nil {
		return nil, err
	}
	return append(preds, missing...), nil
}

// Probabilities returns the model's probability for each pair of nodes of g (from, to) as an
// edge of the given kind, each scored over the whole graph (no edge hidden): for a caller that
// asks about chosen pairs, such as every producer of one input, rather than the likeliest
// pairs of the graph (Predict).
func (m *Model) Probabilities(ctx context.Context, g *twnm.Graph, kind twnm.EdgeKind, pairs [][2]twnm.NodeID) (probs []float64, err error) {
	if hgtdata.PredictedIndex(kind) < 0 {
		return nil, fmt.Errorf("hgt: probabilities: the model predicts no %s edges", kind)
	}
	if err := m.CheckLayout(g); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			probs, err = nil, fmt.Errorf("hgt: probabilities with model %s: internal error: %v", m.version, r)
		}
	}()
	src, dst := hgtdata.Endpoints(kind)
	ps := make([]hgtdata.Pair, len(pairs))
	for i, p := range pairs {
		if int(p[0]) >= g.Len() || int(p[1]) >= g.Len() || g.Node(p[0]).Kind != src || g.Node(p[1]).Kind != dst {
			return nil, fmt.Errorf("hgt: probabilities: pair %d (%d, %d) is not a %s → %s pair of the graph", i, p[0], p[1], src, dst)
		}
		ps[i] = hgtdata.Pair{Kind: kind, From: p[0], To: p[1]}
	}
	ix := hgtdata.IndexNodes(g)
	mg := hgtdata.NewMessageGraph(g, ix, nil)
	v := newView(mg, m.layout.Features(g, mg), m.layout.NumFeatures(), m.cfg.Heads)
	return m.net.probabilities(v, ps), nil
}

// candidate is a scored non-edge.
type candidate struct {
	pair hgtdata.Pair
	p    float64
}

// worse orders candidates by probability, ties by kind and node IDs, so the result does
// not depend on the scan order.
func worse(a, b candidate) bool {
	if a.p != b.p {
		return a.p < b.p
	}
	return cmp.Or(cmp.Compare(a.pair.Kind, b.pair.Kind), cmp.Compare(a.pair.From, b.pair.From), cmp.Compare(a.pair.To, b.pair.To)) > 0
}

// topK is a min-heap of the best candidates so far.
type topK []candidate

func (h topK) Len() int           { return len(h) }
func (h topK) Less(i, j int) bool { return worse(h[i], h[j]) }
func (h topK) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *topK) Push(x any)        { *h = append(*h, x.(candidate)) }
func (h *topK) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// scoreBlock is the number of source rows scored per matrix product: a block of
// scoreBlock×n_dst scores at a time bounds memory on large graphs.
const scoreBlock = 256

// missing scores every pair of each predicted kind over view v with one matrix product per
// block of sources, S = (H_src·W)·H_dstᵀ + b, and keeps the best non-edges at or above the
// threshold.
func (m *Model) missing(ctx context.Context, g *twnm.Graph, v *view, threshold float64, limit int) ([]Prediction, error) {
	p := newPass()
	h := m.net.embed(p, v)
	// p ≥ threshold ⇔ s ≥ logit(threshold); compare logits so most pairs skip the sigmoid.
	minLogit := math.Inf(-1)
	if threshold > 0 {
		minLogit = math.Log(threshold) - math.Log1p(-threshold)
	}
	best := &topK{}
	for i, kind := range hgtdata.Predicted {
		src, dst := hgtdata.Endpoints(kind)
		if h[src] == nil || h[dst] == nil {
			continue
		}
		d := &m.net.dec[i]
		proj := p.t.MatMul(h[src], p.v(d.w)).Value.RawMatrix() // n_src×d
		hd := h[dst].Value.RawMatrix()                         // n_dst×d
		bias := d.b.Value.At(0, 0)
		nSrc, nDst := proj.Rows, hd.Rows
		block := blas64.General{Rows: 0, Cols: nDst, Stride: nDst, Data: make([]float64, min(scoreBlock, nSrc)*nDst)}
		for lo := 0; lo < nSrc; lo += scoreBlock {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			hi := min(lo+scoreBlock, nSrc)
			a := blas64.General{Rows: hi - lo, Cols: proj.Cols, Stride: proj.Stride, Data: proj.Data[lo*proj.Stride:]}
			block.Rows = hi - lo
			blas64.Gemm(blas.NoTrans, blas.Trans, 1, a, hd, 0, block)
			for r := 0; r < hi-lo; r++ {
				from := v.ix.Nodes[src][lo+r]
				row := block.Data[r*nDst : (r+1)*nDst]
				for c, s := range row {
					s += bias
					if s < minLogit {
						continue
					}
					to := v.ix.Nodes[dst][c]
					if from == to {
						continue
					}
					cand := candidate{hgtdata.Pair{Kind: kind, From: from, To: to}, sigmoid(s)}
					if cand.p < threshold || (best.Len() == limit && !worse((*best)[0], cand)) {
						continue
					}
					if _, ok := g.Edge(kind, from, to); ok {
						continue
					}
					heap.Push(best, cand)
					if best.Len() > limit {
						heap.Pop(best)
					}
				}
			}
		}
	}
	cands := []candidate(*best)
	slices.SortFunc(cands, func(a, b candidate) int {
		if worse(a, b) {
			return 1
		}
		if worse(b, a) {
			return -1
		}
		return 0
	})
	out := make([]Prediction, len(cands))
	for i, c := range cands {
		out[i] = Prediction{Kind: c.pair.Kind, From: g.Node(c.pair.From).Name, To: g.Node(c.pair.To).Name, Weight: c.p, Missing: true}
	}
	return out, nil
}
