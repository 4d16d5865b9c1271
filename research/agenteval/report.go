package agenteval

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// Result is one question, what the agent did with it and the verdict.
type Result struct {
	Question   Question `json:"question"`
	WorkflowID string   `json:"workflow_id"`
	Run        Run      `json:"run"`
	Verdict    Verdict  `json:"verdict"`
	Seconds    float64  `json:"seconds"`
}

// Report is a run of the question set through the agent.
type Report struct {
	Started string   `json:"started"`
	Command string   `json:"command"`
	Search  string   `json:"search"`
	Planner string   `json:"planner,omitempty"`
	Results []Result `json:"results"`
}

// Tally counts passes.
type Tally struct {
	Pass int `json:"pass"`
	Of   int `json:"of"`
}

// Share is Pass/Of in [0, 1]; 0 for an empty tally.
func (t Tally) Share() float64 {
	if t.Of == 0 {
		return 0
	}
	return float64(t.Pass) / float64(t.Of)
}

func (t *Tally) add(pass bool) {
	t.Of++
	if pass {
		t.Pass++
	}
}

// Summary is a report's figures.
type Summary struct {
	All      Tally            `json:"all"`
	ByKind   map[string]Tally `json:"by_kind"`
	ByFamily map[string]Tally `json:"by_family"`
	// Statuses counts the runs' statuses by the kind of question.
	Statuses map[string]map[string]int `json:"statuses"`
	// Asked is how many runs asked something, AskedOutside how many of them named an input of
	// an API outside every chain their question expects.
	Asked        int `json:"asked"`
	AskedOutside int `json:"asked_outside"`
}

// Summarize tallies the results.
func Summarize(results []Result) Summary {
	s := Summary{ByKind: map[string]Tally{}, ByFamily: map[string]Tally{}, Statuses: map[string]map[string]int{}}
	for _, r := range results {
		pass, kind := r.Verdict.Pass, r.Question.Kind()
		s.All.add(pass)
		k, f := s.ByKind[kind], s.ByFamily[r.Question.Family]
		k.add(pass)
		f.add(pass)
		s.ByKind[kind], s.ByFamily[r.Question.Family] = k, f
		if s.Statuses[kind] == nil {
			s.Statuses[kind] = map[string]int{}
		}
		s.Statuses[kind][r.Run.Status]++
		if len(r.Run.Asked) > 0 {
			s.Asked++
			if r.Verdict.AskedOutside {
				s.AskedOutside++
			}
		}
	}
	return s
}

// WriteMarkdown writes the report: the summary, then every question with its verdict.
func WriteMarkdown(w io.Writer, rep Report) error {
	s := Summarize(rep.Results)
	var b strings.Builder
	fmt.Fprintf(&b, "# Hand-written questions through the agent\n\n- Started: %s\n- Command: `%s`\n- Graph search: %s\n", rep.Started, rep.Command, rep.Search)
	if rep.Planner != "" {
		fmt.Fprintf(&b, "- Planner: %s\n", rep.Planner)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "**%d of %d (%.1f%%)** end as their user expects. %d runs asked something; %d of those asked about an API outside the chains their question expects.\n\n",
		s.All.Pass, s.All.Of, 100*s.All.Share(), s.Asked, s.AskedOutside)
	b.WriteString("| Expected | Passed | Of | Share | Statuses |\n|---|---:|---:|---:|---|\n")
	for _, kind := range []string{KindChain, KindAsk, KindNone} {
		t := s.ByKind[kind]
		if t.Of == 0 {
			continue
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %.1f%% | %s |\n", kind, t.Pass, t.Of, 100*t.Share(), counts(s.Statuses[kind]))
	}
	b.WriteString("\n| Family | Passed | Of | Share |\n|---|---:|---:|---:|\n")
	for _, f := range slices.Sorted(maps.Keys(s.ByFamily)) {
		t := s.ByFamily[f]
		fmt.Fprintf(&b, "| %s | %d | %d | %.1f%% |\n", f, t.Pass, t.Of, 100*t.Share())
	}
	b.WriteString("\n## Questions\n\n| Id | Question | Expected | Status | Verdict |\n|---|---|---|---|---|\n")
	for _, r := range rep.Results {
		mark := "fail"
		if r.Verdict.Pass {
			mark = "pass"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s: %s |\n", r.Question.ID, cell(r.Question.Text), cell(expected(r.Question)), r.Run.Status, mark, cell(r.Verdict.Why))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// expected phrases what q expects.
func expected(q Question) string {
	switch q.Kind() {
	case KindNone:
		return "no tool"
	case KindAsk:
		return "a question about " + strings.Join(q.Asks, ", ")
	}
	chains := make([]string, len(q.Chains))
	for i, c := range q.Chains {
		chains[i] = strings.Join(c, " → ")
	}
	return strings.Join(chains, " or ")
}

// counts is m as "key n" pairs by key.
func counts(m map[string]int) string {
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// cell keeps text inside one Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
