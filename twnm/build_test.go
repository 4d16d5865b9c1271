package twnm

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm/embed"
)

func hashed(t testing.TB) embed.Embedder {
	t.Helper()
	h, err := embed.NewHashed(embed.HashedOptions{})
	require.NoError(t, err)
	return h
}

// travel is a small catalog whose providers name the same things differently.
var travel = Catalog{Name: "travel", APIs: []API{
	{Name: "Geocode", Description: "Coordinates of a city.",
		Inputs:  []Param{{Name: "city", Type: "string", Description: "Name of the city", Required: true}},
		Outputs: []Param{{Name: "latitude", Type: "number"}, {Name: "longitude", Type: "number"}}},
	{Name: "OpenGeo", Description: "Geocodes a place name.",
		Inputs:  []Param{{Name: "city_name", Type: "str", Description: "The city name", Required: true}},
		Outputs: []Param{{Name: "latitude", Type: "float"}, {Name: "longitude", Type: "float"}}},
	{Name: "GetWeatherForCoordinates", Description: "Current weather at coordinates.",
		Inputs:  []Param{{Name: "latitude", Type: "number", Required: true}, {Name: "longitude", Type: "number", Required: true}, {Name: "units", Type: "string"}},
		Outputs: []Param{{Name: "temperature", Type: "number"}}},
	{Name: "Clothing", Description: "What to wear.",
		Inputs: []Param{{Name: "humidity", Type: "float", Description: "Relative humidity in percentage.", Required: true}}},
	{Name: "Humidity", Description: "Humidity now.",
		Outputs: []Param{{Name: "humidity", Type: "float", Description: "Current humidity level."}}},
	{Name: "HotelDetails", Description: "Details of a hotel.",
		Inputs:  []Param{{Name: "hotel_id", Type: "int", Required: true}},
		Outputs: []Param{{Name: "name", Type: "string", Description: "Hotel name"}}},
}}

func TestBuildUnifiesParametersByMeaning(t *testing.T) {
	g, err := Build(context.Background(), travel, BuildOptions{Embedder: hashed(t)})
	require.NoError(t, err)

	city, ok := g.ParamOf("Geocode", "city", true)
	require.True(t, ok)
	cityName, _ := g.ParamOf("OpenGeo", "city_name", true)
	assert.Equal(t, city, cityName, "city and city_name are one parameter node")
	assert.ElementsMatch(t, []string{"Geocode.city", "OpenGeo.city_name"}, g.Node(city).Members)

	// Outputs of both geocoders feed the weather API's inputs through shared nodes.
	lat, _ := g.ParamOf("GetWeatherForCoordinates", "latitude", true)
	geoLat, _ := g.ParamOf("Geocode", "latitude", false)
	openLat, _ := g.ParamOf("OpenGeo", "latitude", false)
	assert.Equal(t, lat, geoLat)
	assert.Equal(t, lat, openLat)
	assert.ElementsMatch(t, []NodeID{mustAPI(t, g, "Geocode"), mustAPI(t, g, "OpenGeo")}, g.Producers(lat))

	// latitude and longitude look alike but are two inputs of one API: never one node.
	lon, _ := g.ParamOf("GetWeatherForCoordinates", "longitude", true)
	assert.NotEqual(t, lat, lon)
	// A hotel's name is a string that shares a word with city_name, but not its meaning here.
	hotelName, _ := g.ParamOf("HotelDetails", "name", false)
	assert.NotEqual(t, city, hotelName)

	in := g.Inputs(mustAPI(t, g, "GetWeatherForCoordinates"))
	require.Len(t, in, 3)
	assert.True(t, in[0].Required && in[1].Required && !in[2].Required, "required inputs first")
	assert.Equal(t, "units", g.Node(in[2].From).Name)
	assert.Len(t, g.Node(mustAPI(t, g, "Geocode")).Embedding, embed.DefaultDim)

	// The same name joins whatever the descriptions say.
	in1, _ := g.ParamOf("Clothing", "humidity", true)
	out1, _ := g.ParamOf("Humidity", "humidity", false)
	assert.Equal(t, in1, out1)
}

