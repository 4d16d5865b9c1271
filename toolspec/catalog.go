package toolspec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Locations of an HTTP input parameter, the values of Param.In.
const (
	InQuery  = "query"
	InPath   = "path"
	InHeader = "header"
	InBody   = "body"
	InCookie = "cookie"
)

// Param is one typed input or output parameter of an API.
type Param struct {
	Name        string `json:"name"`
	Type        string `json:"type,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"` // inputs only
	// In is where an HTTP API takes the input: query, path, header, body or cookie. Inputs
	// only; empty for APIs that are not called over HTTP or whose source does not say.
	In string `json:"in,omitempty"`
	// Path is where an output's value lies inside the API's JSON answer, when not in its
	// top-level field Name: keys joined by dots, "[]" after a key taking the first item of its
	// list ("results[].id": the id of the first result; see Lookup). Outputs only.
	Path string `json:"path,omitempty"`
	// Entity is the resource an output inside a list item belongs to when the item is one of
	// the catalog's resources ("movie" for the cast of a person's movie credits; see
	// TypeListItems): a generic field of it (id, name) means that resource's, not the API's.
	// Outputs only.
	Entity string `json:"entity,omitempty"`
	// Enum lists the values an input accepts, as its schema gives them (numbers and booleans
	// as text); empty when any value of its type is accepted. A value outside them is never
	// bound to the input from the request: the run asks, offering them. Inputs only.
	Enum []string `json:"enum,omitempty"`
	// Pattern is the regular expression an input's values match, as its schema gives it
	// (OpenAPI's and JSON Schema's pattern: Discord's snowflake ids are "^(0|[1-9][0-9]*)$");
	// empty when any value of its type is accepted. A value it does not match is never bound
	// to the input from the request, nor sent in a call (see Matches). Inputs only.
	Pattern string `json:"pattern,omitempty"`
}

// patterns holds the compiled Param.Pattern expressions, nil for one Go does not read.
var patterns sync.Map // string → *regexp.Regexp

// Matches reports whether v is a value p accepts by its Pattern (see MatchesPattern).
func (p Param) Matches(v string) bool { return MatchesPattern(p.Pattern, v) }

// MatchesPattern reports whether v matches pattern, a Param.Pattern: true where it is empty,
// and where it is one Go's regexp package does not read (ECMA-262 lookarounds and
// backreferences), which then checks nothing rather than refusing every value. As in JSON
// Schema, the pattern matches anywhere in v unless it anchors itself.
func MatchesPattern(pattern, v string) bool {
	if pattern == "" {
		return true
	}
	re, ok := patterns.Load(pattern)
	if !ok {
		c, err := regexp.Compile(pattern)
		if err != nil {
			c = nil
		}
		re, _ = patterns.LoadOrStore(pattern, c)
	}
	c := re.(*regexp.Regexp)
	return c == nil || c.MatchString(v)
}

// Endpoint says how an API is called over HTTP.
type Endpoint struct {
	// Method is the HTTP method in upper case, e.g. GET.
	Method string `json:"method"`
	// Path is a path template ("/person/{person_id}") or a full URL; each {name} in it is
	// an input with In "path". Empty when the source gives only the method.
	Path string `json:"path,omitempty"`
	// BaseURL, when set, is the absolute URL the path is relative to.
	BaseURL string `json:"base_url,omitempty"`
}

// String gives the endpoint as "METHOD path", the form RestBench uses: "GET /search/person".
func (e Endpoint) String() string {
	if e.Path == "" {
		return e.Method
	}
	return e.Method + " " + e.Path
}

// Duration is a time.Duration whose JSON form is a Go duration string such as "30s" or
// "1m30s", so catalogs stay readable.
type Duration time.Duration

// String formats the duration as time.Duration does.
func (d Duration) String() string { return time.Duration(d).String() }

// MarshalText gives the Go duration string; encoding/json uses it for the JSON string form.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText parses a Go duration string ("500ms", "30s", "1h").
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("want a duration such as \"30s\": %w", err)
	}
	*d = Duration(v)
	return nil
}

// RetryHint is how the source suggests retrying a failed call. Zero fields leave the choice
// to the caller's defaults.
type RetryHint struct {
	MaxAttempts     int      `json:"max_attempts,omitempty"` // calls in all, the first included
	InitialInterval Duration `json:"initial_interval,omitempty"`
	MaxInterval     Duration `json:"max_interval,omitempty"`
}

