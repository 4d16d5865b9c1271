package catalogs

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/naviagent/navi/toolspec"
	"github.com/naviagent/navi/twnm"
)

// methodOrder is the order in which one path's operations become APIs.
var methodOrder = []string{"GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE", "CONNECT", "QUERY"}

// OpenAPI imports an OpenAPI 3 document (JSON or YAML) with kin-openapi. Local $refs are
// followed; references to other files or URLs are refused, so importing never reads beyond
// path. The document is not validated against the OpenAPI schema beyond what the mapping needs.
//
// Mapping, per operation, in path order then method order (GET, PUT, POST, DELETE, ...):
//   - Name is the operationId; without one, Identifier("METHOD /path"), e.g.
//     "GET_person_person_id" (with _2, _3, ... if taken). Repeated operationIds are an error.
//   - Description is the summary and the description, joined as "summary. description";
//     Tags are the operation's tags; Provider is the document's info.title, which also names
//     the catalog (the file name where there is no title).
//   - Endpoint is the method, the path template and the first server URL of the operation,
//     else of the path, else of the document, with server variables set to their defaults.
//   - Inputs: path-level then operation parameters (an operation parameter replaces a path-level
//     one of the same name and location), with In, Required (path parameters always), type and
//     description from the parameter or its schema; the Accept, Content-Type and Authorization
//     headers are skipped as OpenAPI says, and so is a query or header parameter that carries
//     the credential of the operation's security scheme (see withoutCredential); a name used in two locations keeps its first
//     parameter, since the graph knows a parameter by name. Then the properties of a JSON request body (In
//     "body", Required when the body schema lists them); a body that is not an object becomes
//     one input "body". A body property named like a parameter is dropped. A {name} of the path
//     template with no parameter becomes a required path input of no type.
//   - Outputs come from the first 2xx response (in code order) with JSON content: the
//     top-level properties of its schema, sorted by name. $refs are followed; allOf, oneOf and
//     anyOf members add their properties; a schema that is an array of objects stands for its
//     item. Then, for each top-level property that is an array of objects ("results" of a
//     search), the item's properties are added too, under their own names where not taken, so
//     that the "id" of a search result can feed a later {person_id}. Nested objects are not
//     expanded further. A list whose items are one of the spec's resources (by the list's
//     name or by the fields its items share with a getter's answer) marks their generic
//     fields with that resource (twnm.TypeListItems): the cast[].id of a person's movie
//     credits is a movie id.
//
// OpenAPI is Load(path, FormatOpenAPI) without the warnings: string booleans and numbers are
// read leniently.
func OpenAPI(path string) (twnm.Catalog, error) {
	c, _, err := Load(path, FormatOpenAPI)
	return c, err
}

// openAPIOp is one operation with where it came from.
type openAPIOp struct {
	method, path string
	item         *openapi3.PathItem
	op           *openapi3.Operation
}

func (o openAPIOp) label() string {
	if o.op.OperationID != "" {
		return fmt.Sprintf("operation %s %s (%s)", o.method, o.path, o.op.OperationID)
	}
	return fmt.Sprintf("operation %s %s", o.method, o.path)
}

