package bench

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/naviagent/navi/toolworld"
	"github.com/naviagent/navi/workflows"
)

func TestEqual(t *testing.T) {
	cases := []struct {
		name string
		a, b any
		want bool
	}{
		{"int and float64", 3, 3.0, true},
		{"float64 equal", 48.8566, 48.8566, true},
		{"within tolerance", 1.0, 1.0 + 5e-10, true},
		{"outside tolerance", 1.0, 1.0 + 2e-9, false},
		{"tolerance is absolute", 1e12, 1e12 + 1e-3, false},
		{"large values equal", 1e12, 1e12, true},
		{"negative within tolerance", -2.5, -2.5 - 5e-10, true},
		{"json.Number", json.Number("62.9"), 62.9, true},
		{"int64 and uint8", int64(7), uint8(7), true},
		{"float32 widened", float32(0.5), 0.5, true},
		{"strings exact", "Rome", "Rome", true},
		{"strings differ in case", "Rome", "rome", false},
		{"string is not number", "3", 3, false},
		{"number is not string", 3, "3", false},
		{"bools", true, true, true},
		{"bools differ", true, false, false},
		{"nil and nil", nil, nil, true},
		{"nil and value", nil, 0, false},
		{"slices of numbers", []any{1, 2.5}, []float64{1, 2.5}, true},
		{"slices of different length", []any{1}, []any{1, 2}, false},
		{"maps", map[string]any{"a": 1, "b": "x"}, map[string]any{"a": 1.0, "b": "x"}, true},
		{"maps with missing key", map[string]any{"a": 1}, map[string]any{"b": 1}, false},
		{"map and slice", map[string]any{}, []any{}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, Equal(c.a, c.b))
		})
	}
}

// mediumTask is the tool world's second task for seed 1: Rome's air quality.
var mediumTask = toolworld.Task{
	ID:         "tw-1-0001",
	Difficulty: toolworld.DifficultyMedium,
	GoldChain:  []string{"geo.Geocode", "airq.Current"},
	GoldFlow: []toolworld.Flow{
		{FromAPI: "geo.Geocode", Output: "latitude", ToAPI: "airq.Current", Input: "latitude"},
		{FromAPI: "geo.Geocode", Output: "longitude", ToAPI: "airq.Current", Input: "longitude"},
	},
	Expected: map[string]any{"aqi": 156, "category": "unhealthy", "pm25": 62.9},
}

func TestSucceeded(t *testing.T) {
	answer := map[string]any{"aqi": 156.0, "category": "unhealthy", "pm25": 62.9, "pm10": 118.3}
	geo := map[string]any{"latitude": 41.9, "longitude": 12.5}
	cases := []struct {
		name          string
		task          toolworld.Task
		result        workflows.QueryResult
		completed, ok bool
	}{
		{
			name: "answered with the expected fields from the last API",
			task: mediumTask,
			result: workflows.QueryResult{Status: "answered", Chain: []string{"geo.Geocode", "airq.Current"},
				Results: map[string]map[string]any{"geo.Geocode": geo, "airq.Current": answer}},
			completed: true, ok: true,
		},
		{
			name: "an extra call after the answering API still succeeds",
			task: mediumTask,
			result: workflows.QueryResult{Status: "answered", Chain: []string{"geo.Geocode", "airq.Current", "geo.Elevation"},
				Results: map[string]map[string]any{"geo.Geocode": geo, "airq.Current": answer, "geo.Elevation": {"elevation_m": 21.0}}},
			completed: true, ok: true,
		},
		{
			name: "a wrong value fails",
			task: mediumTask,
			result: workflows.QueryResult{Status: "answered", Chain: []string{"airq.Current"},
				Results: map[string]map[string]any{"airq.Current": {"aqi": 157.0, "category": "unhealthy", "pm25": 62.9}}},
			completed: true, ok: false,
		},
		{
			name: "a missing field fails",
			task: mediumTask,
			result: workflows.QueryResult{Status: "answered", Chain: []string{"airq.Current"},
				Results: map[string]map[string]any{"airq.Current": {"aqi": 156.0, "category": "unhealthy"}}},
			completed: true, ok: false,
		},
		{
			name: "fields split over two APIs fail",
			task: mediumTask,
			result: workflows.QueryResult{Status: "answered", Chain: []string{"a", "b"},
				Results: map[string]map[string]any{"a": {"aqi": 156.0}, "b": {"category": "unhealthy", "pm25": 62.9}}},
			completed: true, ok: false,
		},
		{
			name: "results of an API outside the chain do not count",
			task: mediumTask,
			result: workflows.QueryResult{Status: "answered", Chain: []string{"geo.Geocode"},
				Results: map[string]map[string]any{"geo.Geocode": geo, "airq.Current": answer}},
			completed: true, ok: false,
		},
		{
			name: "right results without an answer are no success",
			task: mediumTask,
			result: workflows.QueryResult{Status: "budget_exhausted", Chain: []string{"airq.Current"},
				Results: map[string]map[string]any{"airq.Current": answer}},
			completed: false, ok: false,
		},
		{
			name:      "a task without expected fields is solved by an answer",
			task:      toolworld.Task{GoldChain: []string{"x"}},
			result:    workflows.QueryResult{Status: "answered"},
			completed: true, ok: true,
		},
		{
			name:   "a failed run",
			task:   mediumTask,
			result: workflows.QueryResult{Status: "failed"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.completed, Completed(c.result))
			assert.Equal(t, c.ok, Succeeded(c.task, c.result))
		})
	}
}

