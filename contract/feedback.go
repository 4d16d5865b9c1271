package contract

import (
	"github.com/naviagent/navi/toolspec"
)

// FeedbackInput is what one executed chain teaches the graph.
type FeedbackInput struct {
	// Key names the chain (workflow, run and chain number): a chain is counted once however
	// often the activity is retried.
	Key         string                `json:"key"`
	Invocations []toolspec.Invocation `json:"invocations"`
	Transitions []toolspec.Transition `json:"transitions,omitempty"`
	// Goals are the parts of the request the chain served, each with the API that served it:
	// retrieval later finds those APIs by requests like them.
	Goals []GoalFeedback `json:"goals,omitempty"`
	// GoalsOnRating says the Goals are the run's proposal, not yet recorded: a run does not
	// know whether it answered from the right tools, and what it learned from a wrong answer
	// would lead later requests like it to the same wrong tool. RecordFeedback leaves them
	// out; a good verdict of navi rate records them (see workflows.RateWorkflow).
	GoalsOnRating bool `json:"goals_on_rating,omitempty"`
	// GoalsKey is the chain whose Goals these are when it is not Key: a rating records the
	// rated chain's sub-goals under that chain's key, so that a second good verdict records
	// nothing twice and a later bad one (Forget) takes them back.
	GoalsKey string `json:"goals_key,omitempty"`
	// Forget names chains (their keys) whose sub-goals are to be forgotten: the user rejected
	// the run, so what it taught retrieval about its tools goes (a bad verdict of navi rate).
	Forget []string `json:"forget,omitempty"`
}

// FeedbackResult is what RecordFeedback recorded: its input, so that a run's history keeps the
// chain where the write ran as a local activity (whose marker holds its result, not its
// input) for `navi rate`, and whether this attempt counted it (false: the key was recorded
// before).
type FeedbackResult struct {
	Recorded FeedbackInput `json:"recorded"`
	Fresh    bool          `json:"fresh"`
}

// GoalFeedback is one sub-goal of a request and the API that served it.
type GoalFeedback struct {
	API  string `json:"api"`
	Text string `json:"text"`
}
