package twnm

import (
	"math"
	"sort"
	"strings"
)

// An output inside a list item (cast[].id) belongs to the item, and the item is often one of
// the catalog's own resources: the cast of a person's movie credits are movies, the cast of a
// movie's credits are people. The field's name does not say which; its siblings do. An item
// with title, overview and release_date is shaped like what GET /movie/{movie_id} answers, so
// its bare id is a movie id. REST APIs embed their resources this way everywhere (a post's
// author, an order's items), which is why this reads the catalog's own getters, not any
// catalog's vocabulary.

// minEntityScore is the least share of an item's field weight that a resource's getter must
// answer too for the item to be that resource; entityMargin is how far ahead of the second
// resource the first must be.
const (
	minEntityScore = 0.3
	entityMargin   = 1.25
)

// entityShape is a resource of a catalog and the top-level fields its getter answers.
type entityShape struct {
	noun   string
	fields map[string]bool
}

// TypeListItems sets Entity on the generic fields (id, name…) of list items among c's outputs
// whose item is shaped like one of c's resources: a resource is what a getter returns, an API
// whose path ends in a parameter ("/person/{person_id}") and whose answer has a top-level id;
// an item is that resource when the fields it shares with the getter's answer carry at least
// 30% of its fields' weight (rare field names weigh more), in two fields or more, 1.25 times
// more than any other resource's, and it does not refer to the resource by a field of its
// own ("credit_id": the item is not the credit). A list whose name ends in a resource's noun
// ("networks", "production_companies") holds that resource, whatever its shape. An Entity
// already set is kept.
func TypeListItems(c *Catalog) {
	shapes := entityShapes(*c)
	if len(shapes) == 0 {
		return
	}
	df := map[string]int{}
	shaped := 0 // the resources a getter answers: only they have fields to weigh
	for _, s := range shapes {
		if len(s.fields) > 0 {
			shaped++
		}
		for f := range s.fields {
			df[f]++
		}
	}
	weight := func(f string) float64 { return math.Log(1 + float64(shaped)/float64(1+df[f])) }
	for i := range c.APIs {
		a := &c.APIs[i]
		for list, idx := range listItems(a.Outputs) {
			noun := namedEntity(list, shapes)
			if noun == "" {
				fields := map[string]bool{}
				for _, j := range idx {
					if k := lastKey(a.Outputs[j].Path); k != "id" {
						fields[k] = true
					}
				}
				noun = itemEntity(fields, shapes, weight)
			}
			if noun == "" {
				continue
			}
			for _, j := range idx {
				p := &a.Outputs[j]
				if p.Entity == "" && allGeneric(words(lastKey(p.Path))) {
					p.Entity = noun
				}
			}
		}
	}
}

// entityShapes returns c's resources by the getters that answer them, in noun order; the
// fields of getters of one resource are joined. A resource only an identifier in some path
// names (idNoun) has no fields.
func entityShapes(c Catalog) []entityShape {
	byNoun := map[string]map[string]bool{}
	for _, a := range c.APIs {
		if a.Endpoint == nil {
			continue
		}
		vars, err := PathVars(a.Endpoint.Path)
		if err != nil {
			continue
		}
		// Every identifier in a path names a resource, getter or not: Figma has no getter of
		// one comment, but DELETE /files/{file_key}/comments/{comment_id} says a comment has
		// an id, so the comments[].id a file's comments list is a comment's. Such a resource
		// has a name and no shape: a list's name can say it holds one (namedEntity), its
		// items' fields cannot.
		for _, v := range vars {
			if noun := idNoun(v); noun != "" && byNoun[noun] == nil {
				byNoun[noun] = map[string]bool{}
			}
		}
		if len(vars) == 0 || !strings.HasSuffix(strings.TrimRight(a.Endpoint.Path, "/"), "}") {
			continue
		}
		hasID := false
		for _, o := range a.Outputs {
			hasID = hasID || o.Path == "" && o.Name == "id"
		}
		if !hasID {
			continue
		}
		noun := varNoun(vars[len(vars)-1])
		if noun == "" {
			noun = resourceNoun(a)
		}
		if noun == "" {
			continue
		}
		if byNoun[noun] == nil {
			byNoun[noun] = map[string]bool{}
		}
		for _, o := range a.Outputs {
			if o.Path == "" && o.Name != "id" {
				byNoun[noun][o.Name] = true
			}
		}
	}
	shapes := make([]entityShape, 0, len(byNoun))
	for n, f := range byNoun {
		shapes = append(shapes, entityShape{noun: n, fields: f})
	}
	sort.Slice(shapes, func(i, j int) bool { return shapes[i].noun < shapes[j].noun })
	return shapes
}

// idNoun is the resource an identifier path variable names ("comment_id" → comment), "" for a
// variable that is no identifier ("season_number") or names nothing but the id.
func idNoun(v string) string {
	if ws := words(v); len(ws) < 2 || ws[len(ws)-1] != "id" {
		return ""
	}
	return varNoun(v)
}

// varNoun is what a path variable names: its words but the generic ones ("person_id" →
// person; "id" is one of them).
func varNoun(v string) string {
	var nouns []string
	for _, w := range words(v) {
		if !genericWords[w] {
			nouns = append(nouns, w)
		}
	}
	return strings.Join(nouns, " ")
}

// listItems groups the indexes of outputs that are fields of one list's items ("cast[].id")
// by the list's path ("cast[]").
func listItems(outs []Param) map[string][]int {
	m := map[string][]int{}
	for i, o := range outs {
		if j := strings.LastIndex(o.Path, "[]."); j >= 0 && !strings.Contains(o.Path[j+3:], ".") {
			m[o.Path[:j+2]] = append(m[o.Path[:j+2]], i)
		}
	}
	return m
}

// namedEntity returns the resource that a list's name names ("networks[]" → network,
// "production_companies[]" → company), or "".
func namedEntity(list string, shapes []entityShape) string {
	ws := words(lastKey(list))
	if len(ws) == 0 {
		return ""
	}
	for _, s := range shapes {
		if n := strings.Fields(s.noun); n[len(n)-1] == ws[len(ws)-1] {
			return s.noun
		}
	}
	return ""
}

// itemEntity returns the resource an item of these fields is, or "" when none is clear.
func itemEntity(fields map[string]bool, shapes []entityShape, weight func(string) float64) string {
	var total float64
	for f := range fields {
		total += weight(f)
	}
	if total == 0 {
		return ""
	}
	best, second, noun := 0.0, 0.0, ""
	for _, s := range shapes {
		if fields[strings.ReplaceAll(s.noun, " ", "_")+"_id"] {
			continue // the item refers to this resource; it is not one
		}
		var shared float64
		n := 0
		for f := range fields {
			if s.fields[f] {
				shared += weight(f)
				n++
			}
		}
		if n < 2 {
			continue // one shared field (a name) is no shape
		}
		switch score := shared / total; {
		case score > best:
			best, second, noun = score, best, s.noun
		case score > second:
			second = score
		}
	}
	if best < minEntityScore || best < entityMargin*second {
		return ""
	}
	return noun
}

// lastKey is the last key of an output path ("cast[].id" → "id").
func lastKey(path string) string {
	k := path[strings.LastIndex(path, ".")+1:]
	return strings.TrimSuffix(k, "[]")
}

func allGeneric(ws []string) bool {
	for _, w := range ws {
		if !genericWords[w] {
			return false
		}
	}
	return len(ws) > 0
}
