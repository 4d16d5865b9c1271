package activities

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/hgt"
	"github.com/naviagent/navi/twnm/hgt/hgtspec"
)

// The activity's input and results are the contract's: the workflows use them without
// linking this package.
type (
	PropagateResult = contract.PropagateResult
	TrainInput      = contract.TrainInput
	TrainResult     = contract.TrainResult
	EvaluateResult  = contract.EvaluateResult
	PredictInput    = contract.PredictInput
	PredictResult   = contract.PredictResult
)

// Kept under their old names; see package contract.
const (
	ErrTypeModelLayout   = contract.ErrTypeModelLayout
	ErrTypeTrainingInput = contract.ErrTypeTrainingInput
)

// trainHeartbeat is how often training heartbeats besides once per epoch, so that a long
// epoch does not look like a dead worker.
const trainHeartbeat = 10 * time.Second

// PropagateWeights applies edge attribute propagation (Eq. 14) to the whole graph from its
// sliding windows and writes the changed weights back, so search and training see them.
func (a *Activities) PropagateWeights(ctx context.Context) (PropagateResult, error) {
	store, err := a.models()
	if err != nil {
		return PropagateResult{}, err
	}
	g, err := store.Snapshot(ctx)
	if err != nil {
		return PropagateResult{}, graphError(err)
	}
	before := map[*twnm.Edge]float64{}
	for _, e := range g.Edges() {
		if e.Kind.Behavioural() {
			before[e] = e.Weight
		}
	}
	if err := g.Propagate(time.Now(), twnm.DefaultPropagation); err != nil {
		return PropagateResult{}, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeInvalidInput, err)
	}
	var ws []neo4j.WeightUpdate
	for e, w := range before {
		if e.Weight != w {
			ws = append(ws, neo4j.WeightUpdate{Kind: e.Kind, From: g.Node(e.From).Name, To: g.Node(e.To).Name, Weight: e.Weight})
		}
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i].From+"\x00"+ws[i].To < ws[j].From+"\x00"+ws[j].To })
	n, err := store.WriteWeights(ctx, ws)
	if err != nil {
		return PropagateResult{}, graphError(err)
	}
	return PropagateResult{Edges: len(before), Updated: n}, nil
}

// TrainModel trains the HGT on a snapshot of the graph, heartbeating its progress every epoch,
// and saves the model in the graph store (and in ModelDir when set) under in.Version. A
// worker that dies mid-training loses nothing but time: the retried attempt trains again from
// the start with the same seed and saves the same version.
func (a *Activities) TrainModel(ctx context.Context, in TrainInput) (TrainResult, error) {
	store, err := a.models()
	if err != nil {
		return TrainResult{}, err
	}
	info := activity.GetInfo(ctx)
	log := activity.GetLogger(ctx)
	if info.Attempt > 1 {
		log.Info("restarting training after an interrupted attempt", "version", in.Version, "attempt", info.Attempt)
	}
	g, err := store.Snapshot(ctx)
	if err != nil {
		return TrainResult{}, graphError(err)
	}
	var mu sync.Mutex
	var last hgt.Progress // the latest epoch's progress, which every heartbeat carries
	activity.RecordHeartbeat(ctx, last)
	stop := beatEvery(ctx, trainHeartbeat, func() {
		mu.Lock()
		p := last
		mu.Unlock()
		activity.RecordHeartbeat(ctx, p)
	})
	defer stop()
	model, metrics, err := hgt.Train(ctx, g, in.Config, func(p hgt.Progress) {
		mu.Lock()
		last = p
		mu.Unlock()
		activity.RecordHeartbeat(ctx, p)
		log.Info("training", "version", in.Version, "epoch", p.Epoch, "of", p.Epochs, "loss", p.Loss, "valAUC", p.ValAUC)
	})
	if err != nil {
		if ctx.Err() != nil {
			return TrainResult{}, fmt.Errorf("train %s: %w", in.Version, ctx.Err())
		}
		return TrainResult{}, temporal.NewNonRetryableApplicationError(fmt.Sprintf("train %s: %v", in.Version, err), ErrTypeTrainingInput, err)
	}
	model.SetVersion(in.Version)
	var buf bytes.Buffer
	if err := model.Save(&buf); err != nil {
		return TrainResult{}, fmt.Errorf("encode model %s: %w", in.Version, err)
	}
	mj, err := json.Marshal(metrics)
	if err != nil {
		return TrainResult{}, fmt.Errorf("encode metrics of %s: %w", in.Version, err)
	}
	if err := store.SaveModel(ctx, neo4j.ModelRecord{Version: in.Version, ValAUC: metrics.ValAUC, Metrics: string(mj), Data: buf.Bytes()}); err != nil {
		return TrainResult{}, graphError(err)
	}
	res := TrainResult{Version: in.Version, Metrics: metrics, Nodes: g.Len(), Edges: len(g.Edges()), Attempt: info.Attempt}
	if a.ModelDir != "" {
		res.File = filepath.Join(a.ModelDir, in.Version+".hgt")
		if err := os.MkdirAll(a.ModelDir, 0o755); err != nil {
			return TrainResult{}, fmt.Errorf("model dir: %w", err)
		}
		if err := os.WriteFile(res.File, buf.Bytes(), 0o644); err != nil {
			return TrainResult{}, fmt.Errorf("write model file: %w", err)
		}
	}
	log.Info("trained", "version", in.Version, "valAUC", metrics.ValAUC, "testAUC", metrics.AUC, "epochs", metrics.Epochs)
	return res, nil
}

