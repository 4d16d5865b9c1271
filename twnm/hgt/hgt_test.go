package hgt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/hgt/hgtdata"
	"github.com/naviagent/navi/twnm/hgt/internal/hgttest"
)

// travelGraph is a hand-built graph:
//
//	Geocode(city) → lat, lon      Weather(lat, lon) → temp
//	Hotels(city, lat) → hotel_id  Book(id) → booking      Ping() (no parameters)
//
// with history Geocode → Weather (twice, one success) and Hotels → Book feeding hotel_id
// into id. Ping has no edge at all; booking has a single one (OUTPUTS from Book); Weather is
// reached through INPUT_OF, THEN and rev_OUTPUTS. temp has no embedding.
func travelGraph(t *testing.T) *twnm.Graph {
	t.Helper()
	g := hgttest.TravelGraph(t)
	rng := rand.New(rand.NewPCG(5, 5))
	for _, n := range g.Nodes() {
		if n.Name != "temp" {
			n.Embedding = []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		}
	}
	require.NoError(t, g.Record(
		[]twnm.Invocation{
			{API: "Geocode", Inputs: []string{"city"}, Success: true},
			{API: "Weather", Inputs: []string{"lat", "lon"}, Success: true},
			{API: "Weather", Inputs: []string{"lat", "lon"}, Success: false},
			{API: "Hotels", Inputs: []string{"city", "lat"}, Success: true},
			{API: "Book", Inputs: []string{"id"}, Success: true},
		},
		hgttest.TravelTransitions()))
	return g
}

func nodeID(t *testing.T, g *twnm.Graph, kind twnm.NodeKind, name string) twnm.NodeID {
	t.Helper()
	var id twnm.NodeID
	var ok bool
	if kind == twnm.KindAPI {
		id, ok = g.APIByName(name)
	} else {
		id, ok = g.ParamByName(name)
	}
	require.True(t, ok, name)
	return id
}

