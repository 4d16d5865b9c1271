package toolcall_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/naviagent/navi/toolcall"
	"github.com/naviagent/navi/toolspec"
)

func TestSuspect(t *testing.T) {
	api := toolspec.API{Name: "hotels.Search", Outputs: []toolspec.Param{{Name: "hotel_id"}, {Name: "price"}}}
	tests := []struct {
		name   string
		api    toolspec.API
		output map[string]any
		want   string
	}{
		{"a declared output", api, map[string]any{"hotel_id": "h1", "extra": 1}, ""},
		{"empty", api, map[string]any{}, "the answer is empty"},
		{"nothing but empty values", api, map[string]any{"hotel_id": "", "results": []any{}}, "the answer is empty"},
		{"an error in a 200", api, map[string]any{"error": "city not found"}, "the answer is an error (error: city not found)"},
		{"an error beside the outputs is data", api, map[string]any{"hotel_id": "h1", "error": "partial"}, ""},
		{"none of the outputs", api, map[string]any{"name": "x"}, "none of its declared outputs (hotel_id, price) is in the answer"},
		{"a bare value", api, map[string]any{"result": 42.0}, ""},
		{"no declared outputs", toolspec.API{Name: "x"}, map[string]any{"anything": true}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, toolcall.Suspect(tt.api, tt.output))
		})
	}
}
