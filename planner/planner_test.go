package planner

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/contract"
)

// chainPlan is geo.Geocode(city) → weather.Current(latitude, longitude), with city as given.
func chainPlan(city string) Plan {
	src := SourceMissing
	if city != "" {
		src = SourceGiven
	}
	return Plan{Target: "weather.Current", Score: 0.8, Steps: []PlanStep{
		{API: "geo.Geocode", Bindings: []Binding{{Param: "city", Required: true, Source: src, Value: city}}},
		{API: "weather.Current", Bindings: []Binding{
			{Param: "latitude", Required: true, Source: SourceUpstream, FromAPI: "geo.Geocode", FromOutput: "latitude"},
			{Param: "longitude", Required: true, Source: SourceUpstream, FromAPI: "geo.Geocode", FromOutput: "longitude"},
			{Param: "units", Source: SourceUnbound},
		}},
	}}
}

func weatherCandidate(city string) Candidate {
	return Candidate{API: "weather.Current", Description: "Current weather at a point.", Score: 0.8, Status: "active",
		Inputs: []ParamInfo{{Name: "latitude", Required: true, Description: "latitude in degrees"}},
		Plan:   chainPlan(city)}
}

// unitsMissing is weatherCandidate for Rome with its units required and not stated.
func unitsMissing() Candidate {
	c := weatherCandidate("Rome")
	c.Plan.Steps[1].Bindings[2] = Binding{Param: "units", Required: true, Source: SourceMissing}
	return c
}

func TestBind(t *testing.T) {
	tests := []struct {
		name          string
		known, params map[string]string
		wantCity      string
		wantUnits     string
		wantMissing   []string
	}{
		{"nothing known", nil, nil, "", "", []string{"geo.Geocode.city"}},
		{"bare name binds", map[string]string{"city": "Rome"}, nil, "Rome", "", nil},
		{"qualified beats bare", map[string]string{"city": "Rome", "geo.Geocode.city": "Paris"}, nil, "Paris", "", nil},
		{"params beat known", map[string]string{"city": "Rome"}, map[string]string{"city": "Oslo"}, "Oslo", "", nil},
		{"optional input bound", nil, map[string]string{"city": "Rome", "units": "metric"}, "Rome", "metric", nil},
		{"empty value binds nothing", map[string]string{"city": "  "}, nil, "", "", []string{"geo.Geocode.city"}},
		{"upstream input keeps its producer", map[string]string{"city": "Rome", "latitude": "1"}, nil, "Rome", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Bind(chainPlan(""), tt.known, tt.params)
			assert.Equal(t, tt.wantMissing, p.Missing())
			assert.Equal(t, tt.wantCity, p.Steps[0].Bindings[0].Value)
			assert.Equal(t, tt.wantUnits, p.Steps[1].Bindings[2].Value)
			assert.Equal(t, SourceUpstream, p.Steps[1].Bindings[0].Source)
			assert.Equal(t, "", chainPlan("").Steps[0].Bindings[0].Value, "Bind must not modify its input")
		})
	}
}

