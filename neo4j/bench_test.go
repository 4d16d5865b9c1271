package neo4j_test

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/research/synth"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/catalogs"
	"github.com/naviagent/navi/twnm/embed"
	"github.com/naviagent/navi/twnm/recall"
)

// benchCatalogs are the StableToolBench catalog (all 2,479 APIs when the workspace's shared
// data is there, else the 364-API slice in testdata) and a generated 16,000-API catalog.
func benchCatalogs(b *testing.B) []twnm.Catalog {
	dir := "../../shared/data/stabletoolbench/solvable_queries/test_instruction"
	if _, err := os.Stat(dir); err != nil {
		dir = "../twnm/catalogs/testdata/stabletoolbench"
	}
	stb, err := catalogs.StableToolBench(dir)
	if err != nil {
		b.Fatal(err)
	}
	return []twnm.Catalog{stb, synth.Catalog(16000, 1)}
}

func buildB(b *testing.B, c twnm.Catalog) *twnm.Graph {
	g, err := twnm.Build(context.Background(), c, twnm.BuildOptions{Embedder: embed.Default(), APIEmbedder: stacktest.Embedder(b)})
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// BenchmarkImport writes a whole catalog (one transaction, batches of 1,000 rows) and reports
// APIs per second. The first iteration creates the nodes; later ones re-import (merge).
func BenchmarkImport(b *testing.B) {
	s := stacktest.Store(b)
	for _, c := range benchCatalogs(b) {
		g := buildB(b, c)
		forget(b, s, c.Name) // the test store keeps no benchmark's catalog
		b.Run(label(c), func(b *testing.B) {
			start := time.Now()
			for b.Loop() {
				if _, err := s.Import(context.Background(), g, c.Name); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*len(c.APIs))/time.Since(start).Seconds(), "apis/s")
		})
	}
}

// BenchmarkRetrieval is one retrieval step of the planner through Neo4j, as the Retrieve
// activity runs it: the request split into sub-goals and embedded, BM25 (full-text index)
// and vector top-k per sub-goal fused, the subgraph around the candidates read, and the final
// step chosen by its data-flow links; with p50 and p99 latencies, and the p50 of each phase.
// The requests are API descriptions (names where a description is empty). "one-tx" reads in
// one read transaction (Store.ReadTx), as the activity does; "per-query" gives each query a
// transaction of its own, as it did before.
func BenchmarkRetrieval(b *testing.B) {
	s := stacktest.Store(b)
	ctx := context.Background()
	emb := stacktest.Embedder(b)
	for _, c := range benchCatalogs(b) {
		g := buildB(b, c)
		_, err := s.Import(ctx, g, c.Name)
		forget(b, s, c.Name)
		if err != nil {
			b.Fatal(err)
		}
		for _, oneTx := range []bool{true, false} {
			name := label(c) + "/per-query"
			if oneTx {
				name = label(c) + "/one-tx"
			}
			b.Run(name, func(b *testing.B) {
				var lat, recallLat, readLat, chooseLat []time.Duration
				i := -benchWarmUp // the first requests, untimed, warm the store's caches for both modes alike
				for i < 0 || b.Loop() {
					a := c.APIs[((i+benchWarmUp)*7919)%len(c.APIs)]
					query := cmp.Or(strings.TrimSpace(a.Description), a.Name)
					var r *recall.Result
					var sub *twnm.Graph
					var t1, t2 time.Time
					retrieve := func(src recall.Source, subgraph func(context.Context, []string, neo4j.SubgraphOptions) (*twnm.Graph, error)) error {
						var err error
						if r, err = recall.Retrieve(ctx, src, emb, query, recall.Options{}); err != nil {
							return err
						}
						t1 = time.Now()
						sub, err = subgraph(ctx, r.Pool(recall.PoolPerGoal), neo4j.SubgraphOptions{Relevance: r.Relevance(), MaxAPIs: recall.SubgraphAPIs})
						t2 = time.Now()
						return err
					}
					start := time.Now() // the transaction's begin and commit count too
					var err error
					if oneTx {
						err = s.ReadTx(ctx, "bench", func(rd neo4j.Reads) error { return retrieve(rd.RecallSource(false), rd.Subgraph) })
					} else {
						err = retrieve(s.RecallSource(false), s.Subgraph)
					}
					if err != nil {
						b.Fatal(err)
					}
					if err := recall.Choose(r, recall.GraphLinks{G: sub}, recall.Options{}); err != nil {
						b.Fatal(err)
					}
					end := time.Now()
					if i >= 0 {
						lat = append(lat, end.Sub(start))
						recallLat, readLat, chooseLat = append(recallLat, t1.Sub(start)), append(readLat, t2.Sub(t1)), append(chooseLat, end.Sub(t2))
					}
					i++
				}
				reportLatency(b, lat)
				b.ReportMetric(percentileMs(recallLat, 50), "recall-p50-ms")
				b.ReportMetric(percentileMs(readLat, 50), "subgraph-p50-ms")
				b.ReportMetric(percentileMs(chooseLat, 50), "choose-p50-ms")
			})
		}
	}
}

