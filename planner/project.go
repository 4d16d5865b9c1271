package planner

import (
	"fmt"
	"slices"
	"strings"
)

// ProjectAll projects the first of ds (Project) and, when it is kept as an admissible call_api,
// takes the other call_api decisions of its dependency rank along: a planner that answers
// several sub-intents of one rank in an array has them run in one step, at once where their
// plans share nothing, a producer they share once (Merge). One that is not admissible is left
// out, with why, and so are decisions of later ranks, which consume what this step gives:
// the planner decides them again once it sees the results.
func ProjectAll(c Context, ds []Decision) Projection { return DefaultOptions.ProjectAll(c, ds) }

// ProjectAll is the package's ProjectAll under o.
func (o Options) ProjectAll(c Context, ds []Decision) Projection {
	o = o.withDefaults()
	if len(ds) == 0 {
		return Projection{}
	}
	p := Project(c, ds[0])
	if p.Replaced || p.Decision.Action != CallAPI {
		return p
	}
	targets := []string{p.Decision.TargetAPI}
	for _, d := range ds[1:] {
		if d.Action != CallAPI || d.DependencyRank != ds[0].DependencyRank {
			continue
		}
		if slices.Contains(targets, d.TargetAPI) {
			continue // the same call twice
		}
		reason, plan := o.inadmissible(c, d)
		if reason != "" {
			p.Left = append(p.Left, reason)
			continue
		}
		targets = append(targets, d.TargetAPI)
		p.Also = append(p.Also, d)
		p.Plan = Merge(p.Plan, plan)
	}
	return p
}

// Merge joins plans into one: a's steps, then those of b that a does not call, each plan's
// order kept, so that producers still come before their consumers. A step both call keeps a's
// bindings. The target and score are a's.
func Merge(a, b Plan) Plan {
	out := Plan{Target: a.Target, Score: a.Score, Steps: slices.Clone(a.Steps)}
	for _, s := range b.Steps {
		if out.StepOf(s.API) < 0 {
			out.Steps = append(out.Steps, s)
		}
	}
	return out
}

// Project restricts a planner's decision to the actions the graph state admits (NaviAgent
// Theorem 3.1: π_inj(a|h) ∝ π₀(a|h)·1[a ∈ A_feas(h)]). A planner that returns one action puts
// all of π₀ on it, so an admissible decision is kept as it is and an inadmissible one is
// replaced by the best admissible action, which is the graph-first policy's choice on the
// same state (it only ever returns admissible actions). Admissible:
//
//   - call_api: the target is a candidate, not pruned, not failed, not already run, no API
//     of its plan failed, and every required input of the plan is bound (by the decision's
//     params, the known values or an upstream step), and every value the decision states was
//     seen in the run (the request, the user's answers, the bound values, the results), not
//     guessed;
//   - retrieve_api: a recall description, and fewer than Options.MaxRetrievals retrievals so far
//     or a question just answered (the answer reaches the plan through retrieval);
//   - clarify_intent: a question, and fewer than Options.MaxClarifications so far;
//   - direct_answer: an answer, and, before any call, one the graph-first policy would not
//     replace by a retrieval or a call (an answer before the tools were consulted, or while
//     one can run, is a guess: the weak model's premature answer).
func Project(c Context, d Decision) Projection { return DefaultOptions.Project(c, d) }

// Project is the package's Project under o.
func (o Options) Project(c Context, d Decision) Projection {
	o = o.withDefaults()
	reason, plan := o.inadmissible(c, d)
	if reason == "" {
		return Projection{Decision: d, Plan: plan}
	}
	best := o.graphFirst(c)
	p := Projection{Decision: best, Replaced: true, Proposed: d, Reason: reason}
	if best.Action == CallAPI {
		_, p.Plan = o.inadmissible(c, best)
	}
	return p
}

