package llm_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/planner/llm"
	"github.com/naviagent/navi/planner/llm/llmtest"
)

func richContext() planner.Context {
	turn := func(i string) planner.Turn {
		return planner.Turn{Observation: "observation-" + i,
			Decision: planner.Decision{DependencyRank: 1, Action: planner.RetrieveAPI, RecallDescription: "recall-" + i, Analysis: "long analysis " + i}}
	}
	return planner.Context{
		Query: "Weather in the city of the Louvre, in Fahrenheit?",
		Clarifications: []planner.QA{
			{Question: "Which units?", Params: []string{"GetWeather.units"}, Answer: "imperial"},
		},
		History:     []planner.Turn{turn("1"), turn("2"), turn("3"), turn("4"), turn("5")},
		Observation: "FindCity failed: timeout",
		Tree:        "GetWeather\n  <- city_id: FindCity.id\n  <- units (given)",
		Candidates: []planner.Candidate{{
			API:         "GetWeather",
			Description: "Current weather\nfor a city id",
			Score:       0.8123,
			Status:      "active",
			Inputs: []planner.ParamInfo{
				{Name: "city_id", Type: "string", Required: true, Description: "city identifier"},
				{Name: "units", Type: "string"},
			},
			Outputs: []planner.ParamInfo{{Name: "temp", Type: "number", Description: "temperature"}},
			Plan: planner.Plan{Target: "GetWeather", Steps: []planner.PlanStep{
				{API: "FindCity", Bindings: []planner.Binding{{Param: "name", Required: true, Source: planner.SourceMissing}}},
				{API: "GetWeather", Bindings: []planner.Binding{
					{Param: "city_id", Required: true, Source: planner.SourceUpstream, FromAPI: "FindCity", FromOutput: "id"},
					{Param: "units", Source: planner.SourceGiven, Value: "imperial"},
				}},
			}},
		}, {
			API: "Geocode", Description: "Place to coordinates", Score: 0.5, Status: "probing",
		}},
		Known: map[string]string{"units": "imperial", "GetWeather.units": "imperial", "a.first": "1", "z.last": "26"},
		Results: map[string]map[string]any{
			"Landmark": {"name": "Louvre", "city": "Paris", "history": strings.Repeat("x", 5000)},
			"Calendar": {"today": "2026-05-01", "events": []any{map[string]any{"b": 2, "a": 1}}},
		},
		Called:    []string{"Landmark", "Calendar"},
		Failed:    []string{"FindCity"},
		Completed: []string{"Landmark"},
		Recalled:  []string{"WeatherAPI(description: weather by city)"},
		Step:      4,
		MaxSteps:  10,
	}
}

