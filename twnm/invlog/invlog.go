// Package invlog holds invocation logs: runs of tool calls with their inputs, outputs and
// outcomes, from which the behavioural edges of the tool graph are counted (NaviAgent Eq. 4:
// API -[:THEN]-> API and Param -[:FEEDS]-> Param, weighted by successful transitions).
//
// The package is standalone: APIs and parameters are plain strings, named as their source
// names them, so that logs can be imported, linked and inspected without the graph.
//
// A typical use is: import runs (Navi's own executions, or a public data set's through
// research/runlogs: ToolBench, API-Bank), call Link on each run to find where a value produced
// by one call was used by a later one, then count Transitions.
package invlog

import "time"

// Provenance says that an input value was produced earlier in the same run: it is the value of
// output Param of the event with sequence number Seq, which called API.
type Provenance struct {
	Seq   int
	API   string
	Param string
	// Path locates the value inside a structured output (an object or a list), as in
	// "meetings[0].meeting_time" relative to Param; empty when the whole output matched.
	Path string
}

// Value is one named input or output value of a call.
type Value struct {
	Param string
	// Value is the value as text: a JSON string is given unquoted (plain text), any other JSON
	// value as canonical JSON (compact, object keys sorted, numbers as written).
	Value string
	// From says where an input came from; nil when the user or the query gave it, or when it
	// is unknown. Always nil on outputs.
	From *Provenance
}

// Event is one tool call of a run.
type Event struct {
	RunID string
	// Seq is the event's position in its run: Run.Events[e.Seq] is e.
	Seq     int
	API     string
	Inputs  []Value
	Outputs []Value
	// Success reports that the call returned without error. When Uncertain is set, it means
	// only that no error was seen.
	Success bool
	// Error is the error the call returned, if any.
	Error string
	// Time is when the call ran; zero when the source does not say (API-Bank and ToolBench
	// logs carry no timestamps).
	Time time.Time
	// Truncated reports that the source record was cut short, so Inputs and Outputs may be
	// incomplete (ToolBench evaluation logs keep only the first 100 characters of each call).
	Truncated bool
	// Uncertain reports that the source did not show whether the call succeeded. Success is
	// then true by the rule "no error seen"; statistics of success and failure counts (s_v,
	// f_v, N_succ) should leave such events out.
	Uncertain bool
}

// Run is one session of calls serving one query, in call order.
type Run struct {
	ID     string
	Query  string
	Events []Event
}