func TestQuestion(t *testing.T) {
	cand := Candidate{API: "stay.Book", Description: "Books a hotel stay.", Inputs: []ParamInfo{
		{Name: "check_in", Description: "Check-in date, YYYY-MM-DD."}, {Name: "guest_name"}}}
	tests := []struct {
		missing []string
		want    string
	}{
		{[]string{"stay.Book.guest_name"}, "What is the guest name? I need it for this: Books a hotel stay."},
		{[]string{"stay.SearchHotels.city", "stay.Book.check_in", "stay.Book.guest_name"},
			"What are the city, the check in and the guest name? I need them for this: Books a hotel stay. (check in: Check-in date, YYYY-MM-DD)"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Question(cand, tt.missing))
	}
	assert.Equal(t, "What is the city?", Question(Candidate{API: "x"}, []string{"x.city"}), "no description")
	assert.Equal(t, "What is the origin stop id?", Question(Candidate{API: "x"}, []string{"routely.Reachable.originStopId"}))

	// Shorthand is asked in the words the description explains it with; a word the description
	// has itself, or of two letters, stays.
	now := Candidate{API: "skycast.Now", Inputs: []ParamInfo{
		{Name: "lat", Description: "Latitude in decimal degrees."}, {Name: "lon", Description: "Longitude in decimal degrees."},
		{Name: "max_temp", Description: "The max temperature to report."}, {Name: "to", Description: "Today by default."}}}
	assert.Equal(t, "What are the latitude and the longitude? (lat: Latitude in decimal degrees; lon: Longitude in decimal degrees)",
		Question(now, []string{"skycast.Now.lat", "skycast.Now.lon"}))
	assert.Equal(t, "What are the max temperature and the to? (max temp: The max temperature to report; to: Today by default)",
		Question(now, []string{"skycast.Now.max_temp", "skycast.Now.to"}))

	// What the user may say instead is offered in their terms, where it stands for inputs asked.
	now.Instead = []contract.Instead{{For: []string{"skycast.Now.lat", "skycast.Now.lon"},
		Inputs: []ParamInfo{{Name: "city_name", Description: "Name of the city."}}}}
	assert.Equal(t, "What are the latitude and the longitude? (lat: Latitude in decimal degrees; lon: Longitude in decimal degrees)"+
		" Or, if that is easier, tell me the city name, and I will look them up.",
		Question(now, []string{"skycast.Now.lat", "skycast.Now.lon"}))
	assert.Equal(t, "What is the max temperature? (max temp: The max temperature to report)",
		Question(now, []string{"skycast.Now.max_temp"}), "the city stands for no input asked")

	// An input that lists its values offers them.
	issues := Candidate{API: "repos.ListIssues", Inputs: []ParamInfo{
		{Name: "state", Description: "The state of the issues.", Enum: []string{"open", "closed", "all"}},
		{Name: "unit", Enum: []string{"celsius", "fahrenheit"}}}}
	assert.Equal(t, "What is the state? (state: The state of the issues; one of open, closed or all)",
		Question(issues, []string{"repos.ListIssues.state"}))
	assert.Equal(t, "What is the unit? (unit: one of celsius or fahrenheit)", Question(issues, []string{"repos.ListIssues.unit"}))
}

