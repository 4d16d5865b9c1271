package contract

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestIs(t *testing.T) {
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
		assert.Equal(t, tt.want, Is(tt.typ, tt.name), tt.typ)
	}
	assert.Equal(t, "navi.Decide", Prefixed(ActivityDecide))
}

func TestErrorTypes(t *testing.T) {
	assert.Equal(t, []string{"navi.BadPlan", "BadPlan", "navi.NotInGraph", "NotInGraph", "host.Failure"},
		ErrorTypes(ErrTypeBadPlan, ErrTypeNotInGraph, "host.Failure"), "a type without the prefix has no older name")
	assert.True(t, Is(ErrTypeToolRejected, "ToolRejected"))
}
