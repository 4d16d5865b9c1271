package twnm

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm/embed"
)

func TestConcept(t *testing.T) {
	tests := []struct {
		name, noun string
		want       []string
	}{
		{"placeId", "trip", []string{"place", "id"}},
		{"originPlaceId", "trip", []string{"origin", "place", "id"}},
		{"post_ids", "user", []string{"post", "id"}},
		{"id", "person", []string{"person", "id"}},                      // generic: the API's noun in front
		{"ID", "", []string{"id"}},                                      // no noun to give
		{"price_per_night", "hotel", []string{"price"}},                 // a rate is what comes before "per"
		{"number_of_nights", "hotel", []string{"number", "night"}},      // stop words out
		{"destination_name", "flight", []string{"destination", "name"}}, // a role qualifies the name
		{"status", "order", []string{"status"}},                         // singular leaves "status" alone
		{"categories", "shop", []string{"category"}},
		{"lat", "city", []string{"latitude"}},                  // abbreviations spelled out
		{"originLng", "trip", []string{"origin", "longitude"}}, // also inside a name
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, concept(Param{Name: tt.name}, tt.noun), tt.name)
	}
	// A typed list item's field is read by its own key, with its resource's noun.
	assert.Equal(t, []string{"movie", "id"}, concept(Param{Name: "cast_id", Path: "cast[].id", Entity: "movie"}, "person"))
	assert.Equal(t, []string{"movie", "id"}, concept(Param{Name: "id", Entity: "movie"}, "person"))
}

func TestResourceNoun(t *testing.T) {
	ep := func(path string) *Endpoint { return &Endpoint{Method: "GET", Path: path} }
	tests := []struct {
		api  API
		want string
	}{
		{API{Name: "GET_search-person", Endpoint: ep("/search/person")}, "person"},
		{API{Name: "GET_movie-top_rated", Endpoint: ep("/movie/top_rated")}, "movie"},
		{API{Name: "x", Endpoint: ep("/person/{person_id}/images")}, "person"},
		{API{Name: "x", Endpoint: ep("https://api.example.com/v2/pets/{id}")}, "pet"},
		{API{Name: "SearchHotels"}, "hotel"},
		{API{Name: "GetUserToken"}, "user"},
		{API{Name: "get_all"}, ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, resourceNoun(tt.api), tt.api.Name)
	}
}

func TestNounOf(t *testing.T) {
	// An answer that is a list holds the things its path lists: the forms of a site, the
	// submissions of a form. A top-level output, and an input, are about the path's resource.
	ep := func(path string) *Endpoint { return &Endpoint{Method: "GET", Path: path} }
	forms := API{Name: "listSiteForms", Endpoint: ep("/sites/{site_id}/forms")}
	tests := []struct {
		api  API
		p    Param
		want string
	}{
		{forms, Param{Name: "id", Path: "result[].id"}, "form"},
		{API{Name: "listFormSubmissions", Endpoint: ep("/forms/{form_id}/submissions")}, Param{Name: "id", Path: "result[].id"}, "submission"},
		{API{Name: "x", Endpoint: ep("/me/recently-played")}, Param{Name: "id", Path: "result[].id"}, "played"},
		{forms, Param{Name: "id"}, "site"}, // a top-level id is the site's
		{forms, Param{Name: "site_id"}, "site"},
		{API{Name: "getSite", Endpoint: ep("/sites/{site_id}")}, Param{Name: "id", Path: "result[].id"}, "site"}, // an item's path
		{API{Name: "SearchHotels"}, Param{Name: "id", Path: "result[].id"}, "hotel"},                             // no path
		// A nested getter's own outputs are the item it gets, by its last variable or the
		// collection that variable picks from; a variable that is no identifier says nothing.
		{API{Name: "getEvalRun", Endpoint: ep("/evals/{eval_id}/runs/{run_id}")}, Param{Name: "id"}, "run"},
		{API{Name: "FetchChannel", Endpoint: ep("/Services/{ServiceSid}/Channels/{Sid}")}, Param{Name: "sid"}, "channel"},
		{API{Name: "getPet", Endpoint: ep("/pets/{id}")}, Param{Name: "id"}, "pet"},
		{API{Name: "season", Endpoint: ep("/tv/{tv_id}/season/{season_number}")}, Param{Name: "id"}, "tv"},
		{API{Name: "getEvalRun", Endpoint: ep("/evals/{eval_id}/runs/{run_id}")}, Param{Name: "data", Path: "data.status"}, "eval"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, nounOf(tt.api, tt.p, resourceNoun(tt.api)), "%s %s", tt.api.Name, tt.p.Path)
	}
	// The form id each form of a site gives picks the form whose submissions are listed, and
	// feeds no site's id.
	sites := API{Name: "getSite", Endpoint: ep("/sites/{site_id}"), Inputs: []Param{{Name: "site_id", Type: "string", Required: true, In: InPath}}}
	forms.Inputs = sites.Inputs
	forms.Outputs = []Param{{Name: "id", Type: "string", Path: "result[].id"}, {Name: "name", Type: "string", Path: "result[].name"}}
	subs := API{Name: "listFormSubmissions", Endpoint: ep("/forms/{form_id}/submissions"),
		Inputs: []Param{{Name: "form_id", Type: "string", Required: true, In: InPath}}}
	links := FindLinks([]API{sites, forms, subs}, LinkOptions{})
	assert.Positive(t, linkOf(links, "listSiteForms", "id", "listFormSubmissions", "form_id"))
	assert.Zero(t, linkOf(links, "listSiteForms", "id", "getSite", "site_id"))
}

