package main

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/workflows"
)

// listFilter is what `navi list` filters on.
type listFilter struct {
	Status, Planner, Tool string
	// Raw is a visibility query of the user's, ANDed with the rest.
	Raw string
}

// listQuery builds the visibility query of a filter.
func listQuery(f listFilter) string {
	parts := []string{"WorkflowType IN ('" + strings.Join(contract.QueryTypes, "', '") + "')"}
	for _, c := range []struct{ attr, value string }{
		{workflows.StatusAttr.GetName(), f.Status},
		{workflows.PlannerAttr.GetName(), f.Planner},
		{workflows.ToolsUsedAttr.GetName(), f.Tool},
	} {
		if c.value != "" {
			parts = append(parts, fmt.Sprintf("%s = %s", c.attr, quoteVisibility(c.value)))
		}
	}
	if raw := strings.TrimSpace(f.Raw); raw != "" {
		parts = append(parts, "("+raw+")")
	}
	return strings.Join(parts, " AND ")
}

// quoteVisibility quotes a string for a visibility query, escaping backslashes and quotes.
func quoteVisibility(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

func list(args []string, s streams) error {
	c := newCommand("list")
	var f listFilter
	c.fs.StringVar(&f.Status, "status", "", "only runs with this NaviStatus (answered, waiting_for_user, failed, ...)")
	c.fs.StringVar(&f.Planner, "planner", "", "only runs of this planner (NaviPlanner)")
	c.fs.StringVar(&f.Tool, "tool", "", "only runs that called this API (NaviToolsUsed)")
	c.fs.StringVar(&f.Raw, "query", "", "a visibility query ANDed with the rest, e.g. \"NaviSteps > 3\"")
	limit := c.fs.Int("limit", 20, "at most this many runs")
	if _, err := c.parse(args, 0, 0, "no arguments, only flags"); err != nil {
		return err
	}
	if *limit < 1 {
		return fmt.Errorf("%w: -limit %d: want at least 1", errUsage, *limit)
	}
	query := listQuery(f)
	return c.withTemporal(30*time.Second, func(ctx context.Context, tc client.Client) error {
		var runs []*workflowpb.WorkflowExecutionInfo
		req := &workflowservice.ListWorkflowExecutionsRequest{Namespace: c.cfg.Namespace, PageSize: int32(min(*limit, 1000)), Query: query}
		for len(runs) < *limit {
			resp, err := tc.ListWorkflow(ctx, req)
			if err != nil {
				return fmt.Errorf("list %q: %w", query, err)
			}
			runs = append(runs, resp.GetExecutions()...)
			if req.NextPageToken = resp.GetNextPageToken(); len(req.NextPageToken) == 0 {
				break
			}
		}
		runs = runs[:min(len(runs), *limit)]
		tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "WORKFLOW ID\tSTATUS\tSTEPS\tLLM CALLS\tTOOLS USED\tSTARTED")
		for _, r := range runs {
			fmt.Fprintln(tw, strings.Join(listRow(r), "\t"))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if len(runs) == 0 {
			fmt.Fprintf(s.err, "no runs match %s\n", query)
		}
		return nil
	})
}

// listRow is one run's row of the list table.
func listRow(r *workflowpb.WorkflowExecutionInfo) []string {
	attrs := naviAttributes(r.GetSearchAttributes().GetIndexedFields())
	cell := func(name string) string {
		if v, ok := attrs[name]; ok {
			if s := attrString(v); s != "" {
				return s
			}
		}
		return "-"
	}
	return []string{
		r.GetExecution().GetWorkflowId(),
		runStatus(r.GetStatus(), cell(workflows.StatusAttr.GetName())),
		cell(workflows.StepsAttr.GetName()),
		cell(workflows.LLMCallsAttr.GetName()),
		cell(workflows.ToolsUsedAttr.GetName()),
		localTime(r.GetStartTime().AsTime()),
	}
}

// runStatus is Navi's status of a run while Temporal's says it runs or ran to its end; a run
// Temporal stopped (failed, terminated, timed out, canceled) shows Temporal's status.
func runStatus(st enumspb.WorkflowExecutionStatus, navi string) string {
	switch st {
	case enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING, enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED,
		enumspb.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW:
		if navi != "-" {
			return navi
		}
	}
	return strings.ToLower(st.String())
}
