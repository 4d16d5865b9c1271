package hgtdata

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/naviagent/navi/twnm"
)

// SyntheticOptions configures Synthetic.
type SyntheticOptions struct {
	Domains         int // groups of APIs that share parameters
	APIsPerDomain   int
	ParamsPerDomain int // each API takes one or two of its domain's parameters and outputs one or two others
	// Runs is the number of simulated two-call runs recorded as execution history.
	Runs int
	// CrossDomain is the fraction of runs whose second call is in the first call's successor
	// domain, fed through parameters of different names (the planted structure: no shared
	// parameter, so no common neighbour, reveals these edges; only the domains do).
	CrossDomain float64
	// EmbeddingDim is the length of the description embeddings (the domain signal), and Noise
	// the standard deviation, relative to the unit centroid, of each node's deviation from
	// its domain's centroid.
	EmbeddingDim int
	Noise        float64
	Seed         uint64
}

// ToolBenchSize is a graph of the size of NaviAgent's ToolBench graph (Appendix G: 5,501 APIs,
// 7,866 nodes, 24,215 edges): 5,500 APIs in 110 domains, 2,420 parameters, and a history
// whose behavioural edges bring the total to about 23,000 (seed 1: 7,917 nodes, 23,303 edges,
// of them 4,263 THEN and 2,579 FEEDS).
func ToolBenchSize(seed uint64) SyntheticOptions {
	return SyntheticOptions{Domains: 110, APIsPerDomain: 50, ParamsPerDomain: 22, Runs: 5600, CrossDomain: 0.6,
		EmbeddingDim: 64, Noise: 1, Seed: seed}
}

