package toolspec

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPick(t *testing.T) {
	var channels, sites map[string]any
	if err := json.Unmarshal([]byte(`{"channels": [
		{"sid": "CH1", "friendly_name": "General", "members_count": 3},
		{"sid": "CH2", "friendly_name": "Board Prep", "links": {"members": "x"}}],
		"meta": {"page": 0}}`), &channels); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(`{"result": [{"id": "s1", "name": "docs-hub"}, {"id": "s2", "name": "bakery-landing"}]}`), &sites); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		v          map[string]any
		path, item string
		want       any
		ok         bool
	}{
		{"the item a field names", channels, "channels[].sid", "Board Prep", "CH2", true},
		{"case aside", channels, "channels[].sid", "board prep", "CH2", true},
		{"spaces and punctuation aside", sites, "id", "Bakery Landing", "s2", true},
		{"punctuation alone names nothing", channels, "channels[].sid", "--", nil, false},
		{"by its own id", channels, "channels[].sid", "CH1", "CH1", true},
		{"a number field", channels, "channels[].sid", "3", "CH1", true},
		{"no item names it", channels, "channels[].sid", "Escalations", nil, false},
		{"a nested field names none", channels, "channels[].sid", "x", nil, false},
		{"a list the answer is", sites, "id", "bakery-landing", "s2", true},
		{"a field no item holds", sites, "url", "bakery-landing", nil, false},
		{"no item", channels, "channels[].sid", " ", nil, false},
		{"no list", channels, "meta.page", "0", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Pick(tt.v, tt.path, tt.item)
			assert.Equal(t, tt.ok, ok)
			if tt.ok {
				assert.Equal(t, tt.want, got)
			}
		})
	}
}
