package contract

// LookupToolsInput is the input of LookupTools.
type LookupToolsInput struct {
	Query string `json:"query"`
	Limit int    `json:"limit,omitempty"` // 0 means DefaultLookupLimit
}

// LookupToolsResult is what the graph knows about a query: the tools that match its words and
// the size of the graph they were found in.
type LookupToolsResult struct {
	Terms []string   `json:"terms"`
	Tools []APIMatch `json:"tools"`
	Graph Counts     `json:"graph"`
}

// Counts is the size of the graph.
type Counts struct {
	APIs   int64 `json:"apis"`
	Params int64 `json:"params"`
	Edges  int64 `json:"edges"`
}

// APIMatch is an API found by FindAPIs, with its parameters' names.
type APIMatch struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Inputs      []string `json:"inputs"`
	Outputs     []string `json:"outputs"`
	Score       int64    `json:"score"` // how many query terms the name or description contains
}
