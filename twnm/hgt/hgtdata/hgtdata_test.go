package hgtdata

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/hgt/internal/hgttest"
)

// travelGraph is a hand-built graph:
//
//	Geocode(city) → lat, lon      Weather(lat, lon) → temp
//	Hotels(city, lat) → hotel_id  Book(id) → booking      Ping() (no parameters)
//
// with history: Geocode → Weather twice (one success), and Hotels' hotel_id fed into Book's
// id once (THEN Hotels → Book, FEEDS hotel_id → id). The node "temp" has no embedding.
func travelGraph(t *testing.T) *twnm.Graph {
	t.Helper()
	g := hgttest.TravelGraph(t)
	for i, n := range g.Nodes() {
		if n.Name != "temp" {
			n.Embedding = []float64{float64(i), 1, -1}
		}
	}
	require.NoError(t, g.Record(
		[]twnm.Invocation{
			{API: "Geocode", Inputs: []string{"city"}, Success: true},
			{API: "Weather", Inputs: []string{"lat", "lon"}, Success: true},
			{API: "Geocode", Inputs: []string{"city"}, Success: true},
			{API: "Weather", Inputs: []string{"lat", "lon"}, Success: false},
			{API: "Hotels", Inputs: []string{"city", "lat"}, Success: true},
			{API: "Book", Inputs: []string{"id"}, Success: true},
		},
		hgttest.TravelTransitions()))
	return g
}

func api(t *testing.T, g *twnm.Graph, name string) twnm.NodeID {
	t.Helper()
	id, ok := g.APIByName(name)
	require.True(t, ok, name)
	return id
}

func param(t *testing.T, g *twnm.Graph, name string) twnm.NodeID {
	t.Helper()
	id, ok := g.ParamByName(name)
	require.True(t, ok, name)
	return id
}

// edgeAt returns the index in g.Edges() of an edge.
func edgeAt(t *testing.T, g *twnm.Graph, kind twnm.EdgeKind, from, to twnm.NodeID) int {
	t.Helper()
	e, ok := g.Edge(kind, from, to)
	require.True(t, ok)
	return slices.Index(g.Edges(), e)
}

func TestRelations(t *testing.T) {
	require.Len(t, Relations, NumRelations)
	for i, r := range Relations {
		// NewMessageGraph files forward edges under their EdgeKind and reverses 4 later.
		assert.Equal(t, i%4, int(r.Kind), r.String())
		assert.Equal(t, i >= 4, r.Reverse, r.String())
	}
	tests := []struct {
		r        Relation
		name     string
		src, dst twnm.NodeKind
	}{
		{Relation{twnm.InputOf, false}, "INPUT_OF", twnm.KindParam, twnm.KindAPI},
		{Relation{twnm.InputOf, true}, "rev_INPUT_OF", twnm.KindAPI, twnm.KindParam},
		{Relation{twnm.Outputs, false}, "OUTPUTS", twnm.KindAPI, twnm.KindParam},
		{Relation{twnm.Then, true}, "rev_THEN", twnm.KindAPI, twnm.KindAPI},
		{Relation{twnm.Feeds, false}, "FEEDS", twnm.KindParam, twnm.KindParam},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.name, tt.r.String())
		assert.Equal(t, tt.src, tt.r.Src(), tt.name)
		assert.Equal(t, tt.dst, tt.r.Dst(), tt.name)
	}
}

