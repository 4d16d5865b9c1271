package toolspec

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeCatalogDemo(t *testing.T) {
	f, err := os.Open("../catalogs/api-bank-demo.json")
	require.NoError(t, err)
	defer f.Close()

	c, err := DecodeCatalog(f, "api-bank-demo.json")
	require.NoError(t, err)
	assert.Equal(t, "api-bank-demo", c.Name)
	require.Len(t, c.APIs, 14)
	var geo API
	for _, a := range c.APIs {
		if a.Name == "Geocoding" {
			geo = a
		}
	}
	require.Equal(t, "Geocoding", geo.Name)
	require.Len(t, geo.Inputs, 1)
	assert.Equal(t, Param{Name: "address", Type: "str", Description: "The address or place name to be converted.", Required: true}, geo.Inputs[0])
}

func TestDecodeCatalogErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"not json", `{"name": "x", "apis": [`, "catalog bad.json: "},
		{"syntax", `{"name": "x", "apis": [}`, "invalid JSON at byte 24"},
		{"wrong type", `{"name": "x", "apis": [{"name": 3}]}`, "field apis.name"},
		{"unknown field", `{"name": "x", "apis": [{"name": "A", "descripton": "typo"}]}`, `unknown field "descripton"`},
		{"empty", `{"name": "x", "apis": []}`, "catalog has no APIs"},
		{"no name", `{"apis": [{"name": "A"}, {"description": "d"}]}`, "apis[1]: field name is empty"},
		{"duplicate api", `{"apis": [{"name": "A"}, {"name": "A"}]}`, "apis[1] (A): name repeats apis[0]"},
		{"empty param", `{"apis": [{"name": "A", "inputs": [{"name": "q"}, {"type": "str"}]}]}`, "apis[0] (A): inputs[1]: field name is empty"},
		{"duplicate param", `{"apis": [{"name": "A", "outputs": [{"name": "id"}, {"name": "id"}]}]}`, `outputs[1]: parameter "id" appears twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeCatalog(strings.NewReader(tt.in), "bad.json")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.True(t, strings.HasPrefix(err.Error(), "catalog bad.json: "), err.Error())
		})
	}
}

func TestDecodeCatalogFull(t *testing.T) {
	in := `{"name": "tmdb", "apis": [{"name": "GET_person", "description": "Person details.",
	  "provider": "tmdb", "category": "movies", "tags": ["people"],
	  "endpoint": {"method": "GET", "path": "/person/{person_id}", "base_url": "https://api.themoviedb.org/3"},
	  "inputs": [{"name": "person_id", "type": "integer", "required": true, "in": "path"},
	             {"name": "language", "type": "string", "in": "query"}],
	  "outputs": [{"name": "name", "type": "string"}],
	  "retry": {"max_attempts": 3, "initial_interval": "500ms", "max_interval": "30s"}, "timeout": "1m30s"}]}`
	c, err := DecodeCatalog(strings.NewReader(in), "tmdb.json")
	require.NoError(t, err)
	a := c.APIs[0]
	assert.Equal(t, &Endpoint{Method: "GET", Path: "/person/{person_id}", BaseURL: "https://api.themoviedb.org/3"}, a.Endpoint)
	assert.Equal(t, "GET /person/{person_id}", a.Endpoint.String())
	assert.Equal(t, "movies", a.Category)
	assert.Equal(t, []string{"people"}, a.Tags)
	assert.Equal(t, Param{Name: "person_id", Type: "integer", Required: true, In: InPath}, a.Inputs[0])
	assert.Equal(t, &RetryHint{MaxAttempts: 3, InitialInterval: Duration(500 * time.Millisecond), MaxInterval: Duration(30 * time.Second)}, a.Retry)
	assert.Equal(t, Duration(90*time.Second), a.Timeout)

	// The JSON form round-trips, durations as Go duration strings.
	out, err := json.Marshal(c)
	require.NoError(t, err)
	assert.Contains(t, string(out), `"timeout":"1m30s"`)
	assert.Contains(t, string(out), `"initial_interval":"500ms"`)
	back, err := DecodeCatalog(bytes.NewReader(out), "round-trip")
	require.NoError(t, err)
	assert.Equal(t, c, back)
}

func TestDurationJSON(t *testing.T) {
	tests := []struct {
		in      string
		want    Duration
		wantErr string
	}{
		{`"30s"`, Duration(30 * time.Second), ""},
		{`"1h2m"`, Duration(time.Hour + 2*time.Minute), ""},
		{`"0s"`, 0, ""},
		{`"soon"`, 0, `want a duration such as "30s"`},
		{`30`, 0, "cannot unmarshal number"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var d Duration
			err := json.Unmarshal([]byte(tt.in), &d)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, d)
		})
	}
	b, err := json.Marshal(struct {
		T Duration `json:"t,omitempty"`
		U Duration `json:"u,omitempty"`
	}{T: Duration(2500 * time.Millisecond)})
	require.NoError(t, err)
	assert.JSONEq(t, `{"t": "2.5s"}`, string(b))
}

func TestDecodeCatalogNamesRecord(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"type error", `{"apis": [{"name": "A"}, {"name": "B", "inputs": {}}]}`, "apis[1] (B): field apis.inputs at byte"},
		{"unknown field", `{"apis": [{"name": "A", "inputs": [{"name": "q", "where": "query"}]}]}`, `apis[0] (A): json: unknown field "where"`},
		{"bad duration", `{"apis": [{"name": "A"}, {"name": "B", "timeout": "soon"}]}`, `apis[1] (B): want a duration`},
		{"unnamed", `{"apis": [{"name": 7}]}`, "apis[0]: field apis.name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeCatalog(strings.NewReader(tt.in), "bad.json")
			require.Error(t, err)
			assert.Contains(t, err.Error(), "catalog bad.json: "+tt.want)
		})
	}
}

func TestValidateCall(t *testing.T) {
	q := func(name string) Param { return Param{Name: name, In: InQuery} }
	pp := func(name string) Param { return Param{Name: name, In: InPath, Required: true} }
	ep := func(m, p string) *Endpoint { return &Endpoint{Method: m, Path: p} }
	tests := []struct {
		name string
		api  API
		want string // "" for valid
	}{
		{"plain", API{Name: "A"}, ""},
		{"method only", API{Name: "A", Endpoint: ep("GET", "")}, ""},
		{"full url", API{Name: "A", Endpoint: ep("GET", "https://x.example/{id}"), Inputs: []Param{pp("id")}}, ""},
		{"untyped path var", API{Name: "A", Endpoint: ep("GET", "/p/{id}"), Inputs: []Param{{Name: "id"}}}, ""},
		{"relative base", API{Name: "A", Endpoint: &Endpoint{Method: "POST", Path: "/x", BaseURL: "/api/v3"}}, ""},
		{"hints", API{Name: "A", Retry: &RetryHint{MaxAttempts: 2, InitialInterval: 1, MaxInterval: 1}, Timeout: 5}, ""},
		{"lower method", API{Name: "A", Endpoint: ep("get", "/x")}, `apis[0] (A): endpoint: field method is "get"`},
		{"relative path", API{Name: "A", Endpoint: ep("GET", "x/y")}, `endpoint: field path is "x/y"`},
		{"bad base", API{Name: "A", Endpoint: &Endpoint{Method: "GET", BaseURL: "ftp://x"}}, `endpoint: field base_url is "ftp://x"`},
		{"unbalanced", API{Name: "A", Endpoint: ep("GET", "/p/{id")}, "endpoint: field path: unmatched {"},
		{"stray close", API{Name: "A", Endpoint: ep("GET", "/p/id}")}, "endpoint: field path: unmatched }"},
		{"var twice", API{Name: "A", Endpoint: ep("GET", "/{a}/{a}"), Inputs: []Param{pp("a")}}, "{a} appears twice"},
		{"var without input", API{Name: "A", Endpoint: ep("GET", "/p/{id}")}, "endpoint: field path: {id} names no input"},
		{"var is query", API{Name: "A", Endpoint: ep("GET", "/p/{id}"), Inputs: []Param{q("id")}}, `inputs[0] (id): field in is "query", but the endpoint path has {id}`},
		{"path input not in path", API{Name: "A", Endpoint: ep("GET", "/p"), Inputs: []Param{q("x"), pp("id")}}, "inputs[1] (id): field in is path, but the endpoint path has no {id}"},
		{"path input no endpoint", API{Name: "A", Inputs: []Param{pp("id")}}, "inputs[0] (id): field in is path"},
		{"optional path input", API{Name: "A", Endpoint: ep("GET", "/p/{id}"), Inputs: []Param{{Name: "id", In: InPath}}}, "inputs[0] (id): a path parameter must be required"},
		{"bad in", API{Name: "A", Inputs: []Param{{Name: "x", In: "form"}}}, `inputs[0] (x): field in is "form"`},
		{"output in", API{Name: "A", Outputs: []Param{{Name: "x", In: InBody}}}, `outputs[0] (x): field in is "body", but only inputs`},
		{"negative attempts", API{Name: "A", Retry: &RetryHint{MaxAttempts: -1}}, "retry: field max_attempts is -1"},
		{"negative interval", API{Name: "A", Retry: &RetryHint{InitialInterval: -1}}, "retry: field initial_interval is -1ns"},
		{"max below initial", API{Name: "A", Retry: &RetryHint{InitialInterval: Duration(time.Minute), MaxInterval: Duration(time.Second)}}, "retry: field max_interval is 1s, below initial_interval 1m0s"},
		{"negative timeout", API{Name: "A", Timeout: Duration(-time.Second)}, "field timeout is -1s"},
		{"empty tag", API{Name: "A", Tags: []string{"x", " "}}, "tags[1]: tag is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Catalog{APIs: []API{tt.api}}.Validate()
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestAPICallable(t *testing.T) {
	tests := []struct {
		name string
		ep   *Endpoint
		want bool
	}{
		{"no endpoint", nil, false},
		{"method only", &Endpoint{Method: "GET"}, false},
		{"relative path", &Endpoint{Method: "GET", Path: "/x"}, false},
		{"relative base URL", &Endpoint{Method: "GET", Path: "/x", BaseURL: "/api"}, false},
		{"base URL", &Endpoint{Method: "GET", Path: "/x", BaseURL: "http://tools:8300"}, true},
		{"full URL as path", &Endpoint{Method: "POST", Path: "https://api.example.com/v1/x"}, true},
		{"no method", &Endpoint{Path: "https://api.example.com/v1/x"}, false},
		{"other scheme", &Endpoint{Method: "GET", BaseURL: "ftp://files"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, API{Name: "a", Endpoint: tt.ep}.Callable())
		})
	}
}

func TestLookup(t *testing.T) {
	v := map[string]any{"id": 1.0, "results": []any{map[string]any{"id": 2.0, "tags": []any{"a", "b"}}}, "empty": []any{},
		"owner": map[string]any{"name": "Ana"}}
	tests := []struct {
		path string
		want any
		ok   bool
	}{
		{"id", 1.0, true},
		{"results[].id", 2.0, true},
		{"results[].tags[]", "a", true},
		{"owner.name", "Ana", true},
		{"empty[].id", nil, false},
		{"results.id", nil, false}, // a list is not an object
		{"id[]", nil, false},       // nor is a number a list
		{"owner.age", nil, false},
		{"results[0].id", 2.0, true},
		{"results[].tags[1]", "b", true},
		{"results[1].id", nil, false}, // past the end
		{"results[x].id", nil, false}, // not an index
	}
	for _, tt := range tests {
		got, ok := Lookup(v, tt.path)
		assert.Equal(t, tt.ok, ok, tt.path)
		assert.Equal(t, tt.want, got, tt.path)
	}
}

func TestValidatePath(t *testing.T) {
	api := func(in, out Param) Catalog {
		return Catalog{Name: "c", APIs: []API{{Name: "A", Inputs: []Param{in}, Outputs: []Param{out}}}}
	}
	require.NoError(t, api(Param{Name: "q"}, Param{Name: "id", Path: "results[].id"}).Validate())
	assert.ErrorContains(t, api(Param{Name: "q", Path: "x"}, Param{Name: "id"}).Validate(), `only outputs have a path`)
	assert.ErrorContains(t, api(Param{Name: "q"}, Param{Name: "id", Path: "results..id"}).Validate(), `path "results..id": empty key`)
	require.NoError(t, api(Param{Name: "q"}, Param{Name: "id", Path: "results[].id", Entity: "movie"}).Validate())
	assert.ErrorContains(t, api(Param{Name: "q", Entity: "movie"}, Param{Name: "id"}).Validate(), `only outputs have an entity`)
}

func TestCallEffect(t *testing.T) {
	ep := func(m string) *Endpoint { return &Endpoint{Method: m, Path: "/x", BaseURL: "https://t.example"} }
	tests := []struct {
		api  API
		want string
	}{
		{API{Name: "a", Endpoint: ep("GET")}, EffectRead},
		{API{Name: "a", Endpoint: ep("POST")}, EffectUnsafe},
		{API{Name: "a", Endpoint: ep("DELETE")}, EffectUnsafe},
		{API{Name: "a", Endpoint: ep("POST"), Effect: EffectIdempotent}, EffectIdempotent},
		{API{Name: "a"}, EffectRead}, // not called over HTTP
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.api.CallEffect(), "%+v", tt.api)
	}
	bad := Catalog{Name: "c", APIs: []API{{Name: "a", Effect: "sometimes"}}}
	assert.ErrorContains(t, bad.Validate(), `field effect is "sometimes", want read, idempotent or unsafe`)
}

func TestValidateCheck(t *testing.T) {
	post := &Endpoint{Method: "POST", Path: "/orders", BaseURL: "https://shop.example"}
	order := API{Name: "PlaceOrder", Endpoint: post, Check: "FindOrder",
		Inputs: []Param{{Name: "sku", Required: true}, {Name: "buyer", Required: true}}}
	find := API{Name: "FindOrder", Inputs: []Param{{Name: "buyer", Required: true}, {Name: "since"}}}
	require.NoError(t, Catalog{Name: "c", APIs: []API{order, find}}.Validate())

	tests := []struct {
		name string
		edit func(o, f *API)
		want string
	}{
		{"unknown", func(o, _ *API) { o.Check = "Nope" }, `apis[0] (PlaceOrder): field check: "Nope" is no API of the catalog`},
		{"itself", func(o, _ *API) { o.Check = "PlaceOrder" }, "an API cannot check itself"},
		{"writes", func(_, f *API) { f.Endpoint = post }, "FindOrder is unsafe, and a check must only read"},
		{"needs more", func(_, f *API) { f.Inputs = append(f.Inputs, Param{Name: "order_id", Required: true}) },
			`FindOrder requires input "order_id", which PlaceOrder does not take`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, f := order, find
			f.Inputs = slices.Clone(find.Inputs)
			tt.edit(&o, &f)
			assert.ErrorContains(t, Catalog{Name: "c", APIs: []API{o, f}}.Validate(), tt.want)
		})
	}
}

func TestParamMatches(t *testing.T) {
	tests := []struct {
		pattern, value string
		want           bool
	}{
		{"", "anything", true},                             // no pattern: any value
		{"^(0|[1-9][0-9]*)$", "1045678901234567890", true}, // a Discord snowflake
		{"^(0|[1-9][0-9]*)$", "C01GEN4RL", false},          // a Slack channel id is none
		{"[0-9]+", "abc123", true},                         // unanchored, as in JSON Schema
		{"[0-9]+", "abc", false},
		{"^(?!x)a$", "b", true}, // a lookahead Go does not read checks nothing
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Param{Pattern: tt.pattern}.Matches(tt.value), "%q ~ %q", tt.pattern, tt.value)
	}
}
