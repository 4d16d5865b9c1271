package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/naviagent/navi/mcptool"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/catalogs"
)

// tools runs `navi tools import` (or its older name, load) and `navi tools show`.
func tools(args []string, s streams) error {
	if len(args) > 0 {
		switch args[0] {
		case "show":
			return toolsShow(args[1:], s)
		case "list":
			return toolsList(args[1:], s)
		case "remove":
			return toolsRemove(args[1:], s)
		}
	}
	if len(args) == 0 || (args[0] != "import" && args[0] != "load") {
		return fmt.Errorf("%w: navi tools import <catalog or OpenAPI/Swagger spec: file or URL; or an MCP server: mcp+stdio:<command>, mcp+http(s)://…>; navi tools list; navi tools remove <source>; or navi tools show <api>", errUsage)
	}
	c := newCommand("tools " + args[0])
	replace := c.fs.Bool("replace", false, "take over APIs of the same name that another catalog imported (what was learned about them is reset)")
	format := c.fs.String("format", "", "the catalog's format: native, openapi (3.x), swagger (2.0) or mcp (a server); default: told by the document, or by mcp+ before a server")
	var lo catalogs.LoadOptions
	c.fs.BoolVar(&lo.Strict, "strict", false, "refuse a spec with any operation that cannot be imported, instead of leaving it out with a warning")
	c.fs.StringVar(&lo.BaseURL, "base-url", "", "where the APIs of a spec that names no server (or a relative one) are called: http(s)://host[/prefix]")
	maxBytes := c.fs.Int64("max-bytes", defaultMaxCatalogBytes, "the largest catalog a URL import reads")
	as := c.fs.String("as", "", "the source's name, which its APIs are named under (<source>.<operation>); default: from the spec's title or the MCP server's name")
	var mo mcptool.ImportOptions
	c.fs.Func("env", "an MCP stdio server's environment, repeatable: NAME=value (kept in the catalog) or NAME (the worker's own value of NAME; for secrets)", func(e string) error {
		mo.Env = append(mo.Env, e)
		return nil
	})
	pos, err := c.parse(args[1:], 1, 1, "one catalog file or URL")
	if err != nil {
		return err
	}
	if f := catalogs.Format(*format); f != catalogs.FormatAuto && f != formatMCP && !slices.Contains(catalogs.Formats, f) {
		return fmt.Errorf("%w: -format %q: want native, openapi, swagger or mcp", errUsage, *format)
	}
	source := pos[0]
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var cat twnm.Catalog
	var kind catalogs.Format
	if server, ok := strings.CutPrefix(source, mcptool.CLIPrefix); ok || catalogs.Format(*format) == formatMCP {
		if !ok {
			server = source
		}
		// An MCP server: its tools, listed here, outside any workflow.
		if cat, err = mcptool.ImportWith(ctx, server, mo); err != nil {
			return err
		}
		kind = formatMCP
	} else if len(mo.Env) > 0 {
		return fmt.Errorf("%w: -env is for an MCP stdio server (mcp+stdio:<command>)", errUsage)
	} else if cat, kind, err = loadCatalog(source, catalogs.Format(*format), lo, *maxBytes, s); err != nil {
		return err
	}
	origin, err := nameSource(&cat, kind, *as, source)
	if err != nil {
		return err
	}

	store, err := c.cfg.OpenGraph(ctx)
	if err != nil {
		return err
	}
	defer store.Close(context.Background())
	stats, err := store.LoadCatalogWith(ctx, cat, neo4j.ImportOptions{Replace: *replace, Whole: true, Origin: origin})
	if err != nil {
		return err
	}
	if len(stats.Replaced) > 0 {
		fmt.Fprintf(s.out, "took over %d APIs from other catalogs, resetting what was learned about them: %s\n", len(stats.Replaced), strings.Join(stats.Replaced, ", "))
	}
	if len(stats.Reset) > 0 {
		fmt.Fprintf(s.out, "reset what was learned about %d APIs whose endpoint changed: %s\n", len(stats.Reset), strings.Join(stats.Reset, ", "))
	}
	counts, err := store.Counts(ctx)
	if err != nil {
		return err
	}
	if len(stats.Retired) > 0 {
		fmt.Fprintf(s.out, "retired %d APIs the source no longer has (what was learned about them is kept): %s\n", len(stats.Retired), firstNames(stats.Retired))
	}
	fmt.Fprintf(s.out, "loaded %s as source %s: %d APIs (%d added, %d changed, %d unchanged), %d parameters (graph now %d APIs, %d parameters, %d edges)\n",
		source, cat.Name, stats.APIs, stats.Added, stats.Changed, stats.Unchanged, stats.Params, counts.APIs, counts.Params, counts.Edges)
	names := make([]string, len(cat.APIs))
	for i, a := range cat.APIs {
		names[i] = a.Name
	}
	fmt.Fprintf(s.out, "APIs: %s\n", firstNames(names))
	return nil
}

