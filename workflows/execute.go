package workflows

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/toolspec"
	"github.com/naviagent/navi/twnm"
)

// recombinationStrategies are tried in this order, each as an activity of its own so that the
// history shows which one repaired the chain (NaviAgent Section 3.3).
var recombinationStrategies = []string{twnm.StrategySubstitution, twnm.StrategyUpstreamReroute, twnm.StrategySubgraphSwitch}

// execution is one execution of a plan: its calls and data flows, for feedback.
type execution struct {
	invs []twnm.Invocation
	trs  []twnm.Transition
}

// parallelStepsChange marks runs that call a plan's independent steps at once (the other
// parts of a request beside the final step's chain, two producers of one step); runs recorded
// before it call every step in turn.
const (
	parallelStepsChange  = "parallel-steps"
	parallelStepsVersion = 1
)

// execute runs a bound plan. A step whose tool fails after its retries is recombined; steps
// that already succeeded (in this chain or earlier) are not called again. Steps whose inputs
// are all at hand run at once (executeReady), since parallelStepsChange; before it, one by one.
func (r *run) execute(d planner.Decision, plan planner.Plan) error {
	r.chains++
	var ch execution
	defer r.recordFeedback(&ch)
	r.setPlan(plan)
	if version(r.ctx, parallelStepsChange, parallelStepsVersion) >= parallelStepsVersion {
		return r.executeReady(plan, &ch)
	}
	for i := 0; i < len(plan.Steps); i++ {
		step := plan.Steps[i]
		if slices.Contains(r.pc.Called, step.API) {
			continue
		}
		args, miss := r.args(plan, step)
		if miss != nil {
			next, ok := r.withoutOutput(plan, step, *miss)
			if !ok {
				return nil
			}
			plan, i = next, -1
			continue
		}
		out, err := r.call(step.API, args, i)
		if cut := r.settle(&ch, plan, step, args, out, err); cut != nil {
			return r.cutOff(step.API, cut)
		}
		if err == nil {
			continue
		}
		next, ok := r.recombine(plan, i)
		if !ok {
			r.pc.Observation = fmt.Sprintf("%s failed (%s) and no recombination found another path.", step.API, rootMessage(err))
			return nil
		}
		plan, i = next, -1
	}
	r.pc.Completed = append(r.pc.Completed, plan.Target)
	r.pc.Observation = fmt.Sprintf("The chain %s ran; %s returned %s.", strings.Join(plan.APIs(), " → "), plan.Target, describe(r.pc.Results[plan.Target]))
	return nil
}

// executeReady runs plan in rounds: each round calls at once every step not called yet whose
// upstream inputs earlier steps have produced (in plan order, so that the history reads the
// same on every replay; at most QueryRequest.MaxParallel of them when set), then takes their
// outcomes in that order. A step whose producer
// answered without the output it needs, or whose tool failed, is recombined after the round,
// the first in plan order; what the round's other steps produced is kept.
func (r *run) executeReady(plan planner.Plan, ch *execution) error {
	dropped := map[string]bool{} // other parts that failed for good: the final step goes on without them
	var notes []string
	for {
		type started struct {
			i    int
			args map[string]string
			call pendingCall
		}
		var round []started
		recombined := false
		for i, step := range plan.Steps {
			if slices.Contains(r.pc.Called, step.API) || dropped[step.API] || !r.inputsReady(step) {
				continue
			}
			args, miss := r.args(plan, step)
			if miss != nil {
				next, ok := r.withoutOutput(plan, step, *miss)
				if !ok {
					return nil
				}
				plan, round, recombined = next, nil, true
				break
			}
			if err := r.confirm(step, args); err != nil {
				return err
			}
			round = append(round, started{i: i, args: args, call: r.startCall(step.API, args, i)})
			if r.req.MaxParallel > 0 && len(round) >= r.req.MaxParallel {
				break // the other ready steps start in the next round
			}
		}
		if len(round) == 0 {
			if recombined {
				continue // the next round runs the new plan
			}
			if waiting := r.firstWaiting(plan, dropped); waiting != "" {
				// A step waits on a producer that will not run (it ran in an earlier chain
				// that failed, or the plan does not hold it): the chain cannot go on.
				r.pc.Observation = fmt.Sprintf("%s needs an output that no step of the plan produced; the chain stopped.", waiting)
				return nil
			}
			break
		}
		failed, failure := -1, error(nil)
		for _, st := range round {
			step := plan.Steps[st.i]
			out, err := r.finishCall(st.call)
			if cut := r.settle(ch, plan, step, st.args, out, err); cut != nil {
				return r.cutOff(step.API, cut)
			}
			if err == nil {
				continue
			}
			if failed < 0 {
				failed, failure = st.i, err
			}
		}
		if failed >= 0 {
			api := plan.Steps[failed].API
			if next, asked, err := r.askRefused(plan, failed, failure); err != nil {
				return err
			} else if asked {
				// The tool refused the user's value: that says nothing of the tool.
				ch.forget(api)
				plan = next
				continue // the next round calls the step again with the user's value
			}
			next, ok := r.recombine(plan, failed)
			switch {
			case ok:
				plan = next
			case !needs(plan, plan.Target, api):
				// Another part of the request failed: the final step's chain goes on, and what
				// the other parts produced is kept.
				for _, s := range plan.Steps {
					if needs(plan, s.API, api) {
						dropped[s.API] = true // api itself, and the steps of its part that need it
					}
				}
				notes = append(notes, fmt.Sprintf("%s failed (%s) and no recombination found another path.", api, rootMessage(failure)))
			default:
				r.pc.Observation = fmt.Sprintf("%s failed (%s) and no recombination found another path.", api, rootMessage(failure))
				return nil
			}
		}
	}
	r.pc.Completed = append(r.pc.Completed, plan.Target)
	r.pc.Observation = strings.Join(append(notes, fmt.Sprintf("The chain %s ran; %s returned %s.",
		strings.Join(plan.APIs(), " → "), plan.Target, describe(r.pc.Results[plan.Target]))), " ")
	return nil
}

