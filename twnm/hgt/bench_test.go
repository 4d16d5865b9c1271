package hgt

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/hgt/hgtdata"
)

// The benchmark table: go test -run BenchmarkTable -v -timeout 60m ./twnm/hgt with
//
//	NAVI_HGT_BENCH=1                 datasets a, b, c and the robustness sweep on c
//	NAVI_HGT_BENCH=a,robust-a,...    a chosen subset of a, b, c, robust-a, robust-c
//
// (a) is the StableToolBench catalog with the ToolBench trajectories, (b) API-Bank, (c) a
// generated graph of NaviAgent's ToolBench size. Each trains with DefaultConfig and reports
// the time per epoch, to the best epoch and in all, memory, and the test ACC, F1 and AUC
// beside the baselines' AUC on the same split. API-Bank's test split holds about ten edges,
// so it is trained with five seeds and reported as mean and range.

func benchSelection(t *testing.T) map[string]bool {
	v := os.Getenv("NAVI_HGT_BENCH")
	if v == "" {
		t.Skip("set NAVI_HGT_BENCH=1 (or a list such as a,b,c,robust-c) to run the HGT benchmarks")
	}
	if v == "1" {
		v = "a,b,c,robust-c"
	}
	sel := map[string]bool{}
	for _, s := range strings.Split(v, ",") {
		sel[strings.TrimSpace(s)] = true
	}
	return sel
}

// run is one measured training.
type run struct {
	met               Metrics
	toBest            time.Duration // elapsed at the end of the best epoch
	peakHeap, alloced uint64        // bytes: largest live heap seen after an epoch; allocated in all
	predict           time.Duration // Predict: every behavioural edge and the top 1,000 missing
	// meanW, meanP and corr compare the predicted weight p̂ of each existing behavioural edge
	// with its statistical weight w̃ (NaN without behavioural edges).
	meanW, meanP, corr float64
}