// openAPIData maps an OpenAPI 3 document, or a Swagger 2.0 one converted to OpenAPI 3 by
// kin-openapi, given as JSON; name names the catalog when the document has no title. Strings
// written for booleans and numbers are read first (coerce), with warnings.
func openAPIData(data []byte, name string, swagger bool, o LoadOptions) (twnm.Catalog, []Warning, error) {
	var raw any
	if err := json.Unmarshal(data, &raw); err != nil {
		return twnm.Catalog{}, nil, err
	}
	var warnings []Warning
	if err := leaveOutExternal(raw, o.Strict, &warnings); err != nil {
		return twnm.Catalog{}, warnings, err
	}
	if err := coerce(raw, nil, &warnings); err != nil {
		return twnm.Catalog{}, warnings, err
	}
	data, err := json.Marshal(raw)
	if err != nil {
		return twnm.Catalog{}, warnings, err
	}
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = false
	var doc *openapi3.T
	if swagger {
		var doc2 openapi2.T
		if err := json.Unmarshal(data, &doc2); err != nil {
			return twnm.Catalog{}, warnings, err
		}
		if !strings.HasPrefix(doc2.Swagger, "2.") {
			return twnm.Catalog{}, warnings, fieldError("swagger", fmt.Errorf("want a 2.x version, got %q", doc2.Swagger))
		}
		if doc, err = swaggerToV3(&doc2, loader); err != nil {
			return twnm.Catalog{}, warnings, err
		}
	} else if doc, err = loader.LoadFromData(data); err != nil {
		return twnm.Catalog{}, warnings, err
	} else if !strings.HasPrefix(doc.OpenAPI, "3.") {
		return twnm.Catalog{}, warnings, fieldError("openapi", fmt.Errorf("want a 3.x version, got %q", doc.OpenAPI))
	}
	c, more, err := openAPIDoc(doc, name, o)
	return c, append(warnings, more...), err
}

// leaveOutExternal removes from a raw document the operations (and path items) that a $ref
// into another file makes up or feeds, each with a Warning naming it and the reference, or,
// when strict, fails at the first: an import reads one file, and a spec that keeps some
// operations elsewhere (DigitalOcean's) imports the rest. A reference elsewhere (a component)
// is left to coerce, which refuses it: what it feeds cannot be told.
func leaveOutExternal(raw any, strict bool, warnings *[]Warning) error {
	doc, _ := raw.(map[string]any)
	paths, _ := doc["paths"].(map[string]any)
	var left []Warning
	// leave records that path (a path item, or an operation) is left out for ref.
	leave := func(path []string, ref string) error {
		msg := fmt.Sprintf("$ref %q points into another file, and an import reads one file (bundle the spec first, e.g. redocly bundle)", ref)
		if strict {
			return fmt.Errorf("%s: %s", where(path), msg)
		}
		left = append(left, Warning{Where: where(path), Message: "left out: " + msg})
		return nil
	}
	operations := 0 // of the path items kept
	for _, p := range slices.Sorted(maps.Keys(paths)) {
		item, _ := paths[p].(map[string]any)
		shared := maps.Clone(item) // what the item's operations share: its $ref, parameters, servers
		maps.DeleteFunc(shared, func(k string, _ any) bool { return httpMethod(k) })
		if ref := externalRef(shared); ref != "" {
			if err := leave([]string{"paths", p}, ref); err != nil {
				return err
			}
			delete(paths, p)
			continue
		}
		for _, m := range slices.Sorted(maps.Keys(item)) {
			if !httpMethod(m) {
				continue
			}
			if ref := externalRef(item[m]); ref != "" {
				if err := leave([]string{"paths", p, m}, ref); err != nil {
					return err
				}
				delete(item, m)
				continue
			}
			operations++
		}
	}
	if len(left) > 0 && operations == 0 {
		return fmt.Errorf("every operation points into another file, and an import reads one file: bundle the spec first, e.g. redocly bundle (%d operations; the first: %s)", len(left), left[0].Where)
	}
	*warnings = append(*warnings, left...)
	return nil
}

// externalRef is the first $ref of v, in sorted key order, that points into another file; ""
// when none does. Vendor extensions, examples and defaults are data, not read.
func externalRef(v any) string {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if strings.HasPrefix(k, "x-") || dataKey(k) {
				continue
			}
			if s, ok := v[k].(string); ok && k == "$ref" && !strings.HasPrefix(s, "#") {
				return s
			}
			if ref := externalRef(v[k]); ref != "" {
				return ref
			}
		}
	case []any:
		for _, e := range v {
			if ref := externalRef(e); ref != "" {
				return ref
			}
		}
	}
	return ""
}

