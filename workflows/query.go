// Package workflows holds Navi's Temporal workflows. Workflow code here is deterministic: all
// I/O, time and randomness go through activities or the SDK's APIs.
package workflows

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/twnm"
)

// agentLoopVersion marks runs that execute the planner loop. It is retired: histories recorded
// before it (the graph-lookup slice) no longer replay (testdata/retired).
const (
	agentLoopChange  = "agent-loop"
	agentLoopVersion = 1
	// inputLimitsChange marks runs that check their query against Limits before anything
	// else; runs recorded before it take any query.
	inputLimitsChange  = "input-limits"
	inputLimitsVersion = 1
	// decideProjectsChange marks runs that execute the projection the Decide activity
	// returns; runs recorded before it project the decision in workflow code.
	decideProjectsChange  = "decide-projects"
	decideProjectsVersion = 1
	// composedAnswerChange marks runs whose planner context names the request's other parts
	// (planner.Context.Parts), so that the answer covers them.
	composedAnswerChange  = "composed-answer"
	composedAnswerVersion = 1
	// localDecideChange marks runs whose graph-first decisions run as local activities: the
	// planner is a few microseconds of the worker's own computation, and a local activity
	// saves the server's round trip of scheduling it (its result is still recorded, as a
	// marker). The LLM planner stays an activity: it waits on a remote endpoint, retries for
	// minutes, and heartbeats.
	localDecideChange  = "local-decide"
	localDecideVersion = 1
	// outputPathsChange marks runs that bind an input from a path into an earlier answer that
	// the plan names ("meetings[1].meeting_time") where no output has that name; runs before
	// it found nothing there.
	outputPathsChange  = "output-paths"
	outputPathsVersion = 1
	// prefixedNamesChange marks runs that schedule Navi's activities under their navi.-prefixed
	// names (contract.Prefix), which never collide with a host worker's own activities.
	prefixedNamesChange  = "navi-names"
	prefixedNamesVersion = 1
	// latestReadChange marks runs whose bound values are retrieval's latest reading of the
	// request and the answers: each retrieval's values replace the earlier ones, and the
	// earlier ones are not sent back as if the user had given them. Runs before it kept the
	// first reading, so that an answer could not replace a value read from another part of
	// the request ("which team?" answered "Arsenal" still searched the team "Rome").
	latestReadChange  = "latest-read"
	latestReadVersion = 1
	// localGraphChange marks runs whose retrieval and feedback writes run as local activities:
	// each is one read or write transaction of the worker's own Neo4j store, and a local
	// activity saves Temporal scheduling it, a worker polling it and a workflow task for its
	// result (its result is still recorded, as a marker). The first change after the current
	// type, it calls workflow.GetVersion itself (see version). At localFirstDecideVersion, a
	// run that names no planner asks the worker which it runs (PlannerName, a local activity)
	// before its first decision, so that a graph-first run decides locally from its first step.
	localGraphChange        = "local-graph"
	localGraphVersion       = 1
	localFirstDecideVersion = 2
	// maxHistoryEvents continues a run as new before its history grows past this many events,
	// well under Temporal's limits.
	maxHistoryEvents = 10000
)

