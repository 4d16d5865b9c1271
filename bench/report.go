package bench

import (
	"time"

	"github.com/naviagent/navi/toolspec"
	"github.com/naviagent/navi/toolworld"
	"github.com/naviagent/navi/workflows"
)

// Report is the result of a benchmark run. Its JSON form keeps the field order below; maps
// inside results are written with sorted keys by encoding/json, so the same run gives the
// same bytes (apart from the times).
type Report struct {
	Seed uint64 `json:"seed"`
	// Command is the command line that produced the report.
	Command     []string  `json:"command"`
	Started     time.Time `json:"started"`
	ElapsedS    float64   `json:"elapsed_s"`
	Concurrency int       `json:"concurrency"`
	// Batches is the number of learning-curve batches; 0 or 1 means no learning curve.
	Batches int `json:"batches,omitempty"`
	// Partial is set when the run stopped early (cancelled, or a hook failed): the metrics
	// cover only the outcomes recorded.
	Partial  bool        `json:"partial,omitempty"`
	Error    string      `json:"error,omitempty"`
	Variants []Variant   `json:"variants"`
	Phases   []PhaseInfo `json:"phases,omitempty"`
	// Metrics has one entry per variant, in the order of Variants.
	Metrics []VariantMetrics `json:"metrics"`
	// Outcomes has one entry per task run, by variant then task position.
	Outcomes []TaskOutcome `json:"outcomes"`
}

// PhaseInfo describes a phase in a report.
type PhaseInfo struct {
	Name  string `json:"name"`
	Tasks int    `json:"tasks"`
}

// VariantMetrics are one variant's metrics broken down three ways.
type VariantMetrics struct {
	Variant string `json:"variant"`
	// Difficulty holds easy, medium, hard and all, in that order (empty groups included).
	Difficulty []GroupMetrics `json:"difficulty"`
	// Phases holds one group per phase, in run order, when the run had phases.
	Phases []GroupMetrics `json:"phases,omitempty"`
	// Batches holds one group per batch, named "1" to "N", when the run had batches.
	Batches []GroupMetrics `json:"batches,omitempty"`
}

// GroupMetrics are the metrics of one group of outcomes.
type GroupMetrics struct {
	Group string `json:"group"`
	Metrics
}

// All returns the metrics over every task of the variant.
func (v VariantMetrics) All() Metrics { return find(v.Difficulty, toolworld.DifficultyAll) }

// ByDifficulty returns the metrics of one difficulty ("all" included).
func (v VariantMetrics) ByDifficulty(d string) Metrics { return find(v.Difficulty, d) }

func find(gs []GroupMetrics, name string) Metrics {
	for _, g := range gs {
		if g.Group == name {
			return g.Metrics
		}
	}
	return Metrics{}
}

// TaskOutcome is one task's run under one variant, scored.
type TaskOutcome struct {
	Variant string `json:"variant"`
	// Phase is the phase's name; empty when the run had no phases.
	Phase string `json:"phase,omitempty"`
	// Batch is the 1-based learning-curve batch; 0 when the run had no batches.
	Batch int `json:"batch,omitempty"`
	// Index is the task's position in the variant's sequence (phases concatenated).
	Index      int            `json:"index"`
	TaskID     string         `json:"task_id"`
	Difficulty string         `json:"difficulty"`
	GoldChain  toolspec.Chain `json:"gold_chain"`
	WorkflowID string         `json:"workflow_id,omitempty"`
	// Err is the Runner's error; the task then counts as failed.
	Err       string `json:"error,omitempty"`
	Completed bool   `json:"completed"`
	Success   bool   `json:"success"`
	// Intents is how many questions the task asks (one unless compound), Solved how many of
	// them the run answered (see Intents).
	Intents int     `json:"intents"`
	Solved  int     `json:"solved"`
	NodeF1  float64 `json:"node_f1"`
	// LinkF1 is scored only when the gold flow has links (GoldLinks > 0): an easy task's
	// single call has none, and a run that called nothing would otherwise score 1.
	LinkF1    float64 `json:"link_f1"`
	GoldLinks int     `json:"gold_links"`
	WallMS    float64 `json:"wall_ms"`
	// Result is the workflow's result as the Runner returned it.
	Result workflows.QueryResult `json:"result"`
}

// Score turns a Runner's outcome for task t into a scored TaskOutcome; the caller fills in
// the variant, phase, batch and index.
func Score(t toolworld.Task, o Outcome) TaskOutcome {
	solved, intents := Intents(t, o.Result)
	if o.Err != "" {
		solved = 0
	}
	return TaskOutcome{
		Intents:    intents,
		Solved:     solved,
		TaskID:     t.ID,
		Difficulty: t.Difficulty,
		GoldChain:  t.GoldChain,
		WorkflowID: o.WorkflowID,
		Err:        o.Err,
		Completed:  o.Err == "" && Completed(o.Result),
		Success:    o.Err == "" && Succeeded(t, o.Result),
		NodeF1:     NodeF1(t, o.Result.Chain),
		LinkF1:     LinkF1(t, o.Result),
		GoldLinks:  len(GoldLinks(t)),
		WallMS:     float64(o.Wall) / float64(time.Millisecond),
		Result:     o.Result,
	}
}
