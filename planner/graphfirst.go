package planner

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/toolspec"
)

// GraphFirstName is the label of the graph-first planner in results and search attributes.
const GraphFirstName = contract.PlannerGraphFirst

// GraphFirst is the deterministic planner used when no LLM is configured: it recalls
// candidates with the query itself, calls the best candidate whose plan is fully bound (the
// retrieval bound the values the user stated), asks for the inputs that are missing, and
// answers from the target's outputs once its chain has run. It never calls a model, so
// Usage stays zero.
type GraphFirst struct {
	// Options are its budgets and thresholds; zero fields take DefaultOptions'.
	Options Options
}

// Decide implements Planner.
func (g GraphFirst) Decide(_ context.Context, c Context) (Result, error) {
	return Result{Planner: GraphFirstName, Decisions: []Decision{g.Options.withDefaults().graphFirst(c)}}, nil
}

// graphFirst is the policy; Project also uses it to pick the best admissible action.
func (o Options) graphFirst(c Context) Decision {
	d := Decision{DependencyRank: 1, Intent: c.Query}
	// A new answer from the user changes what retrieval can bind: recall again with it,
	// whatever retrievals the planner spent before it asked (the clarification budget bounds
	// these).
	lastClarified := answeredLast(c)
	if len(c.Recalled) == 0 || lastClarified {
		d.Action, d.RecallDescription = RetrieveAPI, recallText(c)
		d.Analysis = "no candidate APIs yet for this request"
		if lastClarified {
			d.Analysis = "the user answered a question; recall again to bind the answer"
		}
		return d
	}
	if n := len(c.Completed); n > 0 {
		target := c.Completed[n-1]
		d.Action, d.Answer = DirectAnswer, Summarize(c, target)+partsNote(c, target)+unplannedNote(c)+unservedNote(c)
		d.Analysis = fmt.Sprintf("the chain of %s ran to the end", target)
		return d
	}
	best, ok := o.bestCandidate(c)
	if !ok {
		if len(c.Recalled) < o.MaxRetrievals && len(c.Failed) > 0 {
			d.Action, d.RecallDescription = RetrieveAPI, recallText(c)
			d.Analysis = "every candidate failed or is pruned: " + strings.Join(c.Failed, ", ")
			return d
		}
		d.Action, d.Answer = DirectAnswer, noToolAnswer(c)
		d.Analysis = "no usable candidate API"
		return d
	}
	plan := Bind(best.Plan, c.Known, nil)
	missing := plan.Missing()
	if len(missing) == 0 {
		d.Action, d.TargetAPI = CallAPI, best.API
		d.Params = givenParams(plan, best.API)
		d.Analysis = fmt.Sprintf("%s's plan (%s) is fully bound", best.API, strings.Join(plan.APIs(), " → "))
		return d
	}
	if askedFor(c, missing) >= 2 || len(c.Clarifications) >= o.MaxClarifications {
		d.Action = DirectAnswer
		d.Answer = fmt.Sprintf("I could not complete the request: %s still needs %s.", best.API, strings.Join(missing, ", "))
		d.Analysis = "the user's answers did not supply the missing inputs"
		return d
	}
	d.Action, d.TargetAPI = ClarifyIntent, best.API
	d.Answer = Question(best, missing)
	d.Analysis = "required inputs missing: " + strings.Join(missing, ", ")
	return d
}

// bestCandidate picks the most similar usable candidate, or a fully bound one nearly as
// similar that is no step of its plan: a producer the best candidate's chain calls first is a
// means to its answer, not an answer ("how many towns can I reach from Vienna's main stop"
// is not answered by the stop search, whatever input the reachable area still needs).
func (o Options) bestCandidate(c Context) (Candidate, bool) {
	var usable []Candidate
	for _, cand := range c.Candidates {
		if usableCandidate(c, cand) {
			usable = append(usable, cand)
		}
	}
	if len(usable) == 0 {
		return Candidate{}, false
	}
	sort.SliceStable(usable, func(i, j int) bool { return usable[i].Score > usable[j].Score })
	for _, cand := range usable {
		if usable[0].Score-cand.Score > o.NearScore {
			break
		}
		if cand.API != usable[0].API && usable[0].Plan.StepOf(cand.API) >= 0 {
			continue
		}
		if len(Bind(cand.Plan, c.Known, nil).Missing()) == 0 {
			return cand, true
		}
	}
	return usable[0], true
}