// needs reports whether api is step's own API or feeds it, directly or through other steps
// of plan.
func needs(plan planner.Plan, step, api string) bool {
	seen := map[string]bool{}
	var walk func(s string) bool
	walk = func(s string) bool {
		if s == api {
			return true
		}
		if seen[s] {
			return false
		}
		seen[s] = true
		i := plan.StepOf(s)
		if i < 0 {
			return false
		}
		for _, b := range plan.Steps[i].Bindings {
			if b.Source == planner.SourceUpstream && walk(b.FromAPI) {
				return true
			}
		}
		return false
	}
	return walk(step)
}

// absent is an earlier step's output that a step needs and its answer does not hold: the
// output of producer, or the item of its list that item names (toolspec.Binding.Item).
type absent struct{ producer, output, item string }

// withoutOutput recombines plan around the producer of miss, which answered without the
// output that step needs (schema drift): that producer is what failed. false, with the
// observation set, when no recombination found another path. Where the output is the item of
// a list the request names, the producer did not fail: its list holds no such item, which the
// run says, and the chain stops there (false).
func (r *run) withoutOutput(plan planner.Plan, step planner.PlanStep, miss absent) (planner.Plan, bool) {
	producer, missing := miss.producer, miss.output
	if miss.item != "" {
		r.trace(TraceCall, false, fmt.Sprintf("%s lists nothing named %q, which %s needs", producer, miss.item, step.API))
		r.pc.Observation = fmt.Sprintf("%s lists nothing named %q: %s was not called.", producer, miss.item, step.API)
		return plan, false
	}
	r.trace(TraceCall, false, fmt.Sprintf("%s returned no %s, which %s needs", producer, missing, step.API))
	r.markFailed(producer)
	next, ok := r.recombine(plan, plan.StepOf(producer))
	if !ok {
		r.pc.Observation = fmt.Sprintf("%s returned no %s and no recombination found another path.", producer, missing)
	}
	return next, ok
}

// cutOff ends a chain whose call of api was cut off with its worker. It is not the tool's
// failure: nothing to recombine around, nothing against it in the graph. The planner sees what
// happened and may call again, unless the call may have taken effect: then it stays out of
// the admissible calls of this run, and when the run could not find out (cutOffCheckChange)
// the run ends: doing the same with another tool might do it twice.
func (r *run) cutOff(api string, cut *errCutOff) error {
	if cut.mayHaveRun {
		r.markFailed(api)
		if cut.reason != "" {
			what := "the worker running it stopped before it answered"
			if cut.unanswered {
				what = "no answer came back"
			}
			status := StatusFailed
			if cut.declined && r.truthful() {
				status = StatusDeclined
			}
			return &errEndRun{status: status, answer: fmt.Sprintf(
				"I sent %s, but %s, and it may have gone through. I did not send it again (%s), nor anything in its place. Check %s before asking again.",
				cut.api, what, cut.reason, cut.api)}
		}
	}
	r.pc.Observation = cut.Error()
	return nil
}

// settle takes the outcome of a step's call: the chain's record of it, then what it answered,
// or that its tool failed. A call cut off with its worker is neither: settle returns the
// cut-off, for cutOff.
func (r *run) settle(ch *execution, plan planner.Plan, step planner.PlanStep, args map[string]string, out contract.CallToolResult, err error) *errCutOff {
	if cut := (*errCutOff)(nil); errors.As(err, &cut) {
		return cut
	}
	ch.add(plan, step, args, err == nil && out.Suspect == "", out.Observed, workflow.Now(r.ctx))
	if err == nil && out.Suspect != "" {
		ch.invs[len(ch.invs)-1].Signal = twnm.SignalCatalog // it answered; the catalog check failed it
	}
	if err == nil {
		r.succeeded(step, out)
	} else {
		r.markFailed(step.API)
	}
	return nil
}

