package recall

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSays(t *testing.T) {
	tests := []struct {
		text, word string
		want       bool
	}{
		{"squad of the team leading the Bundesliga", "leader", true},
		{"who is the top scorer", "scorer", true},
		{"who scores most", "scorer", true},
		{"the next match of Bayern Munich", "leader", false},
		{"the top team", "topic", false}, // a stem under four letters starts nothing
		{"home games", "home", true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Says(tt.text)(tt.word), "%q says %q", tt.text, tt.word)
	}
}