// Synthetic generates a tool graph with planted behavioural structure, deterministically for
// the seed. Each domain has a random unit centroid; its APIs' and parameters' embeddings are
// the centroid plus noise; each domain has a successor domain (a permutation without fixed
// points). A run calls a random API A and then an API B: with probability CrossDomain a
// random API of A's successor domain, fed by a random output of A into a random input of B
// (THEN A → B and FEEDS out → in); otherwise a consumer of one of A's outputs in A's own
// domain (THEN A → B through the shared parameter). Each API succeeds with its own
// reliability, drawn in [0.55, 1]; a failed first call feeds nothing. Node and edge counts
// and the statistical weights are recorded by twnm.Graph.Record, as real feedback is.
func Synthetic(o SyntheticOptions) (*twnm.Graph, error) {
	if o.Domains < 2 || o.APIsPerDomain < 1 || o.ParamsPerDomain < 4 || o.Runs < 0 || o.EmbeddingDim < 1 ||
		o.CrossDomain < 0 || o.CrossDomain > 1 || o.Noise < 0 {
		return nil, errors.New("synthetic graph: need at least 2 domains, 1 API and 4 parameters per domain, " +
			"a positive embedding dimension, a cross-domain fraction in [0, 1] and non-negative runs and noise")
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x687467)) // "htg"
	unit := func(v []float64) []float64 {
		var s float64
		for _, x := range v {
			s += x * x
		}
		s = math.Sqrt(s)
		for i := range v {
			v[i] /= s
		}
		return v
	}
	centroids := make([][]float64, o.Domains)
	for d := range centroids {
		c := make([]float64, o.EmbeddingDim)
		for i := range c {
			c[i] = rng.NormFloat64()
		}
		centroids[d] = unit(c)
	}
	noisy := func(d int) []float64 {
		v := make([]float64, o.EmbeddingDim)
		sd := o.Noise / math.Sqrt(float64(o.EmbeddingDim))
		for i := range v {
			v[i] = centroids[d][i] + sd*rng.NormFloat64()
		}
		return unit(v)
	}
	successor := rng.Perm(o.Domains)
	for d := range successor { // remove fixed points: a domain never succeeds itself
		if successor[d] == d {
			e := (d + 1) % o.Domains
			successor[d], successor[e] = successor[e], successor[d]
		}
	}

	g := twnm.New()
	paramName := func(d, j int) string { return fmt.Sprintf("d%03d_param%02d", d, j) }
	type api struct {
		name            string
		domain          int
		inputs, outputs []string
		reliability     float64
	}
	apis := make([]api, 0, o.Domains*o.APIsPerDomain)
	consumers := map[string][]int{} // parameter name -> APIs taking it
	for d := range o.Domains {
		for i := range o.APIsPerDomain {
			a := api{name: fmt.Sprintf("Api_d%03d_%03d", d, i), domain: d, reliability: 0.55 + 0.45*rng.Float64()}
			perm := rng.Perm(o.ParamsPerDomain)
			nIn, nOut := 1+rng.IntN(2), 1+rng.IntN(2)
			cat := twnm.API{Name: a.name, Description: fmt.Sprintf("Synthetic API %d of domain %d", i, d)}
			for _, j := range perm[:nIn] {
				a.inputs = append(a.inputs, paramName(d, j))
				cat.Inputs = append(cat.Inputs, twnm.Param{Name: paramName(d, j), Type: "string", Required: true,
					Description: fmt.Sprintf("Parameter %d of domain %d", j, d)})
				consumers[paramName(d, j)] = append(consumers[paramName(d, j)], len(apis))
			}
			for _, j := range perm[nIn : nIn+nOut] {
				a.outputs = append(a.outputs, paramName(d, j))
				cat.Outputs = append(cat.Outputs, twnm.Param{Name: paramName(d, j), Type: "string",
					Description: fmt.Sprintf("Parameter %d of domain %d", j, d)})
			}
			id, err := g.AddAPI(cat)
			if err != nil {
				return nil, fmt.Errorf("synthetic graph: %w", err)
			}
			g.Node(id).Embedding = noisy(d)
			apis = append(apis, a)
		}
	}
	for _, n := range g.Nodes() {
		if n.Kind == twnm.KindParam {
			var d int
			if _, err := fmt.Sscanf(n.Name, "d%03d_", &d); err != nil {
				return nil, fmt.Errorf("synthetic graph: parameter %s: %w", n.Name, err)
			}
			n.Embedding = noisy(d)
		}
	}

	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var invs []twnm.Invocation
	var trs []twnm.Transition
	for r := range o.Runs {
		at := t0.Add(time.Duration(r) * time.Minute)
		ai := rng.IntN(len(apis))
		a := &apis[ai]
		okA := rng.Float64() < a.reliability
		invs = append(invs, twnm.Invocation{API: a.name, Inputs: a.inputs, Success: okA, Time: at})
		if !okA {
			continue
		}
		out := a.outputs[rng.IntN(len(a.outputs))]
		bi, in := -1, ""
		if rng.Float64() >= o.CrossDomain {
			var cands []int
			for _, c := range consumers[out] {
				if c != ai {
					cands = append(cands, c)
				}
			}
			if len(cands) > 0 {
				bi, in = cands[rng.IntN(len(cands))], out
			}
		}
		if bi < 0 { // cross-domain, or no consumer of out in the domain
			d := successor[a.domain]
			bi = d*o.APIsPerDomain + rng.IntN(o.APIsPerDomain)
			in = apis[bi].inputs[rng.IntN(len(apis[bi].inputs))]
		}
		b := &apis[bi]
		okB := rng.Float64() < b.reliability
		invs = append(invs, twnm.Invocation{API: b.name, Inputs: b.inputs, Success: okB, Time: at})
		trs = append(trs,
			twnm.Transition{Kind: twnm.Then, From: a.name, To: b.name, Success: okB, Time: at},
			twnm.Transition{Kind: twnm.Feeds, From: a.name, To: b.name, FromParam: out, ToParam: in, Success: okB, Time: at})
	}
	if err := g.Record(invs, trs); err != nil {
		return nil, fmt.Errorf("synthetic graph: record history: %w", err)
	}
	return g, nil
}
