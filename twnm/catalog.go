package twnm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Param is one typed input or output parameter of an API.
type Param struct {
	Name        string `json:"name"`
	Type        string `json:"type,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"` // inputs only
}

// API is one tool operation: an API node of the graph, with its parameter nodes.
type API struct {
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Provider    string  `json:"provider,omitempty"`
	Inputs      []Param `json:"inputs,omitempty"`
	Outputs     []Param `json:"outputs,omitempty"`
}

// Catalog is a named set of APIs, as registered by one organisation or imported from one source.
type Catalog struct {
	Name string `json:"name"`
	APIs []API  `json:"apis"`
}

// Validate reports the first record that cannot become a graph node, naming it and its field.
func (c Catalog) Validate() error {
	if len(c.APIs) == 0 {
		return errors.New("catalog has no APIs")
	}
	seen := make(map[string]int, len(c.APIs))
	for i, a := range c.APIs {
		where := fmt.Sprintf("apis[%d]", i)
		if strings.TrimSpace(a.Name) == "" {
			return fmt.Errorf("%s: field name is empty", where)
		}
		where = fmt.Sprintf("apis[%d] (%s)", i, a.Name)
		if j, dup := seen[a.Name]; dup {
			return fmt.Errorf("%s: name repeats apis[%d]", where, j)
		}
		seen[a.Name] = i
		for _, ps := range []struct {
			field  string
			params []Param
		}{{"inputs", a.Inputs}, {"outputs", a.Outputs}} {
			names := make(map[string]bool, len(ps.params))
			for k, p := range ps.params {
				if strings.TrimSpace(p.Name) == "" {
					return fmt.Errorf("%s: %s[%d]: field name is empty", where, ps.field, k)
				}
				if names[p.Name] {
					return fmt.Errorf("%s: %s[%d]: parameter %q appears twice", where, ps.field, k, p.Name)
				}
				names[p.Name] = true
			}
		}
	}
	return nil
}

// DecodeCatalog reads a catalog in Navi's native JSON format and validates it. source names
// the input (a file path, usually) in errors.
//
// The format is the JSON form of Catalog:
//
//	{"name": "travel", "apis": [{"name": "Geocoding", "description": "...", "provider": "...",
//	  "inputs": [{"name": "city", "type": "string", "description": "...", "required": true}],
//	  "outputs": [{"name": "latitude", "type": "number"}]}]}
//
// Unknown fields are errors, so a misspelt field is not silently dropped.
func DecodeCatalog(r io.Reader, source string) (Catalog, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var c Catalog
	if err := dec.Decode(&c); err != nil {
		return Catalog{}, fmt.Errorf("catalog %s: %w", source, describeJSONError(err))
	}
	if err := c.Validate(); err != nil {
		return Catalog{}, fmt.Errorf("catalog %s: %w", source, err)
	}
	return c, nil
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
