package catalogs

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm"
)

const tmdbSpec = "testdata/restbench/tmdb_oas.json"

func TestOpenAPITMDB(t *testing.T) {
	c, err := OpenAPI(tmdbSpec)
	require.NoError(t, err)
	assert.Equal(t, "API", c.Name, "the spec's info.title")
	require.Len(t, c.APIs, 54)
	for _, a := range c.APIs {
		require.NotNil(t, a.Endpoint, a.Name)
		assert.Equal(t, "GET", a.Endpoint.Method, a.Name)
		assert.Equal(t, "https://api.themoviedb.org/3", a.Endpoint.BaseURL, a.Name)
	}

	a := api(t, c, "GET_search-person")
	assert.Equal(t, "GET /search/person", a.Endpoint.String())
	assert.Equal(t, "Search People. Search for people.", a.Description)
	assert.Equal(t, []twnm.Param{
		{Name: "query", Type: "string", Description: "Pass a text query to search. This value should be URI encoded.", Required: true, In: "query"},
		{Name: "page", Type: "integer", Description: "Specify which page to query.", In: "query"},
		{Name: "include_adult", Type: "boolean", Description: "Choose whether to inlcude adult (pornography) content in the results.", In: "query"},
		{Name: "region", Type: "string", Description: "Specify a ISO 3166-1 code to filter release dates. Must be uppercase.", In: "query"},
	}, a.Inputs)
	// Top-level properties, then the properties of the items of the "results" array, then
	// those of the items of each result's "known_for" list, a level deeper.
	assert.Equal(t, []string{"page", "results", "total_pages", "total_results",
		"adult", "id", "known_for", "name", "popularity", "profile_path"}, paramNames(a.Outputs[:10]))
	var knownForID twnm.Param
	for _, p := range a.Outputs {
		if p.Name == "known_for_id" {
			knownForID = p
		}
	}
	assert.Equal(t, "results[].known_for[].id", knownForID.Path,
		"a field two lists deep, named with its list's key since id is taken")
	assert.Equal(t, twnm.Param{Name: "results", Type: "array"}, a.Outputs[1])
	assert.Equal(t, twnm.Param{Name: "id", Type: "integer", Path: "results[].id", Entity: "person"}, a.Outputs[5],
		"the first result's id, a person's by the shape of the results")
	assert.Equal(t, "string", a.Outputs[9].Type, "profile_path through $ref image-path")

	// A path-level parameter, and a oneOf of plain types.
	a = api(t, c, "GET_person-person_id-movie_credits")
	assert.Equal(t, "GET /person/{person_id}/movie_credits", a.Endpoint.String())
	assert.Equal(t, []twnm.Param{{Name: "person_id", Type: "integer", Required: true, In: "path"}}, a.Inputs)
	assert.Equal(t, []string{"cast", "crew", "id"}, paramNames(a.Outputs[:3]))
	// The credits' own id is the person's; their cast's ids (the movies') are cast_id.
	var castID twnm.Param
	for _, p := range a.Outputs {
		if p.Name == "cast_id" {
			castID = p
		}
	}
	assert.Equal(t, twnm.Param{Name: "cast_id", Type: "integer", Path: "cast[].id", Entity: "movie"}, castID,
		"a movie's id: the cast items are shaped like GET /movie/{movie_id}'s answer")
	for _, p := range a.Outputs {
		if p.Name == "vote_average" {
			assert.Equal(t, "integer|number", p.Type)
		}
	}

	// A movie's credits: their cast have a cast_id of their own, so the cast's id is
	// cast_item_id, and it is a person's.
	a = api(t, c, "GET_movie-movie_id-credits")
	byName := map[string]twnm.Param{}
	for _, p := range a.Outputs {
		byName[p.Name] = p
	}
	assert.Equal(t, twnm.Param{Name: "cast_id", Type: "integer", Path: "cast[].cast_id"}, byName["cast_id"])
	assert.Equal(t, twnm.Param{Name: "cast_item_id", Type: "integer", Path: "cast[].id", Entity: "person"}, byName["cast_item_id"])
	// A list named for a resource holds it: a show's networks are networks.
	a = api(t, c, "GET_tv-tv_id")
	for _, p := range a.Outputs {
		if p.Path == "networks[].id" {
			assert.Equal(t, "network", p.Entity)
		}
	}
}