// TestGradientFiniteDifferences checks the whole model's gradient (encoder, both HGT layers,
// decoders, and the curriculum loss with both terms active) against central finite
// differences of the loss computed by the model's own forward pass.
func TestGradientFiniteDifferences(t *testing.T) {
	g := travelGraph(t)
	api := func(n string) twnm.NodeID { return nodeID(t, g, twnm.KindAPI, n) }
	par := func(n string) twnm.NodeID { return nodeID(t, g, twnm.KindParam, n) }

	targets := hgtdata.Targets(g, hgtdata.Behavioural)
	require.Len(t, targets, 3)
	// Supervise on Hotels → Book and hotel_id → id, hidden from message passing; Geocode →
	// Weather stays visible, so Weather receives messages over three relations.
	sup := []int{1, 2}
	ix := hgtdata.IndexNodes(g)
	mg := hgtdata.NewMessageGraph(g, ix, hgtdata.Hidden(len(g.Edges()), targets, sup))
	in := map[twnm.NodeID]map[string]int{}
	for r, rel := range hgtdata.Relations {
		re := &mg.Relations[r]
		for i := range re.Dst {
			dst := ix.Nodes[rel.Dst()][re.Dst[i]]
			if in[dst] == nil {
				in[dst] = map[string]int{}
			}
			in[dst][rel.String()]++
		}
	}
	require.Empty(t, in[api("Ping")], "Ping has no incoming edge")
	require.Equal(t, map[string]int{"OUTPUTS": 1}, in[par("booking")], "booking has a single incoming edge")
	require.Equal(t, map[string]int{"INPUT_OF": 2, "THEN": 1, "rev_OUTPUTS": 1}, in[api("Weather")])

	layout, err := hgtdata.FitLayout(g, mg)
	require.NoError(t, err)
	net := newNetwork(8, 2, 2, layout.NumFeatures())
	rng := rand.New(rand.NewPCG(3, 3))
	net.init(rng)
	// Move biases, gates, gains and shifts off their initial constants so that every path
	// is generic.
	for _, p := range net.params {
		if r, _ := p.Value.Dims(); r == 1 {
			raw := p.Value.RawMatrix().Data
			for i := range raw {
				raw[i] += 0.3 * rng.NormFloat64()
			}
		}
	}
	v := newView(mg, layout.Features(g, mg), layout.NumFeatures(), 2)
	pos := []hgtdata.Target{targets[1], targets[2]}
	k := 2
	neg := []hgtdata.Pair{
		{Kind: twnm.Then, From: api("Ping"), To: api("Book")}, {Kind: twnm.Then, From: api("Hotels"), To: api("Weather")},
		{Kind: twnm.Feeds, From: par("lat"), To: par("id")}, {Kind: twnm.Feeds, From: par("hotel_id"), To: par("booking")},
	}
	ok := []bool{true, true, true, true}
	loss := func() float64 {
		p := newPass()
		return net.loss(p, v, net.embed(p, v), pos, neg, ok, k, 0.6, 1).Value.At(0, 0)
	}

	for _, prm := range net.params {
		prm.Grad.Zero()
	}
	p := newPass()
	l := net.loss(p, v, net.embed(p, v), pos, neg, ok, k, 0.6, 1)
	p.t.Backward(l)
	require.InDelta(t, l.Value.At(0, 0), loss(), 0, "the forward pass is deterministic")

	const eps = 1e-6
	checked, nonzero := 0, 0
	for _, prm := range net.params {
		raw := prm.Value.RawMatrix().Data
		grad := prm.Grad.RawMatrix().Data
		for _, i := range []int{0, len(raw) / 2, len(raw) - 1} {
			orig := raw[i]
			raw[i] = orig + eps
			up := loss()
			raw[i] = orig - eps
			down := loss()
			raw[i] = orig
			numeric := (up - down) / (2 * eps)
			assert.InDelta(t, numeric, grad[i], 1e-6*math.Max(1, math.Abs(numeric)), "%s[%d]", prm.Name, i)
			checked++
			if math.Abs(grad[i]) > 1e-9 {
				nonzero++
			}
		}
	}
	t.Logf("%d parameter entries checked, %d with a non-zero gradient", checked, nonzero)
	assert.Greater(t, nonzero, checked/2, "most parameters are on a path to the loss")
}

// smallSynthetic is a graph with planted cross-domain structure that common neighbours
// cannot see (see hgtdata.Synthetic).
func smallSynthetic(t *testing.T, seed uint64) *twnm.Graph {
	t.Helper()
	g, err := hgtdata.Synthetic(hgtdata.SyntheticOptions{Domains: 6, APIsPerDomain: 8, ParamsPerDomain: 6, Runs: 400,
		CrossDomain: 0.6, EmbeddingDim: 16, Noise: 1, Seed: seed})
	require.NoError(t, err)
	return g
}

func smallConfig() Config {
	c := DefaultConfig()
	c.Hidden, c.Heads, c.Epochs, c.Patience = 32, 4, 60, 15
	return c
}

