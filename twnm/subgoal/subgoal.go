// Package subgoal splits a user request into sub-goals for tool retrieval.
//
// A request often asks for several things ("find a hotel near the stadium, then book a table
// at the best-rated restaurant next to it"). Retrieving tools with the whole request tends to
// find the tool of its most salient part and miss the others, its last step above all;
// retrieving once per clause, and once with the whole request, finds more of them. Split
// gives those texts: one Goal per clause that states a task, in the user's words with
// connectives and politeness stripped, then one Goal holding the whole request.
//
// Split is rule-based, deterministic and conservative: it splits at sentence boundaries,
// sequence connectives ("then", "after that", "finally"), enumerations ("1) ... 2) ...",
// "first ..., second ..."), purposes ("so that I can ...") and at "and" or a comma only when a
// new request follows (a frame such as "can you", a question, or a request verb used as a
// verb: "find X and book Y"), never inside a noun list ("the clips and the details", "between
// Paris and Lyon"). Clauses that state no task ("Thank you!", "I'm eager to learn more") are
// dropped; one that only refers back ("Can you provide me with that information?") takes in
// the sentence before when that one stated no task, and is dropped when it did. A retriever that finds a different tool for each item of a list may take the list
// apart with SplitList ("retrieve flight options and hotel availability").
//
// The package is a leaf: it imports only the standard library.
package subgoal

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// Sources of a Goal.
const (
	// SourceSplit marks a goal made by Split.
	SourceSplit = "split"
	// SourceLLM marks a goal made by a language model (the caller builds those).
	SourceLLM = "llm"
)

// Goal is one sub-goal of a request: a text to retrieve tools with.
type Goal struct {
	// Order is the position of the goal in the request, from 0; the whole-request goal comes
	// last, after every clause.
	Order int
	// Text is the clause in the user's words, with connectives, framing ("can you", "I'd like
	// to") and politeness stripped, and runs of white space written as one space; never empty.
	// For the whole-request goal it is the request, trimmed.
	Text string
	// Resolved is Text with a pronoun that stands for what the clause before asks about
	// written as that thing ("where is it exactly" after "how many stars does the best hotel
	// in Lisbon have" is "where is the hotel exactly"), "" when Text has none: what retrieval
	// ranks the clause by (see resolvePronouns).
	Resolved string
	// Values are the values the text states, in order of appearance and without duplicates:
	// numbers with their units ("3 nights", "$200"), dates and times ("3 March", "tomorrow",
	// "9:30"), quoted strings (without their quotes), URLs, e-mail addresses, ids ("AB123",
	// "AAPL", "@handle"), domain names ("Kick.com") and capitalised names not at the start of
	// a sentence ("Lionel Messi", "Rome").
	Values []string
	// Whole is true for the goal holding the whole request.
	Whole bool
	// Rank is the position of the goal in execution order, from 0. It equals Order unless the
	// request says otherwise ("book a table, but first check the weather" ranks the weather
	// first). The whole-request goal has the last rank.
	Rank int
	// Source tells what made the goal: SourceSplit or SourceLLM.
	Source string
	// Tentative marks a clause whose form states no task (no request verb, question or
	// frame: "My token is abc-123", "the hotels there too") beside clauses that do. Whether it
	// asks for one is for retrieval to say: a retriever keeps it where some tool is relevant
	// to it (see recall.Retrieve) and drops it otherwise.
	Tentative bool
}

// String formats g for traces: `#1 "book a table at ..." [Rome, 3 March]`, with "whole" for
// the whole-request goal and the rank when it differs from the order.
func (g Goal) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d %q", g.Order, g.Text)
	if g.Whole {
		b.WriteString(" whole")
	}
	if g.Rank != g.Order {
		fmt.Fprintf(&b, " rank=%d", g.Rank)
	}
	if len(g.Values) > 0 {
		b.WriteString(" [" + strings.Join(g.Values, ", ") + "]")
	}
	return b.String()
}

