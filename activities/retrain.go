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

	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/hgt"
)

// Error types of retraining failures no retry can fix.
const (
	ErrTypeModelLayout   = "ModelLayoutMismatch"
	ErrTypeTrainingInput = "TrainingInput"
)

// trainHeartbeat is how often training heartbeats besides once per epoch, so that a long
// epoch does not look like a dead worker.
const trainHeartbeat = 10 * time.Second

// PropagateResult says how many behavioural edges Eq. 14 changed.
type PropagateResult struct {
	Edges   int `json:"edges"`   // behavioural edges in the graph
	Updated int `json:"updated"` // whose weight changed and was written back
}

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

// TrainInput names the model version to train and its settings.
type TrainInput struct {
	Version string     `json:"version"`
	Config  hgt.Config `json:"config"`
}

// TrainResult is a trained and saved model.
type TrainResult struct {
	Version string      `json:"version"`
	Metrics hgt.Metrics `json:"metrics"`
	Nodes   int         `json:"nodes"`
	Edges   int         `json:"edges"`
	// Attempt is the activity attempt that trained it; above 1 the training restarted after
	// a crash or a timeout.
	Attempt int32  `json:"attempt"`
	File    string `json:"file,omitempty"` // the model file, when the worker keeps one
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

// EvaluateResult compares a trained model with the active one.
type EvaluateResult struct {
	Version      string  `json:"version"`
	ValAUC       float64 `json:"val_auc"`
	Active       string  `json:"active,omitempty"`
	ActiveValAUC float64 `json:"active_val_auc,omitempty"`
	// NotWorse is set when the model may replace the active one: no model is active, or its
	// validation AUC is at least the active one's.
	NotWorse bool   `json:"not_worse"`
	Reason   string `json:"reason"`
}

// EvaluateModel compares the validation AUC of version with the active model's.
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
	return res, nil
}

// finite replaces NaN (a metric with nothing to measure) by 0, which JSON can carry.
func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// PredictInput asks for a model's predicted weights to be written back.
type PredictInput struct {
	Version string `json:"version"`
	// MissingThreshold and MaxMissing bound the predicted missing edges written; a threshold
	// of 0 uses the model's own decision threshold (Metrics.Threshold), which is on the scale
	// of the statistical weights the model was trained against, not 0.5.
	MissingThreshold float64 `json:"missing_threshold"`
	MaxMissing       int     `json:"max_missing"`
	// MissingFeeds also writes predicted FEEDS edges the graph lacks. Off by default: a
	// predicted FEEDS edge gives search a producer the catalog never declared (an output
	// feeding an input of another name), which a weak model fills with nonsense; a predicted
	// THEN edge only strengthens or weakens producers the structure already allows.
	MissingFeeds bool `json:"missing_feeds,omitempty"`
}

// PredictResult counts what was written.
type PredictResult struct {
	Predicted int `json:"predicted"` // predictions made
	Missing   int `json:"missing"`   // of which for edges the graph did not have
	Written   int `json:"written"`
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