// succeeded keeps what a step's call answered, and the flows into it from earlier calls.
func (r *run) succeeded(step planner.PlanStep, out contract.CallToolResult) {
	api := step.API
	for _, b := range step.Bindings {
		f := Flow{From: b.FromAPI, Output: b.FromOutput, To: api, Input: b.Param}
		if b.Source == planner.SourceUpstream && slices.Contains(r.pc.Called, b.FromAPI) && !slices.Contains(r.state.Flows, f) {
			r.state.Flows = append(r.state.Flows, f)
		}
	}
	r.pc.Results[api] = out.Output
	r.pc.Called = append(r.pc.Called, api)
	if !slices.Contains(r.state.ToolsUsed, api) {
		r.state.ToolsUsed = append(r.state.ToolsUsed, api)
	}
}

// inputsReady reports whether every upstream input of step has been produced: its producer
// was called, in this chain or earlier.
func (r *run) inputsReady(step planner.PlanStep) bool {
	for _, b := range step.Bindings {
		if b.Source == planner.SourceUpstream && !slices.Contains(r.pc.Called, b.FromAPI) {
			return false
		}
	}
	return true
}

// firstWaiting names the first step of plan not called yet nor dropped, "" when there is none.
func (r *run) firstWaiting(plan planner.Plan, dropped map[string]bool) string {
	for _, s := range plan.Steps {
		if !slices.Contains(r.pc.Called, s.API) && !dropped[s.API] {
			return s.API
		}
	}
	return ""
}

// call runs one tool call with the tool's own retry policy and timeouts. Runs recorded before
// crashAwareCallsChange leave the retries to Temporal; later ones retry in the workflow
// (callAttempts), so that attempts lost to a dead worker are told apart from the tool's.
func (r *run) call(api string, args map[string]string, step int) (contract.CallToolResult, error) {
	if version(r.ctx, crashAwareCallsChange, crashAwareCallsVersion) == workflow.DefaultVersion {
		spec := r.apis[api]
		startToClose, heartbeat, policy := contract.ToolRetryPolicy(spec)
		r.state.ToolCalls++
		var out contract.CallToolResult
		ctx := workflow.WithActivityOptions(r.ctx, workflow.ActivityOptions{
			StartToCloseTimeout: startToClose,
			HeartbeatTimeout:    heartbeat,
			RetryPolicy:         temporalRetry(policy),
			Summary:             "call " + api,
		})
		err := workflow.ExecuteActivity(ctx, r.activity(contract.ActivityCallTool), contract.CallToolInput{API: spec, Args: args, Step: step}).Get(r.ctx, &out)
		return r.traceCall(api, args, out, err)
	}
	return r.finishCall(r.startCall(api, args, step))
}

// pendingCall is a tool call whose first attempt has started: callAttempts goes on with it.
type pendingCall struct {
	in     contract.CallToolInput
	first  workflow.Future
	policy *contract.RetryPolicy
	// startToClose and heartbeat are the attempts' timeouts.
	startToClose, heartbeat time.Duration
}

// startCall counts a tool call and starts its first attempt, under the call's idempotency
// key, without waiting for it: calls that do not depend on each other run at once.
func (r *run) startCall(api string, args map[string]string, step int) pendingCall {
	spec := r.apis[api]
	startToClose, heartbeat, policy := contract.ToolRetryPolicy(spec)
	r.state.ToolCalls++
	info := workflow.GetInfo(r.ctx)
	p := pendingCall{policy: policy, startToClose: startToClose, heartbeat: heartbeat,
		in: contract.CallToolInput{API: spec, Args: args, Step: step,
			IdempotencyKey: fmt.Sprintf("navi/%s/%s/call-%d", info.WorkflowExecution.ID, info.WorkflowExecution.RunID, r.state.ToolCalls)}}
	p.first = r.attempt(p, "call "+spec.Name)
	return p
}

// temporalRetry is p as the SDK takes it.
func temporalRetry(p *contract.RetryPolicy) *temporal.RetryPolicy {
	return &temporal.RetryPolicy{InitialInterval: p.InitialInterval, BackoffCoefficient: p.BackoffCoefficient,
		MaximumInterval: p.MaximumInterval, MaximumAttempts: p.MaximumAttempts, NonRetryableErrorTypes: p.NonRetryableErrorTypes}
}

// attempt starts one attempt of a call.
func (r *run) attempt(p pendingCall, summary string) workflow.Future {
	ctx := workflow.WithActivityOptions(r.ctx, workflow.ActivityOptions{
		StartToCloseTimeout: p.startToClose,
		HeartbeatTimeout:    p.heartbeat,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
		Summary:             summary,
	})
	return workflow.ExecuteActivity(ctx, r.activity(contract.ActivityCallTool), p.in)
}

// finishCall waits for a started call, retries it as callAttempts says, and traces the
// outcome.
func (r *run) finishCall(p pendingCall) (contract.CallToolResult, error) {
	out, err := r.callAttempts(p)
	return r.traceCall(p.in.API.Name, p.in.Args, out, err)
}

