package toolworld

import (
	"strings"

	"github.com/naviagent/navi/twnm"
)

// OpenAPI returns a minimal OpenAPI 3.0 document of the registry: one operation per API,
// named by operationId, with its parameters, a JSON request body for body inputs and the
// outputs as the properties of the 200 response. baseURL, when not empty, is its server.
func OpenAPI(baseURL string) map[string]any {
	paths := map[string]any{}
	for _, t := range Registry() {
		a := t.API
		var params []any
		bodyProps := map[string]any{}
		var bodyReq []string
		for _, p := range a.Inputs {
			if p.In == twnm.InBody {
				bodyProps[p.Name] = schema(p)
				if p.Required {
					bodyReq = append(bodyReq, p.Name)
				}
				continue
			}
			params = append(params, map[string]any{
				"name": p.Name, "in": p.In, "required": p.Required, "description": p.Description,
				"schema": map[string]any{"type": p.Type},
			})
		}
		outProps := map[string]any{}
		for _, p := range a.Outputs {
			outProps[p.Name] = schema(p)
		}
		op := map[string]any{
			"operationId": a.Name,
			"summary":     a.Description,
			"tags":        a.Tags,
			"x-provider":  a.Provider,
			"responses": map[string]any{
				"200": map[string]any{
					"description": "OK",
					"content": map[string]any{"application/json": map[string]any{
						"schema": map[string]any{"type": "object", "properties": outProps},
					}},
				},
				"400": map[string]any{"description": "A required input is missing or invalid."},
			},
		}
		if len(params) > 0 {
			op["parameters"] = params
		}
		if len(bodyProps) > 0 {
			s := map[string]any{"type": "object", "properties": bodyProps}
			if len(bodyReq) > 0 {
				s["required"] = bodyReq
			}
			op["requestBody"] = map[string]any{
				"required": true,
				"content":  map[string]any{"application/json": map[string]any{"schema": s}},
			}
		}
		item, _ := paths[a.Endpoint.Path].(map[string]any)
		if item == nil {
			item = map[string]any{}
			paths[a.Endpoint.Path] = item
		}
		item[strings.ToLower(a.Endpoint.Method)] = op
	}
	doc := map[string]any{
		"openapi": "3.0.3",
		"info":    map[string]any{"title": "toolworld", "version": "1.0.0", "description": "Navi's local tool world: deterministic tools in seven domains."},
		"paths":   paths,
	}
	if baseURL != "" {
		doc["servers"] = []any{map[string]any{"url": baseURL}}
	}
	return doc
}

func schema(p twnm.Param) map[string]any {
	return map[string]any{"type": p.Type, "description": p.Description}
}
