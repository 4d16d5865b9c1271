package catalogs

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// specFile returns a path to testdata/specs/name, decompressed into a temporary folder when it
// is stored gzipped (name.gz): the larger public specs are kept compressed.
func specFile(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join("testdata", "specs", name)
	if _, err := os.Stat(p); err == nil {
		return p
	}
	f, err := os.Open(p + ".gz")
	require.NoError(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), filepath.Base(name))
	w, err := os.Create(out)
	require.NoError(t, err)
	_, err = io.Copy(w, zr)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return out
}

// TestCorpusOfPublicSpecs imports every public spec of testdata/specs (origins and licenses in
// testdata/README.md) as navi tools import would: each imports, with the APIs and lenient
// readings (warnings) it has today.
func TestCorpusOfPublicSpecs(t *testing.T) {
	tests := []struct {
		file     string
		format   Format
		apis     int
		warnings int
	}{
		// Three of the OpenAPI Initiative's examples name no server: a warning says the calls
		// need -base-url.
		{"oai/api-with-examples.yaml", FormatOpenAPI, 2, 1},
		{"oai/callback-example.yaml", FormatOpenAPI, 1, 1},
		{"oai/link-example.yaml", FormatOpenAPI, 6, 1},
		{"oai/petstore-expanded.yaml", FormatOpenAPI, 4, 0},
		{"oai/petstore.yaml", FormatOpenAPI, 3, 0},
		{"oai/uspto.yaml", FormatOpenAPI, 3, 0},
		{"netlify/swagger.yml", FormatSwagger, 174, 0},
		{"twilio/twilio_accounts_v1.json", FormatOpenAPI, 20, 0},
		{"twilio/twilio_chat_v1.json", FormatOpenAPI, 40, 0},
		{"googlemaps/google-maps-platform-openapi3.json", FormatOpenAPI, 17, 0},
		{"box/openapi.json", FormatOpenAPI, 296, 0},
		// Slack writes some items as a list of schemas (JSON Schema's tuple form).
		{"slack/slack_web_openapi_v2_without_examples.json", FormatSwagger, 174, 28},
		{"redocly/openapi.yaml", FormatOpenAPI, 8, 0},
		{"swagger-petstore/openapi.yaml", FormatOpenAPI, 19, 0},
		// OpenAI's YAML has a required property named n: YAML 1.1 would read it as false.
		{"openai/openapi.yaml", FormatOpenAPI, 288, 0},
		{"../restbench/tmdb_oas.json", FormatOpenAPI, 54, 0},
		{"discord/openapi.json", FormatOpenAPI, 242, 0},
		{"argo/swagger.json", FormatSwagger, 73, 0},
		// Kubernetes names no host: its API server's address is the cluster's, so one warning
		// says that all its calls need -base-url.
		{"kubernetes/swagger.json", FormatSwagger, 1123, 1},
		{"figma/openapi.yaml", FormatOpenAPI, 47, 0},
		{"spotify/fixed-spotify-open-api.yml", FormatOpenAPI, 97, 0},
		// xkcd answers "*/*", and names no operation: its APIs are named by method and path.
		{"xkcd/openapi.yaml", FormatOpenAPI, 2, 0},
	}
	publishers := map[string]bool{}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			c, warnings, err := Load(specFile(t, tt.file), FormatAuto)
			require.NoError(t, err)
			assert.Len(t, c.APIs, tt.apis)
			assert.Len(t, warnings, tt.warnings)
			for _, w := range warnings {
				assert.NotEmpty(t, w.Where)
			}
			// Told by content, the same as named.
			_, _, err = Load(specFile(t, tt.file), tt.format)
			require.NoError(t, err)
		})
		publishers[strings.Split(tt.file, "/")[0]] = true
	}
	assert.GreaterOrEqual(t, len(tests), 15)
	assert.GreaterOrEqual(t, len(publishers), 10)
}

// A spec split over several files (SendGrid's, DigitalOcean's) is refused with how many
// operations and where the first reference to another file is, not kin-openapi's "cannot
// unmarshal string into openapi3.Parameter".
func TestCorpusMultiFileSpec(t *testing.T) {
	_, _, err := Load(specFile(t, "sendgrid/oas_v3.json"), FormatAuto)
	require.ErrorContains(t, err, `every operation points into another file, and an import reads one file: bundle the spec first, e.g. redocly bundle (219 operations; the first: paths./v3/access_settings/activity)`)

	// DigitalOcean's root spec keeps every operation in another file: all are counted, the
	// first, in sorted order, named. (One that keeps some there imports the rest:
	// TestOpenAPIKeepsWhatItCan.)
	_, _, err = Load(specFile(t, "digitalocean/DigitalOcean-public.v2.yaml"), FormatAuto)
	require.ErrorContains(t, err, `every operation points into another file, and an import reads one file: bundle the spec first, e.g. redocly bundle (659 operations; the first: PUT /<upload_url>)`)
}
