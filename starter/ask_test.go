package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/converter"

	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/workflows"
)

// The integration tests below drive the navi commands against the test stack, whose worker is
// the real navi-worker process: the whole wiring from the command line through Temporal to the
// worker, Neo4j and the tool world. They force the graph-first planner so that they do not
// depend on an LLM.

// demoQuery is answered by the tool world's tools without a question.
const demoQuery = "What's the weather and the air quality in Lyon?"

var (
	loadToolWorld    sync.Once
	loadToolWorldErr error
)

// useStack points the commands at the test stack and loads the tool world's catalog.
func useStack(t *testing.T) {
	t.Helper()
	stacktest.Export(t, stacktest.EnvTemporalAddress, stacktest.EnvNamespace, stacktest.EnvTaskQueue, stacktest.EnvUI,
		stacktest.EnvNeo4jURI, stacktest.EnvNeo4jUser, stacktest.EnvNeo4jPassword)
	url := stacktest.Env(t, stacktest.EnvToolWorld) + "/catalog.json"
	loadToolWorld.Do(func() { loadToolWorldErr = tools([]string{"import", url}, streams{io.Discard, io.Discard}) })
	require.NoError(t, loadToolWorldErr)
}

// askJSON runs `navi ask -json` on the demo query and returns the run's ID and result.
func askJSON(t *testing.T, extra ...string) (string, workflows.QueryResult) {
	t.Helper()
	id := stacktest.UniqueName("navi-cli-")
	var out, errOut bytes.Buffer
	args := append([]string{"-id", id, "-json", "-planner", "graph-first", "-clarify-deadline", "1m", "-timeout", "3m"}, extra...)
	require.NoError(t, ask(append(args, demoQuery), streams{&out, &errOut}), errOut.String())
	assert.Equal(t, fmt.Sprintf("workflow  %s\nui        %s/namespaces/%s/workflows/%s\n",
		id, os.Getenv("NAVI_TEMPORAL_UI"), os.Getenv("NAVI_TEMPORAL_NAMESPACE"), id), errOut.String())
	var res workflows.QueryResult
	require.NoError(t, json.Unmarshal(out.Bytes(), &res), "stdout is one JSON result: %s", out.String())
	return id, res
}

func TestAskJSONAndShowThroughStackWorker(t *testing.T) {
	useStack(t)
	id, res := askJSON(t)
	assert.Equal(t, workflows.StatusAnswered, res.Status, res.Answer)
	assert.Equal(t, workflows.PlannerGraphFirst, res.Planner)
	assert.GreaterOrEqual(t, res.Steps, 1)
	assert.GreaterOrEqual(t, res.ToolCalls, 1)
	assert.NotEmpty(t, res.Chain)
	assert.NotEmpty(t, res.Answer)

	var out bytes.Buffer
	require.NoError(t, show([]string{id}, streams{&out, io.Discard}))
	text := out.String()
	assert.Regexp(t, regexp.MustCompile(`(?m)^status\s+Completed$`), text)
	assert.Regexp(t, regexp.MustCompile(`(?m)^\s+NaviStatus\s+`+res.Status+`$`), text)
	assert.Regexp(t, regexp.MustCompile(`(?m)^\s+NaviToolsUsed\s+\S`), text)
	assert.Regexp(t, regexp.MustCompile(`(?m)^  step \d+\s+\w+\s+[✓✗]  \S`), text, "the state's trace")
	assert.Regexp(t, regexp.MustCompile(`(?m)^planner\s+graph-first \(requested\)$`), text)
	assert.Contains(t, text, res.Answer)

	out.Reset()
	require.NoError(t, show([]string{id, "-json"}, streams{&out, io.Discard}))
	var v shown
	require.NoError(t, json.Unmarshal(out.Bytes(), &v), out.String())
	assert.Equal(t, id, v.WorkflowID)
	assert.Equal(t, "Completed", v.Status)
	require.NotNil(t, v.Result)
	assert.Equal(t, res, *v.Result)
	require.NotNil(t, v.State, "the state query answers for a closed run while the worker is up")
	assert.NotEmpty(t, v.State.Trace)
	require.NotNil(t, v.Request)
	assert.Equal(t, demoQuery, v.Request.Query)

	err := show([]string{stacktest.UniqueName("missing-")}, streams{&out, io.Discard})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no workflow missing-")
}

