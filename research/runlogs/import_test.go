package runlogs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm/invlog"
)

// linkCount links every run and counts the inputs with provenance.
func linkCount(runs []invlog.Run) (events, links int) {
	for i := range runs {
		invlog.Link(&runs[i])
		for _, ev := range runs[i].Events {
			events++
			for _, v := range ev.Inputs {
				if v.From != nil {
					links++
				}
			}
		}
	}
	return events, links
}

func runByID(t *testing.T, runs []invlog.Run, id string) *invlog.Run {
	t.Helper()
	for i := range runs {
		if runs[i].ID == id {
			return &runs[i]
		}
	}
	t.Fatalf("run %s not found", id)
	return nil
}

func TestAPIBankDialogues(t *testing.T) {
	runs, err := APIBankDialogues("testdata/api-bank/lv1-lv2-samples")
	require.NoError(t, err)
	ids := make([]string, len(runs))
	for i, r := range runs {
		ids[i] = r.ID
	}
	assert.Equal(t, []string{
		"level-1-given-desc/AddAgenda-AddAlarm-GetUserToken-level-2-1",
		"level-1-given-desc/BookHotel-level-1-1",
		"level-1-given-desc/ForgotPassword-level-1-1",
		"level-1-given-desc/QueryRegistration-AppointmentRegistration-level-2-1",
		"level-1-given-desc/SearchEngine-level-1-1", // an empty file in the source
		"level-2-toolsearcher/AddAgenda-level-3-1",
	}, ids)
	events, links := linkCount(runs)
	assert.Equal(t, 10, events)
	assert.Equal(t, 5, links)

	// Hand-checked: the token from GetUserToken feeds AddAgenda and AddAlarm.
	r := runByID(t, runs, "level-1-given-desc/AddAgenda-AddAlarm-GetUserToken-level-2-1")
	assert.Equal(t, `Can you add a schedule for me at 2pm on September 12th called "Meeting with John" at the office?`, r.Query)
	require.Len(t, r.Events, 3)
	assert.Equal(t, []invlog.Value{{Param: "token", Value: "o8i7u6y5t4r3e2w1q0"}}, r.Events[0].Outputs)
	assert.Equal(t, []invlog.Value{{Param: "output", Value: "success"}}, r.Events[1].Outputs)
	for _, ev := range r.Events {
		assert.True(t, ev.Success)
		assert.False(t, ev.Truncated || ev.Uncertain)
	}
	assert.Equal(t, []invlog.Transition{
		{Kind: invlog.Then, From: "GetUserToken", To: "AddAgenda", FromSeq: 0, ToSeq: 1, Success: true},
		{Kind: invlog.Feeds, From: "GetUserToken", To: "AddAgenda", FromParam: "token", ToParam: "token", FromSeq: 0, ToSeq: 1, Success: true},
		{Kind: invlog.Then, From: "GetUserToken", To: "AddAlarm", FromSeq: 0, ToSeq: 2, Success: true},
		{Kind: invlog.Feeds, From: "GetUserToken", To: "AddAlarm", FromParam: "token", ToParam: "token", FromSeq: 0, ToSeq: 2, Success: true},
	}, invlog.Transitions(r))

	// ToolSearcher is dropped; the events are renumbered.
	r = runByID(t, runs, "level-2-toolsearcher/AddAgenda-level-3-1")
	require.Len(t, r.Events, 2)
	assert.Equal(t, "GetUserToken", r.Events[0].API)
	assert.Equal(t, &invlog.Provenance{Seq: 0, API: "GetUserToken", Param: "token"}, r.Events[1].Inputs[0].From)

	// A scalar output becomes param "output"; the verification code the API returned as a
	// number comes back as a string and is still linked.
	r = runByID(t, runs, "level-1-given-desc/ForgotPassword-level-1-1")
	assert.Equal(t, []invlog.Value{{Param: "output", Value: "970420"}}, r.Events[0].Outputs)
	assert.Equal(t, "verification_code", r.Events[1].Inputs[2].Param)
	assert.Equal(t, &invlog.Provenance{Seq: 0, API: "ForgotPassword", Param: "output"}, r.Events[1].Inputs[2].From)

	// Inputs are result.input, typed as executed ("1" in param_dict, 1 in result.input).
	r = runByID(t, runs, "level-1-given-desc/BookHotel-level-1-1")
	assert.Equal(t, invlog.Value{Param: "room_count", Value: "1"}, r.Events[0].Inputs[3])

	// An output keyed by appointment id; the doctor's name is a leaf of it. The patient's
	// name is an echo of QueryRegistration's own input and is not linked.
	r = runByID(t, runs, "level-1-given-desc/QueryRegistration-AppointmentRegistration-level-2-1")
	assert.Equal(t, []invlog.Value{{Param: "12345678", Value: `{"date":"2023-04-12","doctor_name":"Dr. Smith","patient_name":"John Doe"}`}}, r.Events[0].Outputs)
	assert.Nil(t, r.Events[1].Inputs[0].From)
	assert.Equal(t, &invlog.Provenance{Seq: 0, API: "QueryRegistration", Param: "12345678", Path: "doctor_name"}, r.Events[1].Inputs[2].From)

	r = runByID(t, runs, "level-1-given-desc/SearchEngine-level-1-1")
	assert.Empty(t, r.Events)
	assert.Empty(t, r.Query)
}

