package toolspec

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestObserve(t *testing.T) {
	queryMeeting := API{Name: "QueryMeeting",
		Inputs:  []Param{{Name: "user_name", Type: "str", Required: true}},
		Outputs: []Param{{Name: "meetings", Type: "list"}}}
	tests := []struct {
		name   string
		api    API
		answer string
		want   []Param
	}{{
		name: "the fields of a list's first record, a list of values whole, an echoed input left out",
		api:  queryMeeting,
		answer: `{"user_name": "John", "meetings": [
			{"meeting_id": 1, "meeting_time": "2021-01-01 10:00:00", "meeting_attendees": ["John", "Mary"]},
			{"meeting_id": 2, "meeting_time": "2021-01-02 10:00:00"}]}`,
		want: []Param{
			{Name: "meeting_attendees", Type: "array", Path: "meetings[].meeting_attendees"},
			{Name: "meeting_id", Type: "number", Path: "meetings[].meeting_id"},
			{Name: "meeting_time", Type: "string", Path: "meetings[].meeting_time"},
		},
	}, {
		name:   "a nested object's field whose name is taken is named with its parent's",
		api:    API{Name: "GetUser", Outputs: []Param{{Name: "id", Type: "string"}}},
		answer: `{"id": "u1", "address": {"id": 7, "city": "Rome", "geo": {"lat": 41.9, "lng": 12.5}}, "active": true, "note": null}`,
		want: []Param{
			{Name: "active", Type: "boolean"},
			{Name: "city", Type: "string", Path: "address.city"},
			{Name: "lat", Type: "number", Path: "address.geo.lat"},
			{Name: "lng", Type: "number", Path: "address.geo.lng"},
			{Name: "address_id", Type: "number", Path: "address.id"},
		},
	}, {
		name:   "listed paths and data used as keys give nothing",
		api:    API{Name: "Rates", Outputs: []Param{{Name: "first_id", Path: "results[].id"}}},
		answer: `{"results": [{"id": 3}], "by_day": {"2024-01-01": 1.5, "2024-01-02": 1.6}, "grid": [[1, 2]], "empty": []}`,
		want:   nil,
	}, {
		name:   "too deep",
		api:    API{Name: "Deep"},
		answer: `{"a": {"b": {"c": {"d": {"e": 1}}, "x": 2}}}`,
		want:   []Param{{Name: "x", Type: "number", Path: "a.b.x"}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var answer map[string]any
			require.NoError(t, json.Unmarshal([]byte(tt.answer), &answer))
			got := Observe(tt.api, answer)
			assert.Equal(t, tt.want, got)
			for _, p := range got { // every path finds its value in the answer it came from
				_, ok := Lookup(answer, pathOf(p))
				assert.True(t, ok, p.Name)
			}
			// The outputs observed form a valid catalog entry.
			ext, n := AddOutputs(tt.api, got)
			assert.Equal(t, len(got), n)
			require.NoError(t, Catalog{APIs: []API{ext}}.Validate())
			assert.Empty(t, Observe(ext, answer), "an API that lists what it answers has nothing more to observe")
		})
	}
}

func TestObserveBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 60 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"f` + string(rune('a'+i/26)) + string(rune('a'+i%26)) + `": 1`)
	}
	b.WriteString("}")
	var answer map[string]any
	require.NoError(t, json.Unmarshal([]byte(b.String()), &answer))
	assert.Len(t, Observe(API{Name: "Wide"}, answer), MaxObserved)
}

func TestAddOutputs(t *testing.T) {
	a := API{Name: "A", Inputs: []Param{{Name: "q"}}, Outputs: []Param{{Name: "id"}, {Name: "first", Path: "items[].name"}}}
	got, n := AddOutputs(a, []Param{
		{Name: "id", Path: "x.id"},           // name taken
		{Name: "name", Path: "items[].name"}, // path taken
		{Name: "q"},                          // an input's name
		{Name: "total", Type: "number"},
		{Name: "total", Path: "meta.total"}, // taken by the one before
	})
	assert.Equal(t, 1, n)
	assert.Equal(t, []Param{{Name: "id"}, {Name: "first", Path: "items[].name"}, {Name: "total", Type: "number"}}, got.Outputs)
	assert.Len(t, a.Outputs, 2, "the API given is not changed")
}

func TestNestedName(t *testing.T) {
	taken := map[string]bool{"id": true, "cast_id": true, "uri": true, "items_uri": true}
	for _, c := range []struct {
		parents []string
		key     string
		want    string
		ok      bool
	}{
		{nil, "title", "title", true},
		{nil, "id", "id", false}, // a top-level field has its key or nothing
		{[]string{"results"}, "name", "name", true},
		{[]string{"results"}, "id", "results_id", true},
		{[]string{"cast"}, "id", "cast_item_id", true},                 // cast_id taken
		{[]string{"tracks", "items"}, "uri", "tracks_items_uri", true}, // uri, items_uri taken
	} {
		got, ok := NestedName(taken, c.parents, c.key)
		assert.Equal(t, c.want, got, "%v %s", c.parents, c.key)
		assert.Equal(t, c.ok, ok, "%v %s", c.parents, c.key)
	}
	assert.Equal(t, map[string]bool{"id": true, "cast_id": true, "uri": true, "items_uri": true}, taken, "taken is only read")
}