// API is one tool operation: an API node of the graph, with its parameter nodes.
type API struct {
	Name        string     `json:"name"`
	Description string     `json:"description"`
	Provider    string     `json:"provider,omitempty"`
	Category    string     `json:"category,omitempty"`
	Tags        []string   `json:"tags,omitempty"`
	Endpoint    *Endpoint  `json:"endpoint,omitempty"`
	Inputs      []Param    `json:"inputs,omitempty"`
	Outputs     []Param    `json:"outputs,omitempty"`
	Retry       *RetryHint `json:"retry,omitempty"`
	// Timeout bounds one call; zero leaves it to the caller.
	Timeout Duration `json:"timeout,omitempty"`
	// Auth says how a call proves who it is: which secret it sends, and how. The catalog
	// names the secret, never its value; the tool call resolves it when it sends the request.
	Auth *Auth `json:"auth,omitempty"`
	// Effect is what a call changes (EffectRead, EffectIdempotent, EffectUnsafe); empty
	// means read for GET, HEAD and OPTIONS and unsafe for the other methods (CallEffect).
	Effect string `json:"effect,omitempty"`
	// MCP, when set, says that a Model Context Protocol server serves the API: a call goes
	// to that server's tool, not to an HTTP endpoint.
	MCP *MCPTool `json:"mcp,omitempty"`
	// Confirm is which calls of this API a run asks the user to confirm before sending them
	// (ConfirmNever, ConfirmDestructive, ConfirmWrites); empty leaves it to the catalog's
	// Confirm, then to the operator's default (see NeedsConfirm).
	Confirm string `json:"confirm,omitempty"`
	// Source is the source the API was imported from (navi tools import: a catalog, a spec
	// or an MCP server, by name); empty when unknown. A plan feeds an API from another
	// source's outputs only where the request asked for that source's tools too.
	Source string `json:"source,omitempty"`
	// Check names the API of the same catalog that tells whether a call of this one took
	// effect, for an API that honours no idempotency key (EffectUnsafe): it reads, takes
	// some of this API's inputs by the same names, and answers with what the call made, or
	// with nothing (an empty answer, or 404) when it made nothing. A call cut off with its
	// worker is then checked, not given up.
	Check string `json:"check,omitempty"`
}

// MCPTool is where a Model Context Protocol server serves an API: the server and the tool's
// name there. Server is "stdio:" and a command line, which the worker runs and speaks to over
// its standard input and output, or the http(s) URL of the server's streamable HTTP endpoint.
type MCPTool struct {
	Server string `json:"server"`
	Tool   string `json:"tool"`
	// Dir is the folder a stdio server's command runs in: the one the import ran in, so that
	// a relative path of the command line ("node server.mjs") means the same on the worker.
	Dir string `json:"dir,omitempty"`
	// Env is what a stdio server's environment holds beyond the worker's, as the import was
	// told it (navi tools import -env): "NAME=value" sets a value, kept in the catalog; a bare
	// "NAME" passes the worker's own value of NAME, for secrets, which the catalog never holds.
	Env []string `json:"env,omitempty"`
}

// Effects of a call, which decide whether a call cut off mid-flight may be sent again.
const (
	EffectRead       = "read"       // changes nothing
	EffectIdempotent = "idempotent" // changes something once per Idempotency-Key: a repeat with the key is safe
	EffectUnsafe     = "unsafe"     // changes something and honours no key: a repeat may do it twice
)

// Confirmation policies (API.Confirm, Catalog.Confirm, the operator's default): which calls a
// run asks the user to confirm, showing the call and its arguments, before it sends them.
const (
	ConfirmNever       = "never"       // none
	ConfirmDestructive = "destructive" // destructive calls, and writes whose inputs another call produced (the default)
	ConfirmWrites      = "writes"      // every call that changes state
)

// Destructive reports whether a call of a deletes or overwrites what it acts on: an HTTP
// DELETE, or an API tagged "destructive" (an MCP tool's destructiveHint).
func (a API) Destructive() bool {
	if a.Endpoint != nil && a.Endpoint.Method == "DELETE" {
		return true
	}
	for _, t := range a.Tags {
		if t == "destructive" {
			return true
		}
	}
	return false
}

