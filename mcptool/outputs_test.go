package mcptool

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/toolspec"
)

func TestOutputParamsNested(t *testing.T) {
	schema := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"id": map[string]any{"type": "string"},
			"tracks": map[string]any{"type": "object", "properties": map[string]any{
				"items": map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{
					"uri": map[string]any{"type": "string", "description": "The track's URI."},
					"id":  map[string]any{"type": []any{"string", "null"}},
					"album": map[string]any{"type": "object", "properties": map[string]any{
						"id": map[string]any{"type": "string"},
					}},
				}}},
			}},
		},
	}
	got, err := outputParams(schema)
	require.NoError(t, err)
	assert.Equal(t, []toolspec.Param{
		{Name: "id", Type: "string"},
		{Name: "tracks", Type: "object"},
		{Name: "items", Type: "array", Path: "tracks.items"},
		{Name: "album", Type: "object", Path: "tracks.items[].album"},
		{Name: "items_id", Type: "string", Path: "tracks.items[].id"},
		{Name: "uri", Type: "string", Description: "The track's URI.", Path: "tracks.items[].uri"},
	}, got, "the fields inside a page and its list of records; a record inside a record (the album) is one output")

	none, err := outputParams(nil)
	require.NoError(t, err)
	assert.Empty(t, none)
}

// An input's schema gives the values it takes: a list, or a pattern.
func TestInputParamsEnumAndPattern(t *testing.T) {
	schema := map[string]any{
		"type":     "object",
		"required": []any{"channel"},
		"properties": map[string]any{
			"channel": map[string]any{"type": "string", "pattern": "^(0|[1-9][0-9]*)$", "description": "Channel id."},
			"unit":    map[string]any{"type": "string", "enum": []any{"celsius", "fahrenheit"}},
		},
	}
	got, err := inputParams(schema)
	require.NoError(t, err)
	assert.Equal(t, []toolspec.Param{
		{Name: "channel", Type: "string", Description: "Channel id.", Required: true, Pattern: "^(0|[1-9][0-9]*)$"},
		{Name: "unit", Type: "string", Enum: []string{"celsius", "fahrenheit"}},
	}, got)
}
