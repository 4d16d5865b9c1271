// Package catalogs reads tool catalogs into twnm.Catalog: Navi's own format, and importers for
// public tool-use datasets and OpenAPI documents.
//
// Every importer validates what it returns (twnm.Catalog.Validate), never panics on malformed
// input, and names in each error the file, the record and the field, e.g.
//
//	api-bank catalog x.json: record 3 (AddAgenda): field input_parameters: want an object, got array
//
// # Native format
//
// Native reads the JSON form of twnm.Catalog, or the same in YAML (by extension: .json, .yaml,
// .yml). Unknown fields are errors. Fields are snake_case and optional unless marked.
//
// The catalog has a name and apis (required, not empty). Each API has:
//
//   - name (required, unique in the catalog), description, provider, category, tags;
//   - endpoint: method (required, upper case); path, a template starting with "/" or an
//     absolute http(s) URL, each {name} in it an input with in "path" or no in; base_url, an
//     absolute http(s) URL or a path starting with "/";
//   - inputs and outputs: parameters with name (required, unique in its list), type,
//     description, and for inputs required, in (query, path, header, body or cookie; a
//     path input must be required and appear in the endpoint path) and enum, the values the
//     input accepts (a request binds only one of them; a call refuses any other); for outputs path, where
//     the value lies in the answer when not in its top-level field of that name (keys joined
//     by dots, "[]" taking a list's first item: "results[].id"), and entity, the resource a
//     list item's generic field (id, name) belongs to when it is not the API's own
//     ("movie" for the cast[].id of a person's credits; the OpenAPI importer infers it);
//   - retry: max_attempts (calls in all), initial_interval, max_interval (not below
//     initial_interval); and timeout. Durations are Go duration strings: "500ms", "30s", "1m30s".
//   - auth: the credential a call sends: scheme (bearer; header or query, an API key under
//     name; basic, the secret being "user:password") and secret, the name of a secret the
//     worker resolves (NAVI_SECRET_<NAME>, or a file in NAVI_SECRETS_DIR). A catalog never
//     holds a secret's value: {"scheme": "header", "name": "X-Api-Key", "secret": "weather"};
//   - effect: read, idempotent (honours the Idempotency-Key Navi sends) or unsafe; left out,
//     GET, HEAD and OPTIONS read and other methods are unsafe. A call of an unsafe API cut
//     off with its worker is not sent again blindly: the run asks its check, or the user;
//   - check: for an unsafe API, the API of the catalog that tells whether a call took effect
//     (it reads, takes some of the API's inputs by the same names, and answers with what the
//     call made, or with nothing: an empty answer or 404).
//
// In JSON:
//
//	{
//	  "name": "travel",
//	  "apis": [
//	    {
//	      "name": "Geocode",
//	      "description": "Finds the coordinates of a city.",
//	      "provider": "maps.example",
//	      "category": "maps",
//	      "tags": ["geo"],
//	      "endpoint": {"method": "GET", "path": "/geocode", "base_url": "https://maps.example/v1"},
//	      "inputs": [
//	        {"name": "city", "type": "string", "description": "City name.", "required": true, "in": "query"}
//	      ],
//	      "outputs": [
//	        {"name": "lat", "type": "number", "description": "Latitude."},
//	        {"name": "lon", "type": "number", "description": "Longitude."}
//	      ],
//	      "retry": {"max_attempts": 3, "initial_interval": "1s", "max_interval": "30s"},
//	      "timeout": "10s"
//	    },
//	    {
//	      "name": "Forecast",
//	      "description": "Weather forecast at a point.",
//	      "provider": "weather.example",
//	      "endpoint": {"method": "GET", "path": "/points/{lat},{lon}/forecast", "base_url": "https://weather.example"},
//	      "inputs": [
//	        {"name": "lat", "type": "number", "required": true, "in": "path"},
//	        {"name": "lon", "type": "number", "required": true, "in": "path"},
//	        {"name": "units", "type": "string", "in": "query"}
//	      ],
//	      "outputs": [{"name": "temperature", "type": "number"}]
//	    }
//	  ]
//	}
//
// The same in YAML (quote a path with braces, which YAML would read as a mapping):
//
//	name: travel
//	apis:
//	  - name: Geocode
//	    description: Finds the coordinates of a city.
//	    provider: maps.example
//	    category: maps
//	    tags: [geo]
//	    endpoint: {method: GET, path: /geocode, base_url: "https://maps.example/v1"}
//	    inputs:
//	      - {name: city, type: string, description: City name., required: true, in: query}
//	    outputs:
//	      - {name: lat, type: number, description: Latitude.}
//	      - {name: lon, type: number, description: Longitude.}
//	    retry: {max_attempts: 3, initial_interval: 1s, max_interval: 30s}
//	    timeout: 10s
//	  - name: Forecast
//	    description: Weather forecast at a point.
//	    provider: weather.example
//	    endpoint:
//	      method: GET
//	      path: "/points/{lat},{lon}/forecast"
//	      base_url: https://weather.example
//	    inputs:
//	      - {name: lat, type: number, required: true, in: path}
//	      - {name: lon, type: number, required: true, in: path}
//	      - {name: units, type: string, in: query}
//	    outputs:
//	      - {name: temperature, type: number}
//
// Both files are in testdata/native, and the tests check that they read alike.
//
// # Importers
//
// Each importer's documentation gives its rules in full; in short:
//
//   - APIBank (API-Bank api_catalog_extracted.json): one API per record, provider "api-bank",
//     tag = the record's set; parameters in source order; every input required; a repeated
//     name keeps its first record (75 records give 71 APIs). APIBankSet imports one set,
//     "lv1-lv2" (53) or "lv3" (22), where the copies of a name differ.
//   - StableToolBench (solvable_queries/test_instruction/G*.json): the union of the queries'
//     api_list entries, deduplicated by (tool_name, api_name), first kept; name
//     Identifier(tool_name) + "." + Identifier(api_name); provider tool_name, category
//     category_name, endpoint method only; required_parameters then optional_parameters;
//     outputs are the top-level keys of template_response (also of a cut-off JSON string
//     template). 2,479 APIs from the six files.
//   - ToolBenchTools (tooleval G*.json available_tools): functions deduplicated by name, first
//     kept, Finish skipped; provider and description parsed out of the generated description;
//     inputs from the JSON schema properties, required from its required list; no outputs.
//   - OpenAPI (OpenAPI 3, JSON or YAML, via kin-openapi): one API per operation, named by
//     operationId or Identifier("METHOD /path"); parameters and JSON body properties are inputs
//     with their location and their schema's enum; outputs are the top-level properties of the first 2xx JSON response
//     schema, an array of objects standing for its item, plus the item properties of top-level
//     arrays of objects; endpoint = method, path, first server URL.
//   - Native: the format above.
package catalogs
