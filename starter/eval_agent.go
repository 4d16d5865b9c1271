package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/naviagent/navi/research/agenteval"
	"github.com/naviagent/navi/toolworld"
	"github.com/naviagent/navi/twnm/recall"
	"github.com/naviagent/navi/workflows"
)

// Files `navi eval agent` writes in its -out directory.
const (
	agentJSONFile     = "agent.json"
	agentMarkdownFile = "agent.md"
)

// spread keeps n of qs spread evenly over it, in order (all of them when n is 0 or too many),
// so that a sample has questions of every kind the set holds.
func spread(qs []agenteval.Question, n int) []agenteval.Question {
	if n <= 0 || n >= len(qs) {
		return qs
	}
	out := make([]agenteval.Question, n)
	for i := range out {
		out[i] = qs[i*len(qs)/n]
	}
	return out
}

// evalAgentCmd runs `navi eval agent`: the hand-written questions about the tool world, each
// as a QueryWorkflow on the running stack (the graph-first planner unless -planner says, no feedback, so that the
// evaluation teaches the graph nothing), judged by agenteval.Judge. Nobody answers the runs'
// questions: a question is what the run did, and the run ends at its clarification deadline.
func evalAgentCmd(args []string, s streams) error {
	c := newCommand("eval agent")
	c.fs.SetOutput(s.err)
	file := c.fs.String("questions", "", "a JSONL file of questions (agenteval.Question) instead of the hand-written set")
	search := c.fs.String("search", "alphabeta", "graph search of every run: alphabeta, heuristic or none")
	plannerName := c.fs.String("planner", workflows.PlannerGraphFirst, `planner of every run: graph-first, llm, or "" for the worker's`)
	sample := c.fs.Int("n", 0, "run only this many of the questions, spread evenly over the set (0: all)")
	concurrency := c.fs.Int("concurrency", 2, "questions run at once")
	deadline := c.fs.Duration("clarify-deadline", 2*time.Second, "how long a run that asks waits before it ends (nobody answers)")
	timeout := c.fs.Duration("timeout", 20*time.Minute, "how long the whole evaluation may take")
	out := c.fs.String("out", "results/eval", `directory of the reports (`+agentJSONFile+`, `+agentMarkdownFile+`); "" writes none`)
	reset := c.fs.Bool("reset", true, "first reset the tool world's learned statistics and deactivate the model, as navi bench does before each variant, so that the figures do not depend on earlier runs")
	pos, err := c.parse(args, 1, 1, "the subcommand agent")
	if err != nil {
		return err
	}
	if pos[0] != "agent" {
		return fmt.Errorf("%w: navi eval has no subcommand %q here; want agent", errUsage, pos[0])
	}
	if *concurrency < 1 {
		return fmt.Errorf("%w: -concurrency must be at least 1", errUsage)
	}
	qs, err := loadQuestions(*file)
	if err != nil {
		return err
	}
	qs = spread(qs, *sample)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	tc, err := c.cfg.DialTemporal(ctx, sdkLogger())
	if err != nil {
		return err
	}
	defer tc.Close()
	if *reset {
		store, err := c.cfg.OpenGraph(ctx)
		if err != nil {
			return err
		}
		err = resetToolWorld(ctx, store)
		store.Close(context.Background())
		if err != nil {
			return err
		}
	}

	rep := agenteval.Report{Started: time.Now().UTC().Format(time.RFC3339), Command: "navi eval " + strings.Join(args, " "), Search: *search, Planner: orWorker(*plannerName),
		Results: make([]agenteval.Result, len(qs))}
	a := agentAsker{tc: tc, taskQueue: c.cfg.TaskQueue, prefix: newRunID("navi-eval-agent"), search: *search, planner: *plannerName, deadline: *deadline,
		writes: toolworldWrites()}
	fmt.Fprintf(s.err, "navi eval agent: %d questions, graph search %s, planner %s, runs %s-*\n", len(qs), *search, orWorker(*plannerName), a.prefix)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		next int
		errs []error
	)
	for range *concurrency {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(qs) || ctx.Err() != nil {
					return
				}
				res, err := a.ask(ctx, qs[i])
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				}
				rep.Results[i] = res
				mark := "fail"
				if res.Verdict.Pass {
					mark = "pass"
				}
				fmt.Fprintf(s.err, "%s %s: %s (%s)\n", qs[i].ID, mark, res.Verdict.Why, res.Run.Status)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(errs) > 0 {
		return fmt.Errorf("navi eval agent: %d runs failed to run, the first: %w", len(errs), errs[0])
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("navi eval agent: %w", err)
	}
	if *out != "" {
		writeJSON := func(w io.Writer) error {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(rep)
		}
		if err := writeReports(*out, agentJSONFile, writeJSON, agentMarkdownFile, func(w io.Writer) error { return agenteval.WriteMarkdown(w, rep) }); err != nil {
			return err
		}
		fmt.Fprintf(s.err, "wrote %s/%s and %s/%s\n", *out, agentJSONFile, *out, agentMarkdownFile)
	}
	sum := agenteval.Summarize(rep.Results)
	fmt.Fprintf(s.out, "%d of %d questions (%.1f%%) end as their user expects: chain %d/%d, ask %d/%d, no tool %d/%d; %d of %d runs that asked named an API outside the expected chains\n",
		sum.All.Pass, sum.All.Of, 100*sum.All.Share(), sum.ByKind[agenteval.KindChain].Pass, sum.ByKind[agenteval.KindChain].Of,
		sum.ByKind[agenteval.KindAsk].Pass, sum.ByKind[agenteval.KindAsk].Of, sum.ByKind[agenteval.KindNone].Pass, sum.ByKind[agenteval.KindNone].Of,
		sum.AskedOutside, sum.Asked)
	return nil
}

