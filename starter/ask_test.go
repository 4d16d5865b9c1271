package main

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/workflows"
)

// TestAskAndShowThroughStackWorker drives `navi ask` and `navi show` against the test stack,
// whose worker is the real navi-worker process: the whole wiring from the command line through
// Temporal to the worker and Neo4j.
func TestAskAndShowThroughStackWorker(t *testing.T) {
	stacktest.Export(t, stacktest.EnvTemporalAddress, stacktest.EnvNamespace, stacktest.EnvTaskQueue, stacktest.EnvUI)
	id := stacktest.UniqueName("navi-cli-")

	var out bytes.Buffer
	require.NoError(t, ask([]string{"-id", id, "-json", "which restaurants are nearby?"}, &out))
	lines := strings.SplitN(out.String(), "\n", 3)
	require.Len(t, lines, 3, out.String())
	assert.Equal(t, "workflow  "+id, lines[0])
	assert.Equal(t, "ui        "+os.Getenv("NAVI_TEMPORAL_UI")+"/namespaces/default/workflows/"+id, lines[1])
	var res workflows.QueryResult
	require.NoError(t, json.Unmarshal([]byte(lines[2]), &res), lines[2])
	assert.Contains(t, []string{workflows.StatusAnswered, workflows.StatusNoTools}, res.Status)
	assert.Equal(t, workflows.PlannerGraphLookup, res.Planner)
	assert.Equal(t, 1, res.Steps)

	out.Reset()
	require.NoError(t, show([]string{id}, &out))
	assert.Regexp(t, regexp.MustCompile(`(?m)^status\s+Completed$`), out.String())
	assert.Regexp(t, regexp.MustCompile(`(?m)^\s+NaviStatus\s+`+res.Status+`$`), out.String())
	assert.Contains(t, out.String(), res.Answer)

	err := show([]string{stacktest.UniqueName("missing-")}, &out)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no workflow missing-")
}

func TestAskNeedsAQuery(t *testing.T) {
	err := ask(nil, &bytes.Buffer{})
	require.ErrorIs(t, err, errUsage)
}
