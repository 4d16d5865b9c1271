package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/naviagent/navi/research/chaineval"
	"github.com/naviagent/navi/toolworld"
)

// Files `navi eval chains` writes in its -out directory.
const (
	chainsJSONFile     = "chains.json"
	chainsMarkdownFile = "chains.md"
	maskedJSONFile     = "masked.json"
	maskedMarkdownFile = "masked.md"
)

// chainSetKeys are the sets navi eval chains knows, in report order.
var chainSetKeys = []string{"apibank", "apibank-dialogues", "restbench", "toolworld", "toolworld-renamed"}

// evalChainsCmd runs `navi eval chains`: for each set (API-Bank level-3, RestBench TMDB, the
// tool world's generated tasks) and each method (the target alone, exact-name linking, Navi's
// links), how many gold data flows the graph links and how precisely, and how often search
// from the gold final API, with the values the query states, recovers the exact chain.
func evalChainsCmd(args []string, s streams) error {
	c := &command{name: "navi eval chains", fs: flag.NewFlagSet("navi eval chains", flag.ContinueOnError)}
	c.fs.SetOutput(s.err)
	data := c.fs.String("data", defaultDataDir(), "the shared data folder (default $NAVI_DATA_DIR, else ../shared/data beside the repository)")
	sets := c.fs.String("sets", strings.Join(chainSetKeys, ","), "comma-separated sets to evaluate")
	toolWorldN := c.fs.Int("toolworld-n", 300, "number of generated tool-world tasks")
	seed := c.fs.Uint64("seed", 1, "seed of the generated tool-world tasks")
	out := c.fs.String("out", "results/eval", `directory of the reports (`+chainsJSONFile+`, `+chainsMarkdownFile+`); "" writes none`)
	asJSON := c.fs.Bool("json", false, "print the JSON report on stdout instead of the Markdown table")
	masked := c.fs.String("masked", "", `fractions of the chains to hold out, comma-separated ("0.3,0.5"): the masked setting (gold links missing, restored by each link predictor) instead of the methods' table; writes `+maskedJSONFile+` and `+maskedMarkdownFile)
	pos, err := c.parse(args, 1, 1, "one subcommand: chains")
	if err != nil {
		return err
	}
	if pos[0] != "chains" {
		return fmt.Errorf("%w: navi eval has no subcommand %q here; want chains", errUsage, pos[0])
	}
	if *toolWorldN <= 0 {
		return fmt.Errorf("%w: -toolworld-n must be > 0", errUsage)
	}
	names := splitList(*sets)
	if len(names) == 0 {
		return fmt.Errorf("%w: -sets names no set; known: %s", errUsage, strings.Join(chainSetKeys, ", "))
	}
	var loaded []chaineval.Set
	for _, n := range names {
		var set chaineval.Set
		var err error
		switch strings.ToLower(n) {
		case "apibank":
			set, err = chaineval.APIBankSet(*data)
		case "apibank-dialogues":
			set, err = chaineval.APIBankDialogueSet(*data)
		case "restbench":
			set, err = chaineval.RestBenchSet(*data)
		case "toolworld":
			set, err = chaineval.ToolWorldSet(*toolWorldN, *seed, toolworld.DifficultyAll)
		case "toolworld-renamed":
			set, err = chaineval.ToolWorldSet(*toolWorldN, *seed, toolworld.DifficultyRenamed)
		default:
			return fmt.Errorf("%w: unknown set %q; known: %s", errUsage, n, strings.Join(chainSetKeys, ", "))
		}
		if err != nil {
			if *data == "" && !strings.HasPrefix(strings.ToLower(n), "toolworld") {
				return fmt.Errorf("%w: set %s needs the shared data folder: pass -data or set NAVI_DATA_DIR", errUsage, n)
			}
			return fmt.Errorf("navi eval chains: %w", err)
		}
		loaded = append(loaded, set)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *masked != "" {
		return evalMasked(ctx, loaded, *masked, *seed, *out, *asJSON, s)
	}
	rep, err := chaineval.Run(ctx, loaded, chaineval.Methods(), s.err)
	if err != nil {
		return fmt.Errorf("navi eval chains: %w", err)
	}
	if *out != "" {
		if err := writeReports(*out, chainsJSONFile, rep.WriteJSON, chainsMarkdownFile, rep.WriteMarkdown); err != nil {
			return err
		}
		fmt.Fprintf(s.err, "wrote %s and %s\n", filepath.Join(*out, chainsJSONFile), filepath.Join(*out, chainsMarkdownFile))
	}
	if *asJSON {
		return rep.WriteJSON(s.out)
	}
	return rep.WriteMarkdown(s.out)
}

// evalMasked runs the masked setting of `navi eval chains -masked` on the loaded sets.
func evalMasked(ctx context.Context, sets []chaineval.Set, rhos string, seed uint64, out string, asJSON bool, s streams) error {
	var ratios []float64
	for _, r := range splitList(rhos) {
		v, err := strconv.ParseFloat(r, 64)
		if err != nil || !(v > 0 && v < 1) {
			return fmt.Errorf("%w: -masked %q: each ratio must be a number in (0, 1)", errUsage, r)
		}
		ratios = append(ratios, v)
	}
	rep, err := chaineval.MaskedAll(ctx, sets, ratios, seed, s.err)
	if err != nil {
		return fmt.Errorf("navi eval chains: %w", err)
	}
	if out != "" {
		if err := writeReports(out, maskedJSONFile, rep.WriteJSON, maskedMarkdownFile, rep.WriteMarkdown); err != nil {
			return err
		}
		fmt.Fprintf(s.err, "wrote %s and %s\n", filepath.Join(out, maskedJSONFile), filepath.Join(out, maskedMarkdownFile))
	}
	if asJSON {
		return rep.WriteJSON(s.out)
	}
	return rep.WriteMarkdown(s.out)
}
