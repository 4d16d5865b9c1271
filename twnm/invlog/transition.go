package invlog

// Kind is the kind of a behavioural edge.
type Kind string

const (
	// Then is an API -[:THEN]-> API transition: the consumer API used a value the producer
	// API had output earlier in the run.
	Then Kind = "THEN"
	// Feeds is a Param -[:FEEDS]-> Param transition: output FromParam of API From was used as
	// input ToParam of API To.
	Feeds Kind = "FEEDS"
)

// Transition is one observed behavioural transition, the unit counted by NaviAgent Eq. 4
// (w̃_ij = N_succ(v_i → v_j) / N(v_j)).
type Transition struct {
	Kind Kind
	// From and To are the producer and consumer APIs.
	From, To string
	// FromParam and ToParam are the output and input parameters of a Feeds transition; empty
	// for Then.
	FromParam, ToParam string
	// FromSeq and ToSeq are the events' sequence numbers in the run.
	FromSeq, ToSeq int
	// Success is the consumer's outcome: the transition succeeded when the call that used
	// the value succeeded.
	Success bool
	// Uncertain copies the consumer's Uncertain: the outcome is unknown and Success means
	// only that no error was seen.
	Uncertain bool
}

// Transitions returns the behavioural transitions of run, derived from the provenance of its
// inputs (call Link first, or fill Value.From from an executor that knows its bindings). For
// each consumer event in order it gives one Then transition per distinct producer event that
// fed it (in the order of the first input each fed), then one Feeds transition per linked
// input, in input order. A producer that fed one consumer several values still counts as one
// Then transition, since Eq. 4 counts invocations, not values.
//
// Events that are merely consecutive, with no value passed between them, give no transition:
// Eq. 4 counts transitions "where data flowed", and the graph search reads THEN edges as
// "must run before, to produce an input". Adjacency alone says neither: a model calling the
// same API three times for three user values, retrying after a failure, or doing two
// unrelated look-ups one after the other would add THEN edges between APIs that never depend
// on each other, and their weights would mislead the search. A producer and consumer that are
// the same API (a paging call fed by its own previous page token) are kept.
func Transitions(run *Run) []Transition {
	if run == nil {
		return nil
	}
	var out []Transition
	for j := range run.Events {
		ev := &run.Events[j]
		var feeds []Transition
		seen := make(map[int]bool)
		for _, in := range ev.Inputs {
			p := in.From
			if p == nil {
				continue
			}
			if !seen[p.Seq] {
				seen[p.Seq] = true
				out = append(out, Transition{Kind: Then, From: p.API, To: ev.API, FromSeq: p.Seq, ToSeq: ev.Seq,
					Success: ev.Success, Uncertain: ev.Uncertain})
			}
			feeds = append(feeds, Transition{Kind: Feeds, From: p.API, To: ev.API, FromParam: p.Param, ToParam: in.Param,
				FromSeq: p.Seq, ToSeq: ev.Seq, Success: ev.Success, Uncertain: ev.Uncertain})
		}
		out = append(out, feeds...)
	}
	return out
}
