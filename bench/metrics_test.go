package bench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/workflows"
)

func TestPercentile(t *testing.T) {
	twenty := make([]float64, 20)
	for i := range twenty {
		twenty[i] = float64(20 - i) // 20, 19, …, 1: unsorted on purpose
	}
	cases := []struct {
		name string
		xs   []float64
		p    float64
		want float64
	}{
		{"empty", nil, 0.5, 0},
		{"single", []float64{7}, 0.95, 7},
		{"p50 of four is the second", []float64{4, 1, 3, 2}, 0.5, 2},
		{"p50 of five is the middle", []float64{5, 1, 4, 2, 3}, 0.5, 3},
		{"p95 of four is the largest", []float64{4, 1, 3, 2}, 0.95, 4},
		{"p95 of twenty is the 19th", twenty, 0.95, 19},
		{"p50 of twenty is the 10th", twenty, 0.5, 10},
		{"p100 is the largest", twenty, 1, 20},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, Percentile(c.xs, c.p))
		})
	}
}

// outcome builds a scored outcome for the metric tests.
func outcome(diff string, completed, success bool, steps, llm, prompt, completion, tools, recomb int, wall, node, link float64, goldLinks int) TaskOutcome {
	return TaskOutcome{
		Difficulty: diff, Completed: completed, Success: success, NodeF1: node, LinkF1: link, GoldLinks: goldLinks, WallMS: wall,
		Result: workflows.QueryResult{Steps: steps, ToolCalls: tools, Recombinations: recomb,
			Usage: planner.Usage{LLMCalls: llm, PromptTokens: prompt, CompletionTokens: completion}},
	}
}

func TestAggregate(t *testing.T) {
	errored := TaskOutcome{Difficulty: "hard", Err: "workflow failed", WallMS: 9999, GoldLinks: 2}
	cases := []struct {
		name string
		in   []TaskOutcome
		want Metrics
	}{
		{name: "no outcomes", in: nil, want: Metrics{}},
		{
			name: "one solved easy task",
			in:   []TaskOutcome{outcome("easy", true, true, 3, 2, 100, 20, 1, 0, 150, 1, 1, 0)},
			want: Metrics{Tasks: 1, Runs: 1, Completed: 1, Succeeded: 1, TCR: 1, TSR: 1, Steps: 3, LLMCalls: 2,
				PromptTokens: 100, CompletionTokens: 20, Tokens: 120, ToolCalls: 1, WallP50MS: 150, WallP95MS: 150, NodeF1: 1},
		},
		{
			// Four tasks: solved (steps 4), answered but wrong, failed, errored.
			// TCR 2/4, TSR 1/4, Steps 4 (solved only); usage over the 3 runs:
			// LLM (3+5+1)/3 = 3, prompt (300+500+90)/3 = 296.67, completion (30+60+0)/3 = 30,
			// tools (2+3+1)/3 = 2, recombinations (0+1+2)/3 = 1; walls 100, 300, 200 → p50 200,
			// p95 300; node-F1 (1+0.5+0+0)/4 = 0.375; link-F1 over the 3 tasks with gold links
			// (1+0+0)/3 (the easy failure has none).
			name: "mixed",
			in: []TaskOutcome{
				outcome("medium", true, true, 4, 3, 300, 30, 2, 0, 100, 1, 1, 1),
				outcome("hard", true, false, 6, 5, 500, 60, 3, 1, 300, 0.5, 0, 2),
				outcome("easy", false, false, 2, 1, 90, 0, 1, 2, 200, 0, 1, 0),
				errored,
			},
			want: Metrics{Tasks: 4, Runs: 3, Completed: 2, Succeeded: 1, LinkTasks: 3, TCR: 0.5, TSR: 0.25, Steps: 4,
				LLMCalls: 3, PromptTokens: 890.0 / 3, CompletionTokens: 30, Tokens: 890.0/3 + 30, ToolCalls: 2,
				Recombinations: 1, WallP50MS: 200, WallP95MS: 300, NodeF1: 0.375, LinkF1: 1.0 / 3},
		},
		{
			name: "only errors",
			in:   []TaskOutcome{errored, errored},
			want: Metrics{Tasks: 2, LinkTasks: 2},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Aggregate(c.in)
			assert.Equal(t, c.want.Tasks, got.Tasks)
			assert.Equal(t, c.want.Runs, got.Runs)
			assert.Equal(t, c.want.Completed, got.Completed)
			assert.Equal(t, c.want.Succeeded, got.Succeeded)
			assert.Equal(t, c.want.LinkTasks, got.LinkTasks)
			for name, pair := range map[string][2]float64{
				"tcr": {c.want.TCR, got.TCR}, "tsr": {c.want.TSR, got.TSR}, "steps": {c.want.Steps, got.Steps},
				"llm": {c.want.LLMCalls, got.LLMCalls}, "prompt": {c.want.PromptTokens, got.PromptTokens},
				"completion": {c.want.CompletionTokens, got.CompletionTokens}, "tokens": {c.want.Tokens, got.Tokens},
				"tools": {c.want.ToolCalls, got.ToolCalls}, "recomb": {c.want.Recombinations, got.Recombinations},
				"p50": {c.want.WallP50MS, got.WallP50MS}, "p95": {c.want.WallP95MS, got.WallP95MS},
				"node": {c.want.NodeF1, got.NodeF1}, "link": {c.want.LinkF1, got.LinkF1},
			} {
				assert.InDelta(t, pair[0], pair[1], 1e-9, name)
			}
		})
	}
}

