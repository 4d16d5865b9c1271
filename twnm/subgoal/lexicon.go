package subgoal

import (
	"embed"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/naviagent/navi/twnm/lexicon"
)

//go:embed lexicon/*.txt
var lexiconFiles embed.FS

// english holds Split's knowledge of English: the word lists of the lexicon folder, one file a
// list. They are lowercase, with the typographic apostrophe written as "'" (tokens are
// normalised the same way). `navi eval lexicon` counts their entries.
var english = lexicon.New(lexiconFiles, "lexicon")

// phraseList is a list of multi-word phrases indexed by their first word; each bucket lists the
// longer phrases first, so that matching takes the longest one.
type phraseList struct {
	all     [][]string
	byFirst map[string][][]string
}

// phrases builds a phraseList from entries.
func phrases(entries []string) phraseList {
	pl := phraseList{byFirst: make(map[string][][]string)}
	for _, p := range entries {
		if f := strings.Fields(p); len(f) > 0 {
			pl.all = append(pl.all, f)
		}
	}
	// Stable insertion sort by length, longest first (the lists hold a few hundred phrases at most).
	for i := 1; i < len(pl.all); i++ {
		for j := i; j > 0 && len(pl.all[j]) > len(pl.all[j-1]); j-- {
			pl.all[j], pl.all[j-1] = pl.all[j-1], pl.all[j]
		}
	}
	for _, p := range pl.all {
		pl.byFirst[p[0]] = append(pl.byFirst[p[0]], p)
	}
	return pl
}

// verbsPlain are request verbs that are seldom nouns: after "and" or a comma they start a new
// clause whenever a word other than a preposition or a conjunction (notObjects) follows them
// ("... and find a museum").
var verbsPlain = english.Set("verbs-plain")

// articles are the determiners that make a wh-word embedded ("when and where the concert
// is") rather than a new question ("and which one has ...").
var articles = english.Set("articles")

// notObjects after a plain verb show an intransitive use, not a new request ("book and cancel
// for free").
var notObjects = english.Set("not-objects")

// objectPronouns show a verb after a capitalised verb ("and Send me ...").
var objectPronouns = english.Set("object-pronouns")

// possessivePronouns stand for a thing named before as its owner ("I need its coordinates").
var possessivePronouns = english.Set("possessive-pronouns")

// whWords start questions.
var whWords = english.Set("wh-words")

// auxes start yes/no questions ("is there", "does it", "can I").
var auxes = english.Set("auxes")

// subjects follow an aux in a yes/no question.
var subjects = english.Set("subjects")

// fillers may stand between the words of a frame or before a verb ("can you also please").
var fillers = english.Set("fillers")

// directFrames are polite ways to ask for something; they are stripped from the start of a
// clause and make it a task.
var directFrames = phrases(append(frameForms(english.Entries("direct-frames")), appreciationFrames()...))

