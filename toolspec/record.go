package toolspec

import "time"

// Invocation is the outcome of one API call, as recorded by the execution feedback.
type Invocation struct {
	API     string
	Inputs  []string // the catalog names of the inputs the call was given
	Success bool
	Time    time.Time
	// Revised marks a verdict on a call recorded as a success before (the user's, on the
	// answer): it replaces that outcome, so the call still counts once. A revised failure
	// takes the success back and counts a failure; a revised success confirms it and changes
	// no count.
	Revised bool `json:",omitempty"`
	// Observed are the outputs the call's answer showed that the API's record does not list
	// (Observe): the tool graph adds them to the API.
	Observed []Param `json:",omitempty"`
	// Signal is what judged a failure beyond the call itself (empty: the call failed); the
	// graph counts an API's failures by signal.
	Signal Signal `json:",omitempty"`
}

// Signal is what judged a call's outcome, beside the call itself (HTTP 2xx or not).
type Signal string

// Signals.
const (
	// SignalCatalog: the answer failed the catalog check (missing or mistyped output fields,
	// an empty result, an error-shaped body).
	SignalCatalog Signal = "catalog"
	// SignalUser: the user's verdict on the answer.
	SignalUser Signal = "user"
)

// Transition is one observed behavioural transition between two calls of a run. Kind Then: a
// call of API To used a value a call of API From produced (counted once per pair of calls).
// Kind Feeds: output FromParam of From was used as input ToParam of To. Success is the outcome
// of the To call.
type Transition struct {
	Kind               EdgeKind // Then or Feeds
	From, To           string
	FromParam, ToParam string // Feeds only
	Success            bool
	Time               time.Time
	// Revised marks a verdict on a transition recorded as a success before; see
	// Invocation.Revised.
	Revised bool `json:",omitempty"`
}

// EdgeKind is the relation an edge of the tool graph stands for.
type EdgeKind uint8

// Edge kinds: structural edges come from catalogs, behavioural ones from execution history.
const (
	InputOf EdgeKind = iota // Param -> API: the API consumes the parameter
	Outputs                 // API -> Param: the API produces the parameter
	Then                    // API -> API: called after, with data flowing
	Feeds                   // Param -> Param: a value produced as one was used as the other
)

var edgeKindNames = [...]string{"INPUT_OF", "OUTPUTS", "THEN", "FEEDS"}

func (k EdgeKind) String() string { return edgeKindNames[k] }

// Behavioural reports whether edges of this kind are learned from execution history.
func (k EdgeKind) Behavioural() bool { return k == Then || k == Feeds }

// PruneOptions configures the tool graph's targeted pruning of APIs that fail (Eq. 13).
type PruneOptions struct {
	Lambda     float64 // λ: weight of failures against rarity
	Threshold  float64 // prune when the score exceeds it (0.7 in NaviAgent Appendix F.2)
	WindowDays int     // the window failures and invocations are counted over
	MinCalls   int64   // APIs with fewer invocations in the window are never pruned
}

// DefaultPrune follows NaviAgent Appendix F.2's threshold.
var DefaultPrune = PruneOptions{Lambda: 0.5, Threshold: 0.7, WindowDays: 7, MinCalls: 3}
