package hgt

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/hgt/ad"
	"github.com/naviagent/navi/twnm/hgt/hgtdata"
)

// Metrics is how a trained model did (hgtdata.Metrics).
type Metrics = hgtdata.Metrics

// Progress reports one finished epoch.
type Progress struct {
	Epoch, Epochs int     // Epoch counts from 1
	Loss, ValAUC  float64 // ValAUC is NaN when there is no validation split
	Elapsed       time.Duration
}

// MinTargets is the fewest predicted edges Train accepts: fewer leave nothing to measure.
const MinTargets = 5

// clipNorm bounds the gradient's L2 norm per step; the margin loss's hinge can give large
// steps early on.
const clipNorm = 5.0

// Random streams, one per purpose, so that changing one use of randomness (say, the number
// of negatives) does not reshuffle the split.
const (
	streamSplit uint64 = iota + 1
	streamEval
	streamInit
	streamEpoch
	streamFolds
)

func newRand(seed, stream uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, stream)) }

// Train fits a model to g's behavioural edges (see Config.Targets), choosing the parameters
// of the epoch with the best validation AUC, and measures it on the test split. ctx is checked
// between epochs; progress, when not nil, is called after every epoch.
func Train(ctx context.Context, g *twnm.Graph, cfg Config, progress func(Progress)) (*Model, Metrics, error) {
	cfg = withDefaults(cfg)
	m, met, err := train(ctx, g, cfg, cfg.ValFrac, cfg.TestFrac, progress)
	if err != nil {
		return nil, Metrics{}, fmt.Errorf("hgt: train: %w", err)
	}
	return m, met, nil
}

// trainer holds what one training run shares between epochs.
type trainer struct {
	g        *twnm.Graph
	cfg      Config
	mode     hgtdata.Mode
	targets  []hgtdata.Target
	split    hgtdata.Split
	ix       *hgtdata.NodeIndex
	layout   hgtdata.Layout
	net      *network
	sampler  *hgtdata.Sampler
	valNeg   []hgtdata.Pair
	testNeg  []hgtdata.Pair
	valView  *view
	testView *view
	testMG   *hgtdata.MessageGraph
}

func train(ctx context.Context, g *twnm.Graph, cfg Config, valFrac, testFrac float64, progress func(Progress)) (m *Model, met Metrics, err error) {
	start := time.Now()
	if g == nil {
		return nil, met, errors.New("nil graph")
	}
	if err := validate(cfg); err != nil {
		return nil, met, fmt.Errorf("config: %w", err)
	}
	defer func() {
		// The ad package panics on programming errors (shapes, indices); none should reach a
		// caller of this package as a panic.
		if r := recover(); r != nil {
			m, met, err = nil, Metrics{}, fmt.Errorf("internal error: %v", r)
		}
	}()
	tr, err := newTrainer(g, cfg, valFrac, testFrac)
	if err != nil {
		return nil, met, err
	}
	met, err = tr.fit(ctx, progress)
	if err != nil {
		return nil, met, err
	}
	met.TrainTime = time.Since(start)
	m = &Model{cfg: cfg, mode: tr.mode, layout: tr.layout, net: tr.net, metrics: met}
	m.version = fmt.Sprintf("hgt-%d-%s", time.Now().Unix(), m.paramHash())
	return m, met, nil
}