// traceCall puts a call's outcome in the trace and returns it.
func (r *run) traceCall(api string, args map[string]string, out contract.CallToolResult, err error) (contract.CallToolResult, error) {
	if cut := (*errCutOff)(nil); errors.As(err, &cut) {
		r.trace(TraceCall, false, cut.Error())
		return out, err
	}
	if err != nil {
		r.trace(TraceCall, false, fmt.Sprintf("%s failed: %s", api, rootMessage(err)))
		return out, err
	}
	summary := fmt.Sprintf("%s(%s) → %s", api, formatArgs(args), describe(out.Output))
	if out.Suspect != "" {
		summary += " (" + out.Suspect + ": not learned as a success)"
	}
	r.trace(TraceCall, true, summary)
	return out, nil
}

// crashAwareCallsChange marks runs whose tool calls retry in the workflow.
const (
	crashAwareCallsChange  = "crash-aware-calls"
	crashAwareCallsVersion = 1
	// MaxWorkerLosses is how many attempts of one tool call may be lost to dead or stuck
	// workers (heartbeat or start-to-close timeouts) before the call is given up, without
	// blaming the tool.
	MaxWorkerLosses = 5
)

// cutOffCheckChange marks runs that find out whether a call of an unsafe API cut off with its
// worker took effect (through the API's check, else by asking the user) instead of giving it
// up at once.
const (
	cutOffCheckChange  = "cut-off-check"
	cutOffCheckVersion = 1
)

// outcomeUnknownChange marks runs that resolve a call of an unsafe API sent and left without
// an answer (contract.ErrTypeToolOutcomeUnknown: it timed out, or its connection or MCP
// server broke) as they resolve one cut off with its worker: through its check, else by
// asking the user; never by sending it again blindly, nor by another tool in its place.
const (
	outcomeUnknownChange  = "outcome-unknown-check"
	outcomeUnknownVersion = 1
)

// confirmWritesChange marks runs that ask the user to approve a call the confirmation policy
// names (twnm.API.NeedsConfirm: by default a destructive call, or a write fed by another
// call's output) before sending it.
const (
	confirmWritesChange  = "confirm-writes"
	confirmWritesVersion = 1
)

// confirm asks the user to approve the call of step with args where the policy says so (the
// API's, else QueryRequest.Confirm), showing the call, and waits for the answer Update. It
// returns an errEndRun when the user says no (declined) or does not answer in time: the call
// is not sent, nor anything in its place.
func (r *run) confirm(step planner.PlanStep, args map[string]string) error {
	spec, ok := r.apis[step.API]
	fed := slices.ContainsFunc(step.Bindings, func(b planner.Binding) bool { return b.Source == planner.SourceUpstream })
	if !ok || !spec.NeedsConfirm(r.req.Confirm, fed) {
		return nil
	}
	call := fmt.Sprintf("%s(%s)", step.API, formatArgs(args))
	if r.confirmed[call] || version(r.ctx, confirmWritesChange, confirmWritesVersion) == workflow.DefaultVersion {
		return nil
	}
	why := "it changes state"
	switch {
	case spec.Destructive():
		why = "it deletes or overwrites what it acts on"
	case fed:
		why = "it changes state with values another call found"
	}
	question := fmt.Sprintf("Shall I call %s? I ask because %s. Answer yes or no.", call, why)
	workflow.SetCurrentDetails(r.ctx, "Waiting for the user to confirm **"+call+"**")
	r.state.Confirm = step.API
	answer, answered, err := r.ask(question, nil)
	r.state.Confirm = ""
	workflow.SetCurrentDetails(r.ctx, "")
	switch {
	case err != nil:
		return err
	case !answered:
		return &errEndRun{status: StatusClarifyTimeout, answer: fmt.Sprintf("I did not call %s: no confirmation arrived within %s.", step.API, r.req.ClarifyDeadline)}
	case !affirmative(answer):
		return &errEndRun{status: StatusDeclined, answer: fmt.Sprintf("I did not call %s: you answered %q when I asked to.", step.API, answer)}
	}
	r.trace(TraceCall, true, "the user confirmed "+call)
	if r.confirmed == nil {
		r.confirmed = map[string]bool{}
	}
	r.confirmed[call] = true
	return nil
}

// errCutOff ends a tool call cut off with its worker: not the tool's failure, so it is
// neither recombined around nor recorded against the tool. Either every attempt was lost
// (losses of them), or the API honours no idempotency key (twnm.EffectUnsafe) and the one
// attempt may have reached the tool (mayHaveRun): sending it again may do what it does twice
// (book twice), so it is not sent again; reason says why, when the run tried to find out.
// unanswered marks a call whose worker lived but whose tool gave no answer after the request
// was sent (see outcomeUnknownChange).
type errCutOff struct {
	api        string
	losses     int
	mayHaveRun bool
	unanswered bool
	declined   bool
	reason     string
	last       error
}

// cutOffHow says what happened to a call whose outcome is unknown, after "the call".
func cutOffHow(unanswered bool) string {
	if unanswered {
		return "got no answer after it was sent"
	}
	return "was cut off when its worker stopped"
}

