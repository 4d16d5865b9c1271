// Package lexicon measures how much English the rules of a package hold: the entries of its
// word lists, counted from its Go source and data files. Navi's request parsing (twnm/subgoal),
// value extraction (twnm/extract) and retrieval (twnm/recall) once held about 2,500 such entries, keyed to
// the phrasing of the data sets they were tuned on; `navi eval lexicon` reports what is left,
// so that a change that adds a list shows up in a figure.
//
// A word list kept as data (a .txt file of the package's folder or of a folder in it, such as
// twnm/subgoal/lexicon/) counts one entry per line that is neither blank nor a "#" comment; the
// name that loads it (the argument of twnm/lexicon's New, or of a method named Entries or Set)
// is no entry.
// In Go source, an entry is counted from every string literal of a non-test file that is written in words
// alone (lowercase letters, apostrophes, spaces, "|", "_", "-", ".", "&", "%"): a literal
// holding "|" counts one entry per "|"-separated phrase ("can you|could you" is two), any other
// counts its space-separated words ("find get fetch" is three, "time" is one). Map keys and
// switch cases count alike; identifiers, format strings, messages with capitals or digits
// and generated combinations do not. The rule is coarse on purpose: it needs no registry
// the lists would have to join, and it cannot be gamed by moving a list to another variable.
package lexicon

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// wordy matches a literal written in words alone.
var wordy = regexp.MustCompile(`^[a-z'’ |_\-\.&%\n\t]+$`)

// Package is the count of one package's word-list entries.
type Package struct {
	// Dir is the package's folder, as given.
	Dir string `json:"dir"`
	// Entries is the number of entries of its word lists (see the package comment).
	Entries int `json:"entries"`
	// Files holds the entries per file name, for the files that have any.
	Files map[string]int `json:"files"`
}

// Count counts the word-list entries of the Go package in dir (its non-test .go files).
func Count(dir string) (Package, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return Package{}, fmt.Errorf("lexicon: %s: %w", dir, err)
	}
	if len(files) == 0 {
		return Package{}, fmt.Errorf("lexicon: %s holds no Go files", dir)
	}
	p := Package{Dir: dir, Files: map[string]int{}}
	data, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return Package{}, fmt.Errorf("lexicon: %s: %w", dir, err)
	}
	nested, err := filepath.Glob(filepath.Join(dir, "*", "*.txt"))
	if err != nil {
		return Package{}, fmt.Errorf("lexicon: %s: %w", dir, err)
	}
	for _, f := range append(data, nested...) {
		b, err := os.ReadFile(f)
		if err != nil {
			return Package{}, fmt.Errorf("lexicon: %w", err)
		}
		if n := lines(string(b)); n > 0 {
			rel, _ := filepath.Rel(dir, f)
			p.Files[filepath.ToSlash(rel)] = n
			p.Entries += n
		}
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			return Package{}, fmt.Errorf("lexicon: %w", err)
		}
		n, err := countSource(f, src)
		if err != nil {
			return Package{}, err
		}
		if n > 0 {
			p.Files[filepath.Base(f)] = n
			p.Entries += n
		}
	}
	return p, nil
}

// countSource counts the entries of one Go file.
func countSource(name string, src []byte) (int, error) {
	af, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
	if err != nil {
		return 0, fmt.Errorf("lexicon: %w", err)
	}
	n := 0
	ast.Inspect(af, func(x ast.Node) bool {
		if _, ok := x.(*ast.ImportSpec); ok {
			return false
		}
		if call, ok := x.(*ast.CallExpr); ok {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && loadsList(sel) {
				return false // names a list kept as data, whose file is counted
			}
		}
		lit, ok := x.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil || strings.TrimSpace(s) == "" || !wordy.MatchString(s) {
			return true
		}
		n += Entries(s)
		return true
	})
	return n, nil
}

// loadsList reports whether a call of sel loads word lists kept as data (twnm/lexicon: New,
// and a Lists' Entries or Set), whose names are no entries.
func loadsList(sel *ast.SelectorExpr) bool {
	if x, ok := sel.X.(*ast.Ident); ok && x.Name == "lexicon" {
		return sel.Sel.Name == "New" || sel.Sel.Name == "Set"
	}
	return sel.Sel.Name == "entries" || sel.Sel.Name == "Entries" || sel.Sel.Name == "Set"
}

// lines is the number of entries of a word list kept as data: its lines that are neither blank
// nor a "#" comment.
func lines(text string) int {
	n := 0
	for _, l := range strings.Split(text, "\n") {
		if f := strings.Fields(l); len(f) > 0 && !strings.HasPrefix(f[0], "#") {
			n++
		}
	}
	return n
}

// Entries is the number of entries a literal written in words holds: its "|"-separated
// phrases when it has a "|", else its words.
func Entries(s string) int {
	if !strings.Contains(s, "|") {
		return len(strings.Fields(s))
	}
	n := 0
	for _, p := range strings.Split(s, "|") {
		if strings.TrimSpace(p) != "" {
			n++
		}
	}
	return n
}

// Markdown writes the counts as a table, the packages in the order given, with their total.
func Markdown(pkgs []Package) string {
	var b strings.Builder
	b.WriteString("| Package | Word-list entries | Largest files |\n|---|---:|---|\n")
	total := 0
	for _, p := range pkgs {
		names := make([]string, 0, len(p.Files))
		for f := range p.Files {
			names = append(names, f)
		}
		sort.Slice(names, func(i, j int) bool { return p.Files[names[i]] > p.Files[names[j]] })
		var top []string
		for _, f := range names[:min(3, len(names))] {
			top = append(top, fmt.Sprintf("%s %d", f, p.Files[f]))
		}
		fmt.Fprintf(&b, "| %s | %d | %s |\n", p.Dir, p.Entries, strings.Join(top, ", "))
		total += p.Entries
	}
	fmt.Fprintf(&b, "| total | %d | |\n", total)
	return b.String()
}
