package contract

import (
	"github.com/naviagent/navi/toolspec"
)

// RecombineInput asks for a repair of a plan whose step FailedStep failed for good.
type RecombineInput struct {
	Plan       toolspec.Plan     `json:"plan"`
	FailedStep int               `json:"failed_step"`
	Strategy   string            `json:"strategy"` // twnm.StrategySubstitution, ...UpstreamReroute or ...SubgraphSwitch
	Known      map[string]string `json:"known,omitempty"`
	// Exclude names every API that failed in this run; none of them may come back.
	Exclude []string `json:"exclude,omitempty"`
	Search  string   `json:"search,omitempty"`
}

// RecombineResult is the repaired plan, or Found false with the reason none was found.
type RecombineResult struct {
	Found    bool                    `json:"found"`
	Strategy string                  `json:"strategy"`
	Reason   string                  `json:"reason"`
	Plan     toolspec.Plan           `json:"plan"`
	APIs     map[string]toolspec.API `json:"apis,omitempty"`
}
