package workflows_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/mcptool"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/planner/llm"
	"github.com/naviagent/navi/planner/llm/llmtest"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/workflows"
)

// TestAgentCallsAnMCPTool imports the get-sum tool of the reference MCP server
// (@modelcontextprotocol/server-everything, over stdio, as make mcp-servers installs it)
// into the real Neo4j, and a run retrieves and calls it: the call goes through the CallTool
// activity to the server, and the activity's summary names the tool.
func TestAgentCallsAnMCPTool(t *testing.T) {
	bin, err := filepath.Abs("../mcptool/testdata/server/node_modules/.bin/mcp-server-everything")
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	full, err := mcptool.Import(ctx, mcptool.StdioPrefix+bin)
	require.NoError(t, err, "the test MCP server is not installed: run make mcp-servers")
	var sum twnm.API
	for _, a := range full.APIs {
		if strings.HasSuffix(a.Name, ".get-sum") {
			sum = a
		}
	}
	require.NotEmpty(t, sum.Name)
	// Only that tool, under a catalog of this test's own, removed afterwards: the shared store
	// serves other tests at the same time.
	cat := twnm.Catalog{Name: "mcp-e2e-" + strings.ToLower(strings.ReplaceAll(t.Name(), "/", "-")), APIs: []twnm.API{sum}}

	pool := &mcptool.Pool{}
	defer pool.Close()
	srv := llmtest.New(t, func(req llmtest.Request) llmtest.Response {
		switch {
		case !strings.Contains(req.System(), sum.Name):
			return llmtest.Answer(planner.Decision{DependencyRank: 1, Action: planner.RetrieveAPI,
				RecallDescription: "SumAPI(description: returns the sum of two numbers, input: a:number, b:number)"})
		case !strings.Contains(req.User(), "completed"):
			return llmtest.Answer(planner.Decision{DependencyRank: 1, Action: planner.CallAPI, TargetAPI: sum.Name,
				Params: map[string]string{"a": "2", "b": "3.5"}})
		}
		return llmtest.Answer(planner.Decision{DependencyRank: 1, Action: planner.DirectAnswer, Answer: "2 and 3.5 make 5.5."})
	})
	p, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "scripted"})
	require.NoError(t, err)
	a := startAgent(t, agentOptions{LLM: p, MCP: pool})
	_, err = a.store.LoadCatalogWith(ctx, cat, neo4j.ImportOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { _, _ = a.store.DeleteCatalog(context.Background(), cat.Name) })

	run, res := a.ask(ctx, t, workflows.QueryRequest{Query: "What is the sum of 2 and 3.5?"})
	require.Equal(t, workflows.StatusAnswered, res.Status, res.Answer)
	assert.Equal(t, []string{sum.Name}, res.Chain)
	var called string
	for _, e := range history(ctx, t, a.c, run.GetID(), run.GetRunID()).GetEvents() {
		if attrs := e.GetActivityTaskScheduledEventAttributes(); attrs.GetActivityType().GetName() == "CallTool" {
			called = e.GetUserMetadata().GetSummary().String()
		}
	}
	assert.Contains(t, called, sum.Name, "the UI's summary of the call names the MCP tool")
	v, err := a.c.QueryWorkflow(ctx, run.GetID(), run.GetRunID(), workflows.StateQuery)
	require.NoError(t, err)
	var st workflows.QueryState
	require.NoError(t, v.Get(&st))
	var trace []string
	for _, e := range st.Trace {
		if e.Kind == workflows.TraceCall {
			trace = append(trace, e.Summary)
		}
	}
	assert.Contains(t, strings.Join(trace, "\n"), "5.5", "the server's answer reached the run")
}
