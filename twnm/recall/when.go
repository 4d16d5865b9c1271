package recall

import (
	"slices"
	"strings"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/extract"
	"github.com/naviagent/navi/twnm/subgoal"
)

// otherDay scales the score of a tool that says nothing of the day a part of the request asks
// about, where that day is not today (see inTime). Chosen leaving one dev set out over 0.6–0.9:
// 0.7 in every rotation (0.6 ties it where the tool world is left out, whose R@5 is 0.1 lower
// at 0.6; 0.8 costs the tool world's R@5 0.1 and its compound requests' 0.3; 0.9 their chains 5).
const otherDay = 0.7

// inTime rescores, in place, the candidates of each part of the request that dates what it
// asks for to one day (subgoal.Asked: "the weather tomorrow", "in five days", "right now?"). A
// tool that gives what it gives on that day keeps its score: its description dates it so
// ("Tomorrow's high, low and rain chance"), it takes the day as an input, or, for today, its
// description says nothing of when (a tool gives the present's unless it says otherwise). One
// that says nothing of when, for another day, scales by otherDay. One whose description dates
// it to other days only ("Current weather at a point", for tomorrow) gives nothing of the day
// asked, by its own account, and scores 0: merely scaled down, it kept a lead that one word had
// given it ("high" of "the high temperature in five days" in tomorrow's high and low). The
// words that date a request do not rank its tools by BM25 (subgoal.Timeless): this is what
// they say instead. The head, where it names no day, asks about the day of the part it was
// read from.
func inTime(r *Result, links Links) {
	read := map[string]apiDays{} // each API's days, read once for every part that names one
	for _, g := range r.editable() {
		days := subgoal.Asked(g.Text)
		if g == r.Focus && len(days) == 0 {
			days = subgoal.Asked(r.headsPart(*g).Text)
		}
		if len(days) != 1 || len(g.Candidates) == 0 {
			continue
		}
		g.Candidates = rescaled(g.Candidates, func(m Match) float64 {
			d, ok := read[m.Name]
			if !ok {
				a, held := links.API(m.Name)
				d = apiDays{held: held}
				if held {
					d = daysOf(a)
				}
				read[m.Name] = d
			}
			if !d.held {
				return 1
			}
			switch d.gives(days[0]) {
			case 0:
				return otherDay
			case -1:
				return 0
			}
			return 1
		})
	}
}

// headsPart returns the shortest sub-goal whose text holds the head's: the part of the request
// the head was read from, which dates what the head asks for ("What will the high temperature
// be" of "… in Rome in five days"). The head is its own part where none holds it.
func (r *Result) headsPart(head Goal) Goal {
	part, found := head, false
	for _, g := range r.Goals {
		if strings.Contains(g.Text, head.Text) && (!found || len(g.Text) < len(part.Text)) {
			part, found = g, true
		}
	}
	return part
}

// apiDays is what an API's catalog entry says of the days it gives what it gives.
type apiDays struct {
	held     bool  // the links hold the API
	takesDay bool  // an input takes a date, or a number of days
	dates    []int // the days its description dates what it gives to (subgoal.Dates)
}

// daysOf reads a's days.
func daysOf(a twnm.API) apiDays {
	d := apiDays{held: true, dates: subgoal.Dates(a.Description)}
	d.takesDay = slices.ContainsFunc(a.Inputs, func(p twnm.Param) bool { return extract.Temporal(p) || subgoal.NamesDays(p.Name) })
	return d
}

// gives tells whether the API gives what it gives on day: 1 where it takes a date (or a
// number of days) as an input, where its description dates it to that day, or, for today,
// where its description says nothing of when; -1 where its description dates it to other days
// only; 0 where it says nothing of when and day is not today.
func (d apiDays) gives(day int) int {
	switch {
	case d.takesDay, len(d.dates) == 0 && day == 0, slices.Contains(d.dates, day):
		return 1
	case len(d.dates) == 0:
		return 0
	}
	return -1
}