func TestPrompt(t *testing.T) {
	srv := llmtest.New(t, func(llmtest.Request) llmtest.Response { return llmtest.Answer(retrieve) })
	p := newPlanner(t, srv.URL)
	_, err := p.Decide(context.Background(), richContext())
	require.NoError(t, err)
	req := srv.Last(t)
	sys, user := req.System(), req.User()

	t.Run("system message is the appendix prompt, the same for every context", func(t *testing.T) {
		for _, want := range []string{
			"You are an intelligent API coordination system.",
			"# Decision Logic Flow",
			"## 3.2 Known Failure Handling",
			`{"decisions": [{`,
			"call_api, direct_answer, retrieve_api or clarify_intent",
		} {
			assert.Contains(t, sys, want)
		}
		assert.NotContains(t, sys, "GetWeather", "the candidates are the user message's")
		_, err := p.Decide(context.Background(), planner.Context{Query: "hi", Step: 1})
		require.NoError(t, err)
		assert.Equal(t, sys, srv.Last(t).System())
	})

	t.Run("user message opens with the candidates", func(t *testing.T) {
		require.True(t, strings.HasPrefix(user, "# Candidate API Information:\n"))
		candidates := user[:strings.Index(user, "# User Query:")]
		for _, want := range []string{
			"1. GetWeather [status: active, score: 0.812]",
			"description: Current weather for a city id",
			"inputs: city_id (string, required): city identifier; units (string, optional)",
			"outputs: temp (number): temperature",
			`plan: FindCity(name MISSING) -> GetWeather(city_id<-FindCity.id, units="imperial")`,
			"plan missing inputs: FindCity.name",
			"2. Geocode [status: probing, score: 0.500]",
			"inputs: none",
			"GetWeather\n  <- city_id: FindCity.id\n  <- units (given)",
		} {
			assert.Contains(t, candidates, want)
		}
	})

	t.Run("user message carries the step state", func(t *testing.T) {
		for _, want := range []string{
			"Weather in the city of the Louvre, in Fahrenheit?",
			"Q: Which units? (asked for GetWeather.units)\n   A: imperial",
			"# Observation:\nFindCity failed: timeout",
			"# Known Values:\n- GetWeather.units = imperial\n- units = imperial\n\n",
			"- Calendar:\n    events = [{\"a\":1,\"b\":2}]\n    today = 2026-05-01\n- Landmark:\n    city = Paris\n    history = ",
			"…(truncated, 5000 chars)",
			"# Successfully Executed APIs: [Landmark, Calendar]",
			"# failed_apis: [FindCity]",
			"# Targets whose dependency chains completed: [Landmark]",
			"WeatherAPI(description: weather by city)",
			"# Step: 4 of 10",
		} {
			assert.Contains(t, user, want)
		}
		assert.NotContains(t, user, strings.Repeat("x", 401), "long values are truncated")
		assert.NotContains(t, user, "a.first", "known values of APIs that are no candidate are left out")
	})

	t.Run("only the last 3 turns", func(t *testing.T) {
		assert.Contains(t, user, "last 3 observation/action pairs")
		for _, i := range []string{"3", "4", "5"} {
			assert.Contains(t, user, "observation-"+i)
			assert.Contains(t, user, "recall-"+i)
		}
		for _, i := range []string{"1", "2"} {
			assert.NotContains(t, user, "observation-"+i)
			assert.NotContains(t, user, "recall-"+i)
		}
		assert.NotContains(t, user, "long analysis", "past analyses are left out")
		assert.Less(t, strings.Index(user, "observation-3"), strings.Index(user, "observation-5"), "oldest first")
	})

	t.Run("deterministic", func(t *testing.T) {
		for range 5 {
			_, err := p.Decide(context.Background(), richContext())
			require.NoError(t, err)
			last := srv.Last(t)
			require.Equal(t, req.Messages, last.Messages)
		}
	})

	t.Run("no candidates", func(t *testing.T) {
		_, err := p.Decide(context.Background(), planner.Context{Query: "hi", Step: 1})
		require.NoError(t, err)
		last := srv.Last(t)
		assert.Contains(t, last.User(), "# Candidate API Information:\n## Candidate APIs\ncandidate_apis is empty")
		assert.Contains(t, last.User(), "# failed_apis: []")
		assert.Contains(t, last.User(), "# Step: 1\n")
		assert.NotContains(t, last.User(), "Recent History")
	})
}

func TestParseDecisions(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    []planner.Decision
		wantErr string
	}{
		{
			name:    "action normalized, rank as string, analysis object",
			content: `[{"dependency_rank":"2","action":" Direct_Answer ","answer":"yes"},{"dependency_rank":1,"action":"retrieve_api","recall_description":"X","analysis":{"1":"a"}}]`,
			want: []planner.Decision{
				{DependencyRank: 1, Action: planner.RetrieveAPI, RecallDescription: "X", Analysis: `{"1":"a"}`},
				{DependencyRank: 2, Action: planner.DirectAnswer, Answer: "yes"},
			},
		},
		{
			name:    "missing ranks keep the order",
			content: `{"decisions":[{"action":"call_api","target_api":"B"},{"action":"call_api","target_api":"A"}]}`,
			want: []planner.Decision{
				{DependencyRank: 1, Action: planner.CallAPI, TargetAPI: "B"},
				{DependencyRank: 2, Action: planner.CallAPI, TargetAPI: "A"},
			},
		},
		{
			name:    "decisions holding one object",
			content: `{"decisions":{"action":"clarify_intent","answer":"Which city?"}}`,
			want:    []planner.Decision{{DependencyRank: 1, Action: planner.ClarifyIntent, Answer: "Which city?"}},
		},
		{
			name:    "every problem listed",
			content: `[{"dependency_rank":1.5,"action":"call_api"},{"action":7},"oops"]`,
			wantErr: `decision 1: dependency_rank 1.5 is not an integer; decision 1: action call_api needs "target_api"; decision 2: action 7 is not one of call_api, direct_answer, retrieve_api, clarify_intent; decision 3 is a JSON string, not an object`,
		},
		{name: "missing action", content: `[{"answer":"x"}]`, wantErr: `decision 1: "action" is missing`},
		{name: "params not an object", content: `[{"action":"call_api","target_api":"A","params":"city=Paris"}]`, wantErr: `decision 1: "params" is a JSON string, expected an object`},
		{name: "empty decisions", content: `{"decisions":[]}`, wantErr: "your answer has no decisions"},
		{name: "decisions not an array", content: `{"decisions": 42}`, wantErr: `"decisions" is a JSON number, expected an array of decision objects`},
		{name: "unterminated", content: "```json\n{\"decisions\":[{\"action\":", wantErr: "your answer is not valid JSON: it ends after"},
		{name: "prose only", content: "I cannot help with that.", wantErr: "your answer contains no JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := llm.ParseDecisions(tt.content)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
