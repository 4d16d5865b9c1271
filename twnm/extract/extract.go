// Package extract binds the values a request states to the input slots of APIs, with no LLM,
// for retrieval and the planners alike: Values reads the values a user's words state (the
// query plus clarification answers) and binds them to input slots. It is deliberately
// conservative: a value is bound only when the text states
// it in a recognisable way, and a slot the text says nothing about stays absent, so the
// planner asks for it (clarify_intent) or lets an upstream API supply it.
//
// The rules run in a fixed order, and every rule only sees the tokens the earlier rules left
// unused, so that one stated value is not read twice for different things:
//
//  0. Enumerated values: a slot whose schema lists what it accepts (Slot.Enum) takes the one
//     of them the text names ("in fahrenheit", "the closed issues"). A slot with a list never
//     takes a value outside it, by this rule or a later one: the run asks instead.
//     Addresses: an e-mail address to the slots that name an e-mail ("email", "mail"), a URL
//     to those that name a link ("url", "link", "website"), a file path ("/etc/hosts",
//     "docs/report.pdf") to those that name a path or a file, wherever the text writes them.
//  1. Named values after a cue: a slot's name words, a synonym or a word of its description,
//     followed by a value of the slot's kind ("latitude 25.2048", "lat 25.2", "party size of
//     4", "checking in on 2026-12-01", "the club Arsenal"); after "is" or a colon, a word of
//     any case ("my password is bar"). A cue right after a question word and before "is"
//     takes no value by any rule: "which league is Juventus in" asks for the league.
//  2. Numbers right before a cue ("for 3 nights", "4 guests", "two adults", "the second season").
//  3. Typed values: ISO dates to date slots, times to time slots.
//  4. Identifiers ("team-liverpool-a20b", "rst-0042") to id slots (named so, or described as
//     an identifier), by the identifier's prefix.
//  5. Free text: capitalised phrases ("Rome", "New York", "Serie A", "Ana Silva", "2 Broke
//     Girls") and quoted text to the string slots still unbound.
//  6. Numbers left over ("for 4", "a table for two"), to the one required numeric slot still
//     unbound that is no identifier.
//  7. Layouts: a date or time slot whose description gives a layout ("Format: %Y-%m-%d
//     %H:%M:%S") gets its value in that layout, completed by the one date or time stated.
//
// A value binds every slot its rule names, not just one: "latitude 25.2" binds each
// latitude (and lat) slot of each API, and a single phrase the first free-text slot of each
// API, since which API ends up using it is the graph search's decision, not the text's.
package extract

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/naviagent/navi/toolspec"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/lexicon"
	"github.com/naviagent/navi/twnm/subgoal"
)

// Slot is an input parameter the text may state a value for.
type Slot struct {
	Key         string // what the value is bound under, usually "API.param"
	Name        string // the API's own name for the input, e.g. "latitude", "city_name", "check_in"
	Type        string // catalog type: string, integer, number, boolean, date, ... (may be empty)
	Description string
	Required    bool
	// Enum lists the values the input accepts (twnm.Param.Enum); empty when any value is.
	Enum []string
	// Pattern is the regular expression the input's values match (twnm.Param.Pattern); empty
	// when any value is. A value it does not match is not bound.
	Pattern string
	// Source is the source of the input's API (twnm.API.Source), "" where unknown: the inputs
	// of one spec or server compete for a cue word, those of another do not (see exCues).
	Source string
	// Collection names the collection the input picks an item of where another API lists it
	// (twnm.Listed: "Channels"), else "": such an input takes an identifier that list gives,
	// never a name a phrase states ("the "Board Prep" channel" names the channel whose id
	// the list gives; see Items).
	Collection string
}

// SlotsOf lists the slots of every input of apis, keyed "API.input": the APIs by name, each
// API's inputs in the catalog's order, which pairs values stated in turn with the inputs
// declared in turn ("from 14:00 to 15:00": the start time, then the end time).
func SlotsOf(apis []twnm.API) []Slot {
	apis = slices.Clone(apis)
	slices.SortStableFunc(apis, func(a, b twnm.API) int { return strings.Compare(a.Name, b.Name) })
	var out []Slot
	listed := twnm.Listed(apis)
	for _, a := range apis {
		for _, p := range a.Inputs {
			sl := SlotOf(a.Name+"."+p.Name, p)
			sl.Source = a.Source
			if p.In == toolspec.InPath {
				sl.Collection = listed(a, p.Name)
			}
			out = append(out, sl)
		}
	}
	return out
}

// SlotOf is the slot of input p, its value bound under key.
func SlotOf(key string, p twnm.Param) Slot {
	return Slot{Key: key, Name: p.Name, Type: p.Type, Description: p.Description, Required: p.Required, Enum: p.Enum, Pattern: p.Pattern}
}

// Temporal reports whether parameter p holds a date or a time of day, as the reader reads a
// slot of it (by its type, name, description or layout).
func Temporal(p twnm.Param) bool {
	k := exPrepare(SlotOf("", p)).kind
	return k == exDate || k == exTime
}

// NumberType reports whether a catalog type is a number's ("integer", "float", "NUMBER"), as
// Extract reads it: a value of such a slot is a number standing beside its cue.
func NumberType(typ string) bool { return toolspec.TypeKind(typ).Numeric() }

// Extract returns values for the slots that text states, keyed by Slot.Key (by Slot.Name
// when Key is empty). A slot the text states no value for is absent from the map. Values are
// returned verbatim as the text writes them, trimmed of surrounding punctuation (and of a
// possessive "'s": "Rome's weather" states "Rome"). The result depends only on text and on
// slots in their given order. See the comment at the top of extract.go for the rules.
func Values(text string, slots []Slot) map[string]string {
	return ValuesOn(text, slots, time.Time{})
}

// ValuesOn is Values for a request made on the day today: the days the text names relative
// to it ("tomorrow", "on Friday") are dated from it, unless the text says which day today is
// ("Today is 2021-09-27"); the zero time dates them only where the text says.
func ValuesOn(text string, slots []Slot, today time.Time) map[string]string {
	return read(text, slots, today).out
}

// Asked returns the keys of the slots that text asks for rather than states: a slot whose cue
// follows a question word and comes before a copula ("Which league is Juventus in?" asks for
// the league, and is about Juventus). Such a slot takes no value by any rule (see Values).
func Asked(text string, slots []Slot) map[string]bool {
	return read(text, slots, time.Time{}).asked
}

// read runs the rules over text, in their order.
func read(text string, slots []Slot, today time.Time) *extraction {
	x := newExtraction(text, slots, today)
	x.enums()
	x.patterned()
	x.addresses()
	x.expressions()
	x.routes()
	x.named()
	x.lonelyIDs()
	x.durations()
	x.numbersBefore()
	x.typed(exTokDate, exDate)
	x.typed(exTokTime, exTime)
	x.identifiers()
	x.freeText()
	x.leftoverNumbers()
	x.layouts()
	return x
}

// exKind is the kind of value a slot takes.
type exKind int

const (
	exString exKind = iota // free text: names of cities, teams, people, ...
	exNumber
	exDate
	exTime
	exID
	exBool
	exNone // arrays and objects: never bound from text
)

// exTokKind is the kind of a token of the text.
type exTokKind int

const (
	exTokWord   exTokKind = iota // letters and digits, possibly joined by - _ or ' ("Saint-Germain", "rst-0042")
	exTokNumber                  // a decimal number with an optional sign ("-74.006")
	exTokDate                    // a date ("2026-12-01", "January 2nd, 2022"; its text in ISO form)
	exTokTime                    // a clock time ("19:30")
	exTokPunct                   // any other single character
)

// exTok is one token of the text.
type exTok struct {
	text       string
	start, end int // byte offsets in the text
	kind       exTokKind
	lower      string
	// letter, digit and sep say whether a word token has letters, digits and - or _ joins.
	letter, digit, sep bool
	// sentStart marks the first word of a sentence (of the text, after . ! ? ; : or a line
	// break), whose capital letter says nothing about it being a name.
	sentStart bool
	// relative marks a date the text names relative to today ("tomorrow"; see days).
	relative bool
}

// mixed reports whether t is a word of letters and digits ("C02FIN7KQ", "a20b"): a code, which
// no word of the language is.
func (t exTok) mixed() bool { return t.kind == exTokWord && t.digit && t.letter }

// exEnt is one normalised word of the cue-matching stream. A word token joined by hyphens
// gives one entry per part ("check-in" gives check, in); other tokens give a barrier entry
// with an empty word, so that a cue never matches across a number or punctuation.
type exEnt struct {
	word        string
	tok         int
	first, last bool // the entry is the first (last) part of its token
}

// exSlot is a slot with what the rules need to know about it.
type exSlot struct {
	Slot
	key   string
	kind  exKind
	words []string   // normalised name words: check_in gives check, in
	cues  [][]string // cue word sequences, longest first
	desc  []string   // normalised description words, examples left out
	// codeLike marks a free-text slot whose description asks for a code ("ISO country
	// code"): only a short all-capitals token fits it, never "Rome".
	codeLike bool
	// phoneLike marks a free-text slot for a phone number: only digits fit it, never
	// "WhatsApp".
	phoneLike bool
	// languageLike marks a free-text slot for a language: a name or a code of two words at
	// most fits it, never a quoted sentence.
	languageLike bool
	// numeric marks a free-text slot whose description shows its value as numbers only
	// ("`location=39.6034810,-119.6822510`"): a name never fits it (see exNumericExample).
	numeric bool
	// coded marks a free-text slot whose description shows its value, every time, with a
	// sign that is no letter, digit or space ("`:heart:`", "`shared_link`"): a plain word or
	// name never fits it (see exCodedExample).
	coded bool
	// expression marks a free-text slot whose description writes an arithmetic expression
	// ("For example, '(1 + 2) * 3'"): it takes the expression the text writes.
	expression bool
	// layout is the date or time layout the description gives ("Format: %Y-%m-%d %H:%M:%S",
	// "YYYY-MM-DD"), as a Go time layout; "" when it gives none (see exLayout).
	layout string
	// timeUnit is the size in seconds of the unit of time a numeric slot counts in, where its
	// name or description names one ("Travel time in minutes.": 60); 0 otherwise (see
	// durations).
	timeUnit float64
}

type extraction struct {
	// lowerWords are the words the text writes in lower case (see writtenLower), read once.
	lowerWords map[string]bool
	text       string
	toks       []exTok
	ents       []exEnt
	slots      []exSlot
	used       []bool // per token: an earlier rule consumed it
	bound      []bool // per slot
	out        map[string]string
	// asked holds the keys of the slots the text asks for (see Asked).
	asked map[string]bool
	// today is the day relative days are dated from, ISO; "" when neither the text nor the
	// caller says (see days).
	today string
	// anchor is the token of the date the text says today is, -1 where none: the other dates'
	// reference, and no value of its own.
	anchor int
	// apiWords and inputWords are the stemmed words of the slots' API names and input
	// names, read once, when a rule first asks (see nameSets).
	apiWords, inputWords map[string]bool
	// closes marks the straight double quotes that close a quotation: the text's second,
	// fourth, … (see quotedAt).
	closes map[int]bool
}

func newExtraction(text string, slots []Slot, today time.Time) *extraction {
	x := &extraction{text: text, out: map[string]string{}, asked: map[string]bool{}, anchor: -1}
	x.toks = exTokenize(text)
	x.used = make([]bool, len(x.toks))
	x.closes = map[int]bool{}
	open := false
	for i, t := range x.toks {
		if t.kind == exTokPunct && t.text == `"` {
			x.closes[i], open = open, !open
		}
	}
	x.days(today)
	for i, t := range x.toks {
		if t.kind == exTokWord && !t.digit {
			parts := strings.FieldsFunc(t.lower, func(r rune) bool { return r == '-' || r == '_' })
			for k, p := range parts {
				x.ents = append(x.ents, exEnt{word: exStem(p), tok: i, first: k == 0, last: k == len(parts)-1})
			}
			continue
		}
		x.ents = append(x.ents, exEnt{tok: i, first: true, last: true})
	}
	x.slots = make([]exSlot, len(slots))
	for i, s := range slots {
		x.slots[i] = exPrepare(s)
	}
	exCues(x.slots)
	x.bound = make([]bool, len(x.slots))
	return x
}

// bind binds slot i to v unless it is bound already: the first rule to bind a slot wins. A
// slot that lists the values it accepts takes only one of them, as its schema writes it, and
// one whose schema gives a pattern only a value it matches ("channel C01GEN4RL" is no Discord
// channel, whose ids are numbers): the slot stays unbound, and the run asks for it.
func (x *extraction) bind(i int, v string) {
	if x.bound[i] || v == "" || !toolspec.MatchesPattern(x.slots[i].Pattern, v) {
		return
	}
	v, ok := x.slots[i].listed(v)
	if !ok {
		return
	}
	x.bound[i] = true
	x.out[x.slots[i].key] = v
}

