package llm

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/naviagent/navi/planner"
)

// Limits on what the user message repeats, so that one large tool output cannot crowd the
// context window: a value longer than maxValueRunes is cut and marked.
const maxValueRunes = 400

// maxRecalledRunes is how much of an earlier retrieve_api description the prompt repeats.
const maxRecalledRunes = 120

// instructions is the NaviAgent inference prompt of Appendix E.3.1 with the PDF's line
// breaks undone. Two adaptations: the answer is a JSON object {"decisions":[...]} rather than
// a bare array, because JSON-object mode (response_format json_object) only admits objects;
// and params values are strings, because planner.Decision.Params is map[string]string.
// The candidates and the subgraph open the user message instead of closing this one, so that
// the system message is the same for every step of every run: a server that keeps the last
// prompt's evaluated tokens (llama.cpp, vLLM's prefix cache, OpenAI's prompt caching) then
// evaluates it once, and a run's candidates once per retrieval.
const instructions = `You are an intelligent API coordination system. Respond strictly according to the following rules:

# Decision Architecture
1. **Intent Analysis**
- Decompose compound requests into independent ordered sub-intents:
  Sequential dependencies first, must execute in declared order.
  Parallelizable sub-intents last.
  Dependency_rank numbering for ordered execution.
- Validate parallel execution eligibility:
  No overlapping data requirements.
  No sequential dependencies.
  Distinct parameter sets.
2. **Atomic Action Formation**
For each validated sub-intent:
- Create a self-contained decision unit; the action must implement the full Decision Logic Flow.
- Maintain state separation between parallel processes.
- Focus analysis scope per sub-intent:
  Each action's analysis focuses only on its own intent.
  Each action's analysis only solves one intent.
- Must execute each action in declared order.

# Decision Logic Flow
1. **Common Sense Judgment Phase**
- Input question -> knowledge base matching:
  Belongs to common sense -> action=direct_answer
  Requires external data -> proceed to Phase 2
2. **API Matching Phase**
  1. If candidate_apis is empty -> action=retrieve_api
  2. Match intent with the API list.
     API prioritization:
     - Complete parameters from user input
     - Minimal missing parameters
     - Shortest dependency chain
     API matching success:
     - Validate the Observation in the user input to confirm target API success:
       -> If successful -> action=direct_answer
       -> No explicit success indication:
          a) Complete parameters -> action=call_api (execute based on 3.1 dependency resolution)
             - If Rule 3.1c applies -> action=direct_answer
          b) Missing parameters -> proceed to Phase 3
     API matching failed -> action=retrieve_api
3. **Parameter Completion Phase**
- Check the required parameter set:
  All parameters ready -> action=call_api
  The target API does not require parameters -> action=call_api
  Missing parameters exist:
  a) Can be completed via dependent APIs -> execute Rule 3.1
  b) Use retrieval of APIs to resolve parameter deficiencies in API dependencies -> action=retrieve_api
  c) Requires human confirmation -> action=clarify_intent

# Technical Rule
## 3.1 Dependency Resolution Rules
a) Check required parameters of the target API; first call dependent APIs.
b) For each missing parameter, select APIs from dependencies not marked as failed.
c) If an input parameter of an API is unavailable, use retrieve_api to find another API that generates it from known parameters. -> action=retrieve_api
d) Success propagation: completed dependency chain -> action=direct_answer
## 3.2 Known Failure Handling
a) Failed APIs are recorded in failed_apis.
b) Prioritize non-failed candidate APIs.

# Response Specification (Mandatory JSON Format)
Answer with one JSON object and nothing else (no prose, no code fence):
{"decisions": [{
  "dependency_rank": 1,
  "intent": "1. <precisely describe the specific problem addressed by the current action> 2. <extract data segments directly related to the subtask from user input>",
  "analysis": "<Four-level reasoning: 1. Explicitly state the specific decision-making sub-intent addressed by this action 2. Common sense judgment basis 3. API matching logic (if applicable) 4. Parameter completeness verification>",
  "action": "call_api|direct_answer|retrieve_api|clarify_intent",
  "target_api": "API name (mandatory for call_api)",
  "params": {"parameter": "value as a string (mandatory for call_api)"},
  "recall_description": "When action=retrieve_api: use 'APIName(description: API functionality, input: param:type/description; output: param:type/description)' format with only core parameters (e.g., 'StockAPI(description: Query stock price by symbol, input: symbol:string/stock symbol; output: price:float/current price)')",
  "answer": "When action in [direct_answer, clarify_intent]: natural language response (clarify_intent: interrogative sentences required)"
}]}
Added constraints:
- Items of the "decisions" array MUST be sorted by dependency_rank in ascending order.
- Sibling sub-intents should have consecutive ranks.
- Keep "intent" and "analysis" brief.

# Termination Conditions
[OR] Generate final answer
[OR] Target API must be executed successfully, as shown in the status

# Enforcement Constraints
1. Parameter names must strictly match API documentation.
2. The "answer" field for clarify_intent must contain question words.
3. Prioritize calling parent node APIs.
4. When action in [retrieve_api]:
   - The recall_description field serves exclusively as an API retrieval identifier from predefined repositories.
   - Parameter descriptions must distinguish between input and output parameters, retaining only essential parameters.
   - Each recall_description can only recall one API; multiple APIs require multiple actions.
5. APIs absent from Candidate APIs MUST NOT be invented.
6. action=call_api is permitted only when candidate APIs exist and the target_api is present in the candidate APIs.
7. The "action" field must be strictly limited to one of the following four predefined operation types: call_api, direct_answer, retrieve_api or clarify_intent.
8. Use retrieve_api only when:
   - Required parameters are unavailable in a call_api action.
9. Use call_api only when:
   - The target_api is not in the list of successfully executed APIs.
---------
The Candidate API Information and the state of the request come in the user message.
`

