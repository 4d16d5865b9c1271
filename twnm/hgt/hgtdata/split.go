package hgtdata

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/naviagent/navi/twnm"
)

// Split assigns each target (by index into the targets slice) to training, validation or
// test. The three lists are disjoint and cover every target.
type Split struct {
	Train, Val, Test []int
}

// SplitTargets shuffles the targets of each predicted kind with rng and cuts each kind's list
// into test (round(testFrac·n)), validation (round(valFrac·n)) and training (the rest), so
// that THEN and FEEDS edges both appear in every part in proportion. Each list is sorted by
// target index.
func SplitTargets(targets []Target, valFrac, testFrac float64, rng *rand.Rand) (Split, error) {
	if valFrac < 0 || testFrac < 0 || valFrac+testFrac >= 1 {
		return Split{}, fmt.Errorf("split targets: validation fraction %v and test fraction %v must be non-negative and sum below 1", valFrac, testFrac)
	}
	var s Split
	for _, kind := range Predicted {
		var idx []int
		for i, t := range targets {
			if t.Kind == kind {
				idx = append(idx, i)
			}
		}
		rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		nTest := int(math.Round(testFrac * float64(len(idx))))
		nVal := int(math.Round(valFrac * float64(len(idx))))
		if nTest+nVal > len(idx) {
			nVal = len(idx) - nTest
		}
		s.Test = append(s.Test, idx[:nTest]...)
		s.Val = append(s.Val, idx[nTest:nTest+nVal]...)
		s.Train = append(s.Train, idx[nTest+nVal:]...)
	}
	slices.Sort(s.Train)
	slices.Sort(s.Val)
	slices.Sort(s.Test)
	return s, nil
}

// Sampler draws negatives: node pairs of a predicted kind, between nodes of that kind's
// endpoint types, that are neither a positive target nor an existing edge of the kind, and
// never a node paired with itself.
type Sampler struct {
	forbidden map[Pair]bool
	nodes     [2][]twnm.NodeID // by NodeKind
}

// NewSampler returns a sampler for g that never yields a pair of targets or an edge of g of
// a predicted kind.
func NewSampler(g *twnm.Graph, targets []Target) *Sampler {
	s := &Sampler{forbidden: make(map[Pair]bool, len(targets)+len(g.Edges()))}
	for _, t := range targets {
		s.forbidden[t.Pair] = true
	}
	for _, e := range g.Edges() {
		if e.Kind.Behavioural() {
			s.forbidden[Pair{e.Kind, e.From, e.To}] = true
		}
	}
	for _, n := range g.Nodes() {
		s.nodes[n.Kind] = append(s.nodes[n.Kind], n.ID)
	}
	return s
}

// IsNegative reports whether p may be a negative.
func (s *Sampler) IsNegative(p Pair) bool { return p.From != p.To && !s.forbidden[p] }

// maxTries bounds the rejection sampling of one negative: a kind whose pairs are nearly all
// positive yields fewer negatives rather than looping.
const maxTries = 64

// Corrupt returns a negative made from positive p by replacing its source (corruptSource) or
// its target with a node of the same kind drawn from rng, and false when maxTries draws all
// hit positives.
func (s *Sampler) Corrupt(p Pair, corruptSource bool, rng *rand.Rand) (Pair, bool) {
	from, to := Endpoints(p.Kind)
	for range maxTries {
		q := p
		if corruptSource {
			q.From = s.nodes[from][rng.IntN(len(s.nodes[from]))]
		} else {
			q.To = s.nodes[to][rng.IntN(len(s.nodes[to]))]
		}
		if s.IsNegative(q) {
			return q, true
		}
	}
	return Pair{}, false
}

// Negatives draws k negatives for each positive, in order: k·len(pos) pairs, negative j of
// positive i at position i·k+j. Each corrupts the positive's source or target, chosen by a
// fair coin (Eq. 10 corrupts the source; corrupting the target too teaches the decoder to
// rank targets for a fixed source, which is what predicting missing edges asks). Where no
// negative is found for a positive (a kind whose pairs are nearly all positive) the
// positive's slots are filled with ok = false entries; Negatives reports how many.
func (s *Sampler) Negatives(pos []Pair, k int, rng *rand.Rand) (neg []Pair, ok []bool, missed int) {
	neg, ok = make([]Pair, len(pos)*k), make([]bool, len(pos)*k)
	for i, p := range pos {
		for j := range k {
			q, found := s.Corrupt(p, rng.IntN(2) == 0, rng)
			if !found {
				q, found = s.Corrupt(p, rng.IntN(2) == 0, rng)
			}
			neg[i*k+j], ok[i*k+j] = q, found
			if !found {
				missed++
			}
		}
	}
	return neg, ok, missed
}

// EvalNegatives draws one negative per positive for evaluation, distinct from each other,
// so that accuracy and F1 are measured on a balanced set. Positives for which none is found
// get none; the result may be shorter than pos.
func (s *Sampler) EvalNegatives(pos []Pair, rng *rand.Rand) []Pair {
	taken := make(map[Pair]bool, len(pos))
	var out []Pair
	for _, p := range pos {
		for range maxTries {
			q, found := s.Corrupt(p, rng.IntN(2) == 0, rng)
			if !found {
				break
			}
			if !taken[q] {
				taken[q] = true
				out = append(out, q)
				break
			}
		}
	}
	return out
}