func TestTargets(t *testing.T) {
	g := travelGraph(t)
	geo, wea, hot, book := api(t, g, "Geocode"), api(t, g, "Weather"), api(t, g, "Hotels"), api(t, g, "Book")
	lat, lon := param(t, g, "lat"), param(t, g, "lon")
	then := edgeAt(t, g, twnm.Then, geo, wea)

	behavioural := Targets(g, Behavioural)
	require.Len(t, behavioural, 3)
	assert.Equal(t, Pair{twnm.Then, geo, wea}, behavioural[0].Pair)
	// w̃ = N_succ(Geocode→Weather) / N(Weather) = 1/2.
	assert.InDelta(t, 0.5, behavioural[0].Label, 1e-12)
	assert.Equal(t, []int{then}, behavioural[0].Evidence)
	assert.Equal(t, Pair{twnm.Then, hot, book}, behavioural[1].Pair)
	assert.Equal(t, twnm.Feeds, behavioural[2].Kind)
	assert.InDelta(t, 1.0, behavioural[2].Label, 1e-12)

	derived := Targets(g, WithDerived)
	got := map[Pair]Target{}
	for _, tg := range derived {
		got[tg.Pair] = tg
	}
	require.Len(t, derived, 4, "the three edges and Geocode → Hotels (through lat)")
	// An observed THEN edge that the structure also implies keeps its label and hides its
	// witnesses with it.
	gw := got[Pair{twnm.Then, geo, wea}]
	assert.False(t, gw.Derived)
	assert.InDelta(t, 0.5, gw.Label, 1e-12)
	assert.ElementsMatch(t, []int{then, edgeAt(t, g, twnm.InputOf, lat, wea), edgeAt(t, g, twnm.InputOf, lon, wea)}, gw.Evidence)
	gh := got[Pair{twnm.Then, geo, hot}]
	assert.True(t, gh.Derived)
	assert.Equal(t, 1.0, gh.Label)
	assert.Equal(t, []int{edgeAt(t, g, twnm.InputOf, lat, hot)}, gh.Evidence)
	// hotel_id and id are different parameter nodes: the catalog implies no Hotels → Book.
	assert.False(t, got[Pair{twnm.Then, hot, book}].Derived)

	assert.Equal(t, WithDerived, AutoMode(g), "3 behavioural edges are below AutoDeriveBelow")
}

func TestFeatures(t *testing.T) {
	g := travelGraph(t)
	ix := IndexNodes(g)
	mg := NewMessageGraph(g, ix, nil)
	l, err := FitLayout(g, mg)
	require.NoError(t, err)
	assert.Equal(t, 3, l.EmbeddingDim)
	assert.Equal(t, 3+5, l.NumFeatures())

	// Raw features, by hand. Weather: embedding as set, s = 1, f = 1, ratio 1/2, in-degree 3
	// (lat, lon, THEN from Geocode), out-degree 1 (temp).
	wea := g.Node(api(t, g, "Weather"))
	row := make([]float64, l.NumFeatures())
	rawFeatures(row, wea, mg, 3)
	assert.InDeltaSlice(t, append(slices.Clone(wea.Embedding), math.Log(2), math.Log(2), 0.5, math.Log(4), math.Log(2)), row, 1e-12)
	// temp has no embedding: zeros; never invoked: counts and ratio 0; in-degree 1 (OUTPUTS).
	temp := g.Node(param(t, g, "temp"))
	rawFeatures(row, temp, mg, 3)
	assert.InDeltaSlice(t, []float64{0, 0, 0, 0, 0, 0, math.Log(2), 0}, row, 1e-12)
	// lat: used as an input by Weather twice (one failure) and Hotels once.
	rawFeatures(row, g.Node(param(t, g, "lat")), mg, 3)
	assert.InDeltaSlice(t, []float64{math.Log(3), math.Log(2), 2.0 / 3}, row[3:6], 1e-12)

	// Hiding Geocode → Weather lowers Weather's visible in-degree: degrees never count an
	// evaluated edge.
	hidden := make([]bool, len(g.Edges()))
	hidden[edgeAt(t, g, twnm.Then, api(t, g, "Geocode"), wea.ID)] = true
	rawFeatures(row, wea, NewMessageGraph(g, ix, hidden), 3)
	assert.InDelta(t, math.Log(3), row[3+3], 1e-12)

	// Standardised columns: mean 0 over the fitting graph; a constant column keeps std 1.
	f := l.Features(g, mg)
	nf := l.NumFeatures()
	var sum [8]float64
	for k := range f {
		assert.Len(t, f[k], len(ix.Nodes[k])*nf)
		for i, x := range f[k] {
			sum[i%nf] += x
		}
	}
	for j, s := range sum {
		assert.InDelta(t, 0, s, 1e-9, "column %d", j)
	}

	// A statistic no node has yet (no history at all) is a constant column: it keeps scale 1.
	quiet := twnm.New()
	_, err = quiet.AddAPI(twnm.API{Name: "A", Inputs: []twnm.Param{{Name: "x"}}})
	require.NoError(t, err)
	ql, err := FitLayout(quiet, NewMessageGraph(quiet, IndexNodes(quiet), nil))
	require.NoError(t, err)
	assert.Equal(t, 0, ql.EmbeddingDim, "no embeddings at all")
	assert.InDeltaSlice(t, []float64{1, 1, 1, math.Log(2) / 2, math.Log(2) / 2}, ql.Std, 1e-12, "degrees log(1+0), log(1+1) vary; counts and ratio are constant")
}

