package mcptool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/mcptool"
	"github.com/naviagent/navi/toolcall"
	"github.com/naviagent/navi/toolspec"
)

// everything is the reference MCP server (@modelcontextprotocol/server-everything, which
// nobody here wrote), as `make mcp-servers` installs it; a test fails, not skips, without it.
func everything(t *testing.T) string {
	t.Helper()
	bin, err := filepath.Abs("testdata/server/node_modules/.bin/mcp-server-everything")
	require.NoError(t, err)
	_, err = os.Stat(bin)
	require.NoError(t, err, "the test MCP server is not installed: run make mcp-servers")
	return mcptool.StdioPrefix + bin
}

func find(t *testing.T, c toolspec.Catalog, name string) toolspec.API {
	t.Helper()
	for _, a := range c.APIs {
		if a.Name == name {
			return a
		}
	}
	require.Failf(t, "no such API", "%s is not among the %d imported", name, len(c.APIs))
	return toolspec.API{}
}

func TestImportAndCallOverStdio(t *testing.T) {
	server := everything(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := mcptool.Import(ctx, server)
	require.NoError(t, err)
	require.NotEmpty(t, c.APIs)
	prefix := c.Name + "."

	sum := find(t, c, prefix+"get-sum")
	assert.Equal(t, "Returns the sum of two numbers", sum.Description)
	assert.Equal(t, []toolspec.Param{
		{Name: "a", Type: "number", Description: "First number", Required: true},
		{Name: "b", Type: "number", Description: "Second number", Required: true},
	}, sum.Inputs)
	assert.Equal(t, []toolspec.Param{{Name: mcptool.TextOutput, Type: "string", Description: "The text the tool answered."}}, sum.Outputs)
	assert.Equal(t, toolspec.EffectRead, sum.Effect, "read-only by its annotations")
	cwd, err := os.Getwd()
	require.NoError(t, err)
	assert.Equal(t, &toolspec.MCPTool{Server: server, Tool: "get-sum", Dir: cwd}, sum.MCP, "a stdio server runs where its import ran")
	assert.True(t, sum.Callable())
	// A tool with an output schema has its outputs.
	structured := find(t, c, prefix+"get-structured-content")
	assert.NotEqual(t, mcptool.TextOutput, structured.Outputs[0].Name)
	// An input's schema lists the values it takes.
	require.NotEmpty(t, structured.Inputs)
	assert.Equal(t, "location", structured.Inputs[0].Name)
	assert.Equal(t, []string{"New York", "Chicago", "Los Angeles"}, structured.Inputs[0].Enum)
	// Annotations say what a call changes: toggling a simulation is neither read-only nor idempotent.
	assert.Equal(t, toolspec.EffectUnsafe, find(t, c, prefix+"toggle-simulated-logging").Effect)

	// The tool-call client calls it through a pool, arguments typed by the inputs.
	pool := &mcptool.Pool{}
	defer pool.Close()
	tc := &toolcall.Client{MCP: pool}
	res, err := tc.Call(ctx, sum, map[string]string{"a": "2", "b": "3.5"}, toolcall.CallOptions{})
	require.NoError(t, err)
	assert.Equal(t, "The sum of 2 and 3.5 is 5.5.", res.Output[mcptool.TextOutput])
	res, err = tc.Call(ctx, structured, map[string]string{"location": "Chicago"}, toolcall.CallOptions{})
	require.NoError(t, err)
	assert.Contains(t, res.Output, structured.Outputs[0].Name, "structured content is the output")

	// Bad arguments fail before the call (a number that is none, a value its schema does not
	// list); a tool's own error fails it for good.
	_, err = tc.Call(ctx, sum, map[string]string{"a": "two", "b": "3"}, toolcall.CallOptions{})
	assert.ErrorIs(t, err, toolcall.ErrInvalidInput)
	_, err = tc.Call(ctx, structured, map[string]string{"location": "Atlantis"}, toolcall.CallOptions{})
	assert.ErrorIs(t, err, toolcall.ErrInvalidInput)
	_, err = tc.Call(ctx, find(t, c, prefix+"get-resource-reference"), map[string]string{"resourceId": "-5"}, toolcall.CallOptions{})
	assert.ErrorIs(t, err, toolcall.ErrRejected)
}

func TestPoolFailures(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pool := &mcptool.Pool{}
	defer pool.Close()
	call := func(server string) error {
		_, err := pool.CallMCP(ctx, "x.tool", toolspec.MCPTool{Server: server, Tool: "tool"}, nil)
		return err
	}
	// A command that does not exist cannot be called; a server that is down may come back.
	assert.ErrorIs(t, call(mcptool.StdioPrefix+"/nonexistent/mcp-server"), toolcall.ErrNotCallable)
	assert.ErrorIs(t, call("http://127.0.0.1:1/mcp"), toolcall.ErrUnavailable)
	// No MCP client on the worker: not callable, saying so.
	_, err := (&toolcall.Client{}).Call(ctx, toolspec.API{Name: "x.tool", MCP: &toolspec.MCPTool{Server: "stdio:x", Tool: "tool"}}, nil, toolcall.CallOptions{})
	assert.ErrorIs(t, err, toolcall.ErrNotCallable)
	assert.ErrorContains(t, err, "no MCP client")
	_, err = mcptool.Import(ctx, "ftp://example.com")
	assert.ErrorContains(t, err, `want "stdio:" and a command line, or an http(s) URL`)
}

// startHTTP runs the reference server's streamable HTTP transport on a free port and returns
// its URL and a function that stops it.
func startHTTP(t *testing.T, port string) (url string, stop func()) {
	t.Helper()
	bin := strings.TrimPrefix(everything(t), mcptool.StdioPrefix)
	cmd := exec.Command(bin, "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+port)
	require.NoError(t, cmd.Start())
	stop = func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }
	t.Cleanup(stop)
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.Dial("tcp", "127.0.0.1:"+port)
		if err == nil {
			c.Close()
			break
		}
		require.True(t, time.Now().Before(deadline), "the MCP server did not listen on port %s: %v", port, err)
		time.Sleep(100 * time.Millisecond)
	}
	return "http://127.0.0.1:" + port + "/mcp", stop
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// Over streamable HTTP, and a server that restarts: the call in between fails for a retry,
// and the next one opens a new session.
func TestImportAndCallOverHTTP(t *testing.T) {
	port := freePort(t)
	url, stop := startHTTP(t, port)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := mcptool.Import(ctx, url)
	require.NoError(t, err)
	sum := find(t, c, c.Name+".get-sum")
	assert.Equal(t, url, sum.MCP.Server)

	pool := &mcptool.Pool{}
	defer pool.Close()
	tc := &toolcall.Client{MCP: pool}
	args := map[string]string{"a": "40", "b": "2"}
	res, err := tc.Call(ctx, sum, args, toolcall.CallOptions{})
	require.NoError(t, err)
	assert.Equal(t, "The sum of 40 and 2 is 42.", res.Output[mcptool.TextOutput])

	stop()
	_, err = tc.Call(ctx, sum, args, toolcall.CallOptions{})
	require.ErrorIs(t, err, toolcall.ErrUnavailable, "a server that went away may come back")
	startHTTP(t, port)
	res, err = tc.Call(ctx, sum, args, toolcall.CallOptions{})
	require.NoError(t, err, "a new session with the server that came back")
	assert.Equal(t, "The sum of 40 and 2 is 42.", res.Output[mcptool.TextOutput])
}

// A server that exits while a call is in flight leaves the call's outcome unknown: a tool that
// is neither read-only nor idempotent may have run, so its call fails for good
// (toolcall.ErrOutcomeUnknown) and is not sent again; a read-only one fails for a retry.
// The server is the reference one, killed 5 s after it starts, during a 30 s operation.
func TestServerExitsMidCall(t *testing.T) {
	bin := strings.TrimPrefix(everything(t), mcptool.StdioPrefix)
	dying := filepath.Join(t.TempDir(), "dying-server")
	require.NoError(t, os.WriteFile(dying, []byte("#!/bin/sh\n(sleep 5; kill -9 $$) &\nexec "+bin+"\n"), 0o755))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := mcptool.Import(ctx, everything(t))
	require.NoError(t, err)
	for _, tt := range []struct {
		effect string
		kind   error
	}{
		{toolspec.EffectUnsafe, toolcall.ErrOutcomeUnknown},
		{toolspec.EffectRead, toolcall.ErrUnavailable},
	} {
		t.Run(tt.effect, func(t *testing.T) {
			long := find(t, c, c.Name+".trigger-long-running-operation")
			long.Effect, long.MCP.Server = tt.effect, mcptool.StdioPrefix+dying
			pool := &mcptool.Pool{}
			defer pool.Close()
			_, err := (&toolcall.Client{MCP: pool}).Call(ctx, long, map[string]string{"duration": "30", "steps": "5"}, toolcall.CallOptions{})
			require.ErrorIs(t, err, tt.kind)
			var e *toolcall.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tt.kind == toolcall.ErrUnavailable, e.Retryable())
		})
	}
}

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		line string
		want []string
		err  string
	}{
		{line: "npx -y @scope/server /data", want: []string{"npx", "-y", "@scope/server", "/data"}},
		{line: `node '/my tools/server.mjs' --name "a \"b\" c"`, want: []string{"node", "/my tools/server.mjs", "--name", `a "b" c`}},
		{line: `server a\ b  ''`, want: []string{"server", "a b", ""}},
		{line: "  ", want: nil},
		{line: "node 'server.mjs", err: "a single quote is not closed"},
		{line: `node "server.mjs`, err: "a double quote is not closed"},
	}
	for _, tt := range tests {
		got, err := mcptool.SplitCommand(tt.line)
		if tt.err != "" {
			assert.ErrorContains(t, err, tt.err, tt.line)
			continue
		}
		require.NoError(t, err, tt.line)
		assert.Equal(t, tt.want, got, tt.line)
	}
}

