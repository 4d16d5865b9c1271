package subgoal

import (
	"strings"
)

// sentence is a run of tokens between sentence boundaries.
type sentence struct {
	toks     []token
	question bool // it ended with a question mark
	// intro marks a sentence that ends with a colon: it introduces the requests after it ("I
	// need two things:", "Please do the following:") and states none itself.
	intro bool
}

// isTerminal reports whether a punctuation token ends a sentence.
func isTerminal(t token) bool {
	if t.kind != kPunct {
		return false
	}
	switch t.text {
	case "?", "!", ";", "…", "？", "！", "。", "；":
		return true
	}
	return strings.Trim(t.text, ".") == "" // one or more periods
}

// sentences splits toks at sentence boundaries: terminal punctuation, line breaks, enumeration
// markers, abbreviations that end a sentence, and a colon followed by a clause or an
// enumeration. The first word of each sentence gets sentStart, and the words of a title-case
// sentence get inTitle.
func sentences(toks []token) []sentence {
	var out []sentence
	buf := make([]token, 0, len(toks)) // never grows, so sentences can share it
	start := 0
	flush := func(question bool) {
		if len(buf) > start {
			toks := buf[start:len(buf):len(buf)]
			intro := toks[len(toks)-1].punct(":")
			out = append(out, sentence{toks: toks, question: question, intro: intro})
		}
		start = len(buf)
	}
	for k, t := range toks {
		switch {
		case t.kind == kBreak || t.kind == kEnum:
			flush(false)
		case isTerminal(t):
			flush(strings.ContainsAny(t.text, "?？"))
		case t.punct(":") && k+1 < len(toks) && (toks[k+1].kind == kEnum || isClauseStart(toks, k+1)):
			buf = append(buf, t) // kept, so that the sentence shows it introduces
			flush(false)
		default:
			buf = append(buf, t)
			if t.endsSentence {
				flush(false)
			}
		}
	}
	flush(false)
	for i := range out {
		if titleCase(out[i].toks) {
			for k := range out[i].toks {
				out[i].toks[k].inTitle = true
			}
		}
		for k := range out[i].toks {
			if out[i].toks[k].kind == kWord {
				out[i].toks[k].sentStart = true
				break
			}
			if out[i].toks[k].kind != kPunct {
				break
			}
		}
	}
	return out
}

// matchPhrase returns the number of tokens of the longest phrase of list that starts at k,
// and the phrase joined with "_"; 0 and "" when none does. With skipFillers, fillers may stand
// between the words of a phrase ("can you also please").
func matchPhrase(ts []token, k int, list phraseList, skipFillers bool) (int, string) {
	if k >= len(ts) || ts[k].kind != kWord {
		return 0, ""
	}
	for _, p := range list.byFirst[ts[k].low] {
		if n := matchWords(ts, k, p, skipFillers); n > 0 {
			return n, strings.Join(p, "_")
		}
	}
	return 0, ""
}

// matchWords returns the number of tokens the words p take from k, or 0 when they do not
// start at k.
func matchWords(ts []token, k int, p []string, skipFillers bool) int {
	j := k
	for i, w := range p {
		if skipFillers && i > 0 {
			for j < len(ts) && ts[j].kind == kWord && fillers[ts[j].low] && ts[j].low != w {
				j++
			}
		}
		if j >= len(ts) || !ts[j].is(w) {
			return 0
		}
		j++
	}
	return j - k
}

// matchFrame returns the length of a direct or want frame at k, and whether it is a want frame.
func matchFrame(ts []token, k int) (int, bool) {
	if n, _ := matchPhrase(ts, k, directFrames, true); n > 0 {
		return n, false
	}
	n, _ := matchPhrase(ts, k, wantFrames, true)
	return n, n > 0
}

// isClauseStart reports whether a new request starts at k: a frame, a question, or a verb
// used as a verb, possibly after fillers ("also please book ...").
func isClauseStart(ts []token, k int) bool {
	for k < len(ts) && ts[k].kind == kWord && fillers[ts[k].low] {
		if n, _ := matchFrame(ts, k); n > 0 {
			return true // "please" is a frame of its own
		}
		k++
	}
	if k >= len(ts) {
		return false
	}
	if n, _ := matchFrame(ts, k); n > 0 {
		return true
	}
	return whQuestionAt(ts, k) || auxQuestionAt(ts, k) || verbAt(ts, k)
}

