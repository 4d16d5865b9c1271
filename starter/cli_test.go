package main

import (
	"bytes"
	"flag"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/workflow"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/codec"
	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/workflows"
)

func TestListQuery(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    listFilter
		want string
	}{
		{"no filter", listFilter{}, "WorkflowType IN ('navi.QueryWorkflowV2', 'navi.QueryWorkflow', 'QueryWorkflow')"},
		{"status", listFilter{Status: workflows.StatusWaiting},
			"WorkflowType IN ('navi.QueryWorkflowV2', 'navi.QueryWorkflow', 'QueryWorkflow') AND NaviStatus = 'waiting_for_user'"},
		{"all flags", listFilter{Status: "answered", Planner: "graph-first", Tool: "geo.Geocode", Raw: "NaviSteps > 3 OR NaviLLMCalls > 0"},
			"WorkflowType IN ('navi.QueryWorkflowV2', 'navi.QueryWorkflow', 'QueryWorkflow') AND NaviStatus = 'answered' AND NaviPlanner = 'graph-first' AND " +
				"NaviToolsUsed = 'geo.Geocode' AND (NaviSteps > 3 OR NaviLLMCalls > 0)"},
		{"quotes and backslashes are escaped", listFilter{Tool: `it's\x`},
			`WorkflowType IN ('navi.QueryWorkflowV2', 'navi.QueryWorkflow', 'QueryWorkflow') AND NaviToolsUsed = 'it\'s\\x'`},
		{"blank raw query is dropped", listFilter{Planner: "llm:gpt-4o-mini", Raw: "  "},
			"WorkflowType IN ('navi.QueryWorkflowV2', 'navi.QueryWorkflow', 'QueryWorkflow') AND NaviPlanner = 'llm:gpt-4o-mini'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, listQuery(tc.f))
		})
	}
}

func searchAttrs(t *testing.T, kv map[string]any) *commonpb.SearchAttributes {
	t.Helper()
	fields := map[string]*commonpb.Payload{}
	for k, v := range kv {
		p, err := converter.GetDefaultDataConverter().ToPayload(v)
		require.NoError(t, err)
		fields[k] = p
	}
	return &commonpb.SearchAttributes{IndexedFields: fields}
}

func TestListRow(t *testing.T) {
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		status enumspb.WorkflowExecutionStatus
		attrs  map[string]any
		want   []string
	}{
		{"answered", enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED,
			map[string]any{"NaviStatus": "answered", "NaviSteps": 3, "NaviLLMCalls": 0, "NaviToolsUsed": []string{"geo.Geocode", "weather.Current"}, "Other": "x"},
			[]string{"w1", "answered", "3", "0", "geo.Geocode, weather.Current", localTime(start)}},
		{"waiting, nothing called yet", enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING,
			map[string]any{"NaviStatus": "waiting_for_user", "NaviSteps": 1},
			[]string{"w1", "waiting_for_user", "1", "-", "-", localTime(start)}},
		{"terminated shows Temporal's status", enumspb.WORKFLOW_EXECUTION_STATUS_TERMINATED,
			map[string]any{"NaviStatus": "running"},
			[]string{"w1", "terminated", "-", "-", "-", localTime(start)}},
		{"no attributes yet", enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING, nil,
			[]string{"w1", "running", "-", "-", "-", localTime(start)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			info := &workflowpb.WorkflowExecutionInfo{
				Execution:        &commonpb.WorkflowExecution{WorkflowId: "w1"},
				Status:           tc.status,
				StartTime:        timestamppb.New(start),
				SearchAttributes: searchAttrs(t, tc.attrs),
			}
			assert.Equal(t, tc.want, listRow(info))
		})
	}
}

func TestTraceLine(t *testing.T) {
	for _, tc := range []struct {
		e    workflows.TraceEntry
		want string
	}{
		{workflows.TraceEntry{Step: 1, Kind: workflows.TraceDecide, OK: true, Summary: "call_api geo.Geocode"},
			"  step 1   decide     ✓  call_api geo.Geocode"},
		{workflows.TraceEntry{Step: 12, Kind: workflows.TraceRecombine, Summary: "no substitute for weather.Current"},
			"  step 12  recombine  ✗  no substitute for weather.Current"},
	} {
		assert.Equal(t, tc.want, traceLine(tc.e))
	}
}