// A stdio server that fails says why: the import's error quotes the end of its standard error
// (an npm 404, node's "Cannot find module"), a banner it prints before the protocol is skipped,
// one that never speaks the protocol fails after InitializeTimeout saying so, and a command
// line with a relative path runs in the folder the import ran in, wherever the call is made.
func TestStdioServerDiagnostics(t *testing.T) {
	bin := strings.TrimPrefix(everything(t), mcptool.StdioPrefix)
	dir := t.TempDir()
	script := func(name, body string) string {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755))
		return name
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	t.Chdir(dir)

	script("missing.sh", `echo "npm error 404 Not Found - GET https://registry.npmjs.org/@nobody%2fserver" >&2; exit 1`)
	_, err := mcptool.Import(ctx, mcptool.StdioPrefix+"sh ./missing.sh")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "its standard error ends: npm error 404 Not Found")

	script("banner.sh", "echo 'Secure MCP Filesystem Server running on stdio'\nexec '"+bin+"'")
	c, err := mcptool.Import(ctx, mcptool.StdioPrefix+"sh 'banner.sh'")
	require.NoError(t, err, "a banner before the protocol is skipped")
	sum := find(t, c, c.Name+".get-sum")
	assert.Equal(t, dir, sum.MCP.Dir)

	t.Chdir(t.TempDir()) // the worker runs elsewhere: the relative path still means banner.sh
	pool := &mcptool.Pool{}
	defer pool.Close()
	res, err := (&toolcall.Client{MCP: pool}).Call(ctx, sum, map[string]string{"a": "1", "b": "2"}, toolcall.CallOptions{})
	require.NoError(t, err)
	assert.Equal(t, "The sum of 1 and 2 is 3.", res.Output[mcptool.TextOutput])

	gone := sum
	gone.MCP = &toolspec.MCPTool{Server: sum.MCP.Server, Tool: sum.MCP.Tool, Dir: filepath.Join(dir, "nowhere")}
	_, err = (&toolcall.Client{MCP: pool}).Call(ctx, gone, map[string]string{"a": "1", "b": "2"}, toolcall.CallOptions{})
	require.ErrorIs(t, err, toolcall.ErrNotCallable)
	assert.Contains(t, err.Error(), "the folder its import ran in, which this machine does not have")

	old := mcptool.InitializeTimeout
	mcptool.InitializeTimeout = time.Second
	t.Cleanup(func() { mcptool.InitializeTimeout = old })
	script("silent.sh", "sleep 30")
	_, err = mcptool.Import(ctx, mcptool.StdioPrefix+"sh "+filepath.Join(dir, "silent.sh"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "did not answer the protocol's handshake within 1s")
}

