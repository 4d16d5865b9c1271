package subgoal

import (
	"slices"
	"strings"
)

// SplitList takes clause goal i of goals apart at the "and" of a list of things asked for
// under one request verb, or under none: "Retrieve flight options and hotel availability for a
// given destination" gives "Retrieve flight options for a given destination" and "Retrieve
// hotel availability for a given destination" (what follows the second item's first
// preposition qualifies both), "Tomorrow's forecast and the pollen levels in Paris" gives
// "Tomorrow's forecast in Paris" and "the pollen levels in Paris", each with the values it
// states, in place of goal i. Split keeps such lists whole, since most of them name one thing
// ("flights between Paris and Lyon", "the title and the year of a movie"); a retriever that
// finds a different tool for each part may take them apart (and Merge them back when one tool
// serves both): whether a list asks for two things is retrieval's to say, not a verb's.
//
// The split is at the clause's first "and" that has a content word between the clause's first
// word (its verb, where it opens with one) and it and a lower-case word after it (an item, not
// a name: "movies with Tom Hanks and Meg Ryan" stays), outside a range ("between 3 and 5").
// A verb that opens the clause opens both parts; without one, the second item must open a noun
// phrase of its own (a determiner, a quantifier, a possessive). The parts take the
// place, order and rank of goal i, the second part right after the first; the other goals keep
// their order, and those ranked after goal i move one rank down. SplitList returns a copy of
// goals and false when goal i is out of range, the whole request, or no such list.
func SplitList(goals []Goal, i int) ([]Goal, bool) {
	out := slices.Clone(goals)
	if i < 0 || i >= len(goals) || goals[i].Whole {
		return out, false
	}
	g := goals[i]
	left, right, ok := listParts(g.Text)
	if !ok {
		return out, false
	}
	a, b := g, g
	// A clause taken apart is ranked by its parts' own words.
	a.Text, a.Values, a.Resolved = left, Values(left), ""
	b.Text, b.Values, b.Resolved = right, Values(right), ""
	b.Order, b.Rank = g.Order+1, g.Rank+1
	for k := range out {
		if out[k].Order > g.Order {
			out[k].Order++
		}
		if out[k].Rank > g.Rank {
			out[k].Rank++
		}
	}
	out[i] = a
	return slices.Insert(out, i+1, b), true
}

// prepositions open a phrase that qualifies what comes before it: a list's items ("the
// details and coordinates of the hotel"), a clause's head ("the weather AT the location of
// ...", "a table FOR 7").
var prepositions = english.Set("prepositions")

// quantifiers may open a noun phrase ("for each guest", "of some hotels").
var quantifiers = english.Set("quantifiers")

// listParts returns the two parts of a clause that asks for a list of things under one verb,
// or under none (see SplitList).
func listParts(text string) (left, right string, ok bool) {
	ts := tokenize(text)
	if len(ts) < 4 {
		return "", "", false
	}
	verb := ts[0].kind == kWord && (verbsPlain[ts[0].low] || verbAt(ts, 0))
	for k := 1; k+1 < len(ts); k++ {
		t := ts[k]
		if t.kind == kWord && (t.low == "between" || t.low == "from") {
			return "", "", false // a range or a route: "between Paris and Lyon"
		}
		if !t.is("and") {
			continue
		}
		next := ts[k+1]
		if _, content := counts(ts[1:k]); content == 0 || next.kind != kWord || next.capitalised() || isNumeric(next) ||
			isNumeric(ts[k-1]) || verbsPlain[next.low] {
			return "", "", false
		}
		if _, content := counts(ts[k+1:]); content == 0 {
			return "", "", false
		}
		// Without a verb, the second item opens a noun phrase of its own: a bare noun shares
		// the first item's ("John's personal information and address").
		if !verb && !articles[next.low] && !quantifiers[next.low] && !strings.HasSuffix(next.low, "'s") {
			return "", "", false
		}
		// What follows the second item's first preposition qualifies both items: "the details
		// and coordinates of the best hotel" are the hotel's details and its coordinates.
		tail := ""
		for j := k + 2; j < len(ts); j++ {
			if ts[j].kind == kWord && prepositions[ts[j].low] {
				tail = " " + span(text, ts[j:])
				break
			}
		}
		right = span(text, ts[k+1:])
		if verb {
			right = ts[0].text + " " + right
		}
		return span(text, ts[:k]) + tail, right, true
	}
	return "", "", false
}