func TestLinkable(t *testing.T) {
	tests := []struct {
		p    Param
		want bool
	}{
		{Param{Name: "person_id", Type: "integer"}, true},
		{Param{Name: "message"}, false},    // free text
		{Param{Name: "email_body"}, false}, // free text, by its last word
		{Param{Name: "query"}, false},      // a search's own words
		{Param{Name: "include_adult", Type: "boolean"}, false},
		{Param{Name: "verified", Type: "bool"}, false}, // a flag
		{Param{Name: "page", Type: "integer"}, false},  // an option
		{Param{Name: "sort_by"}, false},
		{Param{Name: "max_price", Type: "number"}, false}, // a bound the user sets
		{Param{Name: "latitude", Type: "number"}, true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Linkable(tt.p), tt.p.Name)
	}
}

// linkOf returns the confidence FindLinks gives the flow, or 0 when it has no such link.
func linkOf(links []Link, from, output, to, input string) float64 {
	for _, l := range links {
		if l.From == from && l.Output == output && l.To == to && l.Input == input {
			return l.Confidence
		}
	}
	return 0
}

func TestFindLinks(t *testing.T) {
	apis := []API{
		{Name: "Place", Inputs: []Param{{Name: "address", Required: true}}, Outputs: []Param{{Name: "placeId", Type: "string"}}},
		{Name: "Arrivals", Inputs: []Param{{Name: "airport", Required: true}}, Outputs: []Param{{Name: "destinationPlaceId", Type: "string"}}},
		{Name: "Route", Inputs: []Param{{Name: "originPlaceId", Type: "string", Required: true}, {Name: "destinationPlaceId", Type: "string", Required: true}}},
		{Name: "OrganizationMembers", Inputs: []Param{{Name: "organization", Required: true}}, Outputs: []Param{{Name: "members", Type: "list"}}},
		{Name: "TravelStatus", Inputs: []Param{{Name: "member_name", Type: "str", Required: true}}, Outputs: []Param{{Name: "status", Type: "str"}}},
		{Name: "SearchPerson", Endpoint: &Endpoint{Method: "GET", Path: "/search/person"},
			Inputs: []Param{{Name: "query", Required: true}}, Outputs: []Param{{Name: "id", Type: "integer"}}},
		{Name: "PersonImages", Endpoint: &Endpoint{Method: "GET", Path: "/person/{person_id}/images"},
			Inputs: []Param{{Name: "person_id", Type: "integer", Required: true}}, Outputs: []Param{{Name: "id", Type: "integer"}, {Name: "file_path"}}},
		{Name: "SearchMovie", Endpoint: &Endpoint{Method: "GET", Path: "/search/movie"},
			Inputs: []Param{{Name: "query", Required: true}}, Outputs: []Param{{Name: "id", Type: "integer"}}},
	}
	links := FindLinks(apis, LinkOptions{})

	// Same words, the input alone naming a role: Dice 1, role 0.9.
	assert.InDelta(t, 0.9, linkOf(links, "Place", "placeId", "Route", "originPlaceId"), 1e-12)
	assert.InDelta(t, 0.9, linkOf(links, "Place", "placeId", "Route", "destinationPlaceId"), 1e-12)
	assert.InDelta(t, 1, linkOf(links, "Arrivals", "destinationPlaceId", "Route", "destinationPlaceId"), 1e-12)
	assert.Zero(t, linkOf(links, "Arrivals", "destinationPlaceId", "Route", "originPlaceId"), "a destination never feeds an origin")

	// members → member_name, by hand: N = 17 parameters; df(member) = 2, df(name) = 1.
	// Dice = 2·idf(member) / (idf(member)+idf(name) + idf(member)); a list into one value: ·0.9.
	n := 17.0
	m, name := math.Log(1+n/2), math.Log(1+n/1)
	assert.InDelta(t, 2*m/(2*m+name)*0.9, linkOf(links, "OrganizationMembers", "members", "TravelStatus", "member_name"), 1e-12)

	// A bare id is its API's noun's id: the person search's feeds person_id, the movie
	// search's does not, and the images' id, an echo of their own input, feeds nothing.
	assert.InDelta(t, 1, linkOf(links, "SearchPerson", "id", "PersonImages", "person_id"), 1e-12)
	assert.Zero(t, linkOf(links, "SearchMovie", "id", "PersonImages", "person_id"))
	for _, l := range links {
		assert.False(t, l.From == "PersonImages" && l.Output == "id", "echo: %+v", l)
		assert.NotEqual(t, "query", l.Input, "free text is not linked")
	}
}

