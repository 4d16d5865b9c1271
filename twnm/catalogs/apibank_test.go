package catalogs

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm"
)

func TestAPIBank(t *testing.T) {
	c, err := APIBank("testdata/api-bank/api_catalog_extracted.json")
	require.NoError(t, err)
	assert.Equal(t, "api-bank", c.Name)
	// 75 records; AddMeeting, Calculator, QueryMeeting and ToolSearcher appear in both sets.
	require.Len(t, c.APIs, 71)

	a := api(t, c, "AddAgenda")
	assert.Equal(t, "The API for adding a agenda item includes content, time and location.", a.Description)
	assert.Equal(t, "api-bank", a.Provider)
	assert.Equal(t, []string{"lv1-lv2"}, a.Tags)
	assert.Equal(t, []twnm.Param{
		{Name: "token", Type: "str", Description: "User's token.", Required: true},
		{Name: "content", Type: "str", Description: "The content of the agenda.", Required: true},
		{Name: "time", Type: "str", Description: "The time for agenda. Format: %Y-%m-%d %H:%M:%S", Required: true},
		{Name: "location", Type: "str", Description: "The location of the agenda.", Required: true},
	}, a.Inputs)
	assert.Equal(t, []twnm.Param{{Name: "status", Type: "str", Description: "success or failed"}}, a.Outputs)

	// The first record of a repeated name wins: the lv1-lv2 ToolSearcher.
	assert.Equal(t, []string{"lv1-lv2"}, api(t, c, "ToolSearcher").Tags)
	for _, a := range c.APIs {
		for _, p := range a.Inputs {
			assert.True(t, p.Required, "%s.%s", a.Name, p.Name)
		}
	}
}

func TestAPIBankShared(t *testing.T) {
	c, err := APIBank(shared(t, "api-bank/api_catalog_extracted.json"))
	require.NoError(t, err)
	local, err := APIBank("testdata/api-bank/api_catalog_extracted.json")
	require.NoError(t, err)
	assert.Equal(t, local, c, "testdata holds a copy of the whole file")
}

func TestAPIBankPreferring(t *testing.T) {
	c, err := APIBankPreferring("testdata/api-bank/api_catalog_extracted.json", "lv3")
	require.NoError(t, err)
	all, err := APIBank("testdata/api-bank/api_catalog_extracted.json")
	require.NoError(t, err)
	assert.Equal(t, "api-bank-lv3-preferred", c.Name, "another catalog than APIBank's, by name too")
	require.Len(t, c.APIs, len(all.APIs), "every name, once")
	for i, a := range c.APIs {
		assert.Equal(t, all.APIs[i].Name, a.Name, "APIBank's order")
	}
	// The repeated names take the level-3 copy; the others are APIBank's.
	q := api(t, c, "QueryMeeting")
	assert.Equal(t, []string{"lv3"}, q.Tags)
	assert.Equal(t, []twnm.Param{{Name: "user_name", Type: "str", Description: "Name of the user.", Required: true}}, q.Inputs)
	assert.Equal(t, api(t, all, "AddAgenda"), api(t, c, "AddAgenda"))

	_, err = APIBankPreferring("testdata/api-bank/api_catalog_extracted.json", "lv9")
	assert.ErrorContains(t, err, `no record has set "lv9"`)
}

func TestAPIBankErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"not json", `[{"name": "A"`, "unexpected end of JSON input"},
		{"not an array", `{"name": "A"}`, "want an array of records: want an array, got object"},
		{"params array", `[{"name": "A"}, {"name": "B"}, {"name": "C"}, {"name": "AddAgenda", "input_parameters": []}]`,
			"record 3 (AddAgenda): field input_parameters: want an object, got array"},
		{"param not object", `[{"name": "A", "output_parameters": {"status": "str"}}]`,
			"record 0 (A): field output_parameters.status: want an object, got string"},
		{"param type", `[{"name": "A", "input_parameters": {"q": {"type": 3}}}]`,
			"record 0 (A): field input_parameters.q: field type: want a string, got number"},
		{"repeated param", `[{"name": "A", "input_parameters": {"q": {}, "q": {}}}]`,
			`record 0 (A): field input_parameters: key "q" repeats`},
		{"name type", `[{"name": 3}]`, "record 0: field name: want a string, got number"},
		{"no name", `[{"description": "d"}]`, "record 0: field name: missing or empty"},
		{"record not object", `[{"name": "A"}, 7]`, "record 1: want an object, got number"},
		{"empty", `[]`, "catalog has no APIs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeFile(t, "x.json", tt.in)
			_, err := APIBank(p)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "api-bank catalog "+p+": ")
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	_, err := APIBank("testdata/none.json")
	require.ErrorContains(t, err, "api-bank catalog testdata/none.json: open testdata/none.json")
}

func TestAPIBankSet(t *testing.T) {
	tests := []struct {
		set   string
		count int
		// QueryMeeting's inputs differ between the sets.
		queryMeeting []string
	}{
		{"lv1-lv2", 53, []string{"token", "meeting_topic", "start_time", "end_time", "location", "attendees"}},
		{"lv3", 22, []string{"user_name"}},
	}
	for _, tt := range tests {
		t.Run(tt.set, func(t *testing.T) {
			c, err := APIBankSet("testdata/api-bank/api_catalog_extracted.json", tt.set)
			require.NoError(t, err)
			assert.Equal(t, "api-bank-"+tt.set, c.Name)
			assert.Len(t, c.APIs, tt.count)
			assert.Equal(t, tt.queryMeeting, paramNames(api(t, c, "QueryMeeting").Inputs))
			for _, a := range c.APIs {
				assert.Equal(t, []string{tt.set}, a.Tags, a.Name)
			}
		})
	}
	_, err := APIBankSet("testdata/api-bank/api_catalog_extracted.json", "lv4")
	require.ErrorContains(t, err, `api-bank catalog testdata/api-bank/api_catalog_extracted.json: field set: no record has set "lv4"`)
}
