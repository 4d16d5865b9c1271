package hgtspec

import "fmt"

// Config sets the model's shape and its training.
type Config struct {
	Hidden    int // width of every node representation; a multiple of Heads
	Heads     int // attention heads per HGT layer (8 in the paper)
	Layers    int // HGT layers (2 in the paper: a 2-hop neighbourhood)
	Negatives int // k, negatives per positive (Eq. 8–10)

	LR, WeightDecay float64 // Adam's step size and decoupled weight decay
	// Mu0 and Gamma set the curriculum μ_t = Mu0·Gamma^t (Eq. 11–12): the weight of the
	// soft-label cross-entropy at epoch t, the margin loss taking 1 − μ_t.
	Mu0, Gamma float64

	Epochs   int // at most this many epochs (one full-graph step each)
	Patience int // stop after this many epochs without a better validation AUC; 0 never stops early

	ValFrac, TestFrac float64 // fractions of the predicted edges held out, per edge kind
	Seed              uint64  // same seed, same graph, same machine: the same model bit for bit

	// The fields below are optional: their zero value selects the default.

	// Margin is m_0, the base of the adaptive margin m_uv = m_0·(1 + w̃_uv) between a
	// positive's score and its negatives' (scores are logits). Default 1.
	Margin float64
	// SupervisionFrac is the fraction of training edges hidden from message passing at each
	// epoch and used as that epoch's positives, so that the model learns to score edges it
	// cannot see, as it must for validation and test edges. Default 0.5.
	SupervisionFrac float64
	// Targets chooses the positives: Behavioural (THEN and FEEDS edges), WithDerived (plus
	// THEN candidates the catalog structure implies) or Observed (only the edges executions
	// showed). Zero picks
	// AutoMode: derived candidates are added only when the graph has fewer than
	// AutoDeriveBelow behavioural edges.
	Targets Mode
}

// DefaultConfig is the paper's architecture (2 layers, 8 heads) with training settings that
// converge on the benchmark graphs.
func DefaultConfig() Config {
	return Config{
		Hidden: 64, Heads: 8, Layers: 2, Negatives: 5,
		LR: 0.005, WeightDecay: 1e-4, Mu0: 1, Gamma: 0.97,
		Epochs: 200, Patience: 20,
		ValFrac: 0.1, TestFrac: 0.1, Seed: 1,
		Margin: 1, SupervisionFrac: 0.5,
	}
}

// Mode says which positives the training predicts (hgtdata.Targets).
type Mode uint8

const (
	// Behavioural predicts the THEN and FEEDS edges only.
	Behavioural Mode = iota + 1
	// WithDerived adds derived THEN candidates and hides the structure that implies any
	// THEN pair while the pair is evaluated.
	WithDerived
	// Observed predicts only the THEN and FEEDS edges that executions showed (a count above
	// zero): flows seen passing a value, not the links the catalog's names suggest, which a
	// model would otherwise learn to copy.
	Observed
)

// Modes lists every mode, in the order of their values.
var Modes = []Mode{Behavioural, WithDerived, Observed}

func (m Mode) String() string {
	switch m {
	case Behavioural:
		return "behavioural"
	case WithDerived:
		return "behavioural+derived"
	case Observed:
		return "observed"
	}
	return fmt.Sprintf("Mode(%d)", m)
}