func TestFindLinksKeepsTheBestPerInput(t *testing.T) {
	apis := []API{
		{Name: "Target", Inputs: []Param{{Name: "hotel_city_code", Required: true}}},
		{Name: "A", Outputs: []Param{{Name: "hotel_city_code"}}},
		{Name: "B", Outputs: []Param{{Name: "city_code"}}},
		{Name: "C", Outputs: []Param{{Name: "hotel_code"}}},
		{Name: "D", Outputs: []Param{{Name: "code"}}},
	}
	links := FindLinks(apis, LinkOptions{PerInput: 2, Near: 0.01})
	var from []string
	for _, l := range links {
		from = append(from, l.From)
	}
	// The input's own concept first, then the best other one; never more than PerInput.
	require.Len(t, from, 2)
	assert.Equal(t, "A", from[0])
}

// Parameters join a node by concept: a bare id by its API's noun, the same concept whatever
// number or string type it has, and a second node of a concept (a list where the first is a
// value) does not catch later members of the first.
func TestBuildClustersByConcept(t *testing.T) {
	ep := func(path string) *Endpoint { return &Endpoint{Method: "GET", Path: path} }
	c := Catalog{Name: "c", APIs: []API{
		{Name: "SearchPerson", Endpoint: ep("/search/person"), Inputs: []Param{{Name: "query", Required: true}}, Outputs: []Param{{Name: "id", Type: "integer"}}},
		{Name: "SearchMovie", Endpoint: ep("/search/movie"), Inputs: []Param{{Name: "query", Required: true}}, Outputs: []Param{{Name: "id", Type: "integer"}}},
		{Name: "PersonImages", Endpoint: ep("/person/{person_id}/images"), Inputs: []Param{{Name: "person_id", Type: "string", Required: true}}},
		{Name: "Clock", Inputs: []Param{{Name: "time", Type: "string", Required: true}}},
		{Name: "Slots", Outputs: []Param{{Name: "time", Type: "array"}}},
		{Name: "Alarm", Inputs: []Param{{Name: "time", Type: "string", Required: true}}},
		{Name: "Place", Outputs: []Param{{Name: "placeId", Type: "string"}}},
		{Name: "Route", Inputs: []Param{{Name: "originPlaceId", Type: "string", Required: true}, {Name: "destinationPlaceId", Type: "string", Required: true}}},
	}}
	g, err := Build(context.Background(), c, BuildOptions{Embedder: embed.Default()})
	require.NoError(t, err)
	node := func(api, param string, input bool) string {
		id, ok := g.ParamOf(api, param, input)
		require.True(t, ok, api+"."+param)
		return g.Node(id).Name
	}
	assert.Equal(t, "person_id", node("SearchPerson", "id", false))
	assert.Equal(t, "person_id", node("PersonImages", "person_id", true), "an integer id and a string id are one")
	assert.Equal(t, "movie_id", node("SearchMovie", "id", false))
	assert.Equal(t, "time", node("Clock", "time", true))
	assert.Equal(t, "time_2", node("Slots", "time", false), "a list of times is not a time")
	assert.Equal(t, "time", node("Alarm", "time", true))
	// Roles never share a node; the role-less place id feeds both through links.
	origin, destination := node("Route", "originPlaceId", true), node("Route", "destinationPlaceId", true)
	assert.NotEqual(t, origin, destination)
	assert.NotEqual(t, node("Place", "placeId", false), origin)
	for _, in := range []string{origin, destination} {
		e, ok := g.Edge(Feeds, mustParam(t, g, node("Place", "placeId", false)), mustParam(t, g, in))
		require.True(t, ok, in)
		assert.InDelta(t, 0.9, e.Confidence, 1e-12)
	}
	// The list of times feeds a time through a link (its first item).
	e, ok := g.Edge(Feeds, mustParam(t, g, "time_2"), mustParam(t, g, "time"))
	require.True(t, ok)
	assert.InDelta(t, 0.9, e.Confidence, 1e-12)
	assert.InDelta(t, 0.9, e.Strength(), 1e-12, "the confidence, until history says otherwise")
	e.Count, e.Weight = 2, 0.5
	assert.Equal(t, 0.5, e.Strength())
}

