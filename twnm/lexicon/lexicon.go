// Package lexicon reads Navi's word lists: the English words and phrases that the packages
// reading requests know, one list a file of one entry a line, kept as data beside the code
// that reads them (go:embed) so that they are counted (`navi eval lexicon`), reviewed and
// changed as data, never scattered through the code. It also holds the one list of stop
// words (IsStopWord) that tokenising, concept words and keyword matching share.
package lexicon

import (
	_ "embed"
	"fmt"
	"io/fs"
	"strings"
)

// Lists is a folder of word lists: name.txt holds the list name, one entry a line (a word, or
// a phrase of words); blank lines and lines that start with "#" are none.
type Lists struct {
	files fs.FS
	dir   string
}

// New returns the lists of folder dir of files (an embed.FS of the package that reads them).
func New(files fs.FS, dir string) Lists { return Lists{files: files, dir: dir} }

// Entries returns the entries of the list name, their words separated by one space. The
// files are embedded, so a missing one is a mistake of the reading package's own source,
// caught by any of its tests: Entries panics on it.
func (l Lists) Entries(name string) []string {
	b, err := fs.ReadFile(l.files, l.dir+"/"+name+".txt")
	if err != nil {
		panic(fmt.Sprintf("lexicon: no word list %s/%s.txt", l.dir, name))
	}
	return entries(string(b))
}

// Set returns the entries of the list name as a lookup set.
func (l Lists) Set(name string) map[string]bool { return Set(l.Entries(name)) }

// Set builds a lookup set from entries.
func Set(entries []string) map[string]bool {
	m := make(map[string]bool, len(entries))
	for _, w := range entries {
		m[w] = true
	}
	return m
}

func entries(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if f := strings.Fields(line); len(f) > 0 && !strings.HasPrefix(f[0], "#") {
			out = append(out, strings.Join(f, " "))
		}
	}
	return out
}

//go:embed stopwords.txt
var stopWordsFile string

// stopWords are grammar words of English requests ("what is the weather in Paris for me,
// please"), which carry no meaning of their own in a request, a tool's document or a
// parameter's name.
var stopWords = Set(entries(stopWordsFile))

// IsStopWord reports whether w, in lower case, is a stop word.
func IsStopWord(w string) bool { return stopWords[w] }