func TestSummarize(t *testing.T) {
	mk := func(variant, diff, phase string, batch int, success bool) TaskOutcome {
		return TaskOutcome{Variant: variant, Difficulty: diff, Phase: phase, Batch: batch, Completed: true, Success: success}
	}
	outs := []TaskOutcome{
		mk("a", "easy", "p1", 1, true),
		mk("a", "medium", "p1", 1, false),
		mk("a", "hard", "p2", 2, true),
		mk("a", "hard", "p2", 2, true),
		mk("b", "easy", "p1", 1, false),
		mk("other", "easy", "p1", 1, true),
	}
	vms := Summarize(outs, []string{"a", "b"}, []string{"p1", "p2"}, 2)
	require.Len(t, vms, 2)

	a := vms[0]
	assert.Equal(t, "a", a.Variant)
	groups := func(gs []GroupMetrics) []string {
		var names []string
		for _, g := range gs {
			names = append(names, g.Group)
		}
		return names
	}
	assert.Equal(t, []string{"easy", "medium", "hard", "renamed", "compound", "all"}, groups(a.Difficulty))
	assert.Equal(t, []string{"p1", "p2"}, groups(a.Phases))
	assert.Equal(t, []string{"1", "2"}, groups(a.Batches))
	cases := []struct {
		name  string
		m     Metrics
		tasks int
		tsr   float64
	}{
		{"a easy", a.ByDifficulty("easy"), 1, 1},
		{"a medium", a.ByDifficulty("medium"), 1, 0},
		{"a hard", a.ByDifficulty("hard"), 2, 1},
		{"a all", a.All(), 4, 0.75},
		{"a p1", a.Phases[0].Metrics, 2, 0.5},
		{"a p2", a.Phases[1].Metrics, 2, 1},
		{"a batch 1", a.Batches[0].Metrics, 2, 0.5},
		{"a batch 2", a.Batches[1].Metrics, 2, 1},
		{"b all", vms[1].All(), 1, 0},
		{"b hard is empty", vms[1].ByDifficulty("hard"), 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.tasks, c.m.Tasks)
			assert.InDelta(t, c.tsr, c.m.TSR, 1e-12)
		})
	}

	plain := Summarize(outs, []string{"a"}, nil, 1)
	assert.Empty(t, plain[0].Phases, "no phases, no phase breakdown")
	assert.Empty(t, plain[0].Batches, "one batch, no learning curve")
}