// listed returns v as the slot's schema spells it among the values it lists, whatever the
// case; v itself where the slot lists none, and false where it lists others only.
func (s Slot) listed(v string) (string, bool) {
	if len(s.Enum) == 0 {
		return v, true
	}
	j := slices.IndexFunc(s.Enum, func(e string) bool { return strings.EqualFold(e, v) })
	if j < 0 {
		return "", false
	}
	return s.Enum[j], true
}

// enums binds each slot that lists the values it accepts to the one of them the text names as
// a whole word or words, whatever the case and whichever of _ - . or a space joins them
// ("fahrenheit", "closed", "release date" for release_date). A value without a letter (a
// number of a list of codes) is left to the other rules, which a number anywhere would
// match, and so is a slot of which the text names two values: the run asks.
func (x *extraction) enums() {
	var words []string // the text's words, lower case, parts of joined words apart
	var toks []int     // the token of each word
	var first []bool   // whether a word is its token's first part
	for i, t := range x.toks {
		for j, w := range exEnumWords(t.lower) {
			words, toks, first = append(words, w), append(toks, i), append(first, j == 0)
		}
	}
	// whole reports whether words p..q are whole tokens: an enumerated value is no part of a
	// joined word ("fi" of a language list in "Wi-Fi").
	whole := func(p, q int) bool { return first[p] && (q+1 == len(words) || first[q+1]) }
	for si := range x.slots {
		s := &x.slots[si]
		if len(s.Enum) == 0 || s.kind == exNone || x.bound[si] {
			continue
		}
		var found string
		var at [2]int
		n := 0
		for _, v := range s.Enum {
			vw := exEnumWords(strings.ToLower(v))
			// A grammar word names no value: "it" of a language list is the pronoun, as in
			// "give me directions to it".
			if len(vw) == 0 || !strings.ContainsFunc(v, unicode.IsLetter) || len(vw) == 1 && lexicon.IsStopWord(vw[0]) {
				continue
			}
			// A value of two letters is a code ("de", "no"), which the text writes as one, in
			// capitals ("DE"): written as a word, it is the word ("a number with no name").
			code := len(v) <= 2
			for p := 0; p+len(vw) <= len(words); p++ {
				q := p + len(vw) - 1
				if slices.Equal(words[p:q+1], vw) && whole(p, q) && !x.used[toks[p]] && !x.namesCode(toks[q]) &&
					(!code || exAllCaps(x.toks[toks[p]].text)) {
					n, found, at = n+1, v, [2]int{toks[p], toks[q]}
					break
				}
			}
		}
		if n == 1 {
			x.bind(si, found)
			x.mark(at[0], at[1])
		}
	}
}

// namesCode reports whether token i is followed by a code, a whole number or a word of letters
// and digits: then it is the cue of that code ("team 98765", "channel C02FIN7KQ"), not an
// enumerated value of its own, though some input of a large catalog takes "team".
func (x *extraction) namesCode(i int) bool {
	if i+1 >= len(x.toks) {
		return false
	}
	n := x.toks[i+1]
	return exInteger(n) || n.mixed()
}

// exEnumWords splits a token or an enumerated value into the words enums compares.
func exEnumWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == '_' || r == '-' || r == '.' || unicode.IsSpace(r) })
}

// span is the verbatim text of tokens a..b, trimmed of surrounding punctuation.
func (x *extraction) span(a, b int) string {
	return exTrim(x.text[x.toks[a].start:x.toks[b].end])
}

// phraseSpan is span for a capitalised phrase, which also loses a possessive: "Rome's
// weather" names Rome.
func (x *extraction) phraseSpan(a, b int) string {
	v := x.span(a, b)
	for _, p := range []string{"'s", "’s"} {
		if len(v) > len(p) && strings.HasSuffix(v, p) {
			return v[:len(v)-len(p)]
		}
	}
	return v
}

func (x *extraction) mark(a, b int) {
	for i := a; i <= b; i++ {
		x.used[i] = true
	}
}

// Tokenizing.

var (
	exDateRe = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}`)
	// Dates written otherwise, with a year: "2023.6.8", "2023/06/08", "January 2nd, 2022",
	// "Jan 2 2022", "2 January 2022", "the 2nd of January, 2022".
	exDateYMDRe    = regexp.MustCompile(`^(\d{4})[./](\d{1,2})[./](\d{1,2})`)
	exDateMDYRe    = regexp.MustCompile(`(?i)^(` + exMonthPattern + `)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})`)
	exDateDMYRe    = regexp.MustCompile(`(?i)^(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(` + exMonthPattern + `)\.?,?\s+(\d{4})`)
	exMonthPattern = `jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?`
	exTimeRe       = regexp.MustCompile(`^\d{1,2}:\d{2}(?::\d{2})?(?:\s?[aApP]\.?[mM]\b\.?)?`)
	// A time of the twelve-hour clock without minutes: "8pm", "8 p.m.", "11 AM".
	exHourRe = regexp.MustCompile(`^\d{1,2}\s?[aApP]\.?[mM]\b\.?`)
	exNumRe  = regexp.MustCompile(`^[-+]?\d+(?:\.\d+)?`)
	exWordRe = regexp.MustCompile(`^[\p{L}\p{M}\p{N}]+(?:[-_'’][\p{L}\p{M}\p{N}]+)*`)
)

// exTokenize splits text into tokens. Dates and times come before numbers, and numbers
// before words, so that 2026-12-01 is one date rather than 2026 and two negative numbers;
// a digit run glued to letters ("rst-0042", "2nd") is a word, not a number.
func exTokenize(text string) []exTok {
	var toks []exTok
	boundary := true
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if unicode.IsSpace(r) {
			if r == '\n' {
				boundary = true
			}
			i += size
			continue
		}
		rest := text[i:]
		kind, n := exTokPunct, size
		iso := ""
		switch {
		case exWordEnd(rest, exDateRe):
			kind, n = exTokDate, len(exDateRe.FindString(rest))
		case exWrittenDate(rest, &iso, &n):
			kind = exTokDate
		case exWordEnd(rest, exTimeRe):
			kind, n = exTokTime, len(exTimeRe.FindString(rest))
			iso = exClock(rest[:n])
		case exWordEnd(rest, exHourRe):
			kind, n = exTokTime, len(exHourRe.FindString(rest))
			iso = exClock(rest[:n])
		case exSignOK(text, i) && exWordEnd(rest, exNumRe):
			kind, n = exTokNumber, len(exNumRe.FindString(rest))
		case exWordRe.MatchString(rest):
			kind, n = exTokWord, len(exWordRe.FindString(rest))
		}
		t := exTok{text: text[i : i+n], start: i, end: i + n, kind: kind, sentStart: boundary}
		if iso != "" {
			t.text = iso // a date or time is bound in ISO form, however the text writes it
		}
		t.lower = strings.ToLower(t.text)
		for _, c := range t.text {
			switch {
			case unicode.IsLetter(c):
				t.letter = true
			case unicode.IsDigit(c):
				t.digit = true
			case c == '-' || c == '_':
				t.sep = true
			}
		}
		toks = append(toks, t)
		switch {
		case kind == exTokPunct && strings.ContainsRune(".!?;:", r):
			boundary = true
		case kind != exTokPunct:
			boundary = false // quotes and brackets keep a sentence start pending
		}
		i += n
	}
	return toks
}

// exWrittenDate reports whether a date written otherwise than in ISO form, with its year,
// starts s and is not glued to more letters or digits; it sets iso to the date in ISO form and
// n to the length of its text. A day the month does not have is no date.
func exWrittenDate(s string, iso *string, n *int) bool {
	var y, m, d string
	var match []string
	switch {
	case exWordEnd(s, exDateYMDRe):
		match = exDateYMDRe.FindStringSubmatch(s)
		y, m, d = match[1], match[2], match[3]
	case exWordEnd(s, exDateMDYRe):
		match = exDateMDYRe.FindStringSubmatch(s)
		m, d, y = match[1], match[2], match[3]
	case exWordEnd(s, exDateDMYRe):
		match = exDateDMYRe.FindStringSubmatch(s)
		d, m, y = match[1], match[2], match[3]
	default:
		return false
	}
	month, err := strconv.Atoi(m)
	if err != nil {
		month = subgoal.MonthNumber(strings.ToLower(strings.TrimSuffix(m, ".")))
	}
	year, _ := strconv.Atoi(y)
	day, _ := strconv.Atoi(d)
	t := time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC)
	if month < 1 || t.Day() != day || int(t.Month()) != month {
		return false
	}
	*iso, *n = t.Format(time.DateOnly), len(match[0])
	return true
}

// exClock is a time of the twelve-hour clock ("8pm", "7:30 p.m.", "12 am") in 24-hour
// form ("20:00", "19:30", "00:00"); "" for a time written without am or pm, which is bound
// as written, or for an hour the clock does not have.
func exClock(s string) string {
	lower := strings.ToLower(strings.ReplaceAll(strings.ReplaceAll(s, ".", ""), " ", ""))
	var pm bool
	switch {
	case strings.HasSuffix(lower, "pm"):
		pm = true
	case !strings.HasSuffix(lower, "am"):
		return ""
	}
	clock := strings.Split(lower[:len(lower)-2], ":")
	h, err := strconv.Atoi(clock[0])
	if err != nil || h < 1 || h > 12 {
		return ""
	}
	h %= 12
	if pm {
		h += 12
	}
	minutes := "00"
	if len(clock) > 1 {
		minutes = strings.Join(clock[1:], ":")
	}
	return fmt.Sprintf("%02d:%s", h, minutes)
}

// exWordEnd reports whether re matches at the start of s and the match is not glued to
// more letters, digits or joiners ("2026-12-01x", "19:305" and "12ab" are no dates,
// times or numbers).
func exWordEnd(s string, re *regexp.Regexp) bool {
	m := re.FindString(s)
	if m == "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[len(m):])
	if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
		return false
	}
	if r == '-' || r == ':' {
		next, _ := utf8.DecodeRuneInString(s[len(m)+1:])
		return !unicode.IsLetter(next) && !unicode.IsDigit(next)
	}
	return true
}

// exSignOK reports whether a number may start at i: at a digit, or at a sign that starts a
// word of its own ("longitude -74.006", not "rst-0042").
func exSignOK(text string, i int) bool {
	if text[i] >= '0' && text[i] <= '9' {
		prev, _ := utf8.DecodeLastRuneInString(text[:i])
		return i == 0 || !unicode.IsLetter(prev) && prev != '-' && prev != '_'
	}
	if text[i] != '-' && text[i] != '+' {
		return false
	}
	if i+1 >= len(text) || text[i+1] < '0' || text[i+1] > '9' {
		return false
	}
	prev, _ := utf8.DecodeLastRuneInString(text[:i])
	return i == 0 || unicode.IsSpace(prev) || strings.ContainsRune("([{,:=", prev)
}

// exStem normalises a word for matching: lower case, no possessive, no plural s
// ("nights" → "night", "cities" → "city", but "address" and "paris" stay).
func exStem(w string) string {
	w = strings.ToLower(w)
	w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") &&
		!strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

// exTrim trims surrounding spaces and punctuation, but not a number's sign.
func exTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(`.,;:!?"'“”‘’()[]{}<>`, r)
	})
}

// exWords splits a name or a description into normalised words: camelCase, snake_case,
// kebab-case and spaces all separate words.
func exWords(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, exStem(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			// A lower-to-upper step starts a word: teamId gives team, id.
			if unicode.IsUpper(r) && i > 0 && unicode.IsLower(rs[i-1]) {
				flush()
			}
			cur = append(cur, r)
		case r == '\'' || r == '’':
			cur = append(cur, r)
		default:
			flush()
		}
	}
	flush()
	return words
}

// Slots.

// Word lists. They are small on purpose: the rules should read plain requests, not parse
// English.
var (
	exIDWords = exWordSet(english.Set("id-words"))
	// exDateWords make a string slot a date slot, in its name or its description.
	exDateWords = exWordSet(english.Set("date-words"))
	// exNumberWords make an untyped slot numeric.
	exNumberWords = exWordSet(english.Set("number-words"))
	// exCoordinateWords name a coordinate: a number, whatever type a catalog declares for it.
	exCoordinateWords = exWordSet(english.Set("coordinate-words"))
	// exPhoneWords and exLanguageWords name the values of phoneLike and languageLike slots.
	exPhoneWords    = exWordSet(english.Set("phone-words"))
	exLanguageWords = exWordSet(english.Set("language-words"))
	// exPlaceWords and exPersonWords tell a place-like from a person-like free-text slot, so
	// that two phrases go to different slots ("the best hotel in Paris for Ana Silva").
	exPlaceWords  = exWordSet(english.Set("place-words"))
	exPersonWords = exWordSet(english.Set("person-words"))
	// exGenericWords are name or description words too vague to name a value on their own,
	// beside the closed-class words (subgoal.Function).
	exGenericWords = exWordSet(english.Set("generic-words"))
	// exSearchWords name a search's free text (query, keyword, q): any phrase may be what a
	// user searches for, a titled name too.
	exSearchWords = exWordSet(english.Set("search-words"))
	// exSkipWords may stand between a cue and its value ("party size of 4", "checking in on
	// 2026-12-01", "a guest named Ana Silva").
	exSkipWords = exCopulas.with(english.Entries("skip-words")...)
	// exCopulas are the skip words that say the next word is the value itself, whatever its
	// case: "my password is bar", "username: foo".
	exCopulas = exWordSet(english.Set("copulas"))
)