func TestLayoutCheck(t *testing.T) {
	g := travelGraph(t)
	l, err := FitLayout(g, NewMessageGraph(g, IndexNodes(g), nil))
	require.NoError(t, err)
	require.NoError(t, l.Check(g))

	other := travelGraph(t)
	for _, n := range other.Nodes() {
		if n.Embedding != nil {
			n.Embedding = append(n.Embedding, 0)
		}
	}
	err = l.Check(other)
	require.ErrorIs(t, err, ErrLayout)
	assert.Contains(t, err.Error(), "the model reads 8 features (3-dimensional description embeddings + 5 statistics")
	assert.Contains(t, err.Error(), "the graph gives 9 (4-dimensional embeddings")

	// Embeddings of different lengths in one graph are an error of the graph.
	other.Nodes()[0].Embedding = []float64{1}
	_, err = FitLayout(other, NewMessageGraph(other, IndexNodes(other), nil))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "1-dimensional")
	require.ErrorIs(t, l.Check(other), ErrLayout)
}

func TestSplitAndMessagePassing(t *testing.T) {
	g, err := Synthetic(SyntheticOptions{Domains: 4, APIsPerDomain: 10, ParamsPerDomain: 6, Runs: 300, CrossDomain: 0.5,
		EmbeddingDim: 8, Noise: 1, Seed: 3})
	require.NoError(t, err)
	for _, mode := range []Mode{Behavioural, WithDerived} {
		t.Run(mode.String(), func(t *testing.T) {
			targets := Targets(g, mode)
			s, err := SplitTargets(targets, 0.1, 0.2, rand.New(rand.NewPCG(1, 1)))
			require.NoError(t, err)
			all := slices.Concat(s.Train, s.Val, s.Test)
			slices.Sort(all)
			require.Len(t, all, len(targets))
			for i, k := range all {
				require.Equal(t, i, k, "every target in exactly one part")
			}
			for _, kind := range Predicted {
				var n, nTest int
				for i, tg := range targets {
					if tg.Kind == kind {
						n++
						if slices.Contains(s.Test, i) {
							nTest++
						}
					}
				}
				assert.Equal(t, int(math.Round(0.2*float64(n))), nTest, "%s: test share per kind", kind)
			}

			// The message-passing graph for validation holds no evidence of a validation or
			// test target, and every other edge.
			hidden := Hidden(len(g.Edges()), targets, s.Val, s.Test)
			mg := NewMessageGraph(g, IndexNodes(g), hidden)
			vis := map[int]bool{}
			for _, i := range mg.Visible {
				vis[i] = true
			}
			for _, k := range slices.Concat(s.Val, s.Test) {
				for _, e := range targets[k].Evidence {
					assert.False(t, vis[e], "evaluated evidence %d passes messages", e)
				}
			}
			for i := range g.Edges() {
				assert.Equal(t, !hidden[i], vis[i])
			}
			var fwd, rev int
			for r := range NumRelations {
				if r < 4 {
					fwd += mg.Relations[r].Len()
				} else {
					rev += mg.Relations[r].Len()
				}
			}
			assert.Equal(t, len(mg.Visible), fwd)
			assert.Equal(t, fwd, rev)

			// Same seed, same split.
			again, err := SplitTargets(targets, 0.1, 0.2, rand.New(rand.NewPCG(1, 1)))
			require.NoError(t, err)
			assert.Equal(t, s, again)
		})
	}
	_, err = SplitTargets(nil, 0.5, 0.5, rand.New(rand.NewPCG(1, 1)))
	require.Error(t, err)
}

func TestNegativesNeverHitPositives(t *testing.T) {
	g := travelGraph(t)
	for _, mode := range []Mode{Behavioural, WithDerived} {
		targets := Targets(g, mode)
		s := NewSampler(g, targets)
		pos := make([]Pair, len(targets))
		positive := map[Pair]bool{}
		for i, tg := range targets {
			pos[i] = tg.Pair
			positive[tg.Pair] = true
		}
		rng := rand.New(rand.NewPCG(7, 7))
		neg, ok, missed := s.Negatives(pos, 50, rng)
		require.Len(t, neg, 50*len(pos))
		found := 0
		for i, q := range neg {
			if !ok[i] {
				continue
			}
			found++
			owner := pos[i/50]
			assert.False(t, positive[q], "negative %v is a positive", q)
			assert.NotEqual(t, q.From, q.To)
			assert.Equal(t, owner.Kind, q.Kind)
			from, to := Endpoints(q.Kind)
			assert.Equal(t, from, g.Node(q.From).Kind)
			assert.Equal(t, to, g.Node(q.To).Kind)
			assert.True(t, q.From == owner.From || q.To == owner.To, "a corruption keeps one end")
		}
		assert.Equal(t, len(neg)-missed, found)
		assert.Positive(t, found)

		eval := s.EvalNegatives(pos, rng)
		seen := map[Pair]bool{}
		for _, q := range eval {
			assert.False(t, positive[q])
			assert.False(t, seen[q], "evaluation negatives are distinct")
			seen[q] = true
		}
	}
}