func measure(t *testing.T, g *twnm.Graph, cfg Config) run {
	t.Helper()
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var r run
	var elapsed []time.Duration
	m, met, err := Train(context.Background(), g, cfg, func(p Progress) {
		elapsed = append(elapsed, p.Elapsed)
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		r.peakHeap = max(r.peakHeap, ms.HeapAlloc)
	})
	require.NoError(t, err)
	require.NotNil(t, m)
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	r.met, r.alloced = met, after.TotalAlloc-before.TotalAlloc
	if met.BestEpoch > 0 {
		r.toBest = elapsed[met.BestEpoch-1]
	}
	start := time.Now()
	preds, err := m.Predict(context.Background(), g, met.Threshold, 1000)
	require.NoError(t, err)
	r.predict = time.Since(start)
	var ws, ps []float64
	for _, p := range preds {
		if !p.Missing {
			ps = append(ps, p.Weight)
		}
	}
	for _, e := range g.Edges() {
		if e.Kind.Behavioural() {
			ws = append(ws, e.Weight)
		}
	}
	r.meanW, r.meanP, r.corr = mean(ws), mean(ps), correlation(ws, ps)
	return r
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func correlation(xs, ys []float64) float64 {
	mx, my := mean(xs), mean(ys)
	var sxy, sxx, syy float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
		syy += (ys[i] - my) * (ys[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

func bestBaseline(aucs map[string]float64) (string, float64) {
	name, best := "", math.Inf(-1)
	for _, k := range sortedKeys(aucs) {
		if aucs[k] > best {
			name, best = k, aucs[k]
		}
	}
	return name, best
}

func sortedKeys(m map[string]float64) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func baselineList(aucs map[string]float64) string {
	var parts []string
	for _, k := range sortedKeys(aucs) {
		parts = append(parts, fmt.Sprintf("%s %.3f", k, aucs[k]))
	}
	return strings.Join(parts, ", ")
}

func TestBenchmarkTable(t *testing.T) {
	sel := benchSelection(t)
	cfg := DefaultConfig()
	var out strings.Builder
	fmt.Fprintf(&out, "HGT link prediction, DefaultConfig (hidden %d, %d heads, %d layers, k=%d, lr %g, μ0 %g, γ %g, ≤%d epochs, patience %d), GOMAXPROCS %d, %s\n\n",
		cfg.Hidden, cfg.Heads, cfg.Layers, cfg.Negatives, cfg.LR, cfg.Mu0, cfg.Gamma, cfg.Epochs, cfg.Patience, runtime.GOMAXPROCS(0), runtime.GOARCH)
	out.WriteString("| graph | predicted edges (train/val/test) | epochs (best) | s/epoch | to best | total | peak heap | allocated | ACC | F1 | AUC | best baseline AUC | predict | mean w̃ / p̂, corr |\n")
	out.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	row := func(name string, r run) {
		bn, bv := bestBaseline(r.met.BaselineAUC)
		fmt.Fprintf(&out, "| %s | %s %d/%d/%d | %d (%d) | %.2f | %.1f s | %.1f s | %.0f MiB | %.0f MiB | %.1f | %.1f | %.3f | %.3f (%s) | %.1f s | %.3f / %.3f, %.2f |\n",
			name, r.met.Targets, r.met.TrainEdges, r.met.ValEdges, r.met.TestEdges, r.met.Epochs, r.met.BestEpoch,
			r.met.EpochTime.Seconds(), r.toBest.Seconds(), r.met.TrainTime.Seconds(), mib(r.peakHeap), mib(r.alloced),
			100*r.met.ACC, 100*r.met.F1, r.met.AUC, bv, bn, r.predict.Seconds(), r.meanW, r.meanP, r.corr)
	}
	var notes []string
	var graphC *twnm.Graph
	var graphA *twnm.Graph

	if sel["a"] || sel["robust-a"] {
		g, desc := stableToolBenchGraph(t)
		graphA = g
		notes = append(notes, "(a) StableToolBench + ToolBench trajectories: "+desc)
		if sel["a"] {
			r := measure(t, g, cfg)
			row("(a) StableToolBench+ToolBench", r)
			notes = append(notes, "(a) baselines: "+baselineList(r.met.BaselineAUC)+fmt.Sprintf("; threshold %.3f", r.met.Threshold))
		}
	}
	if sel["b"] {
		g, desc := apiBankGraph(t)
		notes = append(notes, "(b) API-Bank: "+desc)
		var runs []run
		for seed := uint64(1); seed <= 5; seed++ {
			c := cfg
			c.Seed = seed
			runs = append(runs, measure(t, g, c))
		}
		for i, r := range runs {
			row(fmt.Sprintf("(b) API-Bank, seed %d", i+1), r)
		}
		stat := func(f func(Metrics) float64) string {
			var xs []float64
			for _, r := range runs {
				xs = append(xs, f(r.met))
			}
			var s float64
			for _, x := range xs {
				s += x
			}
			return fmt.Sprintf("%.3f [%.3f, %.3f]", s/float64(len(xs)), slices.Min(xs), slices.Max(xs))
		}
		line := fmt.Sprintf("(b) API-Bank over 5 seeds, mean [min, max]: ACC %s, F1 %s, AUC %s", stat(func(m Metrics) float64 { return m.ACC }),
			stat(func(m Metrics) float64 { return m.F1 }), stat(func(m Metrics) float64 { return m.AUC }))
		for _, k := range sortedKeys(runs[0].met.BaselineAUC) {
			line += fmt.Sprintf("; %s %s", k, stat(func(m Metrics) float64 { return m.BaselineAUC[k] }))
		}
		notes = append(notes, line)
	}
	if sel["c"] || sel["robust-c"] {
		g, err := hgtdata.Synthetic(hgtdata.ToolBenchSize(1))
		require.NoError(t, err)
		graphC = g
		notes = append(notes, "(c) generated, ToolBench size: "+describe(g))
		if sel["c"] {
			r := measure(t, g, cfg)
			row("(c) generated, ToolBench size", r)
			notes = append(notes, "(c) baselines: "+baselineList(r.met.BaselineAUC)+fmt.Sprintf("; threshold %.3f", r.met.Threshold)+
				fmt.Sprintf("; FEEDS hit@1 %.3f over %d held-out flows, masked chains %.3f over %d searches",
					r.met.FeedsHit1, r.met.FeedsRanked, r.met.MaskedChains, r.met.MaskedSearches))
		}
	}
	out.WriteString("\n")
	for _, n := range notes {
		out.WriteString(n + "\n")
	}

	robust := func(name string, g *twnm.Graph) {
		fmt.Fprintf(&out, "\nMissing-dependency robustness on %s: mask ρ of the predicted edges, train on the rest, AUC on recovering them\n\n", name)
		out.WriteString("| ρ | masked | train | epochs | AUC | best baseline AUC | time |\n|---|---|---|---|---|---|---|\n")
		rhos := []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}
		last := time.Now()
		_, err := Robustness(context.Background(), g, cfg, rhos, func(p RobustnessPoint) {
			bn, bv := bestBaseline(p.BaselineAUC)
			fmt.Fprintf(&out, "| %.1f | %d | %d | %d | %.3f | %.3f (%s) | %.0f s |\n", p.Rho, p.Masked, p.Train, p.Epochs, p.AUC, bv, bn, time.Since(last).Seconds())
			last = time.Now()
		})
		require.NoError(t, err)
	}
	if sel["robust-c"] {
		robust("(c) generated, ToolBench size", graphC)
	}
	if sel["robust-a"] {
		robust("(a) StableToolBench+ToolBench", graphA)
	}
	t.Log("\n" + out.String())
	if p := os.Getenv("NAVI_HGT_BENCH_OUT"); p != "" {
		require.NoError(t, os.WriteFile(p, []byte(out.String()), 0o644))
	}
}

// BenchmarkTrainEpoch is one training epoch (a forward and backward pass over the whole
// graph and an Adam step) on the generated graph of NaviAgent's ToolBench size.
func BenchmarkTrainEpoch(b *testing.B) {
	g, err := hgtdata.Synthetic(hgtdata.ToolBenchSize(1))
	if err != nil {
		b.Fatal(err)
	}
	cfg := withDefaults(DefaultConfig())
	tr, err := newTrainer(g, cfg, cfg.ValFrac, cfg.TestFrac)
	if err != nil {
		b.Fatal(err)
	}
	opt := newAdam(cfg)
	rng := newRand(cfg.Seed, streamEpoch)
	epoch := 0
	for b.Loop() {
		tr.step(epoch, opt, rng)
		epoch++
	}
}
