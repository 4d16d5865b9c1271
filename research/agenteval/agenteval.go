// Package agenteval judges the agent as a user would: questions about the tool world written
// by hand in plain words, each with what its user expects (the calls that answer it, a
// question back, or no tool at all), run through the real agent and judged on what the run
// did and the status it reported. The questions (questions.jsonl) were written before any
// run; they are not to be tuned to one by one.
package agenteval

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/naviagent/navi/toolspec"
)

// Kinds of expectation.
const (
	KindChain = "chain" // answered by one of Question.Chains
	KindAsk   = "ask"   // the agent must ask, about an input of one of Question.Asks
	KindNone  = "none"  // no tool serves it: the run says so
)

// Statuses of a run that Judge reads (workflows' status names, kept here so that this package
// links no workflow code).
const (
	StatusAnswered = "answered"
	StatusNoTools  = "no_tools"
)

//go:embed questions.jsonl
var questions []byte

// Question is one hand-written question and what its user expects.
type Question struct {
	ID     string `json:"id"`
	Family string `json:"family"`
	Text   string `json:"text"`
	// Chains are the runs that answer it: each a list of steps, a step one API or equivalent
	// APIs written "a|b" (providers of the same function). A run matches a chain when the APIs
	// it called are its steps, each once, in any order: the parts of a compound request may
	// run in either order, and within a part data flow orders the calls.
	Chains [][]string `json:"chains,omitempty"`
	// Asks, for a request that does not say enough, are the APIs whose inputs the agent's
	// question may be about: the chain that would serve it.
	Asks []string `json:"asks,omitempty"`
	// None marks a request no tool of the tool world serves.
	None bool `json:"none,omitempty"`
	// Why says why the expected outcome is what it is where it was corrected after the
	// question was written (a value the tool world has no record of).
	Why string `json:"why,omitempty"`
}

// Kind is KindChain, KindAsk or KindNone.
func (q Question) Kind() string {
	switch {
	case q.None:
		return KindNone
	case len(q.Asks) > 0:
		return KindAsk
	}
	return KindChain
}

// APIs lists every API the question names, once each, in the order it names them.
func (q Question) APIs() []string {
	var out []string
	add := func(step string) {
		for _, api := range strings.Split(step, "|") {
			if !slices.Contains(out, api) {
				out = append(out, api)
			}
		}
	}
	for _, c := range q.Chains {
		for _, step := range c {
			add(step)
		}
	}
	for _, a := range q.Asks {
		add(a)
	}
	return out
}

// Default returns the hand-written questions about the tool world.
func Default() ([]Question, error) {
	qs, err := Load(bytes.NewReader(questions))
	if err != nil {
		return nil, fmt.Errorf("questions.jsonl: %w", err)
	}
	return qs, nil
}

