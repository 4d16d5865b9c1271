package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/twnm"
)

// TestToolsLoadFromURL loads the tool world's catalog, served over HTTP, into the test Neo4j,
// as `make run` does. It loads from the stack's tool world, as every test does: the endpoints
// in the shared graph must stay callable for the agent tests running beside it.
func TestToolsLoadFromURL(t *testing.T) {
	stacktest.Export(t, stacktest.EnvNeo4jURI, stacktest.EnvNeo4jUser, stacktest.EnvNeo4jPassword)
	world := stacktest.Env(t, stacktest.EnvToolWorld)

	var out bytes.Buffer
	require.NoError(t, tools([]string{"load", world + "/catalog.json"}, streams{&out, io.Discard}))
	assert.Regexp(t, `(?m)^loaded http://\S+/catalog.json as source toolworld: \d+ APIs \(\d+ added, \d+ changed, \d+ unchanged\), \d+ parameters \(graph now`, out.String())
	store := stacktest.Store(t)
	found, err := store.FindAPIs(context.Background(), "geocode", 50)
	require.NoError(t, err)
	var names []string
	for _, f := range found {
		names = append(names, f.Name)
	}
	assert.Contains(t, names, "geo.Geocode")

	err = tools([]string{"import", world + "/no-such-catalog.json"}, streams{io.Discard, io.Discard})
	require.ErrorContains(t, err, "HTTP 404")
}

// The test stack runs the tool world as one of its processes.
func TestStackRunsTheToolWorld(t *testing.T) {
	resp, err := http.Get(stacktest.Env(t, stacktest.EnvToolWorld) + "/healthz")
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

// navi tools show prints an API with what users called it.
func TestToolsShow(t *testing.T) {
	stacktest.Export(t, stacktest.EnvNeo4jURI, stacktest.EnvNeo4jUser, stacktest.EnvNeo4jPassword)
	store := stacktest.Store(t)
	stacktest.LoadToolWorld(t, store)
	ctx := context.Background()
	asked := "how high above the sea is the summit at " + stacktest.UniqueName("peak")
	vecs, err := stacktest.Embedder(t).Embed(ctx, []string{asked})
	require.NoError(t, err)
	require.NoError(t, store.RecordGoals(ctx, stacktest.UniqueName("show"), []neo4j.GoalUse{{API: "geo.Elevation", Text: asked, Vector: vecs[0]}}, time.Now()))

	var out bytes.Buffer
	require.NoError(t, tools([]string{"show", "geo.Elevation"}, streams{&out, io.Discard}))
	assert.Regexp(t, `(?m)^api\s+geo.Elevation$`, out.String())
	assert.Regexp(t, `(?m)^status\s+active, \d+ successful and \d+ failed calls( \(answered, but judged failed: .+\))?$`, out.String())
	assert.Contains(t, out.String(), fmt.Sprintf("%q", asked))

	err = tools([]string{"show", "no.SuchAPI"}, streams{io.Discard, io.Discard})
	require.ErrorContains(t, err, "API no.SuchAPI is not in the graph")
}

func TestJudged(t *testing.T) {
	tests := []struct {
		by   map[twnm.Signal]int64
		want string
	}{
		{nil, ""},
		{map[twnm.Signal]int64{twnm.SignalCatalog: 0}, ""},
		{map[twnm.Signal]int64{twnm.SignalCatalog: 1, twnm.SignalUser: 2},
			" (answered, but judged failed: 2 by the user, 1 by the catalog check)"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, judged(tt.by))
	}
}

// navi graph reembed moves the graph to an embedder; here to the one it has (the shared test
// graph keeps one), which changes no vector.
func TestGraphReembed(t *testing.T) {
	stacktest.Export(t, stacktest.EnvNeo4jURI, stacktest.EnvNeo4jUser, stacktest.EnvNeo4jPassword)
	stacktest.LockVectors(t)
	stacktest.LoadToolWorld(t, stacktest.Store(t))
	var out, progress bytes.Buffer
	require.NoError(t, graphCmd([]string{"reembed"}, streams{&out, &progress}))
	assert.Regexp(t, `^graph moved to all-minilm-l6-v2@[0-9a-f]{12} \(384 dimensions\): \d+ APIs and \d+ past sub-goals reembedded, the vector indexes kept, every statistic kept\n$`, out.String())
	assert.Contains(t, progress.String(), "reembedded ")

	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "navi graph reembed"},
		{[]string{"reembed", "-embedder", "word2vec"}, `embedder "word2vec"`},
	} {
		err := graphCmd(tt.args, streams{io.Discard, io.Discard})
		require.ErrorContains(t, err, tt.want)
	}
}