func newTrainer(g *twnm.Graph, cfg Config, valFrac, testFrac float64) (*trainer, error) {
	tr := &trainer{g: g, cfg: cfg, mode: cfg.Targets}
	if tr.mode == 0 {
		tr.mode = hgtdata.AutoMode(g)
	}
	tr.targets = hgtdata.Targets(g, tr.mode)
	if len(tr.targets) < MinTargets {
		return nil, fmt.Errorf("the graph has %d edges to predict (%d THEN and FEEDS edges, mode %s): need at least %d",
			len(tr.targets), hgtdata.CountBehavioural(g), tr.mode, MinTargets)
	}
	var err error
	if tr.split, err = hgtdata.SplitTargets(tr.targets, valFrac, testFrac, newRand(cfg.Seed, streamSplit)); err != nil {
		return nil, err
	}
	if len(tr.split.Train) == 0 {
		return nil, fmt.Errorf("no training edges left of %d after holding out validation and test", len(tr.targets))
	}
	tr.ix = hgtdata.IndexNodes(g)
	tr.sampler = hgtdata.NewSampler(g, tr.targets)
	evalRng := newRand(cfg.Seed, streamEval)
	tr.valNeg = tr.sampler.EvalNegatives(tr.pairs(tr.split.Val), evalRng)
	tr.testNeg = tr.sampler.EvalNegatives(tr.pairs(tr.split.Test), evalRng)

	nEdges := len(g.Edges())
	valMG := hgtdata.NewMessageGraph(g, tr.ix, hgtdata.Hidden(nEdges, tr.targets, tr.split.Val, tr.split.Test))
	if tr.layout, err = hgtdata.FitLayout(g, valMG); err != nil {
		return nil, err
	}
	tr.net = newNetwork(cfg.Hidden, cfg.Heads, cfg.Layers, tr.layout.NumFeatures())
	tr.net.init(newRand(cfg.Seed, streamInit))
	tr.valView = tr.viewOf(valMG)
	tr.testMG = hgtdata.NewMessageGraph(g, tr.ix, hgtdata.Hidden(nEdges, tr.targets, tr.split.Test))
	tr.testView = tr.viewOf(tr.testMG)
	return tr, nil
}

func (tr *trainer) viewOf(mg *hgtdata.MessageGraph) *view {
	return newView(mg, tr.layout.Features(tr.g, mg), tr.layout.NumFeatures(), tr.cfg.Heads)
}

func (tr *trainer) pairs(idx []int) []hgtdata.Pair {
	ps := make([]hgtdata.Pair, len(idx))
	for i, k := range idx {
		ps[i] = tr.targets[k].Pair
	}
	return ps
}

// fit runs the epochs with early stopping, restores the best parameters, and evaluates.
func (tr *trainer) fit(ctx context.Context, progress func(Progress)) (Metrics, error) {
	cfg := tr.cfg
	opt := newAdam(cfg)
	epochRng := newRand(cfg.Seed, streamEpoch)
	valPos := tr.pairs(tr.split.Val)
	best, bestEpoch, since := math.Inf(-1), 0, 0
	var snapshot [][]float64
	start := time.Now()
	epochs := 0
	for epoch := range cfg.Epochs {
		if err := ctx.Err(); err != nil {
			return Metrics{}, fmt.Errorf("epoch %d: %w", epoch+1, err)
		}
		loss := tr.step(epoch, opt, epochRng)
		epochs++
		valAUC := math.NaN()
		if len(valPos) > 0 && len(tr.valNeg) > 0 {
			scores := tr.net.probabilities(tr.valView, slices.Concat(valPos, tr.valNeg))
			valAUC = hgtdata.AUC(scores[:len(valPos)], scores[len(valPos):])
		}
		if progress != nil {
			progress(Progress{Epoch: epoch + 1, Epochs: cfg.Epochs, Loss: loss, ValAUC: valAUC, Elapsed: time.Since(start)})
		}
		if math.IsNaN(loss) || math.IsInf(loss, 0) {
			return Metrics{}, fmt.Errorf("epoch %d: loss is %v; lower the learning rate", epoch+1, loss)
		}
		// Without a validation split every epoch counts as the best: the last one is kept.
		if math.IsNaN(valAUC) || valAUC > best {
			if !math.IsNaN(valAUC) {
				best = valAUC
			}
			bestEpoch, since = epoch+1, 0
			snapshot = tr.net.snapshot(snapshot)
			continue
		}
		since++
		if cfg.Patience > 0 && since >= cfg.Patience {
			break
		}
	}
	elapsed := time.Since(start)
	tr.net.restore(snapshot)

	met := Metrics{
		ValAUC: best, Epochs: epochs, BestEpoch: bestEpoch, EpochTime: elapsed / time.Duration(max(epochs, 1)),
		TrainEdges: len(tr.split.Train), ValEdges: len(tr.split.Val), TestEdges: len(tr.split.Test),
		Targets: tr.mode.String(), Threshold: 0.5,
	}
	if math.IsInf(best, -1) {
		met.ValAUC = math.NaN()
	}
	for _, t := range tr.targets {
		if t.Derived {
			met.DerivedEdges++
		}
	}
	if len(valPos) > 0 && len(tr.valNeg) > 0 {
		scores := tr.net.probabilities(tr.valView, slices.Concat(valPos, tr.valNeg))
		met.Threshold = hgtdata.BestThreshold(scores[:len(valPos)], scores[len(valPos):])
	}
	testPos := tr.pairs(tr.split.Test)
	met.ACC, met.F1, met.AUC = math.NaN(), math.NaN(), math.NaN()
	if len(testPos) > 0 && len(tr.testNeg) > 0 {
		scores := tr.net.probabilities(tr.testView, slices.Concat(testPos, tr.testNeg))
		ps, ns := scores[:len(testPos)], scores[len(testPos):]
		met.AUC = hgtdata.AUC(ps, ns)
		met.ACC = hgtdata.Accuracy(ps, ns, met.Threshold)
		met.F1 = hgtdata.F1(ps, ns, met.Threshold)
		known := make([]hgtdata.Target, 0, len(tr.split.Train)+len(tr.split.Val))
		for _, i := range slices.Concat(tr.split.Train, tr.split.Val) {
			known = append(known, tr.targets[i])
		}
		met.BaselineAUC = hgtdata.BaselineAUCs(tr.g, tr.testMG, known, testPos, tr.testNeg)
	}
	// One ranking of the held-out flows' producers serves both plan figures.
	picks := tr.bestProducers(testPos)
	met.FeedsHit1, met.FeedsRanked = feedsHit1(picks)
	var err error
	if met.MaskedChains, met.MaskedSearches, err = maskedChains(ctx, tr.g, picks); err != nil {
		return Metrics{}, err
	}
	return met, nil
}

