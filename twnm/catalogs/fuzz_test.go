package catalogs

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzImporters feeds arbitrary bytes to every importer: they may fail, never panic.
// Run with: go test -fuzz FuzzImporters ./twnm/catalogs
func FuzzImporters(f *testing.F) {
	for _, seed := range []string{
		`[{"name": "A", "input_parameters": {"q": {"type": "str"}}}]`,
		`[{"query_id": 1, "api_list": [{"tool_name": "T", "api_name": "A", "template_response": "{\"a\": 1, \"b"}]}]`,
		`{"q": {"available_tools": [{"name": "a", "parameters": {"properties": {"x": {}}, "required": ["y"]}}]}}`,
		`{"openapi": "3.0.0", "info": {"title": "t", "version": "1"}, "paths": {"/a/{b}": {"get": {"responses": {"200": {"description": "", "content": {"application/json": {"schema": {"type": "array", "items": {"allOf": [{"$ref": "#/components/schemas/S"}]}}}}}}}}}, "components": {"schemas": {"S": {"properties": {"s": {"$ref": "#/components/schemas/S"}}}}}}`,
		`{"name": "x", "apis": [{"name": "A", "endpoint": {"method": "GET", "path": "/{a}"}, "inputs": [{"name": "a", "in": "path", "required": true}], "timeout": "1s"}]}`,
		"name: x\napis: [{name: A}]\n",
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
	})
}
