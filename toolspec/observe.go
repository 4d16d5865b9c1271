package toolspec

import (
	"encoding/json"
	"sort"
	"strings"
	"unicode"
)

// Limits of Observe: an answer is a record, not a data dump, so a path deeper than
// MaxObservedDepth keys, an object of more than maxObservedKeys keys (a map keyed by data,
// not a record) and outputs past MaxObserved per answer are left out.
const (
	MaxObserved      = 32
	MaxObservedDepth = 4
	maxObservedKeys  = 64
)

// Observe returns the outputs that answer, one JSON answer of a, shows and a's catalog entry
// does not list: scalar fields at the top level and inside objects and the first item of lists,
// each with its Path (Param.Path's form, "meetings[].meeting_time") and its JSON type. An
// answer is what a call of a returned; the catalog often lists only the top-level fields of it,
// so the values later calls need (a meeting's time inside the list of meetings) have no output
// to link to until an answer shows them.
//
// A field is named by its key, or, where a's inputs or outputs already use that name, by its
// parent's key and its own ("meetings_time"), else with "item" between them (NestedName); a
// name still taken is left out. Keys that are not identifiers (data such as dates or ids used
// as keys) end the walk below them. The result is in path order, at most MaxObserved outputs.
func Observe(a API, answer map[string]any) []Param {
	listed := map[string]bool{}
	taken := map[string]bool{}
	for _, p := range a.Outputs {
		taken[p.Name] = true
		listed[p.Name] = true
		if p.Path != "" {
			listed[p.Path] = true
		}
	}
	for _, p := range a.Inputs {
		taken[p.Name] = true
	}
	var found []Param
	walkAnswer(answer, "", "", 1, func(path, parent, key, typ string) {
		if listed[path] {
			return
		}
		var parents []string
		if parent != "" {
			parents = []string{parent}
		}
		name, ok := NestedName(taken, parents, key)
		if !ok {
			return
		}
		taken[name] = true
		p := Param{Name: name, Type: typ}
		if path != name {
			p.Path = path
		}
		found = append(found, p)
	})
	sort.Slice(found, func(i, j int) bool { return pathOf(found[i]) < pathOf(found[j]) })
	return found[:min(len(found), MaxObserved)]
}

// pathOf is where an output lies in its API's answer: its Path, else its name.
func pathOf(p Param) string {
	if p.Path != "" {
		return p.Path
	}
	return p.Name
}

// walkAnswer calls leaf for each scalar field of v below prefix, in key order, with its path,
// its parent's key, its own key and its JSON type.
func walkAnswer(v map[string]any, prefix, parent string, depth int, leaf func(path, parent, key, typ string)) {
	if len(v) > maxObservedKeys {
		return
	}
	keys := make([]string, 0, len(v))
	for k := range v {
		if identifierKey(k) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		path := k
		if prefix != "" {
			path = prefix + "." + k
		}
		switch x := v[k].(type) {
		case map[string]any:
			if depth < MaxObservedDepth {
				walkAnswer(x, path, k, depth+1, leaf)
			}
		case []any:
			if len(x) == 0 {
				continue
			}
			switch item := x[0].(type) {
			case map[string]any: // a list of records: the fields of its first item
				if depth < MaxObservedDepth {
					walkAnswer(item, path+"[]", k, depth+1, leaf)
				}
			case []any: // a list of lists: no record to name
			default: // a list of values is one output, the list
				if jsonType(item) != "" {
					leaf(path, parent, k, "array")
				}
			}
		default:
			if t := jsonType(x); t != "" {
				leaf(path, parent, k, t)
			}
		}
	}
}

// identifierKey reports whether an object key names a field (a letter first, then letters,
// digits, '_' or '-'), not a value used as a key.
func identifierKey(k string) bool {
	if k == "" || len(k) > 64 {
		return false
	}
	for i, r := range k {
		switch {
		case unicode.IsLetter(r):
		case i > 0 && (unicode.IsDigit(r) || r == '_' || r == '-'):
		default:
			return false
		}
	}
	return true
}

// jsonType is the JSON type of a scalar as decoded by encoding/json (with or without
// UseNumber); empty for null.
func jsonType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64, json.Number, int, int64:
		return "number"
	}
	return ""
}

// AddOutputs returns a with the outputs of ps whose name and path it does not list yet
// (Observe's results, perhaps observed against an older record of a), and how many it added.
// a's own slices are not changed.
func AddOutputs(a API, ps []Param) (API, int) {
	taken := map[string]bool{}
	for _, p := range a.Inputs {
		taken[p.Name] = true
	}
	for _, p := range a.Outputs {
		taken[p.Name], taken["\x00"+pathOf(p)] = true, true
	}
	outs := a.Outputs
	added := 0
	for _, p := range ps {
		if p.Name == "" || taken[p.Name] || taken["\x00"+pathOf(p)] {
			continue
		}
		taken[p.Name], taken["\x00"+pathOf(p)] = true, true
		if added == 0 {
			outs = append([]Param(nil), a.Outputs...)
		}
		outs = append(outs, p)
		added++
	}
	a.Outputs = outs
	return a, added
}

// MaxOutputDepth bounds how deep into an answer's schema the importers read outputs (the
// lists of records and the pages that wrap them): deep enough for an id in a list inside a
// page (tracks.items[].uri), and a stop for a schema that nests without end.
const MaxOutputDepth = 6

// NestedName is the output name of a field key found inside the objects and lists named by
// parents (outermost first), given the names taken: the key where it is free, else joined to
// its parents' keys from the nearest out (a credits answer's own id taken, its cast's id is
// cast_id; a track's uri inside tracks.items is items_uri, then tracks_items_uri), else with
// "item" between the parents and the key (cast_id taken too: cast_item_id). ok is false when
// even that is taken. A top-level field (no parents) has its key or nothing.
func NestedName(taken map[string]bool, parents []string, key string) (name string, ok bool) {
	name = key
	for i := len(parents) - 1; i >= 0 && taken[name]; i-- {
		name = parents[i] + "_" + name
	}
	if taken[name] && len(parents) > 0 {
		name = strings.Join(parents, "_") + "_item_" + key
	}
	return name, !taken[name]
}
