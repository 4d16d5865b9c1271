package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/workflows"
)

// shown is what `navi show -json` prints.
type shown struct {
	WorkflowID string                  `json:"workflow_id"`
	RunID      string                  `json:"run_id"`
	Status     string                  `json:"status"`
	StartTime  time.Time               `json:"start_time"`
	CloseTime  *time.Time              `json:"close_time,omitempty"`
	Search     map[string]any          `json:"search_attributes,omitempty"`
	Request    *workflows.QueryRequest `json:"request,omitempty"`
	State      *workflows.QueryState   `json:"state,omitempty"`
	Result     *workflows.QueryResult  `json:"result,omitempty"`
	// Error is why the run failed, or why its state could not be read.
	Error string `json:"error,omitempty"`
}

func show(args []string, s streams) error {
	c := newCommand("show")
	asJSON := c.fs.Bool("json", false, "print the state and the result as JSON")
	pos, err := c.parse(args, 1, 1, "one workflow ID: navi show [flags] <workflow-id>")
	if err != nil {
		return err
	}
	id := pos[0]
	return c.withTemporal(30*time.Second, func(ctx context.Context, tc client.Client) error {
		v, err := c.inspect(ctx, tc, id)
		if err != nil {
			return err
		}
		if *asJSON {
			return printJSON(s.out, v)
		}
		c.printShown(s.out, v)
		return nil
	})
}

// inspect gathers what show prints: the description, the request, the state (by query, which
// also works on a closed run while a worker is up) and, for a closed run, its result or error.
func (c *command) inspect(ctx context.Context, tc client.Client, id string) (shown, error) {
	desc, err := tc.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		return shown{}, c.notFound(err, id, "describe")
	}
	info := desc.GetWorkflowExecutionInfo()
	v := shown{
		WorkflowID: id,
		RunID:      info.GetExecution().GetRunId(),
		Status:     info.GetStatus().String(),
		StartTime:  info.GetStartTime().AsTime(),
		Search:     naviAttributes(info.GetSearchAttributes().GetIndexedFields()),
	}
	if ct := info.GetCloseTime(); ct != nil {
		t := ct.AsTime()
		v.CloseTime = &t
	}
	dc, err := c.dataConverter()
	if err != nil {
		return shown{}, err
	}
	if req, err := startedRequest(ctx, tc, dc, id, v.RunID); err == nil {
		v.Request = &req
	}
	if st, err := queryState(ctx, tc, id, 5*time.Second); err == nil {
		v.State = &st
	} else if info.GetStatus() == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
		v.Error = fmt.Sprintf("state unavailable (is a worker running?): %v", err)
	}
	switch info.GetStatus() {
	case enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING:
	case enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED:
		var res workflows.QueryResult
		if err := tc.GetWorkflow(ctx, id, v.RunID).Get(ctx, &res); err != nil {
			return v, fmt.Errorf("result of %s: %w", id, explainEncrypted(err))
		}
		v.Result = &res
	default:
		if err := tc.GetWorkflow(ctx, id, v.RunID).Get(ctx, nil); err != nil {
			v.Error = err.Error()
		}
	}
	return v, nil
}

func (c *command) printShown(w io.Writer, v shown) {
	field(w, "workflow", "%s (run %s)", v.WorkflowID, v.RunID)
	field(w, "status", "%s", strings.TrimPrefix(v.Status, "WORKFLOW_EXECUTION_STATUS_"))
	field(w, "started", "%s", localTime(v.StartTime))
	if v.CloseTime != nil {
		field(w, "closed", "%s (after %s)", localTime(*v.CloseTime), v.CloseTime.Sub(v.StartTime).Round(time.Millisecond))
	}
	field(w, "ui", "%s", c.cfg.RunURL(v.WorkflowID))
	if len(v.Search) > 0 {
		fmt.Fprintln(w, "search attributes")
		for _, k := range slices.Sorted(maps.Keys(v.Search)) {
			fmt.Fprintf(w, "  %-14s %s\n", k, attrString(v.Search[k]))
		}
	}
	requested := ""
	if v.Request != nil {
		requested = v.Request.Planner
		if opts := requestOptions(*v.Request); opts != "" {
			field(w, "request", "%s", opts)
		}
	}
	if v.State != nil {
		fmt.Fprintln(w)
		printState(w, v.WorkflowID, *v.State, requested)
	}
	if v.Result != nil {
		fmt.Fprintln(w)
		printResult(w, *v.Result, requested)
	}
	if v.Error != "" {
		fmt.Fprintf(w, "\n%s\n", terminalSafe(v.Error))
	}
}

// requestOptions lists what a request set beyond its query, for show.
func requestOptions(r workflows.QueryRequest) string {
	var o []string
	add := func(name string, set bool, v any) {
		if set {
			o = append(o, fmt.Sprintf("%s=%v", name, v))
		}
	}
	add("planner", r.Planner != "", r.Planner)
	add("search", r.Search != "", r.Search)
	add("max-steps", r.MaxSteps != 0, r.MaxSteps)
	add("clarify-deadline", r.ClarifyDeadline != 0, r.ClarifyDeadline)
	add("rerun-of", r.RerunOf != "", r.RerunOf)
	add("continued", r.Carry != nil, "yes")
	return strings.Join(o, " ")
}

