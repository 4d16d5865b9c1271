package twnm

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The graph layer points down only: no package under twnm imports a Navi package of a layer
// above it (planning, activities, workflows, the command line); it may import twnm's own
// packages and the catalog types (toolspec).
func TestGraphLayerImportsNothingAbove(t *testing.T) {
	const module = "github.com/naviagent/navi/"
	allowed := func(path string) bool {
		rest, ok := strings.CutPrefix(path, module)
		return !ok || rest == "toolspec" || rest == "twnm" || strings.HasPrefix(rest, "twnm/")
	}
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		files++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			assert.True(t, allowed(p), "twnm/%s imports %s, a layer above the graph", path, p)
		}
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, files, 50, "the walk read twnm's sources")
}
