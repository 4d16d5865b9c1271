package extract

import (
	"regexp"
	"strings"
	"time"
	"unicode"
)

// Items returns, keyed as Values keys its values, the name text gives the item that each
// listed input (Slot.Collection) picks, where it states no identifier for it: a quoted text,
// a capitalised phrase or a hyphenated name next to the word that names the collection,
// right before it ("the "Board Prep" channel", "my bakery-landing site") or right after it
// ("a channel "Board Prep""), or with one word between ("our Helpdesk Prod chat service",
// "a channel called Escalations"). The run takes such an input from the item of the
// lister's answer that the name names (toolspec.Pick), not from the list's first.
func Items(text string, slots []Slot, today time.Time) map[string]string {
	var listed []Slot
	for _, s := range slots {
		if s.Collection != "" {
			listed = append(listed, s)
		}
	}
	if len(listed) == 0 {
		return nil
	}
	bound := ValuesOn(text, slots, today)
	toks := itemTokens(text)
	names := itemNames(text, toks)
	out := map[string]string{}
	for _, s := range listed {
		key := s.Key
		if key == "" {
			key = s.Name
		}
		if _, ok := bound[key]; ok {
			continue
		}
		ws := exWords(s.Collection)
		if len(ws) == 0 {
			continue
		}
		if v := nameBeside(toks, names, ws[len(ws)-1]); v != "" {
			out[key] = v
		}
	}
	return out
}

// itemToken is a word of the text, where it lies, and its stem.
type itemToken struct {
	text       string
	start, end int
	stem       string
}

// itemName is a name the text writes: its value and the tokens it spans.
type itemName struct {
	value       string
	first, last int
}

var (
	itemWord  = regexp.MustCompile(`[\p{L}\p{N}][\p{L}\p{N}_'’-]*`)
	itemQuote = regexp.MustCompile(`"([^"]+)"|“([^”]+)”`)
)

// itemTokens splits text into its words.
func itemTokens(text string) []itemToken {
	var toks []itemToken
	for _, m := range itemWord.FindAllStringIndex(text, -1) {
		w := text[m[0]:m[1]]
		toks = append(toks, itemToken{text: w, start: m[0], end: m[1], stem: exStem(w)})
	}
	return toks
}

// itemNames finds the names text writes: quoted texts, runs of capitalised words that do not
// open a sentence, and words joined by hyphens ("bakery-landing").
func itemNames(text string, toks []itemToken) []itemName {
	var names []itemName
	quoted := make([]bool, len(toks))
	for _, m := range itemQuote.FindAllStringSubmatchIndex(text, -1) {
		first, last := -1, -1
		for i, t := range toks {
			if t.start >= m[0] && t.end <= m[1] {
				if first < 0 {
					first = i
				}
				last, quoted[i] = i, true
			}
		}
		if first >= 0 {
			v := text[m[2]:m[3]]
			if m[2] < 0 {
				v = text[m[4]:m[5]]
			}
			names = append(names, itemName{value: strings.TrimSpace(v), first: first, last: last})
		}
	}
	opens := func(i int) bool { // the token opens the text or a sentence
		before := strings.TrimRight(text[:toks[i].start], " \t\n\"“'")
		return before == "" || strings.ContainsAny(before[len(before)-1:], ".!?:;—")
	}
	capital := func(i int) bool {
		r := []rune(toks[i].text)
		return !quoted[i] && unicode.IsUpper(r[0]) && !opens(i)
	}
	for i := 0; i < len(toks); i++ {
		switch {
		case capital(i):
			j := i
			for j+1 < len(toks) && capital(j+1) && strings.TrimSpace(text[toks[j].end:toks[j+1].start]) == "" {
				j++
			}
			names = append(names, itemName{value: text[toks[i].start:toks[j].end], first: i, last: j})
			i = j
		case !quoted[i] && strings.ContainsRune(strings.TrimFunc(toks[i].text, hyphen), '-'):
			names = append(names, itemName{value: toks[i].text, first: i, last: i})
		}
	}
	return names
}

// nameBeside returns the name written next to a word whose stem is noun: right before or
// after it, else with one word between; "" where there is none.
func nameBeside(toks []itemToken, names []itemName, noun string) string {
	for gap := 1; gap <= 2; gap++ {
		for h, t := range toks {
			if t.stem != noun {
				continue
			}
			for _, n := range names {
				if n.last == h-gap || n.first == h+gap {
					return n.value
				}
			}
		}
	}
	return ""
}

// hyphen reports whether r is a hyphen.
func hyphen(r rune) bool { return r == '-' }
