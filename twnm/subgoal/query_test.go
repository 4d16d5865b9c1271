package subgoal

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestQuery(t *testing.T) {
	tests := []struct{ text, want string }{
		{"provide me with the details of the album", "the details of the album"},
		{"give us a list of language codes", "a list of language codes"},
		{"Tell me, please, the score", "please, the score"},
		{"tell them the score", "the score"},
		{"Show me the reviews", "Show me the reviews"}, // a read, a tool's own action: it stays
		{"find me a hotel in Prague", "find me a hotel in Prague"},
		{"find hotels in Rome", "find hotels in Rome"},             // no recipient: the verb names the task
		{"convert me 100 USD to EUR", "convert me 100 USD to EUR"}, // a verb that does something
		{"provide me with", "provide me with"},                     // nothing would be left
		{"give me", "give me"},
		{"me", "me"},
		{"", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Query(tt.text), tt.text)
	}
}

func TestOrdinalNumber(t *testing.T) {
	for w, want := range map[string]int{
		"first": 1, "second": 2, "twelfth": 12, "1st": 1, "2nd": 2, "3rd": 3, "24th": 24,
		"last": 0, "5ft": 0, "test": 0, "nd": 0, "0th": 0, "season": 0,
	} {
		assert.Equal(t, want, OrdinalNumber(w), w)
	}
}

func TestImperative(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"queue up Mr. Brightside by The Killers to play next", true}, // a particle follows
		{"put the site back on the deploy built from commit 9f2c4e1", true},
		{"take him out of the Project Falcon channel", true}, // a pronoun follows
		{"Please show me the deploys", true},                 // after a courtesy
		{"play Bohemian Rhapsody", true},                     // a proper noun follows
		{"What is the weather in Paris?", false},
		{"I need the build hook URL for my site", false}, // a statement
		{"the weather in Paris", false},
		{"weather tomorrow in Oslo", false},
		{"", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Imperative(tt.text), tt.text)
	}
}
