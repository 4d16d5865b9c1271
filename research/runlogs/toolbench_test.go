package runlogs

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm/invlog"
)

func TestParsePyStrDict(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		want      []pyField
		truncated bool
		wantErr   bool
	}{
		{"complete", `{'name': 'a', 'arguments': '{}'}`,
			[]pyField{{"name", "a", true}, {"arguments", "{}", true}}, false, false},
		{"escapes", `{'k': 'it\'s\n\\ \x41\u00e9"'}`, []pyField{{"k", "it's\n\\ Aé\"", true}}, false, false},
		{"double-quoted repr", `{'k': "it's"}`, []pyField{{"k", "it's", true}}, false, false},
		{"bare values", `{'a': None, 'b': 3}`, []pyField{{"a", "None", true}, {"b", "3", true}}, false, false},
		{"cut in value", `{'name': 'a', 'response': '{"err`, []pyField{{"name", "a", true}, {"response", `{"err`, false}}, true, false},
		{"cut in key", `{'name': 'a', 'resp`, []pyField{{"name", "a", true}}, true, false},
		{"cut after colon", `{'name': 'a', 'response': `, []pyField{{"name", "a", true}, {"response", "", false}}, true, false},
		{"cut in escape", `{'k': 'a\`, []pyField{{"k", "a", false}}, true, false},
		{"cut in hex escape", `{'k': 'a\u00`, []pyField{{"k", "a", false}}, true, false},
		{"cut after comma", `{'k': 'a', `, []pyField{{"k", "a", true}}, true, false},
		{"empty dict", `{}`, nil, false, false},
		{"not a dict", `oops`, nil, false, true},
		{"missing colon", `{'k' 'v'}`, nil, false, true},
		{"missing comma", `{'k': 'v' 'x': 'y'}`, nil, false, true},
		{"unquoted key", `{k: 'v'}`, nil, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, truncated, err := parsePyStrDict(tt.in)
			if tt.wantErr {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.truncated, truncated)
		})
	}
}

func TestObjectMembersPrefix(t *testing.T) {
	tests := []struct {
		in       string
		keys     []string
		complete bool
	}{
		{`{"a": 1, "b": "x"}`, []string{"a", "b"}, true},
		{`{"a": 1, "b": 86`, []string{"a"}, false}, // 86 may be the start of 862
		{`{"a": 1, "b": 862,`, []string{"a", "b"}, false},
		{`{"a": "xy`, nil, false},
		{`{"a": {"b": 1}, "c": [1, 2`, []string{"a"}, false},
		{`{`, nil, false},
		{`[1, 2]`, nil, false},
		{``, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			ms, complete := objectMembersPrefix(tt.in)
			var keys []string
			for _, m := range ms {
				keys = append(keys, m.Key)
			}
			assert.Equal(t, tt.keys, keys)
			assert.Equal(t, tt.complete, complete)
		})
	}
}

// TestToolBenchEvent covers the outcomes a 100-character message can show.
func TestToolBenchEvent(t *testing.T) {
	tests := []struct {
		name      string
		msg       string
		skip      bool
		want      invlog.Event
		wantInput []invlog.Value
	}{
		{name: "finish", msg: `{'name': 'Finish', 'arguments': '{\n  "return_type": "give_answer"}', 'response': ''}`, skip: true},
		{name: "hallucinated", msg: `{'name': 'invalid_hallucination_function_name', 'arguments': '{}', 'response': '{"error": "No such f`, skip: true},
		{name: "name cut", msg: `{'name': 'get_all_cities_in_vietnam_for_viet`, skip: true},
		{name: "complete success with JSON object",
			msg:  `{'name': 'geo', 'arguments': '{"city": "Paris"}', 'response': '{"error": "", "response": "{\\"lat\\": 48.85, \\"lon\\": 2.35}"}'}`,
			want: invlog.Event{API: "geo", Success: true, Inputs: []invlog.Value{{Param: "city", Value: "Paris"}}, Outputs: []invlog.Value{{Param: "lat", Value: "48.85"}, {Param: "lon", Value: "2.35"}}}},
		{name: "complete success with text",
			msg:  `{'name': 'geo', 'arguments': '{}', 'response': '{"error": "", "response": "{\'lat\': 48.85}"}'}`,
			want: invlog.Event{API: "geo", Success: true, Outputs: []invlog.Value{{Param: "output", Value: "{'lat': 48.85}"}}}},
		{name: "error visible in full",
			msg:  `{'name': 'geo', 'arguments': '{}', 'response': '{"error": "Message error...", "res`,
			want: invlog.Event{API: "geo", Success: false, Error: "Message error...", Truncated: true}},
		{name: "error cut",
			msg:  `{'name': 'geo', 'arguments': '{}', 'response': '{"error": "Timeou`,
			want: invlog.Event{API: "geo", Success: false, Error: "Timeou…", Truncated: true}},
		{name: "empty error cut",
			msg:  `{'name': 'geo', 'arguments': '{}', 'response': '{"error": ""`,
			want: invlog.Event{API: "geo", Success: true, Truncated: true}},
		{name: "cut before error value",
			msg:  `{'name': 'geo', 'arguments': '{}', 'response': '{"error": "`,
			want: invlog.Event{API: "geo", Success: true, Uncertain: true, Truncated: true}},
		{name: "cut in arguments",
			msg:  `{'name': 'geo', 'arguments': '{"city": "Paris", "limit": 10`,
			want: invlog.Event{API: "geo", Success: true, Uncertain: true, Inputs: []invlog.Value{{Param: "city", Value: "Paris"}}, Truncated: true}},
		{name: "arguments not JSON",
			msg:  `{'name': 'geo', 'arguments': 'city=Paris', 'response': '{"error": "request invalid"}'}`,
			want: invlog.Event{API: "geo", Success: false, Error: "request invalid"}},
		{name: "plain response",
			msg:  `{'name': 'geo', 'arguments': '{}', 'response': 'pong'}`,
			want: invlog.Event{API: "geo", Success: true, Outputs: []invlog.Value{{Param: "output", Value: "pong"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, ok, err := toolBenchEvent(tt.msg)
			require.NoError(t, err)
			if tt.skip {
				assert.False(t, ok)
				return
			}
			require.True(t, ok)
			assert.Equal(t, tt.want, ev)
		})
	}
}
