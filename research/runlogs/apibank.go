package runlogs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/naviagent/navi/twnm/invlog"
)

// toolSearcher is API-Bank's retrieval pseudo-API: it looks tools up and is not a tool
// call of the task, so it is left out of the runs.
const toolSearcher = "ToolSearcher"

// abResult is the "result" object of an API-Bank API turn.
type abResult struct {
	APIName   string          `json:"api_name"`
	Input     json.RawMessage `json:"input"`
	Output    json.RawMessage `json:"output"`
	Exception json.RawMessage `json:"exception"`
}

// abTurn is one line of an API-Bank dialogue.
type abTurn struct {
	Role      string          `json:"role"`
	Text      string          `json:"text"`
	APIName   string          `json:"api_name"`
	ParamDict json.RawMessage `json:"param_dict"`
	Result    *abResult       `json:"result"`
}

// APIBankDialogues reads the API-Bank level-1 and level-2 dialogues under dir (every *.jsonl
// file below it, as in lv1-lv2-samples/<level>/<name>.jsonl), one invlog.Run per file, in lexical
// path order. invlog.Run.ID is the file's path relative to dir without ".jsonl"; invlog.Run.Query is the
// text of the first User turn.
//
// Each line with role "API" is one event, except ToolSearcher calls (tool retrieval, not a
// step of the task), which are dropped; events are numbered after the drop. The inputs are
// result.input, the arguments as the API received them (numbers typed), falling back to
// param_dict, the arguments as the model wrote them, when result.input is not an object. The
// outputs flatten result.output: its top-level keys when it is an object, else the whole value
// under param "output". Success means result.exception is null; otherwise Error holds it.
// Links are not filled: call invlog.Link.
func APIBankDialogues(dir string) ([]invlog.Run, error) {
	ds, err := APIBankSaid(dir)
	if err != nil {
		return nil, err
	}
	runs := make([]invlog.Run, len(ds))
	for i, d := range ds {
		runs[i] = d.Run
	}
	return runs, nil
}

// Dialogue is a run of API-Bank with what the user had said before each of its calls.
type Dialogue struct {
	Run invlog.Run
	// Said holds, per event of Run, the text of the User turns before it, one per line: the
	// words the values of its inputs could come from.
	Said []string
}

// APIBankSaid reads the dialogues under dir as APIBankDialogues does, each with what the user
// had said before each call.
func APIBankSaid(dir string) ([]Dialogue, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".jsonl") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("api-bank dialogues %s: %w", dir, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("api-bank dialogues %s: no .jsonl files", dir)
	}
	ds := make([]Dialogue, 0, len(files))
	for _, path := range files {
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			rel = filepath.Base(path)
		}
		id := filepath.ToSlash(strings.TrimSuffix(rel, ".jsonl"))
		d, err := readDialogue(path, id)
		if err != nil {
			return nil, err
		}
		ds = append(ds, d)
	}
	return ds, nil
}

func readDialogue(path, id string) (Dialogue, error) {
	f, err := os.Open(path)
	if err != nil {
		return Dialogue{}, fmt.Errorf("api-bank dialogue: %w", err)
	}
	defer f.Close()
	d := Dialogue{Run: invlog.Run{ID: id}}
	var said []string
	r := bufio.NewReader(f)
	for lineNo := 1; ; lineNo++ {
		line, err := r.ReadBytes('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return Dialogue{}, fmt.Errorf("api-bank dialogue %s: line %d: %w", path, lineNo, err)
		}
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
			if perr := addTurn(&d.Run, &said, trimmed); perr != nil {
				return Dialogue{}, fmt.Errorf("api-bank dialogue %s: line %d: %w", path, lineNo, perr)
			}
			for len(d.Said) < len(d.Run.Events) {
				d.Said = append(d.Said, strings.Join(said, "\n"))
			}
		}
		if err != nil { // io.EOF, after the last line
			break
		}
	}
	return d, nil
}

// addTurn adds a line of a dialogue to run: a call as its next event, a User turn's text to
// said (and as the run's query, the first).
func addTurn(run *invlog.Run, said *[]string, line []byte) error {
	var t abTurn
	if err := json.Unmarshal(line, &t); err != nil {
		return describeJSONError(err)
	}
	switch t.Role {
	case "User":
		text := strings.TrimSpace(t.Text)
		if run.Query == "" {
			run.Query = text
		}
		*said = append(*said, text)
		return nil
	case "API":
	default:
		return nil // AI turns and unknown roles carry no call
	}
	if t.APIName == "" {
		return errors.New("field api_name is missing or empty")
	}
	if t.APIName == toolSearcher {
		return nil
	}
	if t.Result == nil {
		return fmt.Errorf("API %s: field result is missing", t.APIName)
	}
	ev := invlog.Event{RunID: run.ID, Seq: len(run.Events), API: t.APIName}
	var err error
	switch {
	case jsonKind(t.Result.Input) == "an object":
		ev.Inputs, err = objectValues(t.Result.Input)
		if err != nil {
			return fmt.Errorf("API %s: field result.input: %w", t.APIName, err)
		}
	case jsonKind(t.ParamDict) == "an object":
		ev.Inputs, err = objectValues(t.ParamDict)
		if err != nil {
			return fmt.Errorf("API %s: field param_dict: %w", t.APIName, err)
		}
	case jsonKind(t.ParamDict) != "nothing" && jsonKind(t.ParamDict) != "null":
		return fmt.Errorf("API %s: field param_dict: want an object, got %s", t.APIName, jsonKind(t.ParamDict))
	}
	if ev.Outputs, err = outputValues(t.Result.Output); err != nil {
		return fmt.Errorf("API %s: field result.output: %w", t.APIName, err)
	}
	if ev.Success, ev.Error, err = exceptionOutcome(t.Result.Exception); err != nil {
		return fmt.Errorf("API %s: field result.exception: %w", t.APIName, err)
	}
	run.Events = append(run.Events, ev)
	return nil
}

