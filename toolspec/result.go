package toolspec

import "time"

// ResultKey is the field an answer that is no JSON object is read under ({"result": [...]}):
// an output inside an answer that is a list has a path from it ("result[].id").
const ResultKey = "result"

// Result is a successful call of an API (toolcall.Client.Call).
type Result struct {
	// API is the name of the API called.
	API string `json:"api"`
	// Status is the HTTP status of the answer (2xx).
	Status int `json:"status"`
	// Output is the answer: its JSON object, or {"result": value} for any other JSON value.
	// When Truncated, only the top-level scalar fields, strings cut to the client's limit.
	Output map[string]any `json:"output"`
	// Bytes is the size of the answer's body.
	Bytes int `json:"bytes"`
	// Ref locates the full body in the tool client's output store when Truncated; empty otherwise,
	// or when the Client has no store.
	Ref string `json:"ref,omitempty"`
	// Truncated says Output is a summary of an output over the client's limit.
	Truncated bool `json:"truncated,omitempty"`
	// Duration is the time the call took, the request and the answer's body included
	// (nanoseconds in JSON).
	Duration time.Duration `json:"duration"`
	// Suspect says why the answer looks like no answer (toolcall.Suspect): the run may use it,
	// but the graph does not learn the call as a success. Empty when it looks right.
	Suspect string `json:"suspect,omitempty"`
	// Observed are the outputs the answer shows that the API's record does not list
	// (Observe, from the whole answer, before any truncation): their names, paths and
	// types, never their values. Empty for a Suspect answer.
	Observed []Param `json:"observed,omitempty"`
}
