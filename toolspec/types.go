package toolspec

import "strings"

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