// EvaluateModel compares the validation AUC of version with the active model's, and where both
// measured it, the share of their held-out flows that a plan recovers through their predictions
// (hgtspec.Metrics.MaskedChains; between models saved before it, their FEEDS hit@1): a model
// that ranks edges well but plans worse is not activated.
func (a *Activities) EvaluateModel(ctx context.Context, version string) (EvaluateResult, error) {
	store, err := a.models()
	if err != nil {
		return EvaluateResult{}, err
	}
	rec, err := store.LoadModel(ctx, version, false)
	if err != nil {
		return EvaluateResult{}, modelError(err)
	}
	res := EvaluateResult{Version: version, ValAUC: finite(rec.ValAUC)}
	active, err := store.ActiveModel(ctx)
	if err != nil {
		return EvaluateResult{}, graphError(err)
	}
	if active == "" || active == version {
		res.NotWorse, res.Reason = true, "no model is active"
		return res, nil
	}
	cur, err := store.LoadModel(ctx, active, false)
	if errors.Is(err, neo4j.ErrNoModel) {
		res.Active, res.NotWorse, res.Reason = active, true, fmt.Sprintf("the active model %s has no saved metrics", active)
		return res, nil
	}
	if err != nil {
		return EvaluateResult{}, graphError(err)
	}
	res.Active, res.ActiveValAUC = active, finite(cur.ValAUC)
	switch {
	case math.IsNaN(rec.ValAUC):
		// Too few edges to validate on: no evidence that it is not worse.
		res.Reason = fmt.Sprintf("%s has no validation AUC (too few edges to validate); the active %s stays", version, active)
	case math.IsNaN(cur.ValAUC):
		res.NotWorse, res.Reason = true, fmt.Sprintf("the active %s has no validation AUC", active)
	default:
		res.NotWorse = rec.ValAUC >= cur.ValAUC
		verdict := "not worse than"
		if !res.NotWorse {
			verdict = "worse than"
		}
		res.Reason = fmt.Sprintf("validation AUC %.4f is %s the active %s's %.4f", rec.ValAUC, verdict, active, cur.ValAUC)
	}
	// The plans that recover held-out flows decide where both models measured them; between
	// models saved before that figure, the producers they rank first.
	mine, theirs := savedMetrics(rec), savedMetrics(cur)
	res.FeedsHit1, res.ActiveFeedsHit1 = finite(feedsHit1(mine)), finite(feedsHit1(theirs))
	res.MaskedChains, res.ActiveMaskedChains = finite(maskedChains(mine)), finite(maskedChains(theirs))
	for _, f := range []struct {
		name     string
		new, cur float64
	}{
		{"masked chains", maskedChains(mine), maskedChains(theirs)},
		{"FEEDS hit@1", feedsHit1(mine), feedsHit1(theirs)},
	} {
		if math.IsNaN(f.new) || math.IsNaN(f.cur) {
			continue
		}
		verdict := "not worse than"
		if f.new < f.cur {
			verdict, res.NotWorse = "worse than", false
		}
		res.Reason += fmt.Sprintf("; %s %.3f is %s the active's %.3f", f.name, f.new, verdict, f.cur)
		break
	}
	return res, nil
}