func TestListThroughStackWorker(t *testing.T) {
	useStack(t)
	id, res := askJSON(t)
	require.NotEmpty(t, res.Chain)
	args := []string{"-status", res.Status, "-planner", res.Planner, "-tool", res.Chain[0],
		"-query", "WorkflowId = '" + id + "'", "-limit", "5"}
	var out bytes.Buffer
	// Visibility is eventually consistent: the run's final search attributes show up shortly.
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		out.Reset()
		require.NoError(c, list(args, streams{&out, io.Discard}))
		assert.Contains(c, out.String(), id)
	}, 20*time.Second, 500*time.Millisecond)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 2, out.String())
	assert.Regexp(t, `^WORKFLOW ID\s+STATUS\s+STEPS\s+LLM CALLS\s+TOOLS USED\s+STARTED$`, lines[0])
	assert.Regexp(t, fmt.Sprintf(`^%s\s+%s\s+%d\s+0\s+.*%s`, id, res.Status, res.Steps, regexp.QuoteMeta(res.Chain[0])), lines[1])

	out.Reset()
	require.NoError(t, list([]string{"-status", "no-such-status"}, streams{&out, io.Discard}))
	assert.Equal(t, 1, strings.Count(out.String(), "\n"), "only the header: %s", out.String())
}

// A query with no location makes the graph-first planner ask; `navi ask` prints the question,
// `navi answer` answers it, and the run completes.
func TestAnswerThroughStackWorker(t *testing.T) {
	useStack(t)
	id := stacktest.UniqueName("navi-cli-")
	var out stacktest.SyncBuffer
	done := make(chan error, 1)
	go func() {
		done <- ask([]string{"-id", id, "-planner", "graph-first", "-clarify-deadline", "2m", "-timeout", "3m",
			"What is the weather right now?"}, streams{&out, &out})
	}()

	hint := fmt.Sprintf(`answer with: navi answer %s "<text>"`, id)
	require.Eventually(t, func() bool { return strings.Contains(out.String(), hint) }, time.Minute, 200*time.Millisecond,
		"ask prints the question: %s", out.String())
	m := regexp.MustCompile(`(?m)^question  (.+)$`).FindStringSubmatch(out.String())
	require.NotNil(t, m, out.String())
	question := m[1]

	var ans bytes.Buffer
	require.NoError(t, answer([]string{id, "Rome"}, streams{&ans, io.Discard}))
	assert.Contains(t, ans.String(), "answered  "+question+"\n")
	assert.Contains(t, ans.String(), "with      Rome\n")

	select {
	case err := <-done:
		require.NoError(t, err, out.String())
	case <-time.After(3 * time.Minute):
		t.Fatalf("the run did not complete after the answer: %s", out.String())
	}
	assert.Equal(t, 1, strings.Count(out.String(), hint), "the question is printed once: %s", out.String())
	assert.Regexp(t, regexp.MustCompile(`(?m)^status\s+answered$`), out.String())
	assert.Regexp(t, regexp.MustCompile(`(?m)^planner\s+graph-first \(requested\)$`), out.String())
	assert.Contains(t, out.String(), "rate      navi rate "+id+" good|bad", "the run answered from its tools: ask says how to judge it")

	// No question is pending any more.
	err := answer([]string{id, "Paris"}, streams{io.Discard, io.Discard})
	require.Error(t, err)
	assert.Contains(t, err.Error(), id)

	// ask waited on the run's QuestionUpdate (one that returned the question, one that saw the
	// end), not on polling its state.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	hist, err := fetchHistory(ctx, stacktest.TemporalClient(t), id, "")
	require.NoError(t, err)
	waits := 0
	for _, e := range hist.GetEvents() {
		if a := e.GetWorkflowExecutionUpdateAcceptedEventAttributes(); a != nil && a.GetAcceptedRequest().GetInput().GetName() == workflows.QuestionUpdate {
			waits++
		}
	}
	assert.GreaterOrEqual(t, waits, 2, "question updates accepted by the run")
}