func mustParam(t *testing.T, g *Graph, name string) NodeID {
	t.Helper()
	id, ok := g.ParamByName(name)
	require.True(t, ok, name)
	return id
}

// chainOf searches target with known and relevance and returns the subgraph's APIs by name.
func chainOf(t *testing.T, g *Graph, target string, known map[string]string, relevance map[string]float64) []string {
	t.Helper()
	sub, err := DefaultAlphaBeta().Search(context.Background(), g, SearchRequest{Target: apiID(t, g, target), Known: known, Relevance: relevance})
	require.NoError(t, err)
	var names []string
	for _, a := range sub.APIs {
		names = append(names, g.Node(a).Name)
	}
	return names
}

// A value stated for one API's input binds that input, not every input of its parameter node:
// the coordinates given to the reverse geocoding are not the centre's that the weather needs.
func TestStatedValueBindsItsInputOnly(t *testing.T) {
	g := graphOf(t,
		API{Name: "geo.ReverseGeocode", Inputs: []Param{{Name: "latitude", Required: true}, {Name: "longitude", Required: true}}, Outputs: []Param{{Name: "city"}}},
		API{Name: "geo.Geocode", Inputs: []Param{{Name: "city", Required: true}}, Outputs: []Param{{Name: "latitude"}, {Name: "longitude"}}},
		API{Name: "weather.Current", Inputs: []Param{{Name: "latitude", Required: true}, {Name: "longitude", Required: true}}, Outputs: []Param{{Name: "temperature"}}},
	)
	stated := map[string]string{"geo.ReverseGeocode.latitude": "48.85", "geo.ReverseGeocode.longitude": "2.35"}
	assert.Equal(t, []string{"weather.Current", "geo.Geocode", "geo.ReverseGeocode"}, chainOf(t, g, "weather.Current", stated, nil))
	// Keyed by the parameter's name, a value binds it wherever it is an input.
	assert.Equal(t, []string{"weather.Current"}, chainOf(t, g, "weather.Current", map[string]string{"latitude": "48.85", "longitude": "2.35"}, nil))
}