// navi tools import takes an OpenAPI spec as it is found: strings for booleans read with a
// warning naming the operation and field; a spec with a fault names the operation and field
// at fault and leaves the graph untouched.
func TestToolsImportOpenAPI(t *testing.T) {
	stacktest.Export(t, stacktest.EnvNeo4jURI, stacktest.EnvNeo4jUser, stacktest.EnvNeo4jPassword)
	op := strings.ReplaceAll(stacktest.UniqueName("getKennel"), "-", "")
	spec := func(in string) string {
		return `openapi: 3.0.0
info: {title: kennels-` + op + `, version: "1"}
servers: [{url: "https://kennels.example"}]
paths:
  /kennels/{id}:
    get:
      operationId: ` + op + `
      parameters:
        - {name: id, in: ` + in + `, required: "true", schema: {type: string}}
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}}
`
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte(spec("body")), 0o644))
	err := tools([]string{"import", bad}, streams{io.Discard, io.Discard})
	require.ErrorContains(t, err, "no operation could be imported (1 left out; the first: GET /kennels/{id} ("+op+"): left out: field parameters[0] (id).in: want query, path, header or cookie")
	err = tools([]string{"import", "-strict", bad}, streams{io.Discard, io.Discard})
	require.ErrorContains(t, err, "operation GET /kennels/{id} ("+op+"): field parameters[0] (id).in: want query, path, header or cookie")
	store := stacktest.Store(t)
	found, err := store.FindAPIs(context.Background(), op, 5)
	require.NoError(t, err)
	assert.Empty(t, found, "nothing of the faulty spec is in the graph")

	good := filepath.Join(dir, "good.yaml")
	require.NoError(t, os.WriteFile(good, []byte(spec("path")), 0o644))
	var out, notices bytes.Buffer
	require.NoError(t, tools([]string{"import", good}, streams{&out, &notices}))
	src := strings.ToLower("kennels_" + op)
	assert.Contains(t, out.String(), "loaded "+good+" as source "+src+": 1 APIs (1 added, 0 changed, 0 unchanged)")
	assert.Contains(t, out.String(), "APIs: "+src+"."+op+"\n", "the import names the APIs it made, <source>.<operation>")
	assert.Contains(t, notices.String(), "1 warning(s): what the import read leniently, left out, or could not take")
	assert.Contains(t, notices.String(), `GET /kennels/{id}: parameters[0].required: "true" read as the boolean true`)
	found, err = store.FindAPIs(context.Background(), op, 5)
	require.NoError(t, err)
	require.Len(t, found, 1)

	// Again: nothing changed. Then with another description: one API changed.
	out.Reset()
	require.NoError(t, tools([]string{"import", good}, streams{&out, io.Discard}))
	assert.Contains(t, out.String(), ": 1 APIs (0 added, 0 changed, 1 unchanged)")
	require.NoError(t, os.WriteFile(good, []byte(strings.Replace(spec("path"), "      parameters:", "      description: Reads a kennel.\n      parameters:", 1)), 0o644))
	out.Reset()
	require.NoError(t, tools([]string{"import", good}, streams{&out, io.Discard}))
	assert.Contains(t, out.String(), ": 1 APIs (0 added, 1 changed, 0 unchanged)")

	err = tools([]string{"import", "-format", "wsdl", good}, streams{io.Discard, io.Discard})
	require.ErrorIs(t, err, errUsage)
}

