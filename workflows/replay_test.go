package workflows

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/worker"

	"github.com/naviagent/navi/contract"
)

// TestReplayRecordedHistories replays histories recorded from real runs (testdata/*.json) on
// the current workflow code: a change that would break running workflows fails here. Record a
// new set with `NAVI_RECORD_HISTORIES=$PWD/workflows/testdata make test` (the integration tests
// in e2e_*_test.go write them; copy only the new ones). query_v13_* are runs of the current
// type, navi.QueryWorkflowV2, which record no version marker; the others are runs of the first
// type, navi.QueryWorkflow or QueryWorkflow, each from before a change it replays through
// (workflow.GetVersion): query_v12_confirm before none; query_v11_refused before confirmations;
// query_v10_* before the refused-value question; query_v9_* (navi.-prefixed error types, an LLM
// decision array) and query_v8_navi_names (prefixed activity names) before the latest reading of
// values; query_v7_local_decide before outputs bound by path; query_v6_* (a projected decision,
// parallel steps) before local decisions; query_v5_* before the activity's projection and
// parallel steps; query_v3_* before tool calls retried in the workflow; query_v2_* before the
// input limits. Histories of retired changes are in testdata/retired.
func TestReplayRecordedHistories(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files, "no recorded histories in testdata")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := worker.NewWorkflowReplayer()
			RegisterReplay(r)
			require.NoError(t, r.ReplayWorkflowHistoryFromJSONFile(nil, f))
			typ, markers := historyMarkers(t, f)
			if typ == contract.Prefixed(contract.WorkflowQuery) {
				assert.Zero(t, markers, "a run of the current type records no version marker")
			} else {
				assert.NotZero(t, markers, "%s records its versions", typ)
			}
		})
	}
}

// historyMarkers reads a recorded history's workflow type and how many version markers
// (workflow.GetVersion's, named "Version") it holds.
func historyMarkers(t *testing.T, file string) (typ string, markers int) {
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	var h struct {
		Events []struct {
			Started *struct {
				WorkflowType struct{ Name string } `json:"workflowType"`
			} `json:"workflowExecutionStartedEventAttributes"`
			Marker *struct{ MarkerName string } `json:"markerRecordedEventAttributes"`
		} `json:"events"`
	}
	require.NoError(t, json.Unmarshal(b, &h))
	for _, ev := range h.Events {
		if ev.Started != nil {
			typ = ev.Started.WorkflowType.Name
		}
		if ev.Marker != nil && ev.Marker.MarkerName == "Version" {
			markers++
		}
	}
	return typ, markers
}

// TestRetiredHistoriesFail replays the histories of retired changes (testdata/retired, whose
// README says why each is there): each fails at the retired change's version, not elsewhere.
func TestRetiredHistoriesFail(t *testing.T) {
	retired := map[string]string{"query_v1.json": agentLoopChange}
	files, err := filepath.Glob("testdata/retired/*.json")
	require.NoError(t, err)
	require.Len(t, files, len(retired), "each retired history is listed here and in testdata/retired/README.md")
	readme, err := os.ReadFile("testdata/retired/README.md")
	require.NoError(t, err)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			change, ok := retired[filepath.Base(f)]
			require.True(t, ok, "a retired history names its change")
			assert.Contains(t, string(readme), "`"+filepath.Base(f)+"`")
			r := worker.NewWorkflowReplayer()
			RegisterReplay(r)
			err := r.ReplayWorkflowHistoryFromJSONFile(nil, f)
			require.Error(t, err)
			assert.Contains(t, err.Error(), change)
			assert.Contains(t, err.Error(), "version")
		})
	}
}
