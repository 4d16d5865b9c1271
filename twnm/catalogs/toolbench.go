package catalogs

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/naviagent/navi/twnm"
)

// tbQuery is one entry of a ToolBench tooleval file; only its tool schemas matter here.
type tbQuery struct {
	AvailableTools []json.RawMessage `json:"available_tools"`
}

// tbTool is one function schema offered to the model.
type tbTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// tbParams is a function's parameters: a JSON schema with ToolBench's extra "optional" list.
type tbParams struct {
	Properties json.RawMessage `json:"properties"`
	Required   []string        `json:"required"`
	Optional   []string        `json:"optional"`
}

// tbProp is one property of the parameters schema.
type tbProp struct {
	Type        string `json:"type"`
	Description string `json:"description"`
}

// toolBenchFinish is the agent's own answer function, offered beside the tools in every query.
const toolBenchFinish = "Finish"

// toolBenchDesc splits ToolBench's generated function description into tool and text.
var toolBenchDesc = regexp.MustCompile(`(?s)\AThis is the subfunction for tool "([^"]*)", you can use this tool\.(?:The description of this function is: (.*))?\z`)

// ToolBenchTools imports the function schemas in the available_tools lists of ToolBench's
// tooleval files (tooleval_default_evalset_*/G*.json, objects keyed by query id), read in
// file-name order and, within a file, in document order. path is that folder or one file.
//
// Mapping:
//   - Functions are deduplicated by name, the first kept; ToolBench's "Finish" function (the
//     agent's answer, not a tool) is skipped.
//   - Name is the function name as given, e.g. "search_by_name_for_advanced_movie_search".
//   - The generated description `This is the subfunction for tool "T", you can use this
//     tool.The description of this function is: "D"` gives Provider T and Description D
//     (quotes removed); where no D follows, or the text has another form, the whole text is
//     the description.
//   - Inputs are parameters.properties in order, with type and description; Required is true
//     for names in parameters.required. A name in required or optional but not in properties
//     is added as an untyped input. Example values and enums are not imported.
//   - The schemas carry no outputs and no HTTP details.
func ToolBenchTools(path string) (twnm.Catalog, error) {
	files, err := inputFiles(path)
	if err != nil {
		return twnm.Catalog{}, fmt.Errorf("toolbench catalog %s: %w", path, err)
	}
	c := twnm.Catalog{Name: "toolbench"}
	seen := make(map[string]bool)
	for _, f := range files {
		if err := toolBenchFile(f, &c, seen); err != nil {
			return twnm.Catalog{}, fmt.Errorf("toolbench catalog %s: %w", f, err)
		}
	}
	if err := c.Validate(); err != nil {
		return twnm.Catalog{}, fmt.Errorf("toolbench catalog %s: %w", path, err)
	}
	return c, nil
}

func toolBenchFile(path string, c *twnm.Catalog, seen map[string]bool) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	queries, err := objectMembers(data)
	if err != nil {
		return fmt.Errorf("want an object of queries keyed by id: %w", err)
	}
	for i, qm := range queries {
		label := "query " + qm.Key
		var q tbQuery
		if err := decodeJSON(qm.Value, &q); err != nil {
			return recordError(i, label, err)
		}
		for j, raw := range q.AvailableTools {
			a, err := toolBenchTool(raw)
			if err != nil {
				name := ""
				if n := lenientName(raw, "name"); n != "" {
					name = " (" + n + ")"
				}
				return recordError(i, label, fmt.Errorf("available_tools[%d]%s: %w", j, name, err))
			}
			if a.Name == toolBenchFinish || seen[a.Name] {
				continue
			}
			seen[a.Name] = true
			c.APIs = append(c.APIs, a)
		}
	}
	return nil
}

func toolBenchTool(raw json.RawMessage) (twnm.API, error) {
	var t tbTool
	if err := decodeJSON(raw, &t); err != nil {
		return twnm.API{}, err
	}
	if t.Name == "" {
		return twnm.API{}, fieldError("name", fmt.Errorf("missing or empty"))
	}
	a := twnm.API{Name: t.Name, Description: t.Description}
	if m := toolBenchDesc.FindStringSubmatch(t.Description); m != nil {
		a.Provider = m[1]
		if d := strings.TrimSpace(m[2]); d != "" {
			a.Description = strings.TrimSuffix(strings.TrimPrefix(d, `"`), `"`)
		}
	}
	if t.Name == toolBenchFinish || isAbsent(t.Parameters) {
		return a, nil
	}
	var ps tbParams
	if k := jsonKind(t.Parameters); k != "object" {
		return twnm.API{}, fieldError("parameters", fmt.Errorf("want an object, got %s", k))
	}
	if err := decodeJSON(t.Parameters, &ps); err != nil {
		return twnm.API{}, fieldError("parameters", err)
	}
	var props []member
	if !isAbsent(ps.Properties) {
		var err error
		if props, err = objectMembers(ps.Properties); err != nil {
			return twnm.API{}, fieldError("parameters.properties", err)
		}
	}
	required := make(map[string]bool, len(ps.Required))
	for _, n := range ps.Required {
		required[n] = true
	}
	listed := make(map[string]bool, len(props))
	for _, m := range props {
		if m.Key == "" {
			return twnm.API{}, fieldError("parameters.properties", fmt.Errorf("a property has an empty name"))
		}
		var p tbProp
		if k := jsonKind(m.Value); k != "object" {
			return twnm.API{}, fieldError("parameters.properties."+m.Key, fmt.Errorf("want an object, got %s", k))
		}
		if err := decodeJSON(m.Value, &p); err != nil {
			return twnm.API{}, fieldError("parameters.properties."+m.Key, err)
		}
		listed[m.Key] = true
		a.Inputs = append(a.Inputs, twnm.Param{Name: m.Key, Type: p.Type, Description: p.Description, Required: required[m.Key]})
	}
	for _, n := range append(append([]string(nil), ps.Required...), ps.Optional...) {
		if n != "" && !listed[n] {
			listed[n] = true
			a.Inputs = append(a.Inputs, twnm.Param{Name: n, Required: required[n]})
		}
	}
	return a, nil
}