func (e *errCutOff) Error() string {
	if e.mayHaveRun {
		what := "its worker was lost mid-call"
		if e.unanswered {
			what = "its call " + cutOffHow(true)
		}
		msg := fmt.Sprintf("%s: %s (%s) and %s honours no idempotency key: the call may have taken effect, so it is not sent again",
			e.api, what, rootMessage(e.last), e.api)
		if e.reason != "" {
			msg += " (" + e.reason + ")"
		}
		return msg + fmt.Sprintf("; check %s before asking again", e.api)
	}
	return fmt.Sprintf("%s: %d attempts lost to workers that stopped answering (%s); the tool itself did not fail", e.api, e.losses, rootMessage(e.last))
}

func (e *errCutOff) Unwrap() error { return e.last }

// callAttempts calls a tool with one activity per attempt, all under one idempotency key so
// that the tool can tell a retry from a new request. A tool error counts against the
// policy's attempts, with its backoff (or the tool's Retry-After); a heartbeat or
// start-to-close timeout is a worker lost mid-call (the tool's own timeout is shorter, and
// fails as a tool error): it is retried at once and never counts against the tool, up to
// MaxWorkerLosses, after which the call ends with errCutOff; an API whose calls honour no
// idempotency key (twnm.EffectUnsafe) is not sent again at all (errCutOff, mayHaveRun).
func (r *run) callAttempts(p pendingCall) (contract.CallToolResult, error) {
	in, spec, step, policy := p.in, p.in.API, p.in.Step, p.policy
	failures, losses := 0, 0
	for {
		f := p.first
		if n := failures + losses; n > 0 {
			f = r.attempt(p, fmt.Sprintf("call %s (retry %d: %d tool error(s), %d worker(s) lost)", spec.Name, n, failures, losses))
		}
		var out contract.CallToolResult
		err := f.Get(r.ctx, &out)
		if err == nil {
			return out, nil
		}
		var timeout *temporal.TimeoutError
		var app *temporal.ApplicationError
		switch {
		case errors.As(err, &timeout) && (timeout.TimeoutType() == enumspb.TIMEOUT_TYPE_HEARTBEAT || timeout.TimeoutType() == enumspb.TIMEOUT_TYPE_START_TO_CLOSE):
			losses++
			if spec.CallEffect() == twnm.EffectUnsafe {
				if version(r.ctx, cutOffCheckChange, cutOffCheckVersion) == workflow.DefaultVersion {
					return out, &errCutOff{api: spec.Name, mayHaveRun: true, last: err}
				}
				if o, again, err := r.unknownOutcome(spec, in.Args, step, false, err); !again {
					return o, err
				}
			}
			if losses > MaxWorkerLosses {
				return out, &errCutOff{api: spec.Name, losses: losses, last: err}
			}
			r.trace(TraceCall, false, fmt.Sprintf("%s: attempt lost to a worker (%s); calling again, not counted against the tool", spec.Name, rootMessage(err)))
			continue
		case errors.As(err, &app) && app.Type() == contract.ErrTypeToolOutcomeUnknown &&
			version(r.ctx, outcomeUnknownChange, outcomeUnknownVersion) != workflow.DefaultVersion:
			if o, again, err := r.unknownOutcome(spec, in.Args, step, true, err); !again {
				return o, err
			}
			// It did not take effect: an attempt like any other, which counts.
			if failures++; failures >= int(policy.MaximumAttempts) {
				return out, err
			}
			continue
		case !errors.As(err, &app) || app.NonRetryable() || slices.Contains(policy.NonRetryableErrorTypes, app.Type()):
			return out, err
		}
		failures++
		if failures >= int(policy.MaximumAttempts) {
			return out, err
		}
		delay := backoff(policy, failures)
		if detail, ok := toolFailure(err); ok && detail.RetryAfter > 0 {
			delay = detail.RetryAfter
		}
		r.trace(TraceCall, false, fmt.Sprintf("%s: attempt %d of %d failed (%s); again in %s", spec.Name, failures, policy.MaximumAttempts, rootMessage(err), delay))
		if err := workflow.Sleep(r.ctx, delay); err != nil {
			return out, err
		}
	}
}

// errEndRun ends a run with a result: the loop finishes it with status and answer.
type errEndRun struct {
	status, answer string
}

func (e *errEndRun) Error() string { return e.status + ": " + e.answer }

// cutOffVerdict is what a run found out about a call of an unsafe API cut off with its
// worker: it took effect (out is what its check answered), or it may be sent again, or
// neither (reason says why).
type cutOffVerdict struct {
	tookEffect bool
	out        contract.CallToolResult
	sendAgain  bool
	declined   bool // the user said not to send it again
	reason     string
}

