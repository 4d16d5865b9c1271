package catalogs

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/naviagent/navi/twnm"
)

// apiBankRecord is one entry of API-Bank's api_catalog_extracted.json.
type apiBankRecord struct {
	Name        string          `json:"name"`
	Set         string          `json:"set"`
	Description string          `json:"description"`
	Inputs      json.RawMessage `json:"input_parameters"`
	Outputs     json.RawMessage `json:"output_parameters"`
}

// apiBankParam is the value of one entry of input_parameters or output_parameters.
type apiBankParam struct {
	Type        string `json:"type"`
	Description string `json:"description"`
}

// APIBank imports API-Bank's api_catalog_extracted.json: a JSON array of records
// {"name", "set", "description", "input_parameters": {p: {"type", "description"}},
// "output_parameters": {...}}.
//
// Each record becomes one API named as in the source, provider "api-bank", tagged with its
// set ("lv1-lv2" or "lv3"). Parameters keep the source's order. Every input is marked
// required, since API-Bank's Python tools check all of them. Some names repeat across the
// two sets (AddMeeting, Calculator, QueryMeeting, ToolSearcher in the published file): the
// first record of a name is kept and the later ones are dropped, so the 75 records give 71
// APIs. Where the copies differ (the lv3 AddMeeting and QueryMeeting take other inputs), use
// APIBankSet for the set whose dialogues or chains are replayed. A missing or null parameter
// object means no parameters.
func APIBank(path string) (twnm.Catalog, error) {
	c, err := apiBank(path, "")
	if err != nil {
		return twnm.Catalog{}, fmt.Errorf("api-bank catalog %s: %w", path, err)
	}
	return c, nil
}

// APIBankSet imports only the records of one set of API-Bank's api_catalog_extracted.json,
// "lv1-lv2" (53 APIs, the tools of the level-1 and level-2 dialogues) or "lv3" (22 APIs, the
// tools of the level-3 chains), mapped as APIBank does. Names do not repeat within a set.
// The catalog is named "api-bank-" + set.
func APIBankSet(path, set string) (twnm.Catalog, error) {
	c, err := apiBank(path, set)
	if err != nil {
		return twnm.Catalog{}, fmt.Errorf("api-bank catalog %s: %w", path, err)
	}
	return c, nil
}

// APIBankPreferring imports every record as APIBank does, except that a name repeated across
// the sets takes the copy of set ("lv3": the QueryMeeting that takes a user name, which the
// level-3 chains call), so that a set's chains replay over the whole catalog with the tools
// they called. The catalog keeps APIBank's order; it is named "api-bank-" + set + "-preferred",
// since it is not APIBank's catalog.
func APIBankPreferring(path, set string) (twnm.Catalog, error) {
	all, err := apiBank(path, "")
	if err != nil {
		return twnm.Catalog{}, fmt.Errorf("api-bank catalog %s: %w", path, err)
	}
	mine, err := apiBank(path, set)
	if err != nil {
		return twnm.Catalog{}, fmt.Errorf("api-bank catalog %s: %w", path, err)
	}
	byName := make(map[string]twnm.API, len(mine.APIs))
	for _, a := range mine.APIs {
		byName[a.Name] = a
	}
	for i, a := range all.APIs {
		if b, ok := byName[a.Name]; ok {
			all.APIs[i] = b
		}
	}
	all.Name = "api-bank-" + set + "-preferred"
	return all, nil
}

// apiBank imports the records of set, or all records when set is "".
func apiBank(path, set string) (twnm.Catalog, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return twnm.Catalog{}, err
	}
	var records []json.RawMessage
	if err := decodeJSON(data, &records); err != nil {
		return twnm.Catalog{}, fmt.Errorf("want an array of records: %w", err)
	}
	c := twnm.Catalog{Name: "api-bank"}
	if set != "" {
		c.Name += "-" + set
	}
	seen := make(map[string]bool, len(records))
	for i, raw := range records {
		var r apiBankRecord
		if err := decodeJSON(raw, &r); err != nil {
			return twnm.Catalog{}, recordError(i, lenientName(raw, "name"), err)
		}
		if r.Name == "" {
			return twnm.Catalog{}, recordError(i, "", fieldError("name", fmt.Errorf("missing or empty")))
		}
		if set != "" && r.Set != set {
			continue
		}
		if seen[r.Name] {
			continue // a later set's copy of an API already taken
		}
		seen[r.Name] = true
		a := twnm.API{Name: r.Name, Description: r.Description, Provider: "api-bank"}
		if r.Set != "" {
			a.Tags = []string{r.Set}
		}
		if a.Inputs, err = apiBankParams(r.Inputs, "input_parameters", true); err != nil {
			return twnm.Catalog{}, recordError(i, r.Name, err)
		}
		if a.Outputs, err = apiBankParams(r.Outputs, "output_parameters", false); err != nil {
			return twnm.Catalog{}, recordError(i, r.Name, err)
		}
		c.APIs = append(c.APIs, a)
	}
	if set != "" && len(c.APIs) == 0 {
		return twnm.Catalog{}, fieldError("set", fmt.Errorf("no record has set %q", set))
	}
	if err := c.Validate(); err != nil {
		return twnm.Catalog{}, err
	}
	return c, nil
}

// apiBankParams reads one parameter object, {name: {"type", "description"}}, in order.
func apiBankParams(raw json.RawMessage, field string, required bool) ([]twnm.Param, error) {
	if isAbsent(raw) {
		return nil, nil
	}
	members, err := objectMembers(raw)
	if err != nil {
		return nil, fieldError(field, err)
	}
	var out []twnm.Param
	for _, m := range members {
		if m.Key == "" {
			return nil, fieldError(field, fmt.Errorf("a parameter has an empty name"))
		}
		var p apiBankParam
		if k := jsonKind(m.Value); k != "object" {
			return nil, fieldError(field+"."+m.Key, fmt.Errorf("want an object, got %s", k))
		}
		if err := decodeJSON(m.Value, &p); err != nil {
			return nil, fieldError(field+"."+m.Key, err)
		}
		out = append(out, twnm.Param{Name: m.Key, Type: p.Type, Description: p.Description, Required: required})
	}
	return out, nil
}