// inadmissible says why d is not admissible in c ("" when it is), and gives the bound plan of
// an admissible call_api.
func (o Options) inadmissible(c Context, d Decision) (string, Plan) {
	switch d.Action {
	case CallAPI:
		cand, ok := c.Candidate(d.TargetAPI)
		switch {
		case d.TargetAPI == "":
			return "call_api names no target_api", Plan{}
		case !ok:
			return fmt.Sprintf("%s is not among the candidate APIs (%s)", d.TargetAPI, candidateNames(c)), Plan{}
		case cand.Status == "pruned":
			return fmt.Sprintf("%s is pruned", d.TargetAPI), Plan{}
		case slices.Contains(c.Called, d.TargetAPI):
			return fmt.Sprintf("%s already ran successfully", d.TargetAPI), Plan{}
		}
		for _, api := range cand.Plan.APIs() {
			if slices.Contains(c.Failed, api) {
				return fmt.Sprintf("%s's plan uses %s, which failed", d.TargetAPI, api), Plan{}
			}
		}
		if len(cand.Plan.Steps) == 0 {
			return fmt.Sprintf("graph search found no plan for %s", d.TargetAPI), Plan{}
		}
		if k, v, ok := ungrounded(c, d.Params); ok {
			return fmt.Sprintf("%s's %s %q is in neither the request, the user's answers nor the results: a guess", d.TargetAPI, strings.TrimPrefix(k, d.TargetAPI+"."), v), Plan{}
		}
		plan := Bind(cand.Plan, c.Known, d.Params)
		if m := plan.Missing(); len(m) > 0 {
			return fmt.Sprintf("%s needs %s, which nothing binds", d.TargetAPI, strings.Join(m, ", ")), Plan{}
		}
		return "", plan
	case RetrieveAPI:
		if strings.TrimSpace(d.RecallDescription) == "" {
			return "retrieve_api has no recall_description", Plan{}
		}
		if !o.MayRetrieve(c) {
			return fmt.Sprintf("the retrieval budget (%d) is spent", o.MaxRetrievals), Plan{}
		}
	case ClarifyIntent:
		if strings.TrimSpace(d.Answer) == "" {
			return "clarify_intent has no question", Plan{}
		}
		if len(c.Clarifications) >= o.MaxClarifications {
			return fmt.Sprintf("the clarification budget (%d) is spent", o.MaxClarifications), Plan{}
		}
	case DirectAnswer:
		if strings.TrimSpace(d.Answer) == "" {
			return "direct_answer has no answer", Plan{}
		}
		// Before any call, an answer is a guess where the graph would still ask for a tool or
		// call one; where it would answer too (no tool, or none it can bind), it is not.
		if len(c.Called) == 0 {
			switch gf := o.graphFirst(c); gf.Action {
			case RetrieveAPI:
				return "direct_answer before the graph was asked for a tool: the answer would be a guess", Plan{}
			case CallAPI:
				return fmt.Sprintf("direct_answer before any call, while %s can run: the answer would be a guess", gf.TargetAPI), Plan{}
			}
		}
	default:
		return fmt.Sprintf("action %q is not one of call_api, direct_answer, retrieve_api, clarify_intent", d.Action), Plan{}
	}
	return "", Plan{}
}

// MayRetrieve reports whether a retrieve_api decision is within the retrieval budget in c.
func MayRetrieve(c Context) bool { return DefaultOptions.MayRetrieve(c) }

// MayRetrieve is the package's MayRetrieve under o: fewer than MaxRetrievals retrievals so
// far, or a question just answered, which only a retrieval binds.
func (o Options) MayRetrieve(c Context) bool {
	return len(c.Recalled) < o.withDefaults().MaxRetrievals || answeredLast(c)
}

func candidateNames(c Context) string {
	if len(c.Candidates) == 0 {
		return "none retrieved yet"
	}
	names := make([]string, len(c.Candidates))
	for i, cand := range c.Candidates {
		names[i] = cand.API
	}
	return strings.Join(names, ", ")
}
