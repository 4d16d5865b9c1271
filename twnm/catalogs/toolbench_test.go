package catalogs

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm"
)

const tbSlice = "testdata/toolbench/G1_category.json"

func TestToolBenchTools(t *testing.T) {
	c, err := ToolBenchTools(tbSlice)
	require.NoError(t, err)
	assert.Equal(t, "toolbench", c.Name)
	// G1_category: 100 queries, 548 offered functions, 265 distinct names besides Finish.
	require.Len(t, c.APIs, 265)
	for _, a := range c.APIs {
		assert.NotEqual(t, "Finish", a.Name)
	}

	a := api(t, c, "search_by_name_for_advanced_movie_search")
	assert.Equal(t, "advanced_movie_search", a.Provider)
	assert.Equal(t, "Search a movie by query string", a.Description)
	assert.Equal(t, []twnm.Param{{Name: "query", Type: "string", Required: true}, {Name: "page", Type: "integer"}}, a.Inputs)
	assert.Empty(t, a.Outputs)
}

func TestToolBenchToolsShared(t *testing.T) {
	c, err := ToolBenchTools(shared(t, "toolbench/tooleval_default_evalset_gpt-3.5-turbo_CoT"))
	require.NoError(t, err)
	// 600 queries, 3,953 offered functions, 2,128 distinct names of which one is Finish.
	require.Len(t, c.APIs, 2127)
	// Every function names its tool in the generated preamble.
	for _, a := range c.APIs {
		require.NotEmpty(t, a.Provider, a.Name)
	}
}

func TestToolBenchToolsDescription(t *testing.T) {
	in := `{"q1": {"available_tools": [
	  {"name": "a_for_t", "description": "This is the subfunction for tool \"t\", you can use this tool.The description of this function is: \"Finds a.\"", "parameters": {"type": "object", "properties": {"x": {"type": "string", "description": "the x"}}, "required": ["x", "y"], "optional": ["z"]}},
	  {"name": "b_for_t", "description": "This is the subfunction for tool \"t\", you can use this tool.", "parameters": {"type": "object", "properties": {}}},
	  {"name": "c", "description": "Free text."},
	  {"name": "Finish", "description": "Answer.", "parameters": {"properties": {"return_type": {"type": "string", "enum": ["give_answer"]}}}}]}}`
	c, err := ToolBenchTools(writeFile(t, "G1.json", in))
	require.NoError(t, err)
	require.Len(t, c.APIs, 3)
	assert.Equal(t, twnm.API{Name: "a_for_t", Description: "Finds a.", Provider: "t", Inputs: []twnm.Param{
		{Name: "x", Type: "string", Description: "the x", Required: true},
		{Name: "y", Required: true}, // listed in required only
		{Name: "z"},                 // listed in optional only
	}}, c.APIs[0])
	assert.Equal(t, twnm.API{Name: "b_for_t", Description: `This is the subfunction for tool "t", you can use this tool.`, Provider: "t"}, c.APIs[1])
	assert.Equal(t, twnm.API{Name: "c", Description: "Free text."}, c.APIs[2])
}

func TestToolBenchToolsErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"not object", `[]`, "want an object of queries keyed by id: want an object, got array"},
		{"tools object", `{"q1": {"available_tools": {}}}`, "record 0 (query q1): field available_tools: want an array, got object"},
		{"no name", `{"q1": {"available_tools": [{"name": "a"}]}, "q2": {"available_tools": [{"description": "d"}]}}`,
			"record 1 (query q2): available_tools[0]: field name: missing or empty"},
		{"parameters array", `{"q1": {"available_tools": [{"name": "a", "parameters": []}]}}`,
			"record 0 (query q1): available_tools[0] (a): field parameters: want an object, got array"},
		{"properties array", `{"q1": {"available_tools": [{"name": "a", "parameters": {"properties": []}}]}}`,
			"available_tools[0] (a): field parameters.properties: want an object, got array"},
		{"property type", `{"q1": {"available_tools": [{"name": "a", "parameters": {"properties": {"x": {"type": ["string"]}}}}]}}`,
			"available_tools[0] (a): field parameters.properties.x: field type: want a string, got array"},
		{"required not list", `{"q1": {"available_tools": [{"name": "a", "parameters": {"required": "x"}}]}}`,
			"available_tools[0] (a): field parameters: field required: want an array, got string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeFile(t, "G1.json", tt.in)
			_, err := ToolBenchTools(p)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "toolbench catalog "+p+": ")
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}