// Among producers that bind an input equally well, the search takes the one that uses a value
// the request states, then the one retrieval found more relevant; never the first by name.
func TestSearchPrefersStatedValuesThenRelevance(t *testing.T) {
	g := graphOf(t,
		API{Name: "A_latest", Outputs: []Param{{Name: "movie_id"}}},
		API{Name: "B_search", Inputs: []Param{{Name: "query", Required: true}}, Outputs: []Param{{Name: "movie_id"}}},
		API{Name: "C_discover", Inputs: []Param{{Name: "query", Required: true}}, Outputs: []Param{{Name: "movie_id"}}},
		API{Name: "Reviews", Inputs: []Param{{Name: "movie_id", Required: true}}},
	)
	assert.Equal(t, []string{"Reviews", "A_latest"}, chainOf(t, g, "Reviews", nil, nil), "nothing stated: the producer with nothing to bind")
	assert.Equal(t, []string{"Reviews", "B_search"}, chainOf(t, g, "Reviews", map[string]string{"query": "Titanic"}, nil), "a stated value is used")
	assert.Equal(t, []string{"Reviews", "C_discover"}, chainOf(t, g, "Reviews", map[string]string{"query": "Titanic"},
		map[string]float64{"B_search": 0.2, "C_discover": 0.7}), "then relevance")
}

// Integrating a tool finds its links as building the whole catalog would.
func TestIntegrateFindsLinks(t *testing.T) {
	apis := []API{
		{Name: "Place", Inputs: []Param{{Name: "address", Required: true}}, Outputs: []Param{{Name: "placeId", Type: "string"}}},
		{Name: "Route", Inputs: []Param{{Name: "originPlaceId", Type: "string", Required: true}}, Outputs: []Param{{Name: "legs", Type: "array"}}},
		{Name: "Leg", Inputs: []Param{{Name: "leg_id", Type: "string", Required: true}}},
	}
	whole, err := Build(context.Background(), Catalog{Name: "c", APIs: apis}, BuildOptions{Embedder: embed.Default()})
	require.NoError(t, err)
	g, err := Build(context.Background(), Catalog{Name: "c", APIs: apis[:1]}, BuildOptions{Embedder: embed.Default()})
	require.NoError(t, err)
	for _, a := range apis[1:] {
		require.NoError(t, g.Integrate(context.Background(), a))
	}
	require.Len(t, feeds(whole), 2, "placeId → originPlaceId, legs → leg_id")
	assert.Equal(t, feeds(whole), feeds(g))
}

func TestFindLinksOneConceptWrittenTwoWays(t *testing.T) {
	apis := []API{
		{Name: "Login", Inputs: []Param{{Name: "password", Required: true}}, Outputs: []Param{{Name: "username", Type: "string"}}},
		{Name: "Profile", Inputs: []Param{{Name: "user_name", Type: "string", Required: true}}},
		{Name: "Zone", Outputs: []Param{{Name: "time_zone", Type: "array"}}},
		{Name: "Clock", Inputs: []Param{{Name: "timezone", Type: "string", Required: true}}},
	}
	links := FindLinks(apis, LinkOptions{})
	assert.InDelta(t, 1, linkOf(links, "Login", "username", "Profile", "user_name"), 1e-12)
	assert.InDelta(t, 0.9, linkOf(links, "Zone", "time_zone", "Clock", "timezone"), 1e-12, "a list into one value")
}

// failingEmbedder fails every call.
type failingEmbedder struct{}

func (failingEmbedder) Name() string { return "failing" }
func (failingEmbedder) Dim() int     { return 384 }
func (failingEmbedder) Embed(context.Context, []string) ([][]float64, error) {
	return nil, errors.New("the encoder is down")
}