func TestTrainBeatsBaselines(t *testing.T) {
	g := smallSynthetic(t, 1)
	var epochs []Progress
	m, met, err := Train(context.Background(), g, smallConfig(), func(p Progress) { epochs = append(epochs, p) })
	require.NoError(t, err)
	require.NotNil(t, m)
	require.Len(t, epochs, met.Epochs, "progress after every epoch")
	assert.Equal(t, 1, epochs[0].Epoch)
	assert.Equal(t, 60, epochs[0].Epochs)
	assert.Less(t, epochs[len(epochs)-1].Loss, epochs[0].Loss, "the loss falls")

	bestBaseline := ""
	for name, auc := range met.BaselineAUC {
		if bestBaseline == "" || auc > met.BaselineAUC[bestBaseline] {
			bestBaseline = name
		}
	}
	t.Logf("test AUC %.3f ACC %.3f F1 %.3f; best baseline %s %.3f; %d epochs (best %d), %v per epoch",
		met.AUC, met.ACC, met.F1, bestBaseline, met.BaselineAUC[bestBaseline], met.Epochs, met.BestEpoch, met.EpochTime)
	assert.Len(t, met.BaselineAUC, 5)
	assert.Greater(t, met.AUC, met.BaselineAUC[bestBaseline]+0.05, "the model beats every baseline")
	assert.Greater(t, met.AUC, 0.8)
	assert.Greater(t, met.ACC, 0.7)
	assert.Equal(t, "behavioural", met.Targets)
	assert.Equal(t, met.TrainEdges+met.ValEdges+met.TestEdges, hgtdata.CountBehavioural(g))
	t.Logf("FEEDS hit@1 %.3f over %d test edges", met.FeedsHit1, met.FeedsRanked)
	assert.Positive(t, met.FeedsRanked, "the test split's FEEDS edges are ranked")
	assert.Greater(t, met.FeedsHit1, 0.0, "the planted producers are found")
	assert.LessOrEqual(t, met.FeedsHit1, 1.0)
	t.Logf("masked chains %.3f over %d searches", met.MaskedChains, met.MaskedSearches)
	assert.GreaterOrEqual(t, met.MaskedSearches, met.FeedsRanked, "a search from every API that requires a held-out input")
	assert.True(t, met.MaskedChains >= 0 && met.MaskedChains <= 1, "a share")
	assert.Equal(t, met, m.Metrics())
	assert.True(t, strings.HasPrefix(m.Version(), "hgt-"), m.Version())
}

func TestTrainIsReproducible(t *testing.T) {
	g := smallSynthetic(t, 2)
	cfg := smallConfig()
	cfg.Epochs = 12
	a, ma, err := Train(context.Background(), g, cfg, nil)
	require.NoError(t, err)
	b, mb, err := Train(context.Background(), g, cfg, nil)
	require.NoError(t, err)
	// Bit for bit: compare the float bits, not within a tolerance.
	bits := func(m Metrics) []uint64 {
		out := []uint64{math.Float64bits(m.ACC), math.Float64bits(m.F1), math.Float64bits(m.AUC),
			math.Float64bits(m.ValAUC), math.Float64bits(m.Threshold), uint64(m.Epochs), uint64(m.BestEpoch)}
		for _, k := range []string{hgtdata.CommonNeighbours, hgtdata.Weighted2Hop} {
			out = append(out, math.Float64bits(m.BaselineAUC[k]))
		}
		return out
	}
	assert.Equal(t, bits(ma), bits(mb))
	assert.Equal(t, a.paramHash(), b.paramHash(), "same parameters")

	cfg.Seed = 99
	c, _, err := Train(context.Background(), g, cfg, nil)
	require.NoError(t, err)
	assert.NotEqual(t, a.paramHash(), c.paramHash(), "another seed, another model")
}

func TestTrainHonoursCancellation(t *testing.T) {
	g := smallSynthetic(t, 1)
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	m, _, err := Train(ctx, g, smallConfig(), func(p Progress) {
		calls++
		if p.Epoch == 2 {
			cancel()
		}
	})
	require.Error(t, err)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Contains(t, err.Error(), "epoch 3")
	assert.Nil(t, m)
	assert.Equal(t, 2, calls, "no epoch runs after cancellation")

	_, _, err = Train(ctx, g, smallConfig(), nil)
	assert.ErrorIs(t, err, context.Canceled, "an already cancelled context trains nothing")
}

