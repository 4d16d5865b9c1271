package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/naviagent/navi/internal/config"
	"github.com/naviagent/navi/toolworld"
	"github.com/naviagent/navi/workflows"
)

// scenario is one query of the demo.
type scenario struct {
	label string
	query string
	// answer is what the demo answers, as a user would, when the run asks a question.
	answer string
	// breaks names an earlier scenario whose first tool this run finds down (for this run
	// only): the same chain, with a tool that stays broken.
	breaks string
}

// demoScenarios are tool-world queries of each kind: one, two and three calls, one that needs
// the user, and one whose tool breaks.
var demoScenarios = []scenario{
	{label: "easy", query: "What is the ground elevation at latitude 25.2048, longitude 55.2708?"},
	{label: "medium", query: "What are the housing market statistics for the city at latitude 25.2048, longitude 55.2708?"},
	{label: "hard", query: "How can I contact the agent of the best home for sale near latitude 1.3521, longitude 103.8198?"},
	{label: "clarify", query: "What is the weather right now?", answer: "Rome"},
	{label: "recover", query: "What are the housing market statistics for the city at latitude 25.2048, longitude 55.2708?",
		breaks: "medium"},
}

// demo runs the demo scenarios against the running stack and prints each answer and UI link.
func demo(args []string, s streams) error {
	c := newCommand("demo")
	world := c.fs.String("toolworld", config.Getenv("NAVI_TOOLWORLD_URL", "http://127.0.0.1:8300"), "tool world URL, for its fault injection (NAVI_TOOLWORLD_URL)")
	planner := c.fs.String("planner", "", "planner: graph-first or llm (default: the worker's)")
	timeout := c.fs.Duration("timeout", 5*time.Minute, "how long the whole demo may take")
	if _, err := c.parse(args, 0, 0, "no arguments"); err != nil {
		return err
	}
	return c.withTemporal(*timeout, func(ctx context.Context, tc client.Client) error {
		answered := 0
		chains := map[string][]string{}
		for i, sc := range demoScenarios {
			fmt.Fprintf(s.out, "\n── %d/%d %s: %s\n", i+1, len(demoScenarios), sc.label, sc.query)
			var fault *toolworld.Fault
			if chain := chains[sc.breaks]; len(chain) > 0 {
				// The tool the earlier run started with: the graph will pick it again.
				fault = &toolworld.Fault{API: chain[0], Mode: toolworld.ModeDown}
			}
			res, err := c.runScenario(ctx, tc, s.out, *world, *planner, sc, fault)
			if err != nil {
				return fmt.Errorf("demo %s: %w", sc.label, err)
			}
			chains[sc.label] = res.Chain
			if res.Status == workflows.StatusAnswered {
				answered++
			}
		}
		fmt.Fprintf(s.out, "\n%d of %d demo queries answered. List them: navi list; inspect one: navi show <workflow>\n", answered, len(demoScenarios))
		return nil
	})
}

// runScenario runs one scenario: it injects fault (if any) for this run only, answers the
// run's question, and prints the result.
func (c *command) runScenario(ctx context.Context, tc client.Client, out io.Writer, world, planner string, sc scenario, fault *toolworld.Fault) (workflows.QueryResult, error) {
	id := newRunID("navi-demo-" + sc.label)
	if fault != nil {
		f := *fault
		f.KeyPrefix = "navi/" + id + "/" // the keys CallTool sends start with the workflow ID
		if err := toolworld.PostFault(ctx, world, f); err != nil {
			return workflows.QueryResult{}, err
		}
		defer func() {
			_ = toolworld.PostFault(context.Background(), world, toolworld.Fault{API: f.API, Mode: toolworld.ModeNone})
		}()
		field(out, "fault", "%s is %s for this run (the tool world answers %s with HTTP 503)", f.API, f.Mode, f.API)
	}
	run, err := workflows.StartQuery(ctx, tc, client.StartWorkflowOptions{ID: id, TaskQueue: c.cfg.TaskQueue, StaticSummary: "demo " + sc.label},
		workflows.QueryRequest{Query: sc.query, Planner: planner})
	if err != nil {
		return workflows.QueryResult{}, fmt.Errorf("start workflow %s: %w", id, err)
	}
	field(out, "workflow", "%s", id)
	field(out, "ui", "%s", c.cfg.RunURL(id))
	res, err := waitResult(ctx, tc, run, func(st workflows.Pending) {
		field(out, "question", "%s", st.Question)
		if sc.answer == "" {
			field(out, "", "(the demo has no answer for it; answer with: navi answer %s \"<text>\")", id)
			return
		}
		field(out, "answer", "%q (as a user would with: navi answer %s %q)", sc.answer, id, sc.answer)
		if _, err := sendAnswer(ctx, tc, id, sc.answer); err != nil {
			field(out, "", "the answer was not taken: %v", err)
		}
	})
	if err != nil {
		return res, fmt.Errorf("workflow %s failed: %w", id, err)
	}
	field(out, "status", "%s · %s · %s · %d steps · %d tool calls · %d recombinations", res.Status,
		plannerLabel(res.Planner, planner), strings.Join(res.Chain, " → "), res.Steps, res.ToolCalls, res.Recombinations)
	field(out, "answer", "%s", res.Answer)
	return res, nil
}
