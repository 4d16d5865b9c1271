package bench

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// metricHeader is the header of every metrics table, after its first column.
var metricHeader = []string{"Tasks", "TCR", "TSR", "Steps", "LLM calls", "Tokens", "Tool calls", "Recombinations", "p50", "p95", "Node-F1", "Link-F1"}

// WriteMarkdown writes the report as Markdown: the run's settings, one table with a row per
// variant, a table per difficulty, and the phases and learning-curve tables when the run had
// them. Rates are percentages with one decimal, means two decimals, tokens whole, wall
// times durations to the millisecond, F1 three decimals; a mean over no task is "–".
func WriteMarkdown(w io.Writer, r Report) error {
	var b strings.Builder
	b.WriteString("# Navi benchmark\n\n")
	fmt.Fprintf(&b, "- Seed: %d\n", r.Seed)
	if len(r.Command) > 0 {
		fmt.Fprintf(&b, "- Command: `%s`\n", strings.Join(r.Command, " "))
	}
	fmt.Fprintf(&b, "- Started: %s, elapsed %s\n", r.Started.Format(time.RFC3339), fmtDuration(time.Duration(r.ElapsedS*float64(time.Second))))
	fmt.Fprintf(&b, "- Concurrency: %d\n", r.Concurrency)
	if r.Partial {
		fmt.Fprintf(&b, "- **Partial run**: %s\n", r.Error)
	}
	b.WriteString("\n## Variants\n\n| Variant | Planner | Search | Feedback | Pruning | HGT |\n|---|---|---|---|---|---|\n")
	for _, v := range r.Variants {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", v.Name, orDash(v.Planner), orDash(v.Search), onOff(v.Feedback), onOff(v.Pruning), onOff(v.HGT))
	}

	b.WriteString("\n## All tasks\n\n")
	var rows []row
	for _, vm := range r.Metrics {
		rows = append(rows, row{vm.Variant, vm.All()})
	}
	table(&b, "Variant", rows)
	llm := false
	for _, vm := range r.Metrics {
		llm = llm || vm.All().LLMCalls > 0
	}
	if llm {
		b.WriteString("\n## Planner decisions\n\nPer run: decisions made, LLM calls, decisions an inertial step made without the LLM, LLM answers repaired, LLM answers still invalid after the repair (the graph-first planner decided those), and decisions the projection replaced.\n\n")
		b.WriteString("| Variant | Decisions | LLM calls | Saved by inertia | Repaired | Invalid | Replaced | Prompt tokens | Completion tokens |\n|---|---|---|---|---|---|---|---|---|\n")
		for _, vm := range r.Metrics {
			m := vm.All()
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", vm.Variant, mean(m.Decisions, m.Runs, "%.2f"), mean(m.LLMCalls, m.Runs, "%.2f"),
				mean(m.LLMSaved, m.Runs, "%.2f"), mean(m.Repaired, m.Runs, "%.2f"), mean(m.Invalid, m.Runs, "%.2f"), mean(m.Replaced, m.Runs, "%.2f"),
				mean(m.PromptTokens, m.Runs, "%.0f"), mean(m.CompletionTokens, m.Runs, "%.0f"))
		}
	}
	compound := false
	for _, vm := range r.Metrics {
		compound = compound || vm.All().Intents > vm.All().Tasks
	}
	if compound {
		b.WriteString("\n## Intents\n\nA compound task asks several questions; TSR counts it solved when every one is answered, intent TSR counts each.\n\n")
		b.WriteString("| Variant | Tasks | Intents | TSR | Intent TSR |\n|---|---|---|---|---|\n")
		for _, vm := range r.Metrics {
			m := vm.All()
			fmt.Fprintf(&b, "| %s | %d | %d | %s | %s |\n", vm.Variant, m.Tasks, m.Intents, mean(100*m.TSR, m.Tasks, "%.1f%%"), mean(100*m.IntentTSR, m.Intents, "%.1f%%"))
		}
	}
	for _, d := range Difficulties[:len(Difficulties)-1] {
		rows = rows[:0]
		n := 0
		for _, vm := range r.Metrics {
			m := vm.ByDifficulty(d)
			n += m.Tasks
			rows = append(rows, row{vm.Variant, m})
		}
		if n == 0 {
			continue // no task of this difficulty: an empty table says nothing
		}
		fmt.Fprintf(&b, "\n## Difficulty: %s\n\n", d)
		table(&b, "Variant", rows)
	}
	if len(r.Phases) > 0 {
		b.WriteString("\n## Phases\n\n")
		table(&b, "Variant | Phase", groupRows(r.Metrics, func(vm VariantMetrics) []GroupMetrics { return vm.Phases }))
	}
	if r.Batches > 1 {
		b.WriteString("\n## Learning curve\n\n")
		table(&b, "Variant | Batch", groupRows(r.Metrics, func(vm VariantMetrics) []GroupMetrics { return vm.Batches }))
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write markdown: %w", err)
	}
	return nil
}

// row is one row of a metrics table: its first cells, then the metrics.
type row struct {
	name string
	m    Metrics
}

// groupRows lists, variant by variant, the groups of one breakdown as rows "variant | group".
func groupRows(vms []VariantMetrics, groups func(VariantMetrics) []GroupMetrics) []row {
	var rows []row
	for _, vm := range vms {
		for _, g := range groups(vm) {
			rows = append(rows, row{vm.Variant + " | " + g.Group, g.Metrics})
		}
	}
	return rows
}

// table writes a metrics table whose first columns are head (cells separated by " | ").
func table(b *strings.Builder, head string, rows []row) {
	cols := strings.Count(head, "|") + 1 + len(metricHeader)
	fmt.Fprintf(b, "| %s | %s |\n|%s\n", head, strings.Join(metricHeader, " | "), strings.Repeat("---|", cols))
	for _, r := range rows {
		fmt.Fprintf(b, "| %s | %s |\n", r.name, strings.Join(cells(r.m), " | "))
	}
}

// mean formats v, a mean over n, with format; "–" when n is 0 (a mean over nothing).
func mean(v float64, n int, format string) string {
	if n == 0 {
		return "–"
	}
	return fmt.Sprintf(format, v)
}

// cells formats a row of metrics in the order of metricHeader.
func cells(m Metrics) []string {
	ms := func(v float64, n int) string {
		if n == 0 {
			return "–"
		}
		return time.Duration(v * float64(time.Millisecond)).Round(time.Millisecond).String()
	}
	return []string{
		fmt.Sprint(m.Tasks),
		mean(100*m.TCR, m.Tasks, "%.1f%%"),
		mean(100*m.TSR, m.Tasks, "%.1f%%"),
		mean(m.Steps, m.Succeeded, "%.2f"),
		mean(m.LLMCalls, m.Runs, "%.2f"),
		mean(m.Tokens, m.Runs, "%.0f"),
		mean(m.ToolCalls, m.Runs, "%.2f"),
		mean(m.Recombinations, m.Runs, "%.2f"),
		ms(m.WallP50MS, m.Runs),
		ms(m.WallP95MS, m.Runs),
		mean(m.NodeF1, m.Tasks, "%.3f"),
		mean(m.LinkF1, m.LinkTasks, "%.3f"),
	}
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
