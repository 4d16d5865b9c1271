package catalogs

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	yaml "go.yaml.in/yaml/v3"
)

// yamlToJSON converts a YAML document to JSON by YAML 1.2's core schema, as OpenAPI asks:
// only true and false are booleans (YAML 1.1, and so sigs.k8s.io/yaml, also reads y, n, yes,
// no, on and off as booleans, which turns a property named "n" into false), mapping keys of
// any kind become strings (response codes: 200), and a key repeated in one mapping is an
// error. Anchors and aliases are followed.
func yamlToJSON(data []byte) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 {
		return nil, errors.New("empty document")
	}
	v, err := yamlValue(doc.Content[0], 0)
	if err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// maxYAMLDepth bounds nesting, aliases included: a document that nests deeper is refused
// rather than followed (an alias bomb).
const maxYAMLDepth = 512

func yamlValue(n *yaml.Node, depth int) (any, error) {
	if depth > maxYAMLDepth {
		return nil, fmt.Errorf("line %d: nested more than %d levels deep", n.Line, maxYAMLDepth)
	}
	switch n.Kind {
	case yaml.AliasNode:
		return yamlValue(n.Alias, depth+1)
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return yamlValue(n.Content[0], depth+1)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := yamlValue(c, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, vn := n.Content[i], n.Content[i+1]
			if k.Kind == yaml.AliasNode {
				k = k.Alias
			}
			if k.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("line %d: a mapping key that is not a scalar", k.Line)
			}
			if k.Tag == "!!merge" { // <<: *base
				base, err := yamlValue(vn, depth+1)
				if err != nil {
					return nil, err
				}
				if m, ok := base.(map[string]any); ok {
					for bk, bv := range m {
						if _, set := out[bk]; !set {
							out[bk] = bv
						}
					}
				}
				continue
			}
			if _, dup := out[k.Value]; dup {
				return nil, fmt.Errorf("line %d: key %q repeats", k.Line, k.Value)
			}
			v, err := yamlValue(vn, depth+1)
			if err != nil {
				return nil, err
			}
			out[k.Value] = v
		}
		return out, nil
	}
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, fmt.Errorf("line %d: %w", n.Line, err)
		}
		return b, nil
	case "!!int":
		var i int64
		if err := n.Decode(&i); err == nil {
			return i, nil
		}
		fallthrough // too large for int64
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return n.Value, nil // .inf, .nan, and what JSON cannot hold, kept as text
		}
		return f, nil
	}
	return n.Value, nil
}
