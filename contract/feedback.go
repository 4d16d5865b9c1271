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
