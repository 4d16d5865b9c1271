package twnm

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// entityCatalog is a small film catalog: two getters (a person, a movie) and lists whose
// items are one, the other, or neither.
func entityCatalog() Catalog {
	get := func(path string) *Endpoint { return &Endpoint{Method: "GET", Path: path} }
	out := func(names ...string) []Param {
		ps := make([]Param, len(names))
		for i, n := range names {
			ps[i] = Param{Name: n}
		}
		return ps
	}
	item := func(list string, names ...string) []Param {
		ps := make([]Param, len(names))
		for i, n := range names {
			ps[i] = Param{Name: list + "_" + n, Path: list + "[]." + n}
		}
		return ps
	}
	return Catalog{Name: "films", APIs: []API{
		{Name: "Person", Endpoint: get("/person/{person_id}"), Inputs: []Param{{Name: "person_id", Required: true, In: InPath}},
			Outputs: out("id", "name", "gender", "profile_path", "birthday")},
		{Name: "Movie", Endpoint: get("/movie/{movie_id}"), Inputs: []Param{{Name: "movie_id", Required: true, In: InPath}},
			Outputs: out("id", "title", "overview", "release_date", "poster_path")},
		{Name: "Network", Endpoint: get("/network/{network_id}"), Inputs: []Param{{Name: "network_id", Required: true, In: InPath}},
			Outputs: out("id", "name", "headquarters")},
		// Items shaped like a movie, though the API is about a person.
		{Name: "PersonCredits", Endpoint: get("/person/{person_id}/movie_credits"), Inputs: []Param{{Name: "person_id", Required: true, In: InPath}},
			Outputs: append(out("id", "cast"), item("cast", "id", "title", "overview", "release_date", "character")...)},
		// Items shaped like a person that refer to a credit by credit_id.
		{Name: "MovieCredits", Endpoint: get("/movie/{movie_id}/credits"), Inputs: []Param{{Name: "movie_id", Required: true, In: InPath}},
			Outputs: append(out("id", "crew"), item("crew", "id", "name", "gender", "profile_path", "credit_id")...)},
		// A list named for a resource; and one that shares a single field with any getter.
		{Name: "Show", Endpoint: get("/tv/{tv_id}"), Inputs: []Param{{Name: "tv_id", Required: true, In: InPath}},
			Outputs: append(append(out("id", "networks", "languages"), item("networks", "id", "logo")...), item("languages", "name", "iso")...)},
		// A resource no getter answers, named by an identifier in a path; a path number names none.
		{Name: "Comments", Endpoint: get("/movie/{movie_id}/comments"), Inputs: []Param{{Name: "movie_id", Required: true, In: InPath}},
			Outputs: item("comments", "id", "author")},
		{Name: "DeleteComment", Endpoint: &Endpoint{Method: "DELETE", Path: "/movie/{movie_id}/comments/{comment_id}"},
			Inputs: []Param{{Name: "movie_id", Required: true, In: InPath}, {Name: "comment_id", Required: true, In: InPath}}},
		{Name: "Season", Endpoint: get("/tv/{tv_id}/season/{season_number}"), Inputs: []Param{{Name: "tv_id", Required: true, In: InPath}, {Name: "season_number", Required: true, In: InPath}},
			Outputs: item("seasons", "id", "air_date")},
	}}
}

func TestTypeListItems(t *testing.T) {
	c := entityCatalog()
	TypeListItems(&c)
	entities := map[string]string{}
	for _, a := range c.APIs {
		for _, p := range a.Outputs {
			if p.Entity != "" {
				entities[a.Name+"."+p.Path] = p.Entity
			}
		}
	}
	assert.Equal(t, map[string]string{
		"PersonCredits.cast[].id":    "movie",
		"PersonCredits.cast[].title": "movie",
		"MovieCredits.crew[].id":     "person",
		"MovieCredits.crew[].name":   "person",
		"Show.networks[].id":         "network",
		"Comments.comments[].id":     "comment",
	}, entities, "fields that are not generic (character, logo) keep no entity; languages share one field only")
}

// The item weights by hand: PersonCredits' cast (title, overview, release_date, character)
// against the three getters, whose fields (id aside) are name×2, gender, profile_path,
// birthday, title, overview, release_date, poster_path, headquarters: weight log(1+3/(1+df)).
func TestItemEntityScore(t *testing.T) {
	shapes := entityShapes(entityCatalog())
	df := map[string]int{}
	for _, s := range shapes {
		for f := range s.fields {
			df[f]++
		}
	}
	w := func(f string) float64 { return math.Log(1 + 3/float64(1+df[f])) }
	assert.InDelta(t, math.Log(2.5), w("title"), 1e-12)
	assert.InDelta(t, math.Log(4), w("character"), 1e-12)
	// movie: title, overview, release_date shared = 3·log 2.5 of 3·log 2.5 + log 4 ≈ 0.67.
	fields := map[string]bool{"title": true, "overview": true, "release_date": true, "character": true}
	assert.Equal(t, "movie", itemEntity(fields, shapes, w))
	// person shares name and gender: (log 2 + log 2.5) / (log 2 + log 2.5 + 4·log 4) ≈ 0.22,
	// under the 0.3 floor.
	assert.Empty(t, itemEntity(map[string]bool{"name": true, "gender": true, "x": true, "y": true, "z": true, "u": true}, shapes, w))
}

func TestTypedItemsLink(t *testing.T) {
	c := entityCatalog()
	TypeListItems(&c)
	links := FindLinks(c.APIs, LinkOptions{})
	assert.Positive(t, linkOf(links, "PersonCredits", "cast_id", "Movie", "movie_id"), "a movie's id feeds movie_id")
	assert.Zero(t, linkOf(links, "PersonCredits", "cast_id", "Person", "person_id"))
	assert.Positive(t, linkOf(links, "MovieCredits", "crew_id", "Person", "person_id"))
	assert.Positive(t, linkOf(links, "Show", "networks_id", "Network", "network_id"))
}
