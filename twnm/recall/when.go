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
	for _, g := range r.editable() {
		days := subgoal.When(g.Text)
		if len(days) != 1 || len(g.Candidates) == 0 {
			continue
		}
		g.Candidates = rescaled(g.Candidates, func(m Match) float64 {
			a, ok := links.API(m.Name)
			if !ok {
				return 1
			}
			switch dated(a, days[0]) {
			case 0:
				return otherDay
			case -1:
				return otherDay * otherDay
			}
			return 1
		})
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
