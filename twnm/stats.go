package twnm

import (
	"fmt"
	"math"
	"sort"
	"time"
)

// Record adds invocation outcomes and transitions to the graph's statistics: node counts s_v
// and f_v, edge counts N(u→v) and N_succ(u→v) (creating THEN and FEEDS edges on first sight;
// a THEN edge from an API to itself, a paging call fed by its own token, is kept),
// the sliding-window counts, and the statistical weights of every edge whose counts changed
// (Eq. 4). It checks everything first: on error nothing is recorded.
func (g *Graph) Record(invs []Invocation, trs []Transition) error {
	for i, inv := range invs {
		if _, ok := g.APIByName(inv.API); !ok {
			return fmt.Errorf("record invocation %d: unknown API %q", i, inv.API)
		}
		for _, p := range inv.Inputs {
			if _, ok := g.ParamOf(inv.API, p, true); !ok {
				return fmt.Errorf("record invocation %d: API %s has no input %q", i, inv.API, p)
			}
		}
	}
	for i, tr := range trs {
		switch tr.Kind {
		case Then:
			for _, api := range []string{tr.From, tr.To} {
				if _, ok := g.APIByName(api); !ok {
					return fmt.Errorf("record transition %d: unknown API %q", i, api)
				}
			}
		case Feeds:
			if _, ok := g.ParamOf(tr.From, tr.FromParam, false); !ok {
				return fmt.Errorf("record transition %d: API %q has no output %q", i, tr.From, tr.FromParam)
			}
			if _, ok := g.ParamOf(tr.To, tr.ToParam, true); !ok {
				return fmt.Errorf("record transition %d: API %q has no input %q", i, tr.To, tr.ToParam)
			}
		default:
			return fmt.Errorf("record transition %d: kind %s is not THEN or FEEDS", i, tr.Kind)
		}
	}

	touched := map[NodeID]bool{} // nodes whose N(v) changed: their in-edges need new weights
	count := func(n *Node, success, revised bool, t time.Time) {
		switch {
		case revised && success:
			return // confirmed: counted already
		case revised:
			n.Success, n.Failure = max(0, n.Success-1), n.Failure+1
			n.recent.revise(t)
		case success:
			n.Success++
			n.recent.add(t, true)
		default:
			n.Failure++
			n.recent.add(t, false)
		}
		if t.After(n.LastUsed) {
			n.LastUsed = t
		}
		touched[n.ID] = true
	}
	for _, inv := range invs {
		id, _ := g.APIByName(inv.API)
		n := g.nodes[id]
		count(n, inv.Success, inv.Revised, inv.Time)
		if !inv.Success && inv.Signal != "" {
			if n.FailedBy == nil {
				n.FailedBy = map[Signal]int64{}
			}
			n.FailedBy[inv.Signal]++
		}
		for _, p := range inv.Inputs {
			pid, _ := g.ParamOf(inv.API, p, true)
			count(g.nodes[pid], inv.Success, inv.Revised, inv.Time)
		}
	}
	observe := func(e *Edge, success, revised bool, t time.Time) {
		switch {
		case revised && success:
			return // confirmed: counted already
		case revised:
			e.Success = max(0, e.Success-1)
			e.recent.revise(t)
		default:
			e.Count++
			if success {
				e.Success++
			}
			e.recent.add(t, success)
		}
		touched[e.To] = true
	}
	for _, tr := range trs {
		if tr.Kind == Then {
			from, _ := g.APIByName(tr.From)
			to, _ := g.APIByName(tr.To)
			observe(g.AddEdge(Then, from, to), tr.Success, tr.Revised, tr.Time)
			continue
		}
		out, _ := g.ParamOf(tr.From, tr.FromParam, false)
		in, _ := g.ParamOf(tr.To, tr.ToParam, true)
		if out != in { // a value passed on within one unified parameter node is no new edge
			observe(g.AddEdge(Feeds, out, in), tr.Success, tr.Revised, tr.Time)
		}
	}
	for id := range touched {
		for _, e := range g.in[id] {
			if e.Kind.Behavioural() {
				e.Weight = StatisticalWeight(e.Success, g.nodes[id].Success+g.nodes[id].Failure)
			}
		}
	}
	return nil
}