// An "mcp+" source, or -format mcp, is an MCP server whose tools are listed; the import
// reaches the server before it touches the graph (the server here is no MCP server at all).
func TestToolsImportMCPSource(t *testing.T) {
	for _, args := range [][]string{{"import", "mcp+ftp://tools.example"}, {"import", "-format", "mcp", "ftp://tools.example"}} {
		err := tools(args, streams{io.Discard, io.Discard})
		assert.ErrorContains(t, err, `mcp server "ftp://tools.example": want "stdio:" and a command line, or an http(s) URL`, "%v", args)
	}
}

// A URL import reads at most -max-bytes, and says so when the catalog is larger: it is not
// cut and then misread, and the error names the URL, not a temporary file.
func TestToolsImportURLOverItsLimit(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"name": "big", "apis": [` + strings.Repeat(" ", 500) + `]}`))
	}))
	defer srv.Close()
	err := tools([]string{"import", "-max-bytes", "100", srv.URL + "/big.json"}, streams{io.Discard, io.Discard})
	require.ErrorContains(t, err, "catalog "+srv.URL+"/big.json: larger than 100 bytes, the most an import reads (-max-bytes)")
	assert.NotContains(t, err.Error(), "navi-catalog-")
}

// Every import is a source: a spec's APIs are named <source>.<operation>, so two specs with
// the same operationIds live side by side; a spec of another origin under a source's name is
// refused in one line unless -replace (or imported -as another source); a re-import that
// lacks an operation retires it; tools list counts sources, tools show prints an API's call,
// tools remove takes a source out whole.
func TestToolsSources(t *testing.T) {
	stacktest.Export(t, stacktest.EnvNeo4jURI, stacktest.EnvNeo4jUser, stacktest.EnvNeo4jPassword)
	title := strings.ReplaceAll(stacktest.UniqueName("Pets"), "-", "_")
	spec := func(host string, withDelete bool) string {
		s := `openapi: 3.0.0
info: {title: ` + title + `, version: "1"}
servers: [{url: "https://` + host + `/v1"}]
paths:
  /pets/{id}:
    get:
      operationId: getPet
      summary: Reads a pet.
      parameters: [{name: id, in: path, required: true, schema: {type: string}, description: The pet's id.}]
      responses: {"200": {description: ok, content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}}}
`
		if withDelete {
			s += `    delete:
      operationId: deletePet
      parameters: [{name: id, in: path, required: true, schema: {type: string, pattern: "^[0-9]+$"}}]
      responses: {"204": {description: gone}}
`
		}
		return s
	}
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
		return p
	}
	src := strings.ToLower(title)
	t.Cleanup(func() {
		for _, s := range []string{src, src + "_ee"} {
			_ = tools([]string{"remove", s}, streams{io.Discard, io.Discard})
		}
	})
	var out bytes.Buffer
	require.NoError(t, tools([]string{"import", write("a.yaml", spec("pets.example", true))}, streams{&out, io.Discard}))
	assert.Contains(t, out.String(), "as source "+src+": 2 APIs")
	assert.Contains(t, out.String(), "APIs: "+src+".getPet, "+src+".deletePet")

	// The enterprise edition: the same title, another server.
	ee := write("ee.yaml", spec("pets.corp.internal", true))
	err := tools([]string{"import", ee}, streams{io.Discard, io.Discard})
	require.ErrorContains(t, err, "source "+src+" holds the APIs of pets.example, not pets.corp.internal: import under another name (-as), or with -replace")
	assert.NotContains(t, err.Error(), "\n", "one line")
	out.Reset()
	require.NoError(t, tools([]string{"import", "-as", src + "_ee", ee}, streams{&out, io.Discard}))
	assert.Contains(t, out.String(), "APIs: "+src+"_ee.getPet, "+src+"_ee.deletePet", "the same operationIds, under their own source")

	// A new version without deletePet retires it.
	out.Reset()
	require.NoError(t, tools([]string{"import", write("a2.yaml", spec("pets.example", false))}, streams{&out, io.Discard}))
	assert.Contains(t, out.String(), "retired 1 APIs the source no longer has (what was learned about them is kept): "+src+".deletePet")

	out.Reset()
	require.NoError(t, tools([]string{"list"}, streams{&out, io.Discard}))
	assert.Regexp(t, `(?m)^`+src+`\s+2\s+1\s+1\s+pets\.example$`, out.String())
	assert.Regexp(t, `(?m)^`+src+`_ee\s+2\s+2\s+0\s+pets\.corp\.internal$`, out.String())
	assert.Regexp(t, `(?m)^link predictor: (none active \(navi schedule retrain trains one\)|\S+ active \(validation AUC \d\.\d{3}\); search reads its predicted weights)$`, out.String())

	out.Reset()
	require.NoError(t, tools([]string{"show", src + "_ee.deletePet"}, streams{&out, io.Discard}))
	for _, want := range []string{`source\s+` + src + `_ee\n`, `endpoint\s+DELETE https://pets\.corp\.internal/v1/pets/\{id\}`, `effect\s+unsafe, destructive`, `inputs\n  id \(string, required, in path, matching \^\[0-9\]\+\$\)`,
		`(?m)^links\s+(none active|\S+ active \(validation AUC \d\.\d{3}\))`} {
		assert.Regexp(t, want, out.String())
	}

	out.Reset()
	require.NoError(t, tools([]string{"remove", src + "_ee"}, streams{&out, io.Discard}))
	assert.Contains(t, out.String(), "removed source "+src+"_ee: 2 APIs")
	require.ErrorContains(t, tools([]string{"remove", src + "_ee"}, streams{io.Discard, io.Discard}), "no source "+src+"_ee in the graph")
}

