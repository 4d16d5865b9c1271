package lexicon

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEntries(t *testing.T) {
	tests := []struct {
		lit  string
		want int
	}{
		{"find get fetch", 3},
		{"time", 1},
		{"can you|could you| would you mind |", 3},
		{"and then:sequence|after that:mid,sequence", 2},
		{"  ", 0},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Entries(tt.lit), tt.lit)
	}
}

func TestCount(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\nimport \"strings\"\n\n" +
		"var verbs = set(`find get\n\tfetch`) // 3\n" +
		"var frames = \"can you|could you\" // 2\n" +
		"var m = map[string]int{\"lat\": 1, \"lon\": 2} // 2\n" +
		"var msg = \"Failed: %d items\" // capitals and digits: no words\n" +
		"func f(s string) bool { return strings.Contains(s, \"x\") } // 1\n" +
		"func set(string) map[string]bool { return nil }\n" +
		"var fromData = lists.entries(\"verbs\") // a name, no entry\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p_test.go"), []byte("package p\n\nvar skipped = \"a b c d\"\n"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "lexicon"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "lexicon", "verbs.txt"), []byte("# a comment\nfind\n\nlook up\n"), 0o644))
	p, err := Count(dir)
	require.NoError(t, err)
	assert.Equal(t, 10, p.Entries) // 3 + 2 + 2 + 1 in Go, 2 lines of data; the test file is not counted
	assert.Equal(t, map[string]int{"p.go": 8, "lexicon/verbs.txt": 2}, p.Files)
	assert.Contains(t, Markdown([]Package{p}), "| total | 10 |")

	_, err = Count(t.TempDir())
	assert.ErrorContains(t, err, "holds no Go files")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bad.go"), []byte("package p\nvar = \n"), 0o644))
	_, err = Count(dir)
	assert.Error(t, err)
}
