package hgt

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/research/runlogs"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/catalogs"
	"github.com/naviagent/navi/twnm/embed"
	"github.com/naviagent/navi/twnm/invlog"
)

// sharedData is the development workspace's copy of the public datasets, beside the
// repository; the benchmarks that read it skip where it is absent.
const sharedData = "../../../shared/data"

func sharedPath(tb testing.TB, rel string) string {
	tb.Helper()
	p := filepath.Join(sharedData, rel)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("%s not found: the real-data benchmarks run only in the development workspace", p)
	}
	return p
}

func hashedEmbedder(tb testing.TB) embed.Embedder {
	tb.Helper()
	h, err := embed.NewHashed(embed.HashedOptions{})
	require.NoError(tb, err)
	return h
}

// recordRuns links each run and records its feedback into g, leaving out calls of APIs g
// does not know (or knows by another name: rename maps a log's name to the graph's) and
// inputs the graph's API does not take, so that logs of a slightly different catalog still
// count. It returns the runs whose feedback could not be recorded at all.
func recordRuns(tb testing.TB, g *twnm.Graph, runs []invlog.Run, rename func(string) (string, bool)) (recorded, skipped int) {
	tb.Helper()
	for i := range runs {
		run := &runs[i]
		invlog.Link(run)
		invs, trs := twnm.Feedback(run)
		var keepInv []twnm.Invocation
		for _, inv := range invs {
			name, ok := rename(inv.API)
			if !ok {
				continue
			}
			inv.API = name
			var inputs []string
			for _, p := range inv.Inputs {
				if _, ok := g.ParamOf(name, p, true); ok {
					inputs = append(inputs, p)
				}
			}
			inv.Inputs = inputs
			keepInv = append(keepInv, inv)
		}
		var keepTr []twnm.Transition
		for _, tr := range trs {
			from, okF := rename(tr.From)
			to, okT := rename(tr.To)
			if !okF || !okT {
				continue
			}
			tr.From, tr.To = from, to
			if tr.Kind == twnm.Feeds {
				_, okOut := g.ParamOf(from, tr.FromParam, false)
				_, okIn := g.ParamOf(to, tr.ToParam, true)
				if !okOut || !okIn {
					continue
				}
			}
			keepTr = append(keepTr, tr)
		}
		if len(keepInv) == 0 && len(keepTr) == 0 {
			skipped++
			continue
		}
		require.NoError(tb, g.Record(keepInv, keepTr), run.ID)
		recorded++
	}
	return recorded, skipped
}

// toolBenchStandardize is ToolBench's standardize(): every character other than an ASCII
// letter, digit or '_' becomes '_', runs of '_' collapse, the result is lower-cased and
// trimmed of '_', and a leading digit gets "get_" before it.
var nonIdent = regexp.MustCompile(`[^a-zA-Z0-9_]`)
var underscores = regexp.MustCompile(`_+`)

func toolBenchStandardize(s string) string {
	s = strings.ToLower(underscores.ReplaceAllString(nonIdent.ReplaceAllString(s, "_"), "_"))
	s = strings.Trim(s, "_")
	if s != "" && s[0] >= '0' && s[0] <= '9' {
		s = "get_" + s
	}
	return s
}

// toolBenchFunctionName is the function name ToolBench gives a RapidAPI endpoint:
// change_name(standardize(api)) + "_for_" + standardize(tool), keeping the last 64 characters.
func toolBenchFunctionName(tool, api string) string {
	a := toolBenchStandardize(api)
	switch a {
	case "from", "class", "return", "false", "true", "id", "and":
		a = "is_" + a
	}
	name := a + "_for_" + toolBenchStandardize(tool)
	if len(name) > 64 {
		name = name[len(name)-64:]
	}
	return name
}