// Two filesystem MCP servers (@modelcontextprotocol/server-filesystem) on two folders are two
// sources: the second, under the first one's name, is refused in one line instead of taking
// its place; imported -as another source, both stand.
func TestToolsImportTwoFilesystemServers(t *testing.T) {
	stacktest.Export(t, stacktest.EnvNeo4jURI, stacktest.EnvNeo4jUser, stacktest.EnvNeo4jPassword)
	bin, err := filepath.Abs("../mcptool/testdata/server/node_modules/.bin/mcp-server-filesystem")
	require.NoError(t, err)
	_, err = os.Stat(bin)
	require.NoError(t, err, "the test MCP server is not installed: run make mcp-servers")
	name := strings.ReplaceAll(stacktest.UniqueName("files"), "-", "_")
	t.Cleanup(func() {
		for _, s := range []string{name, name + "_b"} {
			_ = tools([]string{"remove", s}, streams{io.Discard, io.Discard})
		}
	})
	a, b := t.TempDir(), t.TempDir()
	var out bytes.Buffer
	require.NoError(t, tools([]string{"import", "-as", name, "mcp+stdio:" + bin + " " + a}, streams{&out, io.Discard}))
	assert.Contains(t, out.String(), name+".read_text_file")
	err = tools([]string{"import", "-as", name, "mcp+stdio:" + bin + " " + b}, streams{io.Discard, io.Discard})
	require.ErrorContains(t, err, "source "+name+" holds the APIs of stdio:"+bin+" "+a)
	assert.NotContains(t, err.Error(), "\n")
	out.Reset()
	require.NoError(t, tools([]string{"import", "-as", name + "_b", "mcp+stdio:" + bin + " " + b}, streams{&out, io.Discard}))
	out.Reset()
	require.NoError(t, tools([]string{"list"}, streams{&out, io.Discard}))
	assert.Regexp(t, `(?m)^`+name+`\s+14\s+14\s+0\s+stdio:\S+ `+regexp.QuoteMeta(a), out.String())
	assert.Regexp(t, `(?m)^`+name+`_b\s+14\s+14\s+0\s+stdio:\S+ `+regexp.QuoteMeta(b), out.String())
}
