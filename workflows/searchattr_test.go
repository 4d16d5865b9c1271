package workflows

import (
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
)

// The dev server is its own module and keeps its own copy of the search attribute list; this
// test keeps the two in step.
func TestDevServerRegistersEverySearchAttribute(t *testing.T) {
	src, err := os.ReadFile("../devserver/main.go")
	require.NoError(t, err)
	for name, typ := range SearchAttributes {
		constant := enumspb.IndexedValueType_name[int32(typ)]
		re := regexp.MustCompile(`"` + name + `":\s+enumspb\.` + constant + `,`)
		assert.True(t, re.Match(src), "devserver/main.go must register %s as %s", name, constant)
	}
}
