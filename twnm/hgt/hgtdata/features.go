package hgtdata

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/naviagent/navi/twnm"
)

// NodeIndex numbers the nodes of each kind from 0: the rows of that kind's feature and
// hidden-state matrices.
type NodeIndex struct {
	// Row is each node's row among the nodes of its kind, by NodeID.
	Row []int
	// Nodes lists, by NodeKind, the nodes of that kind in row order (ascending ID).
	Nodes [2][]twnm.NodeID
}

// IndexNodes numbers the nodes of g by kind.
func IndexNodes(g *twnm.Graph) *NodeIndex {
	ix := &NodeIndex{Row: make([]int, g.Len())}
	for _, n := range g.Nodes() {
		ix.Row[n.ID] = len(ix.Nodes[n.Kind])
		ix.Nodes[n.Kind] = append(ix.Nodes[n.Kind], n.ID)
	}
	return ix
}

// RelationEdges holds the visible edges of one relation as parallel slices: Src[i] and Dst[i]
// are rows among the source and target kinds' nodes, Weight[i] the edge's EdgeWeight.
type RelationEdges struct {
	Src, Dst []int
	Weight   []float64
}

// Len is the number of edges.
func (r *RelationEdges) Len() int { return len(r.Src) }

// MessageGraph is what the HGT passes messages over: the edges of g not hidden, by relation,
// and the node degrees they give (Eq. 17 counts degrees over the visible graph, so that an
// evaluated edge does not leak through its endpoints' degrees).
type MessageGraph struct {
	Index     *NodeIndex
	Relations [NumRelations]RelationEdges
	// InDegree and OutDegree count visible edges of every kind, by NodeID.
	InDegree, OutDegree []int
	// Visible lists the indices in Graph.Edges() of the edges passed over.
	Visible []int
}

// NewMessageGraph builds the message-passing graph of g without the edges hidden marks: a mask
// over g.Edges() as Hidden returns, or nil to hide none. Edges keep the order of g.Edges()
// within each relation.
func NewMessageGraph(g *twnm.Graph, ix *NodeIndex, hidden []bool) *MessageGraph {
	mg := &MessageGraph{Index: ix, InDegree: make([]int, g.Len()), OutDegree: make([]int, g.Len())}
	for i, e := range g.Edges() {
		if hidden != nil && hidden[i] {
			continue
		}
		mg.Visible = append(mg.Visible, i)
		mg.OutDegree[e.From]++
		mg.InDegree[e.To]++
		w := EdgeWeight(e)
		from, to := ix.Row[e.From], ix.Row[e.To]
		fwd := &mg.Relations[int(e.Kind)]
		fwd.Src, fwd.Dst, fwd.Weight = append(fwd.Src, from), append(fwd.Dst, to), append(fwd.Weight, w)
		rev := &mg.Relations[int(e.Kind)+4]
		rev.Src, rev.Dst, rev.Weight = append(rev.Src, to), append(rev.Dst, from), append(rev.Weight, w)
	}
	return mg
}

// StatNames names the statistics that follow the embedding in a feature row (Eq. 17), in
// order. Counts enter as log(1+x): raw counts span orders of magnitude and would swamp the
// embedding.
var StatNames = []string{"log1p_success", "log1p_failure", "success_ratio", "log1p_in_degree", "log1p_out_degree"}

// Layout describes a feature row: the description embedding (zeros for a node without one),
// then the statistics of StatNames, each column then standardised with the mean and standard
// deviation fitted on the training graph. A model can only read graphs of its own layout.
type Layout struct {
	EmbeddingDim int       `json:"embedding_dim"`
	Stats        []string  `json:"stats"`
	Mean         []float64 `json:"mean"` // per column, EmbeddingDim + len(Stats)
	Std          []float64 `json:"std"`  // per column; never 0
}

// NumFeatures is the length of a feature row.
func (l *Layout) NumFeatures() int { return l.EmbeddingDim + len(l.Stats) }

