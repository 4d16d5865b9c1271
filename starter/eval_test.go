package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/research/chaineval"
	"github.com/naviagent/navi/research/retrievaleval"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/bm25"
)

// TestEvalRetrieval runs the baseline on RestBench and API-Bank through the command, with the
// shared data folder found beside the repository.
func TestEvalRetrieval(t *testing.T) {
	if os.Getenv("NAVI_DATA_DIR") == "" && defaultDataDir() == "" {
		t.Skip("no shared data folder beside the repository (../shared/data) and no NAVI_DATA_DIR")
	}
	dir := t.TempDir()
	var out, progress bytes.Buffer
	require.NoError(t, evalCmd([]string{"retrieval", "-sets", "restbench,apibank", "-methods", "hashed+rerank", "-out", dir}, streams{&out, &progress}))

	for _, f := range []string{retrievalJSONFile, retrievalMarkdownFile} {
		st, err := os.Stat(filepath.Join(dir, f))
		require.NoError(t, err)
		assert.Positive(t, st.Size(), f)
	}
	md := out.String()
	assert.Contains(t, md, "| Method | RestBench @1 | R@5 | API-Bank @1 | R@5 |")
	row := regexp.MustCompile(`(?m)^\| hashed\+rerank \|(.*)\|$`).FindStringSubmatch(md)
	require.NotNil(t, row, md)
	cells := strings.Split(row[1], "|")
	require.Len(t, cells, 4, "two numbers per set")
	for _, c := range cells {
		v, err := strconv.ParseFloat(strings.TrimSpace(c), 64)
		require.NoError(t, err, c)
		assert.GreaterOrEqual(t, v, 0.0)
		assert.LessOrEqual(t, v, 100.0)
	}
	assert.Contains(t, progress.String(), "RestBench (100 tasks, 54 APIs) × hashed+rerank: building")
	assert.Contains(t, progress.String(), "wrote "+filepath.Join(dir, retrievalJSONFile))

	full, err := os.ReadFile(filepath.Join(dir, retrievalMarkdownFile))
	require.NoError(t, err)
	assert.Contains(t, string(full), md, "the report holds the summary")
	assert.Contains(t, string(full), "- **API-Bank** (50 tasks, 71 APIs ranked)")

	var rep retrievaleval.Report
	js, err := os.ReadFile(filepath.Join(dir, retrievalJSONFile))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(js, &rep))
	require.Len(t, rep.Results, 2)
	res, ok := rep.Result("RestBench", "hashed+rerank")
	require.True(t, ok)
	assert.Len(t, res.PerTask, 100)
}

// The tool world needs no data folder; flags may stand before the subcommand; -json prints the
// report instead of the summary.
func TestEvalRetrievalJSON(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, evalCmd([]string{"-json", "-data", "", "-sets", "toolworld", "-toolworld-n", "6", "retrieval", "-methods", "full", "-out", ""}, streams{&out, io.Discard}))
	var rep retrievaleval.Report
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep), out.String())
	require.Len(t, rep.Results, 1)
	assert.Equal(t, "ToolWorld", rep.Results[0].Set)
	assert.Equal(t, "full", rep.Results[0].Method)
	assert.Len(t, rep.Results[0].PerTask, 6)
	for _, tr := range rep.Results[0].PerTask {
		assert.NotEmpty(t, tr.Top, tr.ID)
	}
}

// The held-out questions about public specs need no data folder either: they plan, as the
// agent would, over the five specs imported together.
func TestEvalRetrievalPublic(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, evalCmd([]string{"retrieval", "-json", "-data", "", "-sets", "public", "-methods", "full", "-limit", "12", "-out", ""}, streams{&out, io.Discard}))
	var rep retrievaleval.Report
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep), out.String())
	require.Len(t, rep.Results, 1)
	res := rep.Results[0]
	assert.Equal(t, "Public specs", res.Set)
	assert.Len(t, res.PerTask, 12)
	assert.Positive(t, res.MultiStep, "some of the first questions need a chain")
	for _, tr := range res.PerTask {
		assert.NotEmpty(t, tr.Top, tr.ID)
	}
}