func TestBindingString(t *testing.T) {
	for _, tc := range []struct {
		b    planner.Binding
		want string
	}{
		{planner.Binding{Param: "city", Source: planner.SourceGiven, Value: "Rome"}, `city="Rome"`},
		{planner.Binding{Param: "latitude", Source: planner.SourceUpstream, FromAPI: "geo.Geocode", FromOutput: "lat"}, "latitude←geo.Geocode.lat"},
		{planner.Binding{Param: "latitude", Source: planner.SourceUpstream, FromAPI: "geo.Geocode", FromOutput: "lat", Predicted: 0.912},
			"latitude←geo.Geocode.lat via a predicted link, p = 0.91"},
		{planner.Binding{Param: "ChannelSid", Source: planner.SourceUpstream, FromAPI: "chat.ListChannel", FromOutput: "channels[].sid", Item: "Board Prep"},
			`ChannelSid←chat.ListChannel.channels[].sid of "Board Prep"`},
		{planner.Binding{Param: "city", Source: planner.SourceMissing}, "city=?"},
	} {
		assert.Equal(t, tc.want, bindingString(tc.b))
	}
}

func TestPlannerLabel(t *testing.T) {
	for _, tc := range []struct{ planner, requested, want string }{
		{"graph-first", "", "graph-first (no LLM configured)"},
		{"graph-first", "graph-first", "graph-first (requested)"},
		{"llm:gpt-4o-mini", "", "llm:gpt-4o-mini"},
		{"llm:gpt-4o-mini", "llm", "llm:gpt-4o-mini"},
	} {
		assert.Equal(t, tc.want, plannerLabel(tc.planner, tc.requested), "%s/%s", tc.planner, tc.requested)
	}
}

func TestPrintState(t *testing.T) {
	deadline := time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)
	st := workflows.QueryState{
		Query: "What is the weather right now?", Status: workflows.StatusWaiting, Planner: "graph-first",
		Step: 2, MaxSteps: 12, Question: "Which city?", Deadline: deadline,
		Plan: &planner.Plan{Target: "weather.Current", Score: 0.875, Steps: []planner.PlanStep{
			{API: "geo.Geocode", Bindings: []planner.Binding{{Param: "city", Required: true, Source: planner.SourceMissing}}},
			{API: "weather.Current", Bindings: []planner.Binding{
				{Param: "latitude", Source: planner.SourceUpstream, FromAPI: "geo.Geocode", FromOutput: "latitude"},
				{Param: "units", Source: planner.SourceGiven, Value: "metric"},
				{Param: "lang", Source: planner.SourceUnbound},
			}},
		}},
		Bindings:   map[string]string{"units": "metric", "geo.Geocode.country": "IT"},
		Candidates: []string{"weather.Current", "weather.Forecast"},
		SubGoals: []activities.SubGoal{
			{Text: "the weather right now", Top: []string{"weather.Current", "skycast.Now"}, Relevant: true},
			{Text: "tell me a joke", Relevant: false},
			{Text: "What is the weather right now?", Whole: true, Top: []string{"weather.Current"}, Relevant: true},
		},
		Final:   "weather.Current",
		Usage:   planner.Usage{LLMCalls: 1, PromptTokens: 100, CompletionTokens: 20},
		RerunOf: "navi-old",
		Trace: []workflows.TraceEntry{
			{Step: 1, Kind: workflows.TraceRetrieve, OK: true, Summary: "2 candidates"},
			{Step: 2, Kind: workflows.TraceClarify, OK: true, Summary: "asked: Which city?"},
		},
	}
	want := strings.Join([]string{
		"query     What is the weather right now?",
		"state     waiting_for_user, step 2 of 12",
		"planner   graph-first (no LLM configured)",
		"rerun of  navi-old",
		"trace",
		"  step 1   retrieve   ✓  2 candidates",
		"  step 2   clarify    ✓  asked: Which city?",
		"",
		"question  Which city?",
		"          (the run waits until " + localTime(deadline) + ")",
		`          answer with: navi answer w1 "<text>"`,
		"bindings",
		"  geo.Geocode.country = IT",
		"  units = metric",
		"plan      weather.Current (score 0.88)",
		"  1. geo.Geocode(city=?)",
		`  2. weather.Current(latitude←geo.Geocode.latitude, units="metric", lang=–)`,
		"sub-goals (what retrieval searched for, and its best tools)",
		`  "the weather right now" → weather.Current, skycast.Now`,
		`  "tell me a joke" → no relevant tool`,
		"  the whole request → weather.Current",
		"final step weather.Current",
		"candidates weather.Current, weather.Forecast",
		"tools     0 call(s)",
		"llm       1 call(s), 120 tokens (100 prompt, 20 completion)",
		"",
	}, "\n")
	var b bytes.Buffer
	printState(&b, "w1", st, "")
	assert.Equal(t, want, b.String())
}

