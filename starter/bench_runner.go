package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/naviagent/navi/bench"
	"github.com/naviagent/navi/toolworld"
	"github.com/naviagent/navi/workflows"
)

// stackRunner is the bench.Runner of navi bench: it runs each task as a QueryWorkflow on the
// running stack and plays the simulated user of NaviAgent's evaluation (Appendix E.3.4),
// answering the run's questions from the task's gold chain.
type stackRunner struct {
	tc              client.Client
	taskQueue       string
	prefix          string // of the workflow IDs
	clarifyDeadline time.Duration
	maxSteps        int
	timeout         time.Duration // bounds one run
	user            *userLog
	seq             atomic.Int64 // numbers the runs, so that a task run twice gets two IDs
	// rate, when set, gives the simulated user's verdict on each finished run of a variant
	// with feedback: good when it answered the task right (bench.Succeeded).
	rate func(ctx context.Context, id string, good bool) error
	// person makes the simulated user a person (userPerson): it does not know the values the
	// gold chain's tools produced.
	person bool
}

// Run starts the task's QueryWorkflow with the variant's settings, answers its questions and
// waits for its result. The wall time covers the start, the questions and the result.
func (r *stackRunner) Run(ctx context.Context, v bench.Variant, t toolworld.Task) (bench.Outcome, error) {
	id := fmt.Sprintf("%s-%s-%s-%d", r.prefix, v.Name, t.ID, r.seq.Add(1))
	req := workflows.QueryRequest{
		Query: t.Query, Planner: v.Planner, Search: v.Search, NoFeedback: !v.Feedback, NoInertia: v.NoInertia,
		ClarifyDeadline: r.clarifyDeadline, MaxSteps: r.maxSteps,
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	start := time.Now()
	run, err := workflows.StartQuery(ctx, r.tc, client.StartWorkflowOptions{
		ID: id, TaskQueue: r.taskQueue, WorkflowExecutionTimeout: r.timeout,
		StaticSummary: fmt.Sprintf("navi bench %s %s: %s", v.Name, t.ID, oneLine(t.Query, 80)),
	}, req)
	if err != nil {
		return bench.Outcome{WorkflowID: id}, fmt.Errorf("start workflow %s: %w", id, err)
	}
	user := newSimulatedUser(t, r.person)
	rec := userRecord{Variant: v.Name, TaskID: t.ID, WorkflowID: id}
	res, err := waitResult(ctx, r.tc, run, func(st workflows.Pending) {
		ex := exchange{Question: st.Question, Params: st.Params}
		rec.Questions++
		switch {
		case rec.Answered >= maxAnswers:
			ex.Error = fmt.Sprintf("not answered: %d answers given already", maxAnswers)
		case st.Confirm != "":
			// The user asked for the task: a call of its gold chain is approved, any other not.
			text := approval(st.Confirm, user.chain)
			if _, err := sendAnswer(ctx, r.tc, id, text); err != nil {
				ex.Error = err.Error()
				break
			}
			ex.Answer = text
		default:
			text := user.answer(st.Params)
			if text == "" {
				ex.Error = "not answered: the task has no value to give"
				break
			}
			if _, err := sendAnswer(ctx, r.tc, id, text); err != nil {
				ex.Error = err.Error()
				break
			}
			ex.Answer = text
			rec.Answered++
		}
		rec.Exchanges = append(rec.Exchanges, ex)
	})
	o := bench.Outcome{Result: res, Wall: time.Since(start), WorkflowID: id}
	if rec.Questions > 0 {
		r.user.add(rec)
	}
	if err != nil {
		return o, fmt.Errorf("workflow %s: %w", id, err)
	}
	if r.rate != nil && v.Feedback {
		if err := r.rate(ctx, id, bench.Succeeded(t, res)); err != nil {
			return o, fmt.Errorf("workflow %s: the simulated user's rating: %w", id, err)
		}
	}
	return o, nil
}

// simulatedUser answers a run's questions for one task with the gold chain's parameter
// records: the value of every input of every gold step (toolworld.ChainInputs), and the
// task's given values when a question asks for something the records lack.
type simulatedUser struct {
	chain   []string          // the gold chain, the order in which records are searched by name
	records map[string]string // "API.param" → value
	given   map[string]string // "API.param" → value
}

// newSimulatedUser is the simulated user of task t. With person, the records lack the inputs a
// data flow of the gold chain feeds (t.GoldFlow): a person asking knows the city and the day,
// not the hotel id the search returned.
func newSimulatedUser(t toolworld.Task, person bool) simulatedUser {
	records, err := toolworld.ChainInputs(t)
	if err != nil {
		records = nil // a task the tool world cannot run: answer from its given values
	}
	if person {
		for _, f := range t.GoldFlow {
			delete(records, f.ToAPI+"."+f.Input)
		}
	}
	return simulatedUser{chain: t.GoldChain, records: records, given: t.Given}
}

// answer phrases the values of params ("API.param", the inputs the question asks for) as
// "<param> <value>, <param> <value>", the named values the agent's extraction reads
// ("latitude 41.9028, city Rome"). A param is looked up in the records, first as asked, then
// by its name at any step of the gold chain (the run may target another API than the gold
// one with the same input); when one is in neither, or the question names none, the task's
// given values are added the same way. Each name is given once. Empty when there is nothing
// to say.
func (u simulatedUser) answer(params []string) string {
	var parts []string
	said := map[string]bool{}
	say := func(name, value string) {
		if !said[name] {
			said[name] = true
			parts = append(parts, name+" "+value)
		}
	}
	fallback := len(params) == 0
	for _, p := range params {
		name := paramName(p)
		if v, ok := u.records[p]; ok {
			say(name, v)
		} else if v, ok := u.byName(name); ok {
			say(name, v)
		} else {
			fallback = true
		}
	}
	if fallback {
		keys := make([]string, 0, len(u.given))
		for k := range u.given {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			say(paramName(k), u.given[k])
		}
	}
	return strings.Join(parts, ", ")
}

// byName finds a record of the input name at the first step of the gold chain that has one.
func (u simulatedUser) byName(name string) (string, bool) {
	for _, api := range u.chain {
		if v, ok := u.records[api+"."+name]; ok {
			return v, true
		}
	}
	return "", false
}

// approval is a simulated user's answer to a run asking to approve a call of api: yes for an
// API of the chain the user asked for, no for any other.
func approval(api string, asked []string) string {
	if slices.Contains(asked, api) {
		return "yes"
	}
	return "no"
}

// paramName is the part of "API.param" after the last dot.
func paramName(p string) string {
	return p[strings.LastIndex(p, ".")+1:]
}

// userLog collects the runs in which the simulated user was asked something.
type userLog struct {
	mu      sync.Mutex
	records map[string]userRecord // by workflow ID
}

// userRecord is what the simulated user did in one run.
type userRecord struct {
	Variant    string `json:"variant"`
	Phase      string `json:"phase,omitempty"`
	Batch      int    `json:"batch,omitempty"`
	Index      int    `json:"index"`
	TaskID     string `json:"task_id"`
	Difficulty string `json:"difficulty"`
	WorkflowID string `json:"workflow_id"`
	// Questions the run asked, and how many the simulated user answered.
	Questions int        `json:"questions"`
	Answered  int        `json:"answered"`
	Status    string     `json:"status"`
	Success   bool       `json:"success"`
	Exchanges []exchange `json:"exchanges"`
}

// exchange is one question and its answer.
type exchange struct {
	Question string   `json:"question"`
	Params   []string `json:"params,omitempty"`
	Answer   string   `json:"answer,omitempty"`
	// Error says why the question was not answered.
	Error string `json:"error,omitempty"`
}

func (l *userLog) add(r userRecord) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.records == nil {
		l.records = map[string]userRecord{}
	}
	l.records[r.WorkflowID] = r
}