// loadQuestions reads the questions of file, or the hand-written set when file is "".
func loadQuestions(file string) ([]agenteval.Question, error) {
	if file == "" {
		return agenteval.Default()
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("questions: %w", err)
	}
	defer f.Close()
	qs, err := agenteval.Load(f)
	if err != nil {
		return nil, fmt.Errorf("questions %s: %w", file, err)
	}
	return qs, nil
}

// toolworldWrites lists the tool world's APIs that change state.
func toolworldWrites() map[string]bool {
	out := map[string]bool{}
	for _, api := range toolworld.Catalog("").APIs {
		if recall.ChangesState(api) {
			out[api.Name] = true
		}
	}
	return out
}

// agentAsker runs questions through the agent on the stack.
type agentAsker struct {
	tc        client.Client
	taskQueue string
	prefix    string
	search    string
	planner   string
	deadline  time.Duration
	writes    map[string]bool
}

// ask runs q as a QueryWorkflow, notes the questions it asks without answering them, and
// judges what it did.
func (a agentAsker) ask(ctx context.Context, q agenteval.Question) (agenteval.Result, error) {
	id := a.prefix + "-" + q.ID
	res := agenteval.Result{Question: q, WorkflowID: id}
	req := workflows.QueryRequest{Query: q.Text, Planner: a.planner, Search: a.search, NoFeedback: true, ClarifyDeadline: a.deadline}
	start := time.Now()
	run, err := workflows.StartQuery(ctx, a.tc, client.StartWorkflowOptions{
		ID: id, TaskQueue: a.taskQueue, WorkflowExecutionTimeout: 5 * time.Minute,
		StaticSummary: "navi eval agent " + q.ID + ": " + oneLine(q.Text, 80),
	}, req)
	if err != nil {
		return res, fmt.Errorf("start workflow %s: %w", id, err)
	}
	// waitResult calls back on this goroutine: no lock needed.
	qr, err := waitResult(ctx, a.tc, run, func(p workflows.Pending) {
		if p.Confirm == "" {
			res.Run.Asked = append(res.Run.Asked, p.Params)
			return
		}
		// A run asks to approve a write: the user who asked for it approves a call of the
		// chain that serves the question, and no other.
		answer := approval(p.Confirm, q.APIs())
		res.Run.Confirmed = append(res.Run.Confirmed, p.Confirm+": "+answer)
		if _, err := sendAnswer(ctx, a.tc, id, answer); err != nil {
			res.Run.Confirmed = append(res.Run.Confirmed, "(answer not sent: "+err.Error()+")")
		}
	})
	res.Seconds = time.Since(start).Seconds()
	if err != nil {
		return res, fmt.Errorf("workflow %s: %w", id, err)
	}
	res.Run.Status, res.Run.Chain = qr.Status, qr.Chain
	for _, api := range qr.Chain {
		if a.writes[api] {
			res.Run.Wrote = append(res.Run.Wrote, api)
		}
	}
	res.Verdict = agenteval.Judge(q, res.Run)
	return res, nil
}