func TestAPIBankLevel3(t *testing.T) {
	runs, err := APIBankLevel3("testdata/api-bank/test-data/level-3.json")
	require.NoError(t, err)
	require.Len(t, runs, 6)
	events, links := linkCount(runs)
	assert.Equal(t, 16, events)
	assert.Equal(t, 12, links)

	r := runs[0]
	assert.Equal(t, "level-3/0", r.ID)
	assert.Equal(t, "Query meeting of John and send email reminder to john@example.com.", r.Query)
	apis := []string{}
	for _, ev := range r.Events {
		apis = append(apis, ev.API)
	}
	assert.Equal(t, []string{"QueryMeeting", "EmailReminder", "EmailReminder"}, apis, "ToolSearcher dropped")
	// Hand-checked: the second meeting's time and room feed the second reminder.
	assert.Equal(t, &invlog.Provenance{Seq: 0, API: "QueryMeeting", Param: "meetings", Path: "[1].meeting_time"}, r.Events[2].Inputs[1].From)
	assert.Equal(t, &invlog.Provenance{Seq: 0, API: "QueryMeeting", Param: "meetings", Path: "[1].meeting_location"}, r.Events[2].Inputs[2].From)

	// Small integer ids are linked: UserPosts → LikeCount.post_id.
	r = runs[3]
	require.Len(t, r.Events, 5)
	assert.Equal(t, invlog.Value{Param: "post_id", Value: "5", From: &invlog.Provenance{Seq: 0, API: "UserPosts", Param: "post_ids", Path: "[1]"}}, r.Events[2].Inputs[0])
	assert.Equal(t, []invlog.Value{{Param: "output", Value: "150.0"}}, r.Events[4].Outputs)

	// Geocoding feeds NearbyRestaurants; 74.006 and "74.0060" are one number.
	r = runs[2]
	assert.Equal(t, &invlog.Provenance{Seq: 0, API: "Geocoding", Param: "longitude"}, r.Events[1].Inputs[1].From)
}