// NeedsConfirm reports whether a call of a needs the user's yes before it is sent, under
// a.Confirm, or policy where a sets none ("" is ConfirmDestructive). fed says that another
// call's output is among its arguments: a write acting on what a read found (deleting the
// entities a search returned) is the user's to approve, not the planner's. A read never
// needs it.
func (a API) NeedsConfirm(policy string, fed bool) bool {
	if a.CallEffect() == EffectRead {
		return false
	}
	if a.Confirm != "" {
		policy = a.Confirm
	}
	switch policy {
	case ConfirmNever:
		return false
	case ConfirmWrites:
		return true
	}
	return a.Destructive() || fed
}

// CheckConfirm reports whether policy is a confirmation policy ("" included).
func CheckConfirm(policy string) error {
	switch policy {
	case "", ConfirmNever, ConfirmDestructive, ConfirmWrites:
		return nil
	}
	return fmt.Errorf("confirm is %q, want never, destructive or writes", policy)
}

// CallEffect is a.Effect, or the effect its method implies: read for GET, HEAD and OPTIONS
// (and an API with no endpoint), unsafe for the others.
func (a API) CallEffect() string {
	if a.Effect != "" {
		return a.Effect
	}
	if e := a.Endpoint; e != nil {
		switch e.Method {
		case "", "GET", "HEAD", "OPTIONS":
		default:
			return EffectUnsafe
		}
	}
	return EffectRead
}

// Auth schemes.
const (
	AuthBearer = "bearer" // Authorization: Bearer <secret>
	AuthHeader = "header" // <Name>: <secret>, an API key in a header
	AuthQuery  = "query"  // ?<Name>=<secret>, an API key in the query
	AuthBasic  = "basic"  // Authorization: Basic, the secret being "user:password"
)

// Auth is the credential of an API: Secret names it (a name the worker resolves from its
// environment or secret files), Scheme says how the request carries it, and Name is the
// header or query parameter of the header and query schemes.
type Auth struct {
	Scheme string `json:"scheme"`
	Name   string `json:"name,omitempty"`
	Secret string `json:"secret"`
}

// Callable reports whether the catalog says how to call the API: over HTTP, a method and an
// absolute URL (a base URL, or a full URL as the path); as an MCP tool, a server and a tool.
func (a API) Callable() bool {
	if m := a.MCP; m != nil {
		return m.Server != "" && m.Tool != ""
	}
	e := a.Endpoint
	if e == nil || e.Method == "" {
		return false
	}
	return absoluteURL(e.BaseURL) || absoluteURL(e.Path)
}

// absoluteURL reports whether s is an http or https URL with a host.
func absoluteURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// Catalog is a named set of APIs, as registered by one organisation or imported from one source.
type Catalog struct {
	Name string `json:"name"`
	APIs []API  `json:"apis"`
	// Confirm is the confirmation policy of the catalog's APIs that set none (API.Confirm);
	// DecodeCatalog gives it to them.
	Confirm string `json:"confirm,omitempty"`
}

// Validate reports the first record that cannot become a graph node, naming it and its field,
// then the first check (API.Check) that names no fit API of the catalog.
func (c Catalog) Validate() error {
	index, err := c.Index()
	if err != nil {
		return err
	}
	return c.validateChecks(index)
}

// Index validates each API on its own, without the checks that name other APIs (Validate
// adds those), and returns the position of each API by name.
func (c Catalog) Index() (map[string]int, error) {
	if len(c.APIs) == 0 {
		return nil, errors.New("catalog has no APIs")
	}
	seen := make(map[string]int, len(c.APIs))
	for i, a := range c.APIs {
		where := fmt.Sprintf("apis[%d]", i)
		if strings.TrimSpace(a.Name) == "" {
			return nil, fmt.Errorf("%s: field name is empty", where)
		}
		where = fmt.Sprintf("apis[%d] (%s)", i, a.Name)
		if j, dup := seen[a.Name]; dup {
			return nil, fmt.Errorf("%s: name repeats apis[%d]", where, j)
		}
		seen[a.Name] = i
		for _, ps := range []struct {
			field  string
			params []Param
		}{{"inputs", a.Inputs}, {"outputs", a.Outputs}} {
			names := make(map[string]bool, len(ps.params))
			for k, p := range ps.params {
				if strings.TrimSpace(p.Name) == "" {
					return nil, fmt.Errorf("%s: %s[%d]: field name is empty", where, ps.field, k)
				}
				if names[p.Name] {
					return nil, fmt.Errorf("%s: %s[%d]: parameter %q appears twice", where, ps.field, k, p.Name)
				}
				names[p.Name] = true
				if err := validateIn(p, ps.field == "inputs"); err != nil {
					return nil, fmt.Errorf("%s: %s[%d] (%s): %w", where, ps.field, k, p.Name, err)
				}
				if err := validatePath(p, ps.field == "inputs"); err != nil {
					return nil, fmt.Errorf("%s: %s[%d] (%s): %w", where, ps.field, k, p.Name, err)
				}
			}
		}
		if err := a.validateCall(); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
	}
	return seen, nil
}

