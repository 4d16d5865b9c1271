package runlogs

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/naviagent/navi/twnm/invlog"
)

// ToolBench's pseudo-tools: Finish ends a run with the final answer or a give-up, and the
// harness renames a call to a function the query does not offer to
// invalid_hallucination_function_name (answered "No such function name"). Neither is an API.
const (
	finishTool       = "Finish"
	hallucinatedTool = "invalid_hallucination_function_name"
)

// tbNode is one node of a ToolBench answer tree.
type tbNode struct {
	Role    string   `json:"role"`
	Message string   `json:"message"`
	Next    []tbNode `json:"next"`
}

// tbRecord is one query of a ToolBench evaluation file.
type tbRecord struct {
	Query  string `json:"query"`
	Answer struct {
		AnswerDetails []tbNode `json:"answer_details"`
	} `json:"answer"`
}

// ToolBench reads one ToolBench evaluation file (tooleval_default_evalset_*/G*.json: an
// object from query id to {query, available_tools, answer: {answer_details}}), one invlog.Run per
// query in file order, with invlog.Run.ID "<file name without extension>/<query id>" (such as
// "G1_instruction/42700") and invlog.Run.Query the query.
//
// answer_details is a tree of {role, message, next}; the events are its "tool" nodes in
// depth-first pre-order (the files hold single chains, where this is the call order). A tool
// message is the Python repr of {'name', 'arguments', 'response'}; the API is the name as
// given, the tool function name of the query's available_tools (such as
// "vin_decode_for_vin_decoder_v4", the API name suffixed with "_for_" and the tool), also
// when the model misspelt it; the pseudo-tools Finish and invalid_hallucination_function_name
// are skipped. The inputs are the keys of the arguments JSON object; the
// response is the JSON {"error": ..., "response": ...} of ToolBench's server: a non-empty
// "error" is a failure with that Error, an empty one a success. The "response" value is the
// API's answer as a string: when that string is itself JSON it is flattened as in
// APIBankDialogues (an object's top-level keys, else the whole value under param "output"),
// other text is the whole value under "output", and "" or null gives no outputs.
//
// The files keep only the first 100 characters of each message, so most records are cut:
// such events are marked Truncated and keep only the arguments that are certainly complete;
// when the cut falls before the error is seen the event is also Uncertain (Success true,
// meaning no error seen). A message cut before the end of the tool name is skipped, as its
// API is unknown. Links are not filled: call invlog.Link.
func ToolBench(path string) ([]invlog.Run, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("toolbench: %w", err)
	}
	records, err := objectMembers(data)
	if err != nil {
		return nil, fmt.Errorf("toolbench %s: want an object of records: %w", path, err)
	}
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	runs := make([]invlog.Run, 0, len(records))
	for _, rec := range records {
		run, err := toolBenchRun(rec, base+"/"+rec.Key)
		if err != nil {
			return nil, fmt.Errorf("toolbench %s: record %q: %w", path, rec.Key, err)
		}
		runs = append(runs, run)
	}
	return runs, nil
}

func toolBenchRun(rec member, id string) (invlog.Run, error) {
	var r tbRecord
	if err := json.Unmarshal(rec.Raw, &r); err != nil {
		return invlog.Run{}, describeJSONError(err)
	}
	run := invlog.Run{ID: id, Query: strings.TrimSpace(r.Query)}
	// Depth-first pre-order with an explicit stack: no recursion depth to worry about.
	type frame struct {
		node *tbNode
		path string
	}
	var stack []frame
	for i := len(r.Answer.AnswerDetails) - 1; i >= 0; i-- {
		stack = append(stack, frame{&r.Answer.AnswerDetails[i], fmt.Sprintf("answer.answer_details[%d]", i)})
	}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for i := len(f.node.Next) - 1; i >= 0; i-- {
			stack = append(stack, frame{&f.node.Next[i], fmt.Sprintf("%s.next[%d]", f.path, i)})
		}
		if f.node.Role != "tool" {
			continue
		}
		ev, ok, err := toolBenchEvent(f.node.Message)
		if err != nil {
			return invlog.Run{}, fmt.Errorf("%s.message: %w", f.path, err)
		}
		if !ok {
			continue
		}
		ev.RunID, ev.Seq = id, len(run.Events)
		run.Events = append(run.Events, ev)
	}
	return run, nil
}

