package recall

import (
	"strings"

	"github.com/naviagent/navi/twnm/bm25"
)

// Says returns whether text says a word, as twnm.SearchRequest.Said asks: one of its words has
// the word's stem, or one stem of four letters or more starts the other ("leading" says
// "leader", "scores" says "scorer").
func Says(text string) func(word string) bool {
	stems := map[string]bool{}
	for _, t := range bm25.Tokens(text) {
		stems[t] = true
	}
	return func(word string) bool {
		for _, w := range bm25.Tokens(word) {
			if stems[w] {
				return true
			}
			for t := range stems {
				short, long := t, w
				if len(short) > len(long) {
					short, long = long, short
				}
				if len(short) >= 4 && strings.HasPrefix(long, short) {
					return true
				}
			}
		}
		return false
	}
}