func TestTrainRefuses(t *testing.T) {
	g := smallSynthetic(t, 1)
	bad := []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"heads do not divide", func(c *Config) { c.Hidden, c.Heads = 30, 8 }, "multiple of the 8 heads"},
		{"no negatives", func(c *Config) { c.Negatives = 0 }, "negatives"},
		{"learning rate", func(c *Config) { c.LR = 0 }, "learning rate"},
		{"curriculum", func(c *Config) { c.Gamma = 1.5 }, "γ"},
		{"fractions", func(c *Config) { c.ValFrac, c.TestFrac = 0.5, 0.5 }, "sum below 1"},
		{"supervision", func(c *Config) { c.SupervisionFrac = 2 }, "supervision fraction"},
		{"targets", func(c *Config) { c.Targets = 9 }, "targets"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			cfg := smallConfig()
			tt.edit(&cfg)
			_, _, err := Train(context.Background(), g, cfg, nil)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}

	_, _, err := Train(context.Background(), nil, smallConfig(), nil)
	require.ErrorContains(t, err, "nil graph")

	// A catalog with no history and no data flow gives nothing to predict.
	empty := twnm.New()
	_, err = empty.AddAPI(twnm.API{Name: "A", Inputs: []twnm.Param{{Name: "x"}}, Outputs: []twnm.Param{{Name: "y"}}})
	require.NoError(t, err)
	_, _, err = Train(context.Background(), empty, smallConfig(), nil)
	require.ErrorContains(t, err, "0 edges to predict")
}

// TestDerivedTargets trains on a graph with no behavioural edge at all: derived THEN
// candidates are predicted, with their witnessing INPUT_OF edges hidden.
func TestDerivedTargets(t *testing.T) {
	g := twnm.New()
	rng := rand.New(rand.NewPCG(4, 4))
	for i := range 30 {
		d := i % 3
		p := func(j int) twnm.Param { return twnm.Param{Name: "p" + string(rune('a'+d)) + string(rune('0'+j))} }
		in := rng.IntN(5)
		out := (in + 1 + rng.IntN(4)) % 5
		_, err := g.AddAPI(twnm.API{Name: "A" + string(rune('A'+i)), Inputs: []twnm.Param{p(in)}, Outputs: []twnm.Param{p(out)}})
		require.NoError(t, err)
	}
	for _, n := range g.Nodes() {
		n.Embedding = []float64{rng.NormFloat64(), rng.NormFloat64()}
	}
	cfg := smallConfig()
	cfg.Epochs = 5
	m, met, err := Train(context.Background(), g, cfg, nil)
	require.NoError(t, err)
	assert.Equal(t, "behavioural+derived", met.Targets)
	assert.Equal(t, met.TrainEdges+met.ValEdges+met.TestEdges, met.DerivedEdges)
	preds, err := m.Predict(context.Background(), g, 0, 5)
	require.NoError(t, err)
	assert.Len(t, preds, 5, "no behavioural edge to weigh; five missing THEN edges proposed")
}

// Probabilities scores chosen pairs: the trained model puts the graph's FEEDS edges above
// output→input pairs that are no edge, and refuses pairs of the wrong node kinds.
func TestProbabilities(t *testing.T) {
	g := smallSynthetic(t, 1)
	cfg := smallConfig()
	cfg.Epochs = 20
	m, _, err := Train(context.Background(), g, cfg, nil)
	require.NoError(t, err)

	var pos, neg [][2]twnm.NodeID
	var outputs, inputs []twnm.NodeID
	for _, n := range g.Nodes() {
		if n.Kind != twnm.KindParam {
			continue
		}
		if len(g.Producers(n.ID)) > 0 {
			outputs = append(outputs, n.ID)
		}
		if slices.ContainsFunc(g.Out(n.ID), func(e *twnm.Edge) bool { return e.Kind == twnm.InputOf }) {
			inputs = append(inputs, n.ID)
		}
	}
	for _, e := range g.Edges() {
		if e.Kind == twnm.Feeds {
			pos = append(pos, [2]twnm.NodeID{e.From, e.To})
		}
	}
	for _, o := range outputs {
		for _, in := range inputs {
			if _, ok := g.Edge(twnm.Feeds, o, in); !ok && o != in {
				neg = append(neg, [2]twnm.NodeID{o, in})
			}
		}
	}
	require.NotEmpty(t, pos)
	require.NotEmpty(t, neg)
	pp, err := m.Probabilities(context.Background(), g, twnm.Feeds, pos)
	require.NoError(t, err)
	np, err := m.Probabilities(context.Background(), g, twnm.Feeds, neg)
	require.NoError(t, err)
	require.Len(t, pp, len(pos))
	require.Len(t, np, len(neg))
	mean := func(xs []float64) float64 {
		s := 0.0
		for _, x := range xs {
			assert.True(t, x > 0 && x < 1)
			s += x
		}
		return s / float64(len(xs))
	}
	assert.Greater(t, mean(pp), mean(np), "edges score above non-edges")

	api := g.APIs()[0]
	_, err = m.Probabilities(context.Background(), g, twnm.Feeds, [][2]twnm.NodeID{{api, pos[0][1]}})
	assert.ErrorContains(t, err, "is not a Param → Param pair")
	_, err = m.Probabilities(context.Background(), g, twnm.InputOf, pos)
	assert.ErrorContains(t, err, "predicts no INPUT_OF edges")
}