// swaggerToV3 converts a Swagger 2.0 document with kin-openapi. A null path item is an error
// naming it; a converter that panics on a document (it does on some malformed ones) gives an
// error, not a crash.
func swaggerToV3(doc2 *openapi2.T, loader *openapi3.Loader) (doc *openapi3.T, err error) {
	for p, item := range doc2.Paths {
		if item == nil {
			return nil, fieldError("paths."+p, errors.New("null, want a path item"))
		}
	}
	defer func() {
		if r := recover(); r != nil {
			doc, err = nil, fmt.Errorf("convert Swagger 2.0 to OpenAPI 3: the converter failed on this document (%v)", r)
		}
	}()
	if doc, err = openapi2conv.ToV3WithLoader(doc2, loader, nil); err != nil {
		return nil, fmt.Errorf("convert Swagger 2.0 to OpenAPI 3: %w", err)
	}
	return doc, nil
}

// openAPIDoc maps a loaded OpenAPI 3 document. An operation that cannot become an API is left
// out with a Warning, or, with o.Strict, fails the document.
func openAPIDoc(doc *openapi3.T, name string, o LoadOptions) (twnm.Catalog, []Warning, error) {
	c := twnm.Catalog{Name: name}
	var warnings []Warning
	// skip leaves op out with a warning, or fails the import when strict.
	skip := func(op openAPIOp, err error) error {
		if o.Strict {
			return fmt.Errorf("%s: %w", op.label(), err)
		}
		warnings = append(warnings, Warning{Where: strings.TrimPrefix(op.label(), "operation "), Message: "left out: " + err.Error()})
		return nil
	}
	if doc.Info != nil && doc.Info.Title != "" {
		c.Name = doc.Info.Title
	}
	var ops []openAPIOp
	if doc.Paths != nil {
		for _, p := range doc.Paths.Keys() {
			item := doc.Paths.Value(p)
			if item == nil {
				continue
			}
			byMethod := item.Operations()
			methods := make([]string, 0, len(byMethod))
			for m := range byMethod {
				methods = append(methods, strings.ToUpper(m))
			}
			sort.Slice(methods, func(i, j int) bool { return methodRank(methods[i]) < methodRank(methods[j]) })
			for _, m := range methods {
				if op := item.GetOperation(m); op != nil {
					ops = append(ops, openAPIOp{method: m, path: p, item: item, op: op})
				}
			}
		}
	}
	if len(ops) == 0 {
		return twnm.Catalog{}, warnings, fieldError("paths", fmt.Errorf("no operations"))
	}
	// Claim operationIds first, so that a generated name never takes one.
	taken := make(map[string]bool, len(ops))
	byID := make(map[string]string, len(ops))
	kept := ops[:0:0]
	for _, op := range ops {
		if id := op.op.OperationID; id != "" {
			if prev, dup := byID[id]; dup {
				if err := skip(op, fmt.Errorf("field operationId: repeats that of %s", prev)); err != nil {
					return twnm.Catalog{}, warnings, err
				}
				continue
			}
			byID[id] = op.method + " " + op.path
			taken[id] = true
		}
		kept = append(kept, op)
	}
	unserved := 0            // APIs with no absolute server URL
	badServers := []string{} // server URLs that are no URL ("https://"), read as none
	for _, op := range kept {
		a, err := openAPIOperation(doc, op, taken)
		if err == nil {
			if b := a.Endpoint.BaseURL; b != "" && !absoluteURL(b) && !strings.HasPrefix(b, "/") {
				if !slices.Contains(badServers, b) {
					badServers = append(badServers, b)
				}
				a.Endpoint.BaseURL = ""
			}
			a.Endpoint.BaseURL = withBase(a.Endpoint.BaseURL, o.BaseURL)
			_, err = twnm.Catalog{APIs: []twnm.API{a}}.Index()
		}
		if err != nil {
			if err := skip(op, err); err != nil {
				return twnm.Catalog{}, warnings, err
			}
			continue
		}
		if !absoluteURL(a.Endpoint.BaseURL) {
			unserved++
		}
		a.Provider = c.Name
		c.APIs = append(c.APIs, a)
	}
	if len(c.APIs) == 0 {
		return twnm.Catalog{}, warnings, fmt.Errorf("no operation could be imported (%d left out; the first: %s)", len(warnings), warnings[0])
	}
	if len(badServers) > 0 {
		warnings = append(warnings, Warning{Where: "servers", Message: fmt.Sprintf("server URL %s is no http(s) URL: read as none", strings.Join(badServers, ", "))})
	}
	if unserved > 0 {
		warnings = append(warnings, Warning{Where: "servers", Message: fmt.Sprintf(
			"%d of the %d APIs have no server URL to call (the document names none, or only a relative one): their calls fail until the spec is imported again with -base-url", unserved, len(c.APIs))})
	}
	twnm.TypeListItems(&c)
	if err := c.Validate(); err != nil {
		return twnm.Catalog{}, warnings, err
	}
	return c, warnings, nil
}

