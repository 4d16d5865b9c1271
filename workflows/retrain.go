package workflows

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/twnm/hgt/hgtdata"
)

// Retraining defaults.
const (
	// DefaultMaxMissing bounds the predicted missing edges written (above the model's own
	// threshold unless the request gives one).
	DefaultMaxMissing = 1000
	// trainTimeout bounds one training attempt; the heartbeat timeout finds a dead worker
	// long before.
	trainTimeout   = 2 * time.Hour
	trainHeartbeat = 2 * time.Minute
)

// RetrainRequest starts one retraining. Zero fields take the defaults.
type RetrainRequest struct {
	// Config is the HGT's settings; nil means hgtdata.DefaultConfig().
	Config *hgtdata.Config `json:"config,omitempty"`
	// TrainQueue is where training and prediction run; empty means DefaultTrainQueue.
	TrainQueue       string  `json:"train_queue,omitempty"`
	MissingThreshold float64 `json:"missing_threshold,omitempty"`
	MaxMissing       int     `json:"max_missing,omitempty"`
	MaxProbes        int     `json:"max_probes,omitempty"`
	// MissingFeeds also writes predicted FEEDS edges the graph lacks (see
	// contract.PredictInput); predicted THEN edges are always written.
	MissingFeeds bool `json:"missing_feeds,omitempty"`
	// NoActivate trains, evaluates and writes the predictions but leaves the active model as
	// it is: a shadow run whose version ops can inspect and activate by hand.
	NoActivate bool `json:"no_activate,omitempty"`
	// PruneScope limits pruning and probing to APIs whose names start with it; empty is all.
	PruneScope string `json:"prune_scope,omitempty"`
	// Version names the model; empty means "hgt-<start time>".
	Version string `json:"version,omitempty"`
	// TrainHeartbeat is how long training may go without a heartbeat before its worker is
	// taken for dead and the attempt is retried elsewhere; 0 means 2 minutes.
	TrainHeartbeat time.Duration `json:"train_heartbeat,omitempty"`
}

// RetrainResult says what a retraining did.
type RetrainResult struct {
	Version    string                    `json:"version"`
	Train      contract.TrainResult      `json:"train"`
	Evaluation contract.EvaluateResult   `json:"evaluation"`
	Activated  bool                      `json:"activated"`
	Propagated contract.PropagateResult  `json:"propagated"`
	Predicted  contract.PredictResult    `json:"predicted"`
	Pruning    contract.PruneProbeResult `json:"pruning"`
}

// RetrainWorkflow keeps the tool graph learning (design section 6): propagate edge weights
// (Eq. 14) → train the HGT on a snapshot (heartbeating, on its own task queue) → evaluate
// against the active model → write its predicted weights and missing edges → prune and probe
// APIs (Eq. 13) → activate the new version only if its validation AUC is not worse. A
// Temporal Schedule runs it (`navi schedule retrain --every 1h`).
func RetrainWorkflow(ctx workflow.Context, req RetrainRequest) (RetrainResult, error) {
	cfg := hgtdata.DefaultConfig()
	if req.Config != nil {
		cfg = *req.Config
	}
	if req.TrainQueue == "" {
		req.TrainQueue = DefaultTrainQueue
	}
	if req.MaxMissing == 0 {
		req.MaxMissing = DefaultMaxMissing
	}
	if req.TrainHeartbeat <= 0 {
		req.TrainHeartbeat = trainHeartbeat
	}
	version := req.Version
	if version == "" {
		version = "hgt-" + workflow.Now(ctx).UTC().Format("20060102-150405")
	}
	res := RetrainResult{Version: version}
	activity := activityNamer(ctx)
	graph := func(summary string) workflow.Context {
		return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout: 10 * time.Minute, HeartbeatTimeout: time.Minute, RetryPolicy: graphRetry(), Summary: summary,
		})
	}
	train := func(summary string) workflow.Context {
		return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			TaskQueue: req.TrainQueue, StartToCloseTimeout: trainTimeout, HeartbeatTimeout: req.TrainHeartbeat, Summary: summary,
			RetryPolicy: &temporal.RetryPolicy{InitialInterval: 5 * time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute, MaximumAttempts: 3,
				NonRetryableErrorTypes: contract.ErrorTypes(contract.ErrTypeTrainingInput, contract.ErrTypeModelLayout, contract.ErrTypeNoModelStore, contract.ErrTypeInvalidInput)},
		})
	}

	if err := workflow.ExecuteActivity(graph("propagate edge weights (Eq. 14)"), activity(contract.ActivityPropagateWeights)).Get(ctx, &res.Propagated); err != nil {
		return res, fmt.Errorf("propagate: %w", err)
	}
	if err := workflow.ExecuteActivity(train(fmt.Sprintf("train %s (%d epochs at most, seed %d)", version, cfg.Epochs, cfg.Seed)),
		activity(contract.ActivityTrainModel), contract.TrainInput{Version: version, Config: cfg}).Get(ctx, &res.Train); err != nil {
		return res, fmt.Errorf("train %s: %w", version, err)
	}
	if err := workflow.ExecuteActivity(graph("evaluate "+version+" against the active model"),
		activity(contract.ActivityEvaluateModel), version).Get(ctx, &res.Evaluation); err != nil {
		return res, fmt.Errorf("evaluate %s: %w", version, err)
	}
	if res.Evaluation.NotWorse {
		if err := workflow.ExecuteActivity(train("write predictions of "+version), activity(contract.ActivityWriteModelPredictions),
			contract.PredictInput{Version: version, MissingThreshold: req.MissingThreshold, MaxMissing: req.MaxMissing, MissingFeeds: req.MissingFeeds}).Get(ctx, &res.Predicted); err != nil {
			return res, fmt.Errorf("write predictions of %s: %w", version, err)
		}
	}
	if err := workflow.ExecuteActivity(graph("prune and probe APIs (Eq. 13)"), activity(contract.ActivityPruneAndProbe),
		contract.PruneProbeInput{MaxProbes: req.MaxProbes, Scope: req.PruneScope}).Get(ctx, &res.Pruning); err != nil {
		return res, fmt.Errorf("prune and probe: %w", err)
	}
	if res.Evaluation.NotWorse && !req.NoActivate {
		if err := workflow.ExecuteActivity(graph("activate "+version+": "+res.Evaluation.Reason),
			activity(contract.ActivityActivateModel), version).Get(ctx, nil); err != nil {
			return res, fmt.Errorf("activate %s: %w", version, err)
		}
		res.Activated = true
	}
	workflow.GetLogger(ctx).Info("retrained", "version", version, "activated", res.Activated, "reason", res.Evaluation.Reason)
	return res, nil
}