// QueryWorkflow answers one user query with the NaviAgent loop: decide (planner activity) →
// project onto the admissible actions → answer, ask the user (waiting durably for the answer
// Update), retrieve candidates from the tool graph, or execute a plan (one activity per tool
// call, recombining the chain when a tool stays broken) → record feedback, until answered or
// the step budget is spent.
func QueryWorkflow(ctx workflow.Context, req QueryRequest) (QueryResult, error) {
	query := strings.TrimSpace(req.Query)
	if query == "" {
		return QueryResult{}, temporal.NewNonRetryableApplicationError("query is empty", contract.ErrTypeInvalidInput, nil)
	}
	if !currentType(ctx) {
		// A retired change (docs/versioning.md): its minimum is raised, so that a run from before
		// the agent loop fails to replay here, saying so, instead of taking a branch that is gone.
		workflow.GetVersion(ctx, agentLoopChange, agentLoopVersion, agentLoopVersion)
	}
	if version(ctx, inputLimitsChange, inputLimitsVersion) >= inputLimitsVersion && req.Carry == nil {
		// Before the query enters any command: an oversized one ends the run here, with one
		// small event, instead of jamming it.
		if err := req.Limits.CheckQuery(query); err != nil {
			return QueryResult{}, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeInputTooLarge, nil)
		}
	}
	if err := twnm.CheckConfirm(req.Confirm); err != nil {
		return QueryResult{}, temporal.NewNonRetryableApplicationError("query request: "+err.Error(), contract.ErrTypeInvalidInput, nil)
	}
	r := newRun(ctx, req, query)
	if err := r.register(); err != nil {
		return QueryResult{}, err
	}
	res, err := r.loop()
	// A QuestionUpdate that waits sees the end and returns before the run closes. (Without
	// one waiting this does not yield: histories recorded before replay as they ran.)
	r.ended = true
	if werr := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); werr != nil && err == nil {
		return res, werr
	}
	return res, err
}

// run is the state of one query workflow execution.
type run struct {
	ctx   workflow.Context
	req   QueryRequest
	state QueryState
	pc    planner.Context
	apis  map[string]twnm.API
	// activity names an activity as this run schedules it (activityNamer).
	activity func(string) string

	recombinations int
	chains         int
	stepsThisRun   int
	answer         *string         // the pending clarification's answer, set by the Update
	confirmed      map[string]bool // calls the user approved (see confirm), as the question showed them
	ended          bool            // the loop returned: waiting QuestionUpdates return
	feedback       []pendingFeedback
}

// pendingFeedback is a feedback activity started and not yet waited for, with the number of
// sub-goals its chain proposes (learned on a good verdict: contract.FeedbackInput.GoalsOnRating).
type pendingFeedback struct {
	workflow.Future
	proposed int
}

func newRun(ctx workflow.Context, req QueryRequest, query string) *run {
	if req.MaxSteps <= 0 {
		req.MaxSteps = DefaultMaxSteps
	}
	if req.ClarifyDeadline <= 0 {
		req.ClarifyDeadline = DefaultClarifyDeadline
	}
	if req.ContinueAfter <= 0 {
		req.ContinueAfter = DefaultContinueAfter
	}
	r := &run{ctx: ctx, req: req, apis: map[string]twnm.API{}, activity: activityNamer(ctx)}
	if c := req.Carry; c != nil {
		r.state, r.pc, r.recombinations, r.chains = c.State, c.Context, c.Recombinations, c.Chains
		for k, v := range c.APIs {
			r.apis[k] = v
		}
		r.req.Carry = nil
		// Empty maps do not survive the JSON of the carried state.
		if r.pc.Known == nil {
			r.pc.Known = map[string]string{}
		}
		if r.pc.Results == nil {
			r.pc.Results = map[string]map[string]any{}
		}
		return r
	}
	r.state = QueryState{Query: query, Status: StatusRunning, Planner: req.Planner, MaxSteps: req.MaxSteps, RerunOf: req.RerunOf}
	r.pc = planner.Context{Query: query, Known: map[string]string{}, Results: map[string]map[string]any{}, MaxSteps: req.MaxSteps}
	return r
}

