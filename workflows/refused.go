package workflows

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/naviagent/navi/twnm/extract"
	"slices"
	"strings"

	"go.temporal.io/sdk/temporal"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/twnm"
)

// refusedValueChange marks runs that ask the user again for a value they stated when the tool
// refuses it (a 4xx that names the input), instead of recombining the chain around a tool that
// works; runs recorded before it recombine.
const (
	refusedValueChange  = "refused-value-asks"
	refusedValueVersion = 1
)

// askRefused handles step i of plan, whose tool refused a value: when the refusal names an
// input the user stated, or quotes the value of one (see quotedValue: "track 12345" for an id
// the tool wants as "trk-…"), the user is asked
// for that input once, with the tool's reason, and the plan is returned with the answer bound
// there (ok true) for the step to be called again. Another tool, or a search for one, would
// only answer something the user did not ask, from a value the user did not mean. With no
// answer by the deadline the run ends as a clarification timeout that says what was refused.
// ok is false for any other failure, and for an input asked about before: the chain is
// recombined as before.
func (r *run) askRefused(plan planner.Plan, i int, failure error) (next planner.Plan, ok bool, err error) {
	step := plan.Steps[i]
	detail, has := toolFailure(failure)
	var app *temporal.ApplicationError
	if !has || !errors.As(failure, &app) || app.Type() != contract.ErrTypeToolRejected {
		return plan, false, nil
	}
	b := slices.IndexFunc(step.Bindings, func(b planner.Binding) bool {
		return b.Param == detail.Param && b.Source == planner.SourceGiven
	})
	if detail.Param == "" {
		b = quotedValue(step, detail.Body)
	}
	if b < 0 {
		return plan, false, nil
	}
	param := step.Bindings[b].Param
	key := step.API + "." + param
	if slices.ContainsFunc(r.pc.Clarifications, func(qa planner.QA) bool { return slices.Contains(qa.Params, key) }) {
		return plan, false, nil
	}
	if version(r.ctx, refusedValueChange, refusedValueVersion) < refusedValueVersion {
		return plan, false, nil
	}
	value := step.Bindings[b].Value
	noun := strings.Join(twnm.ParamWords(param), " ")
	why := refusalReason(detail, failure)
	question := fmt.Sprintf("%s did not accept %q as the %s (%s). Which %s should I use?", step.API, value, noun, why, noun)
	answer, answered, err := r.ask(question, []string{key})
	if err != nil {
		return plan, false, err
	}
	if !answered {
		return plan, false, &errEndRun{status: StatusClarifyTimeout, answer: fmt.Sprintf(
			"%s did not accept %q as the %s (%s), and no other %s arrived within %s.", step.API, value, noun, why, noun, r.req.ClarifyDeadline)}
	}
	r.pc.Clarifications = append(r.pc.Clarifications, planner.QA{Question: question, Params: []string{key}, Answer: answer})
	v := answeredValue(answer, r.apis[step.API], param)
	r.pc.Observation = fmt.Sprintf("The user answered %q: the %s is now %q.", answer, noun, v)
	if r.pc.Known == nil {
		r.pc.Known = map[string]string{}
	}
	r.pc.Known[key] = v
	r.pc.Failed = slices.DeleteFunc(slices.Clone(r.pc.Failed), func(api string) bool { return api == step.API })
	next = plan
	next.Steps = slices.Clone(plan.Steps)
	next.Steps[i].Bindings = slices.Clone(step.Bindings)
	next.Steps[i].Bindings[b].Value = v
	r.setPlan(next)
	return next, true, nil
}

// quotedValue is the index of the binding of step whose value the user stated and the tool's
// answer quotes, when exactly one is (a tool that names no input at fault but echoes what it
// refused: `unknown id "12345"`); -1 otherwise. Values of one character say nothing.
func quotedValue(step planner.PlanStep, body string) int {
	found := -1
	for i, b := range step.Bindings {
		if b.Source == planner.SourceGiven && len(b.Value) > 1 && strings.Contains(body, b.Value) {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// refusalReason is what the tool said was wrong: the "error" (or "message") of a JSON body,
// else the body itself when it is short, else the error's message.
func refusalReason(detail contract.ToolFailure, failure error) string {
	var body map[string]any
	if json.Unmarshal([]byte(detail.Body), &body) == nil {
		for _, k := range []string{"error", "message", "detail"} {
			if s, ok := body[k].(string); ok && s != "" {
				return s
			}
		}
	}
	if b := strings.TrimSpace(detail.Body); b != "" && len(b) <= 200 && !strings.ContainsAny(b, "{<") {
		return b
	}
	return rootMessage(failure)
}

// answeredValue is the value an answer gives input param of api: what extract.Values reads
// in it for that input, else the answer itself, trimmed of quotes and a final full stop.
func answeredValue(answer string, api twnm.API, param string) string {
	p := twnm.Param{Name: param}
	if i := slices.IndexFunc(api.Inputs, func(p twnm.Param) bool { return p.Name == param }); i >= 0 {
		p = api.Inputs[i]
	}
	slot := extract.SlotOf(api.Name+"."+param, p)
	slot.Required = true // the user stated it once: it is the input the call needs
	if v, ok := extract.Values(answer, []extract.Slot{slot})[slot.Key]; ok {
		return v
	}
	return strings.Trim(strings.TrimSpace(answer), `"'“”.`)
}
