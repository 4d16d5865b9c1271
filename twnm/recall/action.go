package recall

import (
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/bm25"
	"github.com/naviagent/navi/twnm/extract"
	"github.com/naviagent/navi/twnm/subgoal"
)

// Action is what a request asks done to its object, or what a tool does to it: the four
// operations every API catalog is made of. Two tools over one object (AddMeeting,
// QueryMeeting, DeleteMeeting) share almost every word and differ by their action alone, so
// "book a meeting" must find the one that creates.
type Action uint8

// Actions.
const (
	ActionUnknown Action = iota
	ActionCreate
	ActionRead
	ActionUpdate
	ActionDelete
)

// String names the action for traces.
func (a Action) String() string {
	switch a {
	case ActionCreate:
		return "create"
	case ActionRead:
		return "read"
	case ActionUpdate:
		return "update"
	case ActionDelete:
		return "delete"
	}
	return "unknown"
}

// actionWords are English verbs (and their nouns) that name one action unambiguously, keyed by
// their BM25 stems so that "booking", "booked" and "books" read alike. Verbs whose action
// depends on their object ("send", "make" alone) are left out: an unknown action changes no
// score (an API's description reads "sends" as a create: descriptionWords). "set" creates: a request
// sets an alarm or a reminder, and a tool named Set... is read by the same rule, so the two
// agree.
var actionWords = func() map[string]Action {
	m := map[string]Action{}
	for _, a := range []Action{ActionCreate, ActionRead, ActionUpdate, ActionDelete} {
		for _, w := range english.Entries(a.String()) {
			for _, t := range bm25.Tokens(w) {
				m[t] = a
			}
		}
	}
	return m
}()

// firstAction is the action of the first word of text that words name (ActionUnknown if none):
// actionWords for a request, descriptionWords for an API's description. A plural of a word in
// -ing is a noun, whatever its stem ("our CMS webhook settings", "my bookings"): it names a
// thing, not an action.
func firstAction(text string, words map[string]Action) Action {
	for _, w := range strings.Fields(text) {
		if strings.HasSuffix(strings.ToLower(strings.TrimRightFunc(w, func(r rune) bool { return !unicode.IsLetter(r) })), "ings") {
			continue
		}
		for _, t := range bm25.Tokens(w) {
			if a, ok := words[t]; ok {
				return a
			}
		}
	}
	return ActionUnknown
}

// Commands is the action a request commands: the one its first word names, in the imperative
// ("set an alarm for 6am tomorrow" creates, "cancel my booking" deletes), ActionUnknown where
// its first word names none ("can you set …", "I want to create …", "what …").
func Commands(text string) Action {
	f := strings.Fields(text)
	if len(f) == 0 {
		return ActionUnknown
	}
	if ts := bm25.Tokens(f[0]); len(ts) == 1 { // a stop word ("can") has none
		return actionWords[ts[0]]
	}
	return ActionUnknown
}

// RequestAction is the action a request (or one of its clauses) asks for: read for a question
// that opens with a question word ("what time is my reservation?"), else that of its first
// action word ("book a meeting for the team who are not travelling" creates; "can you cancel
// it?" deletes), else read for any other question.
func RequestAction(text string) Action {
	t := strings.TrimSpace(text)
	if f := strings.Fields(strings.ToLower(t)); len(f) > 0 {
		if subgoal.QuestionWord(f[0]) || subgoal.QuestionWord(strings.TrimRight(f[0], "'s")) {
			return ActionRead
		}
	}
	// A request may be framed in its last sentence, whose question mark it is ("The latest
	// release broke the homepage. Can you put the site back …?"): it asks for what its verb does.
	if strings.HasSuffix(t, "?") && !requestFrame(t) && !requestFrame(lastSentence(strings.TrimRight(t, "?"))) {
		return ActionRead
	}
	return firstAction(t, actionWords)
}

// requestFrame reports whether a question is a request ("hi, can you turn on the light?"),
// which asks for whatever its verb does, not for information.
func requestFrame(text string) bool {
	var words []string // the first two, after a greeting
	for _, w := range strings.Fields(strings.ToLower(text)) {
		w = strings.Trim(w, ",.!")
		if len(words) == 0 && (w == "" || subgoal.Courtesy(w)) {
			continue // a greeting opens many requests
		}
		if words = append(words, w); len(words) == 2 {
			break
		}
	}
	return len(words) == 2 && words[1] == "you" && requestModals[words[0]]
}

// lastSentence is the last sentence of text: what follows its last full stop, exclamation or
// question mark.
func lastSentence(text string) string {
	i := strings.LastIndexAny(text, ".!?")
	for i >= 0 && i+1 < len(text) && text[i+1] != ' ' { // "e.g.", "3.5" end no sentence
		i = strings.LastIndexAny(text[:i], ".!?")
	}
	return text[i+1:]
}

