package workflows

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/worker"
)

// TestReplayRecordedHistories replays histories recorded from real runs (testdata/*.json) on
// the current workflow code: a change that would break running workflows fails here. Record a
// new set with `NAVI_RECORD_HISTORIES=$PWD/workflows/testdata make test` (the integration tests
// in e2e_test.go write query_v4_*.json to query_v10_*.json; query_v10_part_clarify asks inside
// one part of a compound request and binds the answer where it asked, query_v10_inertia takes
// its call and answer as inertial steps (NaviLLMSaved upserted); query_v9_navi_types and
// query_v9_recombine are runs of navi.QueryWorkflow whose activities fail with navi.-prefixed
// error types (a tool's navi.ToolUnavailable, retried, then recombined), query_v9_llm_array one
// whose LLM decision array ran two calls in one step; query_v8_navi_names
// schedules the activities under their navi.-prefixed names; query_v7_local_decide has the graph-first
// planner's decisions as local activities; query_v6_projected holds a decision
// the Decide activity replaced, query_v6_parallel a plan whose independent steps ran at once,
// and query_v5_*.json were recorded before the workflow took the activity's projection and ran
// independent steps at once; query_v3_*.json were recorded before tool calls
// retried in the workflow, query_v2_*.json before the input limits and query_v1.json before
// the planner loop (the graph-lookup slice): all must keep replaying through
// workflow.GetVersion).
func TestReplayRecordedHistories(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files, "no recorded histories in testdata")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := worker.NewWorkflowReplayer()
			RegisterReplay(r)
			require.NoError(t, r.ReplayWorkflowHistoryFromJSONFile(nil, f))
		})
	}
}
