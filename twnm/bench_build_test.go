package twnm_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/naviagent/navi/research/synth"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/catalogs"
	"github.com/naviagent/navi/twnm/embed"
)

func embedder(b *testing.B) embed.Embedder {
	b.Helper()
	h, err := embed.NewHashed(embed.HashedOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return h
}

func build(b *testing.B, c twnm.Catalog) *twnm.Graph {
	b.Helper()
	g, err := twnm.Build(context.Background(), c, twnm.BuildOptions{Embedder: embedder(b)})
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// dataFlow finds an API output that another API takes as an input, for a realistic feedback
// event: the names of producer, consumer, output and input.
func dataFlow(b *testing.B, g *twnm.Graph) (from, to, out, in string) {
	b.Helper()
	for _, id := range g.APIs() {
		a := g.Node(id).API
		for _, p := range a.Outputs {
			pid, _ := g.ParamOf(a.Name, p.Name, false)
			for _, e := range g.Out(pid) {
				if e.Kind != twnm.InputOf || e.To == id {
					continue
				}
				consumer := g.Node(e.To).API
				for _, q := range consumer.Inputs {
					if qid, _ := g.ParamOf(consumer.Name, q.Name, true); qid == pid {
						return a.Name, consumer.Name, p.Name, q.Name
					}
				}
			}
		}
	}
	b.Fatal("no data flow in the generated catalog")
	return
}

// BenchmarkRecordRun is the cost of one feedback event: a two-call run with one data flow
// recorded into the graph (NaviAgent reports 55 ms per feedback event).
func BenchmarkRecordRun(b *testing.B) {
	for _, n := range []int{2500, 16000} {
		b.Run(fmt.Sprintf("apis=%d", n), func(b *testing.B) {
			g := build(b, synth.Catalog(n, 1))
			from, to, out, in := dataFlow(b, g)
			now := time.Now()
			i := 0
			for b.Loop() {
				ok := i%3 != 0
				err := g.Record(
					[]twnm.Invocation{{API: from, Success: true, Time: now}, {API: to, Inputs: []string{in}, Success: ok, Time: now}},
					[]twnm.Transition{
						{Kind: twnm.Then, From: from, To: to, Success: ok, Time: now},
						{Kind: twnm.Feeds, From: from, To: to, FromParam: out, ToParam: in, Success: ok, Time: now},
					})
				if err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkIntegrate is the cost of integrating one new tool into a built graph (NaviAgent:
// under 100 ms per new tool).
func BenchmarkIntegrate(b *testing.B) {
	for _, n := range []int{2500, 16000} {
		b.Run(fmt.Sprintf("apis=%d", n), func(b *testing.B) {
			g := build(b, synth.Catalog(n, 1))
			extra := synth.Catalog(n+1000, 1).APIs[n:]
			ctx := context.Background()
			i := 0
			for b.Loop() {
				a := extra[i%len(extra)]
				a.Name = fmt.Sprintf("New%07d", i)
				if err := g.Integrate(ctx, a); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkBuild is the cost of building a graph from a catalog, parameter clustering included.
func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{2500, 16000} {
		b.Run(fmt.Sprintf("apis=%d", n), func(b *testing.B) {
			c := synth.Catalog(n, 1)
			emb := embedder(b)
			for b.Loop() {
				if _, err := twnm.Build(context.Background(), c, twnm.BuildOptions{Embedder: emb}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBuildWithEncoder builds the 16,000-API synthetic graph as the worker does, with
// the sentence encoder (embed.Standard, vectors cached in $NAVI_EMBED_CACHE_DIR): the API
// descriptions embedded, and the inputs that share no word with any output linked by
// similarity. Run it once with an empty cache folder for the cold figure.
func BenchmarkBuildWithEncoder(b *testing.B) {
	emb, err := embed.Standard()
	if err != nil {
		b.Fatal(err)
	}
	c := synth.Catalog(16000, 1)
	for b.Loop() {
		start := time.Now()
		if _, err := twnm.Build(context.Background(), c, twnm.BuildOptions{Embedder: embedder(b), APIEmbedder: emb}); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(start).Seconds(), "s/build")
	}
}

// stableToolBench is the full StableToolBench catalog (2,479 APIs) when the workspace's shared
// data is there, else the one-file slice kept in testdata (364 APIs).
func stableToolBench(b *testing.B) (string, twnm.Catalog) {
	b.Helper()
	dir := "../../shared/data/stabletoolbench/solvable_queries/test_instruction"
	if _, err := os.Stat(dir); err != nil {
		dir = filepath.Join("catalogs", "testdata", "stabletoolbench")
	}
	c, err := catalogs.StableToolBench(dir)
	if err != nil {
		b.Fatal(err)
	}
	return fmt.Sprintf("stabletoolbench-%d", len(c.APIs)), c
}

// BenchmarkRetrieveAndSearch is one toolchain retrieval as the planner asks for it: embed a
// description, recall the top 3 target APIs, search their dependency subgraphs in parallel.
// It reports the latency distribution (p50, p99 in ms) over the iterations; the descriptions
// rotate over the catalog's own API descriptions, and nothing is known, so every required
// input is searched for.
func BenchmarkRetrieveAndSearch(b *testing.B) {
	name, stb := stableToolBench(b)
	catalogs := []struct {
		name string
		cat  twnm.Catalog
	}{{name, stb}, {"synthetic-16000", synth.Catalog(16000, 1)}}
	searchers := []struct {
		name string
		s    twnm.Searcher
	}{{"alphabeta", twnm.DefaultAlphaBeta()}, {"heuristic", twnm.DefaultHeuristic()}}
	for _, c := range catalogs {
		g := build(b, c.cat)
		emb := embedder(b)
		for _, s := range searchers {
			b.Run(c.name+"/"+s.name, func(b *testing.B) {
				ctx := context.Background()
				var lat []time.Duration
				i := 0
				for b.Loop() {
					start := time.Now()
					desc := c.cat.APIs[(i*7919)%len(c.cat.APIs)].Description
					matches, err := g.Retrieve(ctx, emb, desc, 3)
					if err != nil {
						b.Fatal(err)
					}
					reqs := make([]twnm.SearchRequest, len(matches))
					for k, m := range matches {
						reqs[k] = twnm.SearchRequest{Target: m.API}
					}
					if _, err := twnm.SearchTargets(ctx, g, s.s, reqs); err != nil {
						b.Fatal(err)
					}
					lat = append(lat, time.Since(start))
					i++
				}
				sort.Slice(lat, func(x, y int) bool { return lat[x] < lat[y] })
				b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
				b.ReportMetric(ms(lat[min(len(lat)-1, len(lat)*99/100)]), "p99-ms")
			})
		}
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