// whQuestionAt reports whether a wh-question starts at k ("what is", "how many", "who
// directed"), as opposed to an embedded clause ("when and where the concert is").
func whQuestionAt(ts []token, k int) bool {
	t := ts[k]
	if t.kind != kWord || !whWords[t.low] {
		return false
	}
	if strings.HasSuffix(t.low, "'s") || t.low == "whats" {
		return true
	}
	if k+1 >= len(ts) || ts[k+1].kind != kWord {
		return false
	}
	n := ts[k+1].low
	// "how many", "who directed", "what is": an auxiliary, or a content word that no subject
	// follows ("what ingredients I need" is embedded); a determiner or a pronoun makes the
	// clause embedded ("when and where the concert is") unless an auxiliary follows the noun it
	// opens ("which city is").
	if auxes[n] || !functionWords[n] && !(k+2 < len(ts) && subjects[ts[k+2].low] && !articles[ts[k+2].low]) {
		return true
	}
	return !articles[n] && k+2 < len(ts) && ts[k+2].kind == kWord && auxes[ts[k+2].low]
}

// auxQuestionAt reports whether a yes/no question starts at k ("is there", "does it").
func auxQuestionAt(ts []token, k int) bool {
	return k+1 < len(ts) && ts[k].kind == kWord && auxes[ts[k].low] && ts[k+1].kind == kWord &&
		subjects[ts[k+1].low]
}

// verbAt reports whether ts[k] is used as a verb: a plain request verb (verbsPlain) followed by
// anything but a conjunction or a preposition, or any other word followed by what shows a verb
// use (see below). No list of verbs decides: "and deploy the latest version" splits as "and
// book a table" does.
func verbAt(ts []token, k int) bool {
	t := ts[k]
	if t.kind != kWord || k+1 >= len(ts) {
		return false
	}
	n := ts[k+1]
	if t.capitalised() && !t.sentStart && k > 0 && ts[k-1].kind == kWord {
		// Inside a title ("Pride and Prejudice", "Law and Order") only a determiner or a
		// pronoun shows a verb ("... and Book a meeting").
		return !functionWords[t.low] && n.kind == kWord && (articles[n.low] || objectPronouns[n.low])
	}
	switch {
	case verbsPlain[t.low]:
		// "find X and book Y" but not "a hotel I can book and cancel for free".
		return n.kind != kPunct && n.kind != kBreak && n.kind != kEnum && !(n.kind == kWord && notObjects[n.low])
	case !functionWords[t.low] && !fillers[t.low] && !strings.ContainsAny(t.low, "'") && !participle(t) &&
		!strings.HasSuffix(t.low, "ing"):
		// A content word is a verb by what follows it: a determiner, a pronoun, a particle, a
		// question word, a proper noun or a count ("deploy the latest version", "filter out
		// the movies", "play Bohemian Rhapsody", "book 2 rooms"). A quotation follows nouns as
		// often ("subject 'Meeting' and content 'Hello'"), so it shows nothing. A contraction
		// ("I'm a ...") is a subject and its auxiliary, and a participle ("including the
		// ...", "based on the ...") qualifies the clause before it: neither is a request.
		if n.kind != kWord {
			return false
		}
		if ShowsVerb(n.low) {
			return true
		}
		if n.capitalised() && !allCaps(n.text) && !common[n.low] && !t.capitalised() {
			return true // "play Bohemian Rhapsody"
		}
		return wholeNumber(n.text) && k+2 < len(ts) && ts[k+2].kind == kWord && !functionWords[ts[k+2].low]
	}
	return false
}

// isNumeric reports whether t is a number ("3", "$200", "3.5", "25%").
func isNumeric(t token) bool {
	if t.kind != kWord {
		return false
	}
	s := strings.TrimLeft(t.text, "$€£¥")
	return s != "" && s[0] >= '0' && s[0] <= '9'
}

// wordish reports whether t carries words: a word, a quotation, a URL or an e-mail address.
func wordish(t token) bool {
	return t.kind == kWord || t.kind == kQuote || t.kind == kURL || t.kind == kEmail
}

// counts returns how many tokens of ts carry words, and how many of those are not frame words.
func counts(ts []token) (words, content int) {
	for _, t := range ts {
		if !wordish(t) {
			continue
		}
		words++
		if t.kind != kWord || !functionWords[t.low] {
			content++
		}
	}
	return words, content
}