// requestModals are the modals of "can you …?". The question words that open a question for
// information and the courtesies before a request are subgoal's (QuestionWord, Courtesy).
var requestModals = english.Set("request-modals")

// Clock reports whether api takes no input and gives only dates or times (the current
// date): it is no producer of another call's input. The reader dates what a request says
// relative to today from the day its run started ("tomorrow"), and a date the request does
// not state is asked for: a hotel's check-out is not today.
func Clock(api twnm.API) bool {
	if len(api.Inputs) > 0 || len(api.Outputs) == 0 {
		return false
	}
	return !slices.ContainsFunc(api.Outputs, func(p twnm.Param) bool { return !extract.Temporal(p) })
}

// ChangesState reports whether api creates, updates or deletes what it acts on (APIAction).
func ChangesState(api twnm.API) bool {
	switch APIAction(api) {
	case ActionCreate, ActionUpdate, ActionDelete:
		return true
	}
	return false
}

// APIAction is what api does: the action of its name's first word (AddMeeting creates; a
// later word is a noun as often as a verb: TrainSchedule), or of the first word of a method
// named after its namespace (dnd_setSnooze sets), else read where the catalog says
// the API only reads (Effect, as an MCP tool's readOnlyHint says), else the one its HTTP method
// states (GET reads, POST creates, PUT and PATCH update, DELETE deletes), else that of the
// first action word of its description's first sentence ("This API allows users to make a
// reservation for a meeting" creates; "This API sends an email reminder" creates too: see
// descriptionWords).
//
// POST is read as HTTP defines it, as the call's effect (CallEffect) already is: in the
// public specs of the held-out set, POSTs that name no action first ("post_folders_id",
// "bulk_ban_users_from_guild", "dnd_setSnooze") change state, and a question about them
// ("what was the ban reason …?") ended at them. A search served by POST is read as a
// create, and so is not the final step of a question unless it leads by far (see Choose).
func APIAction(api twnm.API) Action {
	own := twnm.OwnName(api.Name) // stay.SearchHotels: the provider names no action
	if ts := bm25.Tokens(own); len(ts) > 0 {
		if a, ok := actionWords[ts[0]]; ok {
			return a
		}
	}
	// A method under its namespace (Slack's dnd.setSnooze, imported as dnd_setSnooze) names
	// its action first after the namespace.
	if i := strings.LastIndexAny(own, "_."); i > 0 {
		if ts := bm25.Tokens(own[i+1:]); len(ts) > 1 {
			if a, ok := actionWords[ts[0]]; ok {
				return a
			}
		}
	}
	if api.Effect == twnm.EffectRead { // the catalog says so: an MCP tool's readOnlyHint
		return ActionRead
	}
	if e := api.Endpoint; e != nil {
		switch strings.ToUpper(e.Method) {
		case "GET", "HEAD":
			return ActionRead
		case "PUT", "PATCH":
			return ActionUpdate
		case "DELETE":
			return ActionDelete
		case "POST":
			return ActionCreate
		}
	}
	d := api.Description
	if i := strings.IndexAny(d, ".\n"); i >= 0 {
		d = d[:i]
	}
	return firstAction(d, descriptionWords)
}

// descriptionWords are the action words an API's description is read by: actionWords, and the
// verbs that create whatever their object where an API says what it does (the api-create list:
// "This API sends an email reminder to the user" sends something out). A request's "send me
// the report" asks to read, so requests do not read those (actionWords).
var descriptionWords = func() map[string]Action {
	m := maps.Clone(actionWords)
	for _, w := range english.Entries("api-create") {
		for _, t := range bm25.Tokens(w) {
			if _, ok := m[t]; !ok {
				m[t] = ActionCreate
			}
		}
	}
	return m
}()

// Action is the action the request asks for: its last clause's (the part the final step
// answers), else the whole request's (see RequestAction).
func (r *Result) Action() Action {
	if a := r.lastAction(); a != ActionUnknown {
		return a
	}
	return RequestAction(strings.TrimSpace(r.Whole().Text))
}

// lastAction is the action the request's last part asks for itself: its last clause's (see
// Action), or the whole request's where it has no clauses; ActionUnknown where that part
// names none, though another part may.
func (r *Result) lastAction() Action {
	whole := strings.TrimSpace(r.Whole().Text)
	if clauses := r.Clauses(); len(clauses) > 0 {
		last := clauses[len(clauses)-1].Text
		// The clause that ends a question is one, though split off without its mark, unless
		// the question is a request ("can you add …?").
		if q, ok := strings.CutSuffix(whole, "?"); ok && strings.HasSuffix(strings.TrimSpace(q), last) &&
			!requestFrame(whole) && !requestFrame(lastSentence(q)) {
			last += "?"
		}
		return RequestAction(last)
	}
	return RequestAction(whole)
}