// validateChecks checks each API's Check: another API of the catalog that reads, and that
// takes nothing the checked API does not.
func (c Catalog) validateChecks(index map[string]int) error {
	for i, a := range c.APIs {
		if a.Check == "" {
			continue
		}
		where := fmt.Sprintf("apis[%d] (%s): field check", i, a.Name)
		j, ok := index[a.Check]
		switch {
		case !ok:
			return fmt.Errorf("%s: %q is no API of the catalog", where, a.Check)
		case j == i:
			return fmt.Errorf("%s: an API cannot check itself", where)
		case c.APIs[j].CallEffect() != EffectRead:
			return fmt.Errorf("%s: %s is %s, and a check must only read", where, a.Check, c.APIs[j].CallEffect())
		}
		for _, in := range c.APIs[j].Inputs {
			if in.Required && paramIndex(a.Inputs, in.Name) < 0 {
				return fmt.Errorf("%s: %s requires input %q, which %s does not take", where, a.Check, in.Name, a.Name)
			}
		}
	}
	return nil
}

// validatePath checks an output's path and entity: on outputs only, keys that are not empty.
func validatePath(p Param, input bool) error {
	if p.Entity != "" && input {
		return fmt.Errorf("entity %q: only outputs have an entity", p.Entity)
	}
	if p.Path == "" {
		return nil
	}
	if input {
		return fmt.Errorf("path %q: only outputs have a path", p.Path)
	}
	for _, seg := range strings.Split(p.Path, ".") {
		if strings.TrimSuffix(seg, "[]") == "" {
			return fmt.Errorf("path %q: empty key", p.Path)
		}
	}
	return nil
}

// Lookup returns the value that path (see Param.Path) finds in v, and whether it finds one:
// keys of objects, separated by dots, where "key[]" takes the first item of key's list and
// "key[n]" its item n (from 0), as a plan may name another item than the first.
func Lookup(v any, path string) (any, bool) {
	for _, seg := range strings.Split(path, ".") {
		key, index, list := listItem(seg)
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[key]; !ok {
			return nil, false
		}
		if list {
			items, ok := v.([]any)
			if !ok || index >= len(items) {
				return nil, false
			}
			v = items[index]
		}
	}
	return v, true
}

// listItem splits a path segment into its key and, for "key[]" or "key[n]", the item it takes.
func listItem(seg string) (key string, index int, list bool) {
	open := strings.LastIndexByte(seg, '[')
	if open < 0 || !strings.HasSuffix(seg, "]") {
		return seg, 0, false
	}
	n := seg[open+1 : len(seg)-1]
	if n == "" {
		return seg[:open], 0, true
	}
	i, err := strconv.Atoi(n)
	if err != nil || i < 0 {
		return seg, 0, false
	}
	return seg[:open], i, true
}

// validateIn checks a parameter's HTTP location: a known one, and on inputs only.
func validateIn(p Param, input bool) error {
	switch {
	case p.In == "":
		return nil
	case !input:
		return fmt.Errorf("field in is %q, but only inputs have a location", p.In)
	}
	switch p.In {
	case InQuery, InPath, InHeader, InBody, InCookie:
	default:
		return fmt.Errorf("field in is %q, want query, path, header, body or cookie", p.In)
	}
	if p.In == InPath && !p.Required {
		// A path cannot be built without the value, whatever the source says.
		return errors.New("a path parameter must be required")
	}
	return nil
}

// httpMethods are the methods an Endpoint may name.
var httpMethods = map[string]bool{
	"GET": true, "HEAD": true, "POST": true, "PUT": true, "PATCH": true,
	"DELETE": true, "OPTIONS": true, "TRACE": true, "CONNECT": true, "QUERY": true,
}

