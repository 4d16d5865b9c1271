package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/naviagent/navi/research/lexicon"
)

// lexiconPackages are the packages whose English the word-list figure counts: request parsing,
// value extraction, retrieval and the stop words they share.
var lexiconPackages = []string{"twnm/subgoal", "twnm/extract", "planner", "twnm/recall", "twnm/lexicon"}

// lexiconMarkdownFile is the report navi eval lexicon writes to -out.
const lexiconMarkdownFile = "lexicon.md"

// evalLexiconCmd runs `navi eval lexicon`: the entries of the word lists of the packages that
// read requests (research/lexicon), counted from the source in -src, the repository's root.
func evalLexiconCmd(args []string, s streams) error {
	c := newCommand("eval lexicon")
	c.fs.SetOutput(s.err)
	src := c.fs.String("src", ".", "the repository's root, whose Go source is counted")
	out := c.fs.String("out", "results/eval", `directory of the report (`+lexiconMarkdownFile+`); "" writes none`)
	pos, err := c.parse(args, 1, 1, "the subcommand lexicon")
	if err != nil {
		return err
	}
	if pos[0] != "lexicon" {
		return fmt.Errorf("%w: navi eval has no subcommand %q here; want lexicon", errUsage, pos[0])
	}
	var pkgs []lexicon.Package
	for _, p := range lexiconPackages {
		got, err := lexicon.Count(filepath.Join(*src, filepath.FromSlash(p)))
		if err != nil {
			return fmt.Errorf("eval lexicon: %w (run it from the repository's root, or give -src)", err)
		}
		got.Dir = p
		pkgs = append(pkgs, got)
	}
	summary := "Entries of the English word lists in the packages that read requests, counted from their source and " +
		"data files (research/lexicon: a data file's lines, and every string literal written in words alone, " +
		"\"|\"-separated phrases one each).\n\n" + lexicon.Markdown(pkgs)
	return writeSummary(s, *out, lexiconMarkdownFile, "Word lists", summary)
}

// writeSummary prints an evaluation's Markdown summary and, unless dir is "", writes it under
// a title to dir/file.
func writeSummary(s streams, dir, file, title, summary string) error {
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("eval: %w", err)
		}
		path := filepath.Join(dir, file)
		if err := os.WriteFile(path, []byte("# "+title+"\n\n"+summary), 0o644); err != nil {
			return fmt.Errorf("eval: %w", err)
		}
		fmt.Fprintf(s.err, "wrote %s\n", path)
	}
	_, err := fmt.Fprint(s.out, summary)
	return err
}