// Split splits request into sub-goals: one Goal per clause that states a task, in order, then
// one Goal with Whole set holding the whole request (trimmed). There is always at least one
// clause goal: when no clause states a task, the clauses that are not chit-chat are kept, and
// failing those the whole request is the clause. Split returns nil for a blank request and is
// deterministic.
func Split(request string) []Goal {
	src := strings.TrimSpace(request)
	if src == "" {
		return nil
	}
	toks := tokenize(src)
	sents := sentences(toks)

	var clauses []cleaned // every clause that is a task or may be one, in order
	var tentative []bool
	tasks := 0
	var before []token // the sentence before, when it stated no task
	prev := 0          // where the clauses of the sentence before start
	for _, s := range sents {
		segs := splitSentence(s.toks)
		from := len(clauses)
		var first *cleaned // the sentence's first clause, whose frame the others inherit
		stated := false
		for i, seg := range segs {
			c := clean(seg)
			if len(c.toks) == 0 {
				continue
			}
			if first == nil {
				first = &c
			}
			v := isTask(c, *first, s.question && i == len(segs)-1)
			if s.intro && v != no && !verbsPlain[c.toks[0].low] && !verbAt(c.toks, 0) {
				v = no // "I need two things:" introduces what follows
			}
			// "Can you provide me with that information?" asks for what the sentence before
			// names: with it when that sentence stated no task ("I'm interested in the latest
			// expiring domains."), and for nothing new when it did.
			if v == yes && len(segs) == 1 && refersBack(c.toks) {
				if before == nil {
					v = no
				} else {
					c.toks = append(slices.Clip(before), c.toks...)
					// the sentence before is part of this clause now, not a clause of its own
					clauses, tentative, from = clauses[:prev], tentative[:prev], prev
				}
			}
			switch v {
			case yes:
				tasks, stated = tasks+1, true
				clauses, tentative = append(clauses, c), append(tentative, false)
			case maybe:
				clauses, tentative = append(clauses, c), append(tentative, true)
			}
		}
		before = nil
		if !stated {
			before = s.toks
		}
		prev = from
	}
	if tasks == 0 {
		clear(tentative) // no clause states a task: those that may are the request
	}

	var goals []Goal
	for i, c := range clauses {
		goals = append(goals, Goal{
			Order:     i,
			Text:      span(src, c.toks),
			Values:    values(src, c.toks),
			Rank:      i,
			Source:    SourceSplit,
			Tentative: tentative[i],
		})
	}
	if len(goals) == 0 {
		goals = append(goals, Goal{Text: collapse(src), Values: sentenceValues(src, sents), Source: SourceSplit})
	} else {
		rank(goals, clauses)
		resolvePronouns(goals)
	}
	return append(goals, Goal{
		Order:  len(goals),
		Text:   src,
		Values: sentenceValues(src, sents),
		Whole:  true,
		Rank:   len(goals),
		Source: SourceSplit,
	})
}

// refersBack reports whether a clause only points back at something ("provide me with that
// information", "fetch it for me"): a word that refers back, and no word beyond those,
// request verbs and the words around them.
func refersBack(ts []token) bool {
	refers := false
	for k, t := range ts {
		switch {
		case t.kind == kPunct:
		case t.kind != kWord:
			return false
		case referents[t.low]:
			refers = true
		case !(functionWords[t.low] || fillers[t.low] || verbsPlain[t.low] || verbAt(ts, k) ||
			references[t.low] || t.low == "to" || t.low == "well"):
			return false
		}
	}
	return refers
}

// verdict is whether a clause states a task.
type verdict int

const (
	no    verdict = iota // chit-chat: never a goal
	maybe                // no task stated, but kept when no clause states one
	yes                  // a task
)