// exSynonyms are other words for common input names, keyed by the name's normalised words
// joined by spaces. Each value is a cue word sequence.
var exSynonyms = func() map[string][]string {
	m := map[string][]string{}
	for _, e := range english.Entries("synonyms") {
		name, cue, _ := strings.Cut(e, ":")
		m[strings.TrimSpace(name)] = append(m[strings.TrimSpace(name)], strings.TrimSpace(cue))
	}
	return m
}()

// exGeneric reports whether w says too little to name a value: a closed-class word or one of
// exGenericWords.
func exGeneric(w string) bool {
	return exGenericWords[w] || subgoal.Function(w)
}

// exWordSet is a set of words.
type exWordSet map[string]bool

func exSet(ws ...string) exWordSet { return exWordSet(lexicon.Set(ws)) }

// with is the set and ws.
func (s exWordSet) with(ws ...string) exWordSet {
	m := exSet(ws...)
	for w := range s {
		m[w] = true
	}
	return m
}

// exAll reports whether every part, stemmed as name words are (exStem), is one of words.
func exAll(parts, words []string) bool {
	for _, p := range parts {
		if !slices.Contains(words, exStem(p)) {
			return false
		}
	}
	return true
}

func exAny(ws []string, set map[string]bool) bool {
	for _, w := range ws {
		if set[w] {
			return true
		}
	}
	return false
}

// exExamples matches the examples of a description ("City name, e.g. Paris."), which name
// a value, not the slot, and parenthesised remarks.
var exExamples = regexp.MustCompile(`(?i)(\(.*?\)|\b(e\.g\.|eg\.|for example|such as)[^.;]*)`)

// exPrepare classifies one slot.
func exPrepare(s Slot) exSlot {
	x := exSlot{Slot: s, key: s.Key, words: exWords(s.Name)}
	if x.key == "" {
		x.key = s.Name
	}
	x.desc = exWords(exExamples.ReplaceAllString(s.Description, " "))
	x.layout = exLayout(s.Description)
	typ := strings.ToLower(strings.TrimSpace(s.Type))
	last := ""
	if len(x.words) > 0 {
		last = x.words[len(x.words)-1]
	}
	joined := strings.Join(x.words, "")
	descLower := strings.ToLower(s.Description)
	switch kind := toolspec.TypeKind(typ); {
	case kind.Numeric():
		x.kind = exNumber
	case kind == toolspec.KindBool:
		x.kind = exBool
	case kind == toolspec.KindArray, kind == toolspec.KindObject:
		x.kind = exNone
	case s.Collection != "", exIDWords[last], slices.ContainsFunc(x.desc, func(w string) bool { return strings.HasPrefix(w, "identifie") }):
		x.kind = exID
	case typ == "date" || typ == "date-time" || typ == "datetime" || exAny(x.words, exDateWords) ||
		strings.Contains(joined, "checkin") || strings.Contains(joined, "checkout") ||
		strings.Contains(descLower, "yyyy-mm-dd") || exAny(x.desc, exDateWords):
		x.kind = exDate
	case typ == "time" || exAny(x.words, exSet("time", "hour")) || strings.Contains(descLower, "hh:mm"):
		x.kind = exTime
	case typ == "" && exAny(x.words, exNumberWords), len(x.words) == 1 && exCoordinateWords[x.words[0]]:
		x.kind = exNumber
	default:
		x.kind = exString
		x.codeLike = exAny(x.desc, exSet("code"))
		x.phoneLike = exAny(x.words, exPhoneWords)
		x.languageLike = exAny(x.words, exLanguageWords)
		examples := exExampleValues(s.Description)
		x.numeric = exNumericExample(examples)
		x.expression = exOperation.MatchString(s.Description)
		x.coded = exCodedExample(examples)
	}
	if x.kind == exNumber {
		for _, w := range slices.Concat(x.words, x.desc) {
			if x.timeUnit = durationUnit(w); x.timeUnit != 0 {
				break
			}
		}
	}
	return x
}

// exCodeSpan is a value a description quotes as code (`…`), or gives after "e.g." or "eg.".
var exCodeSpan = regexp.MustCompile("`([^`]+)`|(?i)\\be\\.?g\\.\\s*([^\\s;)]+)")

// exCodedExample reports whether a description shows the value it wants (examples, its
// exExampleValues), and every such value holds a sign that is no letter, digit or space: a
// shortcode (":heart:"), a field name ("shared_link"), a "lat,lng" pair. A value the request
// writes in words ("Priya", "New Zealand") is then no value of the slot.
func exCodedExample(examples []string) bool {
	for _, v := range examples {
		if !exHasSign(v) {
			return false
		}
	}
	return len(examples) > 0
}

// exExampleValues are the values a description shows: its code spans, and the word after each
// "e.g." without the sentence's end or the quotes around it ("e.g. `en`," gives en).
func exExampleValues(desc string) []string {
	var out []string
	for _, m := range exCodeSpan.FindAllStringSubmatch(desc, -1) {
		v := m[1]
		if v == "" {
			v = strings.Trim(strings.TrimRight(m[2], ".,;:!?"), "`'\"")
		}
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// exHasSign reports whether s holds a character that is no letter, digit or space.
func exHasSign(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsSpace(r) })
}

// exNumericExample reports whether a description shows the value it wants (examples, its
// exExampleValues), and every such value is numbers and the signs between them
// ("39.6,-119.6", "location=-33.86,151.20"): coordinates or a count written as text, which a
// name never is.
func exNumericExample(examples []string) bool {
	for _, v := range examples {
		if i := strings.LastIndex(v, "="); i >= 0 {
			v = v[i+1:]
		}
		digits := 0
		for _, r := range v {
			switch {
			case unicode.IsDigit(r):
				digits++
			case strings.ContainsRune(".,-+ ", r):
			default:
				return false
			}
		}
		if digits < 2 {
			return false
		}
	}
	return len(examples) > 0
}

// exCues gives each slot its cues: its whole name, the synonyms of its name, and, where no
// other slot of the same kind and source under another name shares them, its single name words
// and description words. Another spec's input does not compete: "file 90311" is a Box file's
// id and a Figma file's key alike, and which of them a plan calls is graph search's choice. Sharing would make a word like "bedrooms" (min_bedrooms and beds) or
// "degrees" (latitude and longitude) name two different inputs; names of the same words
// spelt otherwise ("trackId", "track_id") share their words as one input.
func exCues(slots []exSlot) {
	single := make([][]string, len(slots))
	for i := range slots {
		s := &slots[i]
		for _, w := range s.words {
			if len(w) >= 3 && !exGeneric(w) {
				single[i] = append(single[i], w)
			}
		}
		for _, w := range s.desc {
			if len(w) >= 3 && !exGeneric(w) && exLetters(w) {
				single[i] = append(single[i], w)
			}
		}
	}
	// Names that are the same words ("trackId", "track_id") are one input spelt two ways.
	spelt := make([]string, len(slots))
	for i := range slots {
		spelt[i] = strings.Join(slots[i].words, " ")
	}
	// A word of a number slot's own name is shared only with another slot's name: "episode"
	// stays a cue of episode_number though a runtime filter's description speaks of episodes.
	// (A number must stand beside its cue; free text takes more, and a shared word misleads.)
	shared := func(i int, w string) bool {
		named := slots[i].kind == exNumber && slices.Contains(slots[i].words, w)
		for j := range slots {
			if j == i || spelt[j] == spelt[i] || slots[j].kind != slots[i].kind || slots[j].Source != slots[i].Source {
				continue
			}
			if named && slices.Contains(slots[j].words, w) || !named && slices.Contains(single[j], w) {
				return true
			}
		}
		return false
	}
	for i := range slots {
		s := &slots[i]
		var cues [][]string
		seen := map[string]bool{}
		add := func(c []string) {
			k := strings.Join(c, " ")
			if len(c) == 0 || seen[k] {
				return
			}
			seen[k] = true
			cues = append(cues, c)
		}
		add(s.words)
		for _, syn := range exSynonyms[strings.Join(s.words, " ")] {
			add(exWords(syn))
		}
		for _, w := range single[i] {
			if !shared(i, w) {
				add([]string{w})
			}
		}
		// Longest first, so that "check in" is tried before "check" at the same position;
		// a stable insertion sort keeps the order above among equals.
		for a := 1; a < len(cues); a++ {
			for b := a; b > 0 && len(cues[b]) > len(cues[b-1]); b-- {
				cues[b], cues[b-1] = cues[b-1], cues[b]
			}
		}
		s.cues = cues
	}
}

func exLetters(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return w != ""
}

// Rule 0: addresses.

var (
	exEmailRe = regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}`)
	exURLRe   = regexp.MustCompile(`(?:https?://|www\.)[^\s'"<>]+[^\s'"<>.,;:!?)]`)
	// exPathRe is a file path: absolute ("/etc/hosts", "~/notes", "./src/main.go") or relative
	// with a file name ("docs/report.pdf"); "kubernetes/kubernetes" and "either/or" are not.
	// It must start the text or follow a space, a bracket or a quote (exPathStart), so that
	// no path is read out of a URL.
	exPathRe = regexp.MustCompile(`(?:~|\.{1,2})?/[^\s'"<>]*[^\s'"<>.,;:!?)]|[\w.-]+(?:/[\w.-]+)+\.[A-Za-z][A-Za-z0-9]{0,5}\b`)
	// exEmailWords, exURLWords and exPathWords in a slot's name or description say it takes one.
	exEmailWords = exWordSet(english.Set("email-words"))
	exURLWords   = exWordSet(english.Set("url-words"))
	exPathWords  = exWordSet(english.Set("path-words"))
)

// exPathStart reports whether a path may start at byte i of text.
func exPathStart(text string, i int) bool {
	return i == 0 || strings.ContainsRune(" \t\n(['\"`", rune(text[i-1]))
}

// exAddress reports whether a slot takes an e-mail address, a URL or a file path, which only
// Rule 0 reads: "QR" or "Jane" is no address, and "GitHub" no path.
func exAddress(s *exSlot) bool {
	return s.kind == exString && (exAny(s.words, exEmailWords) || exAny(s.words, exURLWords) || exAny(s.words, exPathWords))
}

// addresses binds the e-mail addresses, URLs and file paths of the text to the string slots
// that take them (see exEmailWords, exURLWords, exPathWords), each address in turn to those still unbound, and
// consumes its tokens, so that no later rule reads "example" or "com" out of it.
func (x *extraction) addresses() {
	for _, kind := range []struct {
		re    *regexp.Regexp
		words map[string]bool
		path  bool
	}{{exEmailRe, exEmailWords, false}, {exURLRe, exURLWords, false}, {exPathRe, exPathWords, true}} {
		takes := func(s *exSlot) bool {
			return s.kind == exString && (exAny(s.words, kind.words) || exAny(s.desc, kind.words))
		}
		for _, m := range kind.re.FindAllStringIndex(x.text, -1) {
			if kind.path && !exPathStart(x.text, m[0]) {
				continue
			}
			covered, free := x.spanned(m[0], m[1])
			if !free {
				continue
			}
			x.bindAddress(x.text[m[0]:m[1]], kind.words, takes)
			for _, i := range covered {
				x.used[i] = true
			}
		}
	}
}

// spanned returns the tokens that the bytes a to b of the text overlap (a value a pattern read
// there), and whether no earlier rule consumed any of them.
func (x *extraction) spanned(a, b int) (covered []int, free bool) {
	free = true
	for i, t := range x.toks {
		if t.start < b && t.end > a {
			covered, free = append(covered, i), free && !x.used[i]
		}
	}
	return covered, free
}