// splitSentence cuts a sentence into clause segments; the connectives stay at the start of the
// segment they introduce, for clean to strip.
func splitSentence(ts []token) [][]token {
	var segs [][]token
	start := 0
	for k := 1; k < len(ts); k++ {
		if k > start && splitsAt(ts, start, k) {
			segs = append(segs, ts[start:k])
			start = k
		}
	}
	return append(segs, ts[start:])
}

// splitsAt reports whether a new clause starts at ts[k], the current one having started at
// start.
func splitsAt(ts []token, start, k int) bool {
	left := ts[start:k]
	t := ts[k]
	switch {
	case t.punct(",") || t.punct("，"):
		return commaSplits(ts, left, k)
	case t.is("and"):
		if ts[k-1].punct(",") {
			return false // the comma before it was not a split, so neither is this
		}
		return andSplits(ts, left, k)
	}
	if n, phrase := matchPhrase(ts, k, connectives, false); n > 0 && roleMid.of(phrase) {
		j := k + n
		if j < len(ts) && ts[j].punct(",") {
			j++
		}
		_, content := counts(left)
		if content == 0 || j >= len(ts) {
			return false
		}
		if phrase == "as_well_as" && gerundAt(ts, j) {
			return true
		}
		return isClauseStart(ts, j)
	}
	// A bare question frame in a run-on request ("find hotels in Rome can you also book ...").
	if n, want := matchFrame(ts, k); n > 0 && !want && (t.is("can") || t.is("could") || t.is("would") || t.is("will")) {
		_, content := counts(left)
		return content >= 2
	}
	return false
}

// commaSplits decides a split at the comma ts[k]: after it may come connectives ("then",
// "and also", "second,"), a purpose ("so that I can ..."), a frame, a question or a verb.
func commaSplits(ts []token, left []token, k int) bool {
	j := k + 1
	sawConn := false
	for j < len(ts) {
		n, phrase := matchPhrase(ts, j, connectives, false)
		if n == 0 {
			break
		}
		if roleOrdinal.of(phrase) {
			next := j + n
			if next >= len(ts) || !(ts[next].punct(",") || isClauseStart(ts, next)) {
				break
			}
		}
		sawConn = true
		j += n
		if j < len(ts) && ts[j].punct(",") {
			j++
		}
	}
	if j >= len(ts) {
		return false
	}
	_, content := counts(left)
	if content == 0 {
		return false // "Also, find ...", "First, book ..."
	}
	if !isClauseStart(ts, j) {
		return false
	}
	if sawConn {
		return true
	}
	if n, _ := matchFrame(ts, j); n > 0 {
		return true
	}
	return leftIsRequest(left)
}

// andSplits decides a split at the "and" ts[k]: it joins two requests when a frame, a question
// or a verb with its object follows it ("find X and book Y"), not when it joins two nouns
// ("clips and details", "between Paris and Lyon", "rock and roll").
func andSplits(ts []token, left []token, k int) bool {
	j := k + 1
	for j < len(ts) {
		n, phrase := matchPhrase(ts, j, connectives, false)
		if n == 0 || roleWeak.of(phrase) || roleOrdinal.of(phrase) && phrase != "finally" && phrase != "lastly" {
			break
		}
		j += n
		if j < len(ts) && ts[j].punct(",") {
			j++
		}
	}
	if j >= len(ts) {
		return false
	}
	_, content := counts(left)
	if content == 0 {
		return false
	}
	if n, _ := matchFrame(ts, j); n > 0 {
		return true
	}
	if whQuestionAt(ts, j) || auxQuestionAt(ts, j) {
		return true
	}
	rightWords, _ := counts(ts[j:])
	for j < len(ts) && ts[j].kind == kWord && fillers[ts[j].low] {
		j++
	}
	return j < len(ts) && verbAt(ts, j) && content >= 2 && rightWords >= 2
}

// leftIsRequest reports whether a clause begins like a request: a frame, a question or a verb.
// A bare comma only splits after one ("find hotels in Rome, book the cheapest"), not after a
// circumstance ("if it rains, find a museum").
func leftIsRequest(left []token) bool {
	c := clean(left)
	if c.frame {
		return true
	}
	if len(c.toks) == 0 || c.toks[0].kind != kWord {
		return false
	}
	h := c.toks[0].low
	return verbsPlain[h] || verbAt(c.toks, 0) || whWords[h] || auxQuestionAt(c.toks, 0)
}