func objectValues(raw json.RawMessage) ([]invlog.Value, error) {
	ms, err := objectMembers(raw)
	if err != nil {
		return nil, err
	}
	return membersToValues(ms)
}

// exceptionOutcome reads an API-Bank exception: null or absent is success; anything else is a
// failure whose text is the exception (a string unquoted, other values as JSON).
func exceptionOutcome(raw json.RawMessage) (success bool, errText string, err error) {
	switch jsonKind(raw) {
	case "null", "nothing":
		return true, "", nil
	}
	t, err := valueText(raw)
	if err != nil {
		return false, "", err
	}
	if t == "" {
		t = "exception" // an empty exception is still an exception
	}
	return false, t, nil
}

// abChainCall is one call of an API-Bank level-3 chain.
type abChainCall struct {
	APIName string          `json:"api_name"`
	Input   json.RawMessage `json:"input"`
	Output  json.RawMessage `json:"output"`
}

// abChain is one record of API-Bank's level-3.json.
type abChain struct {
	Requirement string        `json:"requirement"`
	Response    string        `json:"response"`
	APIs        []abChainCall `json:"apis"`
}

// APIBankLevel3 reads API-Bank's level-3 chains (test-data/level-3.json: a list of
// {requirement, response, apis: [{api_name, input, output}]}), one invlog.Run per record, with
// invlog.Run.ID "<file name without extension>/<record index>" and invlog.Run.Query the requirement.
// ToolSearcher calls are dropped. A call's output is the result wrapper of the dialogues,
// {api_name, input, output, exception}: its output is flattened as in APIBankDialogues and
// its exception decides success; an output without the wrapper is taken as the result itself,
// a success. Links are not filled: call invlog.Link.
func APIBankLevel3(path string) ([]invlog.Run, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("api-bank level-3: %w", err)
	}
	var records []json.RawMessage
	if err := json.Unmarshal(data, &records); err != nil {
		return nil, fmt.Errorf("api-bank level-3 %s: want a list of records: %w", path, describeJSONError(err))
	}
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	runs := make([]invlog.Run, 0, len(records))
	for i, rec := range records {
		run, err := level3Run(rec, base+"/"+strconv.Itoa(i))
		if err != nil {
			return nil, fmt.Errorf("api-bank level-3 %s: record %d: %w", path, i, err)
		}
		runs = append(runs, run)
	}
	return runs, nil
}

func level3Run(rec json.RawMessage, id string) (invlog.Run, error) {
	var c abChain
	if err := json.Unmarshal(rec, &c); err != nil {
		return invlog.Run{}, describeJSONError(err)
	}
	run := invlog.Run{ID: id, Query: strings.TrimSpace(c.Requirement)}
	for k, call := range c.APIs {
		where := fmt.Sprintf("apis[%d]", k)
		if call.APIName == "" {
			return invlog.Run{}, fmt.Errorf("%s: field api_name is missing or empty", where)
		}
		if call.APIName == toolSearcher {
			continue
		}
		where += " (" + call.APIName + ")"
		ev := invlog.Event{RunID: id, Seq: len(run.Events), API: call.APIName, Success: true}
		var err error
		switch jsonKind(call.Input) {
		case "an object":
			if ev.Inputs, err = objectValues(call.Input); err != nil {
				return invlog.Run{}, fmt.Errorf("%s: field input: %w", where, err)
			}
		case "null", "nothing":
		default:
			return invlog.Run{}, fmt.Errorf("%s: field input: want an object, got %s", where, jsonKind(call.Input))
		}
		output := call.Output
		if w, ok := resultWrapper(call.Output); ok {
			output = w.Output
			if ev.Success, ev.Error, err = exceptionOutcome(w.Exception); err != nil {
				return invlog.Run{}, fmt.Errorf("%s: field output.exception: %w", where, err)
			}
		}
		if ev.Outputs, err = outputValues(output); err != nil {
			return invlog.Run{}, fmt.Errorf("%s: field output: %w", where, err)
		}
		run.Events = append(run.Events, ev)
	}
	return run, nil
}

// resultWrapper reports whether raw is API-Bank's result wrapper: an object with an "output"
// or an "exception" key next to "api_name" or "input".
func resultWrapper(raw json.RawMessage) (abResult, bool) {
	if jsonKind(raw) != "an object" {
		return abResult{}, false
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		return abResult{}, false
	}
	_, hasOut := keys["output"]
	_, hasExc := keys["exception"]
	_, hasName := keys["api_name"]
	_, hasIn := keys["input"]
	if !(hasOut || hasExc) || !(hasName || hasIn) {
		return abResult{}, false
	}
	var w abResult
	if err := json.Unmarshal(raw, &w); err != nil {
		return abResult{}, false
	}
	return w, true
}
