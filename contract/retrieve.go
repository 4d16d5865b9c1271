package contract

import (
	"fmt"
	"strings"

	"github.com/naviagent/navi/toolspec"
)

// RetrieveInput asks for candidate APIs and their plans.
type RetrieveInput struct {
	// Description is what to recall: the planner's recall_description, or the query.
	Description string `json:"description"`
	// Text is the user's own words (the query and any clarification answers); values stated
	// in it are bound to the inputs of the recalled subgraph.
	Text string `json:"text"`
	// Known holds values bound already, keyed "API.param" or by parameter name; they win over
	// values found in Text.
	Known map[string]string `json:"known,omitempty"`
	// Answers are the user's answers to the run's questions, in order. Each binds the values
	// it states, or, when it states none the rules recognise, the one input its question
	// asked for; an answer's values win over the request's in every part of it, since the
	// user gave them for what was asked (a later answer over an earlier one).
	Answers []QA `json:"answers,omitempty"`
	// Exclude names APIs that must not be used (they failed for good in this run).
	Exclude []string `json:"exclude,omitempty"`
	// Intents are the LLM planner's sub-intents, in dependency order: retrieval searches for
	// each as a sub-goal instead of splitting the description itself.
	Intents []Intent `json:"intents,omitempty"`
	Search  string   `json:"search,omitempty"` // SearchAlphaBeta (default) or SearchHeuristic
	K       int      `json:"k,omitempty"`      // targets to recall; 0 means DefaultTargets
	// Today is the day the request was made, YYYY-MM-DD (UTC): the days Text names relative
	// to it ("tomorrow", "on Friday") are dated from it. Empty: only from a day Text states.
	Today string `json:"today,omitempty"`
}

// RetrieveResult holds the recalled candidates, each with the plan graph search found for it.
type RetrieveResult struct {
	Candidates []Candidate `json:"candidates"`
	// Tree is the candidates' subgraphs serialized as trees, for the planner's prompt.
	Tree string `json:"tree"`
	// APIs holds the catalog entry of every API of the candidates' plans, for the tool calls.
	APIs map[string]toolspec.API `json:"apis"`
	// Extracted holds the values found in Text, keyed "API.param".
	Extracted map[string]string `json:"extracted,omitempty"`
	// SubgraphAPIs is how many APIs the subgraph read from Neo4j held.
	SubgraphAPIs int `json:"subgraph_apis"`
	// SubGoals are the parts of the request retrieval searched for, the whole request last.
	SubGoals []SubGoal `json:"sub_goals,omitempty"`
	// Skipped is how many parts of a long request retrieval did not read (recall.Options.MaxClauses).
	Skipped int `json:"skipped,omitempty"`
	// Refused says why the chain retrieval chose was not offered (a write that does not do
	// what the request asks); there are no candidates then.
	Refused string `json:"refused,omitempty"`
	// Head is the head of the request's last part, what it asks for without the things it
	// asks about ("the current weather" of "the current weather at the best hotel"), when
	// that part has one; its best tool ends the chain when it consumes what the rest finds.
	Head *SubGoal `json:"head,omitempty"`
	// Final is the step the graph chose to end the chain, and Chain the chain's steps in
	// order, producers first.
	Final string         `json:"final,omitempty"`
	Chain toolspec.Chain `json:"chain,omitempty"`
	// Branches are the best APIs of the request's other parts whose chains were joined to
	// the final step's plan (a compound request's other intents).
	Branches []string `json:"branches,omitempty"`
	// Unplanned are the clauses of the request's other parts whose API could not join the
	// final step's plan (an input nothing binds, or a call it may not share): parts the run
	// does not answer, which its answer and status say.
	Unplanned []string `json:"unplanned,omitempty"`
}

// Intent is one sub-intent of the planner's decision array.
type Intent struct {
	Rank int    `json:"rank"` // dependency_rank
	Text string `json:"text"`
}

// SubGoal is one part of the request as retrieval understood it, for the trace and the
// state query.
type SubGoal struct {
	Text   string   `json:"text"`
	Values []string `json:"values,omitempty"`
	Whole  bool     `json:"whole,omitempty"`
	// Top names the best candidates for this part, best first.
	Top []string `json:"top,omitempty"`
	// Relevant is false when no tool of the graph is similar enough to this part.
	Relevant bool    `json:"relevant"`
	Best     float64 `json:"best,omitempty"`
}

// String gives the sub-goal in one line: `"text" → A, B` or `"text" → no relevant tool`.
func (s SubGoal) String() string {
	what := "the whole request"
	if !s.Whole {
		what = fmt.Sprintf("%q", s.Text)
	}
	if !s.Relevant {
		return what + " → no relevant tool"
	}
	return what + " → " + strings.Join(s.Top, ", ")
}

// Graph searches by name, the values of RetrieveInput.Search.
const (
	SearchAlphaBeta = "alphabeta"
	SearchHeuristic = "heuristic"
	// SearchNone plans the target alone, with no producers from the graph: the evaluation's
	// one-tool-at-a-time baseline, whose missing inputs the user must give.
	SearchNone = "none"
	// DefaultTargets is how many target APIs retrieval recalls (NaviAgent: the top 3).
	DefaultTargets = 3
)

// Error types of the agent's non-retryable activity failures.
const (
	ErrTypeNoGraphStore = "navi.NoGraphStore"
	ErrTypeBadPlan      = "navi.BadPlan"
	ErrTypeNotInGraph   = "navi.NotInGraph"
)
