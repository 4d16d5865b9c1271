package subgoal

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// kind is the kind of a token.
type kind uint8

const (
	kWord  kind = iota // a word, number, id, domain name or abbreviation ("Kick.com", "e.g.", "3.5")
	kPunct             // one punctuation rune, or a run of periods ("...")
	kQuote             // a quoted string, quotes included
	kURL               // a URL ("https://...", "www....")
	kEmail             // an e-mail address
	kBreak             // one or more line breaks
	kEnum              // an enumeration marker ("1)", "2.", "(3)", "b)")
)

// token is a piece of the request with its byte offsets.
type token struct {
	kind       kind
	text       string // as written
	low        string // lowercase, with "’" written "'"
	start, end int    // byte offsets in the request
	// endsSentence marks an abbreviation that also ends its sentence ("... etc. Then").
	endsSentence bool
	// sentStart marks the first word of a sentence (set by sentences).
	sentStart bool
	// inTitle marks the words of a sentence in title case (set by sentences), where
	// capitals say nothing about names.
	inTitle bool
}

// is reports whether t is a word equal to w (lowercase).
func (t token) is(w string) bool { return t.kind == kWord && t.low == w }

// punct reports whether t is the punctuation r.
func (t token) punct(r string) bool { return t.kind == kPunct && t.text == r }

// capitalised reports whether t is a word whose first rune is an uppercase letter.
func (t token) capitalised() bool {
	if t.kind != kWord {
		return false
	}
	r, _ := utf8.DecodeRuneInString(t.text)
	return unicode.IsUpper(r)
}

// lower lowercases s and normalises typographic apostrophes.
func lower(s string) string {
	return strings.ReplaceAll(strings.ToLower(s), "’", "'")
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || r == '_'
}

// runeAt returns the rune at byte offset i of s, and its width; 0, 0 past the end.
func runeAt(s string, i int) (rune, int) {
	if i >= len(s) {
		return 0, 0
	}
	return utf8.DecodeRuneInString(s[i:])
}

