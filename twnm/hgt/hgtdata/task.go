// Package hgtdata prepares and scores the link-prediction task that Navi's heterogeneous graph
// transformer (package hgt) learns on a tool graph: which edges are predicted and with what
// label (Targets), which graph edges each one hides when it is evaluated (Evidence), the
// message-passing graph that remains (MessageGraph), node features (Eq. 17, Features), seeded
// train/validation/test splits and negative sampling, the metrics (AUC with ties, accuracy,
// F1) and the non-learned baselines the model is compared with, and a generator of graphs
// with planted behavioural structure for tests and benchmarks (Synthetic).
//
// Everything here is plain Go on slices, deterministic for a seed, and knows nothing of the
// model: package hgt turns its outputs into gonum matrices.
//
// # What is predicted
//
// The behavioural edges, API -[:THEN]-> API and Param -[:FEEDS]-> Param, are what graph search
// reads, so they are the positives. Each is labelled with its statistical weight w̃ (Eq. 4),
// the soft label of Eq. 7. Graphs whose execution history gave few behavioural edges (the
// StableToolBench catalog with ToolBench trajectories has none: the logs cut every response
// at 100 characters, so no data flow is visible) can add derived THEN candidates: A → B where
// the catalog says an output of A is an input of B (A -[:OUTPUTS]-> p -[:INPUT_OF]-> B,
// A ≠ B). Their label is 1, the weight search gives a structural edge (twnm.StructuralWeight).
// A derived candidate would be trivial to recover while its witnessing path is visible, so its
// Evidence includes the INPUT_OF edges p → B of every witness p: predicting it means
// recovering a data-flow dependency whose parameter link is missing from the catalog.
package hgtdata

import (
	"cmp"
	"github.com/naviagent/navi/twnm/hgt/hgtspec"
	"slices"

	"github.com/naviagent/navi/twnm"
)

// Relation is one edge type the HGT passes messages over: an edge kind, forward (along the
// edge) or reversed (from the edge's target back to its source), so that an API also hears
// from its outputs and a parameter from the APIs that consume it.
type Relation struct {
	Kind    twnm.EdgeKind
	Reverse bool
}

// Relations lists every relation in the fixed order the model's parameters are laid out in.
var Relations = []Relation{
	{twnm.InputOf, false}, {twnm.Outputs, false}, {twnm.Then, false}, {twnm.Feeds, false},
	{twnm.InputOf, true}, {twnm.Outputs, true}, {twnm.Then, true}, {twnm.Feeds, true},
}

// NumRelations is len(Relations).
const NumRelations = 8

// String names the relation as the model file does: "THEN", "rev_INPUT_OF".
func (r Relation) String() string {
	if r.Reverse {
		return "rev_" + r.Kind.String()
	}
	return r.Kind.String()
}

// Src is the kind of node a message of this relation comes from.
func (r Relation) Src() twnm.NodeKind {
	from, to := Endpoints(r.Kind)
	if r.Reverse {
		return to
	}
	return from
}

// Dst is the kind of node a message of this relation goes to.
func (r Relation) Dst() twnm.NodeKind {
	from, to := Endpoints(r.Kind)
	if r.Reverse {
		return from
	}
	return to
}

// Endpoints returns the node kinds an edge of the given kind goes from and to.
func Endpoints(k twnm.EdgeKind) (from, to twnm.NodeKind) {
	switch k {
	case twnm.InputOf:
		return twnm.KindParam, twnm.KindAPI
	case twnm.Outputs:
		return twnm.KindAPI, twnm.KindParam
	case twnm.Then:
		return twnm.KindAPI, twnm.KindAPI
	default: // Feeds
		return twnm.KindParam, twnm.KindParam
	}
}

// Predicted lists the edge kinds the model predicts, in the order its decoders are laid out.
var Predicted = []twnm.EdgeKind{twnm.Then, twnm.Feeds}

// PredictedIndex is the position of kind in Predicted, or -1.
func PredictedIndex(k twnm.EdgeKind) int {
	return slices.Index(Predicted, k)
}

// EdgeWeight is the statistical weight an edge brings to the attention logit (Eq. 19): w̃ for
// a behavioural edge, twnm.StructuralWeight for a structural one. It ignores any prediction
// the edge carries, so that a model never trains on an earlier model's output.
func EdgeWeight(e *twnm.Edge) float64 {
	if e.Kind.Behavioural() {
		return e.Weight
	}
	return twnm.StructuralWeight
}

// Pair is a directed node pair of a predicted kind: a positive, a negative or a candidate.
type Pair struct {
	Kind     twnm.EdgeKind
	From, To twnm.NodeID
}

