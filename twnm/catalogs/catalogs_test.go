package catalogs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm"
)

// sharedData is the development workspace's copy of the public datasets, beside the
// repository. A fresh clone (CI) does not have it; the tests on testdata cover that case.
const sharedData = "../../../shared/data"

// shared returns the path of a file or folder under sharedData, skipping the test when the
// shared folder is not there.
func shared(tb testing.TB, rel string) string {
	tb.Helper()
	if _, err := os.Stat(sharedData); os.IsNotExist(err) {
		tb.Skipf("%s not found: the full-dataset checks run only in the development workspace", sharedData)
	}
	p := filepath.Join(sharedData, rel)
	_, err := os.Stat(p)
	require.NoError(tb, err, "the shared folder exists but lacks %s", rel)
	return p
}

// writeFile writes a small bad input to a temporary folder and returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

// api returns the API of the given name, failing the test when there is none.
func api(t *testing.T, c twnm.Catalog, name string) twnm.API {
	t.Helper()
	for _, a := range c.APIs {
		if a.Name == name {
			return a
		}
	}
	require.Failf(t, "no such API", "%s has no API %q", c.Name, name)
	return twnm.API{}
}

// paramNames lists the names of ps.
func paramNames(ps []twnm.Param) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
	}
	return out
}

func TestIdentifier(t *testing.T) {
	tests := []struct{ in, want string }{
		{"OTT details", "OTT_details"},
		{"👋 Onboarding Project_v3", "Onboarding_Project_v3"},
		{"/titles/{id}/crew", "titles_id_crew"},
		{"Get {Specifications} by {Brand Name}", "Get_Specifications_by_Brand_Name"},
		{"Akaryakıt", "Akaryakıt"},
		{"GET /search/person", "GET_search_person"},
		{"_x__y_", "x__y"},
		{"👋", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, Identifier(tt.in))
		})
	}
}

func TestUniqueName(t *testing.T) {
	taken := map[string]bool{}
	assert.Equal(t, "a", uniqueName("a", taken))
	assert.Equal(t, "a_2", uniqueName("a", taken))
	assert.Equal(t, "a_3", uniqueName("a", taken))
}

func TestLeadingObjectKeys(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{`{"a": "str", "b": {"c": 1}}`, []string{"a", "b"}},
		{`{"a": "str", "b": {"c": "in`, []string{"a", "b"}},
		{`{"a": "str", "b`, []string{"a"}},
		{`["a"]`, nil},
		{`not json`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var got []string
			for _, m := range leadingObjectKeys(tt.in) {
				got = append(got, m.Key)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
