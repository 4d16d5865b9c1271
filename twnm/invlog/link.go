package invlog

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MinValueLen is the shortest string, in runes after trimming, that Link links. Shorter
// strings ("ok", "no", a one-letter code) are mostly status words and coincide by chance far
// too often to say that one call fed another. Numbers are not measured by length: small
// integers are real identifiers in tool chains (post ids 4, 5, 6 fed to LikeCount, a
// temperature of 10 fed to ClothingRecommendation in API-Bank level 3), so only 0, 1 and -1,
// the usual flags and sentinels, are trivial.
const MinValueLen = 3

// Link fills the provenance (Value.From) of every input of run: an input whose value equals a
// value that an earlier event of the run output is taken to have been produced by that event.
// Earlier provenance is discarded, so Link can be called again after the run changes.
//
// Matching rules:
//   - Values are compared after normalization: surrounding space trimmed; strings compared
//     case-insensitively; numbers compared by value, whether written as JSON numbers or as
//     strings ("1.50" equals 1.5; the string "42" equals the number 42); objects and lists
//     compared whole, as canonical JSON with strings lowercased.
//   - Trivial values are never linked: empty text, null/None, booleans (also as the strings
//     "true"/"false"), the numbers 0, 1 and -1 (also as strings), strings shorter than
//     MinValueLen runes, and empty objects and lists. Such values repeat by coincidence, not
//     by data flow.
//   - An input matches an output's whole value or, when the output is an object or a list,
//     any scalar leaf inside it (a meeting time inside a list of meetings); the leaf's path is
//     kept in Provenance.Path. An input that is itself an object or a list matches only whole.
//   - The latest earlier event wins; within one event a whole-value match beats a leaf match,
//     then outputs and leaves go in their order.
//   - A value that an event merely echoes from its own inputs is not counted as produced by
//     it: the search goes on to earlier events, which finds the real producer or none (a user
//     name given in the query, echoed in a result, is not data flow).
//
// Events must be in call order; Link also sets each event's RunID and Seq from the run.
func Link(run *Run) {
	if run == nil {
		return
	}
	produced := make([]map[string]Provenance, len(run.Events))
	for j := range run.Events {
		ev := &run.Events[j]
		ev.RunID, ev.Seq = run.ID, j
		for k := range ev.Inputs {
			in := &ev.Inputs[k]
			in.From = nil
			key, ok := wholeKey(in.Value)
			if !ok {
				continue
			}
			for i := j - 1; i >= 0; i-- {
				if p, found := produced[i][key]; found {
					in.From = &p
					break
				}
			}
		}
		produced[j] = outputIndex(ev)
	}
}

// outputIndex maps the normalized key of every value ev produced to its first provenance in
// priority order: whole outputs before leaves. Values equal to one of ev's inputs are echoes
// and left out.
func outputIndex(ev *Event) map[string]Provenance {
	echo := make(map[string]bool, len(ev.Inputs))
	for _, in := range ev.Inputs {
		if key, ok := wholeKey(in.Value); ok {
			echo[key] = true
		}
	}
	idx := make(map[string]Provenance)
	add := func(key string, p Provenance) {
		if echo[key] {
			return
		}
		if _, dup := idx[key]; !dup {
			idx[key] = p
		}
	}
	for _, out := range ev.Outputs {
		if key, ok := wholeKey(out.Value); ok {
			add(key, Provenance{Seq: ev.Seq, API: ev.API, Param: out.Param})
		}
	}
	for _, out := range ev.Outputs {
		v, ok := parseJSON(out.Value)
		if !ok {
			continue
		}
		switch v.(type) {
		case map[string]any, []any:
		default:
			continue // a scalar: its whole value is its only leaf
		}
		walkLeaves(v, "", func(path string, leaf any) {
			if key, ok := scalarKey(leaf); ok {
				add(key, Provenance{Seq: ev.Seq, API: ev.API, Param: out.Param, Path: path})
			}
		})
	}
	return idx
}

// wholeKey returns the normalized key of a value text and whether it is worth linking.
func wholeKey(text string) (string, bool) {
	if v, ok := parseJSON(text); ok {
		switch v := v.(type) {
		case map[string]any, []any:
			if isEmptyComposite(v) {
				return "", false
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(lowerStrings(v)); err != nil {
				return "", false
			}
			return "j:" + strings.TrimSpace(buf.String()), true
		default:
			return scalarKey(v)
		}
	}
	return stringKey(text)
}

// scalarKey normalizes a decoded JSON scalar: json.Number, string, bool or nil.
func scalarKey(v any) (string, bool) {
	switch v := v.(type) {
	case json.Number:
		return numberKey(string(v))
	case string:
		return stringKey(v)
	default: // bool, nil, or a composite that is not a leaf
		return "", false
	}
}

// stringKey normalizes plain text; text that spells a JSON number is compared as a number.
func stringKey(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if isJSONNumber(s) {
		return numberKey(s)
	}
	s = strings.ToLower(s)
	switch s {
	case "true", "false", "null", "none":
		return "", false
	}
	if utf8.RuneCountInString(s) < MinValueLen {
		return "", false
	}
	return "s:" + s, true
}

// numberKey normalizes a JSON number literal by value: "1.50", "1.5" and "15e-1" give one key.
func numberKey(lit string) (string, bool) {
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		// Out of float64 range: compare the literal itself.
		return "n:" + lit, true
	}
	if f == 0 || f == 1 || f == -1 {
		return "", false
	}
	return "n:" + strconv.FormatFloat(f, 'g', -1, 64), true
}

// isJSONNumber reports whether s is exactly one JSON number literal (not "NaN", "0x10" or
// "1_000", which strconv would accept).
func isJSONNumber(s string) bool {
	if s == "" || !(s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
		return false
	}
	v, ok := parseJSON(s)
	if !ok {
		return false
	}
	_, isNum := v.(json.Number)
	return isNum
}

// parseJSON decodes text as one JSON value with numbers kept as json.Number. It reports false
// for text that is not exactly one JSON value.
func parseJSON(text string) (any, bool) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, false
	}
	switch c := text[0]; {
	case c == '{', c == '[', c == '"', c == '-', c >= '0' && c <= '9', c == 't', c == 'f', c == 'n':
	default:
		return nil, false // cheap exit for plain text
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	if strings.TrimSpace(text[dec.InputOffset():]) != "" {
		return nil, false // more than one value, or trailing garbage
	}
	return v, true
}

func isEmptyComposite(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		return len(v) == 0
	case []any:
		return len(v) == 0
	}
	return false
}

// lowerStrings returns a copy of v with every string lowercased and trimmed, so that whole
// composites compare case-insensitively. Keys are left as they are.
func lowerStrings(v any) any {
	switch v := v.(type) {
	case string:
		return strings.ToLower(strings.TrimSpace(v))
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = lowerStrings(x)
		}
		return m
	case []any:
		l := make([]any, len(v))
		for i, x := range v {
			l[i] = lowerStrings(x)
		}
		return l
	}
	return v
}

// walkLeaves calls fn for every scalar inside v, in a deterministic order (object keys sorted),
// with its path: ".key" steps for objects and "[i]" for lists, without a leading dot.
func walkLeaves(v any, path string, fn func(path string, leaf any)) {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(v) {
			p := k
			if path != "" {
				p = path + "." + k
			}
			walkLeaves(v[k], p, fn)
		}
	case []any:
		for i, x := range v {
			walkLeaves(x, path+"["+strconv.Itoa(i)+"]", fn)
		}
	default:
		fn(path, v)
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