// bindAddress binds address v to the unbound slots that take it (takes), one slot of each
// API: the one whose name says it holds such an address (kind's words), else the one whose
// description says it is one, before its first "of" ("The email address of the recipient"),
// else the first whose description names the kind at all ("The content of the email" is
// about an e-mail, not its address).
func (x *extraction) bindAddress(v string, kind map[string]bool, takes func(*exSlot) bool) {
	rank := func(s *exSlot) int {
		switch head, _, _ := strings.Cut(strings.ToLower(s.Description), " of "); {
		case exAny(s.words, kind):
			return 2
		case exAny(exWords(head), kind):
			return 1
		}
		return 0
	}
	best := map[string]int{} // by API: the slot that takes v
	for si := range x.slots {
		s := &x.slots[si]
		if x.bound[si] || !takes(s) {
			continue
		}
		if b, ok := best[s.api()]; !ok || rank(s) > rank(&x.slots[b]) {
			best[s.api()] = si
		}
	}
	for si := range x.slots {
		if b, ok := best[x.slots[si].api()]; ok && b == si {
			x.bind(si, v)
		}
	}
}

// exExpression is an arithmetic expression: numbers and brackets joined by operators;
// exOperation is an addition, a product or a power in it ("2) * 3"), which neither a minus
// between digits ("1-5" is a range) nor a slash ("120/80" is a blood pressure) is alone.
var (
	exExpression = regexp.MustCompile(`[(\d][\d\s+\-*/^().]*[\d)]`)
	exOperation  = regexp.MustCompile(`[\d)]\s*[+*^]\s*[\d(]`)
)

// expressions binds each arithmetic expression the text writes ("(5*6)/(2+3)") to the
// unbound slots that take one (exSlot.expression), and consumes its tokens.
func (x *extraction) expressions() {
	takes := func(s *exSlot) bool { return s.kind == exString && s.expression }
	if len(x.unboundNames(takes)) == 0 {
		return
	}
	for _, m := range exExpression.FindAllStringIndex(x.text, -1) {
		v := strings.TrimSpace(x.text[m[0]:m[1]])
		if !exOperation.MatchString(v) || strings.Count(v, "(") != strings.Count(v, ")") {
			continue
		}
		covered, free := x.spanned(m[0], m[1])
		if !free {
			continue
		}
		x.bindEvery(v, takes)
		for _, i := range covered {
			x.used[i] = true
		}
	}
}

// Rule 1 and 2: named values.

// matchCue reports whether cue matches the stream at entry p, on whole tokens, and returns
// the first and last token it covers.
func (x *extraction) matchCue(p int, cue []string) (int, int, bool) {
	if p+len(cue) > len(x.ents) || !x.ents[p].first || !x.ents[p+len(cue)-1].last {
		return 0, 0, false
	}
	for k, w := range cue {
		e := x.ents[p+k]
		if e.word == "" || e.word != w || x.used[e.tok] {
			return 0, 0, false
		}
	}
	return x.ents[p].tok, x.ents[p+len(cue)-1].tok, true
}

// describedByClause reports whether one of the slot's cues opens a relative clause ("the league
// that Inter plays in", "the city in which she lives"): the request says which one by another
// thing, so a free phrase it holds is that thing, not the slot's value.
func (x *extraction) describedByClause(s *exSlot) bool {
	for p := range x.ents {
		for _, cue := range s.cues {
			_, b, ok := x.matchCue(p, cue)
			if !ok {
				continue
			}
			next := b + 1
			if next < len(x.toks) && subgoal.Preposition(x.toks[next].lower) {
				next++
			}
			// "that" or a question word opens a relative clause, alone or after a preposition
			// ("the league that Inter plays in", "the city in which she lives").
			if next < len(x.toks) && (x.toks[next].lower == "that" || subgoal.QuestionWord(x.toks[next].lower)) {
				return true
			}
		}
	}
	return false
}

// exRouteEnds name the inputs at either end of a route, a conversion or a transfer, by a
// word of their names: the one a thing goes from, and the one it goes to.
var (
	exRouteFrom = exWordSet(english.Set("route-from"))
	exRouteTo   = exWordSet(english.Set("route-to"))
)

// routes reads "X to Y" and "from X to Y" (and "to Y from X") between two names: X is what a
// free-text input named like an origin takes, Y what one named like a destination does
// ("flights for Los Angeles to San Francisco", "convert 100 USD to EUR"). A destination
// alone takes Y ("hotels for Los Angeles to San Francisco" are in San Francisco).
func (x *extraction) routes() {
	var from, to []int
	for si := range x.slots {
		if s := &x.slots[si]; s.kind == exString && !x.bound[si] {
			switch {
			case exAny(s.words, exRouteFrom):
				from = append(from, si)
			case exAny(s.words, exRouteTo):
				to = append(to, si)
			}
		}
	}
	if len(to) == 0 {
		return
	}
	for i := 1; i+1 < len(x.toks); i++ {
		if x.used[i] || x.toks[i].lower != "to" {
			continue
		}
		last, ok := x.phraseAt(i + 1)
		if !ok {
			continue
		}
		dst, src := [2]int{i + 1, last}, [2]int{-1, -1}
		if k := last + 1; k+1 < len(x.toks) && x.toks[k].lower == "from" { // "to Y from X"
			if end, ok := x.phraseAt(k + 1); ok {
				src = [2]int{k + 1, end}
			}
		}
		if a := i - 1; src[0] < 0 && x.nameWord(a) { // "X to Y": X back to its first word
			for a > 0 && x.nameWord(a-1) {
				a--
			}
			src = [2]int{a, i - 1}
		}
		if src[0] < 0 {
			continue
		}
		for _, si := range from {
			x.bind(si, x.phraseSpan(src[0], src[1]))
		}
		for _, si := range to {
			x.bind(si, x.phraseSpan(dst[0], dst[1]))
		}
		x.mark(src[0], src[1])
		x.mark(dst[0], dst[1])
		return
	}
}

// named binds each slot to the first value that follows one of its cues. Values this rule
// reads may serve several slots ("latitude 25.2" for both latitude and lat); they are
// marked used only after every slot has had its turn.
func (x *extraction) named() {
	var spans [][2]int
	for si := range x.slots {
		s := &x.slots[si]
		if s.kind == exNone || x.bound[si] {
			continue
		}
	search:
		for p := range x.ents {
			for _, cue := range s.cues {
				a, b, ok := x.matchCue(p, cue)
				if !ok || s.kind == exString && x.nameWord(b) && x.nameWord(b+1) {
					// A capitalised cue that a name goes on from is the name's first word:
					// "a Data Scientist" names an occupation, not the health data "Scientist".
					continue
				}
				// "What city is nicest" asks for the city: after a question word the cue
				// states no value of its own.
				asked := a > 0 && subgoal.QuestionWord(x.toks[a-1].lower)
				if asked && b+1 < len(x.toks) && (exCopulas[x.toks[b+1].lower] || x.askedOf(b+1)) {
					// "Which league is Juventus in?" and "Which league does Celtic play in?"
					// ask for the league: what the copula joins the cue to, or the subject
					// after the auxiliary, is what the question is about. The slot takes no
					// value by a later rule either; the run asks for it or a producer gives
					// it.
					x.bound[si], x.asked[s.key] = true, true
					break search
				}
				v, last, ok := x.valueAfter(b+1, s, asked)
				if !ok {
					continue
				}
				x.bind(si, v)
				spans = append(spans, [2]int{a, last})
				break search
			}
		}
	}
	for _, sp := range spans {
		x.mark(sp[0], sp[1])
	}
}

// askedOf reports whether token i is an auxiliary whose subject is a thing the text names:
// "which league does Celtic play in" asks for Celtic's league. After a pronoun the question
// asks what its user or someone does ("which towns can I reach from Lyon"), whose values are
// the ones the text states, a town among them.
func (x *extraction) askedOf(i int) bool {
	return subgoal.Auxiliary(x.toks[i].lower) && i+1 < len(x.toks) && !subgoal.SubjectPronoun(x.toks[i+1].lower)
}

// lonelyIDs binds a value the word "id" (or another identifier word) introduces ("my
// appointment with id 78901234", "My ID is 12345678") to each API's one unbound identifier
// slot: the word names no slot of its own, but an API that takes one identifier takes it. An
// id a word of content qualifies ("cell ID 17811") is that thing's, for a cue to read.
func (x *extraction) lonelyIDs() {
	isID := func(s *exSlot) bool { return s.kind == exID }
	for i, t := range x.toks {
		if x.used[i] || t.kind != exTokWord || !exIDWords[t.lower] {
			continue
		}
		// "cell ID 17811" is the cell's: a word of content before the id says what it is of.
		if p := i - 1; p >= 0 && x.toks[p].kind == exTokWord && !t.sentStart && !subgoal.Function(x.toks[p].lower) {
			continue
		}
		j := x.pastSkips(i + 1)
		if j >= len(x.toks) || x.used[j] || !(exInteger(x.toks[j]) || x.toks[j].kind == exTokWord && (x.toks[j].sep || x.toks[j].mixed())) {
			continue
		}
		bound := false
		for _, sis := range x.unboundByAPI(isID) {
			if len(sis) == 1 {
				x.bind(sis[0], x.toks[j].text)
				bound = true
			}
		}
		if bound {
			x.mark(i, j)
		}
	}
}

// pastSkips returns the token after at most two skip words from token j on ("is", ":"): where
// the value a cue introduces starts.
func (x *extraction) pastSkips(j int) int {
	for skips := 0; j < len(x.toks) && skips < 2 && exSkipWords[x.toks[j].lower]; skips++ {
		j++
	}
	return j
}

// valueAfter finds a value of the slot's kind at token j, past at most two skip words, and
// returns it with its last token. asked says the cue follows a question word.
func (x *extraction) valueAfter(j int, s *exSlot, asked bool) (string, int, bool) {
	start := j
	j = x.pastSkips(j)
	// The word right before the value says it is the value.
	copula := j > start && exCopulas[x.toks[j-1].lower] && !asked
	if j >= len(x.toks) || x.used[j] {
		return "", 0, false
	}
	t := x.toks[j]
	ok := false
	switch s.kind {
	case exNumber:
		ok = t.kind == exTokNumber
	case exDate:
		ok = t.kind == exTokDate
	case exTime:
		ok = t.kind == exTokTime
	case exBool:
		ok = t.kind == exTokWord && exSet("true", "false", "yes", "no")[t.lower]
	case exID:
		// After a cue, any token shaped like a code is taken: "hotel htl-paris-1a2b",
		// "restaurant 42", "country code FR".
		ok = t.kind == exTokWord && (t.sep || t.mixed() || exAllCaps(t.text) && len(t.text) >= 2) ||
			exInteger(t)
	case exString:
		if v, last, found := x.freeValueAt(j); found {
			return v, last, s.accepts(v)
		}
		// After "is" or a colon, the next word is the value, whatever its case ("my
		// password is bar"), unless a word of the language ("the cafeteria"), or a number
		// the name it starts goes on from ("123 Main St").
		if copula && (t.kind == exTokWord || t.kind == exTokNumber) && !subgoal.Common(t.lower) {
			if b, ok := x.phraseAt(j + 1); ok && t.kind == exTokNumber {
				v := x.phraseSpan(j, b)
				return v, b, s.accepts(v)
			}
			return t.text, j, s.accepts(t.text)
		}
		// A code after its cue may hold digits, which no phrase does: "postal code SW1A"; and a
		// word that mixes letters and digits is a code whatever the slot: "channel C02FIN7KQ".
		ok = (s.codeLike || t.mixed()) && (t.kind == exTokWord || exInteger(t)) && s.accepts(t.text)
	}
	return t.text, j, ok
}

// exInteger reports whether t is an unsigned whole number.
func exInteger(t exTok) bool {
	return t.kind == exTokNumber && !strings.ContainsAny(t.text, ".-+")
}

// freeValueAt returns the free-text value starting at token j, quoted or a capitalised
// phrase, with its last token.
func (x *extraction) freeValueAt(j int) (string, int, bool) {
	if a, b, ok := x.quotedAt(j); ok {
		// What the quotes hold, but a full stop or a comma that ends it: "What are the key
		// features of this software?" is a question with its question mark, "Pay bills."
		// the note "Pay bills".
		v := strings.TrimRight(strings.TrimSpace(x.text[x.toks[a].end:x.toks[b].start]), ".,;: ")
		if strings.IndexFunc(v, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			return v, b, true
		}
	}
	if b, ok := x.phraseAt(j); ok {
		return x.phraseSpan(j, b), b, true
	}
	return "", 0, false
}

// exDurationUnits are the units of a duration, each sixty times the one before: second,
// minute, hour.
var exDurationUnits = english.Entries("duration-units")

// durationUnit is the size in seconds of the duration unit w names ("hour", "hours": 3600),
// 0 where it names none.
func durationUnit(w string) float64 {
	i := slices.Index(exDurationUnits, strings.TrimSuffix(w, "s"))
	if i < 0 {
		return 0
	}
	return math.Pow(60, float64(i))
}

