package contract

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestIsActivity(t *testing.T) {
	tests := []struct {
		typ, name string
		want      bool
	}{
		{"navi.RecordFeedback", ActivityRecordFeedback, true},
		{"RecordFeedback", ActivityRecordFeedback, true}, // a run from before the prefix
		{"navi.CallTool", ActivityRecordFeedback, false},
		{"host.RecordFeedback", ActivityRecordFeedback, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, IsActivity(tt.typ, tt.name), tt.typ)
	}
	assert.Equal(t, "navi.Decide", Prefixed(ActivityDecide))
}