// frameForms writes each frame the lists hold in the first person singular, uncontracted ("i
// would like to", "can you"), in every form English gives it: with "we" ("we would like to",
// "we are looking for"), contracted ("i'd like to", "we're looking for") and with "u" for
// "you" ("can u"). A rule of grammar, so that the lists need not spell each form.
func frameForms(frames []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(f string) {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	for _, f := range frames {
		forms := []string{f}
		if rest, ok := strings.CutPrefix(f, "i "); ok {
			we := "we " + rest
			for _, be := range [][2]string{{"am", "are"}, {"was", "were"}} {
				if r, ok := strings.CutPrefix(rest, be[0]+" "); ok {
					we = "we " + be[1] + " " + r
				}
			}
			forms = append(forms, we)
		}
		for _, g := range forms {
			add(g)
			for _, c := range [][2]string{{"i would ", "i'd "}, {"i am ", "i'm "}, {"we are ", "we're "}, {"we would ", "we'd "}} {
				if r, ok := strings.CutPrefix(g+" ", c[0]); ok {
					add(strings.TrimSpace(c[1] + r))
				}
			}
		}
	}
	for _, f := range slices.Clone(out) {
		if w := strings.Fields(f); slices.Contains(w, "you") {
			for i := range w {
				if w[i] == "you" {
					w[i] = "u"
				}
			}
			add(strings.Join(w, " "))
		}
	}
	return out
}

// appreciationFrames are "it would be great if you could", "it'd be helpful to" and their kin:
// every lead, adjective and tail of the appreciation lists, combined.
func appreciationFrames() []string {
	var out []string
	for _, lead := range english.Entries("appreciation-leads") {
		for _, adj := range english.Entries("appreciation-adjectives") {
			for _, tail := range english.Entries("appreciation-tails") {
				out = append(out, lead+" "+adj+" "+tail)
			}
		}
	}
	return out
}

// wantFrames state a want; they are stripped too, and make a clause a task unless what follows
// shows no object a tool would take ("I want to gather inspiration"). The last of them have no
// subject, for after "and" ("I'm planning a trip and need to book a hotel").
var wantFrames = phrases(frameForms(english.Entries("want-frames")))

// connectives link clauses; they are stripped from the start of a clause. Each may carry roles
// after a colon (see connectiveRole): what it says of the clause it opens.
var connectives, connectiveRoles = connectiveTable(english.Entries("connectives"))

// connectiveRole is what a connective says of the clause it opens.
type connectiveRole uint8

// Connective roles.
const (
	// roleMid: it may split a sentence without a comma before it ("find X then book Y").
	roleMid connectiveRole = 1 << iota
	// roleSequence: it chains its clause to the one before it ("then", "second").
	roleSequence
	// roleBefore: its clause (and the clauses chained to it) runs before the clause it
	// follows ("but first", "before that").
	roleBefore
	// roleFirst: its clause (and the clauses chained to it) runs first.
	roleFirst
	// roleContinues: it opens a sentence that continues the previous request ("And the
	// weather in Paris.").
	roleContinues
	// roleWeak: it needs a clause start after it to split ("and", "but").
	roleWeak
	// roleOrdinal: it counts as a connective only when a comma or a clause start follows it
	// ("second, book ...", not "the second album").
	roleOrdinal
)

var roleNames = map[string]connectiveRole{"mid": roleMid, "sequence": roleSequence, "before": roleBefore,
	"first": roleFirst, "continues": roleContinues, "weak": roleWeak, "ordinal": roleOrdinal}

// connectiveTable builds the connectives' phraseList and their roles, keyed by the phrase's
// words joined with "_", from entries "phrase:role,role".
func connectiveTable(entries []string) (phraseList, map[string]connectiveRole) {
	var ps []string
	roles := make(map[string]connectiveRole)
	for _, e := range entries {
		phrase, names, _ := strings.Cut(e, ":")
		f := strings.Fields(phrase)
		if len(f) == 0 {
			continue
		}
		ps = append(ps, strings.Join(f, " "))
		for _, n := range strings.Split(names, ",") {
			if r, ok := roleNames[strings.TrimSpace(n)]; ok {
				roles[strings.Join(f, "_")] |= r
			} else if strings.TrimSpace(n) != "" {
				panic("subgoal: unknown connective role " + n) // a typo in the table above
			}
		}
	}
	return phrases(ps), roles
}

// of reports whether the connective phrase (words joined with "_") has role r.
func (r connectiveRole) of(phrase string) bool { return connectiveRoles[phrase]&r != 0 }

// trailers are stripped from the end of a clause.
var trailers = phrases(english.Entries("trailers"))

// chitchat heads make a clause chit-chat whatever follows ("thank you for your help").
var chitchat = english.Set("chitchat")

// smallTalk are whole clauses that are chit-chat even though they look like questions.
var smallTalk = english.Set("small-talk")

// referents point back at what an earlier sentence names ("that information", "about it").
var referents = english.Set("referents")

// references are the nouns a clause that refers back uses for what it points at.
var references = english.Set("references")

// determinersForProper may open a proper-noun sequence when capitalised mid-sentence ("Who
// directed The Godfather?").
var determinersForProper = english.Set("determiners-for-proper")

// properConnectors may join capitalised words into one name ("Bank of America", "Stade de
// France", "Barnes & Noble"). "and" is deliberately missing: "between Paris and Lyon" are two
// values.
var properConnectors = english.Set("proper-connectors")

// common are words that never start a proper-noun value even when capitalised: the
// closed-class words, the request verbs and the words that open or link requests.
var common = union(functionWords, fillers, chitchat, connectiveWords(roleWeak|roleOrdinal),
	relativeDaySet, relativeHeads, verbsPlain)

// monthNames are the months' names in their order; months is their set.
var monthNames = english.Entries("months")
var months = lexicon.Set(monthNames)

// weekdays are the days' names (see weekday for their abbreviations).
var weekdays = english.Entries("weekdays")

// weekday reports whether w names a day of the week: its name or the first three letters of it
// or more ("mon", "tues", "thurs").
func weekday(w string) bool { return weekdayAt(w) >= 0 }

// weekdayAt is the index in weekdays of the day that w (lowercase) names, in full or by its
// first three letters or more; -1 for none.
func weekdayAt(w string) int {
	if len(w) < 3 {
		return -1
	}
	return slices.IndexFunc(weekdays, func(d string) bool { return strings.HasPrefix(d, w) })
}

// relativeDays are dates on their own, each with how many days after today it is.
var relativeDays = func() map[string]int {
	m := map[string]int{}
	for _, e := range english.Entries("relative-days") {
		w, n, _ := strings.Cut(e, " ")
		days, err := strconv.Atoi(n)
		if err != nil {
			panic("subgoal: relative-days: " + e + ": want a word and a number of days")
		}
		m[w] = days
	}
	return m
}()

// relativeDaySet is the set of relativeDays' words.
var relativeDaySet = func() map[string]bool {
	m := make(map[string]bool, len(relativeDays))
	for w := range relativeDays {
		m[w] = true
	}
	return m
}()

// RelativeDay reports whether w (lowercase) names a day relative to today ("tomorrow"), and
// how many days after today it is.
func RelativeDay(w string) (int, bool) {
	n, ok := relativeDays[w]
	return n, ok
}

// Month reports whether w names a month in full, written with a capital ("March", not the
// verb "march"; "May", not the verb "may"), and which.
func Month(w string) (time.Month, bool) {
	low := strings.ToLower(w)
	if i := slices.Index(monthNames, low); i >= 0 && w != low {
		return time.Month(i + 1), true
	}
	return 0, false
}

// Weekday reports whether w names a day of the week in full ("friday", any case), or by an
// abbreviation of three letters or more written with a capital ("Fri", not the verb "sat"),
// and which.
func Weekday(w string) (time.Weekday, bool) {
	low := strings.ToLower(w)
	i := weekdayAt(low)
	if i < 0 || low != weekdays[i] && w == low {
		return 0, false
	}
	return time.Weekday((i + 1) % 7), true // weekdays start on Monday
}

// dayParts may follow a relative day ("tomorrow morning").
var dayParts = english.Set("day-parts")

// numberPrefixes may open a number value ("top 5", "next 3 days", "past 2 weeks").
var numberPrefixes = english.Set("number-prefixes")

// functionWords are the closed-class words of English the lists above name (determiners,
// pronouns, prepositions, conjunctions, auxiliaries, question words): what a rule consults to
// tell grammar from content. It is their union, not a list of its own.
var functionWords = union(articles, notObjects, objectPronouns, whWords, auxes, subjects, referents,
	prepositions, quantifiers, conjunctions)

// conjunctions open a subordinate clause ("if it rains, ...").
var conjunctions = english.Set("conjunctions")

// union is the set of the words of every set in sets.
func union(sets ...map[string]bool) map[string]bool {
	m := make(map[string]bool)
	for _, s := range sets {
		for w := range s {
			m[w] = true
		}
	}
	return m
}

// subjectWants are want frames that follow a subject other than the user ("my friend wants
// to", "they need"): the user asks on their behalf.
var subjectWants = phrases(english.Entries("subject-wants"))

// subjectInterests state another subject's interest: a want only when a request verb's -ing
// form follows ("my company is interested in retrieving the variables", not "my friend is
// interested in a particular business").
var subjectInterests = phrases(english.Entries("subject-interests"))

// subjectHeads start a subject of up to three words before a subjectWant ("my sister", "our
// team", "they").
var subjectHeads = english.Set("subject-heads")

// relativeHeads open a relative date ("next week", "this weekend", "last Friday").
var relativeHeads = english.Set("relative-heads")

// relativeTails close a relative date after a relative head, as do weekdays and dayParts.
var relativeTails = english.Set("relative-tails")

// Common reports whether w (lowercase) is a word that never opens a name even when
// capitalised: a closed-class word, a request verb, or a word that opens or links requests.
func Common(w string) bool {
	return common[strings.ReplaceAll(w, "’", "'")]
}

// Function reports whether w (lowercase) is a closed-class word: a determiner, a pronoun, a
// preposition, a conjunction, an auxiliary or a question word.
func Function(w string) bool {
	return functionWords[strings.ReplaceAll(w, "’", "'")]
}

// Quantifier reports whether w (lowercase) is a quantifier ("any", "some", "each"), which opens
// a noun phrase.
func Quantifier(w string) bool { return quantifiers[w] }

// Connector reports whether w may join the capitalised words of one name ("Rio de Janeiro",
// "Bank of America").
func Connector(w string) bool {
	return properConnectors[strings.ToLower(w)]
}

// particles complete a verb ("filter out", "look up", "turn off").
var particles = english.Set("particles")

// ShowsVerb reports whether w (lowercase), right after a word, shows that word used as a
// verb: a determiner, an object pronoun, a word that points back, a question word or a
// particle ("show me", "list the", "tell where", "filter out").
func ShowsVerb(w string) bool {
	w = strings.ReplaceAll(w, "’", "'")
	return articles[w] || objectPronouns[w] || referents[w] || whWords[w] || particles[w]
}

// connectiveWords is the set of the one-word connectives with one of roles.
func connectiveWords(roles connectiveRole) map[string]bool {
	m := make(map[string]bool)
	for p, r := range connectiveRoles {
		if r&roles != 0 && !strings.Contains(p, "_") {
			m[p] = true
		}
	}
	return m
}

// DateWord reports whether w (lowercase) names a month, a weekday or a relative day ("May",
// "Monday", "tomorrow").
func DateWord(w string) bool {
	return months[w] || weekday(w) || relativeDaySet[w]
}

// RefersBack reports whether text holds a pronoun that stands for a thing an earlier clause
// names: a possessive ("their top scorer") or a referring object ("book it").
func RefersBack(text string) bool {
	return slices.ContainsFunc(tokenize(text), func(t token) bool { return t.kind == kWord && backPronoun(t.low) })
}

// backPronoun reports whether the word w (lowercase) is such a pronoun; the clauses' pronouns
// are resolved by it too (resolvePronouns).
func backPronoun(w string) bool { return possessivePronouns[w] || referents[w] && objectPronouns[w] }

// Determiner reports whether w (lowercase) is a determiner: an article, a demonstrative or a
// possessive ("the", "this", "my").
func Determiner(w string) bool { return articles[w] }

// Auxiliary reports whether w (lowercase) is an auxiliary verb, a form of be included ("is",
// "does", "will"): after a question word and a noun it says the noun is what is asked ("which
// league does Celtic play in").
func Auxiliary(w string) bool { return auxes[w] }

// SubjectPronoun reports whether w (lowercase) is a pronoun that may be a clause's subject ("I",
// "we", "they"), no determiner.
func SubjectPronoun(w string) bool { return subjects[w] && !articles[w] }

// Preposition reports whether w (lowercase) is a preposition ("of", "in", "near").
func Preposition(w string) bool { return prepositions[w] }

// QuestionWord reports whether w (lowercase) is a question word ("which", "where", "whose"),
// one that may also open a relative clause.
func QuestionWord(w string) bool { return whWords[strings.ReplaceAll(w, "’", "'")] }

// Courtesy reports whether w (lowercase) is a word of courtesy or a filler that may open a
// request before its frame ("hi, can you …", "please, could you …").
func Courtesy(w string) bool { return chitchat[w] || fillers[w] }

// ordinalWords are the ordinal numbers' names in their order ("first" is 1).
var ordinalWords = english.Entries("ordinals")

// cardinalWords are the names of the numbers from one, in their order ("two" is 2).
var cardinalWords = english.Entries("cardinals")

// CardinalNumber is the number a number's name w (lowercase) stands for ("two": 2); 0 for
// none.
func CardinalNumber(w string) int {
	return slices.Index(cardinalWords, w) + 1
}

// OrdinalNumber is the number an ordinal w (lowercase) stands for: its name ("second": 2) or
// a number with the last two letters of an ordinal's name ("2nd", "24th"); 0 for none.
func OrdinalNumber(w string) int {
	if i := slices.Index(ordinalWords, w); i >= 0 {
		return i + 1
	}
	if len(w) < 3 || !slices.ContainsFunc(ordinalWords, func(o string) bool { return strings.HasSuffix(o, w[len(w)-2:]) }) {
		return 0
	}
	n, err := strconv.Atoi(w[:len(w)-2])
	if err != nil || n <= 0 {
		return 0
	}
	return n
}

// MonthNumber is the number of the month whose name w (lowercase) begins with its first three
// letters or more ("jan", "sept", "december": 1, 9, 12), 0 for none.
func MonthNumber(w string) int {
	if len(w) < 3 {
		return 0
	}
	for i, m := range monthNames {
		if strings.HasPrefix(m, w) {
			return i + 1
		}
	}
	return 0
}