func TestAUC(t *testing.T) {
	tests := []struct {
		name     string
		pos, neg []float64
		want     float64
	}{
		{"perfect", []float64{0.9, 0.8}, []float64{0.1, 0.2}, 1},
		{"inverted", []float64{0.1}, []float64{0.9, 0.8}, 0},
		// Pairs: (0.8,0.5) 1, (0.8,0.8) ½, (0.3,0.5) 0, (0.3,0.8) 0 → 1.5/4.
		{"one tie", []float64{0.8, 0.3}, []float64{0.5, 0.8}, 0.375},
		{"all tied", []float64{1, 1, 1}, []float64{1, 1}, 0.5},
		// (2,1) 1, (2,2) ½, (2,2) ½, (3,·) 3 → 5/6.
		{"ties across groups", []float64{2, 3}, []float64{1, 2, 2}, 5.0 / 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, AUC(tt.pos, tt.neg), 1e-12)
			assert.InDelta(t, tt.want, bruteAUC(tt.pos, tt.neg), 1e-12, "the brute-force definition agrees")
		})
	}
	assert.True(t, math.IsNaN(AUC(nil, []float64{1})))

	rng := rand.New(rand.NewPCG(1, 2))
	pos, neg := make([]float64, 300), make([]float64, 200)
	for i := range pos {
		pos[i] = float64(rng.IntN(20)) // many ties
	}
	for i := range neg {
		neg[i] = float64(rng.IntN(15))
	}
	assert.InDelta(t, bruteAUC(pos, neg), AUC(pos, neg), 1e-12)
}

func bruteAUC(pos, neg []float64) float64 {
	var s float64
	for _, p := range pos {
		for _, n := range neg {
			switch {
			case p > n:
				s++
			case p == n:
				s += 0.5
			}
		}
	}
	return s / float64(len(pos)*len(neg))
}

func TestClassificationMetrics(t *testing.T) {
	pos := []float64{0.9, 0.7, 0.4, 0.2}
	neg := []float64{0.8, 0.3, 0.1, 0.05}
	tests := []struct {
		threshold, acc, f1 float64
	}{
		// ≥ 0.5: TP 2 (0.9, 0.7), FN 2, FP 1 (0.8), TN 3 → ACC 5/8, F1 4/7.
		{0.5, 5.0 / 8, 4.0 / 7},
		// ≥ 0.2: TP 4, FP 2 (0.8, 0.3), TN 2 → ACC 6/8, F1 8/10. A score equal to the
		// threshold is positive.
		{0.2, 6.0 / 8, 8.0 / 10},
		// Nothing positive: F1 0.
		{1.5, 4.0 / 8, 0},
	}
	for _, tt := range tests {
		assert.InDelta(t, tt.acc, Accuracy(pos, neg, tt.threshold), 1e-12, "ACC at %v", tt.threshold)
		assert.InDelta(t, tt.f1, F1(pos, neg, tt.threshold), 1e-12, "F1 at %v", tt.threshold)
	}

	best := BestThreshold(pos, neg)
	assert.InDelta(t, 6.0/8, Accuracy(pos, neg, best), 1e-12, "best accuracy is 6/8 (threshold %v)", best)
	for _, c := range []float64{0, 0.06, 0.15, 0.25, 0.35, 0.5, 0.75, 0.85, 1} {
		assert.LessOrEqual(t, Accuracy(pos, neg, c), Accuracy(pos, neg, best)+1e-12)
	}
	assert.InDelta(t, 1.0, Accuracy([]float64{0.3, 0.3}, []float64{0.1}, BestThreshold([]float64{0.3, 0.3}, []float64{0.1})), 1e-12)
	assert.Equal(t, 0.5, BestThreshold(nil, nil))
}