// isTask decides whether a cleaned clause states a task: a question, a request verb at its
// head, or a frame ("can you", "I need"), its own or that of the first clause of its sentence.
// After a want frame ("I want to gather inspiration and plan an event"), a motive at the head
// states no task unless the clause quotes a value, a URL or an e-mail address, names a tool,
// or the motive's object is information ("gather information about …", a task with or without
// a frame) or a task it is met by ("surprise my family by tracking the package"). A
// purpose ("so that I can ...") needs a request verb. A noun phrase after "and" or "also"
// continues the request before it.
func isTask(c, first cleaned, endsQuestion bool) verdict {
	ts := c.toks
	head := ""
	if ts[0].kind == kWord {
		head = ts[0].low
	}
	var words []string
	for _, t := range ts {
		if t.kind == kWord {
			words = append(words, t.low)
		}
	}
	if chitchat[head] || smallTalk[strings.Join(words, " ")] {
		return no
	}
	// A part of only numbers and letters alone is data, not a request, even at the end of a
	// question: the second half of "the spot at 27.9881 N, 86.9250 E?".
	if !slices.ContainsFunc(words, spelt) {
		return no
	}
	verb := verbsPlain[head] || verbAt(ts, 0)
	question := whWords[head] || auxQuestionAt(ts, 0) || endsQuestion
	if question || verb {
		return yes
	}
	// A frame ("I'd like to", "can you") asks for what follows it, unless a want ends in "to"
	// and what follows shows no object a tool would take ("I want to gather inspiration"): it
	// may say why the user asks, and retrieval says whether it asks for a tool (Tentative).
	if c.toDo && !slices.ContainsFunc(ts, func(t token) bool { return t.kind == kQuote || t.kind == kURL || t.kind == kEmail }) && !namesTool(ts) {
		return maybe
	}
	if c.frame || first.frame {
		return yes
	}
	// "And the weather in Paris.": a noun phrase continuing the previous request.
	continues := slices.ContainsFunc(c.conns, func(p string) bool { return roleContinues.of(p) })
	if continues && (articles[head] || !common[head]) {
		return yes
	}
	if statesValue(ts) {
		return no
	}
	return maybe
}

