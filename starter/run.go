package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/naviagent/navi/internal/config"
	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/workflows"
)

// pollInterval is how often a waiting command asks a run for its state, to print its questions.
const pollInterval = 500 * time.Millisecond

// waitFlags are the flags of the commands that start a run: ask and rerun.
type waitFlags struct {
	wait    bool
	json    bool
	timeout time.Duration
}

func (c *command) waitFlags() *waitFlags {
	w := &waitFlags{}
	c.fs.BoolVar(&w.wait, "wait", true, "wait for the result, printing the questions the run asks")
	c.fs.BoolVar(&w.json, "json", false, "print the result as JSON (the workflow ID and notices go to stderr)")
	c.fs.DurationVar(&w.timeout, "timeout", 10*time.Minute, "how long to wait for the result")
	return w
}

func ask(args []string, s streams) error {
	c := newCommand("ask")
	wf := c.waitFlags()
	id := c.fs.String("id", "", "workflow ID (default: generated)")
	var req workflows.QueryRequest
	c.fs.StringVar(&req.Planner, "planner", "", "force a planner: graph-first or llm (default: the worker's)")
	c.fs.StringVar(&req.Search, "search", "", "graph search: alphabeta or heuristic (default: alphabeta)")
	c.fs.IntVar(&req.MaxSteps, "max-steps", 0, fmt.Sprintf("bound on planner decisions (default %d)", workflows.DefaultMaxSteps))
	c.fs.IntVar(&req.MaxParallel, "max-parallel", 0, "bound on the tool calls that run at once; 1 runs them one after another (default: unbounded)")
	c.fs.DurationVar(&req.ClarifyDeadline, "clarify-deadline", 0, fmt.Sprintf("how long the run waits for an answer to its question (default %s)", workflows.DefaultClarifyDeadline))
	c.fs.StringVar(&req.Confirm, "confirm", config.Getenv("NAVI_CONFIRM", ""),
		"which calls the run asks you to approve, for APIs whose catalog sets none: never, destructive (destructive calls, and writes fed by another call's output) or writes (NAVI_CONFIRM; default destructive)")
	pos, err := c.parse(args, 1, -1, `a query: navi ask [flags] "<query>"`)
	if err != nil {
		return err
	}
	req.Query = strings.TrimSpace(strings.Join(pos, " "))
	req.Limits = c.limits()
	if err := checkRequest(req); err != nil {
		return err
	}
	if *id == "" {
		*id = newRunID("navi")
	}
	return c.withTemporal(wf.timeout, func(ctx context.Context, tc client.Client) error {
		return c.start(ctx, tc, s, wf, *id, req, "navi ask: "+oneLine(req.Query, 100))
	})
}