// register installs the state query and the answer Update.
func (r *run) register() error {
	if err := workflow.SetQueryHandler(r.ctx, StateQuery, func() (QueryState, error) {
		s := r.state
		s.Bindings = r.pc.Known
		return s, nil
	}); err != nil {
		return fmt.Errorf("register state query: %w", err)
	}
	err := workflow.SetUpdateHandlerWithOptions(r.ctx, AnswerUpdate,
		func(_ workflow.Context, a ClarifyAnswer) (string, error) {
			text := strings.TrimSpace(a.Text)
			r.answer = &text
			return r.state.Question, nil
		},
		workflow.UpdateHandlerOptions{Validator: func(_ workflow.Context, a ClarifyAnswer) error {
			switch {
			case r.state.Question == "" || r.answer != nil:
				return errors.New("no question is pending in this run")
			case strings.TrimSpace(a.Text) == "":
				return errors.New("the answer is empty")
			}
			// A rejected Update leaves no event: an oversized answer never enters the history.
			if err := r.req.Limits.CheckAnswer(a.Text); err != nil {
				return err
			}
			return nil
		}})
	if err != nil {
		return fmt.Errorf("register answer update: %w", err)
	}
	err = workflow.SetUpdateHandler(r.ctx, QuestionUpdate, func(ctx workflow.Context, w QuestionWait) (Pending, error) {
		if err := workflow.Await(ctx, func() bool { return r.ended || r.pending().Key() != "" && r.pending().Key() != w.After }); err != nil {
			return Pending{}, err
		}
		return r.pending(), nil
	})
	if err != nil {
		return fmt.Errorf("register question update: %w", err)
	}
	return r.upsert()
}

// pending is the question the run waits on, or Ended.
func (r *run) pending() Pending {
	if r.ended {
		return Pending{Ended: true}
	}
	return r.state.Pending()
}

// loop runs planner steps until the run ends.
func (r *run) loop() (QueryResult, error) {
	for {
		if r.state.Step >= r.req.MaxSteps {
			return r.finish(StatusBudgetExhausted, fmt.Sprintf("I could not answer within the budget of %d planner steps.", r.req.MaxSteps))
		}
		if r.shouldContinueAsNew() {
			return r.continueAsNew()
		}
		r.state.Step++
		r.stepsThisRun++
		r.pc.Step = r.state.Step

		res, err := r.decide()
		if err != nil {
			var appErr *temporal.ApplicationError
			if errors.As(err, &appErr) || temporal.IsTimeoutError(err) {
				return r.finish(StatusPlannerFailed, "The planner failed: "+rootMessage(err))
			}
			return QueryResult{}, err
		}
		proj := r.project(res)
		if proj.Replaced {
			r.recordProjection(proj)
		}
		d := proj.Decision
		before := r.pc.Observation
		var done bool
		var result QueryResult
		switch d.Action {
		case planner.DirectAnswer:
			result, err = r.finish(r.answerStatus(), d.Answer)
			done = true
		case planner.ClarifyIntent:
			done, result, err = r.clarify(d)
		case planner.RetrieveAPI:
			err = r.retrieve(d, res.Decisions)
		case planner.CallAPI:
			err = r.execute(d, proj.Plan)
			if end := (*errEndRun)(nil); errors.As(err, &end) {
				return r.finish(end.status, end.answer)
			}
		}
		if err != nil || done {
			return result, err
		}
		r.pc.History = append(r.pc.History, planner.Turn{Observation: before, Decision: d})
		if n := len(r.pc.History); n > planner.HistoryTurns {
			r.pc.History = r.pc.History[n-planner.HistoryTurns:]
		}
		if err := r.upsert(); err != nil {
			return QueryResult{}, err
		}
	}
}

// Projection is what the history records when an inadmissible decision is replaced.
type Projection struct {
	Step     int              `json:"step"`
	Proposed planner.Decision `json:"proposed"`
	Reason   string           `json:"reason"`
	Executed planner.Decision `json:"executed"`
}

// recordProjection puts a replaced decision in the trace and in the workflow history (as a
// side-effect marker, whose details the UI shows), so that ops see both what the planner
// chose and what ran.
func (r *run) recordProjection(proj planner.Projection) {
	r.trace(TraceProject, false, fmt.Sprintf("%s is not admissible (%s); doing %s instead", proj.Proposed, proj.Reason, proj.Decision))
	rec := Projection{Step: r.state.Step, Proposed: proj.Proposed, Reason: proj.Reason, Executed: proj.Decision}
	_ = workflow.SideEffect(r.ctx, func(workflow.Context) any { return rec }) // recorded; nothing to read back
}

