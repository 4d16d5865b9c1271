package workflows

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/worker"

	"github.com/naviagent/navi/contract"
)

// TestReplayRecordedHistories replays histories recorded from real runs (testdata/*.json) on
// the current workflow code: a change that would break running workflows fails here. Record a
// new set with `NAVI_RECORD_HISTORIES=$PWD/workflows/testdata make test` (the integration tests
// in e2e_*_test.go write them; copy only the new ones). query_v16_* are runs of the current
// type, navi.QueryWorkflowV2, after its second change (goals-on-rating: the served sub-goals a
// proposal, learned on a good verdict), query_v16_item_pick among them with an input bound from
// the item of a list its plan names, which needs no patch (docs/versioning.md); query_v15_* and query_v14_* are runs of that type after
// its first change (local-graph: at version 2 the worker's planner asked and the first decision
// local, at 1 retrieval and feedback as local activities), whose marker is the only one they
// record; query_v13_* are runs of that type from
// before it, which record no version marker; the others are runs of the first
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
			file, err := os.Open(f)
			require.NoError(t, err)
			defer file.Close()
			hist, err := client.HistoryFromJSON(file, client.HistoryJSONOptions{})
			require.NoError(t, err)
			r := worker.NewWorkflowReplayer()
			RegisterReplay(r)
			require.NoError(t, r.ReplayWorkflowHistory(nil, hist))
			AssertVersionMarkers(t, hist)
		})
	}
}

// AssertVersionMarkers checks the version markers (workflow.GetVersion's, which the SDK names
// "Version") of a history: in a run of the query workflow's current type, none of a change
// made before the type (it takes every one of them as made), only those made after it
// (changesAfterCurrentType); some in a run of any other type, which records the changes it
// reaches. Exported for the tests of package workflows_test.
func AssertVersionMarkers(t *testing.T, hist *historypb.History) {
	t.Helper()
	var changes []string
	for _, ev := range hist.GetEvents() {
		m := ev.GetMarkerRecordedEventAttributes()
		if m.GetMarkerName() != "Version" {
			continue
		}
		var change string
		require.NoError(t, converter.GetDefaultDataConverter().FromPayloads(m.GetDetails()["change-id"], &change))
		changes = append(changes, change)
	}
	typ := hist.GetEvents()[0].GetWorkflowExecutionStartedEventAttributes().GetWorkflowType().GetName()
	if typ == contract.Prefixed(contract.WorkflowQuery) {
		for _, c := range changes {
			assert.Contains(t, changesAfterCurrentType, c, "a run of the current type records no version marker of a change made before it")
		}
	} else {
		assert.NotEmpty(t, changes, "%s records its versions", typ)
	}
}

// changesAfterCurrentType are the changes made after the query workflow's current type,
// which its runs record as any run does.
var changesAfterCurrentType = []string{localGraphChange, goalsOnRatingChange}

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
