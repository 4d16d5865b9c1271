package contract

import (
	"github.com/naviagent/navi/twnm/hgt/hgtspec"
)

// PropagateResult says how many behavioural edges Eq. 14 changed.
type PropagateResult struct {
	Edges   int `json:"edges"`   // behavioural edges in the graph
	Updated int `json:"updated"` // whose weight changed and was written back
}

// TrainInput names the model version to train and its settings.
type TrainInput struct {
	Version string         `json:"version"`
	Config  hgtspec.Config `json:"config"`
}

// TrainResult is a trained and saved model.
type TrainResult struct {
	Version string          `json:"version"`
	Metrics hgtspec.Metrics `json:"metrics"`
	Nodes   int             `json:"nodes"`
	Edges   int             `json:"edges"`
	// Attempt is the activity attempt that trained it; above 1 the training restarted after
	// a crash or a timeout.
	Attempt int32  `json:"attempt"`
	File    string `json:"file,omitempty"` // the model file, when the worker keeps one
}

// EvaluateResult compares a trained model with the active one.
type EvaluateResult struct {
	Version      string  `json:"version"`
	ValAUC       float64 `json:"val_auc"`
	Active       string  `json:"active,omitempty"`
	ActiveValAUC float64 `json:"active_val_auc,omitempty"`
	// FeedsHit1 and ActiveFeedsHit1 are the two models' hgtspec.Metrics.FeedsHit1 on their
	// held-out test split (0 where a model has none): how often the model ranks an input's
	// observed producer first, the output a plan would bind.
	FeedsHit1       float64 `json:"feeds_hit1,omitempty"`
	ActiveFeedsHit1 float64 `json:"active_feeds_hit1,omitempty"`
	// MaskedChains and ActiveMaskedChains are the two models' hgtspec.Metrics.MaskedChains
	// (0 where a model has none): the share of held-out flows a plan recovers through the
	// model's predictions.
	MaskedChains       float64 `json:"masked_chains,omitempty"`
	ActiveMaskedChains float64 `json:"active_masked_chains,omitempty"`
	// NotWorse is set when the model may replace the active one: no model is active, or its
	// validation AUC is at least the active one's and, where both models measured it, so is
	// its masked-chain figure (between models saved before it, its FEEDS hit@1).
	NotWorse bool   `json:"not_worse"`
	Reason   string `json:"reason"`
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

// Error types of retraining failures no retry can fix.
const (
	ErrTypeModelLayout   = "navi.ModelLayoutMismatch"
	ErrTypeTrainingInput = "navi.TrainingInput"
)
