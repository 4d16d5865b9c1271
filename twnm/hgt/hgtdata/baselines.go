package hgtdata

import (
	"math"
	"slices"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/embed"
)

// Baseline is a link predictor that learns nothing: a score for a candidate pair computed
// from the visible graph and the known positives. The model's AUC is reported beside theirs,
// on the same split and the same message-passing graph, so that its gain is measured, not
// assumed.
type Baseline struct {
	Name  string
	Score func(p Pair) float64
}

// Names of the baselines, in the order Baselines returns them.
const (
	// CommonNeighbours counts the nodes adjacent (by a visible edge of any kind, either
	// direction) to both ends.
	CommonNeighbours = "common-neighbours"
	// AdamicAdar sums 1/log(degree) over the common neighbours, so that hub parameters such
	// as "id" count less than specific ones.
	AdamicAdar = "adamic-adar"
	// PreferentialAttachment is the source's out-degree times the target's in-degree.
	PreferentialAttachment = "preferential-attachment"
	// Weighted2Hop is the statistical weight carried by two-step paths: the sum over visible
	// paths u → w → v of EdgeWeight(u→w)·EdgeWeight(w→v) (w̃ on behavioural edges, 1 on
	// structural ones). For a THEN pair it counts parameters A outputs and B consumes, plus
	// THEN chains through a third API weighted by their w̃: the dependency the statistics
	// of Eq. 4 imply without learning.
	Weighted2Hop = "weighted-2hop"
	// EmbeddingCosine is the cosine similarity of the two nodes' description embeddings.
	EmbeddingCosine = "embedding-cosine"
)

// Baselines returns the baselines over the message-passing graph mg of g plus the known
// targets (the training and validation positives): a known target that is not a visible edge
// (a derived candidate, which no edge of g stands for) counts as an edge of its kind with its
// label as weight, so that the baselines learn from the same positives the model trains on.
func Baselines(g *twnm.Graph, mg *MessageGraph, known []Target) []Baseline {
	n := g.Len()
	neigh := make([][]twnm.NodeID, n)
	type hop struct {
		to twnm.NodeID
		w  float64
	}
	out := make([][]hop, n)
	edgeW := map[[2]twnm.NodeID]float64{}
	outDeg, inDeg := slices.Clone(mg.OutDegree), slices.Clone(mg.InDegree)
	link := func(from, to twnm.NodeID, w float64) {
		neigh[from] = append(neigh[from], to)
		neigh[to] = append(neigh[to], from)
		out[from] = append(out[from], hop{to, w})
		edgeW[[2]twnm.NodeID{from, to}] += w
	}
	visible := map[Pair]bool{}
	for _, i := range mg.Visible {
		e := g.Edges()[i]
		link(e.From, e.To, EdgeWeight(e))
		if e.Kind.Behavioural() {
			visible[Pair{e.Kind, e.From, e.To}] = true
		}
	}
	for _, t := range known {
		if !visible[t.Pair] {
			visible[t.Pair] = true
			link(t.From, t.To, t.Label)
			outDeg[t.From]++
			inDeg[t.To]++
		}
	}
	for i := range neigh {
		slices.Sort(neigh[i])
		neigh[i] = slices.Compact(neigh[i])
	}
	common := func(u, v twnm.NodeID, each func(w twnm.NodeID)) {
		a, b := neigh[u], neigh[v]
		for i, j := 0, 0; i < len(a) && j < len(b); {
			switch {
			case a[i] < b[j]:
				i++
			case a[i] > b[j]:
				j++
			default:
				each(a[i])
				i++
				j++
			}
		}
	}
	return []Baseline{
		{CommonNeighbours, func(p Pair) float64 {
			c := 0
			common(p.From, p.To, func(twnm.NodeID) { c++ })
			return float64(c)
		}},
		{AdamicAdar, func(p Pair) float64 {
			var s float64
			common(p.From, p.To, func(w twnm.NodeID) {
				if d := len(neigh[w]); d > 1 {
					s += 1 / math.Log(float64(d))
				}
			})
			return s
		}},
		{PreferentialAttachment, func(p Pair) float64 {
			return float64(outDeg[p.From]) * float64(inDeg[p.To])
		}},
		{Weighted2Hop, func(p Pair) float64 {
			var s float64
			for _, h := range out[p.From] {
				s += h.w * edgeW[[2]twnm.NodeID{h.to, p.To}]
			}
			return s
		}},
		{EmbeddingCosine, func(p Pair) float64 {
			return cosine(g.Node(p.From).Embedding, g.Node(p.To).Embedding)
		}},
	}
}

// cosine is embed.Cosine, 0 for nodes without comparable embeddings (nil, or of another
// length).
func cosine(a, b []float64) float64 {
	if len(a) == 0 || len(a) != len(b) {
		return 0
	}
	return embed.Cosine(a, b)
}

// BaselineAUCs scores positives and negatives with every baseline over mg and the known
// targets, and returns each baseline's AUC by name.
func BaselineAUCs(g *twnm.Graph, mg *MessageGraph, known []Target, pos, neg []Pair) map[string]float64 {
	out := map[string]float64{}
	for _, b := range Baselines(g, mg, known) {
		ps, ns := make([]float64, len(pos)), make([]float64, len(neg))
		for i, p := range pos {
			ps[i] = b.Score(p)
		}
		for i, p := range neg {
			ns[i] = b.Score(p)
		}
		out[b.Name] = AUC(ps, ns)
	}
	return out
}