// checkRequest rejects, as usage errors, requests that the workflow would reject.
func checkRequest(req workflows.QueryRequest) error {
	switch {
	case req.Query == "":
		return fmt.Errorf("%w: navi ask needs a query", errUsage)
	case req.Planner != "" && req.Planner != workflows.PlannerGraphFirst && req.Planner != "llm":
		return fmt.Errorf("%w: -planner %q: want graph-first or llm", errUsage, req.Planner)
	case req.Search != "" && req.Search != "alphabeta" && req.Search != "heuristic":
		return fmt.Errorf("%w: -search %q: want alphabeta or heuristic", errUsage, req.Search)
	case req.MaxSteps < 0:
		return fmt.Errorf("%w: -max-steps %d: want a positive number", errUsage, req.MaxSteps)
	case twnm.CheckConfirm(req.Confirm) != nil:
		return fmt.Errorf("%w: -%v", errUsage, twnm.CheckConfirm(req.Confirm))
	case req.MaxParallel < 0:
		return fmt.Errorf("%w: -max-parallel %d: want a positive number", errUsage, req.MaxParallel)
	case req.ClarifyDeadline < 0:
		return fmt.Errorf("%w: -clarify-deadline %s: want a positive duration", errUsage, req.ClarifyDeadline)
	}
	if err := req.Limits.Validate(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if err := req.Limits.CheckQuery(req.Query); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return nil
}

// limits are the run limits the command's settings give (NAVI_MAX_QUERY_BYTES,
// NAVI_MAX_ANSWER_BYTES).
func (c *command) limits() workflows.Limits {
	return workflows.Limits{MaxQueryBytes: c.cfg.MaxQueryBytes, MaxAnswerBytes: c.cfg.MaxAnswerBytes}
}

// rerun starts a new run with the input of an old one.
func rerun(args []string, s streams) error {
	c := newCommand("rerun")
	wf := c.waitFlags()
	pos, err := c.parse(args, 1, 1, "one workflow ID: navi rerun [flags] <workflow-id>")
	if err != nil {
		return err
	}
	old := pos[0]
	dc, err := c.dataConverter()
	if err != nil {
		return err
	}
	return c.withTemporal(wf.timeout, func(ctx context.Context, tc client.Client) error {
		req, err := startedRequest(ctx, tc, dc, old, "")
		if err != nil {
			return c.notFound(err, old, "read the input of")
		}
		req = rerunRequest(req, old)
		field(wf.notices(s), "rerun of", "%s", old)
		return c.start(ctx, tc, s, wf, newRunID("navi-rerun"), req, "navi rerun of "+old+": "+oneLine(req.Query, 80))
	})
}

// rerunRequest is the request of a new run that repeats the run old: its input without the
// state a continued run carries.
func rerunRequest(req workflows.QueryRequest, old string) workflows.QueryRequest {
	if req.Carry != nil && strings.TrimSpace(req.Query) == "" {
		req.Query = req.Carry.State.Query
	}
	req.Carry = nil
	req.RerunOf = old
	return req
}

// notices is where a starting command writes the workflow ID, the UI link and the questions:
// stderr when stdout carries JSON.
func (w *waitFlags) notices(s streams) io.Writer {
	if w.json {
		return s.err
	}
	return s.out
}

// start starts a query workflow, says where to see it, and unless told not to, waits for its
// result and prints it.
func (c *command) start(ctx context.Context, tc client.Client, s streams, wf *waitFlags, id string, req workflows.QueryRequest, summary string) error {
	run, err := workflows.StartQuery(ctx, tc, client.StartWorkflowOptions{
		ID:                       id,
		TaskQueue:                c.cfg.TaskQueue,
		WorkflowExecutionTimeout: 24*time.Hour + max(req.ClarifyDeadline, workflows.DefaultClarifyDeadline),
		StaticSummary:            summary,
	}, req)
	if err != nil {
		return fmt.Errorf("start workflow %s: %w", id, err)
	}
	notices := wf.notices(s)
	field(notices, "workflow", "%s", run.GetID())
	field(notices, "ui", "%s", c.cfg.RunURL(run.GetID()))
	if !wf.wait {
		return nil
	}
	res, err := waitResult(ctx, tc, run, func(p workflows.Pending) { printQuestion(notices, run.GetID(), p) })
	switch {
	case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
		return fmt.Errorf("no result after %s: the run goes on; see `navi show %s`", wf.timeout, run.GetID())
	case err != nil:
		return fmt.Errorf("workflow %s failed: %w", run.GetID(), err)
	}
	if wf.json {
		return printJSON(s.out, res)
	}
	fmt.Fprintln(s.out)
	printResult(s.out, res, req.Planner)
	printRateHint(notices, run.GetID(), res)
	return nil
}

// printRateHint tells the user of a run that answered from its tools how to judge it: retrieval
// learns the request only from a good verdict (contract.FeedbackInput.GoalsOnRating), and a bad
// one takes back what the tools' answers counted for.
func printRateHint(w io.Writer, id string, res workflows.QueryResult) {
	if res.ToolCalls == 0 || res.Status != workflows.StatusAnswered && res.Status != workflows.StatusPartial {
		return
	}
	field(w, "rate", "navi rate %s good|bad (a good verdict teaches retrieval this request)", id)
}

// waitResult waits for a run's result, meanwhile calling asked once for each question the
// run waits on. The questions come from the run's QuestionUpdate, which blocks in the run until
// it asks; a run without one (started by an older worker) is polled instead.
func waitResult(ctx context.Context, tc client.Client, run client.WorkflowRun, asked func(workflows.Pending)) (workflows.QueryResult, error) {
	var res workflows.QueryResult
	done := make(chan error, 1)
	go func() { done <- run.Get(ctx, &res) }()
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	questions := make(chan workflows.Pending)
	go watchQuestions(wctx, tc, run.GetID(), questions)
	for {
		select {
		case err := <-done:
			return res, err
		case p := <-questions:
			asked(p)
		}
	}
}

// watchQuestions sends each new question of the run (its latest run, across continue-as-new)
// on out until ctx ends: by the QuestionUpdate, or by polling the state when the run does not
// know that Update.
func watchQuestions(ctx context.Context, tc client.Client, id string, out chan<- workflows.Pending) {
	var last string
	send := func(p workflows.Pending) bool {
		if k := p.Key(); k != "" && k != last {
			last = k
			select {
			case out <- p:
			case <-ctx.Done():
				return false
			}
		}
		return true
	}
	for ctx.Err() == nil {
		h, err := tc.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: id, UpdateName: workflows.QuestionUpdate,
			Args: []any{workflows.QuestionWait{After: last}}, WaitForStage: client.WorkflowUpdateStageCompleted})
		var p workflows.Pending
		if err == nil {
			err = h.Get(ctx, &p)
		}
		switch {
		case err != nil && strings.Contains(err.Error(), "unknown update"):
			pollQuestions(ctx, tc, id, send)
			return
		case err != nil:
			// The run is closing, starting, or between a worker's restarts: try again soon.
			select {
			case <-time.After(pollInterval):
			case <-ctx.Done():
			}
		case p.Ended:
			// Ended, or continued as new: the next Update reaches the latest run, if any.
		case !send(p):
			return
		}
	}
}