// withBase is the server URL of an operation given base (the -base-url of an import): base
// where the document names no server, base before a relative one ("/v1"), else the
// document's own.
func withBase(server, base string) string {
	base = strings.TrimSuffix(base, "/")
	switch {
	case base == "" || absoluteURL(server):
		return server
	case server == "":
		return base
	}
	return base + "/" + strings.TrimPrefix(server, "/")
}

// absoluteURL reports whether u is an http(s) URL with a host.
func absoluteURL(u string) bool {
	p, err := url.Parse(u)
	return err == nil && (p.Scheme == "http" || p.Scheme == "https") && p.Host != ""
}

// openAPIAuth maps the security an operation requires (its own, else the document's) to a
// twnm.Auth: the first requirement's first scheme, by name, that Navi can send. An API key
// in a header or the query is sent under its name; HTTP bearer, OAuth 2 and OpenID Connect
// send a bearer token; HTTP basic a "user:password" secret. The secret is named after the
// spec's title and the scheme ("tmdb.api_key"): a catalog never holds a value. A cookie key
// and unknown schemes give no Auth.
func openAPIAuth(doc *openapi3.T, op *openapi3.Operation) *twnm.Auth {
	reqs := doc.Security
	if op.Security != nil {
		reqs = *op.Security
	}
	if doc.Components == nil {
		return nil
	}
	prefix := identifierOr(specTitle(doc))
	for _, req := range reqs {
		names := make([]string, 0, len(req))
		for n := range req {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			ref := doc.Components.SecuritySchemes[n]
			if ref == nil || ref.Value == nil {
				continue
			}
			sc, secret := ref.Value, strings.ToLower(prefix)+"."+n
			switch {
			case sc.Type == "apiKey" && sc.In == "header" && sc.Name != "":
				return &twnm.Auth{Scheme: twnm.AuthHeader, Name: sc.Name, Secret: secret}
			case sc.Type == "apiKey" && sc.In == "query" && sc.Name != "":
				return &twnm.Auth{Scheme: twnm.AuthQuery, Name: sc.Name, Secret: secret}
			case sc.Type == "http" && strings.EqualFold(sc.Scheme, "basic"):
				return &twnm.Auth{Scheme: twnm.AuthBasic, Secret: secret}
			case sc.Type == "http" && strings.EqualFold(sc.Scheme, "bearer"), sc.Type == "oauth2", sc.Type == "openIdConnect":
				return &twnm.Auth{Scheme: twnm.AuthBearer, Secret: secret}
			}
		}
	}
	return nil
}

// specTitle is the spec's title, or "openapi".
func specTitle(doc *openapi3.T) string {
	if doc.Info != nil && doc.Info.Title != "" {
		return doc.Info.Title
	}
	return "openapi"
}

func methodRank(m string) int {
	for i, x := range methodOrder {
		if x == m {
			return i
		}
	}
	return len(methodOrder)
}

func openAPIOperation(doc *openapi3.T, o openAPIOp, taken map[string]bool) (twnm.API, error) {
	a := twnm.API{
		Name:        o.op.OperationID,
		Description: joinSummary(o.op.Summary, o.op.Description),
		Tags:        nonEmpty(o.op.Tags),
		Endpoint:    &twnm.Endpoint{Method: o.method, Path: o.path, BaseURL: serverURL(doc, o)},
	}
	if a.Name == "" {
		a.Name = uniqueName(identifierOr(o.method+" "+o.path), taken)
	}
	var err error
	if a.Inputs, err = openAPIInputs(o); err != nil {
		return twnm.API{}, err
	}
	if a.Outputs, err = openAPIOutputs(o.op); err != nil {
		return twnm.API{}, err
	}
	a.Auth = openAPIAuth(doc, o.op)
	a.Inputs = withoutCredential(a.Inputs, a.Auth)
	return a, nil
}

