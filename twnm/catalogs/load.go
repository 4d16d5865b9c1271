package catalogs

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/naviagent/navi/twnm"
)

// Format is a catalog format Load reads.
type Format string

// Formats.
const (
	// FormatAuto tells the format from the document: a top-level "openapi" field is OpenAPI
	// 3, "swagger" Swagger 2.0, "apis" Navi's own format.
	FormatAuto    Format = ""
	FormatNative  Format = "native"
	FormatOpenAPI Format = "openapi"
	FormatSwagger Format = "swagger"
)

// Formats lists the formats Load reads, for flags and errors.
var Formats = []Format{FormatNative, FormatOpenAPI, FormatSwagger}

// Warning is something an import read leniently: where (the operation and field, or the
// record) and what it did.
type Warning struct {
	Where   string `json:"where"`
	Message string `json:"message"`
}

func (w Warning) String() string { return w.Where + ": " + w.Message }

// Load reads a catalog file (JSON or YAML, by content) in format, or in the format its content
// names when format is FormatAuto. OpenAPI and Swagger documents are read leniently: a
// boolean or a number written as a string ("required": "true", "maxLength": "64"), as real
// specs often do, is read as what it says, with a Warning naming the operation and field.
// Errors name the file, and the operation and field where they can.
func Load(path string, format Format) (twnm.Catalog, []Warning, error) {
	c, _, warnings, err := LoadWith(path, format, LoadOptions{})
	return c, warnings, err
}

// LoadOptions says how an import reads what it cannot take as it is.
type LoadOptions struct {
	// Strict refuses an OpenAPI or Swagger document with any operation that cannot become an
	// API (a repeated operationId, a bad schema, a server URL that is no URL); without it such
	// an operation is left out with a Warning naming its method, path and field, and the rest
	// imports.
	Strict bool
	// BaseURL is where the APIs of a document that names no server (or only a relative one,
	// "/v1") are called: http(s)://host[/prefix]. Without it such a document imports with a
	// Warning, and its calls fail until it is imported again with one.
	BaseURL string
}

// LoadWith is Load with options; it also returns the format it read (the one its content
// names, for FormatAuto).
func LoadWith(path string, format Format, o LoadOptions) (twnm.Catalog, Format, []Warning, error) {
	label := "catalog " + path
	if format != FormatAuto {
		label = string(format) + " " + label
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return twnm.Catalog{}, format, nil, fmt.Errorf("%s: %w", label, err)
	}
	if data, err = gunzip(data); err != nil {
		return twnm.Catalog{}, format, nil, fmt.Errorf("%s: %w", label, err)
	}
	data, err = toJSON(data)
	if err != nil {
		return twnm.Catalog{}, format, nil, fmt.Errorf("%s: %w", label, err)
	}
	if format == FormatAuto {
		if format, err = sniff(data); err != nil {
			return twnm.Catalog{}, format, nil, fmt.Errorf("%s: %w", label, err)
		}
	}
	switch format {
	case FormatNative:
		c, err := twnm.DecodeCatalog(bytes.NewReader(data), path)
		return c, format, nil, err
	case FormatOpenAPI, FormatSwagger:
		c, warnings, err := openAPIData(data, filepath.Base(path), format == FormatSwagger, o)
		if err != nil {
			return twnm.Catalog{}, format, warnings, fmt.Errorf("%s catalog %s: %w", format, path, err)
		}
		return c, format, warnings, nil
	}
	return twnm.Catalog{}, format, nil, fmt.Errorf("catalog %s: unknown format %q, want one of %s", path, format, formatList())
}

func formatList() string {
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

// toJSON returns data as JSON: as it is when it is JSON, else converted from YAML 1.2
// (yamlToJSON: a repeated key is an error, as JSON decoding would let it pass).
func toJSON(data []byte) ([]byte, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') && json.Valid(trimmed) {
		return trimmed, nil
	}
	out, err := yamlToJSON(data)
	if err != nil {
		return nil, fmt.Errorf("neither JSON nor valid YAML: %w", err)
	}
	return out, nil
}

// sniff tells the format of a JSON document by its top-level fields.
func sniff(data []byte) (Format, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return "", errors.New("the document is not an object: not a catalog")
	}
	switch {
	case top["openapi"] != nil:
		return FormatOpenAPI, nil
	case top["swagger"] != nil:
		return FormatSwagger, nil
	case top["apis"] != nil:
		return FormatNative, nil
	}
	return "", fmt.Errorf("no top-level openapi, swagger or apis field: not a format Navi reads (%s; -format names one)", formatList())
}

