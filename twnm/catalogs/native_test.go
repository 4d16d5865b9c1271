package catalogs

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm"
)

func TestNative(t *testing.T) {
	j, err := Native("testdata/native/travel.json")
	require.NoError(t, err)
	y, err := Native("testdata/native/travel.yaml")
	require.NoError(t, err)
	assert.Equal(t, j, y, "the JSON and YAML examples are the same catalog")

	require.Len(t, j.APIs, 2)
	g := j.APIs[0]
	assert.Equal(t, "GET /geocode", g.Endpoint.String())
	assert.Equal(t, &twnm.RetryHint{MaxAttempts: 3, InitialInterval: twnm.Duration(time.Second), MaxInterval: twnm.Duration(30 * time.Second)}, g.Retry)
	assert.Equal(t, twnm.Duration(10*time.Second), g.Timeout)
	assert.Equal(t, twnm.Param{Name: "city", Type: "string", Description: "City name.", Required: true, In: "query"}, g.Inputs[0])
	assert.Equal(t, []string{"lat", "lon", "units"}, paramNames(j.APIs[1].Inputs))

	// The repository's demo catalog is native JSON too.
	demo, err := Native("../../catalogs/api-bank-demo.json")
	require.NoError(t, err)
	assert.Len(t, demo.APIs, 14)
}

func TestNativeErrors(t *testing.T) {
	tests := []struct {
		name, file, in, want string
	}{
		{"extension", "c.txt", `{}`, `extension ".txt" is not .json, .yaml or .yml`},
		{"json unknown field", "c.json", `{"name": "x", "apis": [{"name": "A"}, {"name": "B", "inputs": [{"name": "q", "where": "query"}]}]}`,
			`apis[1] (B): json: unknown field "where"`},
		{"yaml unknown field", "c.yaml", "name: x\napis:\n  - name: A\n    descripton: typo\n", `apis[0] (A): json: unknown field "descripton"`},
		{"yaml repeated key", "c.yml", "name: x\nname: y\napis: []\n", "invalid YAML"},
		{"yaml syntax", "c.yaml", "name: [x\n", "invalid YAML"},
		{"yaml wrong type", "c.yaml", "apis:\n  - name: A\n  - name: B\n    inputs: {q: 1}\n", "apis[1] (B): field apis.inputs"},
		{"yaml bad duration", "c.yaml", "apis:\n  - name: A\n    timeout: 10\n", "apis[0] (A): field apis.timeout"},
		{"yaml invalid catalog", "c.yaml", "apis:\n  - name: A\n    endpoint: {method: GET, path: \"/a/{id}\"}\n", "apis[0] (A): endpoint: field path: {id} names no input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeFile(t, tt.file, tt.in)
			_, err := Native(p)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "catalog "+p+": ")
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	_, err := Native("testdata/native/none.yaml")
	require.ErrorContains(t, err, "catalog testdata/native/none.yaml: open testdata/native/none.yaml")
}

// TestNativeDocExamples keeps the examples in doc.go equal to the testdata files.
func TestNativeDocExamples(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	require.NoError(t, err)
	block := func(after string) string {
		_, rest, ok := strings.Cut(string(src), after+"\n//\n")
		require.True(t, ok, "doc.go has no %q", after)
		var b strings.Builder
		for _, line := range strings.Split(rest, "\n") {
			code, ok := strings.CutPrefix(line, "//\t")
			if !ok {
				break
			}
			b.WriteString(code + "\n")
		}
		return b.String()
	}
	want, err := Native("testdata/native/travel.json")
	require.NoError(t, err)
	for _, ex := range []struct{ heading, file string }{
		{"// In JSON:", "doc.json"},
		{"// The same in YAML (quote a path with braces, which YAML would read as a mapping):", "doc.yaml"},
	} {
		got, err := Native(writeFile(t, ex.file, block(ex.heading)))
		require.NoError(t, err, ex.file)
		assert.Equal(t, want, got, ex.file)
	}
}
