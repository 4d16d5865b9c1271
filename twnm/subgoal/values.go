package subgoal

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Values returns the values text states, as Goal.Values describes them. It is what Split uses
// for each goal; a caller that builds goals some other way (SourceLLM) can use it to fill
// their Values.
func Values(text string) []string {
	src := strings.TrimSpace(text)
	return sentenceValues(src, sentences(tokenize(src)))
}

// sentenceValues returns the values of the sentences of src, without duplicates.
func sentenceValues(src string, sents []sentence) []string {
	var out []string
	for _, s := range sents {
		for _, v := range values(src, s.toks) {
			if !contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// values returns the values of the tokens ts of src (one clause or one sentence).
func values(src string, ts []token) []string {
	var out []string
	add := func(v string) {
		v = collapse(v)
		if v != "" && !contains(out, v) {
			out = append(out, v)
		}
	}
	for k := 0; k < len(ts); {
		t := ts[k]
		switch t.kind {
		case kQuote:
			add(unquote(t.text))
			k++
			continue
		case kURL, kEmail:
			add(t.text)
			k++
			continue
		case kWord:
		default:
			k++
			continue
		}
		if n := dateAt(ts, k); n > 0 {
			add(stripPossessive(src[t.start:ts[k+n-1].end]))
			k += n
			continue
		}
		if n := relativeAt(ts, k); n > 0 {
			add(stripPossessive(src[t.start:ts[k+n-1].end]))
			k += n
			continue
		}
		if n := numberAt(ts, k); n > 0 {
			add(stripPossessive(src[t.start:ts[k+n-1].end]))
			k += n
			continue
		}
		if allCaps(t.text) && len(t.text) <= 3 && k+1 < len(ts) && isDigits(ts[k+1].text) {
			add(src[t.start:ts[k+1].end]) // "BA 2490"
			k += 2
			continue
		}
		if n := properAt(ts, k); n > 0 {
			add(stripPossessive(src[t.start:ts[k+n-1].end]))
			k += n
			continue
		}
		if isID(t) || isDomain(t) {
			add(stripPossessive(t.text))
		}
		k++
	}
	return out
}

// WithoutQuotes is text without what it quotes between double quotes (straight or curly,
// paired as the tokenizer pairs them: closingQuote), each quotation a space: a quoted name or
// message is a value the request states, not words of what it asks for. "For my \"Support
// Ticket Triage\" eval, show me the cases that failed" asks for an eval's runs, not for a
// support ticket. A text that is all quotation is kept whole.
func WithoutQuotes(text string) string {
	var b strings.Builder
	from := 0 // the text not yet written
	for i := 0; i < len(text); {
		r, w := runeAt(text, i)
		if r == '"' || r == '“' || r == '„' {
			if end := closingQuote(text, i, r); end > 0 {
				b.WriteString(text[from:i])
				b.WriteByte(' ')
				i, from = end, end
				continue
			}
		}
		i += w
	}
	b.WriteString(text[from:])
	if out := b.String(); strings.ContainsFunc(out, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		return out
	}
	return text
}

// unquote strips the quotes of a quotation and trims it.
func unquote(s string) string {
	_, w := utf8.DecodeRuneInString(s)
	_, lw := utf8.DecodeLastRuneInString(s)
	if w+lw > len(s) {
		return ""
	}
	return strings.TrimSpace(s[w : len(s)-lw])
}

// stripPossessive drops a final "'s" or "’s" ("Messi's" → "Messi").
func stripPossessive(s string) string {
	for _, suf := range []string{"'s", "’s", "'S", "’S"} {
		if strings.HasSuffix(s, suf) && len(s) > len(suf) {
			return s[:len(s)-len(suf)]
		}
	}
	return s
}

// base is the lowercase word without a possessive.
func base(t token) string { return stripPossessive(t.low) }

// titleCase reports whether most of five or more words of ts are capitalised ("Find Hotels In
// Rome Near The Stadium"); capitalisation then says nothing about names.
func titleCase(ts []token) bool {
	words, caps := 0, 0
	for _, t := range ts {
		if t.kind != kWord || !hasLetter(t.text) {
			continue
		}
		words++
		if t.capitalised() {
			caps++
		}
	}
	return words >= 5 && caps*4 >= words*3
}

func hasLetter(s string) bool {
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}

// isDigits reports whether s is a run of ASCII digits.
func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

func hasDigit(s string) bool {
	return strings.IndexFunc(s, unicode.IsDigit) >= 0
}

// dayOf returns the day of a token such as "3", "03" or "3rd", or 0.
func dayOf(t token) int {
	if t.kind != kWord {
		return 0
	}
	s := t.low
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		s = strings.TrimSuffix(s, suf)
	}
	if len(s) == 0 || len(s) > 2 {
		return 0
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 31 {
		return 0
	}
	return n
}

// isYear reports whether t is a year from 1900 to 2199.
func isYear(t token) bool {
	if t.kind != kWord || len(t.low) != 4 {
		return false
	}
	n, err := strconv.Atoi(t.low)
	return err == nil && n >= 1900 && n < 2200
}

// isMonth reports whether t names a month by its full name; with strict, only capitalised and
// other than "May".
func isMonth(t token, strict bool) bool {
	if t.kind != kWord {
		return false
	}
	w := base(t)
	if strict {
		return months[w] && w != "may" && t.capitalised()
	}
	return months[w]
}

// dateAt returns the number of tokens of a date at k: "3 March", "3rd of March 2024",
// "March 3", "March 3rd, 2024", "March 2024", or a capitalised month name alone.
func dateAt(ts []token, k int) int {
	at := func(i int) token {
		if i < len(ts) {
			return ts[i]
		}
		return token{}
	}
	year := func(i int) int { // ", 2024" or " 2024" after a date ending before i
		if isYear(at(i)) {
			return 1
		}
		if at(i).punct(",") && isYear(at(i+1)) {
			return 2
		}
		return 0
	}
	if dayOf(at(k)) > 0 {
		i := k + 1
		if at(i).is("of") {
			i++
		}
		if isMonth(at(i), false) {
			return i + 1 + year(i+1) - k
		}
		return 0
	}
	if !isMonth(at(k), false) {
		return 0
	}
	if dayOf(at(k+1)) > 0 {
		return 2 + year(k+2)
	}
	if isYear(at(k + 1)) {
		return 2
	}
	if isMonth(at(k), true) {
		return 1
	}
	return 0
}

// relativeAt returns the number of tokens of a relative date or a time at k: "today",
// "tomorrow morning", "the day after tomorrow", "Monday", "noon".
func relativeAt(ts []token, k int) int {
	t := ts[k]
	w := base(t)
	next := ""
	if k+1 < len(ts) && ts[k+1].kind == kWord {
		next = base(ts[k+1])
	}
	switch {
	case w == "day" && next == "after" && k+2 < len(ts) && ts[k+2].is("tomorrow"):
		return 3
	case relativeDaySet[w]:
		if dayParts[next] {
			return 2
		}
		return 1
	case relativeHeads[w] && (relativeTails[next] || weekday(next) || dayParts[next]):
		return 2
	case weekday(w) && (len(w) > 3 && !strings.HasPrefix(w, "sun") || t.capitalised()):
		if dayParts[next] {
			return 2
		}
		return 1
	case w == "noon" || w == "midnight":
		return 1
	}
	return 0
}

// numberAt returns the number of tokens of a number value at k, with a prefix ("top 5",
// "next 3 days") and what it counts: the plural noun right after a whole number ("3 nights",
// "2 adults"), known by its form, not by a list of units. Amounts, rates and times stand alone
// ("$300,000 mortgage", "6.5% over").
func numberAt(ts []token, k int) int {
	i := k
	if numberPrefixes[ts[i].low] && i+1 < len(ts) && isNumeric(ts[i+1]) {
		i++
	}
	t := ts[i]
	unitAt := func(j int) bool {
		return j < len(ts) && ts[j].kind == kWord && !functionWords[ts[j].low] && !ts[j].capitalised() &&
			len(ts[j].low) > 3 && strings.HasSuffix(ts[j].low, "s") && wholeNumber(t.text)
	}
	if !isNumeric(t) {
		return 0
	}
	switch {
	case unitAt(i + 1):
		i++
	case i+1 < len(ts) && meridiem(ts[i+1].low):
		i++ // "8 pm", "2:30 p.m."
	case i+2 < len(ts) && ts[i+1].punct("°") && ts[i+2].start == ts[i+1].end &&
		(ts[i+2].low == "c" || ts[i+2].low == "f"):
		i += 2 // "30 °C", "86°F"
	}
	return i + 1 - k
}

// meridiem reports whether w marks a time of the twelve-hour clock.
func meridiem(w string) bool {
	return w == "am" || w == "pm" || w == "a.m." || w == "p.m."
}

// wholeNumber reports whether s is digits alone ("3", "12").
func wholeNumber(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// isID reports whether t is an id: letters and digits mixed ("AB123", "tt0111161"), an
// underscore ("user_42"), a handle or tag ("@nasa", "#travel"), or two or more capitals
// ("AAPL", "NYC").
func isID(t token) bool {
	if t.kind != kWord {
		return false
	}
	s := stripPossessive(t.text)
	if strings.HasPrefix(s, "@") || strings.HasPrefix(s, "#") {
		return len(s) > 1
	}
	if hasLetter(s) && hasDigit(s) || strings.Contains(s, "_") {
		return true
	}
	return allCaps(s)
}

// allCaps reports whether s has two or more letters, all capitals, and is no common
// abbreviation.
func allCaps(s string) bool {
	letters := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			if !unicode.IsUpper(r) {
				return false
			}
			letters++
		}
	}
	return letters >= 2
}

// isDomain reports whether t is a domain name ("Kick.com", "example.org"): dotted labels, the
// last of 2 to 24 letters. Abbreviations ("e.g.") end with a period and are none.
func isDomain(t token) bool {
	if t.kind != kWord || strings.HasSuffix(t.text, ".") {
		return false
	}
	dot := strings.LastIndexByte(t.text, '.')
	if dot <= 0 {
		return false
	}
	tld := stripPossessive(t.text[dot+1:])
	if len(tld) < 2 || len(tld) > 24 {
		return false
	}
	for _, r := range tld {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// properAt returns the number of tokens of a capitalised name at k ("Lionel Messi", "Bank of
// America", "The Godfather", "iPhone 15 Pro"), or 0. A capitalised common word ("Find", "The")
// only opens a name when a capitalised uncommon word follows it, and a word at the start of a
// sentence only when another capitalised word follows it. A possessive ends the name; a number
// continues it only before another name word.
func properAt(ts []token, k int) int {
	t := ts[k]
	if t.inTitle || !named(t) || strings.HasPrefix(t.low, "i'") {
		return 0
	}
	name := func(i int) bool { // a capitalised word that is not a common one
		return i < len(ts) && named(ts[i]) && !common[base(ts[i])]
	}
	switch {
	case name(k) && !t.sentStart:
	case name(k+1) && !strings.HasSuffix(t.low, "'s"):
		// "Lionel Messi" at the start of a sentence, "The Godfather", "Top Gun"
		if common[t.low] && (t.sentStart || !determinersForProper[t.low]) {
			return 0
		}
	default:
		return 0
	}
	if strings.HasSuffix(t.low, "'s") {
		return 1
	}
	i := k + 1
	for i < len(ts) {
		switch {
		case name(i):
			i++
		case named(ts[i]) && name(i+1) && !auxes[ts[i].low] && !whWords[ts[i].low]:
			i++ // "Good Will Hunting"
		case isNumeric(ts[i]) && name(i+1):
			i += 2 // "iPhone 15 Pro"
		case connector(ts[i]) && name(i+1):
			i += 2 // "Bank of America", "Barnes & Noble"
		case connector(ts[i]) && i+1 < len(ts) && connector(ts[i+1]) && name(i+2):
			i += 3 // "Lord of the Rings"
		default:
			return i - k
		}
		if strings.HasSuffix(ts[i-1].low, "'s") {
			return i - k
		}
	}
	return i - k
}

// connector reports whether t may join two names ("of", "de", "&").
func connector(t token) bool {
	return (t.kind == kWord && !named(t) || t.punct("&")) && properConnectors[t.low]
}

// named reports whether t is written like a name: capitalised, or with a capital after its
// first letter ("iPhone", "eBay").
func named(t token) bool {
	if t.kind != kWord || t.inTitle {
		return false
	}
	if t.capitalised() {
		return true
	}
	r, w := utf8.DecodeRuneInString(t.text)
	return unicode.IsLower(r) && strings.IndexFunc(t.text[w:], unicode.IsUpper) >= 0
}