func TestEvalRetrievalErrors(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		usage bool
		want  string
	}{
		{"no subcommand", nil, true, "one subcommand: retrieval or chains"},
		{"other subcommand", []string{"links"}, true, `no subcommand "links"`},
		{"chains: unknown set", []string{"chains", "-sets", "stabletoolbench"}, true, `unknown set "stabletoolbench"`},
		{"chains: no data folder", []string{"chains", "-data", "", "-sets", "apibank"}, true, "pass -data or set NAVI_DATA_DIR"},
		{"chains: no tasks", []string{"chains", "-toolworld-n", "0"}, true, "-toolworld-n must be > 0"},
		{"chains after its flags", []string{"-sets", "stabletoolbench", "chains"}, true, `unknown set "stabletoolbench"; known: apibank`},
		{"a flag's value is not a subcommand", []string{"retrieval", "-out", "chains", "-sets", "toolbench"}, true, `unknown set "toolbench"; known: stabletoolbench`},
		{"unknown set", []string{"retrieval", "-sets", "toolbench"}, true, `unknown set "toolbench"`},
		{"unknown method", []string{"retrieval", "-sets", "toolworld", "-methods", "bm26"}, true, `unknown method "bm26"; known: hashed+rerank, bm25`},
		{"no data folder", []string{"retrieval", "-data", "", "-sets", "restbench"}, true, "pass -data or set NAVI_DATA_DIR"},
		{"bad limit", []string{"retrieval", "-limit", "-1"}, true, "-limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := evalCmd(tt.args, streams{io.Discard, io.Discard})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Equal(t, tt.usage, errors.Is(err, errUsage))
		})
	}
}

// Ranking through Neo4j ranks as in process: the store's BM25 and vectors are the in-process
// ones, and the evaluation removes the catalogs it imported. The final API's ranks agree task
// by task on a store that holds nothing else; the shared test store holds other catalogs,
// whose documents enter the full-text index's BM25 statistics (document count, frequencies,
// average lengths), so a close lexical tie may turn: most ranks, and @1 within two tasks.
func TestEvalRetrievalThroughNeo4j(t *testing.T) {
	stacktest.Export(t, stacktest.EnvNeo4jURI, stacktest.EnvNeo4jUser, stacktest.EnvNeo4jPassword)
	const n = 10
	dir := t.TempDir()
	require.NoError(t, evalCmd([]string{"retrieval", "-neo4j", "-data", "", "-sets", "toolworld", "-toolworld-n", strconv.Itoa(n),
		"-methods", "full,full@neo4j", "-out", dir}, streams{io.Discard, io.Discard}))
	js, err := os.ReadFile(filepath.Join(dir, retrievalJSONFile))
	require.NoError(t, err)
	var rep retrievaleval.Report
	require.NoError(t, json.Unmarshal(js, &rep), string(js))
	mem, ok := rep.Result("ToolWorld", "full")
	require.True(t, ok)
	store, ok := rep.Result("ToolWorld", "full@neo4j")
	require.True(t, ok)
	require.Len(t, mem.PerTask, n)
	require.Len(t, store.PerTask, n)
	same := 0
	for i := range mem.PerTask {
		require.Equal(t, mem.PerTask[i].ID, store.PerTask[i].ID)
		if mem.PerTask[i].FinalRank == store.PerTask[i].FinalRank {
			same++
		}
	}
	assert.GreaterOrEqual(t, same, n-2, "the final API's rank agrees on most tasks")
	assert.InDelta(t, mem.Metrics.Hit1, store.Metrics.Hit1, 2.0/n+1e-9)
	md, err := os.ReadFile(filepath.Join(dir, retrievalMarkdownFile))
	require.NoError(t, err)
	assert.Contains(t, string(md), "| full@neo4j |")

	// The imported copies (their names start with the run's "∴…∴" prefix) are gone.
	found, err := stacktest.Store(t).FindAPIs(context.Background(), "geocode", 1000)
	require.NoError(t, err)
	require.NotEmpty(t, found)
	for _, f := range found {
		assert.NotContains(t, f.Name, "∴", "the imported catalog is gone")
	}
}

