package catalogs

import (
	"bytes"
	"compress/gzip"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm"
)

// lenientSpec writes its booleans and numbers as strings, as real public specs do.
const lenientSpec = `{
  "openapi": "3.0.1",
  "info": {"title": "pets", "version": "1"},
  "servers": [{"url": "https://pets.example/v1"}],
  "paths": {
    "/pets/{petId}": {
      "get": {
        "operationId": "getPet",
        "parameters": [
          {"name": "petId", "in": "path", "required": "true", "schema": {"type": "string", "maxLength": "64"}},
          {"name": "verbose", "in": "query", "required": "False", "schema": {"type": "boolean", "default": "true"}}
        ],
        "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {
          "type": "object", "required": ["id"], "properties": {"id": {"type": "string"}, "name": {"type": "string", "example": "true"}}}}}}}
      }
    }
  }
}`

func TestLoadLenientOpenAPI(t *testing.T) {
	c, warnings, err := Load(writeFile(t, "pets.json", lenientSpec), FormatAuto)
	require.NoError(t, err)
	get := api(t, c, "getPet")
	require.Len(t, get.Inputs, 2)
	assert.True(t, get.Inputs[0].Required)
	assert.False(t, get.Inputs[1].Required)
	assert.Equal(t, []Warning{
		{Where: "GET /pets/{petId}: parameters[0].required", Message: `"true" read as the boolean true`},
		{Where: "GET /pets/{petId}: parameters[0].schema.maxLength", Message: `"64" read as the number 64`},
		{Where: "GET /pets/{petId}: parameters[1].required", Message: `"False" read as the boolean false`},
	}, warnings, "defaults, examples and a schema's list of required names are data, left alone")

	// Without leniency this spec fails in kin-openapi naming no operation or field.
	_, err = OpenAPI(writeFile(t, "pets.json", lenientSpec))
	require.NoError(t, err)
}

const swaggerSpec = `swagger: "2.0"
info: {title: Petstore, version: "1.0"}
host: petstore.example
basePath: /v2
schemes: [https]
paths:
  /pet/{petId}:
    get:
      operationId: getPetById
      summary: Find pet by ID
      produces: [application/json]
      parameters:
        - {name: petId, in: path, required: true, type: integer}
      responses:
        "200": {description: ok, schema: {$ref: "#/definitions/Pet"}}
  /pet:
    post:
      operationId: addPet
      consumes: [application/json]
      parameters:
        - {name: body, in: body, required: true, schema: {$ref: "#/definitions/Pet"}}
      responses:
        "200": {description: ok, schema: {$ref: "#/definitions/Pet"}}
definitions:
  Pet:
    type: object
    required: [name]
    properties:
      id: {type: integer}
      name: {type: string}
      status: {type: string}
`

func TestLoadSwagger2(t *testing.T) {
	c, warnings, err := Load(writeFile(t, "petstore.yaml", swaggerSpec), FormatAuto)
	require.NoError(t, err)
	assert.Empty(t, warnings)
	assert.Equal(t, "Petstore", c.Name)
	get := api(t, c, "getPetById")
	require.NotNil(t, get.Endpoint)
	assert.Equal(t, "GET", get.Endpoint.Method)
	assert.Equal(t, "https://petstore.example/v2", get.Endpoint.BaseURL)
	assert.Equal(t, "/pet/{petId}", get.Endpoint.Path)
	require.Len(t, get.Inputs, 1)
	assert.Equal(t, twnm.Param{Name: "petId", Type: "integer", Required: true, In: twnm.InPath}, get.Inputs[0])
	var outs []string
	for _, o := range get.Outputs {
		outs = append(outs, o.Name)
	}
	assert.Equal(t, []string{"id", "name", "status"}, outs, "the $ref to a definition is followed")
	add := api(t, c, "addPet")
	var body []string
	for _, in := range add.Inputs {
		if in.In == twnm.InBody {
			body = append(body, in.Name)
		}
	}
	assert.ElementsMatch(t, []string{"id", "name", "status"}, body, "the body's properties are inputs")
}

// gzipped is data compressed with gzip, as a string for a test file's content.
func gzipped(t *testing.T, data []byte) string {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	_, err := zw.Write(data)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return b.String()
}

func TestLoadSniffs(t *testing.T) {
	native := `{"name": "n", "apis": [{"name": "A", "description": "does a"}]}`
	tests := []struct {
		name, file, content string
		format              Format
		wantAPI, wantErr    string
	}{
		{"native JSON", "c.json", native, FormatAuto, "A", ""},
		{"native YAML without extension", "catalog", "name: demo\napis:\n  - {name: B, description: does b}\n", FormatAuto, "B", ""},
		{"openapi", "spec", lenientSpec, FormatAuto, "getPet", ""},
		{"swagger", "spec.yml", swaggerSpec, FormatAuto, "getPetById", ""},
		{"forced format that does not fit", "c.json", native, FormatOpenAPI, "", "openapi catalog"},
		{"unknown document", "x.json", `{"tools": []}`, FormatAuto, "", "no top-level openapi, swagger or apis field"},
		{"not a document", "x.json", `[1, 2]`, FormatAuto, "", "not an object"},
		{"not JSON or YAML", "x", "a: [", FormatAuto, "", "neither JSON nor valid YAML"},
		{"unknown format", "c.json", native, Format("wsdl"), "", `unknown format "wsdl"`},
		{"gzip-compressed openapi", "spec.json.gz", gzipped(t, []byte(lenientSpec)), FormatAuto, "getPet", ""},
		{"gzip-compressed native YAML", "catalog.gz", gzipped(t, []byte("name: demo\napis:\n  - {name: B, description: does b}\n")), FormatAuto, "B", ""},
		{"broken gzip", "spec.json.gz", "\x1f\x8b\x08 not gzip", FormatAuto, "", "gzip:"},
		{"gzip bomb", "spec.json.gz", gzipped(t, make([]byte, MaxUnzippedBytes+1)), FormatAuto, "", "more than 256 MiB once decompressed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _, err := Load(writeFile(t, tt.file, tt.content), tt.format)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			api(t, c, tt.wantAPI)
		})
	}
}

// YAML is read as YAML 1.2, as OpenAPI asks: only true and false are booleans; response codes
// and other scalar keys are strings; a repeated key is an error.
func TestLoadYAML12(t *testing.T) {
	c, _, err := Load(writeFile(t, "c.yaml", "name: n\napis:\n  - {name: 'y', description: on}\n"), FormatAuto)
	require.NoError(t, err)
	assert.Equal(t, "n", c.Name, "n is a name, not false")
	assert.Equal(t, "on", c.APIs[0].Description)

	_, _, err = Load(writeFile(t, "c.yaml", "name: x\nname: y\napis: []\n"), FormatAuto)
	require.ErrorContains(t, err, `key "name" repeats`)

	spec := "openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      operationId: a\n" +
		"      responses:\n        200: &ok {description: fine, content: {application/json: {schema: {type: object, properties: {n: {type: string}}}}}}\n" +
		"  /b:\n    get:\n      operationId: b\n      responses:\n        200: *ok\n"
	c, _, err = Load(writeFile(t, "s.yaml", spec), FormatAuto)
	require.NoError(t, err)
	for _, name := range []string{"a", "b"} {
		require.Len(t, api(t, c, name).Outputs, 1, "%s: the 200 key and the alias are read", name)
		assert.Equal(t, "n", api(t, c, name).Outputs[0].Name)
	}
}
