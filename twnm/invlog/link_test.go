package invlog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func in(param, value string) Value  { return Value{Param: param, Value: value} }
func out(param, value string) Value { return Value{Param: param, Value: value} }

// tokenRun is the API-Bank pattern: the token from GetUserToken feeds AddAgenda.token.
func tokenRun() Run {
	return Run{ID: "r1", Query: "add a meeting", Events: []Event{
		{API: "GetUserToken", Inputs: []Value{in("username", "JaneSmith"), in("password", "password")},
			Outputs: []Value{out("token", "o8i7u6y5t4r3e2w1q0")}, Success: true},
		{API: "AddAgenda", Inputs: []Value{in("token", "o8i7u6y5t4r3e2w1q0"), in("content", "Meeting with John"),
			in("time", "2023-09-12 14:00:00")}, Outputs: []Value{out("output", "success")}, Success: true},
	}}
}

func TestLinkAndTransitions(t *testing.T) {
	run := tokenRun()
	Link(&run)

	for i, ev := range run.Events {
		assert.Equal(t, "r1", ev.RunID)
		assert.Equal(t, i, ev.Seq)
	}
	require.NotNil(t, run.Events[1].Inputs[0].From)
	assert.Equal(t, Provenance{Seq: 0, API: "GetUserToken", Param: "token"}, *run.Events[1].Inputs[0].From)
	assert.Nil(t, run.Events[1].Inputs[1].From, "content came from the user")
	assert.Nil(t, run.Events[1].Inputs[2].From)
	assert.Nil(t, run.Events[0].Inputs[0].From)

	assert.Equal(t, []Transition{
		{Kind: Then, From: "GetUserToken", To: "AddAgenda", FromSeq: 0, ToSeq: 1, Success: true},
		{Kind: Feeds, From: "GetUserToken", To: "AddAgenda", FromParam: "token", ToParam: "token", FromSeq: 0, ToSeq: 1, Success: true},
	}, Transitions(&run))

	// Linking again gives the same result: old provenance is discarded first.
	Link(&run)
	assert.Len(t, Transitions(&run), 2)
}

// TestLinkValues is a table of one producer output and one consumer input: linked or not.
func TestLinkValues(t *testing.T) {
	tests := []struct {
		name     string
		output   string
		input    string
		wantPath string
		linked   bool
	}{
		{"equal strings", "o8i7u6y5t4r3e2w1q0", "o8i7u6y5t4r3e2w1q0", "", true},
		{"case and space", "San Francisco", "  san francisco ", "", true},
		{"number and numeric string", "42", "42", "", true},
		{"numbers by value", "1.50", "1.5", "", true},
		{"exponent", "15e-1", "1.5", "", true},
		{"JSON string number", `"970420"`, "970420", "", true},
		{"small integer id", "4", "4", "", true},
		{"negative", "-73.99", "-73.990", "", true},
		{"different strings", "London", "Paris", "", false},
		{"different numbers", "40.7128", "40.7129", "", false},
		{"substring is not equal", "Meeting with John", "John", "", false},
		{"leaf of object", `{"date":"2023-04-12","doctor_name":"Dr. Smith"}`, "dr. smith", "doctor_name", true},
		{"leaf of list", `[4,5,6]`, "5", "[1]", true},
		{"nested leaf", `[{"meeting_time":"2021-01-01 10:00:00"}]`, "2021-01-01 10:00:00", "[0].meeting_time", true},
		{"whole list", `["John","Mary"]`, `["john", "MARY"]`, "", true},
		{"list order matters", `["John","Mary"]`, `["Mary","John"]`, "", false},
		{"input list is not matched by leaves", `{"members":["John","Mary","Peter"]}`, `["Mary","Peter"]`, "", false},
		// Trivial values.
		{"empty", "", "", "", false},
		{"spaces", "  ", "  ", "", false},
		{"two letters", "ok", "ok", "", false},
		{"two letters in object", `{"status":"ok"}`, "ok", "", false},
		{"boolean", "true", "true", "", false},
		{"boolean string", "True", "TRUE", "", false},
		{"zero", "0", "0", "", false},
		{"one", "1", "1.0", "", false},
		{"one as string", `"1"`, "1", "", false},
		{"minus one", "-1", "-1", "", false},
		{"null", "null", "null", "", false},
		{"None", "None", "None", "", false},
		{"empty list", "[]", "[]", "", false},
		{"empty object", "{}", "{}", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := Run{Events: []Event{
				{API: "P", Outputs: []Value{out("o", tt.output)}, Success: true},
				{API: "C", Inputs: []Value{in("i", tt.input)}, Success: true},
			}}
			Link(&run)
			from := run.Events[1].Inputs[0].From
			if !tt.linked {
				assert.Nil(t, from)
				return
			}
			require.NotNil(t, from)
			assert.Equal(t, Provenance{Seq: 0, API: "P", Param: "o", Path: tt.wantPath}, *from)
		})
	}
}