func TestBaselines(t *testing.T) {
	g := travelGraph(t)
	geo, wea, hot, book, ping := api(t, g, "Geocode"), api(t, g, "Weather"), api(t, g, "Hotels"), api(t, g, "Book"), api(t, g, "Ping")
	hidden := make([]bool, len(g.Edges()))
	hidden[edgeAt(t, g, twnm.Then, geo, wea)] = true
	mg := NewMessageGraph(g, IndexNodes(g), hidden)
	score := map[string]func(Pair) float64{}
	for _, b := range Baselines(g, mg, nil) {
		score[b.Name] = b.Score
	}
	gw := Pair{twnm.Then, geo, wea}
	// Geocode's neighbours: city, lat, lon; Weather's: lat, lon, temp. Common: lat (degree
	// 3: Geocode, Weather, Hotels) and lon (degree 2).
	assert.Equal(t, 2.0, score[CommonNeighbours](gw))
	assert.InDelta(t, 1/math.Log(3)+1/math.Log(2), score[AdamicAdar](gw), 1e-12)
	// Visible out-degree of Geocode 2 (lat, lon), in-degree of Weather 2 (the THEN is hidden).
	assert.Equal(t, 4.0, score[PreferentialAttachment](gw))
	// Two structural paths Geocode → lat → Weather and → lon → Weather, weight 1 each.
	assert.Equal(t, 2.0, score[Weighted2Hop](gw))
	// Embeddings (i, 1, −1) of Geocode and Weather.
	eg, ew := g.Node(geo).Embedding, g.Node(wea).Embedding
	want := (eg[0]*ew[0] + 2) / math.Sqrt((eg[0]*eg[0]+2)*(ew[0]*ew[0]+2))
	assert.InDelta(t, want, score[EmbeddingCosine](gw), 1e-12)
	assert.Equal(t, 0.0, score[CommonNeighbours](Pair{twnm.Then, ping, book}))

	// Known targets join the graph the baselines see: Hotels → Weather known makes Hotels a
	// two-step source of Weather for Geocode → Hotels → Weather, weighted 1·label.
	known := []Target{{Pair: Pair{twnm.Then, hot, wea}, Label: 0.25}}
	for _, b := range Baselines(g, mg, known) {
		if b.Name == Weighted2Hop {
			// Paths Geocode → lat → Weather, → lon → Weather, and Geocode → lat → Hotels is
			// not a path to Weather; Geocode → Hotels is no edge, so still 2.
			assert.Equal(t, 2.0, b.Score(gw))
			// lat → Hotels (INPUT_OF, 1) then Hotels → Weather (known, 0.25), plus
			// lat → Weather directly is one step, not two.
			assert.InDelta(t, 0.25, b.Score(Pair{twnm.Feeds, param(t, g, "lat"), wea}), 1e-12)
		}
		if b.Name == PreferentialAttachment {
			assert.Equal(t, 6.0, b.Score(gw), "Weather's in-degree counts the known Hotels → Weather")
		}
	}

	aucs := BaselineAUCs(g, mg, nil, []Pair{gw}, []Pair{{twnm.Then, ping, book}})
	assert.Len(t, aucs, 5)
	assert.Equal(t, 1.0, aucs[CommonNeighbours])
}

func TestSyntheticIsDeterministic(t *testing.T) {
	o := SyntheticOptions{Domains: 5, APIsPerDomain: 6, ParamsPerDomain: 5, Runs: 200, CrossDomain: 0.6, EmbeddingDim: 8, Noise: 1, Seed: 9}
	a, err := Synthetic(o)
	require.NoError(t, err)
	b, err := Synthetic(o)
	require.NoError(t, err)
	require.Equal(t, len(a.Edges()), len(b.Edges()))
	for i, e := range a.Edges() {
		f := b.Edges()[i]
		assert.Equal(t, [4]any{e.Kind, e.From, e.To, e.Weight}, [4]any{f.Kind, f.From, f.To, f.Weight})
	}
	assert.Equal(t, 30, len(a.APIs()))
	var then, feeds int
	for _, e := range a.Edges() {
		switch e.Kind {
		case twnm.Then:
			then++
		case twnm.Feeds:
			feeds++
		}
	}
	assert.Positive(t, then)
	assert.Positive(t, feeds, "cross-domain runs feed differently named parameters")
	_, err = Synthetic(SyntheticOptions{Domains: 1})
	require.Error(t, err)
}
