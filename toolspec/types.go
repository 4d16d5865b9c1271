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

// TypeKind is the kind of a catalog type; case and surrounding space do not matter.
func TypeKind(typ string) Kind {
	switch strings.ToLower(strings.TrimSpace(typ)) {
	case "integer", "int", "int32", "int64", "long":
		return KindInteger
	case "number", "float", "double", "decimal":
		return KindNumber
	case "boolean", "bool":
		return KindBool
	case "array":
		return KindArray
	case "object":
		return KindObject
	}
	return KindString
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