// A stdio server that needs its environment gets it from its import: a value set there
// ("NAME=value") is kept in the catalog, and a name alone is taken from the worker's own
// environment at the call, or the call fails naming it.
func TestStdioServerEnvironment(t *testing.T) {
	bin := strings.TrimPrefix(everything(t), mcptool.StdioPrefix)
	dir := t.TempDir()
	server := filepath.Join(dir, "needs-env.sh")
	require.NoError(t, os.WriteFile(server, []byte(`#!/bin/sh
[ "$NAVI_TEST_REGION" = eu ] || { echo "NAVI_TEST_REGION is $NAVI_TEST_REGION, want eu" >&2; exit 1; }
[ -n "$NAVI_TEST_TOKEN" ] || { echo "no NAVI_TEST_TOKEN" >&2; exit 1; }
exec '`+bin+"'\n"), 0o755))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	_, err := mcptool.Import(ctx, mcptool.StdioPrefix+"sh "+server)
	require.Error(t, err, "without its environment the server does not start")
	assert.Contains(t, err.Error(), "NAVI_TEST_REGION is , want eu")

	t.Setenv("NAVI_TEST_TOKEN", "s3cret")
	c, err := mcptool.ImportWith(ctx, mcptool.StdioPrefix+"sh "+server, mcptool.ImportOptions{Env: []string{"NAVI_TEST_REGION=eu", "NAVI_TEST_TOKEN"}})
	require.NoError(t, err)
	sum := find(t, c, c.Name+".get-sum")
	assert.Equal(t, []string{"NAVI_TEST_REGION=eu", "NAVI_TEST_TOKEN"}, sum.MCP.Env, "the value given is kept, the secret only by name")
	b, err := json.Marshal(c)
	require.NoError(t, err)
	assert.NotContains(t, string(b), "s3cret")

	pool := &mcptool.Pool{}
	defer pool.Close()
	res, err := (&toolcall.Client{MCP: pool}).Call(ctx, sum, map[string]string{"a": "1", "b": "2"}, toolcall.CallOptions{})
	require.NoError(t, err, "the worker runs the server with the environment its import had")
	assert.Equal(t, "The sum of 1 and 2 is 3.", res.Output[mcptool.TextOutput])

	require.NoError(t, os.Unsetenv("NAVI_TEST_TOKEN"))
	other := &mcptool.Pool{}
	defer other.Close()
	_, err = (&toolcall.Client{MCP: other}).Call(ctx, sum, map[string]string{"a": "1", "b": "2"}, toolcall.CallOptions{})
	require.ErrorIs(t, err, toolcall.ErrNotCallable)
	assert.Contains(t, err.Error(), "it needs the environment variable NAVI_TEST_TOKEN, which is not set here")
}