func TestPredict(t *testing.T) {
	g := smallSynthetic(t, 1)
	cfg := smallConfig()
	cfg.Epochs = 20
	m, _, err := Train(context.Background(), g, cfg, nil)
	require.NoError(t, err)

	preds, err := m.Predict(context.Background(), g, 0.001, 25)
	require.NoError(t, err)
	nb := hgtdata.CountBehavioural(g)
	require.Greater(t, len(preds), nb)
	require.LessOrEqual(t, len(preds), nb+25)
	var i int
	for _, e := range g.Edges() {
		if !e.Kind.Behavioural() {
			continue
		}
		p := preds[i]
		i++
		assert.Equal(t, Prediction{Kind: e.Kind, From: g.Node(e.From).Name, To: g.Node(e.To).Name, Weight: p.Weight}, p)
		assert.True(t, p.Weight > 0 && p.Weight < 1)
	}
	missing := preds[nb:]
	for j, p := range missing {
		assert.True(t, p.Missing)
		assert.GreaterOrEqual(t, p.Weight, 0.001)
		if j > 0 {
			assert.LessOrEqual(t, p.Weight, missing[j-1].Weight, "most probable first")
		}
		var from, to twnm.NodeID
		var ok1, ok2 bool
		if p.Kind == twnm.Then {
			from, ok1 = g.APIByName(p.From)
			to, ok2 = g.APIByName(p.To)
		} else {
			from, ok1 = g.ParamByName(p.From)
			to, ok2 = g.ParamByName(p.To)
		}
		require.True(t, ok1 && ok2)
		_, exists := g.Edge(p.Kind, from, to)
		assert.False(t, exists, "a missing edge is not in the graph")
		assert.NotEqual(t, from, to)
	}

	none, err := m.Predict(context.Background(), g, 0.5, 0)
	require.NoError(t, err)
	assert.Len(t, none, nb, "maxMissing 0: existing edges only")
	again, err := m.Predict(context.Background(), g, 0.001, 25)
	require.NoError(t, err)
	assert.Equal(t, preds, again, "prediction is deterministic")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = m.Predict(ctx, g, 0.5, 10)
	assert.ErrorIs(t, err, context.Canceled)
}

