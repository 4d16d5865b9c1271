package twnm

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeCatalogDemo(t *testing.T) {
	f, err := os.Open("../catalogs/api-bank-demo.json")
	require.NoError(t, err)
	defer f.Close()

	c, err := DecodeCatalog(f, "api-bank-demo.json")
	require.NoError(t, err)
	assert.Equal(t, "api-bank-demo", c.Name)
	require.Len(t, c.APIs, 14)
	var geo API
	for _, a := range c.APIs {
		if a.Name == "Geocoding" {
			geo = a
		}
	}
	require.Equal(t, "Geocoding", geo.Name)
	require.Len(t, geo.Inputs, 1)
	assert.Equal(t, Param{Name: "address", Type: "str", Description: "The address or place name to be converted.", Required: true}, geo.Inputs[0])
}

func TestDecodeCatalogErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"not json", `{"name": "x", "apis": [`, "catalog bad.json: "},
		{"syntax", `{"name": "x", "apis": [}`, "invalid JSON at byte 24"},
		{"wrong type", `{"name": "x", "apis": [{"name": 3}]}`, "field apis.name"},
		{"unknown field", `{"name": "x", "apis": [{"name": "A", "descripton": "typo"}]}`, `unknown field "descripton"`},
		{"empty", `{"name": "x", "apis": []}`, "catalog has no APIs"},
		{"no name", `{"apis": [{"name": "A"}, {"description": "d"}]}`, "apis[1]: field name is empty"},
		{"duplicate api", `{"apis": [{"name": "A"}, {"name": "A"}]}`, "apis[1] (A): name repeats apis[0]"},
		{"empty param", `{"apis": [{"name": "A", "inputs": [{"name": "q"}, {"type": "str"}]}]}`, "apis[0] (A): inputs[1]: field name is empty"},
		{"duplicate param", `{"apis": [{"name": "A", "outputs": [{"name": "id"}, {"name": "id"}]}]}`, `outputs[1]: parameter "id" appears twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeCatalog(strings.NewReader(tt.in), "bad.json")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.True(t, strings.HasPrefix(err.Error(), "catalog bad.json: "), err.Error())
		})
	}
}