func TestOpenAPITMDBShared(t *testing.T) {
	c, err := OpenAPI(shared(t, "restbench/specs/tmdb_oas.json"))
	require.NoError(t, err)
	local, err := OpenAPI(tmdbSpec)
	require.NoError(t, err)
	assert.Equal(t, local, c, "testdata holds a copy of the whole file")
}

const petSpec = `openapi: 3.0.3
info: {title: pets, version: "1"}
servers:
  - url: https://{region}.pets.example/v1/
    variables: {region: {default: eu}}
paths:
  /pets/{pet_id}/owner/{owner_id}:
    parameters:
      - {name: pet_id, in: path, required: true, schema: {type: string}}
      - {name: verbose, in: query, schema: {type: boolean}}
    put:
      tags: [pets]
      summary: Set the owner
      parameters:
        - {name: verbose, in: query, required: true, schema: {type: boolean}, description: own}
        - {name: Authorization, in: header, schema: {type: string}}
        - {name: X-Trace, in: header, schema: {type: string}}
      requestBody:
        required: true
        content:
          application/json; charset=utf-8:
            schema:
              allOf:
                - $ref: '#/components/schemas/Named'
                - type: object
                  required: [since]
                  properties:
                    since: {type: string, format: date, description: from when}
                    verbose: {type: string}
      responses:
        "404": {description: none}
        "204": {description: no content}
        "201":
          description: set
          content:
            application/problem+json:
              schema:
                type: array
                items: {$ref: '#/components/schemas/Named'}
  /pets:
    post:
      operationId: addPet
      servers: [{url: /local}]
      requestBody:
        content:
          application/json:
            schema: {type: array, items: {type: string}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Tree'}
components:
  schemas:
    Named:
      type: object
      required: [name]
      properties:
        name: {type: string, description: the name}
    Tree:
      type: object
      properties:
        children: {type: array, items: {$ref: '#/components/schemas/Tree'}}
        label: {type: string}
`

func TestOpenAPIRules(t *testing.T) {
	c, err := OpenAPI(writeFile(t, "pets.yaml", petSpec))
	require.NoError(t, err)
	assert.Equal(t, "pets", c.Name)
	require.Len(t, c.APIs, 2)

	// Paths in sorted order: /pets first.
	add := c.APIs[0]
	assert.Equal(t, "addPet", add.Name)
	assert.Equal(t, &twnm.Endpoint{Method: "POST", Path: "/pets", BaseURL: "/local"}, add.Endpoint)
	assert.Equal(t, []twnm.Param{{Name: "body", Type: "array", In: "body"}}, add.Inputs, "a body that is not an object is one input")
	// A recursive schema: its array of objects adds the item's properties, whose names are
	// taken, under the list's name, found by their path in the first item.
	assert.Equal(t, []string{"children", "label", "children_children", "children_label"}, paramNames(add.Outputs))
	assert.Equal(t, "children[].label", add.Outputs[3].Path)
	assert.Empty(t, add.Outputs[1].Path, "a top-level field")

	put := c.APIs[1]
	assert.Equal(t, "PUT_pets_pet_id_owner_owner_id", put.Name, "no operationId")
	assert.Equal(t, "Set the owner", put.Description)
	assert.Equal(t, []string{"pets"}, put.Tags)
	assert.Equal(t, "pets", put.Provider)
	assert.Equal(t, &twnm.Endpoint{Method: "PUT", Path: "/pets/{pet_id}/owner/{owner_id}", BaseURL: "https://eu.pets.example/v1"}, put.Endpoint)
	assert.Equal(t, []twnm.Param{
		{Name: "pet_id", Type: "string", Required: true, In: "path"},
		{Name: "verbose", Type: "boolean", Description: "own", Required: true, In: "query"}, // the operation's declaration wins
		{Name: "X-Trace", Type: "string", In: "header"},                                     // Authorization is skipped
		{Name: "owner_id", Required: true, In: "path"},                                      // undeclared path variable
		{Name: "name", Type: "string", Description: "the name", Required: true, In: "body"}, // from allOf $ref
		{Name: "since", Type: "string", Description: "from when", Required: true, In: "body"},
	}, put.Inputs, "the body's verbose is dropped: a parameter has that name")
	// The first 2xx with JSON content (201, +json) is an array of objects: its item's
	// properties, found in the answer read under toolspec.ResultKey.
	assert.Equal(t, []twnm.Param{{Name: "name", Type: "string", Description: "the name", Path: "result[].name"}}, put.Outputs)
}