// stableToolBenchGraph is dataset (a): the StableToolBench catalog (2,479 RapidAPI
// endpoints), built with the offline hashed embedder, with the ToolBench trajectories
// (600 runs of gpt-3.5-turbo CoT) recorded as execution history. The trajectories name
// functions as ToolBench does ("vin_decode_for_vin_decoder_v4"); they are mapped to the
// catalog's "Tool.API" names through ToolBench's naming rule (with a fallback for tools the
// two datasets name differently), and calls of endpoints outside the catalog are left out. No call's response survives the logs' 100-character cut, so no
// data flow is visible: the graph gets node success and failure counts but no THEN or FEEDS
// edge.
func stableToolBenchGraph(tb testing.TB) (*twnm.Graph, string) {
	tb.Helper()
	dir := sharedPath(tb, "stabletoolbench/solvable_queries/test_instruction")
	cat, err := catalogs.StableToolBench(dir)
	require.NoError(tb, err)
	g, err := twnm.Build(context.Background(), cat, twnm.BuildOptions{Embedder: hashedEmbedder(tb)})
	require.NoError(tb, err)
	byFunction := map[string]string{}
	type entry struct{ api, tool, name string }
	var entries []entry
	for _, a := range cat.APIs {
		apiPart := a.Name[strings.IndexByte(a.Name, '.')+1:]
		byFunction[toolBenchFunctionName(a.Provider, apiPart)] = a.Name
		entries = append(entries, entry{toolBenchFunctionName("x", apiPart), toolBenchStandardize(a.Provider), a.Name})
	}
	// The ToolBench evaluation sets and StableToolBench name some tools differently ("GUID
	// generator tool" against "GUID generator"), and the 64-character cut can take the
	// front of the API's name: a function matches an endpoint whose API name it ends with and
	// whose tool name is a prefix of its own, or the other way round, when exactly one does.
	resolve := func(f string) (string, bool) {
		if n, ok := byFunction[f]; ok {
			return n, true
		}
		match := ""
		for _, e := range entries {
			api := strings.TrimSuffix(e.api, "_for_x")
			for i := strings.Index(f, "_for_"); i >= 0; {
				fa, ft := f[:i], f[i+len("_for_"):]
				if strings.HasSuffix(api, fa) && (strings.HasPrefix(ft, e.tool) || strings.HasPrefix(e.tool, ft)) {
					if match != "" && match != e.name {
						return "", false
					}
					match = e.name
				}
				j := strings.Index(f[i+1:], "_for_")
				if j < 0 {
					break
				}
				i += 1 + j
			}
		}
		return match, match != ""
	}
	files, err := filepath.Glob(filepath.Join(sharedPath(tb, "toolbench/tooleval_default_evalset_gpt-3.5-turbo_CoT"), "G*.json"))
	require.NoError(tb, err)
	var runs []invlog.Run
	for _, f := range files {
		r, err := runlogs.ToolBench(f)
		require.NoError(tb, err)
		runs = append(runs, r...)
	}
	var known, calls int
	for _, r := range runs {
		for _, ev := range r.Events {
			calls++
			if _, ok := resolve(ev.API); ok {
				known++
			}
		}
	}
	recorded, _ := recordRuns(tb, g, runs, resolve)
	return g, describe(g) + fmt.Sprintf(", %d of %d trajectory calls name a catalog endpoint, %d of %d runs recorded",
		known, calls, recorded, len(runs))
}

// apiBankGraph is dataset (b): API-Bank's 71 APIs (lv1-lv2 and lv3 sets) with the 264
// level-1/2 dialogues and the 50 level-3 chains recorded, data flow found by invlog.Link.
func apiBankGraph(tb testing.TB) (*twnm.Graph, string) {
	tb.Helper()
	cat, err := catalogs.APIBank(sharedPath(tb, "api-bank/api_catalog_extracted.json"))
	require.NoError(tb, err)
	g, err := twnm.Build(context.Background(), cat, twnm.BuildOptions{Embedder: hashedEmbedder(tb)})
	require.NoError(tb, err)
	runs, err := runlogs.APIBankDialogues(sharedPath(tb, "api-bank/lv1-lv2-samples"))
	require.NoError(tb, err)
	chains, err := runlogs.APIBankLevel3(sharedPath(tb, "api-bank/test-data/level-3.json"))
	require.NoError(tb, err)
	runs = append(runs, chains...)
	recorded, _ := recordRuns(tb, g, runs, func(s string) (string, bool) { _, ok := g.APIByName(s); return s, ok })
	return g, describe(g) + fmt.Sprintf(", %d of %d runs recorded", recorded, len(runs))
}

// describe counts a graph's nodes and edges by kind.
func describe(g *twnm.Graph) string {
	var kinds [4]int
	for _, e := range g.Edges() {
		kinds[e.Kind]++
	}
	return fmt.Sprintf("%d nodes (%d APIs), %d edges (INPUT_OF %d, OUTPUTS %d, THEN %d, FEEDS %d)",
		g.Len(), len(g.APIs()), len(g.Edges()), kinds[twnm.InputOf], kinds[twnm.Outputs], kinds[twnm.Then], kinds[twnm.Feeds])
}
