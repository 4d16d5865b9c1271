package catalogs

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm"
)

const stbSlice = "testdata/stabletoolbench/G1_category.json"

func TestStableToolBench(t *testing.T) {
	c, err := StableToolBench(stbSlice)
	require.NoError(t, err)
	assert.Equal(t, "stabletoolbench", c.Name)
	// G1_category: 153 queries, 644 api_list entries, 364 distinct (tool_name, api_name).
	require.Len(t, c.APIs, 364)

	// The required/optional split, in the source's order.
	a := api(t, c, "PurgoMalum.Remove_profanity")
	assert.Equal(t, "PurgoMalum", a.Provider)
	assert.Equal(t, "Tools", a.Category)
	assert.Equal(t, &twnm.Endpoint{Method: "GET"}, a.Endpoint)
	assert.Equal(t, []string{"text", "add", "fill_text", "fill_char"}, paramNames(a.Inputs))
	assert.Equal(t, twnm.Param{Name: "text", Type: "STRING", Description: "Input text to be processed.", Required: true}, a.Inputs[0])
	for _, p := range a.Inputs[1:] {
		assert.False(t, p.Required, p.Name)
	}
	assert.Equal(t, []twnm.Param{{Name: "result", Type: "str"}}, a.Outputs)

	// A string template cut off part-way: the keys before the cut, "@meta" cut in its value.
	a = api(t, c, "List_Movies.With_RT_Ratings")
	assert.Equal(t, []twnm.Param{{Name: "status", Type: "str"}, {Name: "status_message", Type: "str"}, {Name: "data", Type: "object"}, {Name: "@meta"}}, a.Outputs)

	// Sanitized names; the provider keeps the original; no template, no outputs.
	a = api(t, c, "Onboarding_Project_v3.Get_Order")
	assert.Equal(t, "👋 Onboarding Project_v3", a.Provider)
	assert.Empty(t, a.Outputs)
	assert.Equal(t, []twnm.Param{{Name: "id", Type: "STRING", Required: true}}, a.Inputs)
	api(t, c, "Jibber_Jabber.sentence")
	api(t, c, "suivi_colis.Health")
}

func TestStableToolBenchShared(t *testing.T) {
	dir := shared(t, "stabletoolbench/solvable_queries/test_instruction")
	c, err := StableToolBench(dir)
	require.NoError(t, err)
	// 765 queries, 4,070 api_list entries, 2,479 distinct (tool_name, api_name): the count in
	// shared/data/README.md. No two of them sanitize to the same name.
	require.Len(t, c.APIs, 2479)
	names := make(map[string]bool, len(c.APIs))
	for _, a := range c.APIs {
		names[a.Name] = true
	}
	suffix := regexp.MustCompile(`_\d+$`)
	for n := range names {
		assert.False(t, suffix.MatchString(n) && names[suffix.ReplaceAllString(n, "")], "%s needed a suffix", n)
	}
	// Two parameters listed twice in the source keep their first entry.
	a := api(t, c, "Riddlie.Riddle_by_ID")
	assert.Equal(t, "Riddlie", a.Provider)
	assert.Equal(t, []string{"id"}, paramNames(a.Inputs))

	// The testdata slice imports the same entries as the full set's first file.
	slice, err := StableToolBench(stbSlice)
	require.NoError(t, err)
	assert.Equal(t, slice.APIs, c.APIs[:len(slice.APIs)])
}

func TestStableToolBenchErrors(t *testing.T) {
	entry := `{"category_name": "c", "tool_name": "T", "api_name": "A", "required_parameters": [], "optional_parameters": [], "method": "GET"}`
	tests := []struct {
		name, in, want string
	}{
		{"not array", `{}`, "want an array of queries: want an array, got object"},
		{"syntax", `[{"query_id": 1,}]`, "invalid JSON at byte 17"},
		{"no api_list", `[{"query_id": 7}]`, "record 0 (query 7): field api_list: missing"},
		{"api_list object", `[{"query_id": 7, "api_list": {}}]`, "record 0 (query 7): field api_list: want an array, got object"},
		{"param name type", `[{"query_id": 1, "api_list": [` + entry + `]}, {"query_id": 2, "api_list": [` + entry + `, {"tool_name": "T", "api_name": "B", "required_parameters": [{"name": 5}]}]}]`,
			"record 1 (query 2): api_list[1] (T.B): field required_parameters.name: want a string, got number"},
		{"param no name", `[{"query_id": 1, "api_list": [{"tool_name": "T", "api_name": "B", "optional_parameters": [{"type": "STRING"}]}]}]`,
			"record 0 (query 1): api_list[0] (T.B): field optional_parameters[0].name: missing or empty"},
		{"no tool", `[{"query_id": 1, "api_list": [{"api_name": "B"}]}]`, "record 0 (query 1): api_list[0] (.B): field tool_name: missing or empty"},
		{"template number", `[{"query_id": 1, "api_list": [{"tool_name": "T", "api_name": "B", "template_response": 3}]}]`,
			"api_list[0] (T.B): field template_response: want an object or a string, got number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeFile(t, "G1_x.json", tt.in)
			_, err := StableToolBench(p)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "stabletoolbench catalog "+p+": ")
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	_, err := StableToolBench(t.TempDir())
	require.ErrorContains(t, err, "no G*.json files in the folder")
}

func TestStableToolBenchNames(t *testing.T) {
	// Distinct endpoints that sanitize alike stay distinct; a name of symbols becomes "x".
	in := `[{"query_id": 1, "api_list": [
	  {"tool_name": "My Tool", "api_name": "Get-It"},
	  {"tool_name": "My-Tool", "api_name": "Get It"},
	  {"tool_name": "My Tool", "api_name": "Get-It"},
	  {"tool_name": "👋", "api_name": "?"}]}]`
	c, err := StableToolBench(writeFile(t, "G1.json", in))
	require.NoError(t, err)
	assert.Equal(t, []string{"My_Tool.Get_It", "My_Tool.Get_It_2", "x.x"}, []string{c.APIs[0].Name, c.APIs[1].Name, c.APIs[2].Name})
}

// BenchmarkStableToolBench times importing all six test_instruction files (shared data), and
// the one-file testdata slice.
func BenchmarkStableToolBench(b *testing.B) {
	b.Run("slice", func(b *testing.B) {
		for b.Loop() {
			if _, err := StableToolBench(stbSlice); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("full", func(b *testing.B) {
		dir := shared(b, "stabletoolbench/solvable_queries/test_instruction")
		for b.Loop() {
			if _, err := StableToolBench(dir); err != nil {
				b.Fatal(err)
			}
		}
	})
}