func TestPrintResult(t *testing.T) {
	res := workflows.QueryResult{
		Status: workflows.StatusAnswered, Planner: "graph-first", Answer: "It is 21°C in Lyon.",
		Chain: []string{"geo.Geocode", "weather.Current"}, Steps: 3, ToolCalls: 2, Recombinations: 1,
	}
	want := strings.Join([]string{
		"status    answered",
		"planner   graph-first (requested)",
		"chain     geo.Geocode → weather.Current",
		"steps     3",
		"tools     2 call(s), 1 recombination(s)",
		"llm       0 call(s), 0 tokens (0 prompt, 0 completion)",
		"",
		"It is 21°C in Lyon.",
		"",
	}, "\n")
	var b bytes.Buffer
	printResult(&b, res, "graph-first")
	assert.Equal(t, want, b.String())
}

// startedEvent is the first event of a run started with input.
func startedEvent(t *testing.T, workflowType string, input ...any) *historypb.HistoryEvent {
	t.Helper()
	payloads, err := converter.GetDefaultDataConverter().ToPayloads(input...)
	require.NoError(t, err)
	return &historypb.HistoryEvent{
		EventId:   1,
		EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED,
		Attributes: &historypb.HistoryEvent_WorkflowExecutionStartedEventAttributes{WorkflowExecutionStartedEventAttributes: &historypb.WorkflowExecutionStartedEventAttributes{
			WorkflowType: &commonpb.WorkflowType{Name: workflowType},
			TaskQueue:    &taskqueuepb.TaskQueue{Name: "navi-unit"},
			Input:        payloads,
		}},
	}
}

func TestDecodeRequest(t *testing.T) {
	req := workflows.QueryRequest{Query: "weather in Lyon", Planner: "llm", Search: "heuristic", MaxSteps: 5,
		ClarifyDeadline: time.Hour, RerunOf: "navi-a"}
	for _, tc := range []struct {
		name    string
		ev      *historypb.HistoryEvent
		want    workflows.QueryRequest
		wantErr string
	}{
		{"query request", startedEvent(t, "QueryWorkflow", req), req, ""},
		{"other workflow", startedEvent(t, "OtherWorkflow", req), workflows.QueryRequest{}, "not a QueryWorkflow"},
		{"no input", startedEvent(t, "QueryWorkflow"), workflows.QueryRequest{}, "no input"},
		{"not a start", &historypb.HistoryEvent{EventId: 5, EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED},
			workflows.QueryRequest{}, "not the start of a workflow"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decodeRequest(tc.ev, converter.GetDefaultDataConverter())
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestDecodeEncryptedRequest(t *testing.T) {
	key, err := codec.NewKey("k1")
	require.NoError(t, err)
	keys, err := codec.ParseKeys(key, "")
	require.NoError(t, err)
	dc := codec.New(keys).DataConverter()
	req := workflows.QueryRequest{Query: "weather in Lyon"}
	ev := startedEvent(t, "QueryWorkflow", req)
	attrs := ev.GetWorkflowExecutionStartedEventAttributes()
	attrs.Input, err = dc.ToPayloads(req)
	require.NoError(t, err)

	got, err := decodeRequest(ev, dc)
	require.NoError(t, err)
	assert.Equal(t, req, got)
	_, err = decodeRequest(ev, converter.GetDefaultDataConverter())
	require.ErrorContains(t, err, "the run's payloads are encrypted: give this command the worker's keys in NAVI_CODEC_KEYS")
	assert.NoError(t, explainEncrypted(nil))
}

func TestRerunRequest(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   workflows.QueryRequest
		want workflows.QueryRequest
	}{
		{"new query", workflows.QueryRequest{Query: "q", Planner: "llm", MaxSteps: 4},
			workflows.QueryRequest{Query: "q", Planner: "llm", MaxSteps: 4, RerunOf: "old"}},
		{"a rerun of a rerun names its own source", workflows.QueryRequest{Query: "q", RerunOf: "older"},
			workflows.QueryRequest{Query: "q", RerunOf: "old"}},
		{"a continued run drops its carry", workflows.QueryRequest{Query: "q", Carry: &workflows.Carry{State: workflows.QueryState{Query: "q", Step: 40}}},
			workflows.QueryRequest{Query: "q", RerunOf: "old"}},
		{"the query comes from the carry when the request lacks it", workflows.QueryRequest{Carry: &workflows.Carry{State: workflows.QueryState{Query: "q"}}},
			workflows.QueryRequest{Query: "q", RerunOf: "old"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, rerunRequest(tc.in, "old"))
		})
	}
}

func TestParseInterspersedFlags(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     []string
		min, max int
		wantPos  []string
		wantJSON bool
		wantErr  error
	}{
		{"flags first", []string{"-json", "a", "b"}, 1, -1, []string{"a", "b"}, true, nil},
		{"flags last", []string{"a", "--json"}, 1, 1, []string{"a"}, true, nil},
		{"flags between", []string{"a", "-json", "b"}, 2, 2, []string{"a", "b"}, true, nil},
		{"double dash ends flags", []string{"a", "--", "-json"}, 2, 2, []string{"a", "-json"}, false, nil},
		{"too few", []string{"-json"}, 1, 1, nil, false, errUsage},
		{"too many", []string{"a", "b"}, 1, 1, nil, false, errUsage},
		{"unknown flag", []string{"-nope"}, 0, 1, nil, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCommand("test")
			c.fs.SetOutput(io.Discard)
			asJSON := c.fs.Bool("json", false, "")
			pos, err := c.parse(tc.args, tc.min, tc.max, "something")
			switch {
			case tc.wantErr != nil:
				require.ErrorIs(t, err, tc.wantErr)
			case tc.wantPos == nil:
				require.Error(t, err)
			default:
				require.NoError(t, err)
				assert.Equal(t, tc.wantPos, pos)
				assert.Equal(t, tc.wantJSON, *asJSON)
			}
		})
	}
}