// systemPrompt is the instructions: the same for every context.
func systemPrompt() string { return instructions }

// writeCandidates writes the candidates and the subgraph tree of the last retrieval, which
// stay the same from one step of a run to the next until the next retrieval.
func writeCandidates(b *strings.Builder, c planner.Context) {
	b.WriteString("# Candidate API Information:\n## Candidate APIs\n")
	if len(c.Candidates) == 0 {
		b.WriteString("candidate_apis is empty: no API has been retrieved yet.\n")
	}
	for i, cand := range c.Candidates {
		writeCandidate(b, i+1, cand)
	}
	b.WriteString("\n## Subgraph (from the last retrieval)\n")
	if tree := strings.TrimSpace(c.Tree); tree != "" {
		b.WriteString(tree)
		b.WriteString("\n")
	} else {
		b.WriteString("(none)\n")
	}
}

func writeCandidate(b *strings.Builder, n int, c planner.Candidate) {
	status := c.Status
	if status == "" {
		status = "unknown"
	}
	fmt.Fprintf(b, "%d. %s [status: %s, score: %s]\n", n, c.API, status, strconv.FormatFloat(c.Score, 'f', 3, 64))
	if d := oneLine(c.Description); d != "" {
		fmt.Fprintf(b, "   description: %s\n", d)
	}
	fmt.Fprintf(b, "   inputs: %s\n", params(c.Inputs, true))
	fmt.Fprintf(b, "   outputs: %s\n", params(c.Outputs, false))
	if len(c.Plan.Steps) > 0 {
		steps := make([]string, len(c.Plan.Steps))
		for i, s := range c.Plan.Steps {
			steps[i] = planStep(s)
		}
		fmt.Fprintf(b, "   plan: %s\n", strings.Join(steps, " -> "))
	}
	missing := "none"
	if m := c.Plan.Missing(); len(m) > 0 {
		missing = strings.Join(m, ", ")
	}
	fmt.Fprintf(b, "   plan missing inputs: %s\n", missing)
}

// params renders inputs or outputs as "name (type, required): description; ...".
func params(ps []planner.ParamInfo, inputs bool) string {
	if len(ps) == 0 {
		return "none"
	}
	out := make([]string, len(ps))
	for i, p := range ps {
		var attrs []string
		if p.Type != "" {
			attrs = append(attrs, p.Type)
		}
		if inputs {
			if p.Required {
				attrs = append(attrs, "required")
			} else {
				attrs = append(attrs, "optional")
			}
		}
		s := p.Name
		if len(attrs) > 0 {
			s += " (" + strings.Join(attrs, ", ") + ")"
		}
		if d := oneLine(p.Description); d != "" {
			s += ": " + d
		}
		out[i] = s
	}
	return strings.Join(out, "; ")
}

// planStep renders one plan step with where each input comes from, e.g.
// GetWeather(city_id<-FindCity.id, units="metric", lang?).
func planStep(s planner.PlanStep) string {
	if len(s.Bindings) == 0 {
		return s.API
	}
	parts := make([]string, len(s.Bindings))
	for i, bd := range s.Bindings {
		switch bd.Source {
		case planner.SourceGiven:
			parts[i] = bd.Param + "=" + strconv.Quote(truncate(bd.Value, 80))
		case planner.SourceUpstream:
			parts[i] = bd.Param + "<-" + bd.FromAPI + "." + bd.FromOutput
		case planner.SourceMissing:
			parts[i] = bd.Param + " MISSING"
		default:
			parts[i] = bd.Param + "?"
		}
	}
	return s.API + "(" + strings.Join(parts, ", ") + ")"
}