// savedMetrics decodes a saved model's metrics; a model saved without them has none (zero).
func savedMetrics(r neo4j.ModelRecord) hgtspec.Metrics {
	var m hgtspec.Metrics
	if json.Unmarshal([]byte(r.Metrics), &m) != nil {
		return hgtspec.Metrics{}
	}
	return m
}

// feedsHit1 is a model's FEEDS hit@1, NaN where its metrics have none (a test split without
// FEEDS edges, or a model trained before the figure existed).
func feedsHit1(m hgtspec.Metrics) float64 {
	if m.FeedsRanked == 0 {
		return math.NaN()
	}
	return m.FeedsHit1
}

// maskedChains is the share of held-out flows a plan recovers through a model's predictions
// (hgtspec.Metrics.MaskedChains), NaN where its metrics have none.
func maskedChains(m hgtspec.Metrics) float64 {
	if m.MaskedSearches == 0 {
		return math.NaN()
	}
	return m.MaskedChains
}

// finite replaces NaN (a metric with nothing to measure) by 0, which JSON can carry.
func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// WriteModelPredictions loads a saved model, predicts the weight of every behavioural edge
// and the likeliest missing edges on a fresh snapshot, and writes them under the model's
// version: invisible to search until the version is activated.
func (a *Activities) WriteModelPredictions(ctx context.Context, in PredictInput) (PredictResult, error) {
	store, err := a.models()
	if err != nil {
		return PredictResult{}, err
	}
	rec, err := store.LoadModel(ctx, in.Version, true)
	if err != nil {
		return PredictResult{}, modelError(err)
	}
	model, err := hgt.Load(bytes.NewReader(rec.Data))
	if err != nil {
		return PredictResult{}, temporal.NewNonRetryableApplicationError(fmt.Sprintf("load model %s: %v", in.Version, err), ErrTypeModelLayout, err)
	}
	g, err := store.Snapshot(ctx)
	if err != nil {
		return PredictResult{}, graphError(err)
	}
	if err := model.CheckLayout(g); err != nil {
		return PredictResult{}, temporal.NewNonRetryableApplicationError(fmt.Sprintf("model %s: %v", in.Version, err), ErrTypeModelLayout, err)
	}
	activity.RecordHeartbeat(ctx, "predicting")
	threshold := in.MissingThreshold
	if threshold <= 0 {
		threshold = model.Metrics().Threshold
	}
	preds, err := model.Predict(ctx, g, threshold, in.MaxMissing)
	if err != nil {
		return PredictResult{}, fmt.Errorf("predict with %s: %w", in.Version, err)
	}
	out := make([]neo4j.Prediction, 0, len(preds))
	var res PredictResult
	for _, p := range preds {
		if p.Missing && p.Kind == twnm.Feeds && !in.MissingFeeds {
			continue
		}
		out = append(out, neo4j.Prediction{Kind: p.Kind, From: p.From, To: p.To, Weight: p.Weight})
		if p.Missing {
			res.Missing++
		}
	}
	res.Predicted = len(out)
	activity.RecordHeartbeat(ctx, "writing")
	if res.Written, err = store.WritePredictions(ctx, in.Version, out); err != nil {
		return res, graphError(err)
	}
	return res, nil
}

// ActivateModel makes version the model whose predicted weights search reads.
func (a *Activities) ActivateModel(ctx context.Context, version string) error {
	store, err := a.models()
	if err != nil {
		return err
	}
	if err := store.ActivateModel(ctx, version); err != nil {
		return graphError(err)
	}
	return nil
}

// modelError marks a missing model as non-retryable.
func modelError(err error) error {
	if errors.Is(err, neo4j.ErrNoModel) {
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeInvalidInput, err)
	}
	return graphError(err)
}
