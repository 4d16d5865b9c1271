package twnm

import (
	"strings"

	"github.com/naviagent/navi/toolspec"
	"github.com/naviagent/navi/twnm/embed"
	"github.com/naviagent/navi/twnm/lexicon"
)

// A parameter's concept is what its name means, as words: the name split into words
// (camelCase, snake_case, dots), each word singular ("post_ids" → post id), and, when every
// word of the name is generic ("id", "name", "title"…), the API's resource noun in front: the
// bare `id` that GET /search/person returns is a person id, and the one GET /movie/top_rated
// returns is a movie id. Role words (origin, destination, from, to…) stay in the concept, so
// an origin never merges with a destination; Roles reads them out.
//
// Concepts decide which parameters become one parameter node (same concept, same node) and
// score the links between those that do not (see FindLinks).

// genericWords are the words that name a value only together with what it belongs to.
var genericWords = set("id", "ids", "uuid", "guid", "key", "code", "name", "title", "slug", "handle", "value", "number", "no",
	"num", "url", "uri", "link", "type", "kind", "data", "result", "item", "entry", "record", "object", "output", "response",
	"ref", "reference", "label", "index", "idx")

// verbWords are the words of API names and paths that say what the call does, not what it
// is about: left out of an API's resource noun.
var verbWords = set("get", "post", "put", "patch", "delete", "head", "options", "search", "find", "list", "query", "fetch",
	"create", "update", "add", "remove", "retrieve", "lookup", "look", "up", "read", "write", "set", "check", "show", "view",
	"by", "for", "of", "the", "a", "an", "to", "from", "in", "on", "with", "and", "or", "all", "api", "apis", "v1", "v2", "v3",
	"info", "information", "detail", "details", "new", "my", "me", "current", "do", "make", "send", "run", "call", "request")

// roleWords map each role word to its side: a value on one side never feeds an input on the
// other (a destination is not an origin; an outbound leg's time is not the inbound one's).
var roleWords = map[string]string{
	"origin": "start", "source": "start", "from": "start", "departure": "start", "depart": "start", "start": "start",
	"sender": "start", "src": "start", "begin": "start",
	"destination": "end", "target": "end", "to": "end", "arrival": "end", "arrive": "end", "end": "end",
	"recipient": "end", "receiver": "end", "dest": "end", "dst": "end", "until": "end",
	"outbound": "outbound", "inbound": "inbound", "return": "inbound",
	// A bound is the user's constraint, never a value a call returns: max_price is not a
	// listing's price.
	"min": "bound", "max": "bound", "minimum": "bound", "maximum": "bound",
}

// optionWords name inputs that choose how a call answers (a page, a sort order) rather than
// what it is about: like flags, they are set by the request, never fed by another call. A
// status is one too: the one an input takes is picked by the request (pending, active), the
// one an output gives is how the call went (success, failed).
var optionWords = set("page", "per page", "page size", "limit", "offset", "sort", "sort by", "order", "order by", "size",
	"count", "include", "format", "fields", "lang", "language", "locale", "region", "units", "unit", "status")

// freeTextWords name inputs that take almost any text: a message, a note, a search query.
// Links into them are not stored; a plan binds them when it is built.
var freeTextWords = set("message", "text", "content", "body", "note", "notes", "comment", "description", "subject",
	"prompt", "query", "q", "keyword", "keywords", "msg", "caption", "summary", "remark", "memo", "title")

// set is the set of words.
func set(words ...string) map[string]bool { return lexicon.Set(words) }

// singular returns a word's singular by the regular English rules, leaving words it cannot
// tell apart ("status", "address", "news") as they are.
func singular(w string) string {
	switch {
	case w == "ids":
		return "id"
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && (strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes")):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") &&
		!strings.HasSuffix(w, "is") && !strings.HasSuffix(w, "ws"):
		return w[:len(w)-1]
	}
	return w
}