// feedsHit1 is Metrics.FeedsHit1 over the picks of bestProducers: for each held-out FEEDS
// edge, whether its producer scores above every other parameter that some API outputs and
// that is no known producer of the same input (a tie is a miss).
func feedsHit1(picks []producerPick) (float64, int) {
	if len(picks) == 0 {
		return math.NaN(), 0
	}
	hits := 0
	for _, pk := range picks {
		if pk.best == pk.feeds.From {
			hits++
		}
	}
	return float64(hits) / float64(len(picks)), len(picks)
}

// producerPick is the model's best producer for the input of one held-out FEEDS edge, with
// its probability.
type producerPick struct {
	feeds hgtdata.Pair
	best  twnm.NodeID
	p     float64
}

// bestProducers ranks, for each FEEDS positive of test, every parameter that some API outputs
// and that is no known producer of the same input (the edge's own producer included), over the
// test view, and picks the best; on a tie another parameter beats the true producer.
func (tr *trainer) bestProducers(test []hgtdata.Pair) []producerPick {
	var feeds []hgtdata.Pair
	for _, q := range test {
		if q.Kind == twnm.Feeds {
			feeds = append(feeds, q)
		}
	}
	if len(feeds) == 0 {
		return nil
	}
	var outputs []twnm.NodeID
	for _, n := range tr.g.Nodes() {
		if n.Kind == twnm.KindParam && len(tr.g.Producers(n.ID)) > 0 {
			outputs = append(outputs, n.ID)
		}
	}
	v := tr.testView
	p := newPass()
	h := tr.net.embed(p, v)
	d := &tr.net.dec[hgtdata.PredictedIndex(twnm.Feeds)]
	proj := p.t.MatMul(h[twnm.KindParam], p.v(d.w)).Value.RawMatrix() // n_param×d
	hp := h[twnm.KindParam].Value.RawMatrix()
	bias := d.b.Value.At(0, 0)
	score := func(from, to twnm.NodeID) float64 { // the logit less the bias, which every pair shares
		a, b := v.ix.Row[from], v.ix.Row[to]
		s := 0.0
		for k := range proj.Cols {
			s += proj.Data[a*proj.Stride+k] * hp.Data[b*hp.Stride+k]
		}
		return s
	}
	picks := make([]producerPick, 0, len(feeds))
	for _, q := range feeds {
		best, top := q.From, score(q.From, q.To)
		for _, o := range outputs {
			if o == q.From || !tr.sampler.IsNegative(hgtdata.Pair{Kind: twnm.Feeds, From: o, To: q.To}) {
				continue
			}
			if s := score(o, q.To); s > top || s == top && best == q.From {
				best, top = o, s
			}
		}
		picks = append(picks, producerPick{feeds: q, best: best, p: sigmoid(top + bias)})
	}
	return picks
}

