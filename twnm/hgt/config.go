package hgt

import (
	"fmt"
	"math"
	"slices"

	"github.com/naviagent/navi/twnm/hgt/hgtdata"
)

// Config sets the model's shape and its training (hgtdata.Config, where callers that only
// start a training read it without linking the model's numeric code).
type Config = hgtdata.Config

// DefaultConfig is hgtdata.DefaultConfig: the paper's architecture (2 layers, 8 heads) with
// training settings that converge on the benchmark graphs.
func DefaultConfig() Config { return hgtdata.DefaultConfig() }

// withDefaults fills the optional fields of c.
func withDefaults(c Config) Config {
	if c.Margin == 0 {
		c.Margin = 1
	}
	if c.SupervisionFrac == 0 {
		c.SupervisionFrac = 0.5
	}
	return c
}

// validate reports the first setting of c out of range.
func validate(c Config) error {
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
	case c.Targets != 0 && !slices.Contains(hgtdata.Modes, c.Targets):
		return fmt.Errorf("targets %v: want hgtdata.Behavioural, hgtdata.WithDerived, hgtdata.Observed or 0 (automatic)", c.Targets)
	}
	return nil
}
