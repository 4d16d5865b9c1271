package toolspec

import (
	"maps"
	"slices"
	"strings"
	"unicode"
)

// Pick returns the value that path finds in v within the item of a list that item names,
// and whether there is one: the first item one of whose own fields is item, case, spaces and
// punctuation aside (the channel whose friendly_name is "Board Prep"). The list is the first that path takes an item of
// ("channels[].sid"); for a path that takes none ("id"), it is a list at v's top level whose
// items hold the field (a response that is a list, read as {"result": [...]}). A request
// that names the site, the channel or the playlist it means is answered about that one, not
// about the list's first.
func Pick(v any, path, item string) (any, bool) {
	item = strings.TrimSpace(item)
	if item == "" {
		return nil, false
	}
	segs := strings.Split(path, ".")
	i := slices.IndexFunc(segs, func(s string) bool { return strings.HasSuffix(s, "[]") })
	if i < 0 {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		for _, k := range slices.Sorted(maps.Keys(m)) { // one answer, one pick
			if out, ok := pickIn(m[k], path, item); ok {
				return out, true
			}
		}
		return nil, false
	}
	list := v
	if i > 0 {
		var ok bool
		if list, ok = Lookup(v, strings.Join(segs[:i], ".")); !ok {
			return nil, false
		}
	}
	m, ok := list.(map[string]any)
	if !ok {
		return nil, false
	}
	return pickIn(m[strings.TrimSuffix(segs[i], "[]")], strings.Join(segs[i+1:], "."), item)
}

// pickIn returns what rest finds in the first item of list (a JSON list of objects) one of
// whose own scalar fields is item (see names).
func pickIn(list any, rest, item string) (any, bool) {
	items, ok := list.([]any)
	if !ok {
		return nil, false
	}
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok || !names(m, item) {
			continue
		}
		if rest == "" {
			return m, true
		}
		return Lookup(m, rest)
	}
	return nil, false
}

// names reports whether one of m's own scalar fields is item, case, spaces and punctuation
// aside ("bakery landing" names the site bakery-landing).
func names(m map[string]any, item string) bool {
	want := plain(item)
	if want == "" {
		return false
	}
	for _, f := range m {
		switch f.(type) {
		case map[string]any, []any, nil:
			continue
		}
		if plain(ValueText(f)) == want {
			return true
		}
	}
	return false
}

// plain is s in lower case with its letters and digits only.
func plain(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}