// requiredInputs names, by canonical name as SearchRequest.Known keys a node, every parameter
// node that some API of g requires.
func requiredInputs(g *twnm.Graph) map[string]string {
	known := map[string]string{}
	for _, id := range g.APIs() {
		for _, e := range g.Inputs(id) {
			if e.Required {
				known[g.Node(e.From).Name] = "stated"
			}
		}
	}
	return known
}

// maskedChains is Metrics.MaskedChains over the picks of bestProducers: g without the
// picks' FEEDS edges, each held-out input linked to the model's best producer for it (a
// predicted link at its probability) in turn, is searched from every API that requires the
// input, every other required input taken as stated (a request gives a search its query:
// requiredInputs); a search is a recovery when its plan reaches an API that outputs the edge's
// true producer. It returns the share of recoveries and the number of searches.
func maskedChains(ctx context.Context, g *twnm.Graph, picks []producerPick) (float64, int, error) {
	if len(picks) == 0 {
		return math.NaN(), 0, nil
	}
	held := map[[2]twnm.NodeID]bool{}
	for _, pk := range picks {
		held[[2]twnm.NodeID{pk.feeds.From, pk.feeds.To}] = true
	}
	masked := g.Without(func(e *twnm.Edge) bool { return e.Kind == twnm.Feeds && held[[2]twnm.NodeID{e.From, e.To}] })
	search := twnm.DefaultAlphaBeta()
	known := requiredInputs(masked)
	recovered, searched := 0, 0
	for _, pk := range picks {
		var link *twnm.Edge
		if _, ok := masked.Edge(twnm.Feeds, pk.best, pk.feeds.To); !ok && pk.best != pk.feeds.To {
			link = masked.AddEdge(twnm.Feeds, pk.best, pk.feeds.To)
			link.Predicted, link.HasPrediction = pk.p, true
		}
		truth := g.Producers(pk.feeds.From)
		input := masked.Node(pk.feeds.To).Name // left to the link, not stated
		value, had := known[input]
		delete(known, input)
		for _, e := range masked.Out(pk.feeds.To) {
			if e.Kind != twnm.InputOf || !e.Required || masked.Node(e.To).Status != twnm.Active {
				continue // search plans to usable APIs only: not to one pruned or retired
			}
			sub, err := search.Search(ctx, masked, twnm.SearchRequest{Target: e.To, Known: known})
			if err != nil {
				return 0, 0, fmt.Errorf("masked chains: search from %s: %w", masked.Node(e.To).Name, err)
			}
			searched++
			names := sub.APINames(masked)
			if slices.ContainsFunc(truth, func(api twnm.NodeID) bool { return api != e.To && slices.Contains(names, g.Node(api).Name) }) {
				recovered++
			}
		}
		if had {
			known[input] = value
		}
		if link != nil {
			masked.RemoveEdge(link)
		}
	}
	if searched == 0 {
		return math.NaN(), 0, nil
	}
	return float64(recovered) / float64(searched), searched, nil
}

// newAdam is the optimiser: AdamW with the configured step and decay and the usual moment
// rates.
func newAdam(cfg Config) *ad.Adam {
	return &ad.Adam{LR: cfg.LR, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8, WeightDecay: cfg.WeightDecay}
}