// testServer is the path of a reference MCP server that make mcp-servers installs.
func testServer(t *testing.T, name string) string {
	t.Helper()
	bin, err := filepath.Abs("testdata/server/node_modules/.bin/" + name)
	require.NoError(t, err)
	_, err = os.Stat(bin)
	require.NoError(t, err, "the test MCP server %s is not installed: run make mcp-servers", name)
	return bin
}

// The reference knowledge-graph server (@modelcontextprotocol/server-memory): its annotations
// make its reads reads and its deletions destructive, which the default policy confirms; a
// creation of nothing ("create the entities []", which the server takes and answers as done)
// never reaches it; a creation of something does.
func TestMemoryServerWrites(t *testing.T) {
	t.Setenv("MEMORY_FILE_PATH", filepath.Join(t.TempDir(), "memory.jsonl"))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := mcptool.Import(ctx, mcptool.StdioPrefix+testServer(t, "mcp-server-memory"))
	require.NoError(t, err)
	create, del, read := find(t, c, c.Name+".create_entities"), find(t, c, c.Name+".delete_entities"), find(t, c, c.Name+".read_graph")
	assert.Equal(t, toolspec.EffectRead, read.Effect)
	assert.False(t, read.NeedsConfirm("", true))
	assert.True(t, del.Destructive())
	assert.True(t, del.NeedsConfirm("", false), "a deletion waits for the user's yes")
	assert.Equal(t, toolspec.EffectUnsafe, create.Effect)

	pool := &mcptool.Pool{}
	defer pool.Close()
	tc := &toolcall.Client{MCP: pool}
	_, err = tc.Call(ctx, create, map[string]string{"entities": "[]"}, toolcall.CallOptions{})
	require.ErrorIs(t, err, toolcall.ErrInvalidInput)
	assert.ErrorContains(t, err, "required parameter entities is empty")
	graph, err := tc.Call(ctx, read, nil, toolcall.CallOptions{})
	require.NoError(t, err)
	assert.NotContains(t, fmt.Sprint(graph.Output), "Rome", "nothing was created")

	_, err = tc.Call(ctx, create, map[string]string{"entities": `[{"name": "Rome", "entityType": "city", "observations": ["capital of Italy"]}]`}, toolcall.CallOptions{})
	require.NoError(t, err)
	graph, err = tc.Call(ctx, read, nil, toolcall.CallOptions{})
	require.NoError(t, err)
	assert.Contains(t, fmt.Sprint(graph.Output), "Rome")
}
