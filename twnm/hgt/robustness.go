package hgt

import (
	"context"
	"fmt"

	"github.com/naviagent/navi/twnm"
)

// RobustnessPoint is the missing-dependency experiment at one masking ratio.
type RobustnessPoint struct {
	// Rho is the fraction of the predicted edges masked: hidden from message passing and from
	// training, then scored against as many negatives.
	Rho float64
	// AUC is the model's AUC on recovering the masked edges; BaselineAUC the baselines' on the
	// same pairs and graph.
	AUC         float64
	BaselineAUC map[string]float64
	// Masked and Train count the masked edges and those left to train on (validation apart).
	Masked, Train int
	Epochs        int
}

// Robustness runs GTool's missing-dependency experiment: for each ratio ρ it masks a fraction
// ρ of g's predicted edges (per kind, seeded), trains on the rest (ValFrac of the remainder
// held out for early stopping) and measures how well the masked edges are recovered. Each
// ratio is one full training run. point, when not nil, is called after each ratio.
func Robustness(ctx context.Context, g *twnm.Graph, cfg Config, rhos []float64, point func(RobustnessPoint)) ([]RobustnessPoint, error) {
	cfg = withDefaults(cfg)
	var out []RobustnessPoint
	for _, rho := range rhos {
		if !(rho > 0 && rho < 1) {
			return out, fmt.Errorf("hgt: robustness: masking ratio %v must be in (0, 1)", rho)
		}
		_, met, err := train(ctx, g, cfg, cfg.ValFrac*(1-rho), rho, nil)
		if err != nil {
			return out, fmt.Errorf("hgt: robustness at ρ = %v: %w", rho, err)
		}
		p := RobustnessPoint{Rho: rho, AUC: met.AUC, BaselineAUC: met.BaselineAUC, Masked: met.TestEdges, Train: met.TrainEdges, Epochs: met.Epochs}
		out = append(out, p)
		if point != nil {
			point(p)
		}
	}
	return out, nil
}
