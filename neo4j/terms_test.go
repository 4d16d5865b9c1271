package neo4j

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTerms(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"What's the weather in Paris?", []string{"weather", "paris"}},
		{"weather WEATHER Weather", []string{"weather"}},
		{"hotels near 75001, please", []string{"hotels", "near", "75001"}},
		{"Zürich café", []string{"zürich", "café"}},
		{"a b cd", nil},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Terms(tt.in), tt.in)
	}
}