func TestRerunThroughStackWorker(t *testing.T) {
	useStack(t)
	old, first := askJSON(t, "-max-steps", "8")

	var out, errOut bytes.Buffer
	require.NoError(t, rerun([]string{old, "-json", "-timeout", "3m"}, streams{&out, &errOut}), errOut.String())
	m := regexp.MustCompile(`^rerun of  (\S+)\nworkflow  (navi-rerun-\S+)\nui        (\S+)\n$`).FindStringSubmatch(errOut.String())
	require.NotNil(t, m, errOut.String())
	assert.Equal(t, old, m[1])
	id := m[2]
	assert.NotEqual(t, old, id)
	assert.True(t, strings.HasSuffix(m[3], "/workflows/"+id), m[3])
	var res workflows.QueryResult
	require.NoError(t, json.Unmarshal(out.Bytes(), &res), out.String())
	assert.Equal(t, first.Status, res.Status)

	c := stacktest.TemporalClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := startedRequest(ctx, c, converter.GetDefaultDataConverter(), id, "")
	require.NoError(t, err)
	assert.Equal(t, workflows.QueryRequest{Query: demoQuery, Planner: "graph-first", MaxSteps: 8,
		ClarifyDeadline: time.Minute, RerunOf: old}, req)
	st, err := queryState(ctx, c, id, 10*time.Second)
	require.NoError(t, err)
	assert.Equal(t, old, st.RerunOf)
}

func TestReplayThroughStackWorker(t *testing.T) {
	useStack(t)
	id, _ := askJSON(t)
	var out bytes.Buffer
	require.NoError(t, replay([]string{id}, streams{&out, io.Discard}))
	assert.Regexp(t, `^replay ok: \d+ events, deterministic\n$`, out.String())

	err := replay([]string{stacktest.UniqueName("missing-")}, streams{&out, io.Discard})
	require.ErrorContains(t, err, "no workflow missing-")
}

// TestDemoThroughStackWorker runs what `make run` runs: every demo query is answered, the
// clarification is answered for the user, and the broken tool is recombined away.
func TestDemoThroughStackWorker(t *testing.T) {
	useStack(t)
	stacktest.Export(t, stacktest.EnvToolWorld)
	var out bytes.Buffer
	require.NoError(t, demo(nil, streams{&out, io.Discard}))
	text := out.String()
	assert.Contains(t, text, fmt.Sprintf("%d of %d demo queries answered", len(demoScenarios), len(demoScenarios)), text)
	assert.Regexp(t, `(?s)clarify: .*question .*answer +"Rome".*status +answered`, text)
	// The recover query is the medium one again, with the tool that run started with down.
	medium := regexp.MustCompile(`(?s)medium: .*?status +answered · [^·]+ · (\S+) → homes\.MarketStats`).FindStringSubmatch(text)
	require.Len(t, medium, 2, text)
	assert.Regexp(t, `(?s)recover: .*fault +`+regexp.QuoteMeta(medium[1])+` is down.*status +answered .* 1 recombinations`, text)
	assert.Equal(t, len(demoScenarios), strings.Count(text, "/namespaces/default/workflows/navi-demo-"), "a UI link per query")
}

// `navi rate` after a run ended: a bad verdict takes back the successes the run counted (the
// target's failed calls grow by as many as its successes fall), a good one confirms them.
func TestRateThroughStackWorker(t *testing.T) {
	useStack(t)
	id, res := askJSON(t)
	require.NotEmpty(t, res.Chain)
	target := res.Chain[len(res.Chain)-1]
	store := stacktest.Store(t)
	calls := func() (success, failure int64) {
		g, err := store.Subgraph(context.Background(), []string{target}, neo4j.SubgraphOptions{Hops: 1, MaxAPIs: 1})
		require.NoError(t, err)
		n, ok := g.APIByName(target)
		require.True(t, ok)
		return g.Node(n).Success, g.Node(n).Failure
	}
	_, failedBefore := calls()
	var out bytes.Buffer
	require.NoError(t, rate([]string{id, "bad", "the answer was wrong"}, streams{&out, io.Discard}))
	assert.Regexp(t, `(?m)^rated\s+`+id+` bad: \d+ calls and \d+ data flows of 1 chain\(s\)`, out.String())
	_, failedAfter := calls()
	assert.GreaterOrEqual(t, failedAfter-failedBefore, int64(1), "the bad verdict failed %s's call", target)

	out.Reset()
	require.NoError(t, rate([]string{id, "good"}, streams{&out, io.Discard}))
	assert.Regexp(t, `(?m)^rated\s+`+id+` good: \d+ calls and \d+ data flows of 1 chain\(s\)`, out.String())
	_, failedGood := calls()
	assert.GreaterOrEqual(t, failedGood, failedAfter, "a good verdict takes no failure back")

	err := rate([]string{id, "meh"}, streams{io.Discard, io.Discard})
	assert.ErrorIs(t, err, errUsage)
}
