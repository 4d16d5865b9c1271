package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/research/agenteval"
)

// navi eval agent runs questions through the stack's real worker and judges what each run
// did: a request the tool world answers, one that must ask, and one no tool serves.
func TestEvalAgentThroughStackWorker(t *testing.T) {
	useStack(t)
	dir := t.TempDir()
	questions := filepath.Join(dir, "questions.jsonl")
	require.NoError(t, os.WriteFile(questions, []byte(
		`{"id":"wx","family":"weather","text":"What's the weather in Lyon right now?","chains":[["geo.Geocode|opengeo.Locate","weather.Current|skycast.Now"]]}
{"id":"ask","family":"ask","text":"What's the weather like?","asks":["weather.Current","skycast.Now","geo.Geocode","opengeo.Locate"]}
{"id":"wrong","family":"weather","text":"What's the weather in Lyon right now?","chains":[["homes.MarketStats"]]}
`), 0o644))
	var out, errOut bytes.Buffer
	// -reset=false: the other packages' tests share the stack's graph and its statistics.
	require.NoError(t, evalCmd([]string{"agent", "-questions", questions, "-out", dir, "-clarify-deadline", "1s", "-reset=false"}, streams{&out, &errOut}), errOut.String())
	assert.Contains(t, out.String(), "2 of 3 questions (66.7%) end as their user expects")

	js, err := os.ReadFile(filepath.Join(dir, agentJSONFile))
	require.NoError(t, err)
	var rep agenteval.Report
	require.NoError(t, json.Unmarshal(js, &rep))
	require.Len(t, rep.Results, 3)
	byID := map[string]agenteval.Result{}
	for _, r := range rep.Results {
		byID[r.Question.ID] = r
	}
	assert.True(t, byID["wx"].Verdict.Pass, byID["wx"].Verdict.Why)
	assert.Equal(t, agenteval.StatusAnswered, byID["wx"].Run.Status)
	assert.True(t, byID["ask"].Verdict.Pass, byID["ask"].Verdict.Why)
	assert.NotEmpty(t, byID["ask"].Run.Asked)
	assert.Empty(t, byID["ask"].Run.Chain, "nothing called before the question")
	assert.False(t, byID["wrong"].Verdict.Pass, "the same run judged against another chain")
	md, err := os.ReadFile(filepath.Join(dir, agentMarkdownFile))
	require.NoError(t, err)
	assert.Contains(t, string(md), "| wrong | What's the weather in Lyon right now? | homes.MarketStats | answered | fail: called ")
}

func TestEvalAgentUsage(t *testing.T) {
	for _, args := range [][]string{
		{"agent", "-concurrency", "0"},
		{"agent", "extra"},
	} {
		err := evalCmd(args, streams{&bytes.Buffer{}, &bytes.Buffer{}})
		require.ErrorIs(t, err, errUsage, "%v", args)
	}
	err := evalCmd([]string{"agent", "-questions", filepath.Join(t.TempDir(), "none.jsonl")}, streams{&bytes.Buffer{}, &bytes.Buffer{}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "questions: open")
}