// formatMCP is -format's name for an MCP server, which the source names as
// "mcp+stdio:<command line>" or "mcp+http(s)://…" (the "mcp+" may be left out with it).
const formatMCP catalogs.Format = "mcp"

// defaultMaxCatalogBytes is the largest catalog a URL import reads by default (-max-bytes).
const defaultMaxCatalogBytes = 64 << 20

// loadCatalog reads a catalog or spec from a file or an http(s) URL (at most maxBytes of it)
// and prints what it read leniently or left out. Errors name the source, never a download's
// temporary file.
func loadCatalog(source string, format catalogs.Format, o catalogs.LoadOptions, maxBytes int64, s streams) (twnm.Catalog, catalogs.Format, error) {
	path := source
	if strings.HasPrefix(path, "http://") || strings.HasPrefix(path, "https://") {
		local, err := download(path, maxBytes)
		if err != nil {
			return twnm.Catalog{}, "", err
		}
		defer os.Remove(local)
		path = local
	}
	cat, format, warnings, err := catalogs.LoadWith(path, format, o)
	if err != nil {
		if path != source { // a download's temporary file: the user knows the URL
			err = errors.New(strings.ReplaceAll(err.Error(), path, source))
		}
		return twnm.Catalog{}, "", err
	}
	printWarnings(s.err, source, warnings)
	return cat, format, nil
}

// maxWarningsShown bounds the warnings an import prints one by one.
const maxWarningsShown = 10

// printWarnings says what an import read leniently: how many things, and the first of them.
func printWarnings(w io.Writer, source string, warnings []catalogs.Warning) {
	if len(warnings) == 0 {
		return
	}
	fmt.Fprintf(w, "%s: %d warning(s): what the import read leniently, left out, or could not take:\n", source, len(warnings))
	for _, x := range warnings[:min(len(warnings), maxWarningsShown)] {
		fmt.Fprintf(w, "  %s\n", terminalSafe(x.String()))
	}
	if n := len(warnings) - maxWarningsShown; n > 0 {
		fmt.Fprintf(w, "  … and %d more\n", n)
	}
}

