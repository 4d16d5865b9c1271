package workflows

import (
	"time"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/toolspec"
	"github.com/naviagent/navi/twnm"
)

// Run statuses, as reported in results, the state query and the NaviStatus search attribute.
const (
	StatusRunning          = "running"
	StatusWaiting          = "waiting_for_user" // a clarify_intent question is pending
	StatusAnswered         = "answered"
	StatusPartial          = "partial"               // some parts of the request answered; the answer says which were not
	StatusNoTools          = "no_tools"              // the graph holds nothing that matches the query
	StatusFailed           = "failed"                // the tools needed stayed broken and no recombination helped, or the chain never completed
	StatusDeclined         = "declined"              // the user said no to what the run asked to do
	StatusClarifyTimeout   = "clarification_timeout" // the user did not answer before the deadline
	StatusBudgetExhausted  = "budget_exhausted"      // the step budget ran out before an answer
	StatusContinuedAsNew   = "continued"             // the run went on in a new run of the same workflow
	StatusPlannerFailed    = "planner_failed"        // the planner's output stayed invalid after the repair attempt
	PlannerGraphFirst      = "graph-first"
	DefaultMaxSteps        = 12
	DefaultClarifyDeadline = 24 * time.Hour
	DefaultContinueAfter   = 40
)

// Retraining names.
const (
	// DefaultTrainQueue is the task queue of the training activities, so that they can run on
	// a bigger machine than the rest (a worker with -train-queue).
	DefaultTrainQueue = "navi-train"
	// RetrainScheduleID is the ID of the Temporal Schedule `navi schedule retrain` manages.
	RetrainScheduleID = "navi-retrain"
)

// Names of the handlers a query workflow registers.
const (
	// StateQuery returns the run's live QueryState.
	StateQuery = "state"
	// AnswerUpdate carries the user's answer (ClarifyAnswer) to a pending clarify_intent
	// question and returns the question it answered.
	AnswerUpdate = "answer"
	// QuestionUpdate waits in the run until it asks a question other than the one the caller
	// has seen (QuestionWait) or ends, and returns it (Pending): how a client waits for the
	// run's questions without polling its state.
	QuestionUpdate = "question"
)

// QueryRequest starts one query workflow. Zero fields take the worker's defaults.
type QueryRequest struct {
	Query string `json:"query"`
	// Planner forces a planner: "graph-first" or "llm"; empty uses the worker's (the LLM when
	// one is configured, else graph-first).
	Planner string `json:"planner,omitempty"`
	// Search picks the graph search: "alphabeta" (default), "heuristic", or "none" (no graph:
	// a plan is its target alone, the evaluation's one-tool-at-a-time baseline).
	Search string `json:"search,omitempty"`
	// NoFeedback leaves the graph's statistics as they are (the evaluation's static graph).
	NoFeedback bool `json:"no_feedback,omitempty"`
	// NoInertia makes the LLM planner decide every step, even one the learned graph is sure of
	// (planner.Inertial).
	NoInertia bool `json:"no_inertia,omitempty"`
	// MaxSteps bounds planner decisions; 0 means DefaultMaxSteps.
	MaxSteps int `json:"max_steps,omitempty"`
	// MaxParallel bounds the tool calls of a plan that run at once (its independent steps and
	// a compound request's parts); 0 leaves them unbounded, 1 calls them one after another.
	MaxParallel int `json:"max_parallel,omitempty"`
	// Confirm is the operator's confirmation policy for APIs that set none (twnm.ConfirmNever,
	// ConfirmDestructive, ConfirmWrites; empty is ConfirmDestructive): the calls the run asks
	// the user to approve before sending them.
	Confirm string `json:"confirm,omitempty"`
	// ClarifyDeadline bounds how long the run waits for an answer; 0 means DefaultClarifyDeadline.
	ClarifyDeadline time.Duration `json:"clarify_deadline,omitempty"`
	// RerunOf is the workflow ID of the run this one repeats (navi rerun).
	RerunOf string `json:"rerun_of,omitempty"`
	// ContinueAfter is how many planner steps a run takes before it continues as new with
	// its state carried over; 0 means DefaultContinueAfter.
	ContinueAfter int `json:"continue_after,omitempty"`
	// Carry is the state a run hands to its continuation (continue-as-new); nil for a new query.
	Carry *Carry `json:"carry,omitempty"`
	// Limits bound the query and the answers the run takes; zero fields take the defaults.
	Limits Limits `json:"limits"`
}

// QueryResult is what a query workflow returns.
type QueryResult struct {
	Status  string `json:"status"`
	Planner string `json:"planner"`
	Answer  string `json:"answer"`
	// Results holds the outputs of the tools that succeeded, by API.
	Results map[string]map[string]any `json:"results,omitempty"`
	// Chain lists the APIs called successfully, in order.
	Chain toolspec.Chain `json:"chain,omitempty"`
	// Flows are the data flows the successful calls used: an earlier call's output bound to a
	// later call's input. Never nil in a result of this code (empty when none), so that a
	// reader tells "no flow" from a result recorded before runs reported them.
	Flows          []Flow        `json:"flows"`
	Steps          int           `json:"steps"`
	ToolCalls      int           `json:"tool_calls"`
	Recombinations int           `json:"recombinations"`
	Usage          planner.Usage `json:"usage"`
}

