package workflows

import (
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/naviagent/navi/contract"
)

// PlannerGraphLookup labels runs of the graph-lookup slice, which answered with the tools that
// fit the query and called none.
const PlannerGraphLookup = "graph-lookup"

// lookupSlice is QueryWorkflow as it was before the planner loop (agentLoopChange): one
// activity reads the tool graph and the run reports the tools that fit. It is kept so that
// histories recorded then still replay; no new run takes this path.
func lookupSlice(ctx workflow.Context, query string) (QueryResult, error) {
	state := QueryState{Query: query, Status: StatusRunning, Planner: PlannerGraphLookup}
	if err := workflow.SetQueryHandler(ctx, StateQuery, func() (QueryState, error) { return state, nil }); err != nil {
		return QueryResult{}, fmt.Errorf("register state query: %w", err)
	}
	if err := workflow.UpsertTypedSearchAttributes(ctx,
		StatusAttr.ValueSet(StatusRunning), PlannerAttr.ValueSet(PlannerGraphLookup),
		StepsAttr.ValueSet(0), LLMCallsAttr.ValueSet(0)); err != nil {
		return QueryResult{}, fmt.Errorf("upsert search attributes: %w", err)
	}
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 30 * time.Second, MaximumAttempts: 10,
		},
		Summary: "look up tools for " + quote(query, 60),
	})
	state.Step = 1
	var found contract.LookupToolsResult
	if err := workflow.ExecuteActivity(actx, contract.ActivityLookupTools,
		contract.LookupToolsInput{Query: query}).Get(ctx, &found); err != nil {
		return QueryResult{}, fmt.Errorf("look up tools: %w", err)
	}
	res := QueryResult{Status: StatusAnswered, Planner: PlannerGraphLookup, Steps: state.Step, Answer: lookupAnswer(query, found)}
	if len(found.Tools) == 0 {
		res.Status = StatusNoTools
	}
	state.Status = res.Status
	if err := workflow.UpsertTypedSearchAttributes(ctx,
		StatusAttr.ValueSet(res.Status), StepsAttr.ValueSet(int64(res.Steps))); err != nil {
		return QueryResult{}, fmt.Errorf("upsert search attributes: %w", err)
	}
	return res, nil
}

// lookupAnswer phrases a lookup result for the user.
func lookupAnswer(query string, r contract.LookupToolsResult) string {
	var b strings.Builder
	if len(r.Tools) == 0 {
		fmt.Fprintf(&b, "No tool in the graph (%d APIs, %d parameters) matches %s", r.Graph.APIs, r.Graph.Params, quote(query, 80))
		if len(r.Terms) > 0 {
			fmt.Fprintf(&b, " (looked for: %s)", strings.Join(r.Terms, ", "))
		}
		b.WriteString(".")
		return b.String()
	}
	fmt.Fprintf(&b, "%d of %d APIs in the tool graph fit %s:", len(r.Tools), r.Graph.APIs, quote(query, 80))
	for _, t := range r.Tools {
		fmt.Fprintf(&b, "\n- %s(%s) -> %s: %s", t.Name, strings.Join(t.Inputs, ", "), strings.Join(t.Outputs, ", "), t.Description)
	}
	return b.String()
}