func TestGraphFirst(t *testing.T) {
	asked := Turn{Decision: Decision{Action: ClarifyIntent}}
	tests := []struct {
		name   string
		c      Context
		action Action
		check  func(t *testing.T, d Decision)
	}{
		{"first step retrieves with the query", Context{Query: "weather in Rome"}, RetrieveAPI,
			func(t *testing.T, d Decision) { assert.Equal(t, "weather in Rome", d.RecallDescription) }},
		{"fully bound candidate is called", Context{Query: "q", Recalled: []string{"q"}, Candidates: []Candidate{weatherCandidate("Rome")}}, CallAPI,
			func(t *testing.T, d Decision) { assert.Equal(t, "weather.Current", d.TargetAPI) }},
		{"missing input asks the user", Context{Query: "q", Recalled: []string{"q"}, Candidates: []Candidate{weatherCandidate("")}}, ClarifyIntent,
			func(t *testing.T, d Decision) {
				// In the user's terms: no API or parameter identifier.
				assert.Equal(t, "What is the city? I need it for this: Current weather at a point.", d.Answer)
			}},
		// The answer is a value for the inputs asked for: retrieval binds it from the run's
		// answers, and the request alone says what to retrieve.
		{"an answer triggers a new retrieval of the request", Context{Query: "weather now", Recalled: []string{"weather now"}, History: []Turn{asked},
			Clarifications: []QA{{Question: "Which city?", Answer: "Rome"}}, Candidates: []Candidate{weatherCandidate("")}}, RetrieveAPI,
			func(t *testing.T, d Decision) { assert.Equal(t, "weather now", d.RecallDescription) }},
		{"an answer triggers a retrieval even after the planner spent the retrieval budget", Context{Query: "weather now", Recalled: []string{"a", "b", "c", "d"},
			History: []Turn{asked}, Clarifications: []QA{{Question: "Which city?", Answer: "Rome"}}, Candidates: []Candidate{weatherCandidate("")}}, RetrieveAPI,
			func(t *testing.T, d Decision) { assert.Equal(t, "weather now", d.RecallDescription) }},
		{"a completed chain is answered from its outputs", Context{Query: "q", Recalled: []string{"q"}, Completed: []string{"weather.Current"},
			Results: map[string]map[string]any{"weather.Current": {"temp_c": 21.5, "condition": "sunny"}}}, DirectAnswer,
			func(t *testing.T, d Decision) {
				assert.Equal(t, "weather.Current answered: condition: sunny; temp_c: 21.5.", d.Answer)
			}},
		{"no candidate: the answer says so", Context{Query: "q", Recalled: []string{"q"}, Observation: "Retrieval found no candidate API."}, DirectAnswer,
			func(t *testing.T, d Decision) {
				assert.Equal(t, "I found no tool in the graph that can answer this request.", d.Answer)
			}},
		{"refused tools: the answer gives retrieval's reason, which says what to do", Context{Query: "q", Recalled: []string{"q"},
			Observation: RefusedObservation + "call figma.getTeamProjects: tool not callable: secret figma.pat: secret not set (set NAVI_SECRET_FIGMA_PAT)."}, DirectAnswer,
			func(t *testing.T, d Decision) {
				assert.Equal(t, "No tool in the graph does what the request asks: call figma.getTeamProjects: tool not callable: secret figma.pat: secret not set (set NAVI_SECRET_FIGMA_PAT).", d.Answer)
			}},
		{"a part no tool serves is named in the answer", Context{Query: "q", Recalled: []string{"q"}, Completed: []string{"weather.Current"},
			Results:  map[string]map[string]any{"weather.Current": {"temp_c": 21.5}},
			Unserved: []string{"tell me a joke", "walk my dog"}}, DirectAnswer,
			func(t *testing.T, d Decision) {
				assert.Equal(t, `weather.Current answered: temp_c: 21.5. I found no tool in the graph for "tell me a joke" or "walk my dog".`, d.Answer)
			}},
		{"a part whose tool could not join the plan is named in the answer", Context{Query: "q", Recalled: []string{"q"}, Completed: []string{"airq.Current"},
			Results:   map[string]map[string]any{"airq.Current": {"aqi": 31}},
			Unplanned: []string{"How cold is it in Oslo right now"}}, DirectAnswer,
			func(t *testing.T, d Decision) {
				assert.Equal(t, `airq.Current answered: aqi: 31. No answer to "How cold is it in Oslo right now": I found a tool for it but could not plan it together with the rest of the request.`, d.Answer)
			}},
		{"a failed plan is not called; retrieval again", Context{Query: "q", Recalled: []string{"q"}, Failed: []string{"geo.Geocode"},
			Candidates: []Candidate{weatherCandidate("Rome")}}, RetrieveAPI, nil},
		{"nothing left after the retrieval budget", Context{Query: "q", Recalled: []string{"q", "q", "q", "q"}, Failed: []string{"geo.Geocode"},
			Candidates: []Candidate{weatherCandidate("Rome")}}, DirectAnswer,
			func(t *testing.T, d Decision) { assert.Contains(t, d.Answer, "geo.Geocode failed") }},
		{"no candidates at all", Context{Query: "q", Recalled: []string{"q"}}, DirectAnswer,
			func(t *testing.T, d Decision) { assert.Contains(t, d.Answer, "no tool") }},
		{"asked twice for the same input gives up", Context{Query: "q", Recalled: []string{"q"}, Candidates: []Candidate{weatherCandidate("")},
			Clarifications: []QA{{Params: []string{"geo.Geocode.city"}, Answer: "x"}, {Params: []string{"geo.Geocode.city"}, Answer: "y"}}}, DirectAnswer,
			func(t *testing.T, d Decision) { assert.Contains(t, d.Answer, "still needs geo.Geocode.city") }},
		{"a bound candidate nearly as similar beats asking", Context{Query: "q", Recalled: []string{"q"}, Candidates: []Candidate{
			weatherCandidate(""), {API: "skycast.Now", Score: 0.75, Status: "active", Plan: Plan{Target: "skycast.Now", Steps: []PlanStep{{API: "skycast.Now"}}}}}},
			CallAPI, func(t *testing.T, d Decision) { assert.Equal(t, "skycast.Now", d.TargetAPI) }},
		{"a bound producer of the best candidate is no answer to it: ask", Context{Query: "q", Recalled: []string{"q"}, Candidates: []Candidate{
			unitsMissing(), {API: "geo.Geocode", Score: 0.75, Status: "active", Plan: Plan{Target: "geo.Geocode", Steps: []PlanStep{
				{API: "geo.Geocode", Bindings: []Binding{{Param: "city", Required: true, Source: SourceGiven, Value: "Rome"}}}}}}}},
			ClarifyIntent, func(t *testing.T, d Decision) { assert.Equal(t, "weather.Current", d.TargetAPI) }},
		{"pruned candidates are skipped", Context{Query: "q", Recalled: []string{"q"}, Candidates: []Candidate{
			{API: "old.Weather", Score: 0.9, Status: "pruned", Plan: Plan{Target: "old.Weather", Steps: []PlanStep{{API: "old.Weather"}}}}, weatherCandidate("Rome")}},
			CallAPI, func(t *testing.T, d Decision) { assert.Equal(t, "weather.Current", d.TargetAPI) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := GraphFirst{}.Decide(context.Background(), tt.c)
			require.NoError(t, err)
			require.Len(t, res.Decisions, 1)
			d := res.Decisions[0]
			assert.Equal(t, tt.action, d.Action, "decision: %+v", d)
			assert.Equal(t, GraphFirstName, res.Planner)
			assert.Zero(t, res.Usage)
			if tt.check != nil {
				tt.check(t, d)
			}
			// Whatever graph-first decides is admissible: Project keeps it.
			assert.False(t, Project(tt.c, d).Replaced, "graph-first decided an inadmissible %s", d)
		})
	}
}

