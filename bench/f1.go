package bench

import (
	"github.com/naviagent/navi/toolworld"
	"github.com/naviagent/navi/workflows"
)

// Link is a directed pair of APIs: From's output feeds To's input.
type Link struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// GoldLinks returns the distinct (from_api, to_api) pairs of a task's gold flow, in first
// appearance order. Several flows between the same two APIs (latitude and longitude) make
// one link.
func GoldLinks(t toolworld.Task) []Link {
	var out []Link
	seen := map[Link]bool{}
	for _, f := range t.GoldFlow {
		l := Link{f.FromAPI, f.ToAPI}
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}

// Links returns the links a chain implies: its distinct consecutive pairs, the best guess at
// a run's flow for a result recorded before runs reported their flows (QueryResult.Flows).
// Pairs of an API with itself (a repeated call) are dropped, since no flow binds an API to
// itself. The guess is exact for linear gold chains only: with a fan-in (A and B both feed C,
// ordered A, B, C) even a perfect run reports A→B and B→C.
func Links(chain []string) []Link {
	var out []Link
	seen := map[Link]bool{}
	for i := 1; i < len(chain); i++ {
		l := Link{chain[i-1], chain[i]}
		if l.From == l.To || seen[l] {
			continue
		}
		seen[l] = true
		out = append(out, l)
	}
	return out
}

// F1 is the F1 score of the set got against the set want (duplicates count once): the
// harmonic mean of precision and recall. Two empty sets score 1 (an easy task's single call
// has no links, and a run of that single call has none either); one empty set scores 0.
func F1[T comparable](got, want []T) float64 {
	g, w := set(got), set(want)
	if len(g) == 0 && len(w) == 0 {
		return 1
	}
	hit := 0
	for x := range g {
		if w[x] {
			hit++
		}
	}
	if hit == 0 {
		return 0
	}
	p := float64(hit) / float64(len(g))
	r := float64(hit) / float64(len(w))
	return 2 * p * r / (p + r)
}

func set[T comparable](xs []T) map[T]bool {
	m := make(map[T]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// NodeF1 scores the APIs of a run's chain against the task's gold chain.
func NodeF1(t toolworld.Task, chain []string) float64 { return F1(chain, t.GoldChain) }

// LinkF1 scores a run's links against the task's gold links (GoldLinks): the flows the run
// reports (RunLinks), or, for a result without them, the consecutive pairs of its chain
// (Links).
func LinkF1(t toolworld.Task, r workflows.QueryResult) float64 {
	if r.Flows != nil {
		return F1(RunLinks(r.Flows), GoldLinks(t))
	}
	return F1(Links(r.Chain), GoldLinks(t))
}

// RunLinks returns the distinct (from, to) pairs of a run's flows, in order: the links it
// used, exact for parts that run side by side, where the order of calls says nothing.
func RunLinks(flows []workflows.Flow) []Link {
	var out []Link
	seen := map[Link]bool{}
	for _, f := range flows {
		l := Link{f.From, f.To}
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}