// project is the decision of res to execute: the Decide activity's projection (since
// decideProjectsVersion), else the workflow's own, as runs started before it did.
func (r *run) project(res planner.Result) planner.Projection {
	v := version(r.ctx, decideProjectsChange, decideProjectsVersion)
	if v >= decideProjectsVersion && res.Projection != nil {
		return *res.Projection
	}
	// A run started before the change, or a Decide of a worker that does not project yet.
	return planner.Project(r.pc, res.Decisions[0])
}

// decide runs the planner for the current step: the graph-first planner as a local activity
// (since localDecideVersion), the LLM planner as an activity.
func (r *run) decide() (planner.Result, error) {
	name := r.req.Planner
	if name == "" {
		name = r.state.Planner // what the worker's default turned out to be
	}
	planned := r.req.Planner
	if name == "" && workflow.GetVersion(r.ctx, localGraphChange, workflow.DefaultVersion, localFirstDecideVersion) >= localFirstDecideVersion {
		// The worker says which planner it runs; the first decision then names it, so that a
		// worker configured otherwise that takes that step over decides it alike.
		ctx := workflow.WithLocalActivityOptions(r.ctx, workflow.LocalActivityOptions{
			StartToCloseTimeout: 10 * time.Second, ScheduleToCloseTimeout: time.Minute, Summary: "the worker's planner",
		})
		if err := workflow.ExecuteLocalActivity(ctx, r.activity(contract.ActivityPlannerName)).Get(r.ctx, &name); err != nil {
			return planner.Result{}, fmt.Errorf("ask the worker's planner: %w", err)
		}
		planned = name
	}
	if name == "" {
		name = "worker default"
	}
	retry := &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 30 * time.Second, MaximumAttempts: 5,
		NonRetryableErrorTypes: contract.ErrorTypes(contract.ErrTypePlannerInvalidOutput, contract.ErrTypeLLMUnauthorized, contract.ErrTypeLLMRejected, contract.ErrTypeNoLLM, contract.ErrTypeInvalidInput)}
	label := fmt.Sprintf("decide: step %d (%s)", r.state.Step, name)
	in := contract.DecideInput{Planner: planned, Context: r.pc, NoInertia: r.req.NoInertia}
	var fut workflow.Future
	if name == contract.PlannerGraphFirst && version(r.ctx, localDecideChange, localDecideVersion) >= localDecideVersion {
		ctx := workflow.WithLocalActivityOptions(r.ctx, workflow.LocalActivityOptions{
			StartToCloseTimeout: 10 * time.Second, ScheduleToCloseTimeout: time.Minute, RetryPolicy: retry, Summary: label,
		})
		fut = workflow.ExecuteLocalActivity(ctx, r.activity(contract.ActivityDecide), in)
	} else {
		ctx := workflow.WithActivityOptions(r.ctx, workflow.ActivityOptions{
			// A model on a CPU takes tens of seconds a call, and a repair is a second call;
			// the heartbeat, not this, finds a lost worker.
			StartToCloseTimeout: 10 * time.Minute, HeartbeatTimeout: contract.KeepAliveTimeout, RetryPolicy: retry, Summary: label,
		})
		fut = workflow.ExecuteActivity(ctx, r.activity(contract.ActivityDecide), in)
	}
	var res planner.Result
	err := fut.Get(r.ctx, &res)
	if err != nil {
		r.trace(TraceDecide, false, "planner failed: "+rootMessage(err))
		return res, err
	}
	r.state.Usage = r.state.Usage.Add(res.Usage)
	r.state.Planner = res.Planner
	summary := fmt.Sprintf("%s decided %s", res.Planner, res.Decisions[0])
	switch {
	case res.Fallback != "":
		summary = fmt.Sprintf("%s's answer stayed invalid after a repair, so graph-first decided %s (%s)", res.Planner, res.Decisions[0], res.Fallback)
	case res.Repaired:
		summary += " (after a repair: " + res.RepairReason + ")"
	}
	taken := 1 // the decisions this step executes or leaves out
	if p := res.Projection; p != nil {
		if len(p.Also) > 0 { // its sub-intents of the same rank, in one plan
			also := make([]string, len(p.Also))
			for i, d := range p.Also {
				also[i] = d.TargetAPI
			}
			summary += ", with " + strings.Join(also, ", ")
		}
		if len(p.Left) > 0 {
			summary += " (left out: " + strings.Join(p.Left, "; ") + ")"
		}
		taken += len(p.Also) + len(p.Left)
	}
	if n := len(res.Decisions) - taken; n > 0 {
		summary += fmt.Sprintf(" (+%d later sub-intents)", n)
	}
	r.trace(TraceDecide, true, summary)
	return res, nil
}