// plural returns a singular word's plural by the regular English rules that singular undoes:
// "account" is "accounts", "address" "addresses", "company" "companies".
func plural(w string) string {
	switch {
	case strings.HasSuffix(w, "s") || strings.HasSuffix(w, "x") || strings.HasSuffix(w, "ch") || strings.HasSuffix(w, "sh"):
		return w + "es"
	case len(w) > 1 && strings.HasSuffix(w, "y") && !strings.ContainsRune("aeiou", rune(w[len(w)-2])):
		return w[:len(w)-1] + "ies"
	}
	return w + "s"
}

// abbreviations are the short forms APIs commonly use for a word, read as the word: lat is a
// latitude whoever names it so. Only forms with one reading are listed (not "temp", "long").
var abbreviations = map[string]string{
	"lat": "latitude", "lon": "longitude", "lng": "longitude", "addr": "address", "qty": "quantity",
	"amt": "amount", "desc": "description", "img": "image", "tz": "timezone", "pwd": "password",
	"org": "organization", "dept": "department", "loc": "location", "msg": "message",
}

// words splits a name into singular words, abbreviations spelled out and stop words left
// out; a rate ends at "per" (price_per_night is a price, not nights).
func words(name string) []string {
	var ws []string
	for _, w := range embed.Tokenize(name) {
		if w == "per" && len(ws) > 0 {
			break
		}
		if full, ok := abbreviations[w]; ok {
			w = full
		}
		if !lexicon.IsStopWord(w) {
			ws = append(ws, singular(w))
		}
	}
	return ws
}

// ParamWords returns the words of a parameter name as concepts read them: split at case and
// punctuation changes, singular, common abbreviations spelled out (lat is latitude), stop
// words left out.
func ParamWords(name string) []string { return words(name) }

// identifierWords end the names of values that only the service issuing them understands.
var identifierWords = map[string]bool{"id": true, "ids": true, "uuid": true, "guid": true}

// Identifier reports whether a parameter name names an identifier ("team_id", "trackId",
// "uuid"): a value that only the service issuing it understands, and that a user does not
// state but gets from the issuer.
func Identifier(name string) bool {
	ws := ParamWords(name)
	return len(ws) > 0 && identifierWords[ws[len(ws)-1]]
}

// resourceNoun is what an API is about: the first word of its endpoint's path (its name when
// it has no path) that is neither a verb nor a path parameter, singular; "" when there is
// none. REST paths put the collection first (/movie/top_rated, /person/{id}/images), and
// names their action first (SearchHotels, GET_search-person).
func resourceNoun(a API) string {
	src := a.Name
	if a.Endpoint != nil && a.Endpoint.Path != "" {
		src = a.Endpoint.Path
		if i := strings.Index(src, "://"); i >= 0 { // a full URL: its path only
			if j := strings.Index(src[i+3:], "/"); j >= 0 {
				src = src[i+3+j:]
			}
		}
		var lit []string
		for _, seg := range strings.Split(src, "/") {
			if !strings.Contains(seg, "{") {
				lit = append(lit, seg)
			}
		}
		src = strings.Join(lit, " ")
	}
	for _, w := range words(src) {
		if !verbWords[w] && !genericWords[w] && roleWords[w] == "" && !isNumber(w) {
			return w
		}
	}
	return ""
}

// nounOf is the noun output p of a is about, given a's resource noun: that noun, but for an
// output of an answer that is a list (its path from toolspec.ResultKey: "result[].id") the
// noun of the things listed, the last segment of a's path where it names one, and for a
// top-level output of a nested getter the item it gets (getterNoun). GET
// /sites/{site_id}/forms answers with forms, each id a form's; GET
// /evals/{eval_id}/runs/{run_id} with a run, its id a run's; a top-level id of GET
// /person/{id}/images is the person's, as the path's first noun says.
func nounOf(a API, p Param, noun string) string {
	if a.Endpoint == nil {
		return noun
	}
	if p.Path == "" {
		return getterNoun(a, noun)
	}
	if !strings.HasPrefix(p.Path, toolspec.ResultKey+"[]") {
		return noun
	}
	segs := pathSegments(a.Endpoint.Path)
	if len(segs) == 0 || isPathVar(segs[len(segs)-1]) {
		return noun
	}
	ws := words(segs[len(segs)-1])
	for i := len(ws) - 1; i >= 0; i-- {
		if w := ws[i]; !verbWords[w] && !genericWords[w] && roleWords[w] == "" && !isNumber(w) {
			return w
		}
	}
	return noun
}

