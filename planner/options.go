package planner

// Options are the planning's budgets and thresholds, in one place. A zero field takes
// DefaultOptions'.
type Options struct {
	// MaxRetrievals and MaxClarifications bound the retrieve_api and clarify_intent actions of
	// a run, which could otherwise loop; Project enforces them.
	MaxRetrievals, MaxClarifications int
	// NearScore is how much less similar than the best candidate a fully bound candidate may
	// be and still be called instead of asking the user about the best one.
	NearScore float64
	// InertiaMinRuns is how many good runs of a chain make it proven (Inertial), and
	// InertiaReliability the reliability every step and flow of a proven chain keeps.
	InertiaMinRuns     int
	InertiaReliability float64
	// AnswerRelevanceFloor is the similarity (Candidate.Relevance) under which the API that
	// answered is taken to have answered something else than what was asked: the run does not
	// teach retrieval that the request's parts call for it. Measured with all-MiniLM-L6-v2 on
	// the dev sets, 0 of 765 StableToolBench, 2 of 100 RestBench, 3 of 50 API-Bank, 1 of 205
	// API-Bank dialogue and 0 of 300 tool-world gold final APIs fall under it, so a correct
	// answer rarely loses what it would teach; its calls still count as they went.
	AnswerRelevanceFloor float64
}

// DefaultOptions are the planner's defaults: 4 retrievals and 3 questions a run, a candidate
// within 0.1 of the best, a chain proven by 3 good runs at reliability 0.8, and an answer
// relevant from 0.1.
var DefaultOptions = Options{MaxRetrievals: 4, MaxClarifications: 3, NearScore: 0.1,
	InertiaMinRuns: 3, InertiaReliability: 0.8, AnswerRelevanceFloor: 0.1}

// withDefaults is o with its zero fields DefaultOptions'.
func (o Options) withDefaults() Options {
	d := DefaultOptions
	if o.MaxRetrievals <= 0 {
		o.MaxRetrievals = d.MaxRetrievals
	}
	if o.MaxClarifications <= 0 {
		o.MaxClarifications = d.MaxClarifications
	}
	if o.NearScore <= 0 {
		o.NearScore = d.NearScore
	}
	if o.InertiaMinRuns <= 0 {
		o.InertiaMinRuns = d.InertiaMinRuns
	}
	if o.InertiaReliability <= 0 {
		o.InertiaReliability = d.InertiaReliability
	}
	if o.AnswerRelevanceFloor <= 0 {
		o.AnswerRelevanceFloor = d.AnswerRelevanceFloor
	}
	return o
}