// truthfulStatusChange marks runs whose status says what their answer is: answered only when
// every part of the request was served with a result, partial when some part was not,
// failed when no chain ran to its end, declined when the user said no.
const (
	truthfulStatusChange  = "truthful-status"
	truthfulStatusVersion = 1
)

// truthful reports whether this run's statuses follow truthfulStatusChange.
func (r *run) truthful() bool {
	return version(r.ctx, truthfulStatusChange, truthfulStatusVersion) != workflow.DefaultVersion
}

// answerStatus is the status of a run the planner answers now.
func (r *run) answerStatus() string {
	truthful := r.truthful()
	switch {
	case len(r.pc.Completed) > 0:
		if truthful && r.partUnanswered() {
			return StatusPartial
		}
		return StatusAnswered
	case len(r.pc.Failed) > 0:
		return StatusFailed
	case len(r.pc.Recalled) > 0 && len(r.pc.Candidates) == 0:
		return StatusNoTools
	case truthful: // an answer with no chain behind it ("I could not complete the request")
		return StatusFailed
	}
	return StatusAnswered
}

// partUnanswered reports whether a part of the request has no answer, as the answer says (see
// planner's unservedNote and partsNote): no tool serves a part of the user's own words, or the
// API that serves a part failed and nothing took its place. Only parts of the user's words
// count: not a clause of an LLM planner's recall description (Unserved), nor a part retrieval
// found in one (Parts, when the last retrieval read a description rather than the request),
// and not a part an LLM planner chose not to run.
func (r *run) partUnanswered() bool {
	query := strings.ToLower(r.pc.Query)
	inQuery := func(part string) bool { return strings.Contains(query, strings.ToLower(part)) }
	if slices.ContainsFunc(r.pc.Unserved, inQuery) || slices.ContainsFunc(r.pc.Unplanned, inQuery) {
		return true
	}
	n := len(r.pc.Recalled)
	if n == 0 || !strings.HasPrefix(strings.ToLower(r.pc.Recalled[n-1]), query) {
		return false // the parts are a planner's description's
	}
	return slices.ContainsFunc(r.pc.Parts, func(api string) bool {
		_, ok := r.pc.Results[api]
		return !ok && slices.Contains(r.pc.Failed, api)
	})
}

// clarify asks the user and waits, durably, for the answer Update or the deadline.
func (r *run) clarify(d planner.Decision) (bool, QueryResult, error) {
	var params []string
	if c, ok := r.pc.Candidate(d.TargetAPI); ok {
		params = planner.Bind(c.Plan, r.pc.Known, nil).Missing()
	}
	question := d.Answer
	answer, answered, err := r.ask(question, params)
	if err != nil {
		return true, QueryResult{}, err
	}
	if !answered {
		res, err := r.finish(StatusClarifyTimeout, fmt.Sprintf("No answer to %q arrived within %s.", question, r.req.ClarifyDeadline))
		return true, res, err
	}
	r.pc.Clarifications = append(r.pc.Clarifications, planner.QA{Question: question, Params: params, Answer: answer})
	r.pc.Observation = fmt.Sprintf("The user answered %q to %q.", answer, question)
	return false, QueryResult{}, nil
}

