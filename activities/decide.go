package activities

import (
	"context"
	"errors"
	"fmt"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/planner/llm"
)

// The activity's input and results are the contract's: the workflows use them without
// linking this package.
type (
	DecideInput = contract.DecideInput
)

// Kept under their old names; see package contract.
const (
	PlannerLLM                  = contract.PlannerLLM
	PlannerGraphFirst           = contract.PlannerGraphFirst
	ErrTypePlannerInvalidOutput = contract.ErrTypePlannerInvalidOutput
	ErrTypeLLMUnauthorized      = contract.ErrTypeLLMUnauthorized
	ErrTypeLLMRejected          = contract.ErrTypeLLMRejected
	ErrTypeNoLLM                = contract.ErrTypeNoLLM
)

// fallBack is the graph-first planner's decisions for a step whose LLM answer stayed invalid,
// with the LLM's usage and the reason kept.
func fallBack(ctx context.Context, in DecideInput, llmRes planner.Result, reason string) (planner.Result, error) {
	res, err := planner.GraphFirst{}.Decide(ctx, in.Context)
	if err != nil {
		return llmRes, fmt.Errorf("decide step %d: graph-first fallback after %s: %w", in.Context.Step, reason, err)
	}
	res.Planner = llmRes.Planner
	res.Usage = llmRes.Usage
	res.Usage.Invalid++
	res.Fallback = reason
	activity.GetLogger(ctx).Warn("LLM output invalid after repair; graph-first decided the step", "step", in.Context.Step, "reason", reason)
	return res, nil
}

// PlannerName is the planner a run that names none gets on this worker: the LLM planner when
// the worker has one, else graph-first (as Decide chooses). A run asks it, as a local
// activity, before its first decision, so that a graph-first run decides locally from its
// first step on.
func (a *Activities) PlannerName(context.Context) (string, error) {
	if a.LLM != nil {
		return PlannerLLM, nil
	}
	return PlannerGraphFirst, nil
}

// Decide runs one planner step and projects its first decision onto the actions the run's
// state admits (planner.ProjectAll; Result.Projection), taking the other call_api decisions of
// its dependency rank along, their plans merged: the decision and its replacement are made
// here, outside workflow code, and recorded as the activity's result. LLM output that stays
// invalid after the planner's repair attempt does not end the run: the graph-first planner
// decides that step (Result.Fallback says why). Credentials the endpoint refuses fail the step
// for good with a message that says what was wrong; an endpoint that is down or rate limited
// is retried by Temporal.
func (a *Activities) Decide(ctx context.Context, in DecideInput) (planner.Result, error) {
	defer keepAlive(ctx)()
	var p planner.Planner = planner.GraphFirst{}
	switch in.Planner {
	case PlannerGraphFirst:
	case PlannerLLM:
		if a.LLM == nil {
			return planner.Result{}, temporal.NewNonRetryableApplicationError(
				"the run asks for the LLM planner but the worker has none: set NAVI_LLM_BASE_URL and NAVI_LLM_MODEL", ErrTypeNoLLM, nil)
		}
		p = a.LLM
	case "":
		if a.LLM != nil {
			p = a.LLM
		}
	default:
		return planner.Result{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("planner %q is not one of %s, %s", in.Planner, PlannerGraphFirst, PlannerLLM), ErrTypeInvalidInput, nil)
	}
	var res planner.Result
	var err error
	_, graphFirst := p.(planner.GraphFirst)
	if d, ok := planner.Inertial(in.Context); ok && !graphFirst && !in.NoInertia {
		// The learned graph is sure of this step: no LLM call (AutoTool's inertia).
		res = planner.Result{Planner: planner.InertiaName, Decisions: []planner.Decision{d}, Usage: planner.Usage{LLMSaved: 1}}
	} else {
		res, err = p.Decide(ctx, in.Context)
	}
	if errors.Is(err, llm.ErrInvalidOutput) || err == nil && len(res.Decisions) == 0 && !graphFirst {
		// The model failed twice: this step is the graph-first planner's, and the run goes on
		// (the model may do better on the next step). Its calls and tokens stay counted.
		reason := "the planner returned no decision"
		if err != nil {
			reason = err.Error()
		}
		res, err = fallBack(ctx, in, res, reason)
	}
	switch {
	case errors.Is(err, llm.ErrUnauthorized):
		return res, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeLLMUnauthorized, err)
	case errors.Is(err, llm.ErrRequestRejected):
		return res, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeLLMRejected, err)
	case err != nil:
		return res, fmt.Errorf("decide step %d: %w", in.Context.Step, err)
	}
	if len(res.Decisions) == 0 {
		return res, temporal.NewNonRetryableApplicationError("the planner returned no decision", ErrTypePlannerInvalidOutput, nil, res.Usage)
	}
	proj := planner.ProjectAll(in.Context, res.Decisions)
	res.Projection = &proj
	res.Usage.Decisions = 1
	if proj.Replaced {
		res.Usage.Replaced = 1
	}
	activity.GetLogger(ctx).Info("decided", "step", in.Context.Step, "planner", res.Planner,
		"decision", res.Decisions[0].String(), "executes", proj.Decision.String(), "replaced", proj.Replaced,
		"alsoExecutes", len(proj.Also), "left", proj.Left, "llmCalls", res.Usage.LLMCalls)
	return res, nil
}