func TestLinksBySimilarity(t *testing.T) {
	enc, err := embed.Open(embed.NameMiniLM)
	require.NoError(t, err, "the sentence encoder is installed by make models")
	weather := API{Name: "GetWeather", Inputs: []Param{{Name: "latitude", Type: "number", Required: true}},
		Outputs: []Param{{Name: "description", Type: "str", Description: "Weather description."}}}
	clothing := API{Name: "ClothingRecommendation",
		Inputs: []Param{{Name: "weather_conditions", Type: "str", Required: true, Description: "Description of weather conditions."}}}
	request := API{Name: "Request", Inputs: []Param{{Name: "name", Required: true}}, Outputs: []Param{{Name: "request_id", Type: "string", Description: "The id of the request."}}}
	contact := API{Name: "Contact", Inputs: []Param{{Name: "contact_id", Type: "string", Required: true, Description: "The id of the contact."}}}
	c := Catalog{Name: "c", APIs: []API{weather, clothing, request, contact}}

	g, err := Build(context.Background(), c, BuildOptions{Embedder: embed.Default(), APIEmbedder: enc})
	require.NoError(t, err)
	// The confidence is the cosine of the two texts (their words that are not generic, then
	// their descriptions; words singular), the types alike.
	vecs, err := enc.Embed(context.Background(), []string{"description. Weather description.", "weather condition. Description of weather conditions."})
	require.NoError(t, err)
	want := embed.Cosine(vecs[0], vecs[1])
	require.GreaterOrEqual(t, want, DefaultLinkOptions().Similar)
	got := feeds(g)
	assert.InDelta(t, want, got["description -> weather_conditions"], 1e-5)
	assert.NotContains(t, got, "request_id -> contact_id", "a shared id says nothing of what two values are")

	// Without the encoder, words alone link, and these share none.
	g, err = Build(context.Background(), c, BuildOptions{Embedder: embed.Default()})
	require.NoError(t, err)
	assert.Empty(t, feeds(g))

	// Integrating a tool links it alike; an encoder that fails leaves the graph as it was.
	g, err = Build(context.Background(), Catalog{Name: "c", APIs: []API{weather}}, BuildOptions{Embedder: embed.Default(), APIEmbedder: enc})
	require.NoError(t, err)
	require.NoError(t, g.Integrate(context.Background(), clothing))
	assert.InDelta(t, want, feeds(g)["description -> weather_conditions"], 1e-5)
	g.clusters.apiEmb = failingEmbedder{}
	before := len(g.APIs())
	err = g.Integrate(context.Background(), request)
	require.ErrorContains(t, err, "the encoder is down")
	assert.Len(t, g.APIs(), before)
	_, ok := g.APIByName("Request")
	assert.False(t, ok)
}

// Feeds and RequiredProducers see only inputs another call can feed: a status, a message or
// a page is bound from the request, so a call that outputs one feeds nothing through it.
func TestFeedsOnlyThroughFeedableInputs(t *testing.T) {
	apis := []API{
		{Name: "AddReminder", Inputs: []Param{{Name: "token", Required: true}}, Outputs: []Param{{Name: "status", Type: "str"}, {Name: "message"}}},
		{Name: "ForgotPassword", Inputs: []Param{{Name: "status", Type: "str", Required: true}, {Name: "message", Required: true}}},
		{Name: "Login", Inputs: []Param{{Name: "password", Required: true}}, Outputs: []Param{{Name: "token", Type: "str"}}},
	}
	g, err := Build(context.Background(), Catalog{Name: "c", APIs: apis}, BuildOptions{Embedder: embed.Default()})
	require.NoError(t, err)
	id := func(name string) NodeID {
		n, ok := g.APIByName(name)
		require.True(t, ok)
		return n
	}
	assert.False(t, g.Feeds(id("AddReminder"), id("ForgotPassword")), "a status and a message are the request's")
	assert.Empty(t, g.RequiredProducers(id("ForgotPassword")))
	assert.True(t, g.Feeds(id("Login"), id("AddReminder")))
	req := g.RequiredProducers(id("AddReminder"))
	require.Len(t, req, 1)
	for _, ps := range req {
		assert.Equal(t, []NodeID{id("Login")}, ps)
	}
}

// feeds maps each FEEDS edge of g, "output -> input" by parameter node names, to its
// confidence.
func feeds(g *Graph) map[string]float64 {
	m := map[string]float64{}
	for _, e := range g.Edges() {
		if e.Kind == Feeds {
			m[g.Node(e.From).Name+" -> "+g.Node(e.To).Name] = e.Confidence
		}
	}
	return m
}
