package subgoal

// askVerbs only ask for something when a recipient follows them: "provide me with the details",
// "give us a list". A verb that names a read ("show me the reviews", "find me a hotel") is no
// ask verb: it says what the tool does.
var askVerbs = english.Set("ask-verbs")

// recipient reports whether w is a pronoun an ask verb gives to ("me", "us", "them").
func recipient(w string) bool { return objectPronouns[w] && w != "it" }

// Query returns the text a goal is ranked by: its text without a leading verb that only asks,
// nor the recipient after it ("provide me with the details of the album" is ranked by "the
// details of the album"). Such a verb says how the user asks, not what a tool does, and
// "provide" or "give" match the tools whose descriptions say what they provide. The verb stays
// where no recipient follows it ("find hotels in Rome"), and the text stays whole where nothing
// would be left.
func Query(text string) string {
	ts := tokenize(text)
	if len(ts) < 3 || ts[0].kind != kWord || !askVerbs[ts[0].low] || ts[1].kind != kWord || !recipient(ts[1].low) {
		return text
	}
	k := 2
	if ts[k].is("with") {
		k++
	}
	for k < len(ts) && !wordish(ts[k]) {
		k++
	}
	if k >= len(ts) {
		return text
	}
	return span(text, ts[k:])
}

// Imperative reports whether text opens, after courtesy words ("please", "hi"), with a word
// used as a verb (see verbAt: by what follows it, not by a list of verbs): "queue up the
// song", "put the site back on the deploy", "take him out of the channel". A command asks for
// what its verb does, which may change something, where a question or a statement ("I need the
// URL of …") asks to be told.
func Imperative(text string) bool { return imperative(tokenize(text)) }

// imperative is Imperative of a text's tokens.
func imperative(ts []token) bool {
	for k, t := range ts {
		if t.kind != kWord {
			continue
		}
		if chitchat[t.low] || fillers[t.low] {
			continue
		}
		return verbAt(ts, k)
	}
	return false
}