// showSpec prints what calling a takes and gives: provider, endpoint or MCP server, effect,
// confirmation policy, auth (the secret's name, never a value), inputs and outputs.
func showSpec(w io.Writer, a twnm.API) {
	if a.Source != "" {
		field(w, "source", "%s", a.Source)
	}
	if a.Provider != "" {
		field(w, "provider", "%s", a.Provider)
	}
	switch {
	case a.MCP != nil && a.MCP.Dir != "":
		field(w, "server", "MCP tool %s of %s, run in %s", a.MCP.Tool, a.MCP.Server, a.MCP.Dir)
	case a.MCP != nil:
		field(w, "server", "MCP tool %s of %s", a.MCP.Tool, a.MCP.Server)
	case a.Endpoint != nil:
		field(w, "endpoint", "%s %s%s", a.Endpoint.Method, a.Endpoint.BaseURL, a.Endpoint.Path)
	}
	if a.MCP != nil && len(a.MCP.Env) > 0 {
		field(w, "environment", "%s", strings.Join(a.MCP.Env, " "))
	}
	effect := a.CallEffect()
	if a.Destructive() {
		effect += ", destructive"
	}
	field(w, "effect", "%s", effect)
	if a.Confirm != "" {
		field(w, "confirm", "%s", a.Confirm)
	}
	if au := a.Auth; au != nil {
		field(w, "auth", "%s, secret %s", au.Scheme, au.Secret)
	}
	for _, ps := range []struct {
		label  string
		params []twnm.Param
	}{{"inputs", a.Inputs}, {"outputs", a.Outputs}} {
		if len(ps.params) == 0 {
			continue
		}
		fmt.Fprintln(w, ps.label)
		for _, p := range ps.params {
			var notes []string
			if p.Type != "" {
				notes = append(notes, p.Type)
			}
			if p.Required {
				notes = append(notes, "required")
			}
			if p.In != "" {
				notes = append(notes, "in "+p.In)
			}
			if len(p.Enum) > 0 {
				notes = append(notes, "one of "+strings.Join(p.Enum, ", "))
			}
			if p.Pattern != "" {
				notes = append(notes, "matching "+terminalSafe(p.Pattern))
			}
			line := "  " + terminalSafe(p.Name)
			if len(notes) > 0 {
				line += " (" + strings.Join(notes, ", ") + ")"
			}
			if p.Description != "" {
				line += ": " + terminalSafe(oneLine(p.Description, 100))
			}
			fmt.Fprintln(w, line)
		}
	}
}

// toolsList prints the graph's sources: name, APIs (active, retired) and origin.
func toolsList(args []string, s streams) error {
	c := newCommand("tools list")
	if _, err := c.parse(args, 0, 0, "no arguments: navi tools list"); err != nil {
		return err
	}
	var sources []neo4j.Source
	var model neo4j.ModelRecord
	if err := c.withGraph(time.Minute, func(ctx context.Context, store *neo4j.Store) (err error) {
		if sources, err = store.Sources(ctx); err != nil {
			return err
		}
		model, err = activeModel(ctx, store)
		return err
	}); err != nil {
		return err
	}
	if len(sources) == 0 {
		fmt.Fprintln(s.out, "no sources: navi tools import adds one")
	} else {
		tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "SOURCE\tAPIS\tACTIVE\tRETIRED\tORIGIN")
		for _, src := range sources {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\n", terminalSafe(src.Name), src.APIs, src.Active, src.Retired, terminalSafe(src.Origin))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	fmt.Fprintln(s.out, "link predictor: "+predictorLine(model))
	return nil
}

// activeModel is the active link-prediction model's record: only its version where the record
// is gone, and nothing where no model is active.
func activeModel(ctx context.Context, store *neo4j.Store) (neo4j.ModelRecord, error) {
	v, err := store.ActiveModel(ctx)
	if err != nil || v == "" {
		return neo4j.ModelRecord{}, err
	}
	rec, err := store.LoadModel(ctx, v, false)
	if errors.Is(err, neo4j.ErrNoModel) {
		return neo4j.ModelRecord{Version: v}, nil // activated, its record since removed
	}
	return rec, err
}

// predictorLine says which link-prediction model search reads.
func predictorLine(m neo4j.ModelRecord) string {
	if m.Version == "" {
		return "none active (navi schedule retrain trains one)"
	}
	return fmt.Sprintf("%s active (validation AUC %.3f); search reads its predicted weights", m.Version, m.ValAUC)
}

// toolsRemove removes a source from the graph: its APIs, their edges, and the parameters no
// other API uses.
func toolsRemove(args []string, s streams) error {
	c := newCommand("tools remove")
	pos, err := c.parse(args, 1, 1, "one source name: navi tools remove <source> (navi tools list names them)")
	if err != nil {
		return err
	}
	var n int
	if err := c.withGraph(5*time.Minute, func(ctx context.Context, store *neo4j.Store) (err error) {
		n, err = store.DeleteCatalog(ctx, pos[0])
		return err
	}); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("no source %s in the graph (navi tools list names them)", pos[0])
	}
	fmt.Fprintf(s.out, "removed source %s: %d APIs, with their edges and the parameters only they used\n", pos[0], n)
	return nil
}

