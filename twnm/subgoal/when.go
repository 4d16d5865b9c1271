package subgoal

import (
	"slices"
	"strconv"
	"strings"
)

// presentWords name the present: in a tool's description they date what it gives to today
// ("Current weather at a point", "Weather now"); in a request only where one ends a clause
// (see Asked), as "now" also opens a sentence ("Now book it") and "current" names a resource
// ("my current session") as often as a time.
var presentWords = english.Set("present-words")

// When returns the days, relative to today, by which text dates what it says, each once in
// the order they come: a relative day ("tomorrow", "tomorrow's": 1) or a number of days ahead
// ("in 5 days", "in five days": 5). A request dates what it asks for so ("the weather
// tomorrow"), and a tool's description what it gives ("Tomorrow's air quality index"); nil
// where the text names no day.
func When(text string) []int { return when(tokenize(text)) }

// when is When of text's tokens.
func when(ts []token) []int {
	var days []int
	for k := range ts {
		if d, ok := dayAt(ts, k); ok && !slices.Contains(days, d) {
			days = append(days, d)
		}
	}
	return days
}

// Dates is When of a tool's description, where a word naming the present dates what the tool
// gives to today as well.
func Dates(description string) []int {
	return withToday(tokenize(description), func(ts []token, k int) bool {
		return ts[k].kind == kWord && presentWords[ts[k].low]
	})
}

// Asked is When of a request, where a word naming the present ends one of its clauses ("the
// AQI in Los Angeles right now?"): what it asks for is today's as well. Elsewhere such a word
// dates nothing: a clause's opening "now" orders its steps ("Now book it"), and before a noun
// "current" names a resource ("my current session").
func Asked(text string) []int { return withToday(tokenize(text), presentAt) }

// withToday is when of ts, with today (0) after the days it names where present holds for
// one of its tokens and they do not name today already.
func withToday(ts []token, present func(ts []token, k int) bool) []int {
	days := when(ts)
	if slices.Contains(days, 0) {
		return days
	}
	for k := range ts {
		if present(ts, k) {
			return append(days, 0)
		}
	}
	return days
}

// presentAt reports whether the token at k is a word naming the present that ends a clause,
// and does not open it (see Asked).
func presentAt(ts []token, k int) bool {
	ends := k == len(ts)-1 || ts[k+1].kind != kWord
	return ts[k].kind == kWord && presentWords[ts[k].low] && k > 0 && ts[k-1].kind == kWord && ends
}

// Timeless returns text without the words that date it (see When): "weather tomorrow in Oslo"
// is "weather in Oslo". They say when, not what: a tool whose description holds them
// ("Tomorrow's air quality index") is no nearer to what the text asks for. The text stays
// whole where nothing would be left.
func Timeless(text string) string {
	ts := tokenize(text)
	drop := make([]bool, len(ts))
	dropped := 0
	for k := range ts {
		if _, ok := dayAt(ts, k); ok {
			from := k
			if isDays(ts[k]) {
				from = k - 2 // "in 5 days" whole
			}
			for j := from; j <= k; j++ {
				drop[j] = true
			}
			dropped++
		}
	}
	var kept []string
	for k, t := range ts {
		if !drop[k] {
			kept = append(kept, t.text)
		}
	}
	if dropped == 0 || len(kept) == 0 {
		return text
	}
	return strings.Join(kept, " ")
}

// dayAt reads the token at k as a day relative to today: a relative day, or the last word of
// "in N days".
func dayAt(ts []token, k int) (int, bool) {
	t := ts[k]
	if t.kind != kWord {
		return 0, false
	}
	if d, ok := RelativeDay(strings.TrimSuffix(t.low, "'s")); ok {
		return d, true
	}
	if !isDays(t) || k < 2 || !ts[k-2].is("in") {
		return 0, false
	}
	n := CardinalNumber(ts[k-1].low)
	if v, err := strconv.Atoi(ts[k-1].text); err == nil {
		n = v
	}
	return n, n > 0
}

// isDays reports whether t is "days" or "day".
func isDays(t token) bool { return t.kind == kWord && NamesDays(t.low) }

// NamesDays reports whether a word or an input's name is "days" or "day" (any case): a number
// of them says which day ("in 5 days", an input "days": "Days ahead, 1 to 7").
func NamesDays(name string) bool {
	return strings.EqualFold(name, "days") || strings.EqualFold(name, "day")
}
