package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/naviagent/navi/planner"
)

// ParseDecisions parses and validates a model's answer. It accepts the object
// {"decisions":[...]}, a bare array of decisions or a single decision object, optionally in
// a ```json fence or after a line of prose; params values may be any JSON value and are
// turned into strings. The decisions come back sorted by dependency_rank (stable).
//
// The error lists every problem found, phrased so that it can be sent back to the model as
// is (the repair message), e.g. `decision 2: action "call" is not one of call_api,
// direct_answer, retrieve_api, clarify_intent`.
func ParseDecisions(content string) ([]planner.Decision, error) {
	text, err := extractJSON(content)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber() // keep numbers as written, so that "id": 12345678901234567890 stays exact
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("your answer is not valid JSON: %s", jsonErr(err, text))
	}
	// Anything after the first value (a closing remark) is ignored on purpose.

	items, err := decisionItems(v)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, errors.New(`your answer has no decisions ("decisions" is empty)`)
	}
	out := make([]planner.Decision, 0, len(items))
	var problems []string
	for i, item := range items {
		d, errs := decision(i+1, item)
		problems = append(problems, errs...)
		out = append(out, d)
	}
	if len(problems) > 0 {
		return nil, errors.New(strings.Join(problems, "; "))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].DependencyRank < out[j].DependencyRank })
	return out, nil
}

// extractJSON strips a Markdown fence and any prose before the JSON value.
func extractJSON(content string) (string, error) {
	s := strings.TrimSpace(content)
	if s == "" {
		return "", errors.New("your answer was empty")
	}
	if i := strings.Index(s, "```"); i >= 0 {
		body := s[i+3:]
		// Skip the info string ("json") up to the end of the fence line.
		if nl := strings.IndexByte(body, '\n'); nl >= 0 {
			body = body[nl+1:]
		} else {
			body = strings.TrimPrefix(strings.TrimSpace(body), "json")
		}
		// A missing closing fence is left for the JSON decoder to report (truncation).
		if j := strings.Index(body, "```"); j >= 0 {
			body = body[:j]
		}
		s = strings.TrimSpace(body)
	}
	if i := strings.IndexAny(s, "[{"); i > 0 {
		s = s[i:]
	} else if i < 0 {
		return "", errors.New(`your answer contains no JSON (expected {"decisions": [...]})`)
	}
	return s, nil
}

// jsonErr phrases a decoding error with where it happened.
func jsonErr(err error, text string) string {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Sprintf("%s at byte %d", syn.Error(), syn.Offset)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Sprintf("it ends after %d bytes in the middle of a value", len(text))
	}
	return err.Error()
}

// decisionItems finds the decision objects in the three accepted shapes.
func decisionItems(v any) ([]any, error) {
	switch t := v.(type) {
	case []any:
		return t, nil
	case map[string]any:
		if ds, ok := t["decisions"]; ok {
			switch ds := ds.(type) {
			case []any:
				return ds, nil
			case map[string]any:
				return []any{ds}, nil
			}
			return nil, fmt.Errorf(`"decisions" is a JSON %s, expected an array of decision objects`, jsonType(ds))
		}
		if _, ok := t["action"]; ok {
			return []any{t}, nil
		}
		return nil, errors.New(`your answer is a JSON object without "decisions" (expected {"decisions": [...]})`)
	}
	return nil, fmt.Errorf(`your answer is a JSON %s (expected {"decisions": [...]})`, jsonType(v))
}

// decision converts the n-th (from 1) decision object and lists what is wrong with it.
func decision(n int, item any) (planner.Decision, []string) {
	m, ok := item.(map[string]any)
	if !ok {
		return planner.Decision{}, []string{fmt.Sprintf("decision %d is a JSON %s, not an object", n, jsonType(item))}
	}
	var problems []string
	bad := func(format string, args ...any) {
		problems = append(problems, fmt.Sprintf("decision %d: ", n)+fmt.Sprintf(format, args...))
	}

	d := planner.Decision{
		DependencyRank:    n, // a missing rank keeps the answer's order
		Intent:            text(m["intent"]),
		Analysis:          text(m["analysis"]),
		TargetAPI:         strings.TrimSpace(text(m["target_api"])),
		RecallDescription: strings.TrimSpace(text(m["recall_description"])),
		Answer:            strings.TrimSpace(text(m["answer"])),
	}
	if r, ok := m["dependency_rank"]; ok && r != nil {
		rank, ok := integer(r)
		if !ok {
			bad("dependency_rank %s is not an integer", text(r))
		}
		d.DependencyRank = rank
	}

	switch a := m["action"].(type) {
	case nil:
		bad(`"action" is missing (use one of %s)`, actionList())
	case string:
		d.Action = planner.Action(strings.ToLower(strings.TrimSpace(a)))
		if !d.Action.Valid() {
			bad("action %q is not one of %s", a, actionList())
		}
	default:
		bad("action %s is not one of %s", text(a), actionList())
	}

	switch p := m["params"].(type) {
	case nil:
	case map[string]any:
		for k, v := range p {
			if v == nil {
				continue // null means "no value"; leave the input unbound
			}
			if d.Params == nil {
				d.Params = make(map[string]string, len(p))
			}
			d.Params[k] = text(v)
		}
	default:
		bad(`"params" is a JSON %s, expected an object of parameter values`, jsonType(p))
	}

	switch d.Action {
	case planner.CallAPI:
		if d.TargetAPI == "" {
			bad(`action call_api needs "target_api"`)
		}
	case planner.RetrieveAPI:
		if d.RecallDescription == "" {
			bad(`action retrieve_api needs "recall_description"`)
		}
	case planner.ClarifyIntent, planner.DirectAnswer:
		if d.Answer == "" {
			bad(`action %s needs "answer"`, d.Action)
		}
	}
	return d, problems
}

// text turns any JSON value into a string: strings as they are, numbers in plain decimal
// notation (1e3 becomes "1000"), booleans as true/false, null as "", arrays and objects as
// compact JSON. Models often write {"count": 3} where the API documents a string.
func text(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	case json.Number:
		return number(t)
	case bool:
		return strconv.FormatBool(t)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(raw)
}

// number writes a JSON number without an exponent. Numbers written without one are kept
// verbatim, so integers beyond float64 precision (IDs) survive.
func number(n json.Number) string {
	s := n.String()
	if !strings.ContainsAny(s, "eE") {
		return s
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// integer reads a dependency rank: a JSON number with no fractional part, or a string of one.
func integer(v any) (int, bool) {
	var s string
	switch t := v.(type) {
	case json.Number:
		s = t.String()
	case string:
		s = strings.TrimSpace(t)
	default:
		return 0, false
	}
	if i, err := strconv.Atoi(s); err == nil {
		return i, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != float64(int(f)) {
		return 0, false
	}
	return int(f), true
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// actionList is "call_api, direct_answer, retrieve_api, clarify_intent", the protocol's order.
func actionList() string {
	names := make([]string, len(planner.Actions))
	for i, a := range planner.Actions {
		names[i] = string(a)
	}
	return strings.Join(names, ", ")
}
