package toolspec

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTypeKind(t *testing.T) {
	for typ, want := range map[string]Kind{
		"integer": KindInteger, " INT64 ": KindInteger, "long": KindInteger,
		"number": KindNumber, "Float": KindNumber, "decimal": KindNumber,
		"boolean": KindBool, "bool": KindBool,
		"array": KindArray, "object": KindObject,
		"string": KindString, "str": KindString, "": KindString, "date": KindString,
		// Lists and maps as Python and Go catalogs write them.
		"list": KindArray, "list(str)": KindArray, "List[str]": KindArray, "array<string>": KindArray,
		"[]string": KindArray, "tuple": KindArray, "ARRAY": KindArray, "Union[List[dict], dict]": KindArray,
		"dict": KindObject, "map[string]int": KindObject, "Dict[str, int]": KindObject,
		// A name that only begins as a list's does ("listing"), and "json", which may hold anything, read as text.
		"listing": KindString, "setting": KindString, "json": KindString,
	} {
		assert.Equal(t, want, TypeKind(typ), typ)
	}
	for typ, want := range map[string]Kind{
		"list(str)": KindString, "List[int]": KindInteger, "array<number>": KindNumber, "[]bool": KindBool,
		"list(dict)": KindObject,
	} {
		got, ok := ItemKind(typ)
		assert.True(t, ok, typ)
		assert.Equal(t, want, got, typ)
	}
	for _, typ := range []string{"list", "array", "string", "dict(str, int)"} {
		_, ok := ItemKind(typ)
		assert.False(t, ok, typ)
	}
	assert.True(t, KindInteger.Numeric())
	assert.True(t, KindNumber.Numeric())
	assert.False(t, KindBool.Numeric())
}