// step runs one epoch: hide a random SupervisionFrac of the training edges (with the
// validation and test edges) from message passing, score them against k negatives each, and
// take one Adam step on L = μ_t·L_CE + (1−μ_t)·L_margin. It returns the loss.
func (tr *trainer) step(epoch int, opt *ad.Adam, rng *rand.Rand) float64 {
	cfg := tr.cfg
	train := slices.Clone(tr.split.Train)
	rng.Shuffle(len(train), func(i, j int) { train[i], train[j] = train[j], train[i] })
	sup := train[:max(1, int(math.Ceil(cfg.SupervisionFrac*float64(len(train)))))]
	slices.Sort(sup)

	hidden := hgtdata.Hidden(len(tr.g.Edges()), tr.targets, tr.split.Val, tr.split.Test, sup)
	v := tr.viewOf(hgtdata.NewMessageGraph(tr.g, tr.ix, hidden))
	pos := make([]hgtdata.Target, len(sup))
	for i, k := range sup {
		pos[i] = tr.targets[k]
	}
	neg, ok, _ := tr.sampler.Negatives(tr.pairs(sup), cfg.Negatives, rng)

	p := newPass()
	h := tr.net.embed(p, v)
	mu := cfg.Mu0 * math.Pow(cfg.Gamma, float64(epoch))
	loss := tr.net.loss(p, v, h, pos, neg, ok, cfg.Negatives, mu, cfg.Margin)
	p.t.Backward(loss)
	clipGradNorm(tr.net.params, clipNorm)
	opt.Step(tr.net.params)
	return loss.Value.At(0, 0)
}

// loss is Eq. 7–12 for positives pos and their negatives (negative j of positive i at
// i·k+j, used where ok): μ·L_CE + (1−μ)·L_margin, each the mean over both predicted kinds
// weighted by their positives.
//
// L_CE is the soft-label binary cross-entropy, w̃ the label of a positive and 0 of a
// negative, positives and negatives weighted equally (the mean of the two means), so that
// k negatives per positive do not bias the probabilities towards 0.
//
// L_margin is the mean over pairs of [m_uv − s(u,v) + s(u',v')]₊ with s the decoder's logit
// and m_uv = m_0·(1 + w̃_uv): an edge with more successful traffic must stand further above
// its negatives (the paper's exact margin form was lost in extraction; this one grows with w̃
// as it says).
func (n *network) loss(p *pass, v *view, h [2]*ad.Node, pos []hgtdata.Target, neg []hgtdata.Pair, ok []bool, k int, mu, m0 float64) *ad.Node {
	t := p.t
	var total *ad.Node
	add := func(x *ad.Node, w float64) {
		x = t.Scale(x, w)
		if total == nil {
			total = x
		} else {
			total = t.Add(total, x)
		}
	}
	nPos := len(pos)
	for _, kind := range hgtdata.Predicted {
		var pf, pt []int
		var labels, margins []float64
		posRow := map[int]int{} // index in pos -> row among this kind's positives
		for i, tg := range pos {
			if tg.Kind != kind {
				continue
			}
			posRow[i] = len(pf)
			pf, pt = append(pf, v.ix.Row[tg.From]), append(pt, v.ix.Row[tg.To])
			labels = append(labels, tg.Label)
			margins = append(margins, m0*(1+tg.Label))
		}
		if len(pf) == 0 {
			continue
		}
		var nf, nt, owner []int
		var negMargins []float64
		for i := range pos {
			r, mine := posRow[i]
			if !mine {
				continue
			}
			for j := range k {
				if !ok[i*k+j] {
					continue
				}
				q := neg[i*k+j]
				nf, nt = append(nf, v.ix.Row[q.From]), append(nt, v.ix.Row[q.To])
				owner = append(owner, r)
				negMargins = append(negMargins, margins[r])
			}
		}
		share := float64(len(pf)) / float64(nPos)
		sPos := n.score(p, h, kind, pf, pt)
		ce := t.BCEWithLogits(sPos, labels, nil)
		if len(nf) == 0 {
			add(ce, mu*share)
			continue
		}
		sNeg := n.score(p, h, kind, nf, nt)
		ce = t.Scale(t.Add(ce, t.BCEWithLogits(sNeg, make([]float64, len(nf)), nil)), 0.5)
		add(ce, mu*share)
		if mu < 1 {
			gap := t.Add(t.Sub(t.Const(column(negMargins)), t.GatherRows(sPos, owner)), sNeg)
			add(t.Mean(t.Hinge(gap)), (1-mu)*share)
		}
	}
	return total
}