// validateCall checks the endpoint against the inputs, and the retry and timeout hints.
func (a API) validateCall() error {
	var vars []string
	if e := a.Endpoint; e != nil {
		if !httpMethods[e.Method] {
			return fmt.Errorf("endpoint: field method is %q, want an HTTP method in upper case", e.Method)
		}
		if e.Path != "" && !strings.HasPrefix(e.Path, "/") && !isAbsURL(e.Path) {
			return fmt.Errorf("endpoint: field path is %q, want a path starting with / or an absolute http(s) URL", e.Path)
		}
		if e.BaseURL != "" && !strings.HasPrefix(e.BaseURL, "/") && !isAbsURL(e.BaseURL) {
			return fmt.Errorf("endpoint: field base_url is %q, want an absolute http(s) URL or a path starting with /", e.BaseURL)
		}
		var err error
		if vars, err = PathVars(e.Path); err != nil {
			return fmt.Errorf("endpoint: field path: %w", err)
		}
	}
	inPath := make(map[string]bool, len(vars))
	for _, v := range vars {
		inPath[v] = true
		k := paramIndex(a.Inputs, v)
		if k < 0 {
			return fmt.Errorf("endpoint: field path: {%s} names no input", v)
		}
		if in := a.Inputs[k].In; in != "" && in != InPath {
			return fmt.Errorf("inputs[%d] (%s): field in is %q, but the endpoint path has {%s}", k, v, in, v)
		}
	}
	for k, p := range a.Inputs {
		if p.In == InPath && !inPath[p.Name] {
			return fmt.Errorf("inputs[%d] (%s): field in is path, but the endpoint path has no {%s}", k, p.Name, p.Name)
		}
	}
	if r := a.Retry; r != nil {
		switch {
		case r.MaxAttempts < 0:
			return fmt.Errorf("retry: field max_attempts is %d, want 0 or more", r.MaxAttempts)
		case r.InitialInterval < 0:
			return fmt.Errorf("retry: field initial_interval is %s, want 0 or more", r.InitialInterval)
		case r.MaxInterval < 0:
			return fmt.Errorf("retry: field max_interval is %s, want 0 or more", r.MaxInterval)
		case r.MaxInterval > 0 && r.MaxInterval < r.InitialInterval:
			return fmt.Errorf("retry: field max_interval is %s, below initial_interval %s", r.MaxInterval, r.InitialInterval)
		}
	}
	if a.Timeout < 0 {
		return fmt.Errorf("field timeout is %s, want 0 or more", a.Timeout)
	}
	switch a.Effect {
	case "", EffectRead, EffectIdempotent, EffectUnsafe:
	default:
		return fmt.Errorf("field effect is %q, want read, idempotent or unsafe", a.Effect)
	}
	if err := CheckConfirm(a.Confirm); err != nil {
		return fmt.Errorf("field %w", err)
	}
	if au := a.Auth; au != nil {
		switch {
		case au.Scheme != AuthBearer && au.Scheme != AuthHeader && au.Scheme != AuthQuery && au.Scheme != AuthBasic:
			return fmt.Errorf("auth: field scheme is %q, want bearer, header, query or basic", au.Scheme)
		case strings.TrimSpace(au.Secret) == "":
			return fmt.Errorf("auth: field secret is empty: name the secret (its value never goes in a catalog)")
		case (au.Scheme == AuthHeader || au.Scheme == AuthQuery) && strings.TrimSpace(au.Name) == "":
			return fmt.Errorf("auth: scheme %s needs field name (the header or query parameter)", au.Scheme)
		}
	}
	for k, t := range a.Tags {
		if strings.TrimSpace(t) == "" {
			return fmt.Errorf("tags[%d]: tag is empty", k)
		}
	}
	return nil
}

// PathVars returns the names of the {name} variables of a path template, in order. It
// fails on an unbalanced or empty brace and on a name used twice.
func PathVars(path string) ([]string, error) {
	var vars []string
	for rest := path; ; {
		open := strings.IndexAny(rest, "{}")
		if open < 0 {
			return vars, nil
		}
		if rest[open] == '}' {
			return nil, fmt.Errorf("unmatched } in %q", path)
		}
		end := strings.IndexAny(rest[open+1:], "{}")
		if end < 0 || rest[open+1+end] == '{' {
			return nil, fmt.Errorf("unmatched { in %q", path)
		}
		name := rest[open+1 : open+1+end]
		if strings.TrimSpace(name) == "" {
			return nil, fmt.Errorf("empty {} in %q", path)
		}
		for _, v := range vars {
			if v == name {
				return nil, fmt.Errorf("{%s} appears twice in %q", name, path)
			}
		}
		vars = append(vars, name)
		rest = rest[open+end+2:]
	}
}

