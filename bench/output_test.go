package bench

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeReport runs the fake variants over the fake tasks, with phases and batches when asked.
func fakeReport(t *testing.T, scenario bool) Report {
	t.Helper()
	opts := Options{Variants: []Variant{gold, weak}, Concurrency: 4, Seed: 1, Command: []string{"navi", "bench", "-n", "6"}}
	var broken atomic.Bool
	if scenario {
		tasks := fakeTasks()
		opts.Phases = []Phase{
			{Name: "baseline", Tasks: tasks},
			{Name: "faults", Tasks: tasks,
				Before: func(context.Context) error { broken.Store(true); return nil },
				After:  func(context.Context) error { broken.Store(false); return nil }},
		}
		opts.Batches = 4
	} else {
		opts.Tasks = fakeTasks()
	}
	r, err := Run(context.Background(), opts, &fakeRunner{broken: broken.Load})
	require.NoError(t, err)
	return r
}

func TestWriteMarkdown(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteMarkdown(&b, fakeReport(t, false)))
	md := b.String()
	for _, want := range []string{
		"- Seed: 1\n",
		"- Command: `navi bench -n 6`\n",
		"| gold | graph-first | alphabeta | on | on | on |\n",
		"| weak | llm | heuristic | off | off | off |\n",
		"| Variant | Tasks | TCR | TSR | Steps | LLM calls | Tokens | Tool calls | Recombinations | p50 | p95 | Node-F1 | Link-F1 |\n",
		// The hand-computed metrics of TestRunOrdersOutcomesAndComputesMetrics.
		"| gold | 6 | 100.0% | 100.0% | 3.00 | 3.00 | 330 | 2.00 | 0.00 | 200ms | 300ms | 1.000 | 1.000 |\n",
		"| weak | 6 | 66.7% | 33.3% | 2.00 | 3.00 | 330 | 1.00 | 0.33 | 200ms | 300ms | 0.722 | 0.000 |\n",
		"## Difficulty: easy\n",
		// Easy tasks have no gold links: link-F1 is not measured.
		"| gold | 2 | 100.0% | 100.0% | 2.00 | 2.00 | 220 | 1.00 | 0.00 | 100ms | 100ms | 1.000 | – |\n",
		"## Difficulty: medium\n",
		// Nothing solved: no steps per solved task.
		"| weak | 2 | 100.0% | 0.0% | – | 3.00 | 330 | 1.00 | 0.00 | 200ms | 200ms | 0.667 | 0.000 |\n",
		"## Difficulty: hard\n",
		"| weak | 2 | 0.0% | 0.0% | – | 4.00 | 440 | 1.00 | 1.00 | 300ms | 300ms | 0.500 | 0.000 |\n",
	} {
		assert.Contains(t, md, want)
	}
	assert.NotContains(t, md, "## Phases")
	assert.NotContains(t, md, "## Learning curve")
	assert.NotContains(t, md, "Partial")
	assert.NotContains(t, md, "## Intents", "no compound task")
}

func TestWriteMarkdownIntents(t *testing.T) {
	r := fakeReport(t, false)
	// The gold variant's first task asked two questions and got one answer.
	r.Outcomes[0].Intents, r.Outcomes[0].Solved, r.Outcomes[0].Success = 2, 1, false
	r.Metrics = Summarize(r.Outcomes, []string{"gold", "weak"}, nil, 1)
	var b bytes.Buffer
	require.NoError(t, WriteMarkdown(&b, r))
	md := b.String()
	assert.Contains(t, md, "## Intents\n")
	// gold: 7 questions, 6 answered; 5 of 6 tasks solved.
	assert.Contains(t, md, "| gold | 6 | 7 | 83.3% | 85.7% |\n")
	assert.Contains(t, md, "| weak | 6 | 6 | 33.3% | 33.3% |\n")
}

func TestWriteMarkdownScenario(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteMarkdown(&b, fakeReport(t, true)))
	md := b.String()
	for _, want := range []string{
		"## Phases\n",
		"| Variant | Phase | Tasks | TCR |",
		"|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
		"| gold | baseline | 6 | 100.0% | 100.0% |",
		// Broken: one step, one LLM call, no tool call, no token.
		"| gold | faults | 6 | 0.0% | 0.0% | – | 1.00 | 0 | 0.00 | 0.00 |",
		"| weak | baseline | 6 | 66.7% | 33.3% |",
		"## Learning curve\n",
		"| Variant | Batch | Tasks |",
		// Twelve tasks in four batches of three: batches 1 and 2 are the baseline.
		"| gold | 1 | 3 | 100.0% | 100.0% |",
		"| gold | 3 | 3 | 0.0% | 0.0% |",
		"| weak | 2 | 3 | 66.7% | 33.3% |",
	} {
		assert.Contains(t, md, want)
	}
}