// naviAttributes decodes the Navi search attributes (keyword lists to []string).
func naviAttributes(fields map[string]*commonpb.Payload) map[string]any {
	out := map[string]any{}
	for k, p := range fields {
		if _, ok := workflows.SearchAttributes[k]; !ok {
			continue
		}
		var v any
		if err := converter.GetDefaultDataConverter().FromPayload(p, &v); err != nil {
			continue
		}
		if list, ok := v.([]any); ok {
			strs := make([]string, 0, len(list))
			for _, e := range list {
				strs = append(strs, fmt.Sprint(e))
			}
			v = strs
		}
		out[k] = v
	}
	return out
}

func attrString(v any) string {
	if list, ok := v.([]string); ok {
		return strings.Join(list, ", ")
	}
	return fmt.Sprint(v)
}

// printState prints a run's live state: what it is doing, its trace, the question it waits
// on, its bindings and plan, and what it cost. requested is the planner the request forced.
func printState(w io.Writer, id string, st workflows.QueryState, requested string) {
	field(w, "query", "%s", st.Query)
	field(w, "state", "%s, step %d of %d", st.Status, st.Step, st.MaxSteps)
	if st.Planner != "" {
		field(w, "planner", "%s", plannerLabel(st.Planner, requested))
	}
	if st.RerunOf != "" {
		field(w, "rerun of", "%s", st.RerunOf)
	}
	if len(st.Trace) > 0 {
		fmt.Fprintln(w, "trace")
		for _, e := range st.Trace {
			fmt.Fprintln(w, terminalSafe(traceLine(e)))
		}
	}
	if st.Question != "" {
		printQuestion(w, id, st.Pending())
	}
	if len(st.Bindings) > 0 {
		fmt.Fprintln(w, "bindings")
		for _, k := range slices.Sorted(maps.Keys(st.Bindings)) {
			fmt.Fprintln(w, terminalSafe(fmt.Sprintf("  %s = %s", k, st.Bindings[k])))
		}
	}
	if st.Plan != nil {
		printPlan(w, *st.Plan)
	}
	if len(st.SubGoals) > 0 {
		fmt.Fprintln(w, "sub-goals (what retrieval searched for, and its best tools)")
		for _, g := range st.SubGoals {
			fmt.Fprintln(w, terminalSafe(fmt.Sprintf("  %s", g)))
		}
		if st.Head != nil {
			fmt.Fprintln(w, terminalSafe(fmt.Sprintf("  head of the last part: %s", st.Head)))
		}
	}
	if st.Final != "" {
		field(w, "final step", "%s", st.Final)
	}
	if len(st.Branches) > 0 {
		field(w, "other parts", "%s", strings.Join(st.Branches, ", "))
	}
	if len(st.Candidates) > 0 {
		field(w, "candidates", "%s", strings.Join(st.Candidates, ", "))
	}
	field(w, "tools", "%d call(s)%s", st.ToolCalls, listSuffix(st.ToolsUsed))
	field(w, "llm", "%s", usageLine(st.Usage))
}

// traceLine is one trace entry: "  step N  kind  ✓/✗  summary".
func traceLine(e workflows.TraceEntry) string {
	mark := "✗"
	if e.OK {
		mark = "✓"
	}
	return fmt.Sprintf("  step %-3d %-10s %s  %s", e.Step, e.Kind, mark, e.Summary)
}

// printPlan prints a plan, one step a line with where each input comes from.
func printPlan(w io.Writer, p planner.Plan) {
	field(w, "plan", "%s (score %.2f)", p.Target, p.Score)
	for i, s := range p.Steps {
		ins := make([]string, 0, len(s.Bindings))
		for _, b := range s.Bindings {
			ins = append(ins, bindingString(b))
		}
		fmt.Fprintf(w, "  %d. %s(%s)\n", i+1, s.API, strings.Join(ins, ", "))
	}
}

func bindingString(b planner.Binding) string {
	switch b.Source {
	case planner.SourceGiven:
		return fmt.Sprintf("%s=%q", b.Param, b.Value)
	case planner.SourceUpstream:
		if b.Predicted > 0 {
			return fmt.Sprintf("%s←%s.%s via a predicted link, p = %.2f", b.Param, b.FromAPI, b.FromOutput, b.Predicted)
		}
		if b.Item != "" {
			return fmt.Sprintf("%s←%s.%s of %q", b.Param, b.FromAPI, b.FromOutput, b.Item)
		}
		return fmt.Sprintf("%s←%s.%s", b.Param, b.FromAPI, b.FromOutput)
	case planner.SourceMissing:
		return b.Param + "=?"
	default:
		return b.Param + "=–"
	}
}

func listSuffix(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return ": " + strings.Join(names, ", ")
}