// gerundAt reports whether ts[k] reads as the -ing form of a verb ("as well as booking", "by
// tracking"): a lowercase word of three letters or more before "-ing".
func gerundAt(ts []token, k int) bool {
	w := ts[k].low
	return ts[k].kind == kWord && !ts[k].capitalised() && strings.HasSuffix(w, "ing") && len(w) >= 6
}

// cleaned is a clause segment with its framing stripped.
type cleaned struct {
	toks  []token
	conns []string // connectives stripped from its start, joined with "_"
	frame bool     // a frame was stripped
	want  bool     // the frame was a want ("I'd like to")
	// toDo marks a want that ends with "to" ("I want to ..."): a verb follows it, whatever
	// word it is, and what it does is for its object to show.
	toDo bool
}

// clean strips connectives, purpose markers, frames, fillers and punctuation from the start of
// seg, and punctuation and politeness from its end.
func clean(seg []token) cleaned {
	var c cleaned
	ts := seg
	for len(ts) > 0 {
		t := ts[0]
		if t.kind == kPunct {
			ts = ts[1:]
			continue
		}
		if n, phrase := matchPhrase(ts, 0, connectives, false); n > 0 {
			if roleOrdinal.of(phrase) || phrase == "so" || phrase == "well" || phrase == "now" {
				// "next week's games", "first 5 results", "so many", "well-known" stay.
				if n >= len(ts) || !(ts[n].punct(",") || isClauseStart(ts, n) || connectiveAt(ts, n)) {
					break
				}
			}
			c.conns = append(c.conns, phrase)
			ts = ts[n:]
			continue
		}
		if n, want := matchFrame(ts, 0); n > 0 {
			c.frame = true
			c.want = c.want || want
			c.toDo = want && ts[n-1].is("to")
			ts = ts[n:]
			continue
		}
		if n := subjectWantAt(ts); n > 0 {
			c.frame, c.want = true, true
			c.toDo = ts[n-1].is("to")
			ts = ts[n:]
			continue
		}
		if t.kind == kWord && fillers[t.low] && len(ts) > 1 {
			ts = ts[1:]
			continue
		}
		break
	}
	for len(ts) > 0 {
		last := ts[len(ts)-1]
		if last.kind == kPunct && !(last.text == ")" && hasOpen(ts)) {
			ts = ts[:len(ts)-1]
			continue
		}
		if n := trailerAt(ts); n > 0 && n < len(ts) {
			ts = ts[:len(ts)-n]
			continue
		}
		break
	}
	c.toks = ts
	return c
}

// subjectWantAt returns the length of a want that another subject than the user states at the
// start of ts ("my friend wants to", "they need"), or 0: a subject of up to three words, from a
// subjectHead on and without a verb, then a subjectWant, or a subjectInterest in doing something.
func subjectWantAt(ts []token) int {
	if len(ts) == 0 || ts[0].kind != kWord || !subjectHeads[ts[0].low] {
		return 0
	}
	for k := 1; k <= 3 && k < len(ts); k++ {
		if n, _ := matchPhrase(ts, k, subjectWants, true); n > 0 {
			return k + n
		}
		if n, _ := matchPhrase(ts, k, subjectInterests, true); n > 0 && k+n < len(ts) && gerundAt(ts, k+n) {
			return k + n
		}
		if t := ts[k]; t.kind != kWord || verbsPlain[t.low] || verbAt(ts, k) || subjectHeads[t.low] {
			return 0
		}
	}
	return 0
}

// connectiveAt reports whether a connective starts at k.
func connectiveAt(ts []token, k int) bool {
	n, _ := matchPhrase(ts, k, connectives, false)
	return n > 0
}

// hasOpen reports whether ts holds an opening parenthesis.
func hasOpen(ts []token) bool {
	for _, t := range ts {
		if t.punct("(") {
			return true
		}
	}
	return false
}

// trailerAt returns the length of a trailer ("please", "thank you") ending ts, or 0.
func trailerAt(ts []token) int {
	for _, p := range trailers.all {
		if len(p) > len(ts) {
			continue
		}
		if n := matchWords(ts, len(ts)-len(p), p, false); n == len(p) {
			return n
		}
	}
	return 0
}