func TestSaveLoad(t *testing.T) {
	g := smallSynthetic(t, 1)
	cfg := smallConfig()
	cfg.Epochs = 8
	m, _, err := Train(context.Background(), g, cfg, nil)
	require.NoError(t, err)
	m.SetVersion("hgt-test-1")

	var buf bytes.Buffer
	require.NoError(t, m.Save(&buf))
	file := buf.Bytes()
	loaded, err := Load(bytes.NewReader(file))
	require.NoError(t, err)
	assert.Equal(t, "hgt-test-1", loaded.Version())
	assert.Equal(t, m.Metrics(), loaded.Metrics())
	assert.Equal(t, m.Config(), loaded.Config())
	assert.Equal(t, m.paramHash(), loaded.paramHash(), "parameters survive bit for bit")
	want, err := m.Predict(context.Background(), g, 0.01, 10)
	require.NoError(t, err)
	got, err := loaded.Predict(context.Background(), g, 0.01, 10)
	require.NoError(t, err)
	assert.Equal(t, want, got)

	// A graph embedded with another embedder (other dimension) is refused, by CheckLayout and
	// by Predict, with the layouts named.
	other := smallSynthetic(t, 1)
	for _, n := range other.Nodes() {
		n.Embedding = append(n.Embedding, 0, 0)
	}
	err = loaded.CheckLayout(other)
	require.ErrorIs(t, err, hgtdata.ErrLayout)
	assert.Contains(t, err.Error(), "hgt-test-1")
	assert.Contains(t, err.Error(), "16-dimensional description embeddings")
	assert.Contains(t, err.Error(), "18-dimensional embeddings")
	_, err = loaded.Predict(context.Background(), other, 0.5, 1)
	require.ErrorIs(t, err, hgtdata.ErrLayout)

	broken := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "bad magic"},
		{"not a model", []byte("{\"hello\": 1}"), "bad magic"},
		{"truncated parameters", file[:len(file)-9], "unexpected EOF"},
		{"other format", bytes.Replace(file, []byte(`"format":1`), []byte(`"format":7`), 1), "file format 7"},
		{"other architecture", bytes.Replace(file, []byte(`"Hidden":32`), []byte(`"Hidden":16`), 1), "parameter 0 is encoder.API.W"},
	}
	for _, tt := range broken {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(bytes.NewReader(tt.data))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.True(t, strings.HasPrefix(err.Error(), "hgt: load model: "), err.Error())
		})
	}
	_, err = Load(io.LimitReader(bytes.NewReader(file), 12))
	require.Error(t, err)
}

func TestRobustness(t *testing.T) {
	g := smallSynthetic(t, 1)
	cfg := smallConfig()
	cfg.Epochs = 10
	var seen []float64
	points, err := Robustness(context.Background(), g, cfg, []float64{0.2, 0.6}, func(p RobustnessPoint) { seen = append(seen, p.Rho) })
	require.NoError(t, err)
	require.Len(t, points, 2)
	assert.Equal(t, []float64{0.2, 0.6}, seen)
	n := hgtdata.CountBehavioural(g)
	for _, p := range points {
		assert.InDelta(t, p.Rho*float64(n), float64(p.Masked), 2)
		assert.False(t, math.IsNaN(p.AUC))
		assert.Len(t, p.BaselineAUC, 5)
	}
	assert.Greater(t, points[0].Train, points[1].Train)

	_, err = Robustness(context.Background(), g, cfg, []float64{1}, nil)
	require.ErrorContains(t, err, "masking ratio")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Robustness(ctx, g, cfg, []float64{0.5}, nil)
	require.True(t, errors.Is(err, context.Canceled))
}

func TestSnapshotRestore(t *testing.T) {
	n := newNetwork(8, 2, 1, 5)
	n.init(rand.New(rand.NewPCG(1, 1)))
	snap := n.snapshot(nil)
	before := slices.Clone(n.params[0].Value.RawMatrix().Data)
	n.params[0].Value.RawMatrix().Data[0] += 1
	n.restore(snap)
	assert.Equal(t, before, n.params[0].Value.RawMatrix().Data)
}