// durations binds a numeric slot that counts in a unit of time (its name or description
// names one: "Travel time in minutes.") to a duration the text writes in another unit,
// converted: "in an hour" is 60 minutes, "in 2 hours" 120, "half an hour" 30. A duration in
// the slot's own unit is left to its cue (numbersBefore). Each slot with a unit takes it.
func (x *extraction) durations() {
	for i, t := range x.toks {
		unit := durationUnit(t.lower)
		if t.kind != exTokWord || unit == 0 || i == 0 || x.used[i] {
			continue
		}
		first, n := i-1, 0.0
		switch p := x.toks[i-1]; {
		case p.kind == exTokNumber:
			n, _ = strconv.ParseFloat(p.text, 64)
		case p.lower == "a" || p.lower == "an":
			n = 1
			if i >= 2 && x.toks[i-2].lower == "half" {
				n, first = 0.5, i-2
			}
		}
		if n <= 0 || x.used[first] {
			continue
		}
		took := false
		for si := range x.slots {
			s := &x.slots[si]
			if x.bound[si] || s.timeUnit == 0 || s.timeUnit == unit {
				continue
			}
			x.bind(si, strconv.FormatFloat(n*unit/s.timeUnit, 'f', -1, 64))
			took = true
		}
		if took {
			x.mark(first, i)
		}
	}
}

// numbersBefore binds numeric slots to a number written right before one of their cues:
// "for 3 nights", "4 guests".
func (x *extraction) numbersBefore() {
	var spans [][2]int
	for si := range x.slots {
		s := &x.slots[si]
		if s.kind != exNumber || x.bound[si] {
			continue
		}
	search:
		for p := range x.ents {
			for _, cue := range s.cues {
				a, b, ok := x.matchCue(p, cue)
				if !ok || a == 0 {
					continue
				}
				n := x.toks[a-1]
				if x.used[a-1] {
					continue
				}
				v := n.text
				if n.kind != exTokNumber {
					// An ordinal counts what the cue names, "the second season" is season 2,
					// and so does a number's name: "for two people". An identifier counts
					// nothing: "the first movie" is no movie_id 1.
					if s.identifies() {
						continue
					}
					k := subgoal.OrdinalNumber(n.lower)
					if k == 0 {
						k = subgoal.CardinalNumber(n.lower)
					}
					if n.kind != exTokWord || k == 0 {
						continue
					}
					v = strconv.Itoa(k)
				}
				x.bind(si, v)
				spans = append(spans, [2]int{a - 1, b})
				break search
			}
		}
	}
	for _, sp := range spans {
		x.mark(sp[0], sp[1])
	}
}

// Rule 3: typed values.

// typed binds the dates (or times) no cue claimed. One value binds every unbound slot of
// the kind; several values bind an API's slots of the kind in order where it has exactly as
// many (the first date to the first date input it declares); otherwise the text is
// ambiguous for that API, and nothing binds there. Each API is read on its own: another
// API's inputs of the kind do not make a meeting's start and end ambiguous.
func (x *extraction) typed(tk exTokKind, sk exKind) {
	var vals []string
	var at []int
	relative := true // every value is a day named relative to today
	for i, t := range x.toks {
		if t.kind == tk && !x.used[i] {
			if !exHas(vals, t.text) {
				vals = append(vals, t.text)
			}
			at = append(at, i)
			relative = relative && t.relative
		}
	}
	if len(vals) == 0 {
		return
	}
	// "Tomorrow" says when what the request asks for is, which a required date input takes;
	// an optional one of another call (a hotel search's check-in) would only ground a detour.
	takes := func(s *exSlot) bool { return s.kind == sk && (!relative || s.Required) }
	bound := false
	for _, sis := range x.unboundByAPI(takes) {
		switch {
		case len(vals) == 1:
			// One day stated is one slot's of an API (the check-in, not the check-out
			// too), unless the API's slots take a time as well: a meeting from 14:00 to
			// 15:00 starts and ends on the day stated.
			if sk == exDate && !slices.ContainsFunc(sis, func(si int) bool { return x.slots[si].takesClock() }) {
				sis = sis[:1]
			}
			for _, si := range sis {
				x.bind(si, vals[0])
			}
		case len(vals) == len(sis):
			for k, si := range sis {
				x.bind(si, vals[k])
			}
		default:
			continue
		}
		bound = true
	}
	if bound {
		for _, i := range at {
			x.used[i] = true
		}
	}
}

// bindLone binds v to the slots named in names (ok accepts them) of each API that has exactly
// one of them unbound: "a table for 7" gives the restaurant booking its party size, whether or
// not a hotel booking that takes guests and nights is among the APIs, since which API the
// plan calls is the graph search's decision. An API with two such inputs is ambiguous and
// gets nothing. A slot keyed by its name alone counts as an API of its own name.
func (x *extraction) bindLone(v string, names []string, ok func(*exSlot) bool) {
	for _, sis := range x.unboundByAPI(func(s *exSlot) bool { return ok(s) && exHas(names, s.Name) }) {
		if len(sis) == 1 {
			x.bind(sis[0], v)
		}
	}
}

// unboundByAPI groups the unbound slots ok accepts by their API (see api), the APIs in the
// order of their first slot, each API's slots in slot order.
func (x *extraction) unboundByAPI(ok func(*exSlot) bool) [][]int {
	var groups [][]int
	at := map[string]int{} // API → its group
	for si := range x.slots {
		if s := &x.slots[si]; !x.bound[si] && ok(s) {
			i, seen := at[s.api()]
			if !seen {
				i = len(groups)
				at[s.api()] = i
				groups = append(groups, nil)
			}
			groups[i] = append(groups[i], si)
		}
	}
	return groups
}

// api is the API whose input the slot is: its key without the input's name ("stay.Book" of
// "stay.Book.nights"), the whole key where it does not end with the name.
func (s *exSlot) api() string {
	if k, ok := strings.CutSuffix(s.key, s.Name); ok && len(k) > 1 {
		return k[:len(k)-1] // the separator, "." or another
	}
	return s.key
}

// unboundNames lists the distinct names of the unbound slots ok accepts, in slot order.
func (x *extraction) unboundNames(ok func(*exSlot) bool) []string {
	var names []string
	for si := range x.slots {
		if s := &x.slots[si]; !x.bound[si] && ok(s) && !exHas(names, s.Name) {
			names = append(names, s.Name)
		}
	}
	return names
}

// bindName binds every unbound slot called name that ok accepts.
func (x *extraction) bindName(name, v string, ok func(*exSlot) bool) {
	for si := range x.slots {
		if s := &x.slots[si]; s.Name == name && ok(s) {
			x.bind(si, v)
		}
	}
}

// bindEvery binds v to every unbound slot ok accepts.
func (x *extraction) bindEvery(v string, ok func(*exSlot) bool) {
	for si := range x.slots {
		if ok(&x.slots[si]) {
			x.bind(si, v)
		}
	}
}

func exHas(ss []string, s string) bool {
	for _, v := range ss {
		if v == s {
			return true
		}
	}
	return false
}

// Rule 4: identifiers.

// identifiers binds identifier tokens to id slots. An identifier is a token of letters and
// digits joined by hyphens or underscores ("team-liverpool-a20b", "rst-0042"), or one of
// lower-case letters only whose prefix names an id slot ("rest-xyz" for restaurant_id; a
// letters-only "best-rated" names none and stays a word). It binds to the id slots whose
// name words its prefix names (team-… → team_id, rst-… → restaurant_id, as prefix or
// abbreviation), else to those whose description words it names, else to the only id slot
// name there is.
func (x *extraction) identifiers() {
	isID := func(s *exSlot) bool { return s.kind == exID }
	// A word in capitals ("AAPL", "JFK") is the value of an identifier that is a code: the
	// slot's name or description says so (stock_code).
	code := exSet("code")
	isCode := func(s *exSlot) bool { return isID(s) && (exAny(s.words, code) || exAny(s.desc, code)) }
	for i, t := range x.toks {
		if !x.used[i] && t.kind == exTokWord && !t.sep && !t.digit && len(t.text) >= 2 && len(t.text) <= 10 && exAllCaps(t.text) && !x.stopName(i) {
			// It stays free for a name's slot too: "the JD" may be a company.
			x.bindEvery(t.text, isCode)
			continue
		}
		if x.used[i] || t.kind != exTokWord || !t.sep || !t.letter {
			continue
		}
		mixed := t.digit // letters and digits: an identifier whatever it names
		if !mixed && t.text != t.lower {
			continue // "Saint-Germain" is a name, not an identifier
		}
		parts := strings.FieldsFunc(t.lower, func(r rune) bool { return r == '-' || r == '_' })
		prefix := parts[0]
		// A word made of the slot's own name words names the slot, not one of its values: "my
		// most recent fine-tuning job" asks for a fine_tuning_job_id, and states none.
		names := x.unboundNames(func(s *exSlot) bool {
			return isID(s) && exNames(prefix, s.words) && (mixed || !exAll(parts, s.words))
		})
		if len(names) == 0 && mixed {
			names = x.unboundNames(func(s *exSlot) bool { return isID(s) && exNames(prefix, s.desc) })
			if all := x.unboundNames(isID); len(names) == 0 && len(all) == 1 && exCodeShaped(t.lower) {
				names = all
			}
		}
		if len(names) == 0 {
			continue
		}
		for _, n := range names {
			x.bindName(n, t.text, isID)
		}
		x.used[i] = true
	}
}

// patterned binds each slot whose schema gives a telling pattern (exTelling) to the word of
// the text that matches it: "service IS5bc…" is the service Twilio's ^IS[0-9a-fA-F]{32}$
// names, whatever the words around it, and not an OpenAI service_tier. Each slot of that
// pattern takes it; a slot two words match is left to the other rules, and the run may ask.
func (x *extraction) patterned() {
	for i := range x.slots {
		if x.bound[i] || !exTelling(x.slots[i].Pattern) {
			continue
		}
		match := -1
		for j, t := range x.toks {
			if t.kind != exTokWord || !toolspec.MatchesPattern(x.slots[i].Pattern, t.text) {
				continue
			}
			if match >= 0 && x.toks[match].text != t.text {
				match = -2
				break
			}
			match = j
		}
		if match >= 0 {
			x.bind(i, x.toks[match].text)
			x.used[match] = true
		}
	}
}

// Telling returns what reports whether text writes a word that a telling pattern (one that
// tells its values apart from the rest of a text, see exTelling) reads: "IS5bc…" is a value
// of Twilio's ^IS[0-9a-fA-F]{32}$, which names the service that takes it. A pattern that is
// not telling reads nothing. text is tokenized once, for every pattern asked.
func Telling(text string) func(pattern string) bool {
	var words []string
	for _, t := range exTokenize(text) {
		if t.kind == exTokWord {
			words = append(words, t.text)
		}
	}
	return func(pattern string) bool {
		return exTelling(pattern) && slices.ContainsFunc(words, func(w string) bool { return toolspec.MatchesPattern(pattern, w) })
	}
}

// exProbes are values of every kind a text holds, a telling pattern matches none of: words,
// names, numbers, a year, a slug, a code of few characters.
var exProbes = []string{"a", "word", "Word", "WORD", "Paris", "7", "42", "2024", "123456789", "3.5", "top-10", "my-site", "a1", "abc123"}

// exTelling reports whether a pattern tells its values apart from the rest of a text: it is
// one Go reads, and it matches none of exProbes. "^IS[0-9a-fA-F]{32}$" is telling,
// "^[0-9]+$" (any number) and ".*" are not.
// Each pattern is probed once: a catalog gives one pattern to many inputs (Twilio's service
// id to 25), and every request reads them all.
func exTelling(pattern string) bool {
	if pattern == "" {
		return false
	}
	if v, ok := exTellingPatterns.Load(pattern); ok {
		return v.(bool)
	}
	// A pattern Go cannot compile matches everything (MatchesPattern); the probes catch it.
	telling := !slices.ContainsFunc(exProbes, func(p string) bool { return toolspec.MatchesPattern(pattern, p) })
	exTellingPatterns.Store(pattern, telling)
	return telling
}

// exTellingPatterns holds exTelling's answer by pattern.
var exTellingPatterns sync.Map // string → bool

// exCodeShaped reports whether a hyphenated word reads as a code rather than as a word and a
// count ("top-1", "covid-19"): one of its parts mixes letters and digits ("a20b"), or is a
// number of three digits or more ("rst-0042").
func exCodeShaped(w string) bool {
	for _, part := range strings.FieldsFunc(w, func(r rune) bool { return r == '-' || r == '_' }) {
		letters := strings.ContainsFunc(part, unicode.IsLetter)
		digits := strings.IndexFunc(part, func(r rune) bool { return !unicode.IsDigit(r) }) < 0
		if letters && strings.ContainsFunc(part, unicode.IsDigit) || digits && len(part) >= 3 {
			return true
		}
	}
	return false
}

// CodeShaped reports whether v, one word, reads as a code ("lst-0515bb06", "rst-0042", "a20b"):
// a value read by its shape, as a number is.
func CodeShaped(v string) bool {
	return v != "" && !strings.ContainsFunc(v, unicode.IsSpace) && exCodeShaped(v)
}