func paramIndex(ps []Param, name string) int {
	for k, p := range ps {
		if p.Name == name {
			return k
		}
	}
	return -1
}

// isAbsURL reports whether s is an absolute http or https URL. Braces of a template are
// replaced first, since url.Parse rejects them in a host.
func isAbsURL(s string) bool {
	u, err := url.Parse(strings.NewReplacer("{", "x", "}", "x").Replace(s))
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// DecodeCatalog reads a catalog in Navi's native JSON format and validates it. source names
// the input (a file path, usually) in errors.
//
// The format is the JSON form of Catalog:
//
//	{"name": "travel", "apis": [{"name": "Geocoding", "description": "...", "provider": "...",
//	  "category": "maps", "tags": ["geo"],
//	  "endpoint": {"method": "GET", "path": "/geocode", "base_url": "https://maps.example.com/v1"},
//	  "inputs": [{"name": "city", "type": "string", "description": "...", "required": true, "in": "query"}],
//	  "outputs": [{"name": "latitude", "type": "number"}],
//	  "retry": {"max_attempts": 3, "initial_interval": "1s", "max_interval": "30s"}, "timeout": "10s"}]}
//
// Unknown fields are errors, so a misspelt field is not silently dropped. An error inside
// one API record names the record as apis[i] (name).
func DecodeCatalog(r io.Reader, source string) (Catalog, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return Catalog{}, fmt.Errorf("catalog %s: %w", source, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var c Catalog
	if err := dec.Decode(&c); err != nil {
		return Catalog{}, fmt.Errorf("catalog %s: %s%w", source, locateRecord(data), describeJSONError(err))
	}
	if err := CheckConfirm(c.Confirm); err != nil {
		return Catalog{}, fmt.Errorf("catalog %s: field %w", source, err)
	}
	for i := range c.APIs {
		if c.APIs[i].Confirm == "" {
			c.APIs[i].Confirm = c.Confirm
		}
	}
	if err := c.Validate(); err != nil {
		return Catalog{}, fmt.Errorf("catalog %s: %w", source, err)
	}
	return c, nil
}

// locateRecord finds the first API record of a catalog that fails to decode on its own and
// returns "apis[i] (name): " for it, or "" when no single record is at fault (a syntax error,
// a bad top-level field). The whole-document error says what is wrong; this says where.
func locateRecord(data []byte) string {
	var doc struct {
		APIs []json.RawMessage `json:"apis"`
	}
	if json.Unmarshal(data, &doc) != nil {
		return ""
	}
	for i, raw := range doc.APIs {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		var a API
		if dec.Decode(&a) == nil {
			continue
		}
		var named struct {
			Name any `json:"name"`
		}
		if json.Unmarshal(raw, &named) == nil {
			if s, ok := named.Name.(string); ok && s != "" {
				return fmt.Sprintf("apis[%d] (%s): ", i, s)
			}
		}
		return fmt.Sprintf("apis[%d]: ", i)
	}
	return ""
}

// describeJSONError adds the byte offset to the JSON errors that carry one.
func describeJSONError(err error) error {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Errorf("invalid JSON at byte %d: %w", syn.Offset, err)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		return fmt.Errorf("field %s at byte %d: want %s, got JSON %s", typ.Field, typ.Offset, typ.Type, typ.Value)
	}
	return err
}

// EnumValues is a schema's enum as Param.Enum holds it: strings as they are, numbers and
// booleans as JSON writes them, the empty string and null left out (they mean "no value").
// nil when the enum lists an object or an array, which no request states.
func EnumValues(values []any) []string {
	var out []string
	for _, v := range values {
		switch x := v.(type) {
		case nil:
		case string:
			if x != "" {
				out = append(out, x)
			}
		case bool, float64, float32, int, int64, json.Number:
			b, _ := json.Marshal(x)
			out = append(out, string(b))
		default:
			return nil
		}
	}
	return out
}