func TestToolBench(t *testing.T) {
	files, err := filepath.Glob("testdata/toolbench/G*.json")
	require.NoError(t, err)
	require.Len(t, files, 3)
	var all []invlog.Run
	for _, f := range files {
		runs, err := ToolBench(f)
		require.NoError(t, err, f)
		all = append(all, runs...)
	}
	require.Len(t, all, 5)
	events, links := linkCount(all)
	assert.Equal(t, 14, events)
	// The files keep 100 characters per message: responses are cut before any output a
	// later call could use, so no data flow is visible.
	assert.Zero(t, links)

	r := runByID(t, all, "G1_instruction/42700")
	assert.Contains(t, r.Query, "VIN 'WBAWY32040L678750'")
	require.Len(t, r.Events, 3, "Finish skipped")
	ev := r.Events[1]
	assert.Equal(t, "vin_decode_for_vin_decoder_v4", ev.API)
	assert.Equal(t, []invlog.Value{{Param: "vin", Value: "WVWZZZAUZGW001953"}}, ev.Inputs)
	assert.True(t, ev.Truncated)
	assert.True(t, ev.Uncertain, "cut before the response")
	assert.True(t, ev.Success)

	// A message complete within 100 characters: a success with nothing truncated.
	r = runByID(t, all, "G1_category/58603")
	require.Len(t, r.Events, 3)
	assert.Equal(t, invlog.Event{RunID: r.ID, Seq: 0, API: "checkhealth_for_squake", Success: true}, r.Events[0])
	assert.True(t, r.Events[1].Truncated)
	assert.False(t, r.Events[1].Uncertain, `"error": "" is visible`)
	assert.Empty(t, r.Events[1].Outputs, `the API answered ""`)

	// A visible failure; the hallucinated function call is skipped.
	r = runByID(t, all, "G2_category/43579")
	require.Len(t, r.Events, 3)
	assert.Equal(t, "countrylist_for_arabiccountrylist", r.Events[0].API)
	assert.False(t, r.Events[0].Success)
	assert.False(t, r.Events[0].Uncertain)
	assert.Equal(t, "Timeout err…", r.Events[0].Error)
	assert.Equal(t, []invlog.Value{{Param: "keyword", Value: "Arabic-speaking countries"}}, r.Events[1].Inputs)
	for _, ev := range r.Events {
		assert.NotEqual(t, hallucinatedTool, ev.API)
	}
}

// TestRealData runs the importers on the full datasets when /work/shared is there (it is not in
// CI); the figures are those reported for the graph's behavioural edges.
func TestRealData(t *testing.T) {
	const root = "/work/shared/data"
	if _, err := os.Stat(root); err != nil {
		t.Skip("shared data not present:", err)
	}
	t.Run("api-bank dialogues", func(t *testing.T) {
		runs, err := APIBankDialogues(filepath.Join(root, "api-bank/lv1-lv2-samples"))
		require.NoError(t, err)
		events, links := linkCount(runs)
		assert.Equal(t, 264, len(runs))
		assert.Equal(t, 463, events) // 508 API turns less 45 ToolSearcher calls
		assert.Equal(t, 118, links)
	})
	t.Run("api-bank level-3", func(t *testing.T) {
		runs, err := APIBankLevel3(filepath.Join(root, "api-bank/test-data/level-3.json"))
		require.NoError(t, err)
		events, links := linkCount(runs)
		assert.Equal(t, 50, len(runs))
		assert.Equal(t, 131, events)
		assert.Equal(t, 84, links)
	})
	t.Run("toolbench", func(t *testing.T) {
		files, err := filepath.Glob(filepath.Join(root, "toolbench/tooleval_default_evalset_gpt-3.5-turbo_CoT/G*.json"))
		require.NoError(t, err)
		require.Len(t, files, 6)
		var runs []invlog.Run
		for _, f := range files {
			r, err := ToolBench(f)
			require.NoError(t, err)
			runs = append(runs, r...)
		}
		events, links := linkCount(runs)
		var failed, uncertain int
		for _, r := range runs {
			for _, ev := range r.Events {
				if ev.Uncertain {
					uncertain++
				} else if !ev.Success {
					failed++
				}
			}
		}
		assert.Equal(t, 600, len(runs))
		assert.Equal(t, 2310, events)
		assert.Equal(t, 0, links)
		assert.Equal(t, 182, failed)
		assert.Equal(t, 1548, uncertain)
	})
}

