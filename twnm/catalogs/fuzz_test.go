package catalogs

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzImporters feeds arbitrary bytes to every importer, and to Load in every format (sniffing
// and the lenient reading of OpenAPI and Swagger): they may fail, never panic.
// Run with: go test -fuzz FuzzImporters ./twnm/catalogs
func FuzzImporters(f *testing.F) {
	for _, seed := range []string{
		`[{"name": "A", "input_parameters": {"q": {"type": "str"}}}]`,
		`[{"query_id": 1, "api_list": [{"tool_name": "T", "api_name": "A", "template_response": "{\"a\": 1, \"b"}]}]`,
		`{"q": {"available_tools": [{"name": "a", "parameters": {"properties": {"x": {}}, "required": ["y"]}}]}}`,
		`{"openapi": "3.0.0", "info": {"title": "t", "version": "1"}, "paths": {"/a/{b}": {"get": {"responses": {"200": {"description": "", "content": {"application/json": {"schema": {"type": "array", "items": {"allOf": [{"$ref": "#/components/schemas/S"}]}}}}}}}}}, "components": {"schemas": {"S": {"properties": {"s": {"$ref": "#/components/schemas/S"}}}}}}`,
		`{"name": "x", "apis": [{"name": "A", "endpoint": {"method": "GET", "path": "/{a}"}, "inputs": [{"name": "a", "in": "path", "required": true}], "timeout": "1s"}]}`,
		"name: x\napis: [{name: A}]\n",
		`{"openapi": "3.0.1", "info": {"title": "t", "version": "1"}, "paths": {"/p/{id}": {"get": {"parameters": [{"name": "id", "in": "path", "required": "true", "schema": {"type": "string", "maxLength": "64"}}], "responses": {"200": {"description": ""}}}}}}`,
		"swagger: '2.0'\ninfo: {title: t, version: '1'}\nhost: h.example\npaths:\n  /p/{id}:\n    get:\n      parameters: [{name: id, in: path, required: true, type: integer}]\n      responses: {'200': {description: ok, schema: {$ref: '#/definitions/P'}}}\ndefinitions:\n  P: {type: object, properties: {id: {type: integer}}}\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		for _, name := range []string{"G1.json", "spec.yaml", "c.yaml"} {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		json := filepath.Join(dir, "G1.json")
		_, _ = APIBank(json)
		_, _ = StableToolBench(json)
		_, _ = ToolBenchTools(json)
		_, _ = OpenAPI(json)
		_, _ = OpenAPI(filepath.Join(dir, "spec.yaml"))
		_, _ = Native(json)
		_, _ = Native(filepath.Join(dir, "c.yaml"))
		for _, f := range append([]Format{FormatAuto}, Formats...) {
			_, _, _ = Load(json, f)
		}
	})
}
