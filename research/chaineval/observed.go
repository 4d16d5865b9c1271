package chaineval

import (
	"encoding/json"
	"strings"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/invlog"
)

// Answer is one recorded answer of an API: what a call of it returned, an object's fields, or
// Value when the answer was one bare value (a list of records with no key).
type Answer struct {
	API    string
	Output map[string]any
	Value  any
}

// bareOutput is invlog's name for an answer that is one value, not an object.
const bareOutput = "output"

// Answers are the answers of the successful calls of runs, their outputs read back into JSON
// (invlog keeps a structured output as its canonical JSON).
func Answers(runs []invlog.Run) []Answer {
	var out []Answer
	for _, run := range runs {
		for _, ev := range run.Events {
			if !ev.Success || ev.Truncated || len(ev.Outputs) == 0 {
				continue
			}
			if len(ev.Outputs) == 1 && ev.Outputs[0].Param == bareOutput {
				out = append(out, Answer{API: ev.API, Value: jsonValue(ev.Outputs[0].Value)})
				continue
			}
			m := map[string]any{}
			for _, o := range ev.Outputs {
				m[o.Param] = jsonValue(o.Value)
			}
			out = append(out, Answer{API: ev.API, Output: m})
		}
	}
	return out
}

// jsonValue reads an invlog value back: an object or a list from its JSON, anything else as
// the text it is.
func jsonValue(s string) any {
	if t := strings.TrimSpace(s); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		var v any
		if json.Unmarshal([]byte(t), &v) == nil {
			return v
		}
	}
	return s
}

// Observed is c with the outputs that answers show and its APIs do not list (twnm.Observe):
// the catalog as the worker extends it from the answers its calls see. It also returns how
// many outputs it added.
func Observed(c twnm.Catalog, answers []Answer) (twnm.Catalog, int) {
	index := map[string]int{}
	for i, a := range c.APIs {
		index[a.Name] = i
	}
	apis := append([]twnm.API(nil), c.APIs...)
	total := 0
	for _, ans := range answers {
		i, ok := index[ans.API]
		if !ok {
			continue
		}
		answer := ans.Output
		if answer == nil {
			// A bare value is the API's one output, when the catalog lists one.
			if len(apis[i].Outputs) != 1 {
				continue
			}
			answer = map[string]any{apis[i].Outputs[0].Name: ans.Value}
		}
		var n int
		apis[i], n = twnm.AddOutputs(apis[i], twnm.Observe(apis[i], answer))
		total += n
	}
	c.APIs = apis
	return c, total
}