// exNames reports whether an identifier prefix names one of words: it equals a word, one
// starts the other (rest, restaurant), or it abbreviates the word (rst, htl, agt: same first
// letter, letters in order).
func exNames(prefix string, words []string) bool {
	if prefix == "" || !exLetters(prefix) {
		return false
	}
	for _, w := range words {
		if exGeneric(w) || len(w) < 2 {
			continue
		}
		switch {
		case w == prefix,
			len(prefix) >= 3 && strings.HasPrefix(w, prefix),
			len(w) >= 3 && strings.HasPrefix(prefix, w),
			len(prefix) >= 2 && prefix[0] == w[0] && exSubsequence(prefix, w):
			return true
		}
	}
	return false
}

func exSubsequence(short, long string) bool {
	k := 0
	for i := 0; i < len(long) && k < len(short); i++ {
		if long[i] == short[k] {
			k++
		}
	}
	return k == len(short)
}

// Rule 5: free text.

// exPlacePreps before a phrase say it names a place ("in Paris", "near Rome"), as do
// exPlaceHeads followed by "of" ("the centre of Madrid"); exPersonPreps before it say it
// names a person ("a guest named Ana Silva"), and exMaybePerson that it may ("for Ana
// Silva", but also "statistics for Paris").
var (
	exPlacePreps  = exWordSet(english.Set("place-preps"))
	exPlaceHeads  = exWordSet(english.Set("place-heads"))
	exPersonPreps = exWordSet(english.Set("person-preps"))
	exMaybePerson = exWordSet(english.Set("maybe-person"))
)

// Phrase cues: what the words before a phrase say it names.
const (
	exCuePlace       = "place"
	exCuePerson      = "person"
	exCueMaybePerson = "person?"
)

// nameWord reports whether token i can be part of a name: an unused capitalised word of
// letters, not a stop name, and not a question word (or a slot's own cue word, "Latitude
// 48.8") at the start of a sentence.
func (x *extraction) nameWord(i int) bool {
	if i >= len(x.toks) || x.used[i] {
		return false
	}
	t := x.toks[i]
	if t.kind != exTokWord || t.digit || !t.letter || x.stopName(i) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(t.text)
	if !unicode.IsUpper(r) {
		return false
	}
	// A word that starts a request ("Find", "What", "Additionally") is no name: the
	// sub-goal splitter's closed-class and connective words say which, and so does a word
	// an API is named by ("Query meeting of John" beside QueryMeeting).
	if t.sentStart && (subgoal.Common(t.lower) || subgoal.Common(contracted(t.lower)) || x.cueWord(exStem(t.lower)) ||
		x.apiWord(exStem(t.lower)) || x.verbUse(i) || x.writtenLower(t.lower)) {
		return false
	}
	return true
}

// contracted is the word a contraction or a possessive is built on ("it" of "it's", "let" of
// "let's"), w itself where it has no apostrophe.
func contracted(w string) string {
	if i := strings.IndexAny(w, "'’"); i > 0 {
		return w[:i]
	}
	return w
}

// writtenLower reports whether the text writes the word w (lowercase) in lowercase somewhere:
// a capital that only starts a sentence makes no name of a word the user writes plainly
// elsewhere ("… for shortness of breath?\nShortness of breath.").
func (x *extraction) writtenLower(w string) bool {
	if x.lowerWords == nil {
		x.lowerWords = map[string]bool{}
		for _, t := range x.toks {
			if t.kind == exTokWord && t.text == t.lower {
				x.lowerWords[t.text] = true
			}
		}
	}
	return x.lowerWords[w]
}

// stopName reports whether a capitalised t is no name of the kind a free-text slot takes,
// wherever it stands: the pronoun I and its contractions, a day or a month ("on Monday", "in
// May", which a date slot takes), and an abbreviation written in capitals that the APIs use
// as a plain word ("the UV index", "a TV show", "the IP address": a word of an API's or an
// input's name).
func (x *extraction) stopName(i int) bool {
	t := x.toks[i]
	if t.lower == "i" || strings.HasPrefix(t.lower, "i'") || strings.HasPrefix(t.lower, "i’") || subgoal.DateWord(t.lower) {
		return true
	}
	if t.text != strings.ToUpper(t.text) {
		return false
	}
	w := exStem(t.lower)
	return x.apiWord(w) || x.inputWord(w) || x.modifies(i)
}

// modifies reports whether the abbreviation at token i qualifies the plain noun right after
// it (the "UTC offset", a "QR code"): it names a kind of that thing, not a value of it.
func (x *extraction) modifies(i int) bool {
	if i+1 >= len(x.toks) {
		return false
	}
	t, n := x.toks[i], x.toks[i+1]
	if utf8.RuneCountInString(t.text) < 2 {
		return false // one capital is a name's letter ("Serie A", "Plan B"), no abbreviation
	}
	r, _ := utf8.DecodeRuneInString(n.text)
	return n.kind == exTokWord && n.start == t.end+1 && n.letter && !n.digit && unicode.IsLower(r) && !subgoal.Function(n.lower)
}

// inputWord reports whether w (stemmed) is a word of the name of a slot ("id" of user_id).
func (x *extraction) inputWord(w string) bool {
	x.nameSets()
	return x.inputWords[w]
}

// verbUse reports whether the word at i is used as a verb by what follows it ("Show me",
// "List the", "Add a"; see subgoal.ShowsVerb).
func (x *extraction) verbUse(i int) bool {
	if i+1 >= len(x.toks) || x.toks[i+1].kind != exTokWord {
		return false
	}
	r, _ := utf8.DecodeRuneInString(x.toks[i+1].text)
	next := x.toks[i+1].lower // "Serie A" is a name; "Got any playlists?" opens with a verb
	return !unicode.IsUpper(r) && (subgoal.ShowsVerb(next) || subgoal.Quantifier(next))
}

func (x *extraction) cueWord(w string) bool {
	for _, s := range x.slots {
		for _, c := range s.cues {
			if len(c) == 1 && c[0] == w {
				return true
			}
		}
	}
	return false
}

// apiWord reports whether w (stemmed) is a word of the name of a slot's API ("query" of
// QueryMeeting.user_name; "book" of stay.Book, the name within its family).
func (x *extraction) apiWord(w string) bool {
	x.nameSets()
	return x.apiWords[w]
}

// nameSets reads the stemmed words of the slots' API and input names, once.
func (x *extraction) nameSets() {
	if x.apiWords != nil {
		return
	}
	x.apiWords, x.inputWords = map[string]bool{}, map[string]bool{}
	for _, s := range x.slots {
		for _, n := range s.words {
			x.inputWords[exStem(n)] = true
		}
		if api, _, ok := strings.Cut(s.Key, "."+s.Name); ok {
			for _, n := range exWords(twnm.OwnName(api)) {
				x.apiWords[exStem(n)] = true
			}
		}
	}
}

// phraseAt returns the last token of the capitalised phrase starting at token j: a run of
// name words, possibly joined by a connector, and a trailing integer ("Ligue 1").
func (x *extraction) phraseAt(j int) (int, bool) {
	if !x.nameWord(j) {
		return 0, false
	}
	b := j
	for {
		switch {
		case x.nameWord(b+1) && x.sameLine(b, b+1):
			b++
			continue
		case b+2 < len(x.toks) && !x.used[b+1] && subgoal.Connector(x.toks[b+1].text) && x.nameWord(b+2) && x.sameLine(b, b+2):
			b += 2
			continue
		case b+2 < len(x.toks) && x.toks[b+1].kind == exTokPunct && x.toks[b+1].text[0] == '.' && exTitle(x.toks[b].text) && len(x.toks[b].text) == 2 && x.nameWord(b+2) && x.sameLine(b, b+2):
			b += 2 // an abbreviated title goes on past its period: "Dr. Smith", "St. Louis"
			continue
		}
		break
	}
	if n := b + 1; n < len(x.toks) && !x.used[n] && exInteger(x.toks[n]) && !exEndsPossessive(x.toks[b].text) && x.sameLine(b, n) {
		b = n
	}
	return b, true
}

// sameLine reports whether tokens a and b (a before b) stand on one line of the text: a name
// never goes on past a line break ("34567890\nRobert Lee\nActually, …" holds three answers).
func (x *extraction) sameLine(a, b int) bool {
	return !strings.Contains(x.text[x.toks[a].end:x.toks[b].start], "\n")
}

// exTitle reports whether a word is written in title case: a capital, then small letters.
func exTitle(w string) bool {
	r, n := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r) && w[n:] != "" && strings.ToLower(w[n:]) == w[n:]
}

func exEndsPossessive(s string) bool {
	return strings.HasSuffix(s, "'s") || strings.HasSuffix(s, "’s")
}

// quotedAt returns the tokens inside the quotation that opens at token j ("…", “…”, '…' or
// ‘…’). A single quote opens only where a word starts and closes only where one ends, so
// that an apostrophe ("the students' notes") quotes nothing.
func (x *extraction) quotedAt(j int) (int, int, bool) {
	if j >= len(x.toks) || x.used[j] || x.toks[j].kind != exTokPunct {
		return 0, 0, false
	}
	var closer string
	single := false
	switch x.toks[j].text {
	case `"`:
		closer = `"`
	case "“":
		closer = "”"
	case "'":
		closer, single = "'", true
	case "‘":
		closer, single = "’", true
	default:
		return 0, 0, false
	}
	if single && (!x.spaceBefore(j) || x.spaceAfter(j)) || x.closes[j] {
		// A straight double quote opens a quotation only as the text's first, third, …: the
		// one that closes a quoted date ("the time is "2023-03-17", and … "Walmart"") opens
		// nothing, whatever an earlier rule read between the two.
		return 0, 0, false
	}
	for k := j + 1; k < len(x.toks); k++ {
		if x.used[k] {
			return 0, 0, false
		}
		if x.toks[k].text == closer && (!single || !x.spaceBefore(k) && !x.wordAfter(k)) {
			if k == j+1 {
				return 0, 0, false
			}
			return j, k, true
		}
	}
	return 0, 0, false
}

// spaceBefore reports whether token i starts the text or follows a space.
func (x *extraction) spaceBefore(i int) bool {
	r, _ := utf8.DecodeLastRuneInString(x.text[:x.toks[i].start])
	return x.toks[i].start == 0 || unicode.IsSpace(r)
}

// spaceAfter reports whether token i ends the text or a space follows it.
func (x *extraction) spaceAfter(i int) bool {
	r, _ := utf8.DecodeRuneInString(x.text[x.toks[i].end:])
	return x.toks[i].end == len(x.text) || unicode.IsSpace(r)
}