// pollQuestions asks the run's state every pollInterval and sends its questions, until ctx
// ends or send says stop.
func pollQuestions(ctx context.Context, tc client.Client, id string, send func(workflows.Pending) bool) {
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			st, err := queryState(ctx, tc, id, 5*time.Second)
			if err != nil || st.Status != workflows.StatusWaiting || st.Question == "" {
				continue // a query can fail while the run starts or a worker restarts
			}
			if !send(st.Pending()) {
				return
			}
		}
	}
}

// printQuestion tells the user what the run asks and how to answer.
func printQuestion(w io.Writer, id string, p workflows.Pending) {
	fmt.Fprintln(w)
	field(w, "question", "%s", p.Question)
	if !p.Deadline.IsZero() {
		field(w, "", "(the run waits until %s)", localTime(p.Deadline))
	}
	field(w, "", "answer with: navi answer %s %q", id, "<text>")
}

// printResult prints a run's result for people. requested is the planner the request forced,
// if any.
func printResult(w io.Writer, res workflows.QueryResult, requested string) {
	field(w, "status", "%s", res.Status)
	field(w, "planner", "%s", plannerLabel(res.Planner, requested))
	if len(res.Chain) > 0 {
		field(w, "chain", "%s", strings.Join(res.Chain, " → "))
	}
	field(w, "steps", "%d", res.Steps)
	field(w, "tools", "%d call(s), %d recombination(s)", res.ToolCalls, res.Recombinations)
	field(w, "llm", "%s", usageLine(res.Usage))
	fmt.Fprintf(w, "\n%s\n", terminalSafe(res.Answer))
}

// plannerLabel says which planner ran, and why graph-first did when it was not asked for.
func plannerLabel(planner, requested string) string {
	switch {
	case planner != workflows.PlannerGraphFirst:
		return planner
	case requested == workflows.PlannerGraphFirst:
		return planner + " (requested)"
	default:
		return planner + " (no LLM configured)"
	}
}

func usageLine(u planner.Usage) string {
	line := fmt.Sprintf("%d call(s), %d tokens (%d prompt, %d completion)", u.LLMCalls, u.PromptTokens+u.CompletionTokens, u.PromptTokens, u.CompletionTokens)
	if u.LLMSaved > 0 {
		line += fmt.Sprintf("; %d saved by inertial steps", u.LLMSaved)
	}
	return line
}

// answer answers the question a run waits on, through the run's answer update.
func answer(args []string, s streams) error {
	c := newCommand("answer")
	timeout := c.fs.Duration("timeout", 30*time.Second, "how long to wait for the run to take the answer")
	pos, err := c.parse(args, 2, -1, `a workflow ID and an answer: navi answer <workflow-id> "<text>"`)
	if err != nil {
		return err
	}
	id, text := pos[0], strings.TrimSpace(strings.Join(pos[1:], " "))
	if text == "" {
		return fmt.Errorf("%w: navi answer needs a non-empty answer", errUsage)
	}
	// The run checks against its own limit too; this one saves the round trip.
	if err := c.limits().CheckAnswer(text); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return c.withTemporal(*timeout, func(ctx context.Context, tc client.Client) error {
		question, err := sendAnswer(ctx, tc, id, text)
		if err != nil {
			return err
		}
		field(s.out, "answered", "%s", question)
		field(s.out, "with", "%s", text)
		field(s.out, "ui", "%s", c.cfg.RunURL(id))
		return nil
	})
}

// sendAnswer delivers text to the question run id waits on and returns that question.
func sendAnswer(ctx context.Context, tc client.Client, id, text string) (string, error) {
	h, err := tc.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID:   id,
		UpdateName:   workflows.AnswerUpdate,
		Args:         []any{workflows.ClarifyAnswer{Text: text}},
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	var question string
	if err == nil {
		err = h.Get(ctx, &question)
	}
	if err != nil {
		return "", answerError(err, id)
	}
	return question, nil
}

// answerError says why a run did not take an answer.
func answerError(err error, id string) error {
	var app *temporal.ApplicationError
	var nf *serviceerror.NotFound
	switch {
	case errors.As(err, &app):
		return fmt.Errorf("workflow %s rejected the answer: %s", id, app.Message())
	case errors.As(err, &nf):
		return fmt.Errorf("workflow %s takes no answer: %s (see `navi show %s`)", id, nf.Message, id)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("workflow %s did not take the answer in time (is a worker running?): %w", id, err)
	}
	return fmt.Errorf("answer %s: %w", id, err)
}

// newRunID returns a readable, unique workflow ID: <prefix>-<UTC time>-<random>.
func newRunID(prefix string) string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%s-%s-%s", prefix, time.Now().UTC().Format("20060102-150405"), hex.EncodeToString(b))
}