// Target is one positive: an existing behavioural edge, or a derived THEN candidate.
type Target struct {
	Pair
	// Label is the soft label of Eq. 7: w̃ for a behavioural edge, 1 for a derived candidate.
	Label float64
	// Derived is true for a THEN candidate the catalog structure implies and no execution
	// showed (there is no THEN edge).
	Derived bool
	// Evidence lists the indices in Graph.Edges() of the edges hidden from message passing
	// while this target is evaluated or supervised: the edge itself, and for a pair that the
	// structure implies (in derived mode) the INPUT_OF edges of its witnessing parameters.
	Evidence []int
}

// Mode says which positives Targets returns (hgtspec.Mode).
type Mode = hgtspec.Mode

// Modes (hgtspec).
const (
	Behavioural = hgtspec.Behavioural
	WithDerived = hgtspec.WithDerived
	Observed    = hgtspec.Observed
)

// Modes lists every mode (hgtspec.Modes).
var Modes = hgtspec.Modes

// AutoDeriveBelow is the number of behavioural edges under which AutoMode adds derived THEN
// candidates: below it a split leaves too few edges to learn from or to measure on.
const AutoDeriveBelow = 100

// AutoMode picks WithDerived for a graph with fewer than AutoDeriveBelow behavioural edges,
// Behavioural otherwise.
func AutoMode(g *twnm.Graph) Mode {
	if CountBehavioural(g) < AutoDeriveBelow {
		return WithDerived
	}
	return Behavioural
}

// CountBehavioural counts the THEN and FEEDS edges of g.
func CountBehavioural(g *twnm.Graph) int {
	n := 0
	for _, e := range g.Edges() {
		if e.Kind.Behavioural() {
			n++
		}
	}
	return n
}

// Targets returns the positives of g for the mode, sorted by kind, then source, then target
// ID, so that a seeded split is the same for the same graph.
func Targets(g *twnm.Graph, mode Mode) []Target {
	index := edgeIndex(g)
	var ts []Target
	seen := map[Pair]int{}
	for i, e := range g.Edges() {
		if !e.Kind.Behavioural() || mode == Observed && e.Count == 0 {
			continue
		}
		p := Pair{e.Kind, e.From, e.To}
		seen[p] = len(ts)
		ts = append(ts, Target{Pair: p, Label: e.Weight, Evidence: []int{i}})
	}
	if mode == WithDerived {
		for _, w := range derivedWitnesses(g, index) {
			if k, ok := seen[w.pair]; ok {
				ts[k].Evidence = append(ts[k].Evidence, w.inputs...)
				continue
			}
			ts = append(ts, Target{Pair: w.pair, Label: twnm.StructuralWeight, Derived: true, Evidence: w.inputs})
		}
	}
	slices.SortFunc(ts, func(a, b Target) int { return comparePairs(a.Pair, b.Pair) })
	return ts
}

func comparePairs(a, b Pair) int {
	return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To))
}

// witness is a derived THEN pair with the INPUT_OF edges that imply it.
type witness struct {
	pair   Pair
	inputs []int // indices of INPUT_OF edges p → B, sorted
}

// derivedWitnesses lists every API pair A → B (A ≠ B) such that an output parameter of A is an
// input of B, with the implying INPUT_OF edges, sorted by pair.
func derivedWitnesses(g *twnm.Graph, index map[*twnm.Edge]int) []witness {
	byPair := map[Pair][]int{}
	for _, a := range g.APIs() {
		for _, out := range g.Out(a) {
			if out.Kind != twnm.Outputs {
				continue
			}
			for _, in := range g.Out(out.To) {
				if in.Kind != twnm.InputOf || in.To == a {
					continue
				}
				p := Pair{twnm.Then, a, in.To}
				byPair[p] = append(byPair[p], index[in])
			}
		}
	}
	ws := make([]witness, 0, len(byPair))
	for p, ins := range byPair {
		slices.Sort(ins)
		ws = append(ws, witness{p, slices.Compact(ins)})
	}
	slices.SortFunc(ws, func(a, b witness) int { return comparePairs(a.pair, b.pair) })
	return ws
}

// edgeIndex maps each edge of g to its index in g.Edges().
func edgeIndex(g *twnm.Graph) map[*twnm.Edge]int {
	m := make(map[*twnm.Edge]int, len(g.Edges()))
	for i, e := range g.Edges() {
		m[e] = i
	}
	return m
}

// Hidden returns a mask over g.Edges() (true: hidden from message passing) holding the
// Evidence of the targets picked by each index list.
func Hidden(numEdges int, targets []Target, picks ...[]int) []bool {
	h := make([]bool, numEdges)
	for _, idx := range picks {
		for _, i := range idx {
			for _, e := range targets[i].Evidence {
				h[e] = true
			}
		}
	}
	return h
}