// wordAfter reports whether a letter or digit follows token i at once.
func (x *extraction) wordAfter(i int) bool {
	r, _ := utf8.DecodeRuneInString(x.text[x.toks[i].end:])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// identifies reports whether the slot's name ends in a word that names an identifier
// (movie_id, trackId): its value picks a thing, and counts nothing.
func (s *exSlot) identifies() bool {
	return len(s.words) > 0 && exIDWords[s.words[len(s.words)-1]]
}

// accepts reports whether a phrase fits a free-text slot: a slot that lists its values one of
// them, a code slot only a short token of capitals and digits ("FR", "SW1A", "10001"), a phone
// slot digits (six at least, with their separators), a language slot a word or two without
// digits ("Spanish", "en-US").
func (s *exSlot) accepts(v string) bool {
	if v == "" {
		return false
	}
	// A slot that lists its values takes no other (see bind), so a phrase it refuses stays
	// for the other slots: "the tv series The Last Of Us" is no status of a show, though
	// "Returning Series" is one.
	if _, ok := s.listed(v); !ok {
		return false
	}
	if s.codeLike {
		return len(v) >= 2 && len(v) <= 10 && exAllCaps(v)
	}
	if s.phoneLike {
		digits := 0
		for _, r := range v {
			switch {
			case unicode.IsDigit(r):
				digits++
			case unicode.IsLetter(r):
				return false
			}
		}
		return digits >= 6
	}
	if s.languageLike {
		return len(strings.Fields(v)) <= 2 && !strings.ContainsFunc(v, unicode.IsDigit)
	}
	if s.numeric {
		return strings.ContainsFunc(v, unicode.IsDigit) && !strings.ContainsFunc(v, unicode.IsLetter)
	}
	if s.coded {
		return exHasSign(v)
	}
	return true
}

// exAllCaps reports whether s is all capitals and digits, with at least one of either.
func exAllCaps(s string) bool {
	for _, r := range s {
		if unicode.IsLower(r) || !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return s != ""
}

// exPhrase is a free-text value of the text and what the words before it say it names.
type exPhrase struct {
	value string
	cue   string // exCuePlace, exCuePerson, exCueMaybePerson or ""
	// kinds are the words that say what the phrase names, stemmed: "collection" for "the
	// collection The Hunger Games", "person" for "directed by Christopher Nolan" (see kindsAt).
	kinds []string
	// titled says a title opening the phrase abbreviates some of kinds ("Dr. Smith"): the
	// phrase fills no other person's slot (see titleFits).
	titled bool
	// owns are the words a possessive of the phrase governs, stemmed: "preference" for
	// "Peter's preferences", whose value is Peter's, not the preferences (see possessed).
	owns map[string]bool
}

// fits reports whether the phrase's cue suits a slot group of the given kind ("place",
// "person" or "" for neither): a place phrase is no person and a person phrase no place;
// anything else may be anything.
func (p exPhrase) fits(kind string) bool {
	switch p.cue {
	case exCuePlace:
		return kind != exCuePerson
	case exCuePerson:
		return kind != exCuePlace
	}
	return true
}

// freeText binds the phrases of the text to the string slots still unbound (the required
// ones when there are any, else the optional ones: a stray name should not fill an optional
// filter like cuisine when a required input is waiting for it).
//
// Slots are grouped: all place-like slots form one group, all person-like slots another,
// and every other slot name its own group. One phrase binds every group, except that a
// phrase the words before it call a place ("in Paris", "the centre of Rome") skips the
// person group and one they call a person ("a guest named Ana Silva") the place group,
// when another group is there to take it. Several phrases are told apart within each API:
// in the order the groups first appear among the slots, each of the API's groups takes a
// phrase: the first free one whose preceding words name its kind ("in Paris" for places,
// "for Ana Silva" for people), else the first free one without such words, else, for
// groups that are neither places nor people, the first free one at all. A group left
// without a phrase stays unbound.
func (x *extraction) freeText() {
	var phrases []exPhrase
	for i := 0; i < len(x.toks); i++ {
		v, last, ok := x.freeValueAt(i)
		if !ok {
			continue
		}
		// A name may start with a number no other rule read: "2 Broke Girls", "12 Angry Men".
		if i > 0 && !x.used[i-1] && exInteger(x.toks[i-1]) && x.nameWord(i) && x.sameLine(i-1, i) {
			i--
			v = x.phraseSpan(i, last)
		}
		x.mark(i, last)
		owned := x.possessed(last)
		owns := make(map[string]bool, len(owned))
		for _, w := range owned {
			owns[exStem(w)] = true
		}
		title := x.titleKinds(i)
		cue, kinds := x.phraseCue(i), append(x.kindsAt(i, owned), title...)
		i = last
		dup := v == ""
		for _, p := range phrases {
			dup = dup || p.value == v
		}
		if !dup {
			phrases = append(phrases, exPhrase{value: v, cue: cue, kinds: kinds, titled: len(title) > 0, owns: owns})
		}
	}
	if len(phrases) == 0 {
		return
	}
	var free []int
	required := false
	for si := range x.slots {
		if s := &x.slots[si]; !x.bound[si] && s.kind == exString && !exAddress(s) {
			free = append(free, si)
			required = required || s.Required
		}
	}
	var groups []*exGroup
	byKey := map[string]*exGroup{}
	for _, si := range free {
		s := &x.slots[si]
		if required && !s.Required || x.describedByClause(s) {
			continue
		}
		kind := s.group()
		key := kind
		if kind == "" {
			key = "name:" + s.Name
		}
		g := byKey[key]
		if g == nil {
			g = &exGroup{kind: kind}
			byKey[key] = g
			groups = append(groups, g)
		}
		g.slots = append(g.slots, si)
	}
	took := map[string]bool{} // API and phrase: one phrase fills one input of an API
	bindGroup := func(g *exGroup, p exPhrase) {
		// A phrase that says what it names goes to the slots of the APIs about that kind of
		// thing where the group has some: "the collection The Hunger Games" is the query of
		// the collection search, not of the movie search beside it.
		slots := g.slots
		if of := slices.DeleteFunc(slices.Clone(slots), func(si int) bool { return !x.slots[si].about(p.kinds) }); len(of) > 0 {
			slots = of
		}
		for _, si := range slots {
			// "Peter's preferences" states whose preferences, not what they are.
			key := x.slots[si].api() + "\x00" + p.value
			if x.slots[si].accepts(p.value) && !exAny(x.slots[si].words, p.owns) && x.slots[si].titleFits(p) && !took[key] {
				x.bind(si, p.value)
				took[key] = true
			}
		}
	}
	if len(phrases) == 1 {
		p, fitting := phrases[0], 0
		for _, g := range groups {
			if p.fits(g.kind) {
				fitting++
			}
		}
		for _, g := range groups {
			if p.fits(g.kind) || fitting == 0 {
				bindGroup(g, p)
			}
		}
		return
	}
	// Each API tells the phrases apart among its own groups: another API's inputs taking a
	// phrase leave it to this one's ("a photo of the Ace Hotel in downtown Los Angeles" is
	// the place search's input whatever a comment's message or a namespace took).
	var apis []string
	own := map[string][]*exGroup{} // by API, in the groups' order
	for _, g := range groups {
		part := map[string]*exGroup{}
		for _, si := range g.slots {
			a := x.slots[si].api()
			h := part[a]
			if h == nil {
				if _, ok := own[a]; !ok {
					apis = append(apis, a)
				}
				h = &exGroup{kind: g.kind}
				part[a], own[a] = h, append(own[a], h)
			}
			h.slots = append(h.slots, si)
		}
	}
	names := func(g *exGroup, p exPhrase) bool {
		return slices.ContainsFunc(g.slots, func(si int) bool { return x.slots[si].about(p.kinds) })
	}
	takes := func(g *exGroup, p exPhrase) bool {
		return slices.ContainsFunc(g.slots, func(si int) bool { return x.slots[si].titleFits(p) })
	}
	latest := func(g *exGroup) bool {
		return !slices.ContainsFunc(g.slots, func(si int) bool { return !x.slots[si].replaces() })
	}
	for _, a := range apis {
		tellApart(own[a], phrases, apartRules{names: names, takes: takes, latest: latest, bind: bindGroup})
	}
}

// tellApart gives each group a phrase of its own (see freeText): first the phrases that say
// they name what a group's slot is about ("Dr. Smith" a doctor), then, in the groups' order,
// the others. A group of new values (see exSlot.replaces) takes the last phrase that suits it:
// "move my appointment with Dr. Smith to Dr. Lee" makes Dr. Lee the new doctor.
func tellApart(groups []*exGroup, phrases []exPhrase, r apartRules) {
	taken := make([]bool, len(phrases))
	pick := func(g *exGroup, ok func(exPhrase) bool) int {
		k := -1
		for i, p := range phrases {
			if !taken[i] && ok(p) {
				if k = i; !r.latest(g) {
					break
				}
			}
		}
		return k
	}
	done := make([]bool, len(groups))
	for gi, g := range groups {
		if r.latest(g) {
			continue // the last phrase it takes, whatever names what (below)
		}
		if k := pick(g, func(p exPhrase) bool { return r.names(g, p) }); k >= 0 {
			taken[k], done[gi] = true, true
			r.bind(g, phrases[k])
		}
	}
	for gi, g := range groups {
		if done[gi] {
			continue
		}
		k := -1
		if r.latest(g) {
			k = pick(g, func(p exPhrase) bool { return r.takes(g, p) })
		}
		if k < 0 && g.kind != "" {
			k = pick(g, func(p exPhrase) bool {
				return r.takes(g, p) && (p.cue == g.kind || g.kind == exCuePerson && p.cue == exCueMaybePerson)
			})
		}
		if k < 0 {
			k = pick(g, func(p exPhrase) bool { return r.takes(g, p) && (p.cue == "" || p.cue == exCueMaybePerson) })
		}
		if k < 0 && g.kind == "" {
			k = pick(g, func(p exPhrase) bool { return r.takes(g, p) })
		}
		if k >= 0 {
			taken[k] = true
			r.bind(g, phrases[k])
		}
	}
}

// apartRules are what tellApart asks of a group and a phrase: whether the phrase names what
// one of the group's slots is about, whether a slot of the group may take it, whether the
// group takes the last phrase that suits it; and it binds the group with bind.
type apartRules struct {
	names, takes func(*exGroup, exPhrase) bool
	latest       func(*exGroup) bool
	bind         func(*exGroup, exPhrase)
}

// exGroup is a group of free-text slots that one phrase fills (see freeText): kind is
// exCuePlace, exCuePerson or "" for a slot name of its own.
type exGroup struct {
	kind  string
	slots []int
}

// exPersonVerbs before "by" say the name after it is a person's ("directed by Christopher
// Nolan"), as exPersonCues do right before it ("starring Tom Hanks").
var (
	exPersonVerbs = exWordSet(english.Set("person-verbs"))
	exPersonCues  = exWordSet(english.Set("person-cues"))
)

// exWorks are what a person makes: a name whose possessive they follow is its maker's
// ("Leonardo DiCaprio's latest movie"); exWorkModifiers may stand between ("latest", "new"),
// and so may a word right before the work ("TV" of "latest TV show").
var (
	exWorks         = exWordSet(english.Set("works"))
	exWorkModifiers = exWordSet(english.Set("work-modifiers"))
)

// kindsAt returns what the words around the phrase starting at token a say it names, stemmed:
// the content words among the two words right before it ("the tv series The Last Of Us" is a
// series and tv; a word no slot's API is named by narrows nothing, see about); a person after
// a verb of authorship and "by", or after "starring"; a person whose possessive a work follows
// ("Clint Eastwood's latest movie"), owned being the words its possessive governs (see
// possessed).
func (x *extraction) kindsAt(a int, owned []string) []string {
	for i, w := range owned {
		if exWorks[w] {
			return []string{"person"}
		}
		// A word right before a work qualifies it as a modifier does: "Cate Blanchett's
		// latest TV show", "her jazz albums".
		if !exWorkModifiers[w] && (i+1 >= len(owned) || !exWorks[owned[i+1]]) {
			break
		}
	}
	prev := func(k int) string {
		if a-k < 0 || x.toks[a-k].kind != exTokWord {
			return ""
		}
		return x.toks[a-k].lower
	}
	if prev(1) == "by" && exPersonVerbs[prev(2)] || exPersonCues[prev(1)] {
		return []string{"person"}
	}
	var out []string
	for k := 1; k <= 2 && prev(k) != "" && !exGeneric(prev(k)) && !subgoal.DateWord(prev(k)); k++ {
		out = append(out, exStem(prev(k)))
	}
	return out
}

// possessed returns the words that a possessive ending the phrase at token b governs, in
// lower case: at most three, up to a preposition or a conjunction ("Peter's movie
// preferences" gives movie and preferences); nil when the phrase ends in no possessive.
func (x *extraction) possessed(b int) []string {
	if !exEndsPossessive(x.toks[b].text) {
		return nil
	}
	var out []string
	for k := b + 1; k < len(x.toks) && k <= b+3 && x.toks[k].kind == exTokWord; k++ {
		w := x.toks[k].lower
		if subgoal.Preposition(w) || w == "and" || w == "or" {
			break
		}
		out = append(out, w)
	}
	return out
}

// about reports whether the slot belongs to an API about one of kinds: its key (the API's and
// the input's names) holds one of them ("GET_search-collection.query" for a collection).
func (s *exSlot) about(kinds []string) bool {
	if len(kinds) == 0 {
		return false
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(s.Key), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if slices.Contains(kinds, exStem(w)) {
			return true
		}
	}
	return false
}

// titleKinds are the words of the names of the slots that take a person's name (see
// personName) that a title opening the phrase at token a abbreviates, stemmed: "Dr. Smith" is
// a doctor's name, for the doctor_name beside a patient_name. A title is a word of letters
// right before a full stop; it abbreviates a longer word that starts with its first letter and
// holds its letters in their order (dr, doctor).
func (x *extraction) titleKinds(a int) []string {
	if a+1 >= len(x.toks) || x.toks[a].kind != exTokWord || x.toks[a].digit || x.toks[a+1].text != "." || x.toks[a+1].start != x.toks[a].end {
		return nil
	}
	t := x.toks[a].lower
	var out []string
	for si := range x.slots {
		if !x.slots[si].personName() {
			continue
		}
		for _, w := range x.slots[si].words {
			if len(w) > len(t) && abbreviates(t, w) && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

// personName reports whether the slot takes a person's name: its group is a person's, or its
// name is a name of something (patient_name, member_name).
func (s *exSlot) personName() bool {
	return s.group() == exCuePerson || len(s.words) > 1 && s.words[len(s.words)-1] == "name"
}

// takesClock reports whether the slot's layout holds a time of day ("%Y-%m-%d %H:%M:%S").
func (s *exSlot) takesClock() bool {
	return strings.Contains(s.layout, "15") || strings.Contains(s.layout, "04")
}

// replaces reports whether the slot takes a value that replaces another (new_password,
// new_appointment_doctor): a request that states the old value too states the new one last.
func (s *exSlot) replaces() bool { return len(s.words) > 1 && s.words[0] == "new" }

// titleFits reports whether the slot may take phrase p. A titled phrase ("Dr. Smith") says
// which person it names: it fills a slot about that person, or one that names no kind of thing
// of its own (a search's keyword or query, a bare name or value; see kindless), never another
// person's (the patient_name beside a doctor) nor a slot of another kind of thing (a symptom).
func (s *exSlot) titleFits(p exPhrase) bool {
	if !p.titled || s.about(p.kinds) {
		return true
	}
	return !s.personName() && s.kindless()
}

// kindless reports whether the slot's name says no kind of thing: each of its words is generic
// (a name, an id, a value) or names a search's free text (query, keyword).
func (s *exSlot) kindless() bool {
	return !slices.ContainsFunc(s.words, func(w string) bool { return !exGeneric(w) && !exSearchWords[w] })
}

// abbreviates reports whether short is an abbreviation of word: the same first letter, and
// every letter of short in word in its order.
func abbreviates(short, word string) bool {
	if short == "" || word == "" || short[0] != word[0] {
		return false
	}
	j := 0
	for i := 0; i < len(word) && j < len(short); i++ {
		if word[i] == short[j] {
			j++
		}
	}
	return j == len(short)
}

// phraseCue reads the words before the phrase at token a.
func (x *extraction) phraseCue(a int) string {
	prev := func(k int) string {
		if a-k < 0 || x.toks[a-k].kind != exTokWord {
			return ""
		}
		return x.toks[a-k].lower
	}
	k := 1
	if subgoal.Determiner(prev(1)) {
		k = 2 // "in the Alibaba" is "in Alibaba"
	}
	switch p := prev(k); {
	case exPlacePreps[p], p == "of" && exPlaceHeads[prev(k+1)]:
		return exCuePlace
	case exPersonPreps[p]:
		return exCuePerson
	case exMaybePerson[p]:
		return exCueMaybePerson
	}
	return ""
}

// group says whether a free-text slot is place-like, person-like or neither (""), from the
// last of its name words that tells (guest_name is a person, contact_address a place), else
// from its description.
func (s *exSlot) group() string {
	for _, ws := range [][]string{s.words, s.desc} {
		for i := len(ws) - 1; i >= 0; i-- {
			switch {
			case exPlaceWords[ws[i]]:
				return exCuePlace
			case exPersonWords[ws[i]]:
				return exCuePerson
			}
		}
	}
	return ""
}

// Rule 6: numbers left over.

// leftoverNumbers binds the one number no rule claimed to the one required numeric input
// still unbound of each API that has one (see bindLone), an identifier aside: an id stated
// without its cue is no number a user counts. Coordinates come in pairs, so a lone
// number never counts as a latitude or a longitude: "a table for 4" binds party_size even while the latitude and
// longitude of the restaurant search wait for an upstream API. Two numbers left over bind
// to a latitude and a longitude, in that order, of each API whose required numeric inputs
// left are those two ("48.85, 2.35"). Each API is read on its own, as typed reads dates: the
// minutes of a transit search read beside a reverse geocoder leave the geocoder's point
// unambiguous. Any other case is ambiguous and binds nothing.
func (x *extraction) leftoverNumbers() {
	var nums []string
	for i, t := range x.toks {
		v := t.text
		// A number's name counts as its digits ("a table for two"), "one" aside: it is a
		// pronoun as often ("one of the best").
		if k := subgoal.CardinalNumber(t.lower); t.kind == exTokWord && k > 1 {
			v = strconv.Itoa(k)
		} else if t.kind != exTokNumber {
			continue
		}
		if !x.used[i] && !exHas(nums, v) {
			nums = append(nums, v)
		}
	}
	// An identifier is no count: the 2 of "2 Broke Girls" is no show's id.
	isNum := func(s *exSlot) bool { return s.kind == exNumber && s.Required && !s.identifies() }
	coordinate := func(s *exSlot) int { // 1 a latitude, 2 a longitude, 0 neither
		switch w := exWords(s.Name); {
		case len(w) == 1 && (w[0] == "latitude" || w[0] == "lat"):
			return 1
		case len(w) == 1 && (w[0] == "longitude" || w[0] == "lon" || w[0] == "lng"):
			return 2
		}
		return 0
	}
	switch len(nums) {
	case 1:
		x.bindLone(nums[0], x.unboundNames(func(s *exSlot) bool { return isNum(s) && coordinate(s) == 0 }), isNum)
	case 2:
		for _, sis := range x.unboundByAPI(isNum) {
			if len(sis) != 2 {
				continue
			}
			a, b := coordinate(&x.slots[sis[0]]), coordinate(&x.slots[sis[1]])
			if a != 0 && b != 0 && a != b {
				x.bind(sis[0], nums[a-1])
				x.bind(sis[1], nums[b-1])
			}
		}
	}
}

// Relative days.

// days dates the days the text names relative to today: "today", "tomorrow", "yesterday"
// (subgoal.RelativeDay) and a weekday, the next one after today
// ("on Friday"), become date tokens, as if the text wrote their date. Today is the date the
// text gives after "today" ("Today is 2021-09-27", within four tokens), which is then no value
// of its own unless the text names no other day, else today's date from the caller; neither,
// and nothing is dated.
func (x *extraction) days(today time.Time) {
	for i, t := range x.toks {
		if n, ok := subgoal.RelativeDay(t.lower); !ok || n != 0 || t.kind != exTokWord {
			continue
		}
		for k := i + 1; k < len(x.toks) && k <= i+4; k++ {
			if d, err := time.Parse(time.DateOnly, x.toks[k].text); err == nil && x.toks[k].kind == exTokDate {
				today, x.anchor, x.used[k] = d, k, true
				x.used[i] = true // "today" there names the anchor, not a day to bind
				break
			}
		}
		if x.anchor >= 0 {
			break
		}
	}
	if today.IsZero() {
		return
	}
	x.today = today.Format(time.DateOnly)
	dated := x.yearless(today)
	defer func() {
		if dated == 0 && x.anchor >= 0 { // the date today is, and no other: a value after all
			x.used[x.anchor], x.anchor = false, -1
		}
	}()
	for i := range x.toks {
		t := &x.toks[i]
		if t.kind != exTokWord || x.used[i] {
			continue
		}
		var d time.Time
		if n, ok := subgoal.RelativeDay(t.lower); ok {
			d = today.AddDate(0, 0, n)
		} else if wd, ok := subgoal.Weekday(t.text); ok {
			ahead := (int(wd) - int(today.Weekday()) + 7) % 7
			if ahead == 0 {
				ahead = 7 // "on Monday", said on a Monday, is a week on
			}
			d = today.AddDate(0, 0, ahead)
		} else {
			continue
		}
		t.kind, t.text, t.relative = exTokDate, d.Format(time.DateOnly), true
		t.lower = t.text
		dated++
	}
}

// yearless dates the days the text writes by month and day alone ("March 16th", "the 12th
// of September", "5 May") on their next occurrence from today, as if it wrote their date, and
// returns how many it dated.
func (x *extraction) yearless(today time.Time) (dated int) {
	day := func(i int) int { // the day of the month token i writes, 0 for none
		if i < 0 || i >= len(x.toks) || x.used[i] {
			return 0
		}
		t := x.toks[i]
		n := 0
		switch t.kind {
		case exTokNumber:
			n, _ = strconv.Atoi(t.text)
		case exTokWord:
			if t.digit {
				n = subgoal.OrdinalNumber(t.lower)
			}
		}
		if n < 1 || n > 31 {
			return 0
		}
		return n
	}
	for i := range x.toks {
		m, ok := subgoal.Month(x.toks[i].text)
		if !ok || x.used[i] || x.toks[i].kind != exTokWord {
			continue
		}
		first, last, d := i, i+1, day(i+1) // March 16th
		if d == 0 {
			first, last, d = i-1, i, day(i-1) // 16 March
			if d == 0 && i >= 2 && x.toks[i-1].lower == x.toks[i-1].text && subgoal.Preposition(x.toks[i-1].lower) {
				first, d = i-2, day(i-2) // the 16th of March
			}
		}
		if d == 0 {
			continue
		}
		date := time.Date(today.Year(), m, d, 0, 0, 0, 0, time.UTC)
		if date.Month() != m { // February 30th
			continue
		}
		if date.Before(today.Truncate(24 * time.Hour)) {
			date = date.AddDate(1, 0, 0)
		}
		t := &x.toks[first]
		t.kind, t.text = exTokDate, date.Format(time.DateOnly)
		t.lower = t.text
		for k := first + 1; k <= last; k++ {
			x.used[k] = true
		}
		dated++
	}
	return dated
}

// Rule 7: layouts.

var (
	// exStrftime is a layout written with strftime's directives: "%Y-%m-%d %H:%M:%S", "%m-%d".
	exStrftime = regexp.MustCompile(`%[YymdHMS](?:[-/.: T]?%[YymdHMS])*`)
	// exPattern is one written with letters: "YYYY-MM-DD", "yyyy-MM-dd HH:mm:ss", "HH:MM".
	exPattern = regexp.MustCompile(`(?i)\b(?:yyyy([-/.])mm[-/.]dd(?:[ t]hh:mm(?::ss)?)?|hh:mm(?::ss)?)\b`)
)

// exStrftimeLayout turns strftime's directives into Go's layout.
var exStrftimeLayout = strings.NewReplacer(strings.Fields("%Y 2006 %y 06 %m 01 %d 02 %H 15 %M 04 %S 05")...)

// exLayout is the Go time layout of the date or time layout a description gives, "" when it
// gives none.
func exLayout(desc string) string {
	if f := exStrftime.FindString(desc); f != "" {
		return exStrftimeLayout.Replace(f)
	}
	f := exPattern.FindString(desc)
	if f == "" {
		return ""
	}
	// In a date, MM is the month; after HH, the minutes.
	date, clock, _ := strings.Cut(strings.ToUpper(f), "HH")
	if strings.Contains(date, ":") { // HH:MM alone
		date, clock = "", date
	}
	date = strings.NewReplacer("YYYY", "2006", "MM", "01", "DD", "02").Replace(date)
	if clock != "" {
		clock = "15" + strings.NewReplacer("MM", "04", "SS", "05").Replace(clock)
	}
	return date + clock
}

// layouts writes each bound value of a slot whose description gives a layout in that layout,
// completed by the text's date or time where the layout needs one the value lacks and the
// text states exactly one ("2pm" with "on 2023-09-12" is "2023-09-12 14:00:00" for a time
// "Format: %Y-%m-%d %H:%M:%S"), a time by today's date where the text states none and today
// is known (see days). A value that has neither, or lacks a part the text does not
// state once, is unbound: sent as it is, it would be refused, and asked for, it is given.
func (x *extraction) layouts() {
	var dates, clocks []string
	for i, t := range x.toks {
		switch {
		case i == x.anchor:
		case t.kind == exTokDate && !exHas(dates, t.text):
			dates = append(dates, t.text)
		case t.kind == exTokTime && !exHas(clocks, t.text):
			clocks = append(clocks, t.text)
		}
	}
	for si := range x.slots {
		s := &x.slots[si]
		if s.layout == "" || !x.bound[si] {
			continue
		}
		date, clock := exDateTimeOf(x.out[s.key])
		needDate := strings.Contains(s.layout, "06") || strings.Contains(s.layout, "01") || strings.Contains(s.layout, "02")
		needClock := s.takesClock()
		switch {
		case !needDate || date != "":
		case len(dates) == 1:
			date = dates[0]
		case len(dates) == 0:
			date = x.today // a time with no day is today's, where the day is known
		}
		if needClock && clock == "" && len(clocks) == 1 {
			clock = clocks[0]
		}
		if date == "" && clock == "" || needDate && date == "" || needClock && clock == "" {
			x.bound[si] = false
			delete(x.out, s.key)
			continue
		}
		t, err := time.Parse("2006-01-02 15:04:05", cmp.Or(date, "2000-01-01")+" "+exSeconds(cmp.Or(clock, "00:00")))
		if err == nil {
			x.out[s.key] = t.Format(s.layout)
		}
	}
}

// exDateTimeOf splits a bound value into its ISO date and its clock time, each "" where the
// value has none.
func exDateTimeOf(v string) (date, clock string) {
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == 'T' }) {
		switch {
		case exDateRe.MatchString(f) && len(f) == 10:
			date = f
		case exClockRe.MatchString(f):
			clock = f
		}
	}
	return date, clock
}

var exClockRe = regexp.MustCompile(`^\d{1,2}:\d{2}(?::\d{2})?$`)

// exSeconds writes a clock time with its seconds, and its hour in two digits.
func exSeconds(clock string) string {
	if len(clock) > 1 && clock[1] == ':' {
		clock = "0" + clock
	}
	if strings.Count(clock, ":") == 1 {
		clock += ":00"
	}
	return clock
}