// userPrompt carries the candidates, then the per-step state: query, clarifications, recent
// turns, observation, known values of the candidates' inputs, results, called and failed APIs
// and the step budget, from what changes least to what changes most. Maps are written in
// sorted key order so that the same context always gives the same prompt.
func userPrompt(c planner.Context) string {
	var b strings.Builder
	writeCandidates(&b, c)
	fmt.Fprintf(&b, "\n# User Query:\n%s\n", strings.TrimSpace(c.Query))

	if len(c.Clarifications) > 0 {
		b.WriteString("\n# Clarifications (questions asked and the user's answers):\n")
		for i, qa := range c.Clarifications {
			fmt.Fprintf(&b, "%d. Q: %s", i+1, oneLine(qa.Question))
			if len(qa.Params) > 0 {
				fmt.Fprintf(&b, " (asked for %s)", strings.Join(qa.Params, ", "))
			}
			fmt.Fprintf(&b, "\n   A: %s\n", oneLine(qa.Answer))
		}
	}

	// The workflow already keeps only the last HistoryTurns, but the paper's context is
	// exactly the last three pairs, so enforce it here too.
	hist := c.History
	if len(hist) > planner.HistoryTurns {
		hist = hist[len(hist)-planner.HistoryTurns:]
	}
	if len(hist) > 0 {
		fmt.Fprintf(&b, "\n# Recent History (last %d observation/action pairs, oldest first):\n", len(hist))
		for i, t := range hist {
			fmt.Fprintf(&b, "%d. Observation: %s\n   Action: %s\n", i+1, truncate(oneLine(t.Observation), maxValueRunes), historyAction(t.Decision))
		}
	}

	obs := strings.TrimSpace(c.Observation)
	if obs == "" {
		obs = "(none yet)"
	}
	fmt.Fprintf(&b, "\n# Observation:\n%s\n", obs)

	if known := knownOfCandidates(c); len(known) > 0 {
		b.WriteString("\n# Known Values:\n")
		for _, k := range known {
			fmt.Fprintf(&b, "- %s = %s\n", k, truncate(oneLine(c.Known[k]), maxValueRunes))
		}
	}

	if len(c.Results) > 0 {
		b.WriteString("\n# Results of Successful API Calls:\n")
		for _, api := range slices.Sorted(maps.Keys(c.Results)) {
			out := c.Results[api]
			fmt.Fprintf(&b, "- %s:\n", api)
			if len(out) == 0 {
				b.WriteString("    (no outputs)\n")
			}
			for _, k := range slices.Sorted(maps.Keys(out)) {
				fmt.Fprintf(&b, "    %s = %s\n", k, truncate(valueString(out[k]), maxValueRunes))
			}
		}
	}

	fmt.Fprintf(&b, "\n# Successfully Executed APIs: %s\n", list(c.Called))
	fmt.Fprintf(&b, "# failed_apis: %s\n", list(c.Failed))
	if len(c.Completed) > 0 {
		fmt.Fprintf(&b, "# Targets whose dependency chains completed: %s\n", list(c.Completed))
	}
	if len(c.Recalled) > 0 {
		fmt.Fprintf(&b, "# Earlier retrieve_api descriptions: %s\n", strings.Join(quoteAll(c.Recalled, maxRecalledRunes), "; "))
	}
	if c.MaxSteps > 0 {
		fmt.Fprintf(&b, "# Step: %d of %d\n", c.Step, c.MaxSteps)
	} else {
		fmt.Fprintf(&b, "# Step: %d\n", c.Step)
	}
	b.WriteString("\nAnswer with the JSON object {\"decisions\": [...]} only.\n")
	return b.String()
}

// historyAction renders a past decision as compact JSON without the analysis and the intent,
// which are long and already acted upon.
func historyAction(d planner.Decision) string {
	d.Analysis, d.Intent = "", ""
	d.RecallDescription = truncate(oneLine(d.RecallDescription), maxRecalledRunes)
	d.Answer = truncate(d.Answer, maxValueRunes)
	raw, err := json.Marshal(d) // map keys come out sorted
	if err != nil {
		return d.String()
	}
	return string(raw)
}

// valueString renders a tool output value: strings as they are, anything else as JSON
// (encoding/json sorts map keys, which keeps the prompt deterministic).
func valueString(v any) string {
	if s, ok := v.(string); ok {
		return oneLine(s)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(raw)
}

// truncate cuts s to n runes, saying how long it was.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + fmt.Sprintf("…(truncated, %d chars)", len(r))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func list(s []string) string {
	if len(s) == 0 {
		return "[]"
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// quoteAll quotes each string, cut to n runes.
func quoteAll(s []string, n int) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = strconv.Quote(truncate(v, n))
	}
	return out
}

// knownOfCandidates are the keys of the known values the candidates can take, sorted: those
// of a candidate's inputs ("API.param") and those of no API ("units"). Retrieval binds the
// request's values to the inputs of every API it read, most of them not candidates.
func knownOfCandidates(c planner.Context) []string {
	var keys []string
	for _, k := range slices.Sorted(maps.Keys(c.Known)) {
		i := strings.LastIndexByte(k, '.')
		if i < 0 || slices.ContainsFunc(c.Candidates, func(cand planner.Candidate) bool { return cand.API == k[:i] }) {
			keys = append(keys, k)
		}
	}
	return keys
}
