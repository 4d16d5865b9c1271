package lexicon

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
)

func TestLists(t *testing.T) {
	files := fstest.MapFS{"words/verbs.txt": {Data: []byte("# request verbs\nfind\n\n  look   up \nbook\n")}}
	l := New(files, "words")
	assert.Equal(t, []string{"find", "look up", "book"}, l.Entries("verbs"), "comments and blank lines are none; a phrase's words one space apart")
	assert.Equal(t, map[string]bool{"find": true, "look up": true, "book": true}, l.Set("verbs"))
	assert.Panics(t, func() { l.Entries("nouns") }, "a list the package does not have is its own source's mistake")
}

func TestStopWords(t *testing.T) {
	for w, want := range map[string]bool{"the": true, "of": true, "please": true, "get": false, "id": false, "not": false, "new": false} {
		assert.Equal(t, want, IsStopWord(w), w)
	}
}
