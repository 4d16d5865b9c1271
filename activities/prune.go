package activities

import (
	"context"
	"sort"
	"strings"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/toolcall"
	"github.com/naviagent/navi/twnm"
)

// The activity's input and results are the contract's: the workflows use them without
// linking this package.
type (
	PruneProbeInput  = contract.PruneProbeInput
	PruneProbeResult = contract.PruneProbeResult
)

// Kept under their old names; see package contract.
const (
	ErrTypeNoModelStore = contract.ErrTypeNoModelStore
)

func (a *Activities) models() (ModelStore, error) {
	if a.Models == nil {
		return nil, temporal.NewNonRetryableApplicationError("the worker has no model store", ErrTypeNoModelStore, nil)
	}
	return a.Models, nil
}

// PruneAndProbe prunes the active APIs whose Eq. 13 score passes the threshold, then probes
// the APIs pruned in earlier rounds and reactivates those that answer (PruneAndProbeNow).
func (a *Activities) PruneAndProbe(ctx context.Context, in PruneProbeInput) (PruneProbeResult, error) {
	store, err := a.models()
	if err != nil {
		return PruneProbeResult{}, err
	}
	if a.Tools == nil {
		return PruneProbeResult{}, temporal.NewNonRetryableApplicationError("prune and probe: the worker has no tool client", ErrTypeNoToolClient, nil)
	}
	res, err := pruneAndProbe(ctx, store, a.Tools, in, func(api string) { activity.RecordHeartbeat(ctx, api) })
	if err != nil {
		return res, graphError(err)
	}
	return res, nil
}

// PruneAndProbeNow is PruneAndProbe outside Temporal, for the evaluation harness: it prunes
// the active APIs whose Eq. 13 score passes the threshold, then probes the APIs pruned in
// earlier rounds (status probing while the probe runs) and reactivates those that answer.
func PruneAndProbeNow(ctx context.Context, store ModelStore, tools *toolcall.Client, in PruneProbeInput) (PruneProbeResult, error) {
	return pruneAndProbe(ctx, store, tools, in, func(string) {})
}

func pruneAndProbe(ctx context.Context, store ModelStore, tools *toolcall.Client, in PruneProbeInput, probing func(api string)) (PruneProbeResult, error) {
	opts := in.Prune
	if opts == (twnm.PruneOptions{}) {
		opts = twnm.DefaultPrune
	}
	maxProbes := in.MaxProbes
	if maxProbes <= 0 {
		maxProbes = 50
	}
	g, err := store.Snapshot(ctx)
	if err != nil {
		return PruneProbeResult{}, err
	}
	var earlier []*twnm.Node
	for _, id := range g.APIs() {
		if n := g.Node(id); (n.Status == twnm.Pruned || n.Status == twnm.Probing) && strings.HasPrefix(n.Name, in.Scope) {
			earlier = append(earlier, n)
		}
	}
	sort.Slice(earlier, func(i, j int) bool { return earlier[i].Name < earlier[j].Name })
	var res PruneProbeResult
	for _, name := range g.Prune(time.Now(), opts) {
		if !strings.HasPrefix(name, in.Scope) {
			continue
		}
		if err := store.SetStatus(ctx, name, twnm.Pruned); err != nil {
			return res, err
		}
		res.Pruned = append(res.Pruned, name)
	}
	for i, n := range earlier {
		if i >= maxProbes {
			break
		}
		probing(n.Name)
		if err := store.SetStatus(ctx, n.Name, twnm.Probing); err != nil {
			return res, err
		}
		var ep *twnm.Endpoint
		if n.API != nil {
			ep = n.API.Endpoint
		}
		alive, _, err := tools.Probe(ctx, n.Name, ep)
		status := twnm.Pruned
		if err == nil && alive {
			status = twnm.Active
			res.Reactivated = append(res.Reactivated, n.Name)
		} else {
			res.StillDown = append(res.StillDown, n.Name)
		}
		if err := store.SetStatus(ctx, n.Name, status); err != nil {
			return res, err
		}
	}
	return res, nil
}
