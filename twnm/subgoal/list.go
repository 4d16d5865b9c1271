package subgoal

import "slices"

// SplitList takes clause goal i of goals apart at the separators of a list of things asked
// for: "Retrieve flight options and hotel availability for a given destination" gives
// "Retrieve flight options for a given destination" and "Retrieve hotel availability for a
// given destination", and "the calendar events, cash flow statements, and recommendation
// trends for Apple Inc." three parts, each "… for Apple Inc." (what follows the last item's
// first preposition qualifies every item), each with the values it states, in place of goal
// i. Split keeps such lists whole, since most of them name one thing ("flights between Paris
// and Lyon", "the title and the year of a movie"); a retriever that finds a different tool for
// each part may take them apart (and Merge them back when one tool serves both).
//
// The items are separated by commas and one "and" or "as well as", the last separator. A
// clause that opens with a request verb gives it to every item; one that does not is a list of
// noun phrases (what a framing such as "I need to know" asked for). Every item has a content
// word and starts with a lower-case word that is not a number or a plain request verb (an
// item, not a name, and not a new clause: "movies with Tom Hanks and Meg Ryan" stays); a comma
// that a name or a number follows separates no item. A range or a route ("between 3 and 5",
// "from Paris and …") and the parts of one thing ("the details, including the status and the
// date", "such as", "like") are no list. The parts take the place, order and rank of goal i,
// each right after the one before; the other goals keep their order, and those ranked after
// goal i move down by the parts added. SplitList returns a copy of goals and false when goal i
// is out of range, the whole request, or no such list.
func SplitList(goals []Goal, i int) ([]Goal, bool) {
	out := slices.Clone(goals)
	if i < 0 || i >= len(goals) || goals[i].Whole {
		return out, false
	}
	g := goals[i]
	items, ok := listItems(g.Text)
	if !ok {
		return out, false
	}
	added := len(items) - 1
	for k := range out {
		if out[k].Order > g.Order {
			out[k].Order += added
		}
		if out[k].Rank > g.Rank {
			out[k].Rank += added
		}
	}
	parts := make([]Goal, len(items))
	for j, text := range items {
		p := g
		p.Text, p.Values = text, Values(text)
		p.Order, p.Rank = g.Order+j, g.Rank+j
		parts[j] = p
	}
	return slices.Concat(out[:i], parts, out[i+1:]), true
}

// prepositions open the phrase that qualifies a list's items.
var prepositions = set(`of for in at on near from to with by about within around during over under`)

// partsOf are the words that introduce the parts of one thing, not other things: "the
// details of my order, including the status and the delivery date".
var partsOf = set(`including such like e.g.`)

// separator is a list separator: its first token and the token after it.
type separator struct{ start, end int }

// listItems returns the items of a clause that asks for a list of things (see SplitList).
func listItems(text string) ([]string, bool) {
	ts := tokenize(text)
	if len(ts) < 4 {
		return nil, false
	}
	from := 0 // where the first item starts
	if ts[0].kind == kWord && (verbsPlain[ts[0].low] || verbsAmbiguous[ts[0].low]) {
		from = 1
	}
	var seps []separator
	for k := from + 1; k+1 < len(ts); k++ {
		t := ts[k]
		if t.kind == kWord && (t.low == "between" || t.low == "from" || partsOf[t.low]) {
			return nil, false
		}
		n := 0
		switch {
		case t.is("and"):
			n = 1
		case t.punct(",") && ts[k+1].is("and"):
			n = 2
		case t.is("as") && k+2 < len(ts) && ts[k+1].is("well") && ts[k+2].is("as"):
			n = 3
		case t.punct(",") && itemAt(ts, k+1):
			seps = append(seps, separator{k, k + 1})
			continue
		default:
			continue
		}
		if k+n >= len(ts) || !itemAt(ts, k+n) || isNumeric(ts[k-1]) {
			return nil, false
		}
		seps = append(seps, separator{k, k + n})
		items := itemTexts(text, ts, from, seps)
		if len(items) < 2 {
			return nil, false
		}
		return items, true
	}
	return nil, false
}

// itemAt reports whether a list item may start at ts[k]: a lower-case word that is neither a
// number nor a plain request verb.
func itemAt(ts []token, k int) bool {
	t := ts[k]
	return t.kind == kWord && !t.capitalised() && !isNumeric(t) && !verbsPlain[t.low]
}

// itemTexts writes the items between the separators, the request verb (ts[0] when from is 1)
// before every item and what follows the last item's first preposition after every other one.
// A stretch without a content word is no item: it joins the next one.
func itemTexts(text string, ts []token, from int, seps []separator) []string {
	last := seps[len(seps)-1].end
	tail := ""
	for j := last + 1; j < len(ts); j++ {
		if ts[j].kind == kWord && prepositions[ts[j].low] {
			tail = " " + span(text, ts[j:])
			break
		}
	}
	verb := ""
	if from > 0 {
		verb = ts[0].text + " "
	}
	var out []string
	start := from
	for _, s := range seps {
		if _, content := counts(ts[start:s.start]); content == 0 {
			continue // no item: it joins the next one
		}
		if len(out) == 0 {
			out = append(out, span(text, ts[:s.start])+tail) // the verb as written
		} else {
			out = append(out, verb+span(text, ts[start:s.start])+tail)
		}
		start = s.end
	}
	if _, content := counts(ts[last:]); content == 0 {
		return nil
	}
	return append(out, verb+span(text, ts[last:]))
}