// The store evaluation's name prefix adds no word to a tool's document or embedded text.
func TestEvalPrefixAddsNoWords(t *testing.T) {
	a, b := symbols("18a3f-0"), symbols("18a3f-1")
	assert.NotEqual(t, a, b)
	assert.Equal(t, bm25.Tokens("geo.Geocode"), bm25.Tokens(a+"geo.Geocode"))
	api := twnm.API{Name: "geo.Geocode", Description: "Turns a city into coordinates."}
	prefixed := api
	prefixed.Name = a + api.Name
	assert.Equal(t, twnm.APIText(api), twnm.APIText(prefixed))
}

// navi eval chains on the tool world (no data folder needed): one row per method, the
// reports written, and Navi's links recover more chains than the target alone.
func TestEvalChains(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	require.NoError(t, evalCmd([]string{"chains", "-data", "", "-sets", "toolworld", "-toolworld-n", "30", "-out", dir}, streams{&out, io.Discard}))
	for _, m := range []string{"target", "names", "links", "links+branches", "observed"} {
		assert.Contains(t, out.String(), "| ToolWorld | "+m+" |")
	}
	js, err := os.ReadFile(filepath.Join(dir, chainsJSONFile))
	require.NoError(t, err)
	var rep chaineval.Report
	require.NoError(t, json.Unmarshal(js, &rep))
	require.Len(t, rep.Results, 5)
	target, links, branches, observed := rep.Results[0], rep.Results[2], rep.Results[3], rep.Results[4]
	// The tool world's chains record no answers: observing them changes nothing.
	assert.Equal(t, branches.All, observed.All)
	require.NotNil(t, branches.Links)
	assert.Equal(t, 30, branches.All.Chains)
	assert.Nil(t, target.Links, "the target alone has no links to report")
	require.NotNil(t, links.Links)
	assert.Equal(t, 30, links.All.Chains)
	assert.Greater(t, links.MultiStep.Exact, target.MultiStep.Exact)
	assert.Positive(t, links.Links.Flows)
	md, err := os.ReadFile(filepath.Join(dir, chainsMarkdownFile))
	require.NoError(t, err)
	assert.Equal(t, out.String(), string(md))
}

func TestEvalLexicon(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	require.NoError(t, evalCmd([]string{"lexicon", "-src", "..", "-out", dir}, streams{&out, &errOut}), errOut.String())
	assert.Contains(t, out.String(), "| twnm/subgoal |")
	assert.Contains(t, out.String(), "| total |")
	report, err := os.ReadFile(filepath.Join(dir, lexiconMarkdownFile))
	require.NoError(t, err)
	assert.Contains(t, string(report), "# Word lists")

	err = evalCmd([]string{"lexicon", "-src", t.TempDir(), "-out", ""}, streams{&out, &errOut})
	assert.ErrorContains(t, err, "run it from the repository's root")
}

func TestEvalValues(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	require.NoError(t, evalCmd([]string{"values", "-data", "", "-sets", "toolworld", "-toolworld-n", "9", "-out", dir}, streams{&out, &errOut}), errOut.String())
	assert.Contains(t, out.String(), "| ToolWorld |")
	report, err := os.ReadFile(filepath.Join(dir, valuesMarkdownFile))
	require.NoError(t, err)
	assert.Contains(t, string(report), "# Values")

	err = evalCmd([]string{"values", "-data", "", "-sets", "apibank"}, streams{&out, &errOut})
	assert.ErrorContains(t, err, "pass -data or set NAVI_DATA_DIR")
	err = evalCmd([]string{"values", "-sets", "nope", "-out", ""}, streams{&out, &errOut})
	assert.ErrorContains(t, err, `unknown set "nope"`)
}