// Load reads questions, one JSON object a line (blank lines skipped). A line that is not a
// question (unknown fields, no id or text, a repeated id, not exactly one expectation, an
// empty step) is an error that names the line.
func Load(r io.Reader) ([]Question, error) {
	var out []Question
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		var q Question
		if err := dec.Decode(&q); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if err := q.check(); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if seen[q.ID] {
			return nil, fmt.Errorf("line %d: id %q repeated", n, q.ID)
		}
		seen[q.ID] = true
		out = append(out, q)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

func (q Question) check() error {
	switch {
	case q.ID == "":
		return fmt.Errorf("no id")
	case strings.TrimSpace(q.Text) == "":
		return fmt.Errorf("question %s: no text", q.ID)
	}
	expectations := 0
	for _, set := range []bool{len(q.Chains) > 0, len(q.Asks) > 0, q.None} {
		if set {
			expectations++
		}
	}
	if expectations != 1 {
		return fmt.Errorf("question %s: %d expectations (chains, asks, none), want one", q.ID, expectations)
	}
	for _, c := range q.Chains {
		if len(c) == 0 {
			return fmt.Errorf("question %s: an empty chain", q.ID)
		}
	}
	for _, api := range q.APIs() {
		if strings.TrimSpace(api) == "" {
			return fmt.Errorf("question %s: an empty API name", q.ID)
		}
	}
	return nil
}

// Run is what the agent did with a question.
type Run struct {
	Status string `json:"status"`
	// Chain is the APIs the run called, in order.
	Chain toolspec.Chain `json:"chain"`
	// Asked holds the inputs ("API.param") each question of the run asked for, in order.
	Asked [][]string `json:"asked,omitempty"`
	// Wrote lists the APIs of Chain that change state (an unsafe or idempotent effect).
	Wrote []string `json:"wrote,omitempty"`
	// Confirmed holds the calls the run asked the user to approve, "API: yes" or "API: no"
	// as the evaluation answered (yes for an API of the question's chains): a confirmation is
	// not a question about the request.
	Confirmed []string `json:"confirmed,omitempty"`
}

// Verdict is Judge's reading of a run.
type Verdict struct {
	Pass bool   `json:"pass"`
	Why  string `json:"why"`
	// AskedOutside is set when a question of the run named an input of an API outside every
	// chain the question expects (outside Asks for a question that must ask).
	AskedOutside bool `json:"asked_outside,omitempty"`
}

// Judge reads run against q's expectation:
//   - chain: the run answered, asked nothing, and called exactly the APIs of one expected chain;
//   - ask: the run asked, every input it asked for is of an API in q.Asks, and it changed
//     nothing before asking;
//   - none: the run said no tool serves it (status no_tools) and called nothing.
func Judge(q Question, r Run) Verdict {
	allowed := q.APIs()
	var v Verdict
	for _, asked := range r.Asked {
		for _, in := range asked {
			if !slices.Contains(allowed, apiOf(in)) {
				v.AskedOutside = true
			}
		}
	}
	switch q.Kind() {
	case KindNone:
		switch {
		case r.Status != StatusNoTools:
			v.Why = fmt.Sprintf("status %s, want %s", r.Status, StatusNoTools)
		case len(r.Chain) > 0:
			v.Why = "called " + strings.Join(r.Chain, ", ")
		default:
			v.Pass, v.Why = true, "no tool, said so"
		}
	case KindAsk:
		switch {
		case len(r.Asked) == 0:
			v.Why = fmt.Sprintf("asked nothing (status %s, called %s)", r.Status, called(r.Chain))
		case v.AskedOutside:
			v.Why = "asked for " + strings.Join(r.Asked[0], ", ") + ", outside the chain that serves it"
		case len(r.Wrote) > 0:
			v.Why = "changed state before asking: " + strings.Join(r.Wrote, ", ")
		default:
			v.Pass, v.Why = true, "asked for "+strings.Join(r.Asked[0], ", ")
		}
	default:
		switch {
		case len(r.Asked) > 0:
			v.Why = "asked for " + strings.Join(r.Asked[0], ", ")
		case r.Status != StatusAnswered:
			v.Why = fmt.Sprintf("status %s (called %s)", r.Status, called(r.Chain))
		case !slices.ContainsFunc(q.Chains, func(c []string) bool { return Matches(c, r.Chain) }):
			v.Why = "called " + called(r.Chain)
		default:
			v.Pass, v.Why = true, "called "+called(r.Chain)
		}
	}
	return v
}

// Matches reports whether the APIs called are the steps of chain, each step once by one of
// its equivalent APIs ("a|b"), in any order.
func Matches(chain, calls []string) bool {
	if len(chain) != len(calls) {
		return false
	}
	used := make([]bool, len(chain))
	var match func(i int) bool // backtracking: a call may fit several steps
	match = func(i int) bool {
		if i == len(calls) {
			return true
		}
		for j, step := range chain {
			if !used[j] && slices.Contains(strings.Split(step, "|"), calls[i]) {
				used[j] = true
				if match(i + 1) {
					return true
				}
				used[j] = false
			}
		}
		return false
	}
	return match(0)
}

// apiOf is the API of an input "API.param" (API names may hold dots; parameter names do not).
func apiOf(input string) string {
	if i := strings.LastIndex(input, "."); i > 0 {
		return input[:i]
	}
	return input
}

func called(chain []string) string {
	if len(chain) == 0 {
		return "nothing"
	}
	return strings.Join(chain, ", ")
}