// ask puts a question to the user (params: the inputs it asks for) and waits, durably, for
// the answer Update or the clarification deadline; answered is false at the deadline.
func (r *run) ask(question string, params []string) (answer string, answered bool, err error) {
	deadline := workflow.Now(r.ctx).Add(r.req.ClarifyDeadline)
	r.state.Status, r.state.Question, r.state.Deadline, r.state.QuestionParams = StatusWaiting, question, deadline, params
	r.answer = nil
	r.trace(TraceClarify, true, "asked: "+question)
	if err := r.upsert(); err != nil {
		return "", false, err
	}
	answered, err = workflow.AwaitWithTimeout(r.ctx, r.req.ClarifyDeadline, func() bool { return r.answer != nil })
	if err != nil {
		return "", false, fmt.Errorf("wait for the answer: %w", err)
	}
	r.state.Status, r.state.Question, r.state.Deadline, r.state.QuestionParams = StatusRunning, "", time.Time{}, nil
	if !answered {
		return "", false, nil
	}
	answer, r.answer = *r.answer, nil
	r.trace(TraceClarify, true, "answered: "+answer)
	return answer, true, nil
}

// retrieve recalls candidates and their plans from the tool graph. When the planner split the
// request into several sub-intents, retrieval searches for each of them.
func (r *run) retrieve(d planner.Decision, all []planner.Decision) error {
	summary := "retrieve: " + quote(d.RecallDescription, 60)
	texts := []string{r.pc.Query}
	for _, qa := range r.pc.Clarifications {
		texts = append(texts, qa.Answer)
	}
	latest := version(r.ctx, latestReadChange, latestReadVersion) >= latestReadVersion
	// Relative days ("tomorrow") are the user's, dated from the day the run started.
	today := workflow.GetInfo(r.ctx).WorkflowStartTime.UTC().Format(time.DateOnly)
	in := contract.RetrieveInput{Description: d.RecallDescription, Text: strings.Join(texts, "\n"),
		Known: r.pc.Known, Exclude: r.pc.Failed, Search: r.req.Search, Intents: intents(all), Today: today}
	if latest {
		in.Known, in.Answers = nil, r.pc.Clarifications
	}
	var res contract.RetrieveResult
	if err := r.graphActivity(summary, contract.ActivityRetrieve, in).Get(r.ctx, &res); err != nil {
		r.trace(TraceRetrieve, false, "retrieval failed: "+rootMessage(err))
		return fmt.Errorf("retrieve: %w", err)
	}
	r.pc.Recalled = append(r.pc.Recalled, d.RecallDescription)
	r.pc.Candidates, r.pc.Tree = res.Candidates, res.Tree
	for k, v := range res.Extracted {
		if _, ok := r.pc.Known[k]; !ok || latest {
			r.pc.Known[k] = v
		}
	}
	for k, v := range res.APIs {
		r.apis[k] = v
	}
	r.state.Candidates, r.state.SubGoals, r.state.Head, r.state.Final, r.state.Branches = nil, res.SubGoals, res.Head, res.Final, res.Branches
	if version(r.ctx, composedAnswerChange, composedAnswerVersion) >= composedAnswerVersion {
		r.pc.Parts = res.Branches // the answer covers them; runs recorded before it answered the final step alone
	}
	// Runs recorded before retrieval reported them have none: nothing changes on replay.
	r.pc.Unplanned, r.state.Unplanned = res.Unplanned, res.Unplanned
	if len(res.SubGoals) > 0 {
		goals := make([]string, len(res.SubGoals))
		for i, g := range res.SubGoals {
			goals[i] = g.String()
		}
		msg := "sub-goals: " + strings.Join(goals, "; ")
		if res.Skipped > 0 {
			msg += fmt.Sprintf("; the request is long: retrieval read its first parts and its last, and left out %d", res.Skipped)
		}
		if res.Head != nil {
			msg += "; its last part asks for " + res.Head.String()
		}
		if len(res.Branches) > 0 {
			msg += "; the plan of " + res.Final + " also runs " + strings.Join(res.Branches, ", ") + " for the request's other parts"
		}
		r.trace(TraceRetrieve, true, msg)
	}
	for _, u := range res.Unplanned {
		r.trace(TraceRetrieve, false, fmt.Sprintf("no tool for %q could join the plan of %s: that part stays unanswered", u, res.Final))
	}
	var parts []string
	for _, c := range res.Candidates {
		r.state.Candidates = append(r.state.Candidates, c.API)
		status := "ready"
		if m := planner.Bind(c.Plan, r.pc.Known, nil).Missing(); len(m) > 0 {
			status = "missing " + strings.Join(m, ", ")
		}
		if links := c.Plan.PredictedLinks(); len(links) > 0 {
			status += "; via a predicted link: " + strings.Join(links, "; ")
		}
		parts = append(parts, fmt.Sprintf("%s (%.2f; plan %s; %s)", c.API, c.Score, strings.Join(c.Plan.APIs(), " → "), status))
	}
	var irrelevant []string
	r.pc.Unserved = nil
	for _, g := range res.SubGoals {
		if !g.Relevant {
			irrelevant = append(irrelevant, quote(g.Text, 60))
			if !g.Whole {
				r.pc.Unserved = append(r.pc.Unserved, g.Text)
			}
		}
	}
	switch {
	case len(parts) == 0 && res.Refused != "":
		r.pc.Observation = planner.RefusedObservation + res.Refused + "."
	case len(parts) == 0 && len(irrelevant) > 0:
		r.pc.Observation = "No tool in the graph is relevant enough to " + strings.Join(irrelevant, ", ") + "."
	case len(parts) == 0:
		r.pc.Observation = "Retrieval found no candidate API."
	default:
		r.pc.Observation = "Retrieved candidates: " + strings.Join(parts, "; ") + "."
	}
	r.trace(TraceRetrieve, len(parts) > 0, r.pc.Observation)
	return nil
}

