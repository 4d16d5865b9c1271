package bm25

import (
	"strings"
	"unicode"

	"github.com/naviagent/navi/twnm/lexicon"
)

// MaxTokenLen is the length in runes above which a token is dropped: such "words" are hashes,
// keys or base64, never what a request names, and Lucene's whitespace tokenizer would split
// them at 255 UTF-16 units where Go would not.
const MaxTokenLen = 64

// keep are words the stemmer leaves alone because a rule would merge them with another word
// ("news" is not the plural of "new"; "embed" is not "emb" + "-ed").
var keep = map[string]bool{"news": true, "embed": true}

// Tokens splits text into the terms that BM25 indexes and queries, in order, repeats kept:
//
//   - Any rune that is not a Unicode letter, digit or combining mark separates words: spaces,
//     punctuation, "_" (snake_case), "-" (kebab-case), ".", "/" and the braces of path
//     templates ("/users/{user_id}" gives users, user, id).
//   - Inside a word, case changes split identifiers: a lower-case letter or a digit followed by
//     an upper-case one ("getWeather", "v2Beta"), and the last capital of an acronym when a
//     lower-case letter follows it ("getHTTPResponse" gives get, http, response) and the
//     acronym has two capitals or more ("OAuth2", "IPv4" stay whole). An acronym in the plural
//     stays whole ("userIDs" gives user, id; "listAPIs" gives list, api).
//   - Letters and digits are not split from each other: "ipv4", "oauth2", "utf8", "s3" and
//     "v2users" stay one token. In tool names a digit usually belongs to its word (a version or
//     a variant), and alone it would be a short, nearly meaningless token. This is the rule of
//     the embedder's tokenizer too (twnm/embed.Tokenize).
//   - Tokens are lower-cased; stop words (lexicon.IsStopWord: about 50 English grammar words) and
//     tokens longer than MaxTokenLen runes are dropped.
//   - Tokens of ASCII letters only are stemmed lightly; see stem.
//
// The function is deterministic and needs no dictionary, so documents tokenised here and
// stored (in Neo4j, joined by spaces) give the same terms as queries tokenised later.
func Tokens(text string) []string {
	var out []string
	emit := func(word []rune) {
		if len(word) == 0 || len(word) > MaxTokenLen {
			return
		}
		t := strings.ToLower(string(word))
		if lexicon.IsStopWord(t) {
			return
		}
		if t = stem(t); t != "" {
			out = append(out, t)
		}
	}
	runes := []rune(text)
	start := -1 // start of the current word in runes, or -1
	for i, r := range runes {
		if !inWord(r) {
			if start >= 0 {
				emit(runes[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		if splitBefore(runes, start, i) {
			emit(runes[start:i])
			start = i
		}
	}
	if start >= 0 {
		emit(runes[start:])
	}
	return out
}

// inWord reports whether r belongs to a word: letters, digits and combining marks (so that a
// decomposed "é" or an Indic vowel sign does not split its word).
func inWord(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// splitBefore reports whether a new word starts at runes[i], inside the word that began at
// runes[start].
func splitBefore(runes []rune, start, i int) bool {
	r := runes[i]
	if !unicode.IsUpper(r) {
		return false
	}
	prev := runes[i-1]
	if unicode.IsLower(prev) || unicode.IsDigit(prev) {
		return true // getWeather, v2Beta
	}
	if !unicode.IsUpper(prev) || i+1 >= len(runes) || !unicode.IsLower(runes[i+1]) {
		return false
	}
	// An acronym of two or more capitals ends before r: HTTPResponse. A single capital
	// before r is not an acronym but part of a mixed-case word: OAuth, IPv4.
	if i-2 < start || !unicode.IsUpper(runes[i-2]) {
		return false
	}
	// "IDs", "APIs": a lone "s" after the acronym (then the word's end or another capital)
	// is its plural, not a new word.
	if runes[i+1] == 's' && (i+2 >= len(runes) || !unicode.IsLower(runes[i+2])) {
		return false
	}
	return true
}

// stem strips English inflection from a token of ASCII letters, so that forms of one word
// meet: plurals, -ing and -ed forms, a final silent e and a final y after a consonant. The
// rules, in order, each applied at most once:
//
//  1. Plural: a final s is removed unless the word ends in "ss" or "us" or is shorter than 3
//     letters ("restaurants" → restaurant, "ids" → id, "address" and "status" kept).
//  2. -ing, -ed: removed when at least 3 letters remain and they hold a vowel (a, e, i, o, u
//     or y), and -ed not after "e" ("speed", "feed" kept; "string", "thing" kept: no vowel
//     left). A doubled final consonant other than l, s or z is then undoubled when 3 letters
//     remain ("getting" → get, "shipped" → ship, "billing" → bill, "added" → add).
//  3. Silent e: a final e is removed when at least 3 letters remain ("rate" → rat,
//     "boxes" → boxe → box, "addresses" → address).
//  4. A final y after a consonant becomes i when at least 3 letters remain, as the plural
//     "ies" does through rules 1 and 3 ("city" and "cities" → citi, "query" → queri).
//
// So "ratings", "rating", "rated" and "rate" all give "rat", and "categories" and "category"
// give "categori": stems are keys, not words. Tokens with other characters (digits, accents,
// other scripts) and the words in keep are returned unchanged.
func stem(w string) string {
	if keep[w] || !asciiLetters(w) {
		return w
	}
	// 1. Plural s.
	if len(w) >= 3 && w[len(w)-1] == 's' && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") {
		w = w[:len(w)-1]
	}
	// 2. -ing and -ed.
	for _, suf := range []string{"ing", "ed"} {
		base, ok := strings.CutSuffix(w, suf)
		if !ok || len(base) < 3 || !hasVowel(base) || (suf == "ed" && base[len(base)-1] == 'e') {
			continue
		}
		n := len(base)
		if c := base[n-1]; n >= 4 && c == base[n-2] && !isVowel(c) && c != 'l' && c != 's' && c != 'z' {
			base = base[:n-1]
		}
		w = base
		break
	}
	// 3. Silent e.
	if len(w) >= 4 && w[len(w)-1] == 'e' {
		w = w[:len(w)-1]
	}
	// 4. Final y after a consonant.
	if n := len(w); n >= 3 && w[n-1] == 'y' && !isVowel(w[n-2]) {
		w = w[:n-1] + "i"
	}
	return w
}

func asciiLetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return w != ""
}

func isVowel(c byte) bool {
	switch c {
	case 'a', 'e', 'i', 'o', 'u', 'y':
		return true
	}
	return false
}

func hasVowel(w string) bool {
	for i := 0; i < len(w); i++ {
		if isVowel(w[i]) {
			return true
		}
	}
	return false
}
