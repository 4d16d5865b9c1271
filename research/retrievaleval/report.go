package retrievaleval

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/naviagent/navi/toolspec"
)

// Report is the outcome of Evaluate: the sets and methods, in the order given, and one
// Result per (set, method), set by set.
type Report struct {
	Workers int          `json:"workers"`
	Limit   int          `json:"limit,omitempty"` // tasks per set, 0 for all
	Sets    []SetInfo    `json:"sets"`
	Methods []MethodInfo `json:"methods"`
	Results []Result     `json:"results"`
}

// SetInfo describes an evaluated set.
type SetInfo struct {
	Name  string `json:"name"`
	Tasks int    `json:"tasks"` // evaluated
	Total int    `json:"total"` // in the set
	APIs  int    `json:"apis"`  // ranked: the catalog's size
	Note  string `json:"note,omitempty"`
}

// MethodInfo describes an evaluated method.
type MethodInfo struct {
	Name string `json:"name"`
	Note string `json:"note,omitempty"`
}

// Result is one method's outcome on one set.
type Result struct {
	Set    string `json:"set"`
	Method string `json:"method"`
	Tasks  int    `json:"tasks"`
	Metrics
	// BuildSeconds is how long Method.New took; WallSeconds how long ranking every task took.
	BuildSeconds float64 `json:"build_s"`
	WallSeconds  float64 `json:"wall_s"`
	// MultiStep is how many tasks a Planner planned (the multi-step tasks of an ordered set),
	// and ChainExact the share of them whose plan is the gold chain; nil when none was.
	MultiStep  int          `json:"multi_step,omitempty"`
	ChainExact *float64     `json:"chain_exact,omitempty"`
	PerTask    []TaskResult `json:"per_task"`
}

// TaskResult is one task's ranks under one method.
type TaskResult struct {
	ID string `json:"id"`
	// Query is the task's request, so a miss can be read without the set at hand.
	Query string         `json:"query"`
	Final string         `json:"final"`
	Chain toolspec.Chain `json:"chain"`
	Score
	// Top holds the first TopN names of the ranking.
	Top []string `json:"top"`
	// Plan is the chain a Planner planned, producers first; nil when it was not asked.
	Plan []string `json:"plan,omitempty"`
	// AnyOrder says the plan is the gold chain where it makes the same calls (Task.AnyOrder).
	AnyOrder bool    `json:"any_order,omitempty"`
	Millis   float64 `json:"ms"`
}

// Result returns the result of method on set.
func (r Report) Result(set, method string) (Result, bool) {
	for _, res := range r.Results {
		if res.Set == set && res.Method == method {
			return res, true
		}
	}
	return Result{}, false
}

// WriteJSON writes the whole report, per-task ranks included, as indented JSON.
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// column is one metric column of a Markdown table.
type column struct {
	label string
	value func(Result) string
}

func pct(x float64) string { return fmt.Sprintf("%.1f", 100*x) }

var (
	colHit1   = column{"@1", func(r Result) string { return pct(r.Hit1) }}
	colHit3   = column{"@3", func(r Result) string { return pct(r.Hit3) }}
	colHit10  = column{"@10", func(r Result) string { return pct(r.Hit10) }}
	colMRR    = column{"MRR", func(r Result) string { return pct(r.MRR) }}
	colRecall = column{"R@5", func(r Result) string { return pct(r.Recall5) }}
	colNDCG   = column{"NDCG@10", func(r Result) string { return pct(r.NDCG10) }}
	colBuild  = column{"build s", func(r Result) string { return fmt.Sprintf("%.2f", r.BuildSeconds) }}
	colQuery  = column{"ms/query", func(r Result) string { return fmt.Sprintf("%.1f", r.QueryMillis) }}
	colExact  = column{"chain exact", func(r Result) string {
		if r.ChainExact == nil {
			return "–"
		}
		return pct(*r.ChainExact)
	}}
	colPlanned = column{"planned", func(r Result) string {
		if r.ChainExact == nil {
			return "–"
		}
		return fmt.Sprint(r.MultiStep)
	}}
)

