package bench

import (
	"math"
	"slices"
	"strconv"

	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/toolworld"
)

// Metrics aggregate a group of task outcomes. Rates and F1 scores are fractions in [0, 1].
//
// The denominators differ on purpose:
//   - TCR, TSR and node-F1 are over every task: a task whose run errored counts as failed.
//   - Steps is over the solved tasks (Succeeded): how many decisions a success takes.
//   - LLM calls, tokens, tool calls, recombinations and wall times are over the runs that
//     returned a result (Runs, the tasks without a Runner error), because an errored run
//     reports no usage and counting it as zero would make a failing variant look cheap.
//   - link-F1 is over the tasks whose gold flow has links (LinkTasks); see TaskOutcome.
//
// A mean over no task is 0; the counts tell whether a 0 is a measurement.
type Metrics struct {
	Tasks     int `json:"tasks"`
	Runs      int `json:"runs"`
	Completed int `json:"completed"`
	Succeeded int `json:"succeeded"`
	LinkTasks int `json:"link_tasks"`
	// TCR is the task completion rate: the share of tasks whose run answered.
	TCR float64 `json:"tcr"`
	// TSR is the task success rate: the share of tasks solved (see Succeeded).
	TSR float64 `json:"tsr"`
	// Intents counts the questions the tasks ask (one a task unless compound), and IntentTSR
	// is the share of them answered (see Intents): a compound task half answered counts half.
	Intents   int     `json:"intents"`
	IntentTSR float64 `json:"intent_tsr"`
	// Steps is the mean number of planner decisions per solved task.
	Steps float64 `json:"steps"`
	// Per-run means of the usage.
	LLMCalls         float64 `json:"llm_calls"`
	PromptTokens     float64 `json:"prompt_tokens"`
	CompletionTokens float64 `json:"completion_tokens"`
	Tokens           float64 `json:"tokens"`
	// Per-run means of the planner's decisions: all of them, those an inertial step made
	// without the LLM, those whose LLM answer was repaired or stayed invalid (the graph-first
	// planner then decided), and those the projection replaced.
	Decisions      float64 `json:"decisions"`
	LLMSaved       float64 `json:"llm_saved"`
	Repaired       float64 `json:"repaired"`
	Invalid        float64 `json:"invalid"`
	Replaced       float64 `json:"replaced"`
	ToolCalls      float64 `json:"tool_calls"`
	Recombinations float64 `json:"recombinations"`
	// Wall-time percentiles (nearest rank) in milliseconds.
	WallP50MS float64 `json:"wall_p50_ms"`
	WallP95MS float64 `json:"wall_p95_ms"`
	// Mean per-task F1 scores (macro average).
	NodeF1 float64 `json:"node_f1"`
	LinkF1 float64 `json:"link_f1"`
}

// Aggregate computes the metrics of a group of outcomes.
func Aggregate(outs []TaskOutcome) Metrics {
	m := Metrics{Tasks: len(outs)}
	var steps, tools, recomb, node, link float64
	var usage planner.Usage // summed over the runs
	var walls []float64
	solved := 0
	for _, o := range outs {
		node += o.NodeF1
		m.Intents += o.Intents
		solved += o.Solved
		if o.GoldLinks > 0 {
			m.LinkTasks++
			link += o.LinkF1
		}
		if o.Completed {
			m.Completed++
		}
		if o.Success {
			m.Succeeded++
			steps += float64(o.Result.Steps)
		}
		if o.Err != "" {
			continue
		}
		m.Runs++
		usage = usage.Add(o.Result.Usage)
		tools += float64(o.Result.ToolCalls)
		recomb += float64(o.Result.Recombinations)
		walls = append(walls, o.WallMS)
	}
	m.TCR = ratio(float64(m.Completed), m.Tasks)
	m.TSR = ratio(float64(m.Succeeded), m.Tasks)
	m.IntentTSR = ratio(float64(solved), m.Intents)
	m.NodeF1 = ratio(node, m.Tasks)
	m.LinkF1 = ratio(link, m.LinkTasks)
	m.Steps = ratio(steps, m.Succeeded)
	m.LLMCalls = ratio(float64(usage.LLMCalls), m.Runs)
	m.PromptTokens = ratio(float64(usage.PromptTokens), m.Runs)
	m.CompletionTokens = ratio(float64(usage.CompletionTokens), m.Runs)
	m.Tokens = m.PromptTokens + m.CompletionTokens
	m.Decisions = ratio(float64(usage.Decisions), m.Runs)
	m.LLMSaved = ratio(float64(usage.LLMSaved), m.Runs)
	m.Repaired = ratio(float64(usage.Repaired), m.Runs)
	m.Invalid = ratio(float64(usage.Invalid), m.Runs)
	m.Replaced = ratio(float64(usage.Replaced), m.Runs)
	m.ToolCalls = ratio(tools, m.Runs)
	m.Recombinations = ratio(recomb, m.Runs)
	m.WallP50MS = Percentile(walls, 0.50)
	m.WallP95MS = Percentile(walls, 0.95)
	return m
}

func ratio(sum float64, n int) float64 {
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// Percentile returns the nearest-rank p-th percentile of xs (0 < p ≤ 1): the smallest value
// with at least p of the values at or below it, always an observed value. 0 for no values.
func Percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	// The epsilon keeps p·n that is an integer in exact arithmetic (0.95·20 = 19) from
	// rounding up to the next rank through float error.
	i := int(math.Ceil(p*float64(len(s))-1e-9)) - 1
	return s[max(0, min(i, len(s)-1))]
}

// Difficulties are the difficulty groups reported, in order; all is every task.
var Difficulties = []string{toolworld.DifficultyEasy, toolworld.DifficultyMedium, toolworld.DifficultyHard, toolworld.DifficultyRenamed,
	toolworld.DifficultyCompound, toolworld.DifficultyAll}

// Summarize computes each variant's metrics from the outcomes: by difficulty always, by
// phase when phases is not empty, and by batch when batches > 1. Outcomes of variants not
// listed are ignored.
func Summarize(outcomes []TaskOutcome, variants []string, phases []string, batches int) []VariantMetrics {
	out := make([]VariantMetrics, 0, len(variants))
	for _, v := range variants {
		var mine []TaskOutcome
		for _, o := range outcomes {
			if o.Variant == v {
				mine = append(mine, o)
			}
		}
		vm := VariantMetrics{Variant: v}
		for _, d := range Difficulties {
			vm.Difficulty = append(vm.Difficulty, group(d, mine, func(o TaskOutcome) bool {
				return d == toolworld.DifficultyAll || o.Difficulty == d
			}))
		}
		for _, p := range phases {
			vm.Phases = append(vm.Phases, group(p, mine, func(o TaskOutcome) bool { return o.Phase == p }))
		}
		if batches > 1 {
			for b := 1; b <= batches; b++ {
				vm.Batches = append(vm.Batches, group(strconv.Itoa(b), mine, func(o TaskOutcome) bool { return o.Batch == b }))
			}
		}
		out = append(out, vm)
	}
	return out
}

func group(name string, outs []TaskOutcome, keep func(TaskOutcome) bool) GroupMetrics {
	var sel []TaskOutcome
	for _, o := range outs {
		if keep(o) {
			sel = append(sel, o)
		}
	}
	return GroupMetrics{Group: name, Metrics: Aggregate(sel)}
}
