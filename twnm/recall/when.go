package recall

import (
	"slices"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/extract"
	"github.com/naviagent/navi/twnm/subgoal"
)

// otherDay scales the score of a tool that says nothing of the day a part of the request asks
// about, and, squared, of one whose description dates what it gives to another day (see
// inTime). Chosen leaving one dev set out over 0.7–0.9: 0.7 and 0.8 tie on every set but the
// tool world's compound requests, whose R@5 is 0.3 higher at 0.7, so 0.7 in every rotation
// (a tie where that set is left out); 0.9 costs those requests' chains 3.3.
const otherDay = 0.7

// inTime rescores, in place, the candidates of each part of the request that dates what it
// asks for to one day (subgoal.When: "the weather tomorrow", "in five days"). A tool whose
// description dates what it gives to that day keeps its score ("Tomorrow's high, low and rain
// chance"); one that says nothing of when, or takes the day as an input, scales by otherDay;
// one whose description dates it to other days only ("Current weather at a point", for
// tomorrow) by otherDay squared. The words that date a request do not rank its tools by BM25
// (subgoal.Timeless): this is what they say instead.
func inTime(r *Result, links Links) {
	goals := make([]*Goal, 0, len(r.Goals)+1)
	for i := range r.Goals {
		goals = append(goals, &r.Goals[i])
	}
	if r.Focus != nil {
		goals = append(goals, r.Focus)
	}
	for _, g := range goals {
		days := subgoal.When(g.Text)
		if len(days) != 1 || len(g.Candidates) == 0 {
			continue
		}
		cs := slices.Clone(g.Candidates)
		best := 0.0
		for j := range cs {
			if a, ok := links.API(cs[j].Name); ok {
				switch dated(a, days[0]) {
				case 0:
					cs[j].Score *= otherDay
				case -1:
					cs[j].Score *= otherDay * otherDay
				}
			}
			best = max(best, cs[j].Score)
		}
		if best > 0 {
			for j := range cs {
				cs[j].Score /= best
			}
		}
		sortCandidates(cs)
		g.Candidates = cs
	}
}

// dated tells how api's description dates what it gives against day: 1 where it dates it to
// that day, -1 where to other days only, 0 where it says nothing of when or api takes a date
// (or a number of days) as an input.
func dated(a twnm.API, day int) int {
	for _, p := range a.Inputs {
		if extract.Temporal(p) || subgoal.NamesDays(p.Name) {
			return 0
		}
	}
	switch when := subgoal.Dates(a.Description); {
	case len(when) == 0:
		return 0
	case slices.Contains(when, day):
		return 1
	}
	return -1
}
