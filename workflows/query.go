// Package workflows holds Navi's Temporal workflows. Workflow code here is deterministic: all
// I/O, time and randomness go through activities or the SDK's APIs.
package workflows

import (
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/neo4j"
)

// PlannerGraphLookup labels runs answered by the graph lookup alone, with no LLM.
const PlannerGraphLookup = "graph-lookup"

// LookupResult is what the lookup slice returns.
type LookupResult struct {
	Status  string           `json:"status"`
	Planner string           `json:"planner"`
	Answer  string           `json:"answer"`
	Tools   []neo4j.APIMatch `json:"tools"`
	Graph   neo4j.Counts     `json:"graph"`
	Steps   int              `json:"steps"`
}

// QueryWorkflow answers one user query. For now it is the vertical slice of the stack: one
// activity reads the tool graph from Neo4j and the workflow reports the tools that fit.
func QueryWorkflow(ctx workflow.Context, req QueryRequest) (LookupResult, error) {
	query := strings.TrimSpace(req.Query)
	if query == "" {
		return LookupResult{}, temporal.NewNonRetryableApplicationError("query is empty", activities.ErrTypeInvalidInput, nil)
	}
	state := QueryState{Query: query, Status: StatusRunning, Planner: PlannerGraphLookup}
	if err := workflow.SetQueryHandler(ctx, StateQuery, func() (QueryState, error) { return state, nil }); err != nil {
		return LookupResult{}, fmt.Errorf("register state query: %w", err)
	}
	if err := workflow.UpsertTypedSearchAttributes(ctx,
		StatusAttr.ValueSet(StatusRunning), PlannerAttr.ValueSet(PlannerGraphLookup),
		StepsAttr.ValueSet(0), LLMCallsAttr.ValueSet(0)); err != nil {
		return LookupResult{}, fmt.Errorf("upsert search attributes: %w", err)
	}

	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:    time.Second,
			BackoffCoefficient: 2,
			MaximumInterval:    30 * time.Second,
			MaximumAttempts:    10,
		},
		Summary: "look up tools for " + quote(query, 60),
	})
	state.Step = 1
	var found activities.LookupToolsResult
	err := workflow.ExecuteActivity(actx, (*activities.Activities).LookupTools,
		activities.LookupToolsInput{Query: query}).Get(ctx, &found)
	if err != nil {
		return LookupResult{}, fmt.Errorf("look up tools: %w", err)
	}

	res := LookupResult{
		Status:  StatusAnswered,
		Planner: PlannerGraphLookup,
		Tools:   found.Tools,
		Graph:   found.Graph,
		Steps:   state.Step,
	}
	if len(found.Tools) == 0 {
		res.Status = StatusNoTools
	}
	res.Answer = Answer(query, found)
	state.Status = res.Status
	// NaviToolsUsed stays unset: the slice finds tools but calls none.
	if err := workflow.UpsertTypedSearchAttributes(ctx,
		StatusAttr.ValueSet(res.Status), StepsAttr.ValueSet(int64(res.Steps))); err != nil {
		return LookupResult{}, fmt.Errorf("upsert search attributes: %w", err)
	}
	return res, nil
}

// Answer phrases a lookup result for the user.
func Answer(query string, r activities.LookupToolsResult) string {
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

// quote shortens s to at most n runes and quotes it, for one-line summaries.
func quote(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return fmt.Sprintf("%q", s)
}
