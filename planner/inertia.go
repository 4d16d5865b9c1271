package planner

import (
	"strconv"
	"strings"
)

// Inertial steps (AutoTool's inertia, made durable): where the next step is sure, the run
// takes it without asking the LLM. Three steps qualify:
//
//   - a run's first retrieval, with the request itself: every run starts with it, and before
//     it the model can only guess (projection refuses an answer then) or ask what retrieval
//     would tell it is missing. The model's first decision then sees the candidates, and may
//     retrieve again in its own words or with sub-intents;
//   - the retrieval right after the user answered a question, with the request and the
//     answers: only retrieval binds the answer to the inputs it was asked for, and a model
//     that does something else first leaves the answer unread;
//   - the call of a candidate whose whole chain has run well before (Candidate.Proven at least
//     Options.InertiaMinRuns), fully bound, before any target completed;
//   - the answer right after an inertial call completed its chain (so no decision array of the
//     model with later sub-intents is left undone).
//
// So a proven chain runs without the LLM at all. Nothing is inertial once a call failed: the
// planner decides again, and the failure lowers the graph's confidence for next time.
const (
	// InertiaName is the planner name of an inertial step's result.
	InertiaName = "inertia"
	// inertiaMark starts the Analysis of an inertial decision.
	inertiaMark = "inertia: "
)

// Inertial returns the decision of an inertial step in c, if the step is one.
func Inertial(c Context) (Decision, bool) { return DefaultOptions.Inertial(c) }

// Inertial is the package's Inertial under o.
func (o Options) Inertial(c Context) (Decision, bool) {
	o = o.withDefaults()
	if len(c.Failed) > 0 {
		return Decision{}, false
	}
	d := o.graphFirst(c)
	if len(c.Recalled) == 0 {
		if len(c.History) > 0 || d.Action != RetrieveAPI {
			return Decision{}, false
		}
		d.Analysis = inertiaMark + "every run retrieves first; " + d.Analysis
		return d, true
	}
	switch d.Action {
	case RetrieveAPI:
		if !answeredLast(c) {
			return Decision{}, false
		}
		d.Analysis = inertiaMark + d.Analysis
		return d, true
	case CallAPI:
		cand, ok := c.Candidate(d.TargetAPI)
		if !ok || cand.Proven < o.InertiaMinRuns || len(c.Completed) > 0 {
			return Decision{}, false
		}
		d.Analysis = inertiaMark + d.TargetAPI + "'s chain ran well in " + strconv.Itoa(cand.Proven) + " earlier runs; " + d.Analysis
		return d, true
	case DirectAnswer:
		n := len(c.History)
		if len(c.Completed) == 0 || n == 0 || !IsInertial(c.History[n-1].Decision) {
			return Decision{}, false
		}
		d.Analysis = inertiaMark + d.Analysis
		return d, true
	}
	return Decision{}, false
}

// IsInertial reports whether d was decided by inertia, not by a planner.
func IsInertial(d Decision) bool { return strings.HasPrefix(d.Analysis, inertiaMark) }
