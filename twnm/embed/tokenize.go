package embed

import (
	"strings"
	"unicode"
)

// Tokenize splits text into lowercase word tokens. A token is a maximal run of Unicode letters
// and digits; every other rune separates tokens, so snake_case, kebab-case and dotted names
// split at their separators. Inside a run, camelCase and PascalCase boundaries split too:
// a lowercase letter (or digit) followed by an uppercase letter starts a new word, and so does
// the last uppercase letter of an acronym followed by a lowercase one
// ("GetWeatherForCoordinates" → get weather for coordinates, "HTTPServer" → http server).
//
// Letters and digits are not split from each other ("ipv4", "v2", "utf8" stay whole): in tool
// names a digit usually belongs to its word (a version or a variant), and splitting would turn
// it into a short, uninformative token.
func Tokenize(text string) []string {
	var tokens []string
	var word []rune
	flush := func() {
		if len(word) > 0 {
			tokens = append(tokens, strings.ToLower(string(word)))
			word = word[:0]
		}
	}
	runes := []rune(text)
	for i, r := range runes {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if len(word) > 0 && unicode.IsUpper(r) {
			prev := word[len(word)-1]
			// getWeather, v2Beta: a lowercase letter or digit before an uppercase one.
			lowerToUpper := unicode.IsLower(prev) || unicode.IsDigit(prev)
			// HTTPServer: the S starts a word because a lowercase letter follows it.
			acronymEnd := unicode.IsUpper(prev) && i+1 < len(runes) && unicode.IsLower(runes[i+1])
			if lowerToUpper || acronymEnd {
				flush()
			}
		}
		word = append(word, r)
	}
	flush()
	return tokens
}
