package runlogs

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// pyField is one key and value of a Python dict repr; Complete is false when the text ended
// inside the value.
type pyField struct {
	Key, Value string
	Complete   bool
}

// parsePyStrDict parses the repr of a Python dict whose keys are str, as far as the text
// goes: ToolBench stores each tool message as str(dict) cut to 100 characters, so the text
// often ends inside a value. String values are unescaped; other values (None, numbers) are
// kept as written. truncated reports that the text ended before the closing brace. An error
// means the text is not such a repr at all.
func parsePyStrDict(s string) (fields []pyField, truncated bool, err error) {
	p := 0
	skip := func() {
		for p < len(s) && (s[p] == ' ' || s[p] == '\t' || s[p] == '\n' || s[p] == '\r') {
			p++
		}
	}
	skip()
	if p >= len(s) || s[p] != '{' {
		return nil, false, fmt.Errorf("want a Python dict, got %q", clip(s, 20))
	}
	p++
	for {
		skip()
		if p >= len(s) {
			return fields, true, nil
		}
		if s[p] == '}' {
			return fields, false, nil
		}
		if len(fields) > 0 {
			if s[p] != ',' {
				return nil, false, fmt.Errorf("at byte %d: want ',' or '}', got %q", p, s[p])
			}
			p++
			skip()
			if p >= len(s) {
				return fields, true, nil
			}
		}
		key, n, complete, err := pyString(s[p:])
		if err != nil {
			return nil, false, fmt.Errorf("at byte %d: key: %w", p, err)
		}
		if !complete {
			return fields, true, nil
		}
		p += n
		skip()
		if p >= len(s) {
			return fields, true, nil
		}
		if s[p] != ':' {
			return nil, false, fmt.Errorf("at byte %d: want ':' after key %q, got %q", p, key, s[p])
		}
		p++
		skip()
		if p >= len(s) {
			fields = append(fields, pyField{Key: key})
			return fields, true, nil
		}
		if s[p] == '\'' || s[p] == '"' {
			val, n, complete, err := pyString(s[p:])
			if err != nil {
				return nil, false, fmt.Errorf("at byte %d: value of %q: %w", p, key, err)
			}
			fields = append(fields, pyField{Key: key, Value: val, Complete: complete})
			if !complete {
				return fields, true, nil
			}
			p += n
			continue
		}
		// A bare value (None, True, a number): up to the next ',' or '}'.
		end := strings.IndexAny(s[p:], ",}")
		if end < 0 {
			fields = append(fields, pyField{Key: key, Value: strings.TrimSpace(s[p:])})
			return fields, true, nil
		}
		fields = append(fields, pyField{Key: key, Value: strings.TrimSpace(s[p : p+end]), Complete: true})
		p += end
	}
}

// pyString decodes the Python str literal at the start of s (quoted with ' or ", as repr
// writes them) and returns its value and length. complete is false when s ends inside the
// literal; the value then holds what was decoded so far.
func pyString(s string) (val string, n int, complete bool, err error) {
	if s == "" || (s[0] != '\'' && s[0] != '"') {
		return "", 0, false, fmt.Errorf("want a quoted string, got %q", clip(s, 20))
	}
	q := s[0]
	var b strings.Builder
	i := 1
	for i < len(s) {
		c := s[i]
		switch {
		case c == q:
			return b.String(), i + 1, true, nil
		case c != '\\':
			b.WriteByte(c)
			i++
			continue
		}
		// An escape sequence.
		if i+1 >= len(s) {
			return b.String(), i, false, nil
		}
		e := s[i+1]
		i += 2
		switch e {
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '\n': // a line continuation
		case 'x', 'u', 'U':
			width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if i+width > len(s) {
				return b.String(), i - 2, false, nil
			}
			r, perr := strconv.ParseUint(s[i:i+width], 16, 32)
			if perr != nil || !utf8.ValidRune(rune(r)) {
				// Not a valid escape: keep it as written rather than fail the whole record.
				b.WriteString(s[i-2 : i+width])
			} else {
				b.WriteRune(rune(r))
			}
			i += width
		default:
			// Python keeps unknown escapes as written (octal escapes do not occur in repr
			// output, which writes \x instead).
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String(), i, false, nil
}

// clip shortens s to at most n bytes for error messages.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
