package contract

import (
	"fmt"
	"strings"

	"github.com/naviagent/navi/toolspec"
)

// The planner's vocabulary: what a planner sees at a step (Context), what it decides
// (Decision, Result) and what the run executes of it (Projection). Package planner names
// them too, as the same types; they live here so that the workflows' contract carries them
// without the planners' code.

// Action is one of the four planner actions.
type Action string

// The four actions of the NaviAgent decision protocol.
const (
	DirectAnswer  Action = "direct_answer"
	ClarifyIntent Action = "clarify_intent"
	RetrieveAPI   Action = "retrieve_api"
	CallAPI       Action = "call_api"
)

// Actions lists the actions in the order the protocol names them.
var Actions = []Action{CallAPI, DirectAnswer, RetrieveAPI, ClarifyIntent}

// Valid reports whether a is one of the four actions.
func (a Action) Valid() bool {
	for _, b := range Actions {
		if a == b {
			return true
		}
	}
	return false
}

// Decision is one sub-intent decision of the protocol, as the LLM writes it (Appendix E.3.1):
// a planner answers with a JSON array of these sorted by DependencyRank.
type Decision struct {
	DependencyRank    int               `json:"dependency_rank"`
	Intent            string            `json:"intent,omitempty"`
	Analysis          string            `json:"analysis,omitempty"`
	Action            Action            `json:"action"`
	TargetAPI         string            `json:"target_api,omitempty"`
	Params            map[string]string `json:"params,omitempty"`
	RecallDescription string            `json:"recall_description,omitempty"`
	Answer            string            `json:"answer,omitempty"`
}

// String gives the decision in one line, for traces and activity summaries.
func (d Decision) String() string {
	switch d.Action {
	case CallAPI:
		return fmt.Sprintf("call_api %s", d.TargetAPI)
	case RetrieveAPI:
		return fmt.Sprintf("retrieve_api %q", short(d.RecallDescription, 60))
	case ClarifyIntent:
		return fmt.Sprintf("clarify_intent %q", short(d.Answer, 60))
	case DirectAnswer:
		return fmt.Sprintf("direct_answer %q", short(d.Answer, 60))
	}
	return string(d.Action)
}