// withoutCredential leaves out the inputs that carry the credential auth sends: a parameter
// a spec lists besides its security scheme, under the API key's name, or for a bearer token
// under RFC 6750's access_token or the plain token (Slack's "Authentication token" on every
// method). Left in, it was an input like any other: a plan fed it from another API's output
// or asked the user for it, and a secret has no place in either.
func withoutCredential(in []twnm.Param, auth *twnm.Auth) []twnm.Param {
	if auth == nil {
		return in
	}
	return slices.DeleteFunc(in, func(p twnm.Param) bool {
		if p.In != twnm.InQuery && p.In != twnm.InHeader {
			return false
		}
		switch auth.Scheme {
		case twnm.AuthHeader, twnm.AuthQuery:
			return strings.EqualFold(p.Name, auth.Name)
		case twnm.AuthBearer:
			return p.Name == "token" || p.Name == "access_token"
		}
		return false
	})
}

// joinSummary joins an operation's summary and description as one sentence-separated text.
func joinSummary(summary, desc string) string {
	summary, desc = strings.TrimSpace(summary), strings.TrimSpace(desc)
	switch {
	case summary == "" || summary == desc:
		return desc
	case desc == "":
		return summary
	}
	if !strings.ContainsAny(summary[len(summary)-1:], ".!?:") {
		summary += "."
	}
	return summary + " " + desc
}

