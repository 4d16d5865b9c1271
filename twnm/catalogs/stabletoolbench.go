package catalogs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/naviagent/navi/twnm"
)

// stbQuery is one query of a StableToolBench solvable_queries file; only its candidate APIs
// matter to the catalog.
type stbQuery struct {
	QueryID json.RawMessage   `json:"query_id"`
	APIList []json.RawMessage `json:"api_list"`
}

// stbAPI is one entry of a query's api_list: a RapidAPI endpoint.
type stbAPI struct {
	Category         string          `json:"category_name"`
	Tool             string          `json:"tool_name"`
	API              string          `json:"api_name"`
	Description      string          `json:"api_description"`
	Required         []stbParam      `json:"required_parameters"`
	Optional         []stbParam      `json:"optional_parameters"`
	Method           string          `json:"method"`
	TemplateResponse json.RawMessage `json:"template_response"`
}

// stbParam is one required or optional parameter of an endpoint.
type stbParam struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description"`
}

// StableToolBench imports the RapidAPI endpoints that StableToolBench's test queries offer as
// candidates: the union of the api_list entries of every query in the G*.json files of dir
// (solvable_queries/test_instruction), read in file-name order. dir may also name one file.
//
// Mapping:
//   - Endpoints are deduplicated by (tool_name, api_name); the first entry met is kept. (12 of
//     the repeats in the published files differ from the first, in descriptions or templates.)
//   - Name is Identifier(tool_name) + "." + Identifier(api_name): each run of characters other
//     than letters, digits and '_' becomes '_', trimmed at the ends, so "OTT details" /
//     "Advanced Search" gives "OTT_details.Advanced_Search" and "👋 Onboarding Project_v3" /
//     "Me" gives "Onboarding_Project_v3.Me". A part with no letter or digit becomes "x"; a
//     name taken already gets the suffix _2, _3, ...
//   - Provider is tool_name and Description is api_description, both with surrounding spaces
//     trimmed; Category is category_name; Endpoint is {Method: method} with no path (RapidAPI
//     hosts are not in the data).
//   - Inputs: required_parameters with Required true, then optional_parameters with Required
//     false; type and description as given ("STRING", "NUMBER", ...). A name listed twice
//     keeps its first entry. Defaults are not imported.
//   - Outputs: the top-level keys of template_response, in order, typed with the template's
//     word for scalars ("str", "int", ...), "object" for nested objects and "array" for lists;
//     nested keys are not outputs. Where the template is a string it is JSON text cut off
//     part-way: the top-level keys before the cut are used (a key whose value was cut has no
//     type). A null or missing template gives no outputs.
func StableToolBench(dir string) (twnm.Catalog, error) {
	files, err := inputFiles(dir)
	if err != nil {
		return twnm.Catalog{}, fmt.Errorf("stabletoolbench catalog %s: %w", dir, err)
	}
	c := twnm.Catalog{Name: "stabletoolbench"}
	seen := make(map[[2]string]bool)
	taken := make(map[string]bool)
	for _, f := range files {
		if err := stableToolBenchFile(f, &c, seen, taken); err != nil {
			return twnm.Catalog{}, fmt.Errorf("stabletoolbench catalog %s: %w", f, err)
		}
	}
	if err := c.Validate(); err != nil {
		return twnm.Catalog{}, fmt.Errorf("stabletoolbench catalog %s: %w", dir, err)
	}
	return c, nil
}

// inputFiles returns the G*.json files of dir in name order, or dir itself when it is a file.
func inputFiles(dir string) ([]string, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return []string{dir}, nil
	}
	files, err := filepath.Glob(filepath.Join(dir, "G*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no G*.json files in the folder")
	}
	sort.Strings(files)
	return files, nil
}

func stableToolBenchFile(path string, c *twnm.Catalog, seen map[[2]string]bool, taken map[string]bool) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	// One typed decode of the whole file is several times faster than decoding record by
	// record; only when it fails is the file read again record by record, to say where.
	var queries []struct {
		QueryID json.RawMessage `json:"query_id"`
		APIList []stbAPI        `json:"api_list"`
	}
	if err := decodeJSON(data, &queries); err != nil {
		return locateStableToolBenchError(data, err)
	}
	for i, q := range queries {
		if q.APIList == nil {
			return recordError(i, queryLabel(q.QueryID), fieldError("api_list", fmt.Errorf("missing")))
		}
		for j, a := range q.APIList {
			if err := a.check(); err != nil {
				return recordError(i, queryLabel(q.QueryID), fmt.Errorf("api_list[%d] (%s.%s): %w", j, a.Tool, a.API, err))
			}
			k := [2]string{a.Tool, a.API}
			if seen[k] {
				continue
			}
			seen[k] = true
			c.APIs = append(c.APIs, a.toAPI(taken))
		}
	}
	return nil
}