func TestWriteMarkdownPartial(t *testing.T) {
	r := fakeReport(t, false)
	r.Partial, r.Error = true, "bench: gold: context canceled"
	var b bytes.Buffer
	require.NoError(t, WriteMarkdown(&b, r))
	assert.Contains(t, b.String(), "- **Partial run**: bench: gold: context canceled\n")
}

func TestWriteJSONIsStableAndRoundTrips(t *testing.T) {
	r := fakeReport(t, true)
	var a, b bytes.Buffer
	require.NoError(t, WriteJSON(&a, r))
	require.NoError(t, WriteJSON(&b, r))
	assert.Equal(t, a.String(), b.String(), "the same report gives the same bytes")

	js := a.String()
	last := -1
	for _, key := range []string{`"seed"`, `"command"`, `"started"`, `"concurrency"`, `"batches"`, `"variants"`, `"phases"`, `"metrics"`, `"outcomes"`} {
		i := strings.Index(js, key)
		require.GreaterOrEqual(t, i, 0, key)
		assert.Greater(t, i, last, "%s in order", key)
		last = i
	}
	assert.Contains(t, js, `"group": "baseline"`)
	assert.Contains(t, js, `"tsr": 1,`)

	back, err := ReadJSON(&a)
	require.NoError(t, err)
	assert.Equal(t, r.Metrics, back.Metrics)
	assert.Equal(t, r.Variants, back.Variants)
	require.Len(t, back.Outcomes, len(r.Outcomes))
	assert.Equal(t, r.Outcomes[3].TaskID, back.Outcomes[3].TaskID)
	// The metrics can be recomputed from the outcomes of a saved report.
	assert.Equal(t, r.Metrics, Summarize(back.Outcomes, []string{"gold", "weak"}, []string{"baseline", "faults"}, 4))
}

func TestWriteResults(t *testing.T) {
	cases := []struct {
		name     string
		scenario bool
		row      string
		plots    []string
		absent   []string
	}{
		{"plain run", false, "| gold | 6 | 100.0% | 100.0% |", []string{PlotTSRByDifficulty}, []string{PlotLearningCurve, PlotFailureScenario}},
		{"phases and batches", true, "| gold | 12 | 50.0% | 50.0% |", []string{PlotTSRByDifficulty, PlotLearningCurve, PlotFailureScenario}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "results", "run1")
			r := fakeReport(t, c.scenario)
			require.NoError(t, WriteResults(dir, r))

			js, err := os.ReadFile(filepath.Join(dir, ReportJSON))
			require.NoError(t, err)
			back, err := ReadJSON(bytes.NewReader(js))
			require.NoError(t, err)
			assert.Equal(t, r.Metrics, back.Metrics)

			md, err := os.ReadFile(filepath.Join(dir, ReportMarkdown))
			require.NoError(t, err)
			assert.Contains(t, string(md), c.row)

			for _, name := range c.plots {
				f, err := os.Open(filepath.Join(dir, name))
				require.NoError(t, err, name)
				fi, err := f.Stat()
				require.NoError(t, err)
				assert.Positive(t, fi.Size(), name)
				img, err := png.Decode(f)
				f.Close()
				require.NoError(t, err, "%s is a valid PNG", name)
				assert.Positive(t, img.Bounds().Dx(), name)
				assert.Positive(t, img.Bounds().Dy(), name)
			}
			for _, name := range c.absent {
				assert.NoFileExists(t, filepath.Join(dir, name))
			}
		})
	}
}

// A run stopped before its first task (the catalog was not imported) still writes its
// reports, without a plot to draw.
func TestWriteResultsNoTasks(t *testing.T) {
	dir := t.TempDir()
	r := fakeReport(t, false)
	r.Partial, r.Error, r.Outcomes = true, "bench: the graph has no API of the toolworld catalog", nil
	r.Metrics = Summarize(nil, []string{"gold", "weak"}, nil, 1)
	require.NoError(t, WriteResults(dir, r))
	md, err := os.ReadFile(filepath.Join(dir, ReportMarkdown))
	require.NoError(t, err)
	assert.Contains(t, string(md), "- **Partial run**: bench: the graph has no API")
	assert.NoFileExists(t, filepath.Join(dir, PlotTSRByDifficulty))
}

func TestWriteResultsBadDir(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	err := WriteResults(filepath.Join(file, "sub"), fakeReport(t, false))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "write results")
}