// unknownOutcome resolves a call of spec whose outcome is unknown (see resolveCutOff) and says
// how callAttempts goes on: with what its check answered (it took effect), with the
// errCutOff that ends the call (last is the attempt's error), or sending it again (again).
func (r *run) unknownOutcome(spec twnm.API, args map[string]string, step int, unanswered bool, last error) (out contract.CallToolResult, again bool, err error) {
	v, err := r.resolveCutOff(spec, args, step, unanswered)
	switch {
	case err != nil:
		return out, false, err
	case v.tookEffect:
		return v.out, false, nil
	case !v.sendAgain:
		return out, false, &errCutOff{api: spec.Name, mayHaveRun: true, unanswered: unanswered, last: last, reason: v.reason, declined: v.declined}
	}
	return out, true, nil
}

// resolveCutOff finds out whether a call of spec (an unsafe API) cut off with its worker, or
// sent and left unanswered (unanswered), took effect: its check (twnm.API.Check) is called
// with the call's arguments it takes; an answer means it did, an empty answer or 404 that it
// did not, and then it is sent again. Without a check, or when the check fails, the user is
// asked whether to send it again, and the run waits for the answer as for any question. The
// trace, the check's activity and the answer Update show in the history which way it went.
func (r *run) resolveCutOff(spec twnm.API, args map[string]string, step int, unanswered bool) (cutOffVerdict, error) {
	when := "before its worker was lost"
	if unanswered {
		when = "though it gave no answer"
	}
	if check, ok := r.apis[spec.Check]; ok && spec.Check != "" && check.CallEffect() == twnm.EffectRead {
		cargs := map[string]string{}
		for _, in := range check.Inputs {
			if v, ok := args[in.Name]; ok {
				cargs[in.Name] = v
			}
		}
		out, err := r.call(check.Name, cargs, step)
		detail, failed := toolFailure(err)
		notFound := failed && detail.Status == 404
		switch {
		case err == nil && !emptyOutput(out.Output):
			r.trace(TraceCall, true, fmt.Sprintf("%s took effect %s: %s found it", spec.Name, when, check.Name))
			return cutOffVerdict{tookEffect: true, out: out}, nil
		case err == nil || notFound:
			r.trace(TraceCall, true, fmt.Sprintf("%s did not take effect %s (%s found nothing): sending it again", spec.Name, when, check.Name))
			return cutOffVerdict{sendAgain: true}, nil
		}
	}
	question := fmt.Sprintf("My call to %s %s, and it may have gone through (%s cannot tell a repeat from a new request). Should I send it again? Answer yes or no.",
		spec.Name, cutOffHow(unanswered), spec.Name)
	answer, answered, err := r.ask(question, nil)
	switch {
	case err != nil:
		return cutOffVerdict{}, err
	case !answered:
		return cutOffVerdict{reason: fmt.Sprintf("no answer within %s to whether to send it again", r.req.ClarifyDeadline)}, nil
	case !affirmative(answer):
		return cutOffVerdict{declined: true, reason: fmt.Sprintf("the user answered %q to sending it again", answer)}, nil
	}
	r.trace(TraceCall, true, fmt.Sprintf("%s: the user asked to send it again", spec.Name))
	return cutOffVerdict{sendAgain: true}, nil
}