// ParamInfo describes one input or output of a candidate API.
type ParamInfo struct {
	Name        string `json:"name"`
	Type        string `json:"type,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
	// Enum lists the values the input accepts (twnm.Param.Enum); a question offers them.
	Enum []string `json:"enum,omitempty"`
}

// Candidate is an API the last retrieval recalled, with the executable plan graph search
// found for it.
type Candidate struct {
	API         string  `json:"api"`
	Description string  `json:"description"`
	Score       float64 `json:"score"` // cosine similarity of the recall description
	// Relevance is the API's dense similarity to the closest part of the request, 0 when not
	// measured; an answer from an API under planner.Options.AnswerRelevanceFloor teaches
	// retrieval nothing.
	Relevance float64       `json:"relevance,omitempty"`
	Status    string        `json:"status"` // active, probing or pruned (twnm.Status)
	Inputs    []ParamInfo   `json:"inputs,omitempty"`
	Outputs   []ParamInfo   `json:"outputs,omitempty"`
	Plan      toolspec.Plan `json:"plan"`
	// Instead holds what the user may state in place of inputs the plan misses (see Instead);
	// a question offers it.
	Instead []Instead `json:"instead,omitempty"`
	// Proven counts the earlier runs the graph saw the candidate's whole chain run well: the
	// fewest successes among its target and the data flows (THEN edges) its plan uses, or 0
	// when one of them is less reliable than planner.Options.InertiaReliability. See
	// planner.Inertial.
	Proven int `json:"proven,omitempty"`
}

// Instead is what a user may state in place of inputs a plan misses: the required inputs of
// a call that gives them all from words a person knows (a geocoder's city, for the latitude
// and the longitude of a point). The run binds an answer that states them to that call, which
// then gives the inputs asked for.
type Instead struct {
	// For are the missing inputs, "API.param".
	For []string `json:"for"`
	// Inputs are what the user may state instead, as the call describes them.
	Inputs []ParamInfo `json:"inputs"`
}

// Turn is one (observation, action) pair of the planner's history.
type Turn struct {
	Observation string   `json:"observation"`
	Decision    Decision `json:"decision"`
}

// HistoryTurns is how many past turns a planner sees (NaviAgent: the last 3).
const HistoryTurns = 3

// Context is everything a planner sees at one step.
type Context struct {
	Query string `json:"query"`
	// Clarifications are the user's answers to earlier clarify_intent questions, in order.
	Clarifications []QA `json:"clarifications,omitempty"`
	// History holds the last HistoryTurns (observation, action) pairs, oldest first.
	History []Turn `json:"history,omitempty"`
	// Observation is what the last action produced, in words.
	Observation string `json:"observation"`
	// Tree is the pruned subgraph of the last retrieval, serialized as an indented tree.
	Tree       string      `json:"tree,omitempty"`
	Candidates []Candidate `json:"candidates,omitempty"`
	// Known holds the values bound so far, keyed "API.param" or by parameter name.
	Known map[string]string `json:"known,omitempty"`
	// Results holds the outputs of the APIs that succeeded, by API name.
	Results map[string]map[string]any `json:"results,omitempty"`
	// Called lists the APIs that succeeded; Failed those that failed for good.
	Called []string `json:"called,omitempty"`
	Failed []string `json:"failed,omitempty"`
	// Completed lists the targets whose chains ran to the end, in order: the API the
	// planner chose, or the substitute recombination put in its place.
	Completed []string `json:"completed,omitempty"`
	// Unserved lists the parts of the request that no tool of the graph is relevant enough
	// to (retrieval's relevance floor): the answer says so instead of serving them wrongly.
	Unserved []string `json:"unserved,omitempty"`
	// Parts lists the APIs that serve the request's other parts in the final step's plan
	// (retrieval's branches): the answer covers them too, or says that they failed.
	Parts []string `json:"parts,omitempty"`
	// Unplanned lists the parts of the request whose tool could not join the final step's
	// plan (retrieval's Unplanned): the answer says they have none.
	Unplanned []string `json:"unplanned,omitempty"`
	// Retrievals counts retrieve_api actions so far; Recalled holds their descriptions.
	Recalled []string `json:"recalled,omitempty"`
	// Step is the planner decision being made, from 1; MaxSteps the budget.
	Step     int `json:"step"`
	MaxSteps int `json:"max_steps"`
}

// QA is one clarification: the question asked, what it asked for and the user's answer.
type QA struct {
	Question string   `json:"question"`
	Params   []string `json:"params,omitempty"` // "API.param" the question asked for
	Answer   string   `json:"answer"`
}

// Usage counts what a decision cost.
type Usage struct {
	LLMCalls         int `json:"llm_calls"`
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	// LLMSaved counts the LLM decisions an inertial step took the place of (Inertial).
	LLMSaved int `json:"llm_saved,omitempty"`
	// Repaired counts decisions whose first LLM answer was invalid and whose repair was
	// valid; Invalid those whose repair was invalid too, which the graph-first planner then
	// made (Result.Fallback).
	Repaired int `json:"repaired,omitempty"`
	Invalid  int `json:"invalid,omitempty"`
	// Decisions counts planner steps, and Replaced those whose decision the projection
	// replaced because the run's state did not admit it.
	Decisions int `json:"decisions,omitempty"`
	Replaced  int `json:"replaced,omitempty"`
}

// Add returns u plus v.
func (u Usage) Add(v Usage) Usage {
	return Usage{u.LLMCalls + v.LLMCalls, u.PromptTokens + v.PromptTokens, u.CompletionTokens + v.CompletionTokens,
		u.LLMSaved + v.LLMSaved, u.Repaired + v.Repaired, u.Invalid + v.Invalid, u.Decisions + v.Decisions, u.Replaced + v.Replaced}
}

// Result is a planner's answer for one step.
type Result struct {
	Planner   string     `json:"planner"` // the planner's name, e.g. "graph-first" or "llm:gpt-4o-mini"
	Decisions []Decision `json:"decisions"`
	Usage     Usage      `json:"usage"`
	// Repaired is set when the first LLM answer was invalid and the repair attempt succeeded;
	// RepairReason says what was wrong with the first answer.
	Repaired     bool   `json:"repaired,omitempty"`
	RepairReason string `json:"repair_reason,omitempty"`
	// Fallback, when set, says why the decisions are the graph-first planner's instead of the
	// one asked for: the LLM's answer stayed invalid after the repair (Usage.Invalid).
	Fallback string `json:"fallback,omitempty"`
	// Projection is the first decision projected onto the actions the context admits
	// (Project): what the run executes, and what it replaced, if anything. The Decide activity
	// sets it, so that the workflow only executes what the activity decided and a change to
	// the projection never changes what a recorded run replays; a Planner leaves it nil.
	Projection *Projection `json:"projection,omitempty"`
}

// Projection is the outcome of projecting a decision onto the admissible actions.
type Projection struct {
	Decision Decision `json:"decision"` // the decision to execute
	// Replaced is set when the proposed decision was inadmissible; Proposed is what the
	// planner chose and Reason why it could not run.
	Replaced bool     `json:"replaced,omitempty"`
	Proposed Decision `json:"proposed"`
	Reason   string   `json:"reason,omitempty"`
	// Plan is the bound plan of a call_api decision (with Also's, merged).
	Plan toolspec.Plan `json:"plan"`
	// Also are the planner's other call_api decisions of Decision's dependency rank that run
	// with it, their plans merged into Plan (ProjectAll); Left says why the others of that
	// rank do not.
	Also []Decision `json:"also,omitempty"`
	Left []string   `json:"left,omitempty"`
}

// Candidate returns the candidate of c for api, if the last retrieval recalled it.
func (c Context) Candidate(api string) (Candidate, bool) {
	for _, cand := range c.Candidates {
		if cand.API == api {
			return cand, true
		}
	}
	return Candidate{}, false
}

// short shortens s to at most n runes on one line.
func short(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
