package twnm

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// searchWorld is a generated graph for search benchmarks.
type searchWorld struct {
	g       *Graph
	targets []NodeID
	known   map[string]string
}

// genSearchWorld builds a deterministic graph of n APIs: clusters of four equivalent
// providers, cluster i outputting c<i>a and c<i>b; each provider requires one or two
// outputs of the 40 clusters before it (or a root parameter r<j>, half of which are known),
// plus an optional input. A quarter of the OUTPUTS edges carry a predicted weight, a third
// of the providers a THEN edge to a consumer, and 3% of the APIs are pruned. Targets are
// providers of the last clusters.
func genSearchWorld(tb testing.TB, n int, seed uint64) searchWorld {
	tb.Helper()
	const size, roots, window = 4, 20, 40
	rng := rand.New(rand.NewPCG(seed, seed+1))
	g := New()
	clusters := n / size
	input := func(i int) string {
		if i < 8 || rng.IntN(5) == 0 {
			return fmt.Sprintf("r%d", rng.IntN(roots))
		}
		c := i - 1 - rng.IntN(min(window, i))
		return fmt.Sprintf("c%d%c", c, 'a'+rune(rng.IntN(2)))
	}
	for i := range clusters {
		for m := range size {
			a := API{Name: fmt.Sprintf("api%d_%d", i, m)}
			seen := map[string]bool{}
			for range 1 + rng.IntN(2) {
				if p := input(i); !seen[p] {
					seen[p] = true
					a.Inputs = append(a.Inputs, Param{Name: p, Required: true})
				}
			}
			a.Inputs = append(a.Inputs, Param{Name: fmt.Sprintf("opt%d", m)})
			a.Outputs = []Param{{Name: fmt.Sprintf("c%da", i)}, {Name: fmt.Sprintf("c%db", i)}}
			id, err := g.AddAPI(a)
			require.NoError(tb, err)
			for _, e := range g.Out(id) {
				if rng.IntN(4) == 0 {
					e.Predicted, e.HasPrediction = 0.3+0.7*rng.Float64(), true
				}
			}
			if rng.IntN(33) == 0 {
				g.Node(id).Status = Pruned
			}
		}
	}
	// THEN edges from producers to consumers of their outputs.
	for _, api := range g.APIs() {
		if rng.IntN(3) != 0 {
			continue
		}
		for _, e := range g.Inputs(api) {
			if ps := g.Producers(e.From); len(ps) > 0 {
				g.AddEdge(Then, ps[rng.IntN(len(ps))], api).Weight = rng.Float64()
				break
			}
		}
	}
	w := searchWorld{g: g, known: map[string]string{}}
	for j := 0; j < roots; j += 2 {
		w.known[fmt.Sprintf("r%d", j)] = "v"
	}
	for i := clusters - 16; i < clusters; i++ {
		id, _ := g.APIByName(fmt.Sprintf("api%d_0", i))
		if g.Node(id).Status == Active {
			w.targets = append(w.targets, id)
		}
	}
	return w
}

func TestGenSearchWorld(t *testing.T) {
	a, b := genSearchWorld(t, 400, 7), genSearchWorld(t, 400, 7)
	require.Equal(t, a.g.Len(), b.g.Len())
	require.Equal(t, a.targets, b.targets)
	assert.Len(t, a.g.APIs(), 400)
	// Both searchers return a subgraph whose plan orders without error, in request order.
	for _, s := range []Searcher{DefaultAlphaBeta(), DefaultHeuristic()} {
		var reqs []SearchRequest
		for _, tg := range a.targets {
			reqs = append(reqs, SearchRequest{Target: tg, Known: a.known})
		}
		sgs, err := SearchTargets(context.Background(), a.g, s, reqs)
		require.NoError(t, err)
		for i, sg := range sgs {
			assert.Equal(t, a.targets[i], sg.Target)
			_, err := sg.Plan(a.g, a.known)
			require.NoError(t, err)
			for _, api := range sg.APIs {
				assert.Equal(t, Active, a.g.Node(api).Status)
			}
		}
	}
}

func benchSearch(b *testing.B, s Searcher) {
	for _, n := range []int{2500, 16000} {
		b.Run(fmt.Sprintf("apis=%d", n), func(b *testing.B) {
			w := genSearchWorld(b, n, 1)
			ctx := context.Background()
			feasible := 0
			i := 0
			for b.Loop() {
				sg, err := s.Search(ctx, w.g, SearchRequest{Target: w.targets[i%len(w.targets)], Known: w.known})
				if err != nil {
					b.Fatal(err)
				}
				if sg.Feasible() {
					feasible++
				}
				i++
			}
			b.ReportMetric(float64(feasible)/float64(max(i, 1)), "feasible/op")
		})
	}
}

func BenchmarkAlphaBeta(b *testing.B) { benchSearch(b, DefaultAlphaBeta()) }

func BenchmarkHeuristic(b *testing.B) { benchSearch(b, DefaultHeuristic()) }