// spelt reports whether a word is spelt with two letters or more: "86.9250" and "E" are not.
func spelt(w string) bool {
	letters := 0
	for _, r := range w {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return letters > 1
}

// statesValue reports whether a clause that is no question and no request is a statement
// that something is something ("Password is 123456", "Today is 2023.6.8, the meeting is from
// 14:00", "My token is abc-123"): a short subject, then an auxiliary. It gives a value the
// requests beside it use, not a task of its own.
func statesValue(ts []token) bool {
	for k := 1; k < len(ts) && k <= 4; k++ {
		switch t := ts[k]; {
		case t.kind != kWord:
			return false
		case auxes[t.low]:
			return k+1 < len(ts)
		}
	}
	return false
}

// rank sets the Rank of each clause goal from the before- and first-markers of its clause: a
// clause that starts with "before that" or "but first" moves, with the clauses chained to it by
// "then" or "second", before the clause it follows; one that starts with "first" (and is not
// the first clause) moves to the front.
func rank(goals []Goal, cs []cleaned) {
	has := func(c cleaned, r connectiveRole) bool {
		return slices.ContainsFunc(c.conns, r.of)
	}
	var exec []int
	for i := 0; i < len(cs); {
		before, first := has(cs[i], roleBefore), has(cs[i], roleFirst)
		if i == 0 || !(before || first) {
			exec = append(exec, i)
			i++
			continue
		}
		group := []int{i}
		j := i + 1
		for j < len(cs) && has(cs[j], roleSequence) && !has(cs[j], roleBefore) {
			group = append(group, j)
			j++
		}
		at := 0
		if before {
			at = slices.Index(exec, i-1)
		}
		exec = slices.Insert(exec, at, group...)
		i = j
	}
	for pos, i := range exec {
		goals[i].Rank = pos
	}
}

// Merge merges the clause goals i and j of goals into one, for when one tool covers both: the
// texts are joined with " and " (the earlier first), the values unioned, and the merged goal
// takes the place, order, source and smaller rank of the earlier one. Orders and ranks are then
// renumbered from 0 keeping their relative order; the whole-request goal stays last. Merge
// returns a copy of goals unchanged when i or j is out of range, when they are equal, or when
// either is the whole-request goal. It does not modify goals.
func Merge(goals []Goal, i, j int) []Goal {
	out := make([]Goal, len(goals))
	for k, g := range goals {
		g.Values = slices.Clone(g.Values)
		out[k] = g
	}
	if i < 0 || j < 0 || i >= len(out) || j >= len(out) || i == j || out[i].Whole || out[j].Whole {
		return out
	}
	if j < i {
		i, j = j, i
	}
	a, b := out[i], out[j]
	if a.Resolved != "" || b.Resolved != "" {
		a.Resolved = cmp.Or(a.Resolved, a.Text) + " and " + cmp.Or(b.Resolved, b.Text)
	}
	a.Text = a.Text + " and " + b.Text
	for _, v := range b.Values {
		if !slices.Contains(a.Values, v) {
			a.Values = append(a.Values, v)
		}
	}
	a.Rank = min(a.Rank, b.Rank)
	a.Tentative = a.Tentative && b.Tentative
	out[i] = a
	out = slices.Delete(out, j, j+1)
	return renumber(out)
}

// Renumber returns a copy of goals, some of a request's goals left out, with orders and ranks
// numbered from 0 again keeping their relative order; the whole-request goal stays last.
func Renumber(goals []Goal) []Goal {
	return renumber(slices.Clone(goals))
}

// renumber numbers out's orders by position and its ranks by (rank, order) among the clause
// goals, in place.
func renumber(out []Goal) []Goal {
	var idx []int
	for k := range out {
		out[k].Order = k
		if !out[k].Whole {
			idx = append(idx, k)
		}
	}
	slices.SortStableFunc(idx, func(x, y int) int { return out[x].Rank - out[y].Rank })
	for r, k := range idx {
		out[k].Rank = r
	}
	for k := range out {
		if out[k].Whole {
			out[k].Rank = len(idx)
		}
	}
	return out
}

// span returns the text of ts in src, runs of white space written as one space.
func span(src string, ts []token) string {
	return collapse(src[ts[0].start:ts[len(ts)-1].end])
}

// collapse writes runs of white space as one space and trims the ends.
func collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// resolvePronouns sets Resolved of each clause after the first that refers back with a
// pronoun that stands for a thing ("it", "them", "its") before any noun phrase of its own: the
// pronoun is written as the thing the clause before asks about, the last word of that
// clause's head (Focus), where its noun phrase ends. Alone, "where is it exactly" names
// nothing a tool could be found for; "ask the chatbot if it knows" says what "it" is itself.
func resolvePronouns(goals []Goal) {
	for i := 1; i < len(goals); i++ {
		ws := words(tokenize(Focus(goals[i-1].Text)))
		// What the clause before asks about is the noun that ends its head; where its head
		// ends on no noun ("where exactly is Lima"), the one value it names is what a
		// possessive pronoun refers to ("I need its coordinates": Lima's).
		thing, named := "", ""
		switch {
		case len(ws) > 0 && !functionWords[ws[len(ws)-1].low]:
			thing = "the " + ws[len(ws)-1].low
		case len(goals[i-1].Values) == 1:
			named = goals[i-1].Values[0]
		default:
			continue
		}
		text := goals[i].Text
		for _, t := range tokenize(text) {
			if t.kind != kWord {
				continue
			}
			if articles[t.low] && !possessivePronouns[t.low] {
				break // a noun phrase of its own comes first
			}
			if thing != "" && backPronoun(t.low) {
				goals[i].Resolved = text[:t.start] + thing + text[t.end:]
				break
			}
			if named != "" && possessivePronouns[t.low] {
				goals[i].Resolved = text[:t.start] + named + "'s" + text[t.end:]
				break
			}
		}
	}
}
