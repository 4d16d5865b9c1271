package toolcall

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/naviagent/navi/toolspec"
)

// location returns where the request carries an input: its In, else path when the endpoint
// path names it, else query for the methods without a body and body for the others.
func location(p toolspec.Param, method string, pathVars map[string]bool) string {
	if p.In != "" {
		return p.In
	}
	if pathVars[p.Name] {
		return toolspec.InPath
	}
	switch method {
	case http.MethodGet, http.MethodDelete, http.MethodHead, http.MethodOptions:
		return toolspec.InQuery
	}
	return toolspec.InBody
}

// buildRequest builds the HTTP request of one call of api with args, checking the args
// against the inputs first so that a bad call never reaches the tool.
func buildRequest(ctx context.Context, api toolspec.API, args map[string]string) (*http.Request, error) {
	ep := api.Endpoint
	if ep == nil || ep.Method == "" {
		return nil, notCallable(api.Name, "the catalog gives no HTTP endpoint")
	}
	raw, err := endpointURL(api.Name, ep)
	if err != nil {
		return nil, err
	}
	vars, err := toolspec.PathVars(ep.Path)
	if err != nil {
		return nil, notCallable(api.Name, "endpoint path: %v", err)
	}
	pathVars := make(map[string]bool, len(vars))
	for _, v := range vars {
		pathVars[v] = true
	}

	if err := unknownArgs(api, args); err != nil {
		return nil, err
	}

	query := url.Values{}
	header := http.Header{}
	var cookies []*http.Cookie
	var body map[string]any
	hasBodyInputs := false
	for _, p := range api.Inputs {
		loc := location(p, ep.Method, pathVars)
		if loc == toolspec.InBody {
			hasBodyInputs = true
		}
		v, given := args[p.Name]
		// An empty value counts as not given: planners fill unknown optional inputs with "",
		// and no typed or path input can take it anyway.
		if !given || v == "" {
			if p.Required || loc == toolspec.InPath {
				return nil, invalidInput(api.Name, p.Name, "required parameter %s (%s) is missing", p.Name, loc)
			}
			continue
		}
		typed, err := convert(p, v)
		if err != nil {
			return nil, invalidInput(api.Name, p.Name, "parameter %s: %v", p.Name, err)
		}
		if err := emptyRequired(api, p, typed); err != nil {
			return nil, err
		}
		if s, ok := typed.(string); ok {
			v = s // as the schema spells it, where it lists the values
		}
		switch loc {
		case toolspec.InPath:
			if !pathVars[p.Name] {
				return nil, notCallable(api.Name, "input %s is in the path, but the endpoint path %q has no {%s}", p.Name, ep.Path, p.Name)
			}
			raw = strings.ReplaceAll(raw, "{"+p.Name+"}", url.PathEscape(v))
		case toolspec.InQuery:
			query.Set(p.Name, v)
		case toolspec.InHeader:
			if strings.ContainsAny(v, "\r\n\x00") {
				return nil, invalidInput(api.Name, p.Name, "header parameter %s contains a line break or NUL", p.Name)
			}
			header.Set(p.Name, v)
		case toolspec.InCookie:
			c := &http.Cookie{Name: p.Name, Value: v}
			if err := c.Valid(); err != nil {
				return nil, invalidInput(api.Name, p.Name, "cookie parameter %s: %v", p.Name, err)
			}
			cookies = append(cookies, c)
		case toolspec.InBody:
			if body == nil {
				body = map[string]any{}
			}
			body[p.Name] = typed
		default:
			return nil, notCallable(api.Name, "input %s has unknown location %q", p.Name, loc)
		}
	}
	for _, v := range vars {
		if strings.Contains(raw, "{"+v+"}") {
			// A path variable no input fills: the catalog is inconsistent.
			return nil, notCallable(api.Name, "endpoint path %q: {%s} names no path input", ep.Path, v)
		}
	}

	u, err := url.Parse(raw)
	if err != nil {
		return nil, notCallable(api.Name, "endpoint URL %q: %v", raw, err)
	}
	if len(query) > 0 {
		// Keep the query a catalog URL may already carry (an API version, a fixed flag).
		q := u.Query()
		for k, vs := range query {
			q[k] = vs
		}
		u.RawQuery = q.Encode()
	}

	var payload []byte
	if hasBodyInputs {
		if body == nil {
			body = map[string]any{} // all body inputs optional and absent: still a JSON object
		}
		if payload, err = json.Marshal(body); err != nil {
			return nil, invalidInput(api.Name, "", "encode body: %v", err)
		}
	}
	req, err := http.NewRequestWithContext(ctx, ep.Method, u.String(), bytes.NewReader(payload))
	if err != nil {
		return nil, notCallable(api.Name, "build request: %v", err)
	}
	if payload == nil {
		req.Body, req.GetBody, req.ContentLength = http.NoBody, nil, 0
	} else {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	for _, c := range cookies {
		req.AddCookie(c)
	}
	req.Header.Set("Accept", "application/json")
	return req, nil
}

// endpointURL joins the endpoint's base URL and path into an absolute http(s) URL template.
func endpointURL(api string, ep *toolspec.Endpoint) (string, error) {
	if isAbsURL(ep.Path) {
		return ep.Path, nil // a full URL in the path wins over any base
	}
	if ep.BaseURL == "" {
		return "", notCallable(api, "the endpoint %s has no base URL", ep)
	}
	if !isAbsURL(ep.BaseURL) {
		return "", notCallable(api, "the endpoint base URL %q is not an absolute http(s) URL", ep.BaseURL)
	}
	if ep.Path == "" {
		return ep.BaseURL, nil
	}
	// A base URL may carry a query (an API version, a key); the path goes before it.
	base, query, hasQuery := strings.Cut(ep.BaseURL, "?")
	raw := strings.TrimSuffix(base, "/") + "/" + strings.TrimPrefix(ep.Path, "/")
	if hasQuery {
		sep := "?"
		if strings.Contains(raw, "?") {
			sep = "&"
		}
		raw += sep + query
	}
	return raw, nil
}

// isAbsURL reports whether s is an absolute http or https URL; template braces are replaced
// first, since url.Parse rejects them in a host.
func isAbsURL(s string) bool {
	u, err := url.Parse(strings.NewReplacer("{", "x", "}", "x").Replace(s))
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// convert checks v against the param's declared type and returns the value the JSON body
// carries: a number, a boolean, a JSON array or object, or the string itself. Unknown types
// are strings, so that an odd catalog type never blocks a call. An input that lists its values
// (Param.Enum) takes one of them only, in the list's spelling, and one whose schema gives a
// pattern (Param.Pattern) only a value it matches.
func convert(p toolspec.Param, v string) (any, error) {
	if !p.Matches(v) {
		return nil, fmt.Errorf("want a value matching %s, got %q", p.Pattern, v)
	}
	if len(p.Enum) > 0 { // the schema's own spelling, and nothing else, reaches the tool
		i := slices.IndexFunc(p.Enum, func(e string) bool { return strings.EqualFold(e, strings.TrimSpace(v)) })
		if i < 0 {
			return nil, fmt.Errorf("want one of %s, got %q", strings.Join(p.Enum, ", "), v)
		}
		v = p.Enum[i]
	}
	switch kind := toolspec.TypeKind(p.Type); kind {
	case toolspec.KindInteger:
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("want an integer, got %q", v)
		}
		return n, nil
	case toolspec.KindNumber:
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("want a finite number, got %q", v)
		}
		return f, nil
	case toolspec.KindBool:
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return nil, fmt.Errorf("want a boolean (true or false), got %q", v)
		}
		return b, nil
	case toolspec.KindArray, toolspec.KindObject:
		// Structured inputs arrive as their JSON text; embed it rather than sending a string
		// that merely looks like JSON.
		want := byte('[')
		if kind == toolspec.KindObject {
			want = '{'
		}
		t := strings.TrimSpace(v)
		if len(t) == 0 || t[0] != want || !json.Valid([]byte(t)) {
			return nil, fmt.Errorf("want a JSON %s, got %q", strings.ToLower(p.Type), v)
		}
		return json.RawMessage(t), nil
	}
	return v, nil
}

func inputNames(ps []toolspec.Param) string {
	if len(ps) == 0 {
		return "none"
	}
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// emptyRequired refuses an empty value (blank text, [], {}, null) for a required input of an
// API that changes state: a write with nothing to write (creating the entities []) runs,
// succeeds and does nothing, and the run would report it done.
func emptyRequired(api toolspec.API, p toolspec.Param, v any) *Error {
	if !p.Required || api.CallEffect() == toolspec.EffectRead {
		return nil
	}
	if raw, ok := v.(json.RawMessage); ok {
		v = nil // null, and what does not decode
		_ = json.Unmarshal(raw, &v)
	}
	empty := false
	switch v := v.(type) {
	case nil:
		empty = true
	case string:
		empty = strings.TrimSpace(v) == ""
	case []any:
		empty = len(v) == 0
	case map[string]any:
		empty = len(v) == 0
	}
	if !empty {
		return nil
	}
	return invalidInput(api.Name, p.Name, "required parameter %s is empty, and %s changes state: a write never runs with nothing to write", p.Name, api.Name)
}