func TestProject(t *testing.T) {
	ready := Context{Query: "q", Recalled: []string{"q"}, Candidates: []Candidate{weatherCandidate("Rome")}}
	unbound := Context{Query: "q", Recalled: []string{"q"}, Candidates: []Candidate{weatherCandidate("")}}
	tests := []struct {
		name       string
		c          Context
		d          Decision
		replaced   bool
		wantAction Action
		reason     string
	}{
		{"admissible call kept", ready, Decision{Action: CallAPI, TargetAPI: "weather.Current"}, false, CallAPI, ""},
		{"call binds the decision's params", Context{Query: "weather in Rome", Recalled: []string{"q"}, Candidates: unbound.Candidates},
			Decision{Action: CallAPI, TargetAPI: "weather.Current", Params: map[string]string{"city": "Rome"}}, false, CallAPI, ""},
		{"a param value the run never saw is a guess", unbound, Decision{Action: CallAPI, TargetAPI: "weather.Current", Params: map[string]string{"city": "Warsaw"}},
			true, ClarifyIntent, `weather.Current's city "Warsaw" is in neither the request, the user's answers nor the results: a guess`},
		{"a number from a result is seen", Context{Query: "weather here", Recalled: []string{"q"}, Candidates: unbound.Candidates,
			Results: map[string]map[string]any{"geo.Locate": {"point": map[string]any{"city": "Rome", "lat": 41.9}}}},
			Decision{Action: CallAPI, TargetAPI: "weather.Current", Params: map[string]string{"city": " rome", "lat": "41.90"}}, false, CallAPI, ""},
		{"unknown target", ready, Decision{Action: CallAPI, TargetAPI: "made.Up"}, true, CallAPI, "made.Up is not among the candidate APIs (weather.Current)"},
		{"missing input becomes a question", unbound, Decision{Action: CallAPI, TargetAPI: "weather.Current"}, true, ClarifyIntent, "weather.Current needs geo.Geocode.city, which nothing binds"},
		{"already ran", Context{Query: "q", Recalled: []string{"q"}, Candidates: ready.Candidates, Called: []string{"weather.Current"}, Completed: []string{"weather.Current"}},
			Decision{Action: CallAPI, TargetAPI: "weather.Current"}, true, DirectAnswer, "weather.Current already ran successfully"},
		{"failed API in the plan", Context{Query: "q", Recalled: []string{"q"}, Candidates: ready.Candidates, Failed: []string{"geo.Geocode"}},
			Decision{Action: CallAPI, TargetAPI: "weather.Current"}, true, RetrieveAPI, "weather.Current's plan uses geo.Geocode, which failed"},
		{"retrieval budget spent", Context{Query: "q", Recalled: []string{"a", "b", "c", "d"}, Candidates: ready.Candidates},
			Decision{Action: RetrieveAPI, RecallDescription: "x"}, true, CallAPI, "the retrieval budget (4) is spent"},
		{"retrieval after an answer, budget spent", Context{Query: "q", Recalled: []string{"a", "b", "c", "d"}, Candidates: ready.Candidates,
			History: []Turn{{Decision: Decision{Action: ClarifyIntent, Answer: "Which city?"}}}, Clarifications: []QA{{Question: "Which city?", Answer: "Rome"}}},
			Decision{Action: RetrieveAPI, RecallDescription: "x"}, false, RetrieveAPI, ""},
		{"empty recall description", ready, Decision{Action: RetrieveAPI}, true, CallAPI, "retrieve_api has no recall_description"},
		{"clarification budget spent", Context{Query: "q", Recalled: []string{"q"}, Candidates: ready.Candidates, Clarifications: make([]QA, 3)},
			Decision{Action: ClarifyIntent, Answer: "Which?"}, true, CallAPI, "the clarification budget (3) is spent"},
		{"unknown action", ready, Decision{Action: "call"}, true, CallAPI, `action "call" is not one of call_api, direct_answer, retrieve_api, clarify_intent`},
		{"direct answer after a call kept", Context{Query: "q", Recalled: []string{"q"}, Candidates: ready.Candidates, Called: []string{"geo.Geocode"}},
			Decision{Action: DirectAnswer, Answer: "Yes."}, false, DirectAnswer, ""},
		{"direct answer when no candidate can run kept", unbound, Decision{Action: DirectAnswer, Answer: "Yes."}, false, DirectAnswer, ""},
		{"premature answer while a candidate can run", ready, Decision{Action: DirectAnswer, Answer: "Yes."}, true, CallAPI,
			"direct_answer before any call, while weather.Current can run: the answer would be a guess"},
		{"premature answer before retrieval", Context{Query: "q"}, Decision{Action: DirectAnswer, Answer: "Yes."}, true, RetrieveAPI,
			"direct_answer before the graph was asked for a tool: the answer would be a guess"},
		{"empty direct answer", ready, Decision{Action: DirectAnswer}, true, CallAPI, "direct_answer has no answer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Project(tt.c, tt.d)
			assert.Equal(t, tt.replaced, p.Replaced)
			assert.Equal(t, tt.wantAction, p.Decision.Action, "%+v", p.Decision)
			assert.Equal(t, tt.reason, p.Reason)
			if tt.replaced {
				assert.Equal(t, tt.d, p.Proposed)
			}
			if p.Decision.Action == CallAPI {
				assert.Empty(t, p.Plan.Missing())
				assert.NotEmpty(t, p.Plan.Steps)
			}
		})
	}
}

