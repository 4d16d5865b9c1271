package twnm

import "github.com/naviagent/navi/twnm/invlog"

// Feedback turns a linked invocation log run (see invlog.Link) into the invocations and
// transitions that Record counts. Events whose outcome the source did not show (Uncertain) are
// left out of the counts, since Eq. 4 and Eq. 13 count successes and failures.
func Feedback(run *invlog.Run) ([]Invocation, []Transition) {
	var invs []Invocation
	for _, ev := range run.Events {
		if ev.Uncertain {
			continue
		}
		inputs := make([]string, len(ev.Inputs))
		for i, v := range ev.Inputs {
			inputs[i] = v.Param
		}
		invs = append(invs, Invocation{API: ev.API, Inputs: inputs, Success: ev.Success, Time: ev.Time})
	}
	var trs []Transition
	for _, tr := range invlog.Transitions(run) {
		if tr.Uncertain {
			continue
		}
		t := Transition{Kind: Feeds, From: tr.From, To: tr.To, FromParam: tr.FromParam, ToParam: tr.ToParam, Success: tr.Success,
			Time: run.Events[tr.ToSeq].Time}
		if tr.Kind == invlog.Then {
			t.Kind = Then
		}
		trs = append(trs, t)
	}
	return invs, trs
}
