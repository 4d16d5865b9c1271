package catalogs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode"
)

// member is one name/value pair of a JSON object, in document order. Importers read
// parameter objects this way because a Go map would lose the order the source lists them in.
type member struct {
	Key   string
	Value json.RawMessage
}

// jsonKind names the kind of JSON value raw holds, as errors print it.
func jsonKind(raw json.RawMessage) string {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	default:
		return "number"
	}
}

// isAbsent reports whether a field was missing or null.
func isAbsent(raw json.RawMessage) bool {
	k := jsonKind(raw)
	return k == "nothing" || k == "null"
}

// objectMembers returns the members of a JSON object in document order. A key that repeats
// is an error, since it would become two parameters of one name.
func objectMembers(raw json.RawMessage) ([]member, error) {
	if k := jsonKind(raw); k != "object" {
		return nil, fmt.Errorf("want an object, got %s", k)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // the opening brace
		return nil, err
	}
	var out []member
	seen := make(map[string]bool)
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := t.(string) // object keys are always strings
		if seen[key] {
			return nil, fmt.Errorf("key %q repeats", key)
		}
		seen[key] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("key %q: %w", key, err)
		}
		out = append(out, member{Key: key, Value: v})
	}
	return out, nil
}

// decodeJSON decodes raw into v, reporting a type mismatch as
// "field a.b: want a string, got number" rather than Go's type names, and a syntax error
// with its byte offset.
func decodeJSON(raw json.RawMessage, v any) error {
	err := json.Unmarshal(raw, v)
	if err == nil {
		return nil
	}
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Errorf("invalid JSON at byte %d: %w", syn.Offset, err)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		if typ.Field == "" {
			return fmt.Errorf("want %s, got %s", kindWord(typ.Type), typ.Value)
		}
		return fmt.Errorf("field %s: want %s, got %s", typ.Field, kindWord(typ.Type), typ.Value)
	}
	return err
}

// kindWord names the JSON kind a Go type decodes from.
func kindWord(t reflect.Type) string {
	if t == nil {
		return "a value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	default:
		return "a value"
	}
}

// leadingObjectKeys returns the top-level members of a JSON object text that may be cut off
// part-way, as StableToolBench's string-valued response templates are: it reads members
// until the text ends or breaks. The member whose value was cut keeps its key with a nil value.
func leadingObjectKeys(s string) []member {
	dec := json.NewDecoder(strings.NewReader(s))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var out []member
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			break
		}
		key, ok := t.(string)
		if !ok {
			break
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			out = append(out, member{Key: key})
			break
		}
		out = append(out, member{Key: key, Value: v})
	}
	return out
}

// lenientName returns the "name" string field of a JSON object, or "" when there is none;
// errors use it to name a record that failed to decode.
func lenientName(raw json.RawMessage, field string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	var s string
	if json.Unmarshal(m[field], &s) != nil {
		return ""
	}
	return s
}

// recordError prefixes err with the record it is about: "record 3 (AddAgenda): ".
func recordError(index int, name string, err error) error {
	if name == "" {
		return fmt.Errorf("record %d: %w", index, err)
	}
	return fmt.Errorf("record %d (%s): %w", index, name, err)
}

// fieldError prefixes err with the field it is about: "field input_parameters: ".
func fieldError(field string, err error) error {
	return fmt.Errorf("field %s: %w", field, err)
}

// Identifier turns a free-form name into a readable identifier: each run of characters other
// than Unicode letters, digits and '_' becomes one '_', and '_' at either end is dropped.
// "👋 Onboarding Project_v3" becomes "Onboarding_Project_v3", "Get User Orders" becomes
// "Get_User_Orders". A name with no letter or digit gives "".
func Identifier(s string) string {
	var b strings.Builder
	gap := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
			if gap && b.Len() > 0 {
				b.WriteByte('_')
			}
			gap = false
			b.WriteRune(r)
			continue
		}
		gap = true
	}
	return strings.Trim(b.String(), "_")
}

// uniqueName returns name, or name with the first free suffix _2, _3, ... when taken, and
// marks the result taken. Importers that derive names use it so two source records that
// sanitize alike still become two APIs.
func uniqueName(name string, taken map[string]bool) string {
	out := name
	for n := 2; taken[out]; n++ {
		out = fmt.Sprintf("%s_%d", name, n)
	}
	taken[out] = true
	return out
}