// toolsShow prints one API as the graph holds it: its description, status and statistics,
// and what users called it (the sub-goals of answered runs it served, newest first).
func toolsShow(args []string, s streams) error {
	c := newCommand("tools show")
	pos, err := c.parse(args, 1, 1, "one API name: navi tools show <api>")
	if err != nil {
		return err
	}
	api := pos[0]
	return c.withGraph(time.Minute, func(ctx context.Context, store *neo4j.Store) error { return showAPI(ctx, store, api, s) })
}

// showAPI prints api as store holds it (see toolsShow).
func showAPI(ctx context.Context, store *neo4j.Store, api string, s streams) error {
	g, err := store.Subgraph(ctx, []string{api}, neo4j.SubgraphOptions{Hops: 1, MaxAPIs: 1})
	if err != nil {
		return err
	}
	id, ok := g.APIByName(api)
	if !ok {
		return fmt.Errorf("API %s is not in the graph (navi tools import adds it)", api)
	}
	n := g.Node(id)
	field(s.out, "api", "%s", n.Name)
	field(s.out, "description", "%s", n.Description)
	if a := n.API; a != nil {
		showSpec(s.out, *a)
	}
	field(s.out, "status", "%s, %d successful and %d failed calls%s", n.Status, n.Success, n.Failure, judged(n.FailedBy))
	model, err := activeModel(ctx, store)
	if err != nil {
		return err
	}
	field(s.out, "links", "%s", predictorLine(model))
	goals, err := store.Goals(ctx, api)
	if err != nil {
		return err
	}
	if len(goals) == 0 {
		field(s.out, "asked for", "nothing yet: no answered run has used it")
		return nil
	}
	fmt.Fprintf(s.out, "asked for (the last %d requests it served, newest first)\n", len(goals))
	for _, g := range goals {
		if g == "" {
			fmt.Fprintln(s.out, "  (kept as a vector only: payloads are encrypted)")
			continue
		}
		fmt.Fprintf(s.out, "  %q\n", g)
	}
	return nil
}

// judged says which signals judged an API's failures beyond the calls' own: " (answered, but
// judged failed: 2 by the user, 1 by the catalog check)".
func judged(by map[twnm.Signal]int64) string {
	names := map[twnm.Signal]string{twnm.SignalUser: "the user", twnm.SignalCatalog: "the catalog check"}
	var parts []string
	for _, sig := range []twnm.Signal{twnm.SignalUser, twnm.SignalCatalog} {
		if n := by[sig]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d by %s", n, names[sig]))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (answered, but judged failed: " + strings.Join(parts, ", ") + ")"
}

// download fetches a catalog served over HTTP (the tool world's /catalog.json, a public
// OpenAPI spec) into a temporary file; Load tells its format by its content.
func download(url string, maxBytes int64) (string, error) {
	client := &http.Client{Timeout: 30 * time.Second}
	resp, err := client.Get(url)
	if err != nil {
		return "", fmt.Errorf("catalog %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("catalog %s: HTTP %d", url, resp.StatusCode)
	}
	ext := path.Ext(strings.SplitN(url, "?", 2)[0])
	if ext != ".yaml" && ext != ".yml" {
		ext = ".json"
	}
	f, err := os.CreateTemp("", "navi-catalog-*"+ext)
	if err != nil {
		return "", err
	}
	n, err := io.Copy(f, io.LimitReader(resp.Body, maxBytes+1))
	if err == nil && n > maxBytes {
		err = fmt.Errorf("larger than %d bytes, the most an import reads (-max-bytes)", maxBytes)
	}
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", fmt.Errorf("catalog %s: %w", url, err)
	}
	return f.Name(), f.Close()
}