// toolBenchEvent parses one tool message; ok is false for Finish and for a message cut
// before the end of the tool name.
func toolBenchEvent(msg string) (ev invlog.Event, ok bool, err error) {
	fields, truncated, err := parsePyStrDict(msg)
	if err != nil {
		return invlog.Event{}, false, err
	}
	get := func(key string) (pyField, bool) {
		for _, f := range fields {
			if f.Key == key {
				return f, true
			}
		}
		return pyField{}, false
	}
	name, found := get("name")
	if !found || !name.Complete {
		if truncated {
			return invlog.Event{}, false, nil
		}
		return invlog.Event{}, false, fmt.Errorf("field name is missing")
	}
	if name.Value == finishTool || name.Value == hallucinatedTool {
		return invlog.Event{}, false, nil
	}
	if strings.TrimSpace(name.Value) == "" {
		return invlog.Event{}, false, fmt.Errorf("field name is empty")
	}
	ev = invlog.Event{API: name.Value, Truncated: truncated}

	if args, found := get("arguments"); found {
		ms, complete := objectMembersPrefix(args.Value)
		if args.Complete && !complete && strings.TrimSpace(args.Value) != "" {
			// The model wrote arguments that are not a JSON object; the server rejects
			// those, and the call has no usable inputs.
			ms = nil
		}
		if ev.Inputs, err = membersToValues(ms); err != nil {
			return invlog.Event{}, false, fmt.Errorf("field arguments: %w", err)
		}
	}

	resp, found := get("response")
	if !found {
		ev.Success, ev.Uncertain = true, true
		return ev, true, nil
	}
	if err := toolBenchResponse(&ev, resp); err != nil {
		return invlog.Event{}, false, fmt.Errorf("field response: %w", err)
	}
	return ev, true, nil
}

// toolBenchResponse reads the outcome and outputs of a response field into ev.
func toolBenchResponse(ev *invlog.Event, resp pyField) error {
	text := strings.TrimSpace(resp.Value)
	if !strings.HasPrefix(text, "{") {
		// Not the server's JSON envelope: plain text, an error only if it says nothing.
		if !resp.Complete {
			ev.Success, ev.Uncertain = true, true
			return nil
		}
		ev.Success = true
		if text != "" {
			ev.Outputs = []invlog.Value{{Param: "output", Value: text}}
		}
		return nil
	}
	ms, complete := objectMembersPrefix(text)
	errSeen := false
	for _, m := range ms {
		switch m.Key {
		case "error":
			t, err := valueText(m.Raw)
			if err != nil {
				return fmt.Errorf("key error: %w", err)
			}
			errSeen = true
			ev.Success, ev.Error = t == "", t
		case "response":
			outs, err := responseOutputs(m.Raw)
			if err != nil {
				return fmt.Errorf("key response: %w", err)
			}
			ev.Outputs = outs
		}
	}
	if !errSeen {
		// The cut may fall inside the error string: its first character already tells
		// whether it is empty.
		if partial, ok := errorPrefix(text); ok {
			errSeen = true
			ev.Success = partial == ""
			if partial != "" {
				ev.Error = partial + "…"
			}
		}
	}
	if !errSeen {
		// A complete envelope without an error key carries no error; a cut one may.
		ev.Success, ev.Uncertain = true, !complete
	}
	return nil
}

// errorPrefix reads the start of the error string of a response envelope cut short, such as
// `{"error": "Timeou`. ok is false when the text ends before the string's first character.
func errorPrefix(text string) (partial string, ok bool) {
	rest, found := strings.CutPrefix(text, "{")
	if !found {
		return "", false
	}
	rest, found = strings.CutPrefix(strings.TrimLeft(rest, " "), `"error"`)
	if !found {
		return "", false
	}
	rest, found = strings.CutPrefix(strings.TrimLeft(rest, " "), ":")
	if !found {
		return "", false
	}
	rest, found = strings.CutPrefix(strings.TrimLeft(rest, " "), `"`)
	if !found || rest == "" {
		return "", false
	}
	if rest[0] == '"' {
		return "", true
	}
	// Keep the visible text, without a dangling escape.
	if i := strings.IndexByte(rest, '"'); i >= 0 {
		rest = rest[:i]
	}
	return strings.TrimSuffix(rest, `\`), true
}

// responseOutputs flattens the "response" value of the envelope. The server puts the API's
// answer there as a string; when that string is itself a JSON object its keys are the outputs.
func responseOutputs(raw json.RawMessage) ([]invlog.Value, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return outputValues(raw) // not a string: flatten as it is
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	if json.Valid([]byte(s)) {
		outs, err := outputValues(json.RawMessage(s))
		if err != nil {
			return nil, err
		}
		// An API that answered "" or null said nothing.
		if len(outs) == 1 && outs[0].Param == "output" && outs[0].Value == "" {
			return nil, nil
		}
		return outs, nil
	}
	return []invlog.Value{{Param: "output", Value: s}}, nil
}
