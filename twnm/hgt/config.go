package hgt

import (
	"fmt"
	"math"

	"github.com/naviagent/navi/twnm/hgt/hgtdata"
)

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
	// Targets chooses the positives: hgtdata.Behavioural (THEN and FEEDS edges) or
	// hgtdata.WithDerived (plus THEN candidates the catalog structure implies). Zero picks
	// hgtdata.AutoMode: derived candidates are added only when the graph has fewer than
	// hgtdata.AutoDeriveBelow behavioural edges.
	Targets hgtdata.Mode
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

// withDefaults fills the optional fields.
func (c Config) withDefaults() Config {
	if c.Margin == 0 {
		c.Margin = 1
	}
	if c.SupervisionFrac == 0 {
		c.SupervisionFrac = 0.5
	}
	return c
}

// validate reports the first setting out of range.
func (c Config) validate() error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case c.Hidden <= 0 || c.Heads <= 0 || c.Hidden%c.Heads != 0:
		return fmt.Errorf("hidden width %d must be a positive multiple of the %d heads", c.Hidden, c.Heads)
	case c.Layers < 0:
		return fmt.Errorf("layers %d must not be negative", c.Layers)
	case c.Negatives <= 0:
		return fmt.Errorf("negatives per positive %d must be positive", c.Negatives)
	case !(c.LR > 0) || !finite(c.LR):
		return fmt.Errorf("learning rate %v must be positive", c.LR)
	case c.WeightDecay < 0 || !finite(c.WeightDecay):
		return fmt.Errorf("weight decay %v must not be negative", c.WeightDecay)
	case c.Mu0 < 0 || c.Mu0 > 1 || c.Gamma <= 0 || c.Gamma > 1:
		return fmt.Errorf("curriculum μ0 %v must be in [0, 1] and γ %v in (0, 1]", c.Mu0, c.Gamma)
	case c.Epochs <= 0 || c.Patience < 0:
		return fmt.Errorf("epochs %d must be positive and patience %d not negative", c.Epochs, c.Patience)
	case c.ValFrac < 0 || c.TestFrac < 0 || c.ValFrac+c.TestFrac >= 1:
		return fmt.Errorf("validation fraction %v and test fraction %v must be non-negative and sum below 1", c.ValFrac, c.TestFrac)
	case !(c.Margin > 0) || !finite(c.Margin):
		return fmt.Errorf("margin %v must be positive", c.Margin)
	case c.SupervisionFrac <= 0 || c.SupervisionFrac > 1:
		return fmt.Errorf("supervision fraction %v must be in (0, 1]", c.SupervisionFrac)
	case c.Targets != 0 && c.Targets != hgtdata.Behavioural && c.Targets != hgtdata.WithDerived:
		return fmt.Errorf("targets %v: want hgtdata.Behavioural, hgtdata.WithDerived or 0 (automatic)", c.Targets)
	}
	return nil
}