// runeBefore returns the rune ending at byte offset i of s; 0 at the start.
func runeBefore(s string, i int) rune {
	if i <= 0 {
		return 0
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return r
}

// tokenize splits s into tokens. Words keep inner periods, hyphens, apostrophes, slashes,
// ampersands, colons between digits and thousands separators ("Kick.com", "best-rated",
// "don't", "24/7", "AT&T", "10:30", "1,000"); known abbreviations keep their final period;
// "$", "€", "£", "¥", "#" and "@" may open a word; "%" may close one.
func tokenize(s string) []token {
	toks := make([]token, 0, len(s)/4+1)
	add := func(k kind, start, end int) {
		text := s[start:end]
		toks = append(toks, token{kind: k, text: text, low: lower(text), start: start, end: end})
	}
	for i := 0; i < len(s); {
		r, w := runeAt(s, i)
		switch {
		case r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029':
			if len(toks) == 0 || toks[len(toks)-1].kind != kBreak {
				add(kBreak, i, i+w)
			} else {
				toks[len(toks)-1].end = i + w
			}
			i += w
		case unicode.IsSpace(r):
			i += w
		case urlAt(s, i):
			j := scanURL(s, i)
			add(kURL, i, j)
			i = j
		case isQuote(r):
			if j := closingQuote(s, i, r); j > 0 {
				add(kQuote, i, j)
				i = j
			} else {
				add(kPunct, i, i+w)
				i += w
			}
		case isWordRune(r) || (strings.ContainsRune("$€£¥#@", r) && startsWord(s, i+w)):
			j, email := scanWord(s, i)
			k := kWord
			if email {
				k = kEmail
			}
			add(k, i, j)
			i = j
		case r == '.':
			j := i + 1
			for j < len(s) && s[j] == '.' {
				j++
			}
			add(kPunct, i, j)
			i = j
		default:
			add(kPunct, i, i+w)
			i += w
		}
	}
	return markEnums(markAbbreviations(s, toks))
}

// startsWord reports whether a letter or digit starts at byte offset i of s.
func startsWord(s string, i int) bool {
	r, _ := runeAt(s, i)
	return i < len(s) && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

func urlAt(s string, i int) bool {
	if r := runeBefore(s, i); isWordRune(r) {
		return false
	}
	rest := s[i:]
	if len(rest) > 12 {
		rest = rest[:12]
	}
	rest = strings.ToLower(rest)
	return strings.HasPrefix(rest, "http://") || strings.HasPrefix(rest, "https://") ||
		(strings.HasPrefix(rest, "www.") && startsWord(s, i+4))
}

// scanURL returns the end of the URL starting at i: the next space, less closing punctuation.
func scanURL(s string, i int) int {
	j := i
	for j < len(s) {
		r, w := runeAt(s, j)
		if unicode.IsSpace(r) || r == '"' || r == '<' || r == '>' {
			break
		}
		j += w
	}
	for j > i {
		r := runeBefore(s, j)
		if !strings.ContainsRune(".,;:!?)]}'’\"”", r) {
			break
		}
		j -= utf8.RuneLen(r)
	}
	return j
}

func isQuote(r rune) bool {
	return r == '"' || r == '\'' || r == '“' || r == '‘' || r == '«' || r == '„'
}

// closingQuote returns the offset just past the quote that closes the one at i, or 0 when it
// does not open a quotation. A straight or curly single quote only opens after a space or an
// opening bracket and closes before a non-letter, so that "don't" and "users'" are no quotes.
func closingQuote(s string, i int, open rune) int {
	before := runeBefore(s, i)
	if (open == '\'' || open == '‘') && before != 0 && !unicode.IsSpace(before) && !strings.ContainsRune("([{:", before) {
		return 0
	}
	if before != 0 && isWordRune(before) {
		return 0
	}
	var closers string
	switch open {
	case '"':
		closers = "\""
	case '“', '„':
		closers = "”“\""
	case '«':
		closers = "»"
	case '\'':
		closers = "'"
	case '‘':
		closers = "’'"
	}
	_, w := runeAt(s, i)
	for j := i + w; j < len(s); {
		r, rw := runeAt(s, j)
		if r == '\n' {
			return 0
		}
		if strings.ContainsRune(closers, r) && j > i+w {
			after, _ := runeAt(s, j+rw)
			if (open == '\'' || open == '‘') && isWordRune(after) {
				j += rw // an apostrophe inside the quotation ("'Don't Stop'")
				continue
			}
			return j + rw
		}
		j += rw
	}
	return 0
}

// scanWord returns the end of the word starting at i, and whether it is an e-mail address.
func scanWord(s string, i int) (int, bool) {
	_, w := runeAt(s, i)
	j := i + w
	email := false
	for j < len(s) {
		r, rw := runeAt(s, j)
		if isWordRune(r) {
			j += rw
			continue
		}
		next, _ := runeAt(s, j+rw)
		prev := runeBefore(s, j)
		nextWord := isWordRune(next) && next != '_'
		switch {
		case r == '%' && unicode.IsDigit(prev):
			j += rw
			continue
		case !nextWord:
		case r == '.' || r == '-' || r == '\'' || r == '’' || r == '/' || r == '&' || r == '+':
			j += rw
			continue
		case r == ':' && unicode.IsDigit(prev) && unicode.IsDigit(next):
			j += rw
			continue
		case r == ',' && unicode.IsDigit(prev) && unicode.IsDigit(next) && threeDigits(s, j+rw):
			j += rw
			continue
		case r == '@' && !email:
			email = true
			j += rw
			continue
		}
		break
	}
	if email && !strings.Contains(s[i:j], ".") {
		email = false
	}
	return j, email
}

// threeDigits reports whether exactly three digits start at i ("1,000" but not "3,2024").
func threeDigits(s string, i int) bool {
	n := 0
	for i+n < len(s) && s[i+n] >= '0' && s[i+n] <= '9' {
		n++
	}
	return n == 3
}

// markAbbreviations glues the period after an abbreviation or an initial ("J. K. Rowling")
// to its word, so that it does not end a sentence. An abbreviation is known by its shape, not
// by a list: a dotted word, or a period that no new sentence follows.
func markAbbreviations(s string, toks []token) []token {
	out := make([]token, 0, len(toks))
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		if t.kind != kWord || k+1 >= len(toks) || !toks[k+1].punct(".") || toks[k+1].start != t.end {
			out = append(out, t)
			continue
		}
		var next token
		if k+2 < len(toks) {
			next = toks[k+2]
		}
		switch {
		case dottedAbbreviation(t.text):
			// "e.g.", "a.m.", "U.S.": a capitalised one ends its sentence when a capitalised word
			// follows ("... in the U.S. Then ..."), a lowercase one never ("e.g. Paris")
			t.endsSentence = t.capitalised() && next.capitalised()
		case utf8.RuneCountInString(t.text) == 2 && t.capitalised() && !allCaps(t.text) && next.capitalised():
			// a title before a name ("Dr. Patel", "St. Louis")
		case k+2 < len(toks) && (next.kind == kWord && !next.capitalised() || isNumeric(next)):
			// a period that a lowercase word or a number follows ends no sentence ("approx. 5
			// km", "vs. them")
		case utf8.RuneCountInString(t.text) == 1 && t.capitalised() && next.capitalised() && !common[next.low]:
			// an initial
		default:
			out = append(out, t)
			continue
		}
		t.end = toks[k+1].end
		t.text = s[t.start:t.end]
		t.low = lower(t.text)
		out = append(out, t)
		k++
	}
	return out
}

// dottedAbbreviation reports whether w is letters of one or two between periods ("e.g",
// "u.s.a"), not a domain name ("Kick.com").
func dottedAbbreviation(w string) bool {
	parts := strings.Split(w, ".")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if n := utf8.RuneCountInString(p); n == 0 || n > 2 {
			return false
		}
	}
	return true
}