// emptyOutput reports whether a tool's answer holds nothing: no field, or only empty ones
// (null, "", an empty list or object).
func emptyOutput(out map[string]any) bool {
	for _, v := range out {
		switch v := v.(type) {
		case nil:
		case string:
			if v != "" {
				return false
			}
		case []any:
			if len(v) > 0 {
				return false
			}
		case map[string]any:
			if !emptyOutput(v) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// affirmative reports whether a user's answer says yes.
func affirmative(answer string) bool {
	f := strings.Fields(strings.ToLower(answer))
	if len(f) == 0 {
		return false
	}
	switch strings.Trim(f[0], ".,!") {
	case "yes", "y", "yeah", "yep", "sure", "ok", "okay", "send", "resend", "retry":
		return true
	}
	return false
}

// toolFailure is the ToolFailure detail of a tool call's error, if it carries one.
func toolFailure(err error) (contract.ToolFailure, bool) {
	var app *temporal.ApplicationError
	var detail contract.ToolFailure
	if errors.As(err, &app) && app.HasDetails() && app.Details(&detail) == nil {
		return detail, true
	}
	return detail, false
}

// backoff is the policy's delay before retry n (1 for the first): the initial interval times
// the coefficient to the power n−1, at most the maximum interval.
func backoff(p *contract.RetryPolicy, n int) time.Duration {
	d := float64(p.InitialInterval)
	for range n - 1 {
		d *= p.BackoffCoefficient
	}
	if p.MaximumInterval > 0 {
		d = min(d, float64(p.MaximumInterval))
	}
	return time.Duration(d)
}

// args resolves a step's inputs: given values, and outputs of earlier steps, by name, by a
// path into the earlier answer (twnm.Lookup: the item of a list the plan names), or in the
// item of its list the plan names (toolspec.Pick). It returns the earlier step's output that
// is absent, if one is.
func (r *run) args(plan planner.Plan, step planner.PlanStep) (map[string]string, *absent) {
	args := map[string]string{}
	for _, b := range step.Bindings {
		switch b.Source {
		case planner.SourceGiven:
			args[b.Param] = b.Value
		case planner.SourceUpstream:
			out := r.pc.Results[b.FromAPI]
			v, ok := out[b.FromOutput]
			if b.Item != "" && out != nil {
				// The plan names the item of the answer's list the request means ("the "Board
				// Prep" channel"); where none is it, nothing binds the input. No patch guards
				// it: no recorded run's plan names an item (docs/versioning.md).
				v, ok = toolspec.Pick(map[string]any(out), r.outputPath(b.FromAPI, b.FromOutput), b.Item)
			} else if !ok && strings.ContainsAny(b.FromOutput, ".[") && out != nil &&
				version(r.ctx, outputPathsChange, outputPathsVersion) >= outputPathsVersion {
				// The plan names a place in the answer ("meetings[1].time"), not an output.
				v, ok = twnm.Lookup(map[string]any(out), b.FromOutput)
			}
			if !ok || v == nil {
				return nil, &absent{producer: b.FromAPI, output: b.FromOutput, item: b.Item}
			}
			args[b.Param] = toolspec.ValueText(v) // an output value as an input value
		}
	}
	return args, nil
}

// recombine tries each strategy in turn as its own activity and returns the repaired plan.
func (r *run) recombine(plan planner.Plan, failed int) (planner.Plan, bool) {
	api := plan.Steps[failed].API
	for _, strategy := range recombinationStrategies {
		ctx := workflow.WithActivityOptions(r.ctx, workflow.ActivityOptions{
			StartToCloseTimeout: time.Minute,
			HeartbeatTimeout:    contract.KeepAliveTimeout,
			RetryPolicy:         graphRetry(),
			Summary:             fmt.Sprintf("recombine: %s for %s", strategy, api),
		})
		in := contract.RecombineInput{Plan: plan, FailedStep: failed, Strategy: strategy, Known: r.pc.Known, Exclude: r.pc.Failed, Search: r.req.Search}
		var res contract.RecombineResult
		if err := workflow.ExecuteActivity(ctx, r.activity(contract.ActivityRecombine), in).Get(r.ctx, &res); err != nil {
			r.trace(TraceRecombine, false, fmt.Sprintf("%s for %s failed: %s", strategy, api, rootMessage(err)))
			continue
		}
		if !res.Found {
			r.trace(TraceRecombine, false, fmt.Sprintf("%s for %s: %s", strategy, api, res.Reason))
			continue
		}
		for k, v := range res.APIs {
			r.apis[k] = v
		}
		r.recombinations++
		r.trace(TraceRecombine, true, fmt.Sprintf("%s: %s; new plan %s", strategy, res.Reason, strings.Join(res.Plan.APIs(), " → ")))
		r.setPlan(res.Plan)
		return res.Plan, true
	}
	return plan, false
}

func (r *run) setPlan(p planner.Plan) {
	cp := p
	r.state.Plan = &cp
}

func (r *run) markFailed(api string) {
	if !slices.Contains(r.pc.Failed, api) {
		r.pc.Failed = append(r.pc.Failed, api)
	}
}

// add records one call of a chain: the invocation (with the outputs its answer showed and its
// record does not list), and a FEEDS transition per input taken from an earlier step plus one
// THEN transition per producer.
func (c *execution) add(plan planner.Plan, step planner.PlanStep, args map[string]string, ok bool, observed []twnm.Param, at time.Time) {
	inputs := make([]string, 0, len(args))
	for _, b := range step.Bindings {
		if _, given := args[b.Param]; given {
			inputs = append(inputs, b.Param)
		}
	}
	c.invs = append(c.invs, twnm.Invocation{API: step.API, Inputs: inputs, Success: ok, Time: at, Observed: observed})
	var producers []string
	for _, b := range step.Bindings {
		if b.Source != planner.SourceUpstream {
			continue
		}
		c.trs = append(c.trs, twnm.Transition{Kind: twnm.Feeds, From: b.FromAPI, To: step.API, FromParam: b.FromOutput, ToParam: b.Param, Success: ok, Time: at})
		if !slices.Contains(producers, b.FromAPI) {
			producers = append(producers, b.FromAPI)
			c.trs = append(c.trs, twnm.Transition{Kind: twnm.Then, From: b.FromAPI, To: step.API, Success: ok, Time: at})
		}
	}
}

// forget drops the last call of api from the chain, with the transitions into it recorded
// with it.
func (c *execution) forget(api string) {
	i := len(c.invs) - 1
	for i >= 0 && c.invs[i].API != api {
		i--
	}
	if i < 0 {
		return
	}
	at := c.invs[i].Time
	c.invs = slices.Delete(c.invs, i, i+1)
	c.trs = slices.DeleteFunc(c.trs, func(t twnm.Transition) bool { return t.To == api && t.Time.Equal(at) })
}

// goalsOnRatingChange marks runs whose served sub-goals wait for a good verdict (navi rate)
// before retrieval learns them (contract.FeedbackInput.GoalsOnRating). Runs before it taught
// retrieval at once, and a wrong answer then drew the requests like it to the same tool: the
// bench's learning variants answered "what will the air quality index be tomorrow" with the
// current air quality, having answered one such question so before. A change after the
// current type, it calls workflow.GetVersion itself (see version).
const (
	goalsOnRatingChange  = "goals-on-rating"
	goalsOnRatingVersion = 1
)

// outputPath is where output of api lies in its answer (twnm.Param.Path: "channels[].sid"),
// its name where the catalog gives no path.
func (r *run) outputPath(api, output string) string {
	for _, o := range r.apis[api].Outputs {
		if o.Name == output && o.Path != "" {
			return o.Path
		}
	}
	return output
}

// recordFeedback starts the feedback activity for a chain without waiting for it, so the
// planner loop goes on; the run waits for it before it ends.
func (r *run) recordFeedback(ch *execution) {
	if len(ch.invs) == 0 || r.req.NoFeedback {
		return
	}
	info := workflow.GetInfo(r.ctx)
	summary := fmt.Sprintf("feedback: %d calls, %d transitions", len(ch.invs), len(ch.trs))
	in := contract.FeedbackInput{Key: fmt.Sprintf("%s/%s/chain-%d", info.WorkflowExecution.ID, info.WorkflowExecution.RunID, r.chains),
		Invocations: ch.invs, Transitions: ch.trs, Goals: r.servedGoals(ch)}
	in.GoalsOnRating = len(in.Goals) > 0 &&
		workflow.GetVersion(r.ctx, goalsOnRatingChange, workflow.DefaultVersion, goalsOnRatingVersion) >= goalsOnRatingVersion
	pending := pendingFeedback{Future: r.graphActivity(summary, contract.ActivityRecordFeedback, in)}
	if in.GoalsOnRating {
		pending.proposed = len(in.Goals)
	}
	r.feedback = append(r.feedback, pending)
}

// servedGoals pairs the sub-goals of the last retrieval with the APIs of a chain that ran to
// its target: the whole request with the target, each part with the first of its best tools
// the chain called. The graph learns from them what users call those tools. A chain that did
// not reach its target teaches nothing.
func (r *run) servedGoals(ch *execution) []contract.GoalFeedback {
	if r.state.Plan == nil || len(r.state.Plan.Steps) == 0 {
		return nil
	}
	target := r.state.Plan.Steps[len(r.state.Plan.Steps)-1].API
	called := map[string]bool{}
	for _, inv := range ch.invs {
		if inv.Success {
			called[inv.API] = true
		}
	}
	if !called[target] {
		return nil
	}
	// The relevance the run's last retrieval measured (0: not measured).
	if c, _ := r.pc.Candidate(target); c.Relevance > 0 && c.Relevance < planner.DefaultOptions.AnswerRelevanceFloor &&
		version(r.ctx, "answer-relevance", 1) >= 1 {
		r.trace(TraceFeedback, false, fmt.Sprintf("%s answered, but is not relevant enough to the request (similarity %.2f, under %.2f): "+
			"retrieval does not learn that the request asks for it", target, c.Relevance, planner.DefaultOptions.AnswerRelevanceFloor))
		return nil
	}
	var out []contract.GoalFeedback
	for _, g := range r.state.SubGoals {
		if g.Whole {
			out = append(out, contract.GoalFeedback{API: target, Text: g.Text})
			continue
		}
		for _, api := range g.Top {
			if called[api] {
				out = append(out, contract.GoalFeedback{API: api, Text: g.Text})
				break
			}
		}
	}
	// A request of one part says the same as its whole: the target learns it once.
	if len(out) == 2 && len(r.state.SubGoals) == 2 && out[0].API == out[1].API {
		out = out[1:]
	}
	return out
}

// awaitFeedback waits for the feedback activities started so far. A feedback write that
// fails after its retries is noted in the trace and does not fail the run: the answer
// matters more than the statistics.
func (r *run) awaitFeedback() {
	for _, f := range r.feedback {
		if err := f.Get(r.ctx, nil); err != nil {
			r.trace(TraceFeedback, false, "feedback not recorded: "+rootMessage(err))
			continue
		}
		msg := "feedback recorded"
		if f.proposed > 0 {
			// Say why retrieval has not learned the request yet: an ops person rating the
			// run is what teaches it.
			msg += fmt.Sprintf("; retrieval learns the %d part(s) of the request it served when the run is rated good (navi rate)", f.proposed)
		}
		r.trace(TraceFeedback, true, msg)
	}
	r.feedback = nil
}

// describe renders an output map in one line, keys sorted, long values cut.
func describe(out map[string]any) string {
	if len(out) == 0 {
		return "{}"
	}
	keys := slices.Sorted(maps.Keys(out))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + quoteIfLong(toolspec.ValueText(out[k]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func formatArgs(args map[string]string) string {
	keys := slices.Sorted(maps.Keys(args))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + quoteIfLong(args[k])
	}
	return strings.Join(parts, ", ")
}

func quoteIfLong(s string) string {
	if len([]rune(s)) > 40 || strings.ContainsAny(s, " ,") {
		return quote(s, 40)
	}
	return s
}