// Commands called wrongly fail with a usage error before they dial anything.
func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(args []string, s streams) error
		args []string
	}{
		{"ask without query", ask, nil},
		{"ask with a blank query", ask, []string{"  "}},
		{"ask with an unknown planner", ask, []string{"-planner", "oracle", "q"}},
		{"ask with an unknown search", ask, []string{"-search", "bfs", "q"}},
		{"ask with negative steps", ask, []string{"-max-steps", "-1", "q"}},
		{"answer without text", answer, []string{"navi-1"}},
		{"answer with blank text", answer, []string{"navi-1", " "}},
		{"show without ID", show, nil},
		{"show with two IDs", show, []string{"a", "b"}},
		{"list with an argument", list, []string{"answered"}},
		{"list with no room", list, []string{"-limit", "0"}},
		{"replay with nothing", replay, nil},
		{"replay with both ID and file", replay, []string{"-file", "h.json", "navi-1"}},
		{"rerun without ID", rerun, nil},
		{"tools without subcommand", tools, nil},
		{"tools import without file", tools, []string{"import"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run(tc.args, streams{out: io.Discard, err: io.Discard})
			require.ErrorIs(t, err, errUsage)
		})
	}
	require.ErrorIs(t, ask([]string{"-h"}, streams{out: io.Discard, err: io.Discard}), flag.ErrHelp)
}

// Text over the run limits is refused before anything is dialled, naming the limit.
func TestAskAndAnswerLimits(t *testing.T) {
	s := streams{out: io.Discard, err: io.Discard}
	err := ask([]string{strings.Repeat("weather ", 3000)}, s)
	require.ErrorIs(t, err, errUsage)
	assert.ErrorContains(t, err, "the query is 23.4 KiB, over the limit of 16 KiB (NAVI_MAX_QUERY_BYTES)")
	err = ask([]string{"-max-query-bytes", "10", "weather in Rome"}, s)
	assert.ErrorContains(t, err, "the query is 15 B, over the limit of 10 B")
	err = ask([]string{"-max-query-bytes", "300000", "q"}, s)
	assert.ErrorContains(t, err, "NAVI_MAX_QUERY_BYTES 300000: want 0 (the default) to 262144 bytes")
	t.Setenv("NAVI_MAX_ANSWER_BYTES", "3")
	err = answer([]string{"navi-1", "Rome"}, s)
	require.ErrorIs(t, err, errUsage)
	assert.ErrorContains(t, err, "the answer is 4 B, over the limit of 3 B (NAVI_MAX_ANSWER_BYTES)")
}

