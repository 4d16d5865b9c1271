package runlogs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/naviagent/navi/twnm/invlog"
)

// member is one key and raw value of a JSON object, kept in source order.
type member struct {
	Key string
	Raw json.RawMessage
}

// objectMembers decodes a JSON object into its members in source order (a Go map would lose
// the order, and with it the order of parameters and outputs).
func objectMembers(raw []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, describeJSONError(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("want a JSON object, got %s", jsonKind(raw))
	}
	var ms []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, describeJSONError(err)
		}
		key, _ := tok.(string) // object keys are always strings
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("key %q: %w", key, describeJSONError(err))
		}
		ms = append(ms, member{key, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, describeJSONError(err)
	}
	if rest := strings.TrimSpace(string(raw[dec.InputOffset():])); rest != "" {
		return nil, errors.New("trailing data after the JSON object")
	}
	return ms, nil
}

// objectMembersPrefix decodes the members of a JSON object that was cut short, keeping those
// that are certainly complete: a member counts only when something (a comma or the closing
// brace) follows it, since a number cut in the middle ("86" of "862") would otherwise decode
// as a shorter number. complete reports that the object itself was complete.
func objectMembersPrefix(s string) (ms []member, complete bool) {
	if all, err := objectMembers([]byte(s)); err == nil {
		return all, true
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return ms, false
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return ms, false
		}
		if strings.TrimSpace(s[dec.InputOffset():]) == "" {
			return ms, false // ran to the cut: maybe incomplete
		}
		ms = append(ms, member{key, v})
	}
	return ms, false
}

// valueText turns a raw JSON value into invlog.Value.Value text: strings unquoted, anything else as
// canonical JSON (compact, object keys sorted, numbers as written, no HTML escaping).
func valueText(raw json.RawMessage) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", describeJSONError(err)
	}
	if s, ok := v.(string); ok {
		return s, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}

// membersToValues converts object members into Values, in order.
func membersToValues(ms []member) ([]invlog.Value, error) {
	if len(ms) == 0 {
		return nil, nil
	}
	vs := make([]invlog.Value, 0, len(ms))
	for _, m := range ms {
		t, err := valueText(m.Raw)
		if err != nil {
			return nil, fmt.Errorf("key %q: %w", m.Key, err)
		}
		vs = append(vs, invlog.Value{Param: m.Key, Value: t})
	}
	return vs, nil
}

// outputValues flattens a call's result into output Values: the top-level keys of an object,
// or the whole value under param "output" when it is a scalar or a list. A null or absent
// result gives no outputs.
func outputValues(raw json.RawMessage) ([]invlog.Value, error) {
	switch jsonKind(raw) {
	case "null", "nothing":
		return nil, nil
	case "an object":
		ms, err := objectMembers(raw)
		if err != nil {
			return nil, err
		}
		return membersToValues(ms)
	}
	t, err := valueText(raw)
	if err != nil {
		return nil, err
	}
	return []invlog.Value{{Param: "output", Value: t}}, nil
}

// jsonKind names the kind of a raw JSON value for error messages.
func jsonKind(raw []byte) string {
	s := bytes.TrimSpace(raw)
	if len(s) == 0 {
		return "nothing"
	}
	switch s[0] {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// describeJSONError adds the byte offset to the JSON errors that carry one.
func describeJSONError(err error) error {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Errorf("invalid JSON at byte %d: %w", syn.Offset, err)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		if typ.Field != "" {
			return fmt.Errorf("field %s: want %s, got JSON %s", typ.Field, typ.Type, typ.Value)
		}
		return fmt.Errorf("want %s, got JSON %s", typ.Type, typ.Value)
	}
	return err
}
