package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/naviagent/navi/internal/config"
	"github.com/naviagent/navi/research/retrievaleval"
)

// Files `navi eval retrieval` writes in its -out directory.
const (
	retrievalJSONFile     = "retrieval.json"
	retrievalMarkdownFile = "retrieval.md"
)

// evalOptions are the flags of navi eval retrieval.
type evalOptions struct {
	data       string
	sets       string
	methods    string
	toolWorldN int
	seed       int64
	limit      int
	workers    int
	out        string
	json       bool
	neo4j      bool
}

// evalCmd runs `navi eval`: retrieval (the retrieval methods over the dev sets) or chains
// (data-flow links and chain recovery, evalChainsCmd); each writes its reports to -out and
// prints the summary. Flags may stand before or after the subcommand.
func evalCmd(args []string, s streams) error {
	if len(args) > 0 && args[0] == "chains" {
		return evalChainsCmd(args, s)
	}
	if len(args) > 0 && args[0] == "agent" {
		return evalAgentCmd(args, s)
	}
	if len(args) > 0 && args[0] == "lexicon" {
		return evalLexiconCmd(args, s)
	}
	if len(args) > 0 && args[0] == "values" {
		return evalValuesCmd(args, s)
	}
	// No connection flags: the evaluation runs in process and needs no stack.
	c := &command{name: "navi eval", fs: flag.NewFlagSet("navi eval retrieval", flag.ContinueOnError)}
	c.fs.SetOutput(s.err)
	var o evalOptions
	fs := c.fs
	fs.StringVar(&o.data, "data", defaultDataDir(), "the shared data folder (default $NAVI_DATA_DIR, else ../shared/data beside the repository)")
	fs.StringVar(&o.sets, "sets", strings.Join(retrievaleval.SetKeys, ","), "comma-separated sets to evaluate")
	fs.StringVar(&o.methods, "methods", "", "comma-separated methods to run (default all)")
	fs.IntVar(&o.toolWorldN, "toolworld-n", 300, "number of generated tool-world tasks")
	fs.Int64Var(&o.seed, "seed", 1, "seed of the generated tool-world tasks")
	fs.IntVar(&o.limit, "limit", 0, "evaluate only the first N tasks of each set (0: all)")
	fs.IntVar(&o.workers, "workers", 0, "queries ranked at once (0: GOMAXPROCS)")
	fs.StringVar(&o.out, "out", "results/eval", `directory of the reports (`+retrievalJSONFile+`, `+retrievalMarkdownFile+`); "" writes none`)
	fs.BoolVar(&o.json, "json", false, "print the JSON report on stdout instead of the Markdown summary")
	fs.BoolVar(&o.neo4j, "neo4j", false, "also rank through the Neo4j store (NAVI_NEO4J_*): methods bm25@neo4j and full@neo4j")
	pos, err := c.parse(args, 1, 1, "one subcommand: retrieval or chains")
	if err != nil {
		return err
	}
	if pos[0] == "chains" { // flags first: chains takes the same ones, which parsed above
		return evalChainsCmd(args, s)
	}
	if pos[0] != "retrieval" {
		return fmt.Errorf("%w: navi eval has no subcommand %q; want retrieval or chains", errUsage, pos[0])
	}
	if o.limit < 0 || o.toolWorldN <= 0 || o.workers < 0 {
		return fmt.Errorf("%w: -limit and -workers must be ≥ 0 and -toolworld-n > 0", errUsage)
	}
	setNames := splitList(o.sets)
	if len(setNames) == 0 {
		return fmt.Errorf("%w: -sets names no set; known: %s", errUsage, strings.Join(retrievaleval.SetKeys, ", "))
	}
	for _, n := range setNames {
		known := false
		for _, k := range retrievaleval.SetKeys {
			known = known || strings.EqualFold(n, k)
		}
		if !known {
			return fmt.Errorf("%w: unknown set %q; known: %s", errUsage, n, strings.Join(retrievaleval.SetKeys, ", "))
		}
		if retrievaleval.NeedsData(n) && o.data == "" {
			return fmt.Errorf("%w: set %s needs the shared data folder: pass -data or set NAVI_DATA_DIR", errUsage, n)
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	all, err := retrievalMethods(ctx)
	if err != nil {
		return err
	}
	if o.neo4j {
		store, err := config.FromEnv().OpenGraph(ctx)
		if err != nil {
			return fmt.Errorf("navi eval retrieval -neo4j: %w", err)
		}
		defer store.Close(context.Background())
		se := &storeEval{store: store, run: fmt.Sprintf("%x", time.Now().UnixNano())}
		defer func() {
			if err := se.cleanup(context.Background()); err != nil {
				fmt.Fprintf(s.err, "navi eval retrieval: the imported eval catalogs are left in the graph: %v\n", err)
			}
		}()
		all = append(all, se.methods()...)
	}
	methods, err := pickMethods(all, splitList(o.methods))
	if err != nil {
		return err
	}
	sets, err := retrievaleval.Load(o.data, setNames, o.toolWorldN, o.seed)
	if err != nil {
		return err
	}
	rep, err := retrievaleval.Evaluate(ctx, sets, methods, retrievaleval.Options{Workers: o.workers, Progress: s.err, Limit: o.limit})
	if err != nil {
		return err
	}
	if o.out != "" {
		if err := writeRetrievalReports(rep, o.out); err != nil {
			return err
		}
		fmt.Fprintf(s.err, "wrote %s and %s\n", filepath.Join(o.out, retrievalJSONFile), filepath.Join(o.out, retrievalMarkdownFile))
	}
	if o.json {
		return rep.WriteJSON(s.out)
	}
	return rep.WriteSummary(s.out)
}

// pickMethods returns the methods named, in the order named; all of them when none is.
func pickMethods(all []retrievaleval.Method, names []string) ([]retrievaleval.Method, error) {
	if len(names) == 0 {
		return all, nil
	}
	var known []string
	byName := map[string]retrievaleval.Method{}
	for _, m := range all {
		known = append(known, m.Name)
		byName[m.Name] = m
	}
	var out []retrievaleval.Method
	for _, n := range names {
		m, ok := byName[n]
		if !ok {
			return nil, fmt.Errorf("%w: unknown method %q; known: %s", errUsage, n, strings.Join(known, ", "))
		}
		out = append(out, m)
	}
	return out, nil
}

// writeRetrievalReports writes the JSON and Markdown reports into dir.
func writeRetrievalReports(rep retrievaleval.Report, dir string) error {
	return writeReports(dir, retrievalJSONFile, rep.WriteJSON, retrievalMarkdownFile, rep.WriteMarkdown)
}

// writeReports writes a report as JSON and as Markdown into dir.
func writeReports(dir, jsonName string, writeJSON func(io.Writer) error, mdName string, writeMarkdown func(io.Writer) error) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	for _, f := range []struct {
		name  string
		write func(*bytes.Buffer) error
	}{
		{jsonName, func(b *bytes.Buffer) error { return writeJSON(b) }},
		{mdName, func(b *bytes.Buffer) error { return writeMarkdown(b) }},
	} {
		var b bytes.Buffer
		if err := f.write(&b); err != nil {
			return fmt.Errorf("report %s: %w", f.name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, f.name), b.Bytes(), 0o644); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	}
	return nil
}

// splitList splits a comma-separated flag value, dropping blanks.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// defaultDataDir is $NAVI_DATA_DIR, else ../shared/data beside the repository root (the
// folder holding go.mod, found from the working directory up) when it exists, else "".
func defaultDataDir() string {
	if d := os.Getenv("NAVI_DATA_DIR"); d != "" {
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d := filepath.Join(dir, "..", "shared", "data")
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				return d
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