func TestIntegrateNewTool(t *testing.T) {
	ctx := context.Background()
	g, err := Build(ctx, travel, BuildOptions{Embedder: hashed(t)})
	require.NoError(t, err)
	nodes, edges := g.Len(), len(g.Edges())

	require.NoError(t, g.Integrate(ctx, API{Name: "AirQuality", Description: "Air quality at coordinates.",
		Inputs:  []Param{{Name: "latitude", Type: "number", Required: true}, {Name: "longitude", Type: "number", Required: true}},
		Outputs: []Param{{Name: "aqi", Type: "int"}}}))
	assert.Equal(t, nodes+2, g.Len(), "one API node and one new parameter (aqi); coordinates are reused")
	assert.Equal(t, edges+3, len(g.Edges()))
	aq := mustAPI(t, g, "AirQuality")
	assert.Zero(t, g.Node(aq).Success+g.Node(aq).Failure)
	for _, e := range g.In(aq) {
		assert.Equal(t, StructuralWeight, e.Strength(), "weighted like every structural edge")
	}

	err = g.Integrate(ctx, API{Name: "AirQuality"})
	require.ErrorContains(t, err, "already in the graph")
	err = g.Integrate(ctx, API{Name: "Bad", Inputs: []Param{{Name: ""}}})
	require.ErrorContains(t, err, "field name is empty")
	assert.Equal(t, nodes+2, g.Len(), "a rejected tool leaves the graph unchanged")
}

func TestRetrieve(t *testing.T) {
	ctx := context.Background()
	emb := hashed(t)
	g, err := Build(ctx, travel, BuildOptions{Embedder: emb})
	require.NoError(t, err)

	got, err := g.Retrieve(ctx, emb, "weather temperature at coordinates", 2)
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, "GetWeatherForCoordinates", got[0].Name)
	assert.GreaterOrEqual(t, got[0].Score, got[1].Score)

	require.NoError(t, g.SetStatus("GetWeatherForCoordinates", Pruned))
	got, err = g.Retrieve(ctx, emb, "weather temperature at coordinates", 10)
	require.NoError(t, err)
	assert.Len(t, got, 5, "the pruned API is skipped")
	for _, m := range got {
		assert.NotEqual(t, "GetWeatherForCoordinates", m.Name)
	}
}

// movies is a catalog whose similar-movies API both needs and gives a movie id.
var movies = Catalog{Name: "movies", APIs: []API{
	{Name: "SearchMovie", Description: "Search movies by title.",
		Inputs:  []Param{{Name: "query", Type: "string", Required: true}},
		Outputs: []Param{{Name: "movie_id", Type: "integer"}}},
	{Name: "Similar", Description: "Movies similar to a movie.",
		Inputs:  []Param{{Name: "movie_id", Type: "integer", Required: true}},
		Outputs: []Param{{Name: "movie_id", Type: "integer"}}},
	{Name: "Reviews", Description: "Reviews of a movie.",
		Inputs: []Param{{Name: "movie_id", Type: "integer", Required: true}, {Name: "language", Type: "string"}}},
	{Name: "Trending", Description: "Trending movies today.", Outputs: []Param{{Name: "title", Type: "string"}}},
	{Name: "PersonImages", Description: "Photos of a person.", Inputs: []Param{{Name: "person_id", Type: "integer", Required: true}}},
}}

func TestRequires(t *testing.T) {
	g, err := Build(context.Background(), movies, BuildOptions{Embedder: hashed(t)})
	require.NoError(t, err)
	movie, ok := g.ParamOf("Reviews", "movie_id", true)
	require.True(t, ok)
	lang, _ := g.ParamOf("Reviews", "language", true)
	assert.True(t, g.Requires(mustAPI(t, g, "Similar"), movie), "Similar needs the movie id it gives")
	assert.False(t, g.Requires(mustAPI(t, g, "SearchMovie"), movie), "the search starts from a title")
	assert.False(t, g.Requires(mustAPI(t, g, "Reviews"), lang), "an optional input is not required")
}

func TestTypesCompatible(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"str", "string", true}, {"int", "float", true}, {"", "object", true},
		{"string", "number", false}, {"bool", "str", false}, {"Widget", "widget", true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, typesCompatible(tt.a, tt.b), "%s vs %s", tt.a, tt.b)
	}
}

func mustAPI(t testing.TB, g *Graph, name string) NodeID {
	t.Helper()
	id, ok := g.APIByName(name)
	require.True(t, ok, name)
	return id
}

func TestOwnName(t *testing.T) {
	for name, want := range map[string]string{
		"stay.SearchHotels":          "SearchHotels",
		"GET_movie-movie_id-credits": "GET_movie-movie_id-credits",
		"a.b.Lookup":                 "Lookup",
		"":                           "",
	} {
		assert.Equal(t, want, OwnName(name), name)
	}
}

// TestTypeClass checks that a list or a map is one class however the catalog writes it
// (toolspec.TypeKind): API-Bank's "list(str)" and "list" are lists, not a name of their own.
func TestTypeClass(t *testing.T) {
	for typ, want := range map[string]string{
		"str": "string", "int": "number", "list": "array", "list(str)": "array", "List[str]": "array",
		"dict": "object", "json": "object", "": "", "ENUM": "enum",
	} {
		assert.Equal(t, want, typeClass(typ), typ)
	}
	assert.True(t, sameShape("list(str)", "list"))
	assert.False(t, sameShape("list(str)", "str"))
	assert.True(t, sameShape("str", "int"), "a number and a string may be the same id")
}
