package contract

import (
	"github.com/naviagent/navi/toolspec"
)

// PruneProbeInput configures targeted pruning and probing.
type PruneProbeInput struct {
	// Prune is Eq. 13's settings; zero uses twnm.DefaultPrune.
	Prune toolspec.PruneOptions `json:"prune"`
	// MaxProbes bounds the pruned APIs probed in one round; 0 means 50.
	MaxProbes int `json:"max_probes"`
	// Scope, when set, limits pruning and probing to the APIs whose names start with it
	// (one tenant's catalog, or one test's APIs in a shared graph).
	Scope string `json:"scope,omitempty"`
}

// PruneProbeResult lists what changed.
type PruneProbeResult struct {
	Pruned      []string `json:"pruned,omitempty"`      // active APIs pruned now (Eq. 13)
	Reactivated []string `json:"reactivated,omitempty"` // pruned APIs whose probe answered
	StillDown   []string `json:"still_down,omitempty"`  // pruned APIs whose probe did not
}

// ErrTypeNoModelStore fails the retraining activities of a worker without a model store.
const ErrTypeNoModelStore = "navi.NoModelStore"
