package catalogs

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/naviagent/navi/twnm"
)

// Native reads a catalog in Navi's own format (see the package documentation), JSON or YAML
// by the file's extension: .json, or .yaml / .yml. YAML is converted to JSON first and then
// decoded by twnm.DecodeCatalog, so both forms have the same field names, reject unknown
// fields and repeated keys alike, and are validated alike. In errors about a YAML file, byte
// offsets count in its JSON conversion; the record is named as apis[i] (name) either way.
func Native(path string) (twnm.Catalog, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return twnm.Catalog{}, fmt.Errorf("catalog %s: %w", path, err)
	}
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".json":
	case ".yaml", ".yml":
		// YAML 1.2, as Load reads it: "n" is a name, not false; a repeated key is an error,
		// which JSON decoding would let pass.
		if data, err = yamlToJSON(data); err != nil {
			return twnm.Catalog{}, fmt.Errorf("catalog %s: invalid YAML: %w", path, err)
		}
	default:
		return twnm.Catalog{}, fmt.Errorf("catalog %s: extension %q is not .json, .yaml or .yml", path, ext)
	}
	return twnm.DecodeCatalog(bytes.NewReader(data), path)
}