// intents are the planner's sub-intents in dependency order, as retrieval's sub-goals: each
// one's recall description, or its intent. One sub-intent gives none: retrieval splits the
// request itself.
func intents(ds []planner.Decision) []contract.Intent {
	if len(ds) < 2 {
		return nil
	}
	var out []contract.Intent
	for _, d := range ds {
		text := strings.TrimSpace(d.RecallDescription)
		if text == "" {
			text = strings.TrimSpace(d.Intent)
		}
		if text != "" {
			out = append(out, contract.Intent{Rank: d.DependencyRank, Text: text})
		}
	}
	return out
}

// finish ends the run with status and answer, after the pending feedback is recorded.
func (r *run) finish(status, answer string) (QueryResult, error) {
	r.awaitFeedback()
	r.state.Status, r.state.Answer = status, answer
	r.trace(TraceAnswer, status == StatusAnswered, answer)
	if err := r.upsert(); err != nil {
		return QueryResult{}, err
	}
	return QueryResult{
		Status: status, Planner: r.state.Planner, Answer: answer, Results: r.pc.Results, Chain: r.pc.Called,
		Flows: append([]Flow{}, r.state.Flows...),
		Steps: r.state.Step, ToolCalls: r.state.ToolCalls, Recombinations: r.recombinations, Usage: r.state.Usage,
	}, nil
}

// shouldContinueAsNew reports whether the history has grown enough to start a fresh run.
func (r *run) shouldContinueAsNew() bool {
	info := workflow.GetInfo(r.ctx)
	return r.stepsThisRun >= r.req.ContinueAfter || info.GetContinueAsNewSuggested() || info.GetCurrentHistoryLength() > maxHistoryEvents
}

// continueAsNew hands the run's state to a new run of the same workflow.
func (r *run) continueAsNew() (QueryResult, error) {
	r.awaitFeedback()
	r.trace(TraceContinue, true, fmt.Sprintf("continuing as new after %d steps of this run", r.stepsThisRun))
	req := r.req
	req.Carry = &Carry{State: r.state, Context: r.pc, APIs: r.apis, Recombinations: r.recombinations, Chains: r.chains}
	return QueryResult{}, workflow.NewContinueAsNewError(r.ctx, QueryWorkflow, req)
}