// forReport lists the records in the order of the report's outcomes, with each outcome's
// phase, batch, position and result; runs the report left out (cancelled) are left out.
func (l *userLog) forReport(rep bench.Report) []userRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := []userRecord{}
	for _, o := range rep.Outcomes {
		r, ok := l.records[o.WorkflowID]
		if !ok {
			continue
		}
		r.Phase, r.Batch, r.Index, r.Difficulty = o.Phase, o.Batch, o.Index, o.Difficulty
		r.Status, r.Success = o.Result.Status, o.Success
		out = append(out, r)
	}
	return out
}

// stuckPoll is how often waitWorkflow looks for a workflow that cannot progress.
const stuckPoll = 2 * time.Second

// stuckAttempts is the attempt from which a retried activity counts as stuck.
const stuckAttempts = 3

// waitWorkflow waits for a workflow's result into res. A workflow that cannot progress fails
// fast instead of running into ctx's deadline: one whose workflow task failed (an
// unregistered workflow type, a panic) or one with an activity failing attempt after attempt
// (an activity no worker registers); it is then terminated, and the error says why.
func waitWorkflow(ctx context.Context, tc client.Client, run client.WorkflowRun, res any) error {
	done := make(chan error, 1)
	go func() { done <- run.Get(ctx, res) }()
	tick := time.NewTicker(stuckPoll)
	defer tick.Stop()
	stop := func(why string) error {
		tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		_ = tc.TerminateWorkflow(tctx, run.GetID(), run.GetRunID(), "navi bench: "+oneLine(why, 200))
		return fmt.Errorf("%s (terminated)", why)
	}
	for {
		select {
		case err := <-done:
			if err != nil && ctx.Err() != nil {
				return stop(fmt.Sprintf("no result in time: %v", ctx.Err()))
			}
			return err
		case <-tick.C:
			if why := stuck(ctx, tc, run); why != "" {
				return stop(why)
			}
		}
	}
}

// stuck says why a running workflow cannot progress, or "".
func stuck(ctx context.Context, tc client.Client, run client.WorkflowRun) string {
	it := tc.GetWorkflowHistory(ctx, run.GetID(), run.GetRunID(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			break
		}
		if e.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED {
			return "its workflow task failed: " + e.GetWorkflowTaskFailedEventAttributes().GetFailure().GetMessage()
		}
	}
	desc, err := tc.DescribeWorkflowExecution(ctx, run.GetID(), run.GetRunID())
	if err != nil {
		return ""
	}
	for _, a := range desc.GetPendingActivities() {
		if a.GetAttempt() >= stuckAttempts && a.GetLastFailure() != nil {
			return fmt.Sprintf("activity %s failed %d times: %s", a.GetActivityType().GetName(), a.GetAttempt()-1, a.GetLastFailure().GetMessage())
		}
	}
	return ""
}