// Flow is a data flow a run used: output Output of API From bound input Input of API To.
type Flow struct {
	From   string `json:"from"`
	Output string `json:"output"`
	To     string `json:"to"`
	Input  string `json:"input"`
}

// QueryState is the live state of a run, served by the StateQuery handler.
type QueryState struct {
	Query    string `json:"query"`
	Status   string `json:"status"`
	Planner  string `json:"planner"`
	Step     int    `json:"step"`
	MaxSteps int    `json:"max_steps"`
	// Question is the pending clarify_intent question, Deadline when the run stops waiting.
	Question string    `json:"question,omitempty"`
	Deadline time.Time `json:"deadline,omitempty"`
	// QuestionParams are the inputs ("API.param") the question asks for, when it names them.
	QuestionParams []string `json:"question_params,omitempty"`
	// Confirm is the API whose call the pending question asks the user to approve (a write
	// the confirmation policy names; answer yes or no), empty for other questions.
	Confirm string `json:"confirm,omitempty"`
	// Plan is the plan being executed or last executed.
	Plan *planner.Plan `json:"plan,omitempty"`
	// Bindings are the values bound so far, "API.param" or parameter name → value.
	Bindings   map[string]string `json:"bindings,omitempty"`
	Candidates []string          `json:"candidates,omitempty"`
	// SubGoals are the parts of the request the last retrieval searched for, with their best
	// tools, and Head the head of the last part; Final is the step it chose to end the chain.
	SubGoals []contract.SubGoal `json:"sub_goals,omitempty"`
	Head     *contract.SubGoal  `json:"head,omitempty"`
	Final    string             `json:"final,omitempty"`
	// Branches are the request's other parts whose chains the plan of Final runs too.
	Branches []string `json:"branches,omitempty"`
	// Unplanned are the request's other parts whose tool could not join that plan: the run
	// does not answer them.
	Unplanned []string `json:"unplanned,omitempty"`
	ToolsUsed []string `json:"tools_used,omitempty"`
	// Flows are the data flows the successful calls used so far (see QueryResult.Flows).
	Flows     []Flow        `json:"flows,omitempty"`
	ToolCalls int           `json:"tool_calls"`
	Usage     planner.Usage `json:"usage"`
	Answer    string        `json:"answer,omitempty"`
	RerunOf   string        `json:"rerun_of,omitempty"`
	// Trace lists what the run did, one entry per decision, projection, retrieval, call,
	// recombination, clarification and answer (the last MaxTrace entries).
	Trace []TraceEntry `json:"trace"`
}

// Trace entry kinds.
const (
	TraceDecide    = "decide"
	TraceProject   = "project" // an inadmissible decision replaced by an admissible one
	TraceRetrieve  = "retrieve"
	TraceCall      = "call"
	TraceRecombine = "recombine"
	TraceClarify   = "clarify"
	TraceAnswer    = "answer"
	TraceFeedback  = "feedback"
	TraceContinue  = "continue"
)

// MaxTrace bounds the trace kept in the state and carried across continue-as-new.
const MaxTrace = 200

// TraceEntry is one readable step of a run.
type TraceEntry struct {
	Step    int       `json:"step"` // the planner decision it belongs to
	Kind    string    `json:"kind"`
	Summary string    `json:"summary"`
	OK      bool      `json:"ok"`
	At      time.Time `json:"at"`
}

// ClarifyAnswer is the argument of the AnswerUpdate.
type ClarifyAnswer struct {
	Text string `json:"text"`
}

// QuestionWait is the argument of the QuestionUpdate: After is the Key of the question the
// caller has seen already, "" for none.
type QuestionWait struct {
	After string `json:"after,omitempty"`
}

// Pending is what the QuestionUpdate returns: the question the run waits on, with the inputs
// it asks for and its deadline, or Ended when the run ended or continued as new (then wait on
// the latest run).
type Pending struct {
	Question string    `json:"question,omitempty"`
	Params   []string  `json:"params,omitempty"`
	Confirm  string    `json:"confirm,omitempty"` // the API whose call the question asks to approve
	Deadline time.Time `json:"deadline,omitzero"`
	Ended    bool      `json:"ended,omitempty"`
}

// Pending is the question s waits on, as the QuestionUpdate returns it.
func (s QueryState) Pending() Pending {
	return Pending{Question: s.Question, Params: s.QuestionParams, Confirm: s.Confirm, Deadline: s.Deadline}
}

// Key identifies one asking of a question: the same question asked again has another deadline.
func (p Pending) Key() string {
	if p.Question == "" {
		return ""
	}
	return p.Question + "\x00" + p.Deadline.UTC().Format(time.RFC3339Nano)
}

// Carry is the state a run hands to its continuation.
type Carry struct {
	State QueryState `json:"state"`
	// Context is the planner's context: known values, results, candidates, history.
	Context        planner.Context     `json:"context"`
	APIs           map[string]twnm.API `json:"apis,omitempty"`
	Recombinations int                 `json:"recombinations"`
	Chains         int                 `json:"chains"`
}