func nonEmpty(ss []string) []string {
	var out []string
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

// serverURL picks the first server of the operation, the path or the document.
func serverURL(doc *openapi3.T, o openAPIOp) string {
	var servers openapi3.Servers
	switch {
	case o.op.Servers != nil && len(*o.op.Servers) > 0:
		servers = *o.op.Servers
	case len(o.item.Servers) > 0:
		servers = o.item.Servers
	default:
		servers = doc.Servers
	}
	if len(servers) == 0 || servers[0] == nil {
		return ""
	}
	u := servers[0].URL
	for name, v := range servers[0].Variables {
		if v != nil {
			u = strings.ReplaceAll(u, "{"+name+"}", v.Default)
		}
	}
	if strings.HasSuffix(u, "://") {
		return u // no URL: said as written (see openAPIDoc)
	}
	return strings.TrimSuffix(u, "/")
}

// ignoredHeaders are header parameters OpenAPI says to ignore: they are set by other means.
var ignoredHeaders = map[string]bool{"accept": true, "content-type": true, "authorization": true}

func openAPIInputs(o openAPIOp) ([]twnm.Param, error) {
	type key struct{ name, in string }
	var params []*openapi3.Parameter
	index := make(map[key]int)
	for _, src := range []struct {
		field string
		list  openapi3.Parameters
	}{{"path parameters", o.item.Parameters}, {"parameters", o.op.Parameters}} {
		for k, ref := range src.list {
			if ref == nil || ref.Value == nil {
				return nil, fieldError(fmt.Sprintf("%s[%d]", src.field, k), fmt.Errorf("unresolved"))
			}
			p := ref.Value
			switch {
			case p.Name == "":
				return nil, fieldError(fmt.Sprintf("%s[%d].name", src.field, k), fmt.Errorf("missing or empty"))
			case p.In != twnm.InQuery && p.In != twnm.InPath && p.In != twnm.InHeader && p.In != twnm.InCookie:
				return nil, fieldError(fmt.Sprintf("%s[%d] (%s).in", src.field, k, p.Name), fmt.Errorf("want query, path, header or cookie, got %q", p.In))
			case p.In == twnm.InHeader && ignoredHeaders[strings.ToLower(p.Name)]:
				continue
			}
			kk := key{p.Name, p.In}
			if i, ok := index[kk]; ok {
				params[i] = p // the operation's own declaration wins
				continue
			}
			index[kk] = len(params)
			params = append(params, p)
		}
	}
	var out []twnm.Param
	names := make(map[string]bool)
	for _, p := range params {
		if names[p.Name] {
			// Same name in two locations: the graph knows a parameter by name only.
			continue
		}
		names[p.Name] = true
		schema := p.Schema
		if schema == nil {
			for _, mt := range p.Content {
				if mt != nil && mt.Schema != nil {
					schema = mt.Schema
					break
				}
			}
		}
		desc := p.Description
		if desc == "" && schema != nil && schema.Value != nil {
			desc = schema.Value.Description
		}
		out = append(out, twnm.Param{
			Name: p.Name, Type: schemaType(schema), Description: desc,
			Required: p.Required || p.In == twnm.InPath, In: p.In, Enum: schemaEnum(schema), Pattern: schemaPattern(schema),
		})
	}
	vars, err := twnm.PathVars(o.path)
	if err != nil {
		return nil, fmt.Errorf("path: %w", err)
	}
	for _, v := range vars {
		if !names[v] {
			names[v] = true
			out = append(out, twnm.Param{Name: v, Required: true, In: twnm.InPath})
		}
	}
	if o.op.RequestBody == nil {
		return out, nil
	}
	body := o.op.RequestBody.Value
	if body == nil {
		return nil, fieldError("requestBody", fmt.Errorf("unresolved"))
	}
	ref := jsonSchema(body.Content)
	if ref == nil {
		return out, nil
	}
	props := objectProps(ref)
	if props == nil {
		if !names["body"] {
			out = append(out, twnm.Param{Name: "body", Type: schemaType(ref), Description: body.Description, Required: body.Required, In: twnm.InBody})
		}
		return out, nil
	}
	for _, p := range props {
		if names[p.name] {
			continue
		}
		names[p.name] = true
		out = append(out, twnm.Param{Name: p.name, Type: schemaType(p.schema), Description: schemaDesc(p.schema), Required: p.required, In: twnm.InBody,
			Enum: schemaEnum(p.schema), Pattern: schemaPattern(p.schema)})
	}
	return out, nil
}

// openAPIOutputs is what an operation's first 2xx JSON answer gives: its top-level fields,
// then, breadth first, the fields inside its lists of records and the objects that wrap them
// (holdsRecords), to toolspec.MaxOutputDepth, each with its path (see twnm.Param.Path).
func openAPIOutputs(op *openapi3.Operation) ([]twnm.Param, error) {
	if op.Responses == nil {
		return nil, nil
	}
	var ref *openapi3.SchemaRef
	for _, code := range op.Responses.Keys() { // sorted, so "200" before "201" before "2XX"
		if !strings.HasPrefix(code, "2") {
			continue
		}
		r := op.Responses.Value(code)
		if r == nil || r.Value == nil {
			return nil, fieldError("responses."+code, fmt.Errorf("unresolved"))
		}
		if ref = jsonSchema(r.Value.Content); ref != nil {
			break
		}
	}
	if ref == nil {
		return nil, nil
	}
	var o outputs
	o.schema(ref)
	return o.params, nil
}

// outputs gathers an answer's fields, shallow ones first, so that a top-level field keeps
// its plain name and a nested one of the same name takes its parents' (toolspec.NestedName).
type outputs struct {
	params []twnm.Param
	names  map[string]bool // output names taken
}

// field is a field of an answer found at path, inside the lists and objects of parents.
type field struct {
	path    string
	parents []string // the keys of the enclosing fields, outermost first
	name    string
}

func (o *outputs) add(f field, typ, desc string) {
	if o.names == nil {
		o.names = map[string]bool{}
	}
	name, ok := toolspec.NestedName(o.names, f.parents, f.name)
	if !ok {
		return
	}
	o.names[name] = true
	p := twnm.Param{Name: name, Type: typ, Description: desc}
	if f.path != f.name {
		p.Path = f.path
	}
	o.params = append(o.params, p)
}

// schema reads the fields of an answer's schema breadth first, to toolspec.MaxOutputDepth. A schema
// inside itself (a comment's replies are comments) is read once, at its shallowest.
func (o *outputs) schema(ref *openapi3.SchemaRef) {
	type level struct {
		f       field
		schema  *openapi3.SchemaRef
		outside []*openapi3.Schema // the schemas of the enclosing levels
	}
	// An answer that is a list of records is read under toolspec.ResultKey: its records'
	// fields keep their plain names, with the path that finds them there.
	var root field
	if v := ref.Value; v != nil && v.Items != nil && len(v.Properties) == 0 && (v.Type == nil || v.Type.Is(openapi3.TypeArray)) {
		root = field{path: toolspec.ResultKey + "[]"}
	}
	queue := []level{{f: root, schema: ref}}
	for depth := 0; len(queue) > 0 && depth < toolspec.MaxOutputDepth; depth++ {
		var next []level
		for _, l := range queue {
			if l.schema == nil || l.schema.Value == nil || slices.Contains(l.outside, l.schema.Value) {
				continue
			}
			outside := append(slices.Clone(l.outside), l.schema.Value)
			sep := "."
			if l.f.path != "" && l.f.path != root.path && l.schema.Value.Items != nil {
				sep = "[]."
			}
			for _, p := range objectProps(l.schema) {
				f := field{path: p.name, name: p.name}
				switch {
				case root.path != "" && l.f.path == root.path && l.f.name == "":
					f.path = root.path + "." + p.name
				case l.f.path != "":
					f.path = l.f.path + sep + p.name
					f.parents = append(slices.Clone(l.f.parents), l.f.name)
				}
				o.add(f, schemaType(p.schema), schemaDesc(p.schema))
				if holdsRecords(p.schema) {
					next = append(next, level{f: f, schema: p.schema, outside: outside})
				}
			}
		}
		queue = next
	}
}

// holdsRecords reports whether a field's schema is a list of records (objects with
// properties), or an object that wraps one (a page: {"items": [...], "total": 3}); outputs
// are read inside those. A record nested in a record (a film's collection) is left as one
// output: read inside, its fields took the place of the lists' ids in RestBench's chains.
func holdsRecords(ref *openapi3.SchemaRef) bool {
	return isListOfRecords(ref) || slices.ContainsFunc(objectProps(ref), func(p prop) bool { return isListOfRecords(p.schema) })
}

// isListOfRecords reports whether a schema is an array whose items have properties.
func isListOfRecords(ref *openapi3.SchemaRef) bool {
	return ref != nil && ref.Value != nil && ref.Value.Items != nil && len(objectProps(ref.Value.Items)) > 0
}

// jsonSchema returns the schema of the JSON media type of content: application/json, else
// the first (by name) whose type ends in +json or /json.
func jsonSchema(content openapi3.Content) *openapi3.SchemaRef {
	if mt := content.Get("application/json"); mt != nil && mt.Schema != nil {
		return mt.Schema
	}
	types := make([]string, 0, len(content))
	for t := range content {
		types = append(types, t)
	}
	sort.Strings(types)
	for _, t := range types {
		base, _, _ := strings.Cut(strings.ToLower(t), ";")
		base = strings.TrimSpace(base)
		if mt := content[t]; mt != nil && mt.Schema != nil && (strings.HasSuffix(base, "+json") || strings.HasSuffix(base, "/json")) {
			return mt.Schema
		}
	}
	return nil
}

// prop is one property of an object schema.
type prop struct {
	name     string
	schema   *openapi3.SchemaRef
	required bool
}

// objectProps returns the properties of an object schema, or nil when it has none: its own
// sorted by name, then those of its allOf, oneOf and anyOf members, the first of a name
// kept. An array stands for its item.
func objectProps(ref *openapi3.SchemaRef) []prop {
	if ref == nil || ref.Value == nil {
		return nil
	}
	s := ref.Value
	if s.Items != nil && len(s.Properties) == 0 && (s.Type == nil || s.Type.Is(openapi3.TypeArray)) {
		s = s.Items.Value
	}
	var out []prop
	seen := make(map[string]bool)
	visited := make(map[*openapi3.Schema]bool)
	var walk func(s *openapi3.Schema)
	walk = func(s *openapi3.Schema) {
		if s == nil || visited[s] {
			return // recursive schemas end here
		}
		visited[s] = true
		required := make(map[string]bool, len(s.Required))
		for _, r := range s.Required {
			required[r] = true
		}
		names := make([]string, 0, len(s.Properties))
		for n := range s.Properties {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if n == "" || seen[n] || s.Properties[n] == nil {
				continue
			}
			seen[n] = true
			out = append(out, prop{name: n, schema: s.Properties[n], required: required[n]})
		}
		for _, group := range []openapi3.SchemaRefs{s.AllOf, s.OneOf, s.AnyOf} {
			for _, m := range group {
				if m != nil {
					walk(m.Value)
				}
			}
		}
	}
	walk(s)
	return out
}

// schemaType names a schema's type: its declared type(s), else "object" or "array" by shape,
// else the type of its first typed allOf member, else the types of its oneOf/anyOf members
// joined by "|".
func schemaType(ref *openapi3.SchemaRef) string {
	return schemaTypeDepth(ref, 0)
}

func schemaTypeDepth(ref *openapi3.SchemaRef, depth int) string {
	if ref == nil || ref.Value == nil || depth > 8 { // the bound stops a cycle of allOf
		return ""
	}
	s := ref.Value
	if s.Type != nil && len(*s.Type) > 0 {
		return strings.Join(s.Type.Slice(), "|")
	}
	switch {
	case len(s.Properties) > 0:
		return "object"
	case s.Items != nil:
		return "array"
	}
	for _, m := range s.AllOf {
		if t := schemaTypeDepth(m, depth+1); t != "" {
			return t
		}
	}
	// oneOf/anyOf of plain types, as TMDB's vote_average {integer, number}: "integer|number".
	var alts []string
	for _, group := range []openapi3.SchemaRefs{s.OneOf, s.AnyOf} {
		for _, m := range group {
			if t := schemaTypeDepth(m, depth+1); t != "" && !slices.Contains(alts, t) {
				alts = append(alts, t)
			}
		}
	}
	return strings.Join(alts, "|")
}

// schemaEnum is the values a schema accepts (see toolspec.EnumValues), nil when it lists none.
func schemaEnum(ref *openapi3.SchemaRef) []string {
	return toolspec.EnumValues(valueSchema(ref, func(s *openapi3.Schema) bool { return len(s.Enum) > 0 }).Enum)
}

// schemaPattern is the regular expression a string schema's values match, "" when it gives
// none.
func schemaPattern(ref *openapi3.SchemaRef) string {
	return valueSchema(ref, func(s *openapi3.Schema) bool { return s.Pattern != "" }).Pattern
}

func schemaDesc(ref *openapi3.SchemaRef) string {
	if ref == nil || ref.Value == nil {
		return ""
	}
	return ref.Value.Description
}

// valueSchema is the schema that says what ref's values are where ref itself does not (has
// false): the one member of a wrapper (allOf of one schema), or the one member that is not
// null of a union, as a nullable value is written in OpenAPI 3.1 (anyOf: [{type: string,
// enum: [auto, default, …]}, {type: "null"}]): OpenAI's service_tier lists its tiers there,
// and without them any stated word would do for one. An empty schema where there is none.
func valueSchema(ref *openapi3.SchemaRef, has func(*openapi3.Schema) bool) *openapi3.Schema {
	for depth := 0; ref != nil && ref.Value != nil && depth <= 8; depth++ { // the bound stops a cycle
		s := ref.Value
		if has(s) {
			return s
		}
		var only *openapi3.SchemaRef
		n := 0
		for _, group := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
			for _, m := range group {
				if m != nil && m.Value != nil && !(m.Value.Type != nil && m.Value.Type.Is("null")) {
					only, n = m, n+1
				}
			}
		}
		if n != 1 {
			break
		}
		ref = only
	}
	return &openapi3.Schema{}
}