// The recorded histories of the workflows package replay on the current code, as `navi replay
// -file` reads them.
func TestReplayRecordedHistoryFile(t *testing.T) {
	files, err := filepath.Glob("../workflows/testdata/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			var out bytes.Buffer
			require.NoError(t, replay([]string{"-file", f}, streams{out: &out, err: io.Discard}))
			assert.Regexp(t, `^replay ok: \d+ events, deterministic\n$`, out.String())
		})
	}
}

// A history whose first command is one the code never issues does not replay.
func TestReplayDetectsNondeterminism(t *testing.T) {
	started := startedEvent(t, "QueryWorkflow", workflows.QueryRequest{Query: "weather in Lyon"})
	at := timestamppb.New(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	events := []*historypb.HistoryEvent{started,
		{EventId: 2, EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, Attributes: &historypb.HistoryEvent_WorkflowTaskScheduledEventAttributes{
			WorkflowTaskScheduledEventAttributes: &historypb.WorkflowTaskScheduledEventAttributes{TaskQueue: &taskqueuepb.TaskQueue{Name: "navi-unit"}}}},
		{EventId: 3, EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED, Attributes: &historypb.HistoryEvent_WorkflowTaskStartedEventAttributes{
			WorkflowTaskStartedEventAttributes: &historypb.WorkflowTaskStartedEventAttributes{ScheduledEventId: 2}}},
		{EventId: 4, EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, Attributes: &historypb.HistoryEvent_WorkflowTaskCompletedEventAttributes{
			WorkflowTaskCompletedEventAttributes: &historypb.WorkflowTaskCompletedEventAttributes{ScheduledEventId: 2, StartedEventId: 3}}},
		{EventId: 5, EventType: enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, Attributes: &historypb.HistoryEvent_ActivityTaskScheduledEventAttributes{
			ActivityTaskScheduledEventAttributes: &historypb.ActivityTaskScheduledEventAttributes{ActivityId: "1",
				ActivityType: &commonpb.ActivityType{Name: "NoSuchActivity"}, TaskQueue: &taskqueuepb.TaskQueue{Name: "navi-unit"},
				WorkflowTaskCompletedEventId: 4}}},
	}
	for _, e := range events {
		e.EventTime = at
	}
	err := replayHistory(&historypb.History{Events: events}, workflow.Execution{ID: "w1", RunID: "r1"}, sdkLogger(), converter.GetDefaultDataConverter())
	require.Error(t, err)
	t.Log(err)
	assert.Regexp(t, `(?i)TMPRL1100|nondetermin`, err.Error(), "the SDK's nondeterminism error")
}

func TestTerminalSafe(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Rome: 12 °C\n\tclear", "Rome: 12 °C\n\tclear"},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"bell\a and \x7f and \u0085", `bell\x07 and \x7f and \x85`},
		{"abc\u202edcba", `abc\u202edcba`},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, terminalSafe(tt.in), "%q", tt.in)
	}
	var b strings.Builder
	field(&b, "answer", "%s", "\x1b]0;owned\x07")
	assert.Equal(t, "answer    \\x1b]0;owned\\x07\n", b.String())
}

// A run that answered from its tools is followed by how to judge it; one that called none, or
// did not answer, is not.
func TestPrintRateHint(t *testing.T) {
	tests := []struct {
		name string
		res  workflows.QueryResult
		want string
	}{
		{"answered from tools", workflows.QueryResult{Status: workflows.StatusAnswered, ToolCalls: 2},
			"rate      navi rate w1 good|bad (a good verdict teaches retrieval this request)\n"},
		{"partly answered", workflows.QueryResult{Status: workflows.StatusPartial, ToolCalls: 1},
			"rate      navi rate w1 good|bad (a good verdict teaches retrieval this request)\n"},
		{"no tool called", workflows.QueryResult{Status: workflows.StatusAnswered}, ""},
		{"no tool serves it", workflows.QueryResult{Status: workflows.StatusNoTools}, ""},
		{"failed", workflows.QueryResult{Status: workflows.StatusFailed, ToolCalls: 1}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			printRateHint(&b, "w1", tt.res)
			assert.Equal(t, tt.want, b.String())
		})
	}
}