func TestLinkOrderRules(t *testing.T) {
	t.Run("latest earlier event wins", func(t *testing.T) {
		run := Run{Events: []Event{
			{API: "A", Outputs: []Value{out("id", "abc123")}},
			{API: "B", Outputs: []Value{out("ref", "ABC123")}},
			{API: "C", Inputs: []Value{in("id", "abc123")}},
		}}
		Link(&run)
		assert.Equal(t, &Provenance{Seq: 1, API: "B", Param: "ref"}, run.Events[2].Inputs[0].From)
	})
	t.Run("whole value beats leaf in one event", func(t *testing.T) {
		run := Run{Events: []Event{
			{API: "A", Outputs: []Value{out("list", `["abc123"]`), out("id", "abc123")}},
			{API: "C", Inputs: []Value{in("id", "abc123")}},
		}}
		Link(&run)
		assert.Equal(t, &Provenance{Seq: 0, API: "A", Param: "id"}, run.Events[1].Inputs[0].From)
	})
	t.Run("no link to the same or a later event", func(t *testing.T) {
		run := Run{Events: []Event{
			{API: "A", Inputs: []Value{in("x", "abc123")}, Outputs: []Value{out("y", "zzz999")}},
			{API: "B", Inputs: []Value{in("x", "zzz999x")}, Outputs: []Value{out("y", "abc123")}},
		}}
		Link(&run)
		assert.Nil(t, run.Events[0].Inputs[0].From)
		assert.Nil(t, run.Events[1].Inputs[0].From)
	})
	t.Run("echo is not production", func(t *testing.T) {
		// FlightSearch echoes the user's destination in its flights; HotelAvailability's
		// destination came from the user, not from FlightSearch. A real producer before the
		// echo is still found.
		run := Run{Events: []Event{
			{API: "Geocoding", Outputs: []Value{out("city", "San Francisco")}},
			{API: "FlightSearch", Inputs: []Value{in("destination", "San Francisco")},
				Outputs: []Value{out("flights", `[{"destination":"San Francisco","flight":"UA100"}]`)}},
			{API: "HotelAvailability", Inputs: []Value{in("destination", "San Francisco"), in("flight", "UA100")}},
		}}
		Link(&run)
		assert.Equal(t, &Provenance{Seq: 0, API: "Geocoding", Param: "city"}, run.Events[2].Inputs[0].From)
		assert.Equal(t, &Provenance{Seq: 1, API: "FlightSearch", Param: "flights", Path: "[0].flight"}, run.Events[2].Inputs[1].From)
	})
	t.Run("nil and empty runs", func(t *testing.T) {
		Link(nil)
		assert.Nil(t, Transitions(nil))
		empty := Run{}
		Link(&empty)
		assert.Empty(t, Transitions(&empty))
	})
}

func TestTransitions(t *testing.T) {
	// A produces two values for C, B one; D runs after C with no data from anyone.
	run := Run{ID: "r", Events: []Event{
		{API: "A", Outputs: []Value{out("lat", "40.7128"), out("lon", "-74.006")}, Success: true},
		{API: "B", Outputs: []Value{out("token", "t0k3n")}, Success: true},
		{API: "C", Inputs: []Value{in("token", "t0k3n"), in("latitude", "40.7128"), in("longitude", "-74.0060"),
			in("radius", "1000")}, Success: false, Error: "timeout"},
		{API: "D", Inputs: []Value{in("q", "pizza")}, Success: true},
		{API: "C", Inputs: []Value{in("latitude", "40.7128")}, Success: true, Uncertain: true},
	}}
	Link(&run)
	got := Transitions(&run)
	assert.Equal(t, []Transition{
		{Kind: Then, From: "B", To: "C", FromSeq: 1, ToSeq: 2},
		{Kind: Then, From: "A", To: "C", FromSeq: 0, ToSeq: 2},
		{Kind: Feeds, From: "B", To: "C", FromParam: "token", ToParam: "token", FromSeq: 1, ToSeq: 2},
		{Kind: Feeds, From: "A", To: "C", FromParam: "lat", ToParam: "latitude", FromSeq: 0, ToSeq: 2},
		{Kind: Feeds, From: "A", To: "C", FromParam: "lon", ToParam: "longitude", FromSeq: 0, ToSeq: 2},
		{Kind: Then, From: "A", To: "C", FromSeq: 0, ToSeq: 4, Success: true, Uncertain: true},
		{Kind: Feeds, From: "A", To: "C", FromParam: "lat", ToParam: "latitude", FromSeq: 0, ToSeq: 4, Success: true, Uncertain: true},
	}, got)
	for _, tr := range got {
		assert.NotEqual(t, "D", tr.To, "no THEN for mere adjacency")
		assert.NotEqual(t, "D", tr.From)
	}
}

// TestTransitionsGivenProvenance: an executor that knows its bindings fills From itself.
func TestTransitionsGivenProvenance(t *testing.T) {
	run := Run{Events: []Event{
		{Seq: 0, API: "Geocoding", Outputs: []Value{out("latitude", "1")}, Success: true},
		{Seq: 1, API: "Weather", Inputs: []Value{{Param: "lat", Value: "1", From: &Provenance{Seq: 0, API: "Geocoding", Param: "latitude"}}}, Success: true},
	}}
	assert.Equal(t, []Transition{
		{Kind: Then, From: "Geocoding", To: "Weather", FromSeq: 0, ToSeq: 1, Success: true},
		{Kind: Feeds, From: "Geocoding", To: "Weather", FromParam: "latitude", ToParam: "lat", FromSeq: 0, ToSeq: 1, Success: true},
	}, Transitions(&run))
}