// benchWarmUp is how many untimed requests BenchmarkRetrieval sends before each mode.
const benchWarmUp = 20

// BenchmarkFeedback writes the feedback of two-call runs with one data flow: one run per
// transaction, and 100 runs batched in one transaction.
func BenchmarkFeedback(b *testing.B) {
	s := stacktest.Store(b)
	ctx := context.Background()
	prefix := stacktest.UniqueName("b") + "_"
	c := catalog(prefix)
	g := buildB(b, c)
	_, err := s.Import(ctx, g, c.Name)
	forget(b, s, c.Name)
	if err != nil {
		b.Fatal(err)
	}
	for _, batch := range []int{1, 100} {
		b.Run(fmt.Sprintf("runs-per-tx=%d", batch), func(b *testing.B) {
			var lat []time.Duration
			start := time.Now()
			for b.Loop() {
				var invs []twnm.Invocation
				var trs []twnm.Transition
				for r := 0; r < batch; r++ {
					i, t := feedbackOf(prefix, r%5 != 0, time.Now())
					invs, trs = append(invs, i...), append(trs, t...)
				}
				t0 := time.Now()
				if err := s.RecordFeedback(ctx, invs, trs); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(t0))
			}
			b.ReportMetric(float64(b.N*batch)/time.Since(start).Seconds(), "runs/s")
			reportLatency(b, lat)
		})
	}
}

// label names a catalog with its size: "stabletoolbench-2479", "synthetic-16000".
func label(c twnm.Catalog) string {
	if n := fmt.Sprint(len(c.APIs)); !strings.HasSuffix(c.Name, n) {
		return c.Name + "-" + n
	}
	return c.Name
}

func reportLatency(b *testing.B, lat []time.Duration) {
	b.ReportMetric(percentileMs(lat, 50), "p50-ms")
	b.ReportMetric(percentileMs(lat, 99), "p99-ms")
}

// percentileMs is the p-th percentile of lat, in milliseconds; it sorts lat.
func percentileMs(lat []time.Duration, p int) float64 {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	return float64(lat[min(len(lat)-1, len(lat)*p/100)]) / float64(time.Millisecond)
}

// BenchmarkTopAPIs is the vector top-3 alone, the first half of BenchmarkRetrieval.
func BenchmarkTopAPIs(b *testing.B) {
	s := stacktest.Store(b)
	ctx := context.Background()
	emb := stacktest.Embedder(b)
	for _, c := range benchCatalogs(b) {
		b.Run(label(c), func(b *testing.B) {
			var lat []time.Duration
			i := 0
			for b.Loop() {
				vecs, err := emb.Embed(ctx, []string{c.APIs[(i*7919)%len(c.APIs)].Description})
				if err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				if _, err := s.TopAPIs(ctx, vecs[0], 3); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
				i++
			}
			reportLatency(b, lat)
		})
	}
}
