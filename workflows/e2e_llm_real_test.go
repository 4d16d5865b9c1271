//go:build llmreal

package workflows_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/converter"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/planner/llm"
	"github.com/naviagent/navi/workflows"
)

// TestAgentRealModelOnRealStack answers one query through the LLM planner with the real local
// model (make test-llm: make llm's model behind planner/llm/server, started with the test
// stack by navi dev up -llm local). Every step is the model's (no inertia); the history holds
// each decision with its tokens, and replays on this code.
func TestAgentRealModelOnRealStack(t *testing.T) {
	base, model := os.Getenv("NAVI_TEST_LLM_BASE_URL"), os.Getenv("NAVI_TEST_LLM_MODEL")
	require.NotEmpty(t, base, "NAVI_TEST_LLM_BASE_URL: run this test with make test-llm, which starts the local model")
	p, err := llm.New(llm.Config{BaseURL: base, Model: model, Timeout: 5 * time.Minute})
	require.NoError(t, err)
	a := startAgent(t, agentOptions{LLM: p})
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()

	run, res := a.ask(ctx, t, workflows.QueryRequest{Query: elevationQuery, Planner: contract.PlannerLLM, NoInertia: true})
	t.Logf("status %s, chain %v, %d decisions, usage %+v: %s", res.Status, res.Chain, res.Steps, res.Usage, res.Answer)
	require.Equal(t, workflows.StatusAnswered, res.Status, res.Answer)
	assert.Equal(t, []string{"geo.Elevation"}, []string(res.Chain))
	assert.Contains(t, res.Answer, "559", "the answer carries the tool's value")
	assert.Equal(t, "llm:"+model, res.Planner)
	assert.Zero(t, res.Usage.Invalid, "decoded under the schema, no answer stays invalid")
	assert.GreaterOrEqual(t, res.Usage.LLMCalls, res.Steps, "every step asked the model")

	// The history shows each of the model's decisions and what it cost.
	hist := history(ctx, t, a.c, run.GetID(), run.GetRunID())
	scheduled := map[int64]string{}
	var decided []planner.Result
	for _, e := range hist.GetEvents() {
		if s := e.GetActivityTaskScheduledEventAttributes(); s != nil {
			scheduled[e.GetEventId()] = s.GetActivityType().GetName()
		}
		if c := e.GetActivityTaskCompletedEventAttributes(); c != nil && strings.HasSuffix(scheduled[c.GetScheduledEventId()], "Decide") {
			var r planner.Result
			require.NoError(t, converter.GetDefaultDataConverter().FromPayloads(c.GetResult(), &r))
			decided = append(decided, r)
		}
	}
	require.Len(t, decided, res.Steps)
	for i, r := range decided {
		assert.Equal(t, "llm:"+model, r.Planner, "decision %d", i+1)
		assert.Positive(t, r.Usage.PromptTokens, "decision %d", i+1)
		assert.Positive(t, r.Usage.CompletionTokens, "decision %d", i+1)
		require.NotEmpty(t, r.Decisions, "decision %d", i+1)
	}
	replayAndRecord(t, hist, "query_llm_real")
}