// StatisticalWeight is Eq. 4: w̃_ij = N_succ(v_i → v_j) / N(v_j), the successful transitions
// from i to j over all invocations involving j; 0 when j was never invoked, and at most 1.
func StatisticalWeight(succ, total int64) float64 {
	if total <= 0 {
		return 0
	}
	return math.Min(1, float64(succ)/float64(total))
}

// PropagationOptions configures Eq. 14.
type PropagationOptions struct {
	Eta        float64 // η in [0, 1]: weight of the previous value (memory) against recent counts
	WindowDays int     // Δ: the sliding window, in days
}

// DefaultPropagation balances memory and recency evenly over a week.
var DefaultPropagation = PropagationOptions{Eta: 0.5, WindowDays: 7}

// Propagate applies Eq. 14 to every behavioural edge:
//
//	w̃_uv(t) = η·w̃_uv(t−1) + (1−η)·N_succ_recent(u→v) / N_recent(v)
//
// with recent counts over the WindowDays days ending at now. An edge whose target had no
// invocation in the window keeps its weight: no recent evidence is no evidence of change.
func (g *Graph) Propagate(now time.Time, o PropagationOptions) error {
	if o.Eta < 0 || o.Eta > 1 || o.WindowDays < 1 {
		return fmt.Errorf("propagate: eta %v must be in [0, 1] and window %d days at least 1", o.Eta, o.WindowDays)
	}
	for _, e := range g.edges {
		if !e.Kind.Behavioural() {
			continue
		}
		succ, _ := e.recent.counts(now, o.WindowDays)
		_, total := g.nodes[e.To].recent.counts(now, o.WindowDays)
		if total == 0 {
			continue
		}
		e.Weight = o.Eta*e.Weight + (1-o.Eta)*StatisticalWeight(succ, total)
	}
	return nil
}

// PruneScore is Eq. 13 for one node:
//
//	Prune(v) = λ·σ(f_fail(v)) + (1−λ)·σ(1/f_freq(v))
//
// where f_fail is the number of failed invocations of v in the window (a failure rate per
// window) and f_freq the number of invocations in the window. With f_freq = 0 the second term
// is 1. The score lies in [0.5, 1): a healthy, busy API scores near 0.5; one that fails often
// and is rarely used approaches 1.
func (g *Graph) PruneScore(id NodeID, now time.Time, o PruneOptions) float64 {
	succ, total := g.nodes[id].recent.counts(now, o.WindowDays)
	fail := float64(total - succ)
	rarity := 1.0
	if total > 0 {
		rarity = sigmoid(1 / float64(total))
	}
	return o.Lambda*sigmoid(fail) + (1-o.Lambda)*rarity
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// Prune marks as Pruned every active API with at least MinCalls invocations in the window
// whose PruneScore exceeds the threshold, and returns their names, sorted.
func (g *Graph) Prune(now time.Time, o PruneOptions) []string {
	var pruned []string
	for _, n := range g.nodes {
		if n.Kind != KindAPI || n.Status != Active {
			continue
		}
		if _, total := n.recent.counts(now, o.WindowDays); total < o.MinCalls {
			continue
		}
		if g.PruneScore(n.ID, now, o) > o.Threshold {
			n.Status = Pruned
			pruned = append(pruned, n.Name)
		}
	}
	sort.Strings(pruned)
	return pruned
}

// SetStatus moves an API between active, pruned and probing. Reactivating (to Active) forgets
// the API's recent window, so the failures that pruned it do not prune it again at once; its
// lifetime counts stay.
func (g *Graph) SetStatus(api string, s Status) error {
	id, ok := g.APIByName(api)
	if !ok {
		return fmt.Errorf("set status of %q: unknown API", api)
	}
	n := g.nodes[id]
	if s == Active && n.Status != Active {
		n.recent = window{}
	}
	n.Status = s
	return nil
}