// usableCandidate reports whether cand may be called: not pruned, and no API of its plan failed.
func usableCandidate(c Context, cand Candidate) bool {
	if cand.Status == "pruned" || len(cand.Plan.Steps) == 0 {
		return false
	}
	for _, api := range cand.Plan.APIs() {
		if slices.Contains(c.Failed, api) {
			return false
		}
	}
	return true
}

// recallText is the retrieval description: the user's request alone. Graph-first asks only
// for inputs its plan misses, so an answer is a value for them: retrieval binds it where the
// question asked (RetrieveInput.Answers, and the run's text), and it does not change what the
// request asks for. Read as words of the request, "club_name Bayern Munich", answering "What
// is the team name?" for a match's statistics, made the club's fixtures the final step.
func recallText(c Context) string {
	return c.Query
}

// givenParams lists the given values of the target's own inputs, as a call_api decision states them.
func givenParams(p Plan, target string) map[string]string {
	out := map[string]string{}
	for _, s := range p.Steps {
		if s.API != target {
			continue
		}
		for _, b := range s.Bindings {
			if b.Source == SourceGiven {
				out[b.Param] = b.Value
			}
		}
	}
	return out
}

// answeredLast reports whether the last step asked the user a question, now answered: the
// answer is not bound until retrieval reads it.
func answeredLast(c Context) bool {
	n := len(c.History)
	return n > 0 && c.History[n-1].Decision.Action == ClarifyIntent && len(c.Clarifications) > 0
}

// askedFor counts earlier questions that asked for any of the inputs in missing.
func askedFor(c Context, missing []string) int {
	n := 0
	for _, qa := range c.Clarifications {
		for _, p := range qa.Params {
			if slices.Contains(missing, p) {
				n++
				break
			}
		}
	}
	return n
}

// Question phrases a clarify_intent question for the missing inputs of cand's plan in the
// user's terms: the inputs by their own words ("What is the city?", "What are the latitude and
// the longitude?"), what they are for by the target's description, the descriptions the
// catalog gives them, and what the user may say instead (Candidate.Instead: "Or, if that is
// easier, tell me the city, and I will look them up."); no API or parameter identifier (those
// go with the question as its Params, for programs).
func Question(cand Candidate, missing []string) string {
	names := make([]string, len(missing))
	var notes []string
	for i, m := range missing {
		param := m[strings.LastIndex(m, ".")+1:]
		in := targetInput(cand, m)
		d := strings.TrimSuffix(in.Description, ".")
		names[i] = "the " + spelledOut(spoken(param), d)
		if len(in.Enum) > 0 { // the values it takes, in the user's terms too
			d = strings.TrimPrefix(d+"; ", "; ") + "one of " + orList(in.Enum)
		}
		if d != "" {
			notes = append(notes, spoken(param)+": "+d)
		}
	}
	list := names[0]
	if n := len(names); n > 1 {
		list = strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	}
	q := "What is " + list + "?"
	pronoun := "it"
	if len(missing) > 1 {
		q, pronoun = "What are "+list+"?", "them"
	}
	if d := strings.TrimSuffix(strings.TrimSpace(cand.Description), "."); d != "" {
		q += fmt.Sprintf(" I need %s for this: %s.", pronoun, d)
	}
	if len(notes) > 0 {
		q += " (" + strings.Join(notes, "; ") + ")"
	}
	if alt := insteadOf(cand, missing); alt != "" {
		q += fmt.Sprintf(" Or, if that is easier, tell me %s, and I will look %s up.", alt, pronoun)
	}
	return q
}

// insteadOf names, in the user's terms, what they may state in place of the missing inputs
// (Candidate.Instead, the first that stands for some of them): "the city" for the latitude and
// the longitude. "" where there is nothing to offer.
func insteadOf(cand Candidate, missing []string) string {
	for _, in := range cand.Instead {
		if len(in.Inputs) == 0 || !slices.ContainsFunc(in.For, func(k string) bool { return slices.Contains(missing, k) }) {
			continue
		}
		names := make([]string, len(in.Inputs))
		for i, p := range in.Inputs {
			names[i] = "the " + spelledOut(spoken(p.Name), strings.TrimSuffix(p.Description, "."))
		}
		return strings.Join(names, " and ")
	}
	return ""
}