func TestF1(t *testing.T) {
	cases := []struct {
		name      string
		got, want []string
		f1        float64
	}{
		{"identical", []string{"a", "b"}, []string{"a", "b"}, 1},
		{"order does not matter", []string{"b", "a"}, []string{"a", "b"}, 1},
		{"duplicates count once", []string{"a", "a", "b"}, []string{"a", "b"}, 1},
		// P = 1/2, R = 1/3, F1 = 2·(1/6)/(5/6) = 0.4.
		{"partial", []string{"a", "x"}, []string{"a", "b", "c"}, 0.4},
		// P = 1, R = 2/3, F1 = 0.8.
		{"subset", []string{"a", "b"}, []string{"a", "b", "c"}, 0.8},
		{"disjoint", []string{"x"}, []string{"a"}, 0},
		{"both empty", nil, nil, 1},
		{"nothing got", nil, []string{"a"}, 0},
		{"nothing wanted", []string{"a"}, nil, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.InDelta(t, c.f1, F1(c.got, c.want), 1e-12)
		})
	}
}

func TestLinks(t *testing.T) {
	cases := []struct {
		name  string
		chain []string
		want  []Link
	}{
		{"empty", nil, nil},
		{"single call", []string{"a"}, nil},
		{"consecutive pairs", []string{"a", "b", "c"}, []Link{{"a", "b"}, {"b", "c"}}},
		{"repeated call dropped", []string{"a", "a", "b"}, []Link{{"a", "b"}}},
		{"duplicate pair once", []string{"a", "b", "a", "b"}, []Link{{"a", "b"}, {"b", "a"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, Links(c.chain))
		})
	}
}

func TestGoldLinksDeduplicates(t *testing.T) {
	assert.Equal(t, []Link{{"geo.Geocode", "airq.Current"}}, GoldLinks(mediumTask))
	assert.Empty(t, GoldLinks(toolworld.Task{GoldChain: []string{"geo.Elevation"}}))
}

