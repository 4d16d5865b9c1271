package toolspec

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Kind is what a parameter's catalog type says its value is, however the catalog writes the
// type ("integer", "int64", "NUMBER", "bool").
type Kind int

// Kinds of a value.
const (
	KindString  Kind = iota // text, and any type not known below
	KindInteger             // integer, int, int32, int64, long
	KindNumber              // number, float, double, decimal
	KindBool                // boolean, bool
	KindArray               // array
	KindObject              // object
)

// TypeKind is the kind of a catalog type; case and surrounding space do not matter. A list or
// a map may be written with its items' type, as Python and Go catalogs write them ("list(str)",
// "List[str]", "array<string>", "[]string", "dict", "map[string]int"), and a union reads as
// its first member ("Union[List[dict], dict]" is a list).
func TypeKind(typ string) Kind {
	t := strings.ToLower(strings.TrimSpace(typ))
	switch t {
	case "integer", "int", "int32", "int64", "long":
		return KindInteger
	case "number", "float", "double", "decimal":
		return KindNumber
	case "boolean", "bool":
		return KindBool
	}
	if members, ok := strings.CutPrefix(t, "union["); ok {
		first, _, _ := strings.Cut(members, ",")
		return TypeKind(strings.TrimSuffix(first, "]"))
	}
	switch head, _ := typeHead(t); head {
	case "[]", "array", "list", "tuple", "set":
		return KindArray
	case "object", "dict", "map":
		return KindObject
	}
	return KindString
}

// ItemKind is the kind of the items of a list type that says it ("list(str)" holds strings,
// "array<int>" integers); false for any other type, a bare "array" or "list" included.
func ItemKind(typ string) (Kind, bool) {
	t := strings.ToLower(strings.TrimSpace(typ))
	if TypeKind(t) != KindArray {
		return KindString, false
	}
	if _, item := typeHead(t); item != "" {
		return TypeKind(item), true
	}
	return KindString, false
}

// typeHead splits a lowercase type into its name and the type its brackets hold: "list(str)"
// is list and str, "[]string" is [] and string, "array" is array and "".
func typeHead(t string) (head, item string) {
	if rest, ok := strings.CutPrefix(t, "[]"); ok {
		return "[]", rest
	}
	i := strings.IndexAny(t, "([<")
	if i < 0 {
		return t, ""
	}
	head = t[:i]
	closer := map[byte]string{'(': ")", '[': "]", '<': ">"}[t[i]]
	inner, ok := strings.CutSuffix(t[i+1:], closer)
	if !ok {
		if j := strings.IndexByte(t, ']'); t[i] == '[' && j > i {
			return head, strings.TrimSpace(t[j+1:]) // Go's map[string]int: the values
		}
		return head, ""
	}
	if k := strings.LastIndexByte(inner, ','); k >= 0 && head != "tuple" { // dict(str, int): the values
		inner = inner[k+1:]
	}
	return head, strings.TrimSpace(inner)
}

// Numeric reports whether k is an integer's or a number's.
func (k Kind) Numeric() bool { return k == KindInteger || k == KindNumber }

// ValueText is how a value of a tool's answer reads in an answer or a trace: text as it is,
// numbers in their shortest form, booleans as true or false, null as null, and lists and
// objects as compact JSON (never Go's map[k:v]).
func ValueText(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	if b, err := json.Marshal(v); err == nil {
		return string(b)
	}
	return fmt.Sprint(v)
}
