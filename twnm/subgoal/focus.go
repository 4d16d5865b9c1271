package subgoal

import (
	"maps"
	"slices"
	"strings"
)

// vagueHeads name no thing of their own: "the details of the order" asks for the order's
// details, so its head reaches past "of".
// They are matched in the singular, beside the quantifiers ("some of the hotels").
var vagueHeads = english.Set("vague-heads")

// vague reports whether w is a vague head (see vagueHeads), singular or plural.
func vague(w string) bool {
	return vagueHeads[w] || vagueHeads[strings.TrimSuffix(w, "s")] || quantifiers[w]
}

// toolWords end a tool's name in a request ("the QR Code Generator API", "the bitly tools"), in
// the singular.
var toolWords = english.Set("tool-words")

// namesTool reports whether ts names a tool ("using the bitly tool").
func namesTool(ts []token) bool {
	return slices.ContainsFunc(ts, func(t token) bool { return t.kind == kWord && toolWords[strings.TrimSuffix(t.low, "s")] })
}

// Focus returns the head of a clause: what it asks for, without the noun phrase that says
// which thing it asks about. "What is the current weather at the location of the best hotel
// in Rome?" asks for the current weather; the hotel and Rome only say where. The head ends at
// the first preposition, after a word of content, that opens a noun phrase (a determiner, a
// possessive, a number, a quotation, a name, or a value with its name: "near latitude 52.5"):
//   - a bare noun after it is part of what is asked ("the reviews of movies");
//   - a vague head reaches past it ("the details of the order": details are no thing of
//     their own);
//   - a preposition after a participle belongs to its verb ("which devices are included in
//     the scene");
//   - "who directed the top-rated movie" has the head "who directed".
//
// Focus returns "" when the clause has no such head, when the head is the whole clause, and
// when the rest names a tool ("... using the bitly tool"): the clause says which tool serves
// it. A request's final step is what its head asks for; the rest names the steps that feed it.
// Where a dash sets off a command or a question, the clause asks what follows it (afterDash):
// its head, or all of it where it has none.
func Focus(text string) string {
	if rest, ok := afterDash(text); ok {
		if f := Focus(rest); f != "" {
			return f
		}
		return rest
	}
	ts := tokenize(text)
	if w := words(ts); len(w) >= 3 && (w[0].is("who") || w[0].is("what") || w[0].is("which")) &&
		pastVerb(w[1]) && opensSubject(w, 2) {
		return span(text, w[:2]) // "who directed | the top-rated movie"
	}
	if len(ts) > 0 && articles[ts[0].low] {
		return "" // a bare noun phrase ("a review for Breaking Bad") is asked for whole
	}
	content := false
	for k, t := range ts {
		if t.kind != kWord {
			continue
		}
		if content && subjectPrepositions[t.low] && opensSubject(ts, k+1) && !(k > 0 && participle(ts[k-1])) {
			if namesTool(ts[k+1:]) {
				return "" // "validate the e-mails using the Disposable Email Checker API"
			}
			head := trimTrailing(ts[:k])
			if predicate(words(head)) {
				return "" // "who's top | of the table": the whole clause asks
			}
			return span(text, head)
		}
		if !common[t.low] && !isNumeric(t) && !vague(t.low) {
			content = true
		}
	}
	return ""
}

// subjectPrepositions introduce the thing a request asks about: "the reviews OF the best
// restaurant", "the weather AT the location of ...", "a hotel IN Rome", "a table FOR 7": the
// prepositions but those after which the head goes on (a thing added or sent TO somewhere is
// still what is asked).
var subjectPrepositions = func() map[string]bool {
	m := maps.Clone(prepositions)
	for _, w := range english.Entries("prepositions-past-the-subject") {
		delete(m, w)
	}
	return m
}()

// opensSubject reports whether ts[k] may open the noun phrase a preposition introduces: a
// determiner, a quantifier, a possessive ("of today's most trending movie"), a number, a
// quotation, a name, a value with its name ("near latitude 52.52", "for listing lst-92aa"), or a day said relative to
// today, which is a date ("the weather forecast for tomorrow" as for 2026-12-01: when, not
// what).
func opensSubject(ts []token, k int) bool {
	if k >= len(ts) {
		return false
	}
	switch t := ts[k]; t.kind {
	case kQuote, kURL, kEmail:
		return true
	case kWord:
		named := k+1 < len(ts) && (isNumeric(ts[k+1]) || isID(ts[k+1]) || ts[k+1].kind == kQuote)
		_, day := RelativeDay(strings.TrimSuffix(t.low, "'s"))
		return day || articles[t.low] || quantifiers[t.low] || strings.HasSuffix(t.low, "'s") || isNumeric(t) || (t.capitalised() && !common[t.low]) || named
	}
	return false
}

// trimTrailing drops the punctuation that ends ts.
func trimTrailing(ts []token) []token {
	for len(ts) > 0 && !wordish(ts[len(ts)-1]) {
		ts = ts[:len(ts)-1]
	}
	return ts
}

// participle reports whether t reads as a past participle ("included", "located"): a
// preposition after one belongs to the verb ("the devices included in the scene"), and what it
// introduces is part of what is asked.
func participle(t token) bool {
	return len(t.low) > 4 && strings.HasSuffix(t.low, "ed") && !strings.HasSuffix(t.low, "eed")
}

// words returns the word tokens of ts.
func words(ts []token) []token {
	var out []token
	for _, t := range ts {
		if t.kind == kWord {
			out = append(out, t)
		}
	}
	return out
}

// pastVerb reports whether t reads as a verb in the past tense that is not an auxiliary
// ("directed", "wrote").
func pastVerb(t token) bool {
	if auxes[t.low] || common[t.low] {
		return false
	}
	return strings.HasSuffix(t.low, "ed")
}

// afterDash is what follows the last dash of text that sets off a request of its own (a
// command or a question): "I'm going through the contact messages for my site — show me what
// people submitted" asks what follows the dash.
func afterDash(text string) (string, bool) {
	i, n := -1, 0
	for _, d := range "—–-" { // an em dash, an en dash, a hyphen, set off by spaces
		sep := " " + string(d) + " "
		if j := strings.LastIndex(text, sep); j > i {
			i, n = j, len(sep)
		}
	}
	if i < 0 {
		return "", false
	}
	rest := strings.TrimSpace(text[i+n:])
	ts := tokenize(rest)
	if len(ts) == 0 || !(imperative(ts) || ts[0].kind == kWord && whWords[ts[0].low]) {
		return "", false
	}
	return rest, true
}

// predicate reports whether the words of a head are a question word, an auxiliary and one
// word with no determiner, a preposition before it aside: "who's top | of the table" and
// "who is on top | of Serie A" ask who is top of what follows; "top" is said of the one asked
// about, not a thing asked for, and the head names nothing without the rest.
func predicate(ws []token) bool {
	if n := len(ws); n >= 3 && prepositions[ws[n-2].low] {
		ws = append(slices.Clone(ws[:n-2]), ws[n-1])
	}
	switch {
	case len(ws) == 2 && strings.HasSuffix(ws[0].low, "'s") && whWords[ws[0].low]:
		return !articles[ws[1].low]
	case len(ws) == 3 && whWords[ws[0].low] && auxes[ws[1].low]:
		return !articles[ws[2].low]
	}
	return false
}