func TestOpenAPIErrors(t *testing.T) {
	head := "openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths:\n"
	ok := "      responses: {'200': {description: ok}}\n"
	tests := []struct {
		name, in, want string
	}{
		{"not yaml", "openapi: [", "openapi catalog"},
		{"swagger 2", "swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths: {}\n", `field openapi: want a 3.x version, got ""`},
		{"no operations", head + "  /a: {}\n", "field paths: no operations"},
		{"repeated operationId", head + "  /a:\n    get:\n      operationId: x\n" + ok + "  /b:\n    get:\n      operationId: x\n" + ok,
			"operation GET /b (x): field operationId: repeats that of GET /a"},
		{"parameter without name", head + "  /a:\n    get:\n      operationId: x\n      parameters: [{in: query}]\n" + ok,
			"operation GET /a (x): field parameters[0].name: missing or empty"},
		{"bad location", head + "  /a:\n    get:\n      parameters: [{name: q, in: body}]\n" + ok,
			`operation GET /a: field parameters[0] (q).in: want query, path, header or cookie, got "body"`},
		{"bad path", head + "  /a/{b:\n    get:\n" + ok, "operation GET /a/{b: path: unmatched {"},
		{"unresolved ref", head + "  /a:\n    get:\n      parameters: [{$ref: '#/components/parameters/nope'}]\n" + ok, `#/components/parameters/nope`},
		{"external ref refused", head + "  /a:\n    get:\n      parameters: [{$ref: 'other.yaml#/p'}]\n" + ok, `GET /a: $ref "other.yaml#/p" points into another file`},
		{"external component refused", head + "  /a:\n    get:\n" + ok + "components:\n  schemas: {s: {$ref: 'other.yaml#/s'}}\n", `components.schemas.s: $ref "other.yaml#/s" points into another file`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeFile(t, "spec.yaml", tt.in)
			_, _, _, err := LoadWith(p, FormatOpenAPI, LoadOptions{Strict: true})
			require.Error(t, err)
			assert.Contains(t, err.Error(), "openapi catalog "+p+": ")
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// Without -strict, an import keeps what it can: a bad operation is left out with a warning
// naming its method, path and field, vendor extensions are not read (not even an external
// $ref in one), a string boolean in additionalProperties is read as one, a server URL that is
// no URL as none, and a document with no server warns once and takes -base-url.
func TestOpenAPIKeepsWhatItCan(t *testing.T) {
	spec := "openapi: 3.0.0\ninfo: {title: t, version: '1', x-logo: {$ref: 'logo.yaml#/l'}}\npaths:\n" +
		"  /a:\n    get:\n      operationId: a\n      responses: {'200': {description: ok, content: {application/json: {schema: {type: object, additionalProperties: 'true', properties: {id: {type: string}}}}}}}\n" +
		"  /b:\n    get:\n      operationId: a\n      responses: {'200': {description: ok}}\n" +
		"  /c:\n    get:\n      operationId: c\n      parameters: [{in: query}]\n      responses: {'200': {description: ok}}\n" +
		"  /d:\n    get:\n      operationId: d\n      servers: [{url: 'https://'}]\n      responses: {'200': {description: ok}}\n" +
		"  /e:\n    $ref: 'paths/e.yaml'\n" +
		"  /f:\n    get:\n      operationId: f\n      responses: {'200': {$ref: 'responses.yaml#/ok'}}\n"
	p := writeFile(t, "spec.yaml", spec)
	c, warnings, err := Load(p, FormatOpenAPI)
	require.NoError(t, err)
	var names []string
	for _, a := range c.APIs {
		names = append(names, a.Name)
	}
	assert.Equal(t, []string{"a", "d"}, names)
	var said []string
	for _, w := range warnings {
		said = append(said, w.String())
	}
	all := strings.Join(said, "\n")
	assert.Contains(t, all, "GET /b (a): left out: field operationId: repeats that of GET /a")
	assert.Contains(t, all, "GET /c (c): left out: field parameters[0].name: missing or empty")
	assert.Contains(t, all, `paths./e: left out: $ref "paths/e.yaml" points into another file`)
	assert.Contains(t, all, `GET /f: left out: $ref "responses.yaml#/ok" points into another file`)
	assert.Contains(t, all, `read as the boolean true`)
	assert.Contains(t, all, "server URL https:// is no http(s) URL: read as none")
	assert.Contains(t, all, "2 of the 2 APIs have no server URL to call")
	assert.NotContains(t, all, "logo.yaml", "a vendor extension is not read")

	c, _, warnings, err = LoadWith(p, FormatOpenAPI, LoadOptions{BaseURL: "https://api.example.com/v2/"})
	require.NoError(t, err)
	for _, a := range c.APIs {
		assert.Equal(t, "https://api.example.com/v2", a.Endpoint.BaseURL, a.Name)
	}
	for _, w := range warnings {
		assert.NotContains(t, w.Message, "have no server URL to call")
	}
}

// Security schemes become the APIs' Auth: which secret, sent how; never a value.
func TestOpenAPIAuth(t *testing.T) {
	c, err := OpenAPI(tmdbSpec)
	require.NoError(t, err)
	assert.Equal(t, &twnm.Auth{Scheme: twnm.AuthQuery, Name: "api_key", Secret: "api.api_key"}, api(t, c, "GET_search-person").Auth,
		"TMDB's api_key in the query, named after the spec's title")

	spec := `openapi: 3.0.0
info: {title: Shop API, version: "1"}
security: [{token: []}]
components:
  securitySchemes:
    token: {type: http, scheme: bearer}
    key: {type: apiKey, in: header, name: X-Api-Key}
    login: {type: http, scheme: basic}
    crumb: {type: apiKey, in: cookie, name: sid}
paths:
  /a: {get: {operationId: a, responses: {"200": {description: ok}}}}
  /b: {get: {operationId: b, security: [{key: []}], responses: {"200": {description: ok}}}}
  /c: {get: {operationId: c, security: [{crumb: []}, {login: []}], responses: {"200": {description: ok}}}}
  /d: {get: {operationId: d, security: [], responses: {"200": {description: ok}}}}
`
	c, err = OpenAPI(writeFile(t, "shop.yaml", spec))
	require.NoError(t, err)
	byName := map[string]*twnm.Auth{}
	for _, a := range c.APIs {
		byName[a.Name] = a.Auth
	}
	assert.Equal(t, map[string]*twnm.Auth{
		"a": {Scheme: twnm.AuthBearer, Secret: "shop_api.token"},                  // the document's requirement
		"b": {Scheme: twnm.AuthHeader, Name: "X-Api-Key", Secret: "shop_api.key"}, // the operation's own
		"c": {Scheme: twnm.AuthBasic, Secret: "shop_api.login"},                   // a cookie cannot be sent: the next requirement
		"d": nil,                                                                  // an empty list: no auth
	}, byName)
	require.NoError(t, c.Validate())
}

// What an input accepts comes from its schema: the values it lists, and the pattern they
// match, through a $ref too (Discord's snowflakes), a body property's own as well, and a
// nullable value's or a wrapper's one schema.
func TestOpenAPIAcceptedValues(t *testing.T) {
	spec := `openapi: 3.0.0
info: {title: repos, version: "1"}
servers: [{url: "https://api.example"}]
paths:
  /issues:
    post:
      operationId: listIssues
      parameters:
        - {name: state, in: query, schema: {type: string, enum: [open, closed, all]}}
        - {name: per_page, in: query, schema: {type: integer, enum: [10, 50]}}
        - {name: sort, in: query, schema: {type: string, enum: ["", created, null]}, description: Sort by}
        - {name: channel_id, in: query, schema: {$ref: "#/components/schemas/Snowflake"}}
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                unit: {type: string, enum: [celsius, fahrenheit]}
                filter: {type: object, enum: [{a: 1}]}
                nonce: {type: string, pattern: "^[a-z0-9]{8}$"}
                tier: {anyOf: [{type: string, enum: [auto, flex]}, {type: "null"}]}
                owner: {allOf: [{$ref: "#/components/schemas/Snowflake"}], description: The owner.}
                either: {oneOf: [{type: string, enum: [a]}, {type: string, enum: [b]}]}
      responses:
        "200": {description: ok}
components:
  schemas:
    Snowflake: {type: string, pattern: "^(0|[1-9][0-9]*)$"}
`
	c, err := OpenAPI(writeFile(t, "repos.yaml", spec))
	require.NoError(t, err)
	require.Len(t, c.APIs, 1)
	enums, patterns := map[string][]string{}, map[string]string{}
	for _, p := range c.APIs[0].Inputs {
		enums[p.Name] = p.Enum
		if p.Pattern != "" {
			patterns[p.Name] = p.Pattern
		}
	}
	assert.Equal(t, map[string][]string{
		"state":      {"open", "closed", "all"},
		"per_page":   {"10", "50"},              // numbers as JSON writes them
		"sort":       {"created"},               // "" and null mean no value
		"unit":       {"celsius", "fahrenheit"}, // a body property's own
		"filter":     nil,                       // objects are no values a request states
		"channel_id": nil,
		"nonce":      nil,
		"tier":       {"auto", "flex"}, // a nullable value's, OpenAPI 3.1's way
		"owner":      nil,
		"either":     nil, // two alternatives: neither list is all it takes
	}, enums)
	assert.Equal(t, map[string]string{"channel_id": "^(0|[1-9][0-9]*)$", "nonce": "^[a-z0-9]{8}$",
		"owner": "^(0|[1-9][0-9]*)$"}, patterns) // through a wrapper of one schema
}

func TestOpenAPINestedOutputs(t *testing.T) {
	spec := `openapi: 3.0.0
info: {title: music, version: "1"}
servers: [{url: "https://api.example"}]
paths:
  /search:
    get:
      operationId: search
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  id: {type: string}
                  tracks:
                    type: object
                    properties:
                      total: {type: integer}
                      items:
                        type: array
                        items:
                          type: object
                          properties:
                            uri: {type: string, description: The track's URI.}
                            id: {type: string}
                            album:
                              type: object
                              properties:
                                id: {type: string}
`
	c, err := OpenAPI(writeFile(t, "music.yaml", spec))
	require.NoError(t, err)
	require.Len(t, c.APIs, 1)
	assert.Equal(t, []twnm.Param{
		{Name: "id", Type: "string"},
		{Name: "tracks", Type: "object"},
		{Name: "items", Type: "array", Path: "tracks.items"},
		{Name: "total", Type: "integer", Path: "tracks.total"},
		{Name: "album", Type: "object", Path: "tracks.items[].album"},
		{Name: "items_id", Type: "string", Path: "tracks.items[].id"},
		{Name: "uri", Type: "string", Description: "The track's URI.", Path: "tracks.items[].uri"},
	}, c.APIs[0].Outputs, "fields inside a page and its list of records, shallow first; a taken name joined to "+
		"its parents' keys; a record inside a record (the album) is one output")
}

// A parameter that carries the credential the API's security scheme sends is no input: a plan
// would feed it from another API's output or ask the user for a secret.
func TestOpenAPICredentialIsNoInput(t *testing.T) {
	spec := `{
  "openapi": "3.0.1",
  "info": {"title": "chat", "version": "1"},
  "servers": [{"url": "https://chat.example/api"}],
  "components": {"securitySchemes": {
    "oauth": {"type": "oauth2", "flows": {"implicit": {"authorizationUrl": "https://chat.example/oauth", "scopes": {}}}},
    "key": {"type": "apiKey", "in": "query", "name": "api_key"}}},
  "paths": {
    "/dnd.info": {"get": {"operationId": "dnd_info", "security": [{"oauth": []}],
      "parameters": [
        {"name": "token", "in": "query", "required": true, "schema": {"type": "string"}, "description": "Authentication token."},
        {"name": "user", "in": "query", "schema": {"type": "string"}}],
      "responses": {"200": {"description": "ok"}}}},
    "/oauth.revoke": {"post": {"operationId": "oauth_revoke", "security": [{"oauth": []}],
      "requestBody": {"content": {"application/json": {"schema": {"type": "object", "required": ["token"],
        "properties": {"token": {"type": "string", "description": "The token to revoke."}}}}}},
      "responses": {"200": {"description": "ok"}}}},
    "/movies": {"get": {"operationId": "movies", "security": [{"key": []}],
      "parameters": [
        {"name": "api_key", "in": "query", "required": true, "schema": {"type": "string"}},
        {"name": "token", "in": "query", "schema": {"type": "string"}, "description": "A page token."}],
      "responses": {"200": {"description": "ok"}}}}
  }
}`
	c, _, err := Load(writeFile(t, "chat.json", spec), FormatAuto)
	require.NoError(t, err)
	inputs := map[string][]string{}
	for _, a := range c.APIs {
		require.NotNil(t, a.Auth, a.Name)
		for _, p := range a.Inputs {
			inputs[a.Name] = append(inputs[a.Name], p.Name)
		}
	}
	assert.Equal(t, map[string][]string{
		"dnd_info":     {"user"},  // the bearer token it also lists as a parameter
		"oauth_revoke": {"token"}, // a token in the body is what the call acts on
		"movies":       {"token"}, // the API key is the credential; a token here is data
	}, inputs)
}
