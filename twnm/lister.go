package twnm

import (
	"slices"
	"strings"
)

// Listed returns a reader, the APIs of apis indexed once, of the collection an input of
// consumer picks an item of where some API of apis lists it (see ListKey): its name, the last
// segment of its path ("Channels" for the ChannelSid of
// /Services/{ServiceSid}/Channels/{ChannelSid}/Invites); "" where none lists it.
func Listed(apis []API) func(consumer API, input string) string {
	lists := map[string]bool{} // by ListKey
	for _, a := range apis {
		lists[ListKey(a)] = true
	}
	return func(consumer API, input string) string {
		c := collection(consumer, input)
		if c == "" || !lists[collectionKey(consumer.Source, c)] {
			return ""
		}
		return c[strings.LastIndexByte(c, '/')+1:]
	}
}

// ListKey is the key of the collection a lists, where a lists one: a reads it (GET) from its
// source and needs no input but the path's own variables. PickKey is the key of the
// collection a path input picks an item of: the part of its API's path before "{input}",
// where that ends in a name ("GET /sites/{site_id}/forms" picks one of /sites). Where the two
// keys are equal, the lister gives the input: the catalog's shape says where an identifier
// comes from, the list of sites giving a site's id where a DNS zone's site_id names only the
// site of one zone, and a deploy's the site of one deploy. Two endpoints may name one variable
// apart ({thread_id}, {threadId}): a key writes each variable "{}".
//
// ListKey is "" where a lists none.
func ListKey(a API) string {
	own, ok := listing(a)
	if !ok {
		return ""
	}
	return collectionKey(a.Source, own)
}

// PickKey is the key, as ListKey writes it, of the collection that input of consumer picks an
// item of (see ListKey); "" where it picks from none.
func PickKey(consumer API, input string) string {
	c := collection(consumer, input)
	if c == "" {
		return ""
	}
	return collectionKey(consumer.Source, c)
}

// collectionKey is the key of collection c of source: the two are one collection only
// together.
func collectionKey(source, c string) string { return source + "\x00" + c }

// Listers returns the APIs of g that list the collection input of consumer picks an item of
// (see ListKey), in the order they joined g.
func (g *Graph) Listers(consumer NodeID, input string) []NodeID {
	a := g.Node(consumer).API
	if a == nil {
		return nil
	}
	k := PickKey(*a, input)
	if k == "" {
		return nil
	}
	return g.listers[k]
}

// ItemID returns the output of lister that identifies each item it lists, for input (a path
// variable of an item of that list): the output named as the input's last word ("id" for
// site_id, "sid" for ChannelSid), else as the input itself.
func (g *Graph) ItemID(lister NodeID, input string) (NodeID, bool) {
	name := g.Node(lister).Name
	if ws := ParamWords(input); len(ws) > 0 {
		if a := g.Node(lister).API; a != nil {
			for _, o := range a.Outputs {
				if strings.EqualFold(o.Name, ws[len(ws)-1]) {
					return g.ParamOf(name, o.Name, false)
				}
			}
		}
	}
	return g.ParamOf(name, input, false)
}

// listing returns the collection a reads, its path with each variable written "{}", where a
// reads one (GET) needing no input but its path's variables.
func listing(a API) (string, bool) {
	if a.Endpoint == nil || a.Endpoint.Method != "GET" || slices.ContainsFunc(a.Inputs, func(p Param) bool { return p.Required && p.In != InPath }) {
		return "", false
	}
	segs := pathSegments(a.Endpoint.Path)
	return joinSegments(segs), len(segs) > 0
}

// collection returns the collection, written as listing writes it, that input of consumer
// picks an item of: the part of consumer's path before "{input}", where it ends in a name, or,
// for an identifier that opens the path or is no part of it, the collection its name names
// (namedCollection); "" where there is none.
func collection(consumer API, input string) string {
	if consumer.Endpoint == nil {
		return ""
	}
	segs := pathSegments(consumer.Endpoint.Path)
	i := slices.Index(segs, "{"+input+"}")
	if i <= 0 {
		return namedCollection(input)
	}
	if isPathVar(segs[i-1]) {
		return ""
	}
	return joinSegments(segs[:i])
}

// namedCollection is the collection an identifier picks an item of as its name says, where
// its path does not: /{account_id}/builds/status picks one of /accounts, and the file_id a
// POST /vector_stores/{vector_store_id}/files sends one of /files. "" where the input names
// no identifier of a thing.
func namedCollection(input string) string {
	ws := ParamWords(input)
	if len(ws) < 2 || !Identifier(input) {
		return ""
	}
	return "/" + plural(ws[len(ws)-2])
}

// joinSegments writes path segments back as a path, each variable as "{}": two endpoints may
// name one variable apart ({thread_id}, {threadId}).
func joinSegments(segs []string) string {
	var b strings.Builder
	for _, s := range segs {
		b.WriteByte('/')
		if isPathVar(s) {
			s = "{}"
		}
		b.WriteString(s)
	}
	return b.String()
}

// LiteralPath is a path template without its variables and trailing slash: "/a/{id}/b" is
// "/a//b".
func LiteralPath(path string) string {
	var b strings.Builder
	depth := 0
	for _, r := range path {
		switch {
		case r == '{':
			depth++
		case r == '}':
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return strings.TrimRight(b.String(), "/")
}

// pathSegments splits a path template at its slashes, leaving out empty segments; a path
// that is a full URL or not a path at all has none.
func pathSegments(path string) []string {
	if !strings.HasPrefix(path, "/") {
		return nil
	}
	return strings.FieldsFunc(path, func(r rune) bool { return r == '/' })
}

// isPathVar reports whether a path segment is a variable ("{id}").
func isPathVar(seg string) bool {
	return strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}")
}
