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
		"string": KindString, "str": KindString, "": KindString, "list(str)": KindString,
	} {
		assert.Equal(t, want, TypeKind(typ), typ)
	}
	assert.True(t, KindInteger.Numeric())
	assert.True(t, KindNumber.Numeric())
	assert.False(t, KindBool.Numeric())
}