// Fields of OpenAPI and Swagger objects whose values are booleans or numbers.
var (
	boolFields = map[string]bool{"required": true, "deprecated": true, "nullable": true, "readOnly": true,
		"writeOnly": true, "allowEmptyValue": true, "explode": true, "allowReserved": true, "uniqueItems": true,
		"additionalProperties": true, "exclusiveMinimum": true, "exclusiveMaximum": true}
	numberFields = map[string]bool{"minimum": true, "maximum": true, "multipleOf": true, "minLength": true,
		"maxLength": true, "minItems": true, "maxItems": true, "minProperties": true, "maxProperties": true}
)

// coerce rewrites, in place, what real documents write loosely, and returns a Warning for
// each: a boolean or a number written as a string in a field that takes one ("required":
// "true"), and a schema's "items" written as a list of schemas (JSON Schema's tuple form, read
// as all of them: allOf). A "required" that lists names (a schema's) is left alone; so is
// everything under an example, a default or an enum, whose values are data. A $ref into
// another file is an error naming where it is: an import reads one file.
func coerce(v any, path []string, warnings *[]Warning) error {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if strings.HasPrefix(k, "x-") {
				delete(v, k) // a vendor extension: nothing here reads it, not even its $refs
				continue
			}
			if dataKey(k) {
				continue
			}
			s, isString := v[k].(string)
			if list, isList := v[k].([]any); k == "items" && isList {
				v[k] = map[string]any{"allOf": list}
				*warnings = append(*warnings, Warning{Where: where(append(path, k)),
					Message: fmt.Sprintf("a list of %d schemas (JSON Schema's tuple form) read as all of them", len(list))})
			}
			switch {
			case k == "$ref" && isString && !strings.HasPrefix(s, "#"):
				return fmt.Errorf("%s: $ref %q points into another file, and an import reads one file: bundle the spec first (e.g. redocly bundle)",
					where(path), s)
			case isString && boolFields[k]:
				if b, err := strconv.ParseBool(strings.TrimSpace(s)); err == nil {
					v[k] = b
					*warnings = append(*warnings, Warning{Where: where(append(path, k)), Message: fmt.Sprintf("%q read as the boolean %t", s, b)})
				}
			case isString && numberFields[k]:
				if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
					v[k] = f
					*warnings = append(*warnings, Warning{Where: where(append(path, k)), Message: fmt.Sprintf("%q read as the number %g", s, f)})
				}
			default:
				if err := coerce(v[k], append(path, k), warnings); err != nil {
					return err
				}
			}
		}
	case []any:
		for i, e := range v {
			if err := coerce(e, append(path, fmt.Sprintf("[%d]", i)), warnings); err != nil {
				return err
			}
		}
	}
	return nil
}

// dataKey reports whether the value under a document's key k is data (an example, a
// default, an enum's values), whose fields are no schema fields.
func dataKey(k string) bool {
	return k == "example" || k == "examples" || k == "default" || k == "enum"
}

// where names a place of an OpenAPI document for people: "GET /pets: parameters[0].required"
// inside an operation, else the dotted path.
func where(path []string) string {
	join := func(ps []string) string {
		var b strings.Builder
		for i, p := range ps {
			if i > 0 && !strings.HasPrefix(p, "[") {
				b.WriteByte('.')
			}
			b.WriteString(p)
		}
		return b.String()
	}
	if len(path) >= 3 && path[0] == "paths" && httpMethod(path[2]) {
		op := strings.ToUpper(path[2]) + " " + path[1]
		if len(path) == 3 {
			return op
		}
		return op + ": " + join(path[3:])
	}
	return join(path)
}

func httpMethod(s string) bool {
	switch strings.ToLower(s) {
	case "get", "put", "post", "delete", "options", "head", "patch", "trace":
		return true
	}
	return false
}

// MaxUnzippedBytes bounds what a gzip-compressed catalog file may hold once decompressed: the
// largest public specs are a few tens of megabytes, and a file that claims far more is
// refused before it fills the memory.
const MaxUnzippedBytes = 256 << 20

// gunzip returns data decompressed when it is gzip-compressed (it starts with gzip's magic
// bytes, whatever the file is named: public specs are often kept as .json.gz), else data.
func gunzip(data []byte) ([]byte, error) {
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		return data, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	out, err := io.ReadAll(io.LimitReader(zr, MaxUnzippedBytes+1))
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	if len(out) > MaxUnzippedBytes {
		return nil, fmt.Errorf("gzip: more than %d MiB once decompressed", MaxUnzippedBytes>>20)
	}
	return out, nil
}