// EmbeddingDim returns the length of the node embeddings of g: 0 when no node has one, an
// error when two nodes' embeddings differ in length.
func EmbeddingDim(g *twnm.Graph) (int, error) {
	dim, first := 0, twnm.NodeID(-1)
	for _, n := range g.Nodes() {
		if n.Embedding == nil {
			continue
		}
		if first < 0 {
			dim, first = len(n.Embedding), n.ID
			continue
		}
		if len(n.Embedding) != dim {
			return 0, fmt.Errorf("node %s has a %d-dimensional embedding, node %s a %d-dimensional one",
				g.Node(first).Name, dim, n.Name, len(n.Embedding))
		}
	}
	return dim, nil
}

// ErrLayout is wrapped by every error that reports a graph whose feature layout differs from
// a model's.
var ErrLayout = errors.New("feature layout mismatch")

// Check reports whether g yields feature rows of this layout.
func (l *Layout) Check(g *twnm.Graph) error {
	dim, err := EmbeddingDim(g)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrLayout, err)
	}
	if dim != l.EmbeddingDim || !slices.Equal(l.Stats, StatNames) {
		return fmt.Errorf("%w: the model reads %d features (%d-dimensional description embeddings + %d statistics %v), "+
			"the graph gives %d (%d-dimensional embeddings + %d statistics %v); retrain the model on this graph or "+
			"embed its descriptions with the embedder the model was trained with",
			ErrLayout, l.NumFeatures(), l.EmbeddingDim, len(l.Stats), l.Stats, dim+len(StatNames), dim, len(StatNames), StatNames)
	}
	return nil
}

// FitLayout measures the layout of g and fits the standardisation on its feature rows over
// the message-passing graph mg (the training view).
func FitLayout(g *twnm.Graph, mg *MessageGraph) (Layout, error) {
	dim, err := EmbeddingDim(g)
	if err != nil {
		return Layout{}, fmt.Errorf("fit feature layout: %w", err)
	}
	l := Layout{EmbeddingDim: dim, Stats: slices.Clone(StatNames)}
	f := l.NumFeatures()
	l.Mean, l.Std = make([]float64, f), make([]float64, f)
	row := make([]float64, f)
	for _, n := range g.Nodes() {
		rawFeatures(row, n, mg, dim)
		for j, x := range row {
			l.Mean[j] += x
			l.Std[j] += x * x
		}
	}
	cnt := float64(max(g.Len(), 1))
	for j := range l.Mean {
		l.Mean[j] /= cnt
		v := l.Std[j]/cnt - l.Mean[j]*l.Mean[j]
		// A constant column (a statistic no node has yet) keeps scale 1 rather than dividing
		// by zero; it then carries no signal, which is what it has.
		l.Std[j] = 1
		if v > 1e-12 {
			l.Std[j] = math.Sqrt(v)
		}
	}
	return l, nil
}

// Features returns the standardised feature rows of g's nodes over mg, by kind: for kind k a
// row-major len(mg.Index.Nodes[k]) × NumFeatures() slice. g must pass Check.
func (l *Layout) Features(g *twnm.Graph, mg *MessageGraph) [2][]float64 {
	f := l.NumFeatures()
	var out [2][]float64
	for k := range out {
		ids := mg.Index.Nodes[k]
		out[k] = make([]float64, len(ids)*f)
		for r, id := range ids {
			row := out[k][r*f : (r+1)*f]
			rawFeatures(row, g.Node(id), mg, l.EmbeddingDim)
			for j := range row {
				row[j] = (row[j] - l.Mean[j]) / l.Std[j]
			}
		}
	}
	return out
}

// rawFeatures writes Eq. 17 for node n into row: [embedding ‖ s, f, s/(s+f), deg_in, deg_out]
// with counts as log(1+x).
func rawFeatures(row []float64, n *twnm.Node, mg *MessageGraph, dim int) {
	clear(row[:dim])
	copy(row[:dim], n.Embedding)
	s := row[dim:]
	s[0] = math.Log1p(float64(max(n.Success, 0)))
	s[1] = math.Log1p(float64(max(n.Failure, 0)))
	s[2] = n.SuccessRatio()
	s[3] = math.Log1p(float64(mg.InDegree[n.ID]))
	s[4] = math.Log1p(float64(mg.OutDegree[n.ID]))
}