// The graph-first answer covers the request's other parts after its final step, and says which
// failed.
func TestGraphFirstAnswersEveryPart(t *testing.T) {
	c := Context{Query: "weather in Rome, hotels in Paris, and a museum", Recalled: []string{"x"}, Completed: []string{"weather.Current"},
		Results: map[string]map[string]any{"weather.Current": {"temp_c": 21.5}, "stay.SearchHotels": {"hotel": "Lutetia"}},
		Parts:   []string{"stay.SearchHotels", "museums.Search"}, Failed: []string{"museums.Search"}}
	res, err := GraphFirst{}.Decide(context.Background(), c)
	require.NoError(t, err)
	d := res.Decisions[0]
	assert.Equal(t, DirectAnswer, d.Action)
	assert.Equal(t, "weather.Current answered: temp_c: 21.5. stay.SearchHotels answered: hotel: Lutetia. "+
		"museums.Search failed, and nothing took its place, so that part of the request has no answer.", d.Answer)
}

// An LLM's array of call_api decisions of one rank runs in one step: their plans merged, the
// geocoding they share once; an inadmissible one, a later rank and a repeat are left out.
func TestProjectAll(t *testing.T) {
	airq := Candidate{API: "airq.Current", Score: 0.7, Status: "active", Plan: Plan{Target: "airq.Current", Steps: []PlanStep{
		{API: "geo.Geocode", Bindings: []Binding{{Param: "city", Required: true, Source: SourceGiven, Value: "Rome"}}},
		{API: "airq.Current", Bindings: []Binding{{Param: "lat", Required: true, Source: SourceUpstream, FromAPI: "geo.Geocode", FromOutput: "latitude"}}},
	}}}
	news := Candidate{API: "news.Top", Score: 0.6, Status: "active", Plan: Plan{Target: "news.Top", Steps: []PlanStep{{API: "news.Top"}}}}
	c := Context{Query: "q", Recalled: []string{"q"}, Candidates: []Candidate{weatherCandidate("Rome"), airq, news}}
	call := func(api string, rank int) Decision {
		return Decision{Action: CallAPI, TargetAPI: api, DependencyRank: rank}
	}

	p := ProjectAll(c, []Decision{call("weather.Current", 1), call("airq.Current", 1), call("made.Up", 1),
		call("weather.Current", 1), call("news.Top", 2)})
	require.False(t, p.Replaced)
	assert.Equal(t, "weather.Current", p.Decision.TargetAPI)
	assert.Equal(t, []Decision{call("airq.Current", 1)}, p.Also)
	assert.Equal(t, []string{"made.Up is not among the candidate APIs (weather.Current, airq.Current, news.Top)"}, p.Left)
	assert.Equal(t, []string{"geo.Geocode", "weather.Current", "airq.Current"}, p.Plan.APIs(), "one geocoding for both")
	assert.Equal(t, "weather.Current", p.Plan.Target)
	assert.Empty(t, p.Plan.Missing())

	// A first decision that is replaced, or not a call, takes nothing along.
	p = ProjectAll(c, []Decision{call("made.Up", 1), call("airq.Current", 1)})
	assert.True(t, p.Replaced)
	assert.Empty(t, p.Also)
	c.Called = []string{"news.Top"} // an answer after a call is admissible
	p = ProjectAll(c, []Decision{{Action: DirectAnswer, Answer: "Yes.", DependencyRank: 1}, call("airq.Current", 1)})
	assert.Equal(t, DirectAnswer, p.Decision.Action)
	assert.Empty(t, p.Also)
	assert.Zero(t, ProjectAll(c, nil))
}