// locateStableToolBenchError decodes a file that failed to decode record by record and
// returns the error of the first bad record, naming it; err, the whole file's error, where
// no record is at fault.
func locateStableToolBenchError(data []byte, err error) error {
	var queries []json.RawMessage
	if err := decodeJSON(data, &queries); err != nil {
		return fmt.Errorf("want an array of queries: %w", err)
	}
	for i, raw := range queries {
		var q stbQuery
		if err := decodeJSON(raw, &q); err != nil {
			return recordError(i, queryLabel(lenientRaw(raw, "query_id")), err)
		}
		for j, rawAPI := range q.APIList {
			var a stbAPI
			if err := decodeJSON(rawAPI, &a); err != nil {
				key := ""
				if t, n := lenientName(rawAPI, "tool_name"), lenientName(rawAPI, "api_name"); t != "" || n != "" {
					key = " (" + t + "." + n + ")"
				}
				return recordError(i, queryLabel(q.QueryID), fmt.Errorf("api_list[%d]%s: %w", j, key, err))
			}
		}
	}
	return err
}

// check reports a decoded entry that cannot become an API.
func (a stbAPI) check() error {
	switch {
	case a.Tool == "":
		return fieldError("tool_name", fmt.Errorf("missing or empty"))
	case a.API == "":
		return fieldError("api_name", fmt.Errorf("missing or empty"))
	}
	for _, ps := range []struct {
		field  string
		params []stbParam
	}{{"required_parameters", a.Required}, {"optional_parameters", a.Optional}} {
		for k, p := range ps.params {
			if p.Name == "" {
				return fieldError(fmt.Sprintf("%s[%d].name", ps.field, k), fmt.Errorf("missing or empty"))
			}
		}
	}
	if k := jsonKind(a.TemplateResponse); k != "object" && k != "string" && !isAbsent(a.TemplateResponse) {
		return fieldError("template_response", fmt.Errorf("want an object or a string, got %s", k))
	}
	return nil
}

// toAPI maps a decoded entry to an API, claiming its name in taken.
func (a stbAPI) toAPI(taken map[string]bool) twnm.API {
	out := twnm.API{
		Name:        uniqueName(identifierOr(a.Tool)+"."+identifierOr(a.API), taken),
		Description: strings.TrimSpace(a.Description),
		Provider:    strings.TrimSpace(a.Tool),
		Category:    a.Category,
	}
	if a.Method != "" {
		out.Endpoint = &twnm.Endpoint{Method: a.Method}
	}
	names := make(map[string]bool)
	for _, ps := range []struct {
		params   []stbParam
		required bool
	}{{a.Required, true}, {a.Optional, false}} {
		for _, p := range ps.params {
			if names[p.Name] {
				continue // listed twice in the source
			}
			names[p.Name] = true
			out.Inputs = append(out.Inputs, twnm.Param{Name: p.Name, Type: p.Type, Description: p.Description, Required: ps.required})
		}
	}
	out.Outputs = templateOutputs(a.TemplateResponse)
	return out
}

// templateOutputs lists the top-level keys of a response template as outputs.
func templateOutputs(raw json.RawMessage) []twnm.Param {
	var members []member
	switch jsonKind(raw) {
	case "object":
		// Repeated keys are tolerated here: the template is a sample, keep the first.
		members = leadingObjectKeys(string(raw))
	case "string":
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil
		}
		members = leadingObjectKeys(s)
	}
	var out []twnm.Param
	names := make(map[string]bool, len(members))
	for _, m := range members {
		if m.Key == "" || names[m.Key] {
			continue
		}
		names[m.Key] = true
		out = append(out, twnm.Param{Name: m.Key, Type: templateType(m.Value)})
	}
	return out
}

// templateType gives the type of a template value: the template's own word for a scalar.
func templateType(v json.RawMessage) string {
	switch jsonKind(v) {
	case "string":
		var s string
		if json.Unmarshal(v, &s) == nil {
			return s
		}
	case "object":
		return "object"
	case "array":
		return "array"
	case "nothing":
		return ""
	}
	return string(bytes.TrimSpace(v))
}

// identifierOr is Identifier with "x" for a name that has no letter or digit.
func identifierOr(s string) string {
	if id := Identifier(s); id != "" {
		return id
	}
	return "x"
}

// queryLabel turns a query_id into the label errors use: "query 3847".
func queryLabel(id json.RawMessage) string {
	if isAbsent(id) {
		return ""
	}
	var s string
	if json.Unmarshal(id, &s) == nil {
		return "query " + s
	}
	return "query " + string(bytes.TrimSpace(id))
}

// lenientRaw returns one field of a JSON object, or nil.
func lenientRaw(raw json.RawMessage, field string) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m[field]
}