// getterNoun is what a getter's own top-level outputs are about: the item its path's last
// variable picks, where the path ends in one that identifies it ("GET
// /evals/{eval_id}/runs/{run_id}" answers a run; "…/Channels/{Sid}" a channel, by the
// collection the variable picks from), else noun.
func getterNoun(a API, noun string) string {
	segs := pathSegments(a.Endpoint.Path)
	n := len(segs)
	if n < 3 || !isPathVar(segs[n-1]) {
		return noun // a top-level getter is about its path's first noun already
	}
	v := strings.Trim(segs[n-1], "{}")
	if w := idNoun(v); w != "" {
		return w
	}
	if ws := words(v); len(ws) <= 1 && !isPathVar(segs[n-2]) {
		if cs := words(segs[n-2]); len(cs) > 0 {
			return cs[len(cs)-1]
		}
	}
	return noun
}

// paramConcept is the concept of parameter p of a, whose resource noun is noun: an input's by
// that noun, an output's by the thing it is about (nounOf). The graph, its links and the
// parameters' embeddings read parameters alike through it.
func paramConcept(a API, p Param, noun string, input bool) []string {
	if !input {
		noun = nounOf(a, p, noun)
	}
	return concept(p, noun)
}

func isNumber(w string) bool {
	for _, r := range w {
		if r < '0' || r > '9' {
			return false
		}
	}
	return w != ""
}

// concept returns the concept words of parameter p of an API whose resource noun is noun. A
// field of a list item typed as a resource (p.Entity) is read by its own key with that
// resource's noun: the cast[].id named cast_id of a person's credits is a movie id.
func concept(p Param, noun string) []string {
	name := p.Name
	if p.Entity != "" {
		noun = p.Entity
		if p.Path != "" {
			name = lastKey(p.Path)
		}
	}
	ws := words(name)
	// A role qualifies the value: destination_name is not the API's.
	if allGeneric(ws) && noun != "" {
		ws = append([]string{noun}, ws...)
	}
	return ws
}

// roles returns the sides (start, end, outbound, inbound, bound) that a concept's role words
// name.
func roles(ws []string) map[string]bool {
	var m map[string]bool
	for _, w := range ws {
		if side := roleWords[w]; side != "" {
			if m == nil {
				m = map[string]bool{}
			}
			m[side] = true
		}
	}
	return m
}

// rolesConflict reports whether two role sets name different sides of one axis: a start and
// an end, an outbound and an inbound leg, or a bound and a value (max_price is not a price).
// A concept naming no side conflicts only with a bound.
func rolesConflict(a, b map[string]bool) bool {
	return a["start"] && b["end"] && !b["start"] || a["end"] && b["start"] && !b["end"] ||
		a["outbound"] && b["inbound"] || a["inbound"] && b["outbound"] || a["bound"] != b["bound"]
}

// Linkable reports whether an input can be fed by another call's output, as FindLinks links
// inputs: not free text (a message, a note, a search query), not a flag (a boolean), not an
// option (a page, a sort order, a language), and not a bound (max_price). A plan binds those
// from the request when it is built.
func Linkable(p Param) bool {
	if isFreeText(p.Name) || typeClass(p.Type) == "boolean" {
		return false
	}
	ws := words(p.Name)
	if len(ws) == 0 || optionWords[strings.Join(ws, " ")] || ws[0] == "include" {
		return false
	}
	return !roles(ws)["bound"]
}

// isFreeText reports whether an input of this name takes free text (see freeTextWords): its
// last word is a free-text word.
func isFreeText(name string) bool {
	ws := words(name)
	return len(ws) > 0 && freeTextWords[ws[len(ws)-1]]
}
