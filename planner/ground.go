package planner

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// ungrounded returns the first of params (in key order) whose value the run never saw: not in
// the request, the user's answers, the values retrieval bound, or the results of the calls so
// far. A planner that writes such a value into a call guesses it (a small model fills a missing
// latitude with some city's), and a call on a guess answers from the wrong input: the graph
// asks for it instead.
func ungrounded(c Context, params map[string]string) (key, value string, ok bool) {
	if len(params) == 0 {
		return "", "", false
	}
	seen := seenText(c)
	for _, k := range slices.Sorted(maps.Keys(params)) {
		if v := params[k]; !seen.has(v) {
			return k, v, true
		}
	}
	return "", "", false
}

// seen is what a run has seen, folded for comparison, and the numbers in it.
type seen struct {
	text    string
	numbers map[float64]bool
}

// number matches a decimal number in text.
var number = regexp.MustCompile(`-?\d+(?:\.\d+)?`)

func seenText(c Context) seen {
	var b strings.Builder
	add := func(s string) {
		b.WriteString(fold(s))
		b.WriteByte('\n')
	}
	add(c.Query)
	for _, qa := range c.Clarifications {
		add(qa.Answer)
	}
	for _, v := range c.Known {
		add(v)
	}
	for _, cand := range c.Candidates { // values retrieval read from the request into the plans
		for _, st := range cand.Plan.Steps {
			for _, b := range st.Bindings {
				if b.Source == SourceGiven {
					add(b.Value)
				}
			}
		}
	}
	for _, out := range c.Results {
		walkValues(out, func(v any) { add(fmt.Sprint(v)) })
	}
	s := seen{text: b.String(), numbers: map[float64]bool{}}
	for _, n := range number.FindAllString(s.text, -1) {
		if f, err := strconv.ParseFloat(n, 64); err == nil {
			s.numbers[f] = true
		}
	}
	return s
}

// has reports whether v is in what the run has seen: as text, or as the number it spells.
func (s seen) has(v string) bool {
	f := fold(v)
	if f == "" || strings.Contains(s.text, f) {
		return true
	}
	n, err := strconv.ParseFloat(f, 64)
	return err == nil && s.numbers[n]
}

// fold is s lower-cased, with its spaces collapsed and the quotes around it trimmed.
func fold(s string) string {
	return strings.Trim(strings.Join(strings.Fields(strings.ToLower(s)), " "), `"'`)
}

// walkValues calls f on every leaf value of v, a decoded JSON value.
func walkValues(v any, f func(any)) {
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			walkValues(e, f)
		}
	case []any:
		for _, e := range x {
			walkValues(e, f)
		}
	default:
		f(x)
	}
}
