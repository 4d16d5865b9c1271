package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/workflows"
)

// rate runs `navi rate <workflow> good|bad [note]`: the user's verdict on a run, while it
// runs or long after, recorded by a RateWorkflow against the chains the run's history holds.
func rate(args []string, s streams) error {
	c := newCommand("rate")
	timeout := c.fs.Duration("timeout", 2*time.Minute, "how long to wait for the rating to be recorded")
	pos, err := c.parse(args, 2, -1, `a workflow ID and a verdict: navi rate <workflow-id> good|bad ["note"]`)
	if err != nil {
		return err
	}
	id, note := pos[0], strings.TrimSpace(strings.Join(pos[2:], " "))
	var good bool
	switch strings.ToLower(pos[1]) {
	case "good":
		good = true
	case "bad":
	default:
		return fmt.Errorf("%w: navi rate: the verdict is good or bad, not %q", errUsage, pos[1])
	}
	dc, err := c.dataConverter()
	if err != nil {
		return err
	}
	return c.withTemporal(*timeout, func(ctx context.Context, tc client.Client) error {
		chains, err := recordedChains(ctx, tc, dc, id)
		if err != nil {
			return err
		}
		if len(chains) == 0 {
			return fmt.Errorf("navi rate: run %s recorded no tool calls: there is nothing to rate", id)
		}
		run, err := tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: newRunID("navi-rate"), TaskQueue: c.cfg.TaskQueue},
			contract.Prefixed(contract.WorkflowRate), workflows.RateRequest{Workflow: id, Good: good, Note: note, Chains: chains})
		if err != nil {
			return fmt.Errorf("navi rate %s: %w", id, err)
		}
		var res workflows.RateResult
		if err := run.Get(ctx, &res); err != nil {
			return fmt.Errorf("navi rate %s: %w", id, err)
		}
		field(s.out, "rated", "%s %s: %d calls and %d data flows of %d chain(s) recorded as the user's verdict", id, pos[1],
			res.Invocations, res.Transitions, res.Chains)
		field(s.out, "rating", "%s", run.GetID())
		return nil
	})
}

// recordedChains reads the feedback run id recorded (workflows.RecordedFeedback) from its
// latest run's history.
func recordedChains(ctx context.Context, tc client.Client, dc converter.DataConverter, id string) ([]contract.FeedbackInput, error) {
	h, err := fetchHistory(ctx, tc, id, "")
	if err != nil {
		return nil, err
	}
	chains, err := workflows.RecordedFeedback(h, dc)
	if err != nil {
		return nil, explainEncrypted(fmt.Errorf("navi rate: %s: %w", id, err))
	}
	return chains, nil
}