// markEnums replaces enumeration markers ("1)", "2.", "(3)", "a)") by kEnum tokens. "N)" counts
// when N continues the enumeration or N is 1 and a "2)" follows; "N." counts at the start of a
// line or sentence when N is 1, or when N continues the enumeration.
func markEnums(toks []token) []token {
	last := 0
	out := make([]token, 0, len(toks))
	for k := 0; k < len(toks); k++ {
		n, ok := enumValue(toks[k])
		if !ok || k+1 >= len(toks) {
			out = append(out, toks[k])
			continue
		}
		closer := toks[k+1]
		letter := toks[k].low[0] >= 'a' && toks[k].low[0] <= 'h'
		if closer.start != toks[k].end || !(closer.punct(")") || (closer.punct(".") && !letter)) {
			out = append(out, toks[k])
			continue
		}
		open := k > 0 && toks[k-1].punct("(") && toks[k-1].end == toks[k].start
		atStart := k == 0 || (open && k == 1)
		if !atStart {
			p := toks[k-1]
			if open && k >= 2 {
				p = toks[k-2]
			}
			atStart = p.kind == kBreak || p.kind == kEnum ||
				(p.kind == kPunct && strings.Contains(":.?!;", p.text))
		}
		accept := false
		switch {
		case n == last+1 && last > 0:
			accept = true
		case n == 1 && closer.punct(")"):
			accept = atStart || enumFollows(toks[k+2:], 2)
		case n == 1 && closer.punct("."):
			accept = atStart && k+2 < len(toks) && toks[k+2].kind == kWord
		}
		if !accept || k+2 >= len(toks) {
			out = append(out, toks[k])
			continue
		}
		start := toks[k].start
		if open {
			start = toks[k-1].start
			out = out[:len(out)-1]
		}
		out = append(out, token{kind: kEnum, text: "", start: start, end: closer.end})
		last = n
		k++
	}
	return out
}

// enumValue returns the number of an enumeration candidate: 1 to 20, or a to h.
func enumValue(t token) (int, bool) {
	if t.kind != kWord {
		return 0, false
	}
	if len(t.low) == 1 && t.low[0] >= 'a' && t.low[0] <= 'h' {
		return int(t.low[0]-'a') + 1, true
	}
	n, err := strconv.Atoi(t.low)
	if err != nil || n < 1 || n > 20 || len(t.low) > 2 {
		return 0, false
	}
	return n, true
}

// enumFollows reports whether an enumeration marker numbered n followed by ")" appears in toks.
func enumFollows(toks []token, n int) bool {
	for k := 0; k+1 < len(toks); k++ {
		if v, ok := enumValue(toks[k]); ok && v == n && toks[k+1].punct(")") && toks[k+1].start == toks[k].end {
			return true
		}
	}
	return false
}
