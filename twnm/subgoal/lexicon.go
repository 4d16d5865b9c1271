package subgoal

import "strings"

// The word lists below are the whole of Split's knowledge of English. They are lowercase, with
// the typographic apostrophe written as "'" (tokens are normalised the same way).

// set builds a lookup set from space-separated words.
func set(words string) map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// phraseSet builds a lookup set of "|"-separated phrases, their words separated by one space.
func phraseSet(list string) map[string]bool {
	m := make(map[string]bool)
	for _, p := range strings.Split(list, "|") {
		if f := strings.Fields(p); len(f) > 0 {
			m[strings.Join(f, " ")] = true
		}
	}
	return m
}

// phraseList is a list of multi-word phrases indexed by their first word; each bucket lists the
// longer phrases first, so that matching takes the longest one.
type phraseList struct {
	all     [][]string
	byFirst map[string][][]string
}

// phrases builds a phraseList from "|"-separated phrases.
func phrases(list string) phraseList {
	pl := phraseList{byFirst: make(map[string][][]string)}
	for _, p := range strings.Split(list, "|") {
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
var verbsPlain = set(`find get fetch retrieve obtain provide give send create delete remove
	generate calculate compute convert translate compare identify verify validate recommend
	suggest summarize summarise explain describe locate buy purchase sell reserve determine
	analyze analyse notify remind grab lookup subscribe unsubscribe cancel
	reschedule rebook enumerate gimme inquire show tell list search check`)

// articles are the determiners that make a wh-word embedded ("when and where the concert
// is") rather than a new question ("and which one has ...").
var articles = set(`the a an my your his her its our their this that these those`)

// notObjects after a plain verb show an intransitive use, not a new request ("book and cancel
// for free").
var notObjects = set(`and or for of in on at with by about as than`)

// objectPronouns show a verb after a capitalised verb ("and Send me ...").
var objectPronouns = set(`me us it them him her`)

// whWords start questions.
var whWords = set(`what what's whats which how how's where where's when when's who who's
	whom whose why`)

// auxes start yes/no questions ("is there", "does it", "can I").
var auxes = set(`is are was were do does did can could will would should may might must shall
	has have had am
	isn't aren't don't doesn't didn't can't won't`)

// subjects follow an aux in a yes/no question.
var subjects = set(`i you we it there they he she this that these those my the any`)

// fillers may stand between the words of a frame or before a verb ("can you also please").
var fillers = set(`also please kindly just quickly additionally then really maybe perhaps
	possibly now still`)

// directFrames are polite ways to ask for something; they are stripped from the start of a
// clause and make it a task.
var directFrames = phrases(`can you|could you|would you|will you|can u|could u|would you mind|
	do you mind|would it be possible to|would it be possible for you to|is it possible to|
	is it possible for you to|is there a way to|is there any way to|i was wondering if you could|
	i was wondering if you can|i wonder if you could|i'd appreciate it if you could|
	i would appreciate it if you could|i'd appreciate if you could|
	i would appreciate if you could|i'd be grateful if you could|i would be grateful if you could|
	please|kindly|pls|plz|help me|help me to|help me with|can you help me|could you help me|
	can you help me to|could you help me to|i'd like you to|i would like you to|i want you to|
	i need you to|i'd love for you to|i would love for you to|would you be able to|
	could you be able to|are you able to|can you please|i request you to|i ask you to|
	let me know|let me know if|let me know whether|let me see|do you know|do you have|can i get|could i get|can i have|
	could i have|may i have|may i get|i'd appreciate|i would appreciate` + "|" + appreciationFrames())

// appreciationFrames are "it would be great if you could", "it'd be helpful to" and their kin:
// every lead, adjective and tail below, combined, "|"-separated.
func appreciationFrames() string {
	var out []string
	for _, lead := range []string{"it would be", "it'd be", "it will be", "that would be"} {
		for _, adj := range strings.Fields("great helpful nice useful awesome wonderful fantastic ideal good amazing perfect appreciated fun interesting valuable beneficial") {
			for _, tail := range []string{"to", "if you could", "if you can", "if i could", "if i can", "if we could", "if you would", "for me to", "for us to"} {
				out = append(out, lead+" "+adj+" "+tail)
			}
		}
	}
	return strings.Join(out, "|")
}

// wantFrames state a want; they are stripped too, and make a clause a task unless its head is a
// motive ("I want to gather inspiration").
var wantFrames = phrases(`i'd like to know|i would like to know|i want to know|i need to know|
	i'd love to know|i would love to know|i wish to know|i'd like to find out|
	i want to find out|i need to find out|i'd like to|i would like to|i want to|i need to|
	i wish to|i'd love to|i would love to|i'm looking to|i am looking to|i'm trying to|
	i am trying to|i hope to|i'm hoping to|i am hoping to|i plan to|i'm planning to|
	i am planning to|i'd like|i would like|i want|i need|i'm looking for|i am looking for|
	we want to|we need to|we'd like to|we would like to|we want|we need|we'd like|
	we would like|we're looking for|we are looking for|i'm curious to know|
	i am curious to know|i require|i'd prefer|i would prefer|i'd prefer to|
	i'd also like|i also need|i also want|my goal is to|i'm in need of|i am in need of|
	looking for|i have to|i must|i should|i want to be able to|i'd like to be able to|
	i would like to be able to|i need to be able to|i wanna know|i wanna|we wanna|
	i'm keen to|i am keen to|i'm interested in|i am interested in|we're interested in|
	we are interested in|i'm curious about|i am curious about|we're curious about|
	we are curious about|i'm curious if|i am curious if|i'm curious whether|i am curious whether|
	i would need to|i'd need to|we would need to|we'd need to|` +
	// The same without a subject, after "and" ("I'm planning a trip and need to book a hotel").
	`would like to know|would like to|need to know|need to|wants to know|wants to|
	would love to|is interested in|are interested in|needs|need|would need to`)

// connectives link clauses; they are stripped from the start of a clause. Each may carry roles
// after a colon (see connectiveRole): what it says of the clause it opens.
var connectives, connectiveRoles = connectiveTable(`and then:sequence|and after that:sequence|and afterwards:sequence|and finally|
	and also:continues|and lastly|and next:sequence|and now|after that:mid,sequence|
	after this:mid,sequence|afterwards:mid,sequence|and:continues,weak|then:mid,sequence|
	also:mid,continues,weak|additionally:mid,continues|in addition:mid,continues|
	plus:mid,continues,weak|as well as:mid,continues|moreover:mid|furthermore:mid|besides that|
	besides|but:weak|but also:mid|so:weak|now:weak|ok|okay|oh|well|alright|anyway|hi|hello|hey|
	hi there|hey there|hello there|finally:mid,ordinal|lastly:mid,ordinal|next:sequence,ordinal|
	first:first,ordinal|firstly:first,ordinal|first of all:first|to begin:first|
	to begin with:first|second:sequence,ordinal|secondly:sequence,ordinal|
	third:sequence,ordinal|thirdly:sequence,ordinal|fourth:sequence,ordinal|
	fifth:sequence,ordinal|at last|last but not least|but first:mid,before|
	but before that:mid,before|before that:mid,before|before this:mid,before|
	before doing that:mid,before|before doing so:mid,before|before you do that:before|
	before you do:before|prior to that:mid,before|once that's done:mid,sequence|
	once done:mid,sequence|once you have that:sequence|once you've done that:sequence|
	when that's done:sequence|after which:mid,sequence`)

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
// words joined with "_", from "|"-separated entries "phrase:role,role".
func connectiveTable(list string) (phraseList, map[string]connectiveRole) {
	var ps []string
	roles := make(map[string]connectiveRole)
	for _, e := range strings.Split(list, "|") {
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
	return phrases(strings.Join(ps, "|")), roles
}

// of reports whether the connective phrase (words joined with "_") has role r.
func (r connectiveRole) of(phrase string) bool { return connectiveRoles[phrase]&r != 0 }

// trailers are stripped from the end of a clause.
var trailers = phrases(`please|thanks|thank you|thanks a lot|thank you so much|thx|
	if possible|if you can|if you could|for me please|as soon as possible`)

// chitchat heads make a clause chit-chat whatever follows ("thank you for your help").
var chitchat = set(`thank thanks thx cheers hi hello hey greetings bye goodbye appreciate
	appreciated awesome great cool wow nice`)

// smallTalk are whole clauses that are chit-chat even though they look like questions.
var smallTalk = phraseSet(`how are you|how are you doing|how's it going|how is it going|what's up|
	whats up|how have you been|how do you do|are you there|you there`)

// referents point back at what an earlier sentence names ("that information", "about it").
var referents = set(`it this that these those them`)

// references are the nouns a clause that refers back uses for what it points at.
var references = set(`information info data same`)

// determinersForProper may open a proper-noun sequence when capitalised mid-sentence ("Who
// directed The Godfather?").
var determinersForProper = set(`the`)

// properConnectors may join capitalised words into one name ("Bank of America", "Stade de
// France", "Barnes & Noble"). "and" is deliberately missing: "between Paris and Lyon" are two
// values.
var properConnectors = set(`of de del della da di du des dos das der den van von la le el al bin & y the`)

// common are words that never start a proper-noun value even when capitalised: the
// closed-class words, the request verbs and the words that open or link requests.
var common = union(functionWords, fillers, chitchat, connectiveWords(roleWeak|roleOrdinal),
	relativeDays, relativeHeads, verbsPlain)

// months maps month names and abbreviations; "may" and the abbreviations only count next to a
// number.
var months = set(`january february march april may june july august september october november
	december`)

var weekdays = set(`monday tuesday wednesday thursday friday saturday sunday mon tue tues wed
	thu thur thurs fri sat sun`)

// relativeDays are dates on their own.
var relativeDays = set(`today tonight tomorrow yesterday`)

// dayParts may follow a relative day ("tomorrow morning").
var dayParts = set(`morning afternoon evening night noon`)

// numberPrefixes may open a number value ("top 5", "next 3 days", "past 2 weeks").
var numberPrefixes = set(`top first last past next previous`)

// functionWords are the closed-class words of English the lists above name (determiners,
// pronouns, prepositions, conjunctions, auxiliaries, question words): what a rule consults to
// tell grammar from content. It is their union, not a list of its own.
var functionWords = union(articles, notObjects, objectPronouns, whWords, auxes, subjects, referents,
	prepositions, quantifiers, conjunctions)

// conjunctions open a subordinate clause ("if it rains, ...").
var conjunctions = set(`if unless because while although though whether since once until`)

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
var subjectWants = phrases(`wants to know|wants to|want to know|want to|needs to|need to|needs|need|
	would like to know|would like to|would love to|would need to`)

// subjectInterests state another subject's interest: a want only when a request verb's -ing
// form follows ("my company is interested in retrieving the variables", not "my friend is
// interested in a particular business").
var subjectInterests = phrases(`is interested in|are interested in`)

// subjectHeads start a subject of up to three words before a subjectWant ("my sister", "our
// team", "they").
var subjectHeads = set(`my our their his her they he she`)

// relativeHeads open a relative date ("next week", "this weekend", "last Friday").
var relativeHeads = set(`this next last coming`)

// relativeTails close a relative date after a relative head, as do weekdays and dayParts.
var relativeTails = set(`week weekend month year`)

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

// Connector reports whether w may join the capitalised words of one name ("Rio de Janeiro",
// "Bank of America").
func Connector(w string) bool {
	return properConnectors[strings.ToLower(w)]
}

// particles complete a verb ("filter out", "look up", "turn off").
var particles = set(`up out down off back away`)

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
	return months[w] || weekdays[w] || relativeDays[w]
}

// Preposition reports whether w (lowercase) is a preposition ("of", "in", "near").
func Preposition(w string) bool { return prepositions[w] }

// QuestionWord reports whether w (lowercase) is a question word ("which", "where", "whose"),
// one that may also open a relative clause.
func QuestionWord(w string) bool { return whWords[strings.ReplaceAll(w, "’", "'")] }