func TestNodeAndLinkF1(t *testing.T) {
	// Gold: A and B both feed C (fan-in), chain A, B, C.
	fanIn := toolworld.Task{
		GoldChain: []string{"A", "B", "C"},
		GoldFlow: []toolworld.Flow{
			{FromAPI: "A", Output: "x", ToAPI: "C", Input: "x"},
			{FromAPI: "B", Output: "y", ToAPI: "C", Input: "y"},
		},
	}
	cases := []struct {
		name         string
		task         toolworld.Task
		chain        []string
		node, linkF1 float64
	}{
		{"medium gold chain", mediumTask, []string{"geo.Geocode", "airq.Current"}, 1, 1},
		// Nodes: P = 2/3, R = 1, F1 = 0.8. Links: run {G→E, E→A}, gold {G→A}: F1 0.
		{"medium with a detour", mediumTask, []string{"geo.Geocode", "geo.Elevation", "airq.Current"}, 0.8, 0},
		// Nodes: P = 1, R = 1/2, F1 = 2/3. Links: none run, one gold: 0.
		{"medium final API only", mediumTask, []string{"airq.Current"}, 2.0 / 3, 0},
		// Links: run {A→B, B→C}, gold {A→C, B→C}: P = R = 1/2, F1 = 1/2 even for the gold order.
		{"fan-in in gold order", fanIn, []string{"A", "B", "C"}, 1, 0.5},
		{"nothing called", mediumTask, nil, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.InDelta(t, c.node, NodeF1(c.task, c.chain), 1e-12)
			assert.InDelta(t, c.linkF1, LinkF1(c.task, workflows.QueryResult{Chain: c.chain}), 1e-12)
		})
	}

	// A run that reports its flows is scored by them: the fan-in run's links are A→C and
	// B→C, whatever the order of its calls.
	flows := []workflows.Flow{{From: "A", Output: "x", To: "C", Input: "x"}, {From: "B", Output: "y", To: "C", Input: "y"},
		{From: "A", Output: "z", To: "C", Input: "z"}}
	assert.Equal(t, []Link{{"A", "C"}, {"B", "C"}}, RunLinks(flows))
	assert.InDelta(t, 1, LinkF1(fanIn, workflows.QueryResult{Chain: []string{"B", "A", "C"}, Flows: flows}), 1e-12)
	// No flow where the gold has two: 0; an easy task, no flow on either side: 1.
	assert.Zero(t, LinkF1(fanIn, workflows.QueryResult{Chain: []string{"A", "B", "C"}, Flows: []workflows.Flow{}}))
	assert.InDelta(t, 1, LinkF1(toolworld.Task{GoldChain: []string{"geo.Elevation"}}, workflows.QueryResult{Flows: []workflows.Flow{}}), 1e-12)
}

func TestIntentsOfACompoundTask(t *testing.T) {
	weather := map[string]any{"temp_c": 18.3}
	hotel := map[string]any{"hotel_id": "htl-rome-1"}
	task := toolworld.Task{ID: "c", Difficulty: toolworld.DifficultyCompound, Expected: hotel,
		GoldChain: []string{"geo.Geocode", "weather.Current", "stay.SearchHotels"},
		Parts: []toolworld.Part{
			{GoldChain: []string{"geo.Geocode", "weather.Current"}, Expected: weather},
			{GoldChain: []string{"stay.SearchHotels"}, Expected: hotel},
		}}
	cases := []struct {
		name   string
		result workflows.QueryResult
		solved int
	}{
		{"both parts answered", workflows.QueryResult{Status: "answered", Chain: []string{"geo.Geocode", "weather.Current", "stay.SearchHotels"},
			Results: map[string]map[string]any{"weather.Current": {"temp_c": 18.3, "wind_kph": 3.0}, "stay.SearchHotels": hotel}}, 2},
		{"one part answered", workflows.QueryResult{Status: "answered", Chain: []string{"stay.SearchHotels"},
			Results: map[string]map[string]any{"stay.SearchHotels": hotel}}, 1},
		{"no answer, no part", workflows.QueryResult{Status: "failed", Chain: []string{"stay.SearchHotels"},
			Results: map[string]map[string]any{"stay.SearchHotels": hotel}}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			solved, of := Intents(task, tc.result)
			assert.Equal(t, 2, of)
			assert.Equal(t, tc.solved, solved)
			assert.Equal(t, tc.solved == 2, Succeeded(task, tc.result), "a compound task succeeds with every part")
			o := Score(task, Outcome{Result: tc.result})
			m := Aggregate([]TaskOutcome{o, Score(mediumTask, Outcome{Err: "down"})})
			assert.Equal(t, 3, m.Intents)
			assert.InDelta(t, float64(tc.solved)/3, m.IntentTSR, 1e-12, "the errored task's one question counts, unanswered")
		})
	}
}