// planned reports whether some method planned chains.
func (r Report) planned() bool {
	return slices.ContainsFunc(r.Results, func(res Result) bool { return res.ChainExact != nil })
}

// table writes one Markdown table: a row per method, the columns of each set in turn, the
// set's name heading its first column.
func (r Report) table(w io.Writer, cols []column) {
	var b strings.Builder
	b.WriteString("| Method |")
	align := "|---|"
	for _, s := range r.Sets {
		for i, c := range cols {
			if i == 0 {
				fmt.Fprintf(&b, " %s %s |", s.Name, c.label)
			} else {
				fmt.Fprintf(&b, " %s |", c.label)
			}
			align += "---:|"
		}
	}
	b.WriteString("\n" + align + "\n")
	for _, m := range r.Methods {
		fmt.Fprintf(&b, "| %s |", m.Name)
		for _, s := range r.Sets {
			res, ok := r.Result(s.Name, m.Name)
			for _, c := range cols {
				v := "–"
				if ok {
					v = c.value(res)
				}
				fmt.Fprintf(&b, " %s |", v)
			}
		}
		b.WriteString("\n")
	}
	io.WriteString(w, b.String())
}

// WriteSummary writes the compact table for a README: methods by sets, final-API hit@1 and
// chain Recall@5, in percent.
func (r Report) WriteSummary(w io.Writer) error {
	var b strings.Builder
	b.WriteString("Retrieval: share of tasks whose gold final API is ranked first (@1) and share of the gold chain in the top 5 (R@5), in %.\n\n")
	r.table(&b, []column{colHit1, colRecall})
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteMarkdown writes the report: the summary, a table per metric group (methods as rows,
// sets as columns), and the sets' sizes and notes.
func (r Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("# Retrieval evaluation\n\n")
	if r.Limit > 0 {
		fmt.Fprintf(&b, "Only the first %d tasks of each set.\n\n", r.Limit)
	}
	b.WriteString("## Summary\n\n")
	if err := r.WriteSummary(&b); err != nil {
		return err
	}
	b.WriteString("\n## Final API\n\nShare of tasks whose gold final API is ranked within the top 1, 3 and 10, and its mean reciprocal rank, in %.\n\n")
	r.table(&b, []column{colHit1, colHit3, colHit10, colMRR})
	b.WriteString("\n## Gold chain\n\nRecall@5 (share of the gold APIs in the top 5) and NDCG@10 (binary relevance), in %.\n\n")
	r.table(&b, []column{colRecall, colNDCG})
	if r.planned() {
		b.WriteString("\n## Planned chain\n\nShare of the multi-step tasks of sets whose gold chain is ordered where the method's plan (graph search from its final step, with the values the request states) is the gold chain, call for call and in order, in %; and how many tasks were planned.\n\n")
		r.table(&b, []column{colExact, colPlanned})
	}
	fmt.Fprintf(&b, "\n## Time\n\nBuilding the method for the set's catalog, in seconds, and the mean time of one query, in milliseconds (%d queries at a time).\n\n", r.Workers)
	r.table(&b, []column{colBuild, colQuery})
	b.WriteString("\n## Sets\n\n")
	for _, s := range r.Sets {
		size := fmt.Sprintf("%d tasks", s.Tasks)
		if s.Tasks != s.Total {
			size = fmt.Sprintf("%d of %d tasks", s.Tasks, s.Total)
		}
		fmt.Fprintf(&b, "- **%s** (%s, %d APIs ranked): %s\n", s.Name, size, s.APIs, s.Note)
	}
	b.WriteString("\n## Methods\n\n")
	for _, m := range r.Methods {
		fmt.Fprintf(&b, "- **%s**: %s\n", m.Name, m.Note)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