// TestImportErrors checks that malformed input gives an error naming the file, the line or
// record, and the field, and never a panic.
func TestImportErrors(t *testing.T) {
	write := func(t *testing.T, dir, name, content string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		return p
	}
	const userLine = `{"role": "User", "text": "hi"}` + "\n"
	dialogues := []struct {
		name    string
		content string
		want    []string
	}{
		{"bad JSON", userLine + `{"role": "API", "api_name": `, []string{"d.jsonl", "line 2", "invalid JSON"}},
		{"no api_name", userLine + `{"role": "API", "result": {}}`, []string{"line 2", "api_name"}},
		{"no result", `{"role": "API", "api_name": "X", "param_dict": {}}`, []string{"line 1", "API X", "field result"}},
		{"param_dict not object", `{"role": "API", "api_name": "X", "param_dict": [1], "result": {"output": 1, "exception": null}}`,
			[]string{"line 1", "field param_dict", "want an object, got a list"}},
		{"text not string", `{"role": "User", "text": 5}`, []string{"line 1", "text"}},
	}
	for _, tt := range dialogues {
		t.Run("dialogue "+tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, "lvl/d.jsonl", tt.content)
			_, err := APIBankDialogues(dir)
			require.Error(t, err)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
	t.Run("dialogue dir missing", func(t *testing.T) {
		_, err := APIBankDialogues(filepath.Join(t.TempDir(), "nope"))
		require.Error(t, err)
	})
	t.Run("dialogue dir empty", func(t *testing.T) {
		_, err := APIBankDialogues(t.TempDir())
		require.ErrorContains(t, err, "no .jsonl files")
	})

	level3 := []struct {
		name    string
		content string
		want    []string
	}{
		{"not a list", `{"requirement": "x"}`, []string{"l3.json", "want a list"}},
		{"truncated", `[{"requirement": "x", "apis": [`, []string{"l3.json", "invalid JSON"}},
		{"no api_name", `[{"requirement": "x", "apis": []}, {"requirement": "y", "apis": [{"input": {}}]}]`,
			[]string{"l3.json", "record 1", "apis[0]", "api_name"}},
		{"input not object", `[{"requirement": "x", "apis": [{"api_name": "A", "input": "s", "output": null}]}]`,
			[]string{"record 0", "apis[0] (A)", "field input", "a string"}},
		{"apis not list", `[{"requirement": "x", "apis": {}}]`, []string{"record 0", "apis"}},
	}
	for _, tt := range level3 {
		t.Run("level3 "+tt.name, func(t *testing.T) {
			p := write(t, t.TempDir(), "l3.json", tt.content)
			_, err := APIBankLevel3(p)
			require.Error(t, err)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}

	toolbench := []struct {
		name    string
		content string
		want    []string
	}{
		{"not an object", `[1]`, []string{"tb.json", "want an object"}},
		{"record not object", `{"7": 5}`, []string{"tb.json", `record "7"`}},
		{"bad tree", `{"7": {"query": "q", "answer": {"answer_details": [{"role": "tool", "message": 3}]}}}`,
			[]string{`record "7"`, "message"}},
		{"message not a dict", `{"7": {"query": "q", "answer": {"answer_details": [{"role": "system", "message": "", "next": [{"role": "tool", "message": "oops"}]}]}}}`,
			[]string{`record "7"`, "answer.answer_details[0].next[0].message", "Python dict"}},
		{"no name", `{"7": {"query": "q", "answer": {"answer_details": [{"role": "tool", "message": "{'arguments': '{}'}"}]}}}`,
			[]string{`record "7"`, "field name"}},
	}
	for _, tt := range toolbench {
		t.Run("toolbench "+tt.name, func(t *testing.T) {
			p := write(t, t.TempDir(), "tb.json", tt.content)
			_, err := ToolBench(p)
			require.Error(t, err)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
	t.Run("missing files", func(t *testing.T) {
		_, err := ToolBench("testdata/none.json")
		require.ErrorContains(t, err, "none.json")
		_, err = APIBankLevel3("testdata/none.json")
		require.ErrorContains(t, err, "none.json")
	})
}