// spoken is a parameter name as words: "check_in" and "checkIn" are "check in".
func spoken(param string) string {
	var b strings.Builder
	prev := ' '
	for _, r := range param {
		switch {
		case r == '_' || r == '-' || r == '.':
			r = ' '
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			b.WriteRune(' ')
		}
		b.WriteRune(unicode.ToLower(r))
		prev = r
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// spelledOut writes out the abbreviated words of a parameter's spoken name by its description:
// a word of three letters or more that begins a longer word of the description, and is no word
// of it itself, is that word ("lat" described as "Latitude in decimal degrees" is "latitude").
// The user is asked in the words the catalog explains the input with, not its shorthand.
func spelledOut(name, description string) string {
	desc := strings.FieldsFunc(strings.ToLower(description), func(r rune) bool { return !unicode.IsLetter(r) })
	words := strings.Fields(name)
	for i, w := range words {
		if len(w) < 3 || slices.Contains(desc, w) {
			continue
		}
		if j := slices.IndexFunc(desc, func(d string) bool { return len(d) > len(w) && strings.HasPrefix(d, w) }); j >= 0 {
			words[i] = desc[j]
		}
	}
	return strings.Join(words, " ")
}

// targetInput finds "API.param" among the candidate's target inputs (the zero ParamInfo for
// an input of another API of its plan).
func targetInput(cand Candidate, key string) ParamInfo {
	i := strings.LastIndex(key, ".")
	if i < 0 || key[:i] != cand.API {
		return ParamInfo{}
	}
	param := key[i+1:]
	for _, in := range cand.Inputs {
		if in.Name == param {
			return in
		}
	}
	return ParamInfo{}
}

// orList joins values as a sentence lists choices: "a", "a or b", "a, b or c".
func orList(values []string) string {
	if n := len(values); n > 1 {
		return strings.Join(values[:n-1], ", ") + " or " + values[n-1]
	}
	return strings.Join(values, "")
}

// Summarize phrases the outputs of api, the answer once its chain has run.
func Summarize(c Context, api string) string {
	out := c.Results[api]
	keys := make([]string, 0, len(out))
	for k := range out {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ": " + toolspec.ValueText(out[k])
	}
	return fmt.Sprintf("%s answered: %s.", api, strings.Join(parts, "; "))
}

// RefusedObservation opens the observation of a retrieval that offered no chain for a reason it
// gives (contract.RetrieveResult.Refused): a write against the request, a secret the worker
// does not have.
const RefusedObservation = "No tool in the graph does what the request asks: "

// noToolAnswer explains why no tool could answer: the reason retrieval gave where it refused
// the tools that serve the request ("… secret figma_api.PersonalAccessToken: secret not set
// (set NAVI_SECRET_…)"), which tells the user what to do; "no tool" alone would not.
func noToolAnswer(c Context) string {
	if len(c.Failed) > 0 {
		return fmt.Sprintf("I could not complete the request: %s failed and no alternative path was found.", strings.Join(c.Failed, ", "))
	}
	if strings.HasPrefix(c.Observation, RefusedObservation) {
		return c.Observation
	}
	return "I found no tool in the graph that can answer this request."
}

// partsNote answers the request's other parts (Context.Parts) after its final step's answer:
// what each one's API answered, or that it failed.
func partsNote(c Context, target string) string {
	var b strings.Builder
	for _, api := range c.Parts {
		switch _, ok := c.Results[api]; {
		case api == target:
		case ok:
			b.WriteString(" " + Summarize(c, api))
		case slices.Contains(c.Failed, api):
			fmt.Fprintf(&b, " %s failed, and nothing took its place, so that part of the request has no answer.", api)
		}
	}
	return b.String()
}

// unplannedNote says which parts of the request had a tool that could not run with the rest.
func unplannedNote(c Context) string {
	if len(c.Unplanned) == 0 {
		return ""
	}
	return " No answer to " + quoteAll(c.Unplanned) + ": I found a tool for it but could not plan it together with the rest of the request."
}

// quoteAll quotes each of parts, joined by "or".
func quoteAll(parts []string) string {
	q := make([]string, len(parts))
	for i, p := range parts {
		q[i] = fmt.Sprintf("%q", p)
	}
	return strings.Join(q, " or ")
}

// unservedNote says which parts of the request no tool served, after an answer to the rest.
func unservedNote(c Context) string {
	if len(c.Unserved) == 0 {
		return ""
	}
	return " I found no tool in the graph for " + quoteAll(c.Unserved) + "."
}
