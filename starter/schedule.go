package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/internal/config"
	"github.com/naviagent/navi/workflows"
)

// schedule manages the Temporal Schedule that retrains the graph model:
// navi schedule retrain --every 1h [--trigger].
func schedule(args []string, s streams) error {
	if len(args) == 0 || args[0] != "retrain" {
		return fmt.Errorf("%w: navi schedule retrain --every 1h", errUsage)
	}
	c := newCommand("schedule retrain")
	every := c.fs.Duration("every", time.Hour, "how often the retrain workflow runs")
	trigger := c.fs.Bool("trigger", false, "also start one retraining now")
	trainQueue := c.fs.String("train-queue", config.Getenv("NAVI_TRAIN_TASK_QUEUE", workflows.DefaultTrainQueue), "task queue of the training activities (NAVI_TRAIN_TASK_QUEUE)")
	if _, err := c.parse(args[1:], 0, 0, "no arguments besides retrain"); err != nil {
		return err
	}
	if *every < time.Minute {
		return fmt.Errorf("%w: -every %s: want a minute or more", errUsage, *every)
	}
	return c.withTemporal(30*time.Second, func(ctx context.Context, tc client.Client) error {
		action := &client.ScheduleWorkflowAction{
			ID: workflows.RetrainScheduleID, Workflow: contract.Prefixed(contract.WorkflowRetrain), TaskQueue: c.cfg.TaskQueue,
			Args: []any{workflows.RetrainRequest{TrainQueue: *trainQueue}},
		}
		spec := client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: *every}}}
		h := tc.ScheduleClient().GetHandle(ctx, workflows.RetrainScheduleID)
		_, err := h.Describe(ctx)
		var nf *serviceerror.NotFound
		switch {
		case errors.As(err, &nf):
			h, err = tc.ScheduleClient().Create(ctx, client.ScheduleOptions{
				ID: workflows.RetrainScheduleID, Spec: spec, Action: action,
				Overlap: enumspb.SCHEDULE_OVERLAP_POLICY_SKIP, // one retraining at a time
				Note:    "Navi: retrain the tool graph's HGT from the accumulated executions",
			})
			if err != nil {
				return fmt.Errorf("create schedule %s: %w", workflows.RetrainScheduleID, err)
			}
			field(s.out, "schedule", "%s created: every %s", workflows.RetrainScheduleID, *every)
		case err != nil:
			return fmt.Errorf("describe schedule %s: %w", workflows.RetrainScheduleID, err)
		default:
			err = h.Update(ctx, client.ScheduleUpdateOptions{DoUpdate: func(in client.ScheduleUpdateInput) (*client.ScheduleUpdate, error) {
				sch := in.Description.Schedule
				sch.Spec = &spec
				sch.Action = action
				return &client.ScheduleUpdate{Schedule: &sch}, nil
			}})
			if err != nil {
				return fmt.Errorf("update schedule %s: %w", workflows.RetrainScheduleID, err)
			}
			field(s.out, "schedule", "%s updated: every %s", workflows.RetrainScheduleID, *every)
		}
		if *trigger {
			if err := h.Trigger(ctx, client.ScheduleTriggerOptions{Overlap: enumspb.SCHEDULE_OVERLAP_POLICY_SKIP}); err != nil {
				return fmt.Errorf("trigger schedule %s: %w", workflows.RetrainScheduleID, err)
			}
			field(s.out, "", "triggered one retraining now")
		}
		desc, err := h.Describe(ctx)
		if err != nil {
			return fmt.Errorf("describe schedule %s: %w", workflows.RetrainScheduleID, err)
		}
		if next := desc.Info.NextActionTimes; len(next) > 0 {
			field(s.out, "next", "%s", localTime(next[0]))
		}
		field(s.out, "queues", "workflow on %s, training on %s", c.cfg.TaskQueue, *trainQueue)
		field(s.out, "ui", "%s/namespaces/%s/schedules/%s", c.cfg.UIURL, c.cfg.Namespace, workflows.RetrainScheduleID)
		return nil
	})
}
