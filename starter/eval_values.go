package main

import (
	"fmt"
	"strings"

	"github.com/naviagent/navi/research/valueeval"
)

// valuesMarkdownFile is the report navi eval values writes to -out.
const valuesMarkdownFile = "values.md"

// evalValuesCmd runs `navi eval values`: whether the values users state reach the inputs of
// the calls that take them (research/valueeval), on API-Bank's calls and the tool world's.
func evalValuesCmd(args []string, s streams) error {
	c := newCommand("eval values")
	c.fs.SetOutput(s.err)
	data := c.fs.String("data", defaultDataDir(), "the shared data folder (default $NAVI_DATA_DIR, else ../shared/data beside the repository)")
	sets := c.fs.String("sets", strings.Join(valueeval.SetKeys, ","), "comma-separated sets to evaluate")
	toolWorldN := c.fs.Int("toolworld-n", 300, "number of generated tool-world tasks of each kind")
	seed := c.fs.Int64("seed", 1, "seed of the generated tool-world tasks")
	out := c.fs.String("out", "results/eval", `directory of the report (`+valuesMarkdownFile+`); "" writes none`)
	pos, err := c.parse(args, 1, 1, "the subcommand values")
	if err != nil {
		return err
	}
	if pos[0] != "values" {
		return fmt.Errorf("%w: navi eval has no subcommand %q here; want values", errUsage, pos[0])
	}
	if *toolWorldN <= 0 {
		return fmt.Errorf("%w: -toolworld-n must be > 0", errUsage)
	}
	names := splitList(*sets)
	for _, n := range names {
		if strings.HasPrefix(n, "apibank") && *data == "" {
			return fmt.Errorf("%w: set %s needs the shared data: pass -data or set NAVI_DATA_DIR", errUsage, n)
		}
	}
	loaded, err := valueeval.Load(*data, names, *toolWorldN, *seed)
	if err != nil {
		return fmt.Errorf("eval values: %w", err)
	}
	results := make([]valueeval.Result, len(loaded))
	for i, set := range loaded {
		results[i] = valueeval.Evaluate(set)
	}
	summary := "Values the user states, read by extract.Values for the inputs of the calls that took them " +
		"(research/valueeval): right, wrong (another value bound), missed (none bound, the argument written in the user's words), " +
		"extra (bound to an input the call did not take from the user).\n\n" + valueeval.Markdown(loaded, results)
	return writeSummary(s, *out, valuesMarkdownFile, "Values", summary)
}