func TestJSONCarriesNaN(t *testing.T) {
	m := Metrics{ACC: math.NaN(), F1: 0.5, AUC: 0.75, ValAUC: math.NaN(), BaselineAUC: map[string]float64{"x": math.NaN(), "y": 0.6},
		Epochs: 3, BestEpoch: 2, EpochTime: time.Second, TrainEdges: 7, Threshold: 0.25, Targets: "behavioural"}
	b, err := json.Marshal(m)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"ACC":null`)
	assert.Contains(t, string(b), `"AUC":0.75`)
	var back Metrics
	require.NoError(t, json.Unmarshal(b, &back))
	assert.True(t, math.IsNaN(back.ACC) && math.IsNaN(back.ValAUC) && math.IsNaN(back.BaselineAUC["x"]))
	back.ACC, back.ValAUC, back.BaselineAUC["x"] = 0, 0, 0
	m.ACC, m.ValAUC, m.BaselineAUC["x"] = 0, 0, 0
	assert.Equal(t, m, back)

	p := Progress{Epoch: 2, Epochs: 9, Loss: 0.5, ValAUC: math.NaN(), Elapsed: time.Minute}
	b, err = json.Marshal(p)
	require.NoError(t, err)
	var pb Progress
	require.NoError(t, json.Unmarshal(b, &pb))
	assert.True(t, math.IsNaN(pb.ValAUC))
	pb.ValAUC, p.ValAUC = 0, 0
	assert.Equal(t, p, pb)
}

// maskedChains removes the held-out flows, links each input to the model's pick in turn and
// searches from the input's consumer: a plan through the right producer recovers the flow,
// one through another producer does not, and the caller's graph keeps its edges.
func TestMaskedChains(t *testing.T) {
	g := twnm.New()
	for _, a := range []twnm.API{
		{Name: "A", Description: "Finds a place.", Inputs: []twnm.Param{{Name: "query", Type: "string", Required: true}},
			Outputs: []twnm.Param{{Name: "place_ref", Type: "string"}}},
		{Name: "B", Description: "Finds a person.", Inputs: []twnm.Param{{Name: "name", Type: "string", Required: true}},
			Outputs: []twnm.Param{{Name: "person_ref", Type: "string"}}},
		{Name: "C", Description: "Weather at a place.", Inputs: []twnm.Param{{Name: "location_code", Type: "string", Required: true}},
			Outputs: []twnm.Param{{Name: "temperature", Type: "number"}}},
	} {
		_, err := g.AddAPI(a)
		require.NoError(t, err)
	}
	x, _ := g.ParamOf("A", "place_ref", false)
	y, _ := g.ParamOf("B", "person_ref", false)
	z, _ := g.ParamOf("C", "location_code", true)
	g.AddEdge(twnm.Feeds, x, z).Confidence = 1
	held := hgtdata.Pair{Kind: twnm.Feeds, From: x, To: z}
	ctx := context.Background()

	rate, n, err := maskedChains(ctx, g, []producerPick{{feeds: held, best: x, p: 0.9}})
	require.NoError(t, err)
	assert.Equal(t, 1, n, "one API requires the input")
	assert.Equal(t, 1.0, rate, "the plan runs through A, which outputs the held-out producer")

	rate, n, err = maskedChains(ctx, g, []producerPick{{feeds: held, best: y, p: 0.9}})
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Equal(t, 0.0, rate, "the plan runs through B")

	_, ok := g.Edge(twnm.Feeds, x, z)
	assert.True(t, ok, "the held-out edge stays in the caller's graph")
	_, ok = g.Edge(twnm.Feeds, y, z)
	assert.False(t, ok, "the predicted link is not added to it")

	cID, _ := g.APIByName("C")
	g.Node(cID).Status = twnm.Pruned
	rate, n, err = maskedChains(ctx, g, []producerPick{{feeds: held, best: x, p: 0.9}})
	require.NoError(t, err, "a pruned consumer is searched from by none")
	assert.Zero(t, n)
	assert.True(t, math.IsNaN(rate))
	g.Node(cID).Status = twnm.Active

	rate, n, err = maskedChains(ctx, g, nil)
	require.NoError(t, err)
	assert.True(t, math.IsNaN(rate))
	assert.Zero(t, n)
}