// trace appends an entry to the run's trace, keeping the last MaxTrace.
func (r *run) trace(kind string, ok bool, summary string) {
	r.state.Trace = append(r.state.Trace, TraceEntry{Step: r.state.Step, Kind: kind, Summary: summary, OK: ok, At: workflow.Now(r.ctx)})
	if n := len(r.state.Trace); n > MaxTrace {
		r.state.Trace = r.state.Trace[n-MaxTrace:]
	}
}

// upsert publishes the run's status, steps, LLM calls (made and saved) and tools as search
// attributes.
func (r *run) upsert() error {
	updates := []temporal.SearchAttributeUpdate{
		StatusAttr.ValueSet(r.state.Status), StepsAttr.ValueSet(int64(r.state.Step)),
		LLMCallsAttr.ValueSet(int64(r.state.Usage.LLMCalls)),
	}
	if r.state.Planner != "" {
		updates = append(updates, PlannerAttr.ValueSet(r.state.Planner))
	}
	// Only runs with an inertial step set it, so the upserts of runs recorded before inertia
	// replay as they were.
	if r.state.Usage.LLMSaved > 0 {
		updates = append(updates, LLMSavedAttr.ValueSet(int64(r.state.Usage.LLMSaved)))
	}
	if len(r.state.ToolsUsed) > 0 {
		updates = append(updates, ToolsUsedAttr.ValueSet(r.state.ToolsUsed))
	}
	if err := workflow.UpsertTypedSearchAttributes(r.ctx, updates...); err != nil {
		return fmt.Errorf("upsert search attributes: %w", err)
	}
	return nil
}

// graphRetry is the retry policy of activities that read or write Neo4j: an outage is
// retried for minutes, bad input or credentials are not.
func graphRetry() *temporal.RetryPolicy {
	return &temporal.RetryPolicy{
		InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 30 * time.Second, MaximumAttempts: 20,
		NonRetryableErrorTypes: contract.ErrorTypes(contract.ErrTypeInvalidInput, contract.ErrTypeGraphAuth, contract.ErrTypeBadPlan, contract.ErrTypeNoGraphStore, contract.ErrTypeNotInGraph),
	}
}

// graphActivity starts activity, a read or write of the worker's graph store, retried until
// the graph is back: as a local activity since localGraphVersion, else as an activity.
func (r *run) graphActivity(summary, activity string, in any) workflow.Future {
	if workflow.GetVersion(r.ctx, localGraphChange, workflow.DefaultVersion, localFirstDecideVersion) >= localGraphVersion {
		ctx := workflow.WithLocalActivityOptions(r.ctx, workflow.LocalActivityOptions{
			StartToCloseTimeout: time.Minute, ScheduleToCloseTimeout: graphRetryFor, RetryPolicy: graphRetry(), Summary: summary,
		})
		return workflow.ExecuteLocalActivity(ctx, r.activity(activity), in)
	}
	return workflow.ExecuteActivity(graphContext(r.ctx, summary), r.activity(activity), in)
}

// graphRetryFor bounds a local graph activity's attempts together: graphRetry's 20 attempts
// at most 30 s apart, each at most a minute. A local activity's end-to-end timeout is its
// single attempt's unless set.
const graphRetryFor = 30 * time.Minute

// graphContext is ctx with the options of an activity that reads or writes the graph store,
// retried until the graph is back.
func graphContext(ctx workflow.Context, summary string) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		HeartbeatTimeout:    contract.KeepAliveTimeout,
		RetryPolicy:         graphRetry(),
		Summary:             summary,
	})
}

// rootMessage is the innermost message of an activity error, which says what went wrong.
func rootMessage(err error) string {
	var appErr *temporal.ApplicationError
	if errors.As(err, &appErr) {
		return appErr.Error()
	}
	for u := errors.Unwrap(err); u != nil; u = errors.Unwrap(err) {
		err = u
	}
	return err.Error()
}

// quote shortens s to at most n runes and quotes it, for one-line summaries.
func quote(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return fmt.Sprintf("%q", s)
}
