// Package mcptool brings the tools of Model Context Protocol servers into Navi, through the
// official Go SDK: Import lists a server's tools as catalog APIs (toolspec.API with MCP set), and
// Pool calls them for the tool-call activity (a toolcall.MCPCaller), one session per server,
// opened on first use and opened again after it breaks.
//
// A server is named as toolspec.MCPTool.Server says: "stdio:" and a command line, which is run
// and spoken to over its standard input and output, or the http(s) URL of a streamable HTTP
// endpoint. Tool lists are read by Import (the `navi tools import` command), never by
// workflow code.
package mcptool

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/naviagent/navi/toolcall"
	"github.com/naviagent/navi/toolspec"
	"github.com/naviagent/navi/twnm/catalogs"
)

// Scheme prefixes of a server named on the command line ("mcp+stdio:npx server",
// "mcp+https://host/mcp"); the catalog keeps the server without them.
const (
	StdioPrefix = "stdio:"
	CLIPrefix   = "mcp+"
)

// TextOutput is the output of a tool that declares no output schema: the text it answered.
const TextOutput = "text"

// client is Navi as MCP servers see it.
var client = mcp.NewClient(&mcp.Implementation{Name: "navi", Version: "1"}, nil)

// transport opens the server of tool as a transport; a stdio one is returned as such too,
// for the errors that quote it.
func transport(tool toolspec.MCPTool) (mcp.Transport, *stdioTransport, error) {
	server := tool.Server
	switch {
	case strings.HasPrefix(server, StdioPrefix):
		args, err := SplitCommand(strings.TrimPrefix(server, StdioPrefix))
		if err != nil {
			return nil, nil, fmt.Errorf("mcp server %q: %w", server, err)
		}
		if len(args) == 0 {
			return nil, nil, fmt.Errorf("mcp server %q: no command after %q", server, StdioPrefix)
		}
		if tool.Dir != "" {
			if fi, err := os.Stat(tool.Dir); err != nil || !fi.IsDir() {
				return nil, nil, &toolcall.Error{Kind: toolcall.ErrNotCallable, Detail: fmt.Sprintf(
					"mcp server %q runs in %s, the folder its import ran in, which this machine does not have", server, tool.Dir)}
			}
		}
		env, err := environment(tool.Env)
		if err != nil {
			return nil, nil, &toolcall.Error{Kind: toolcall.ErrNotCallable, Detail: fmt.Sprintf("mcp server %q: %v", server, err)}
		}
		t := &stdioTransport{argv: args, dir: tool.Dir, env: env}
		return t, t, nil
	case strings.HasPrefix(server, "http://"), strings.HasPrefix(server, "https://"):
		return &mcp.StreamableClientTransport{Endpoint: server, DisableStandaloneSSE: true}, nil, nil
	}
	return nil, nil, fmt.Errorf("mcp server %q: want %q and a command line, or an http(s) URL", server, StdioPrefix)
}

// environment is the environment a stdio server runs with: this process's, plus what env
// (MCPTool.Env) sets. A name without a value must be set here, or the server would start
// without what its import was told it needs.
func environment(env []string) ([]string, error) {
	if len(env) == 0 {
		return nil, nil // exec's default: this process's environment
	}
	out := os.Environ()
	for _, e := range env {
		name, value, set := strings.Cut(e, "=")
		if name == "" || strings.ContainsAny(name, " \t") {
			return nil, fmt.Errorf("environment variable %q: want NAME=value or NAME", e)
		}
		if !set {
			v, ok := os.LookupEnv(name)
			if !ok {
				return nil, fmt.Errorf("it needs the environment variable %s, which is not set here (its import named it, to be taken from the environment it runs in)", name)
			}
			value = v
		}
		out = append(out, name+"="+value)
	}
	return out, nil
}

// session is an open session with a server, and its stdio transport when it has one.
type session struct {
	*mcp.ClientSession
	stdio *stdioTransport
}

// diagnose adds to err what a stdio server said that explains it (see stdioTransport.diagnose).
func (s session) diagnose(err error) error {
	if s.stdio == nil {
		return err
	}
	return s.stdio.diagnose(err)
}

// connect opens a session with the server of tool; the handshake gets InitializeTimeout.
func connect(ctx context.Context, tool toolspec.MCPTool) (session, error) {
	t, stdio, err := transport(tool)
	if err != nil {
		return session{}, err
	}
	ictx, cancel := context.WithTimeout(ctx, InitializeTimeout)
	defer cancel()
	s, err := client.Connect(ictx, t, nil)
	if err != nil {
		if ictx.Err() != nil && ctx.Err() == nil {
			err = fmt.Errorf("the server did not answer the protocol's handshake within %s: %w", InitializeTimeout, err)
		}
		return session{}, fmt.Errorf("connect to mcp server %s: %w", tool.Server, session{stdio: stdio}.diagnose(err))
	}
	return session{ClientSession: s, stdio: stdio}, nil
}

// Import lists the tools of server and returns them as a catalog named after the server,
// each an API named provider.tool, provider being the server's name as it introduces itself,
// made an identifier (catalogs.Identifier). A tool's input schema gives the API's inputs;
// its output schema its outputs, or else one string output, TextOutput; its annotations the
// call's effect (read-only: read; idempotent: idempotent; otherwise, or without
// annotations, unsafe) and tags ("mcp", "destructive").
func Import(ctx context.Context, server string) (toolspec.Catalog, error) {
	return ImportWith(ctx, server, ImportOptions{})
}

// ImportOptions are the choices of an import beyond the server.
type ImportOptions struct {
	// Env is what a stdio server's environment holds beyond this process's (MCPTool.Env):
	// "NAME=value", kept in the catalog, or "NAME", this process's value, which the worker
	// takes from its own environment. Pass secrets by name.
	Env []string
}

// ImportWith is Import with options: the server runs with o.Env here, and its APIs record it,
// so the worker runs it the same way.
func ImportWith(ctx context.Context, server string, o ImportOptions) (toolspec.Catalog, error) {
	where := toolspec.MCPTool{Server: server, Env: slices.Clone(o.Env)}
	if strings.HasPrefix(server, StdioPrefix) {
		dir, err := os.Getwd()
		if err != nil {
			return toolspec.Catalog{}, fmt.Errorf("mcp server %s: the folder it runs in: %w", server, err)
		}
		where.Dir = dir
	}
	s, err := connect(ctx, where)
	if err != nil {
		return toolspec.Catalog{}, err
	}
	defer s.Close()
	provider := "mcp"
	if info := s.InitializeResult(); info != nil && info.ServerInfo != nil {
		provider = cmp.Or(catalogs.Identifier(info.ServerInfo.Name), provider)
	}
	c := toolspec.Catalog{Name: provider}
	for tool, err := range s.Tools(ctx, nil) {
		if err != nil {
			return toolspec.Catalog{}, fmt.Errorf("list the tools of mcp server %s: %w", server, s.diagnose(err))
		}
		a, err := api(provider, where, tool)
		if err != nil {
			return toolspec.Catalog{}, fmt.Errorf("mcp server %s: tool %s: %w", server, tool.Name, err)
		}
		c.APIs = append(c.APIs, a)
	}
	if err := c.Validate(); err != nil {
		return toolspec.Catalog{}, fmt.Errorf("mcp server %s: %w", server, err)
	}
	return c, nil
}

// api is the catalog entry of one tool.
func api(provider string, where toolspec.MCPTool, t *mcp.Tool) (toolspec.API, error) {
	where.Tool = t.Name
	a := toolspec.API{Name: provider + "." + t.Name, Description: cmp.Or(t.Description, t.Title), Provider: provider,
		Tags: []string{"mcp"}, MCP: &where, Effect: toolspec.EffectUnsafe}
	if n := t.Annotations; n != nil {
		switch {
		case n.ReadOnlyHint:
			a.Effect = toolspec.EffectRead
		case n.IdempotentHint:
			a.Effect = toolspec.EffectIdempotent
		}
		if n.DestructiveHint != nil && *n.DestructiveHint {
			a.Tags = append(a.Tags, "destructive")
		}
	}
	var err error
	if a.Inputs, err = inputParams(t.InputSchema); err != nil {
		return a, fmt.Errorf("input schema: %w", err)
	}
	if a.Outputs, err = outputParams(t.OutputSchema); err != nil {
		return a, fmt.Errorf("output schema: %w", err)
	}
	if len(a.Outputs) == 0 {
		a.Outputs = []toolspec.Param{{Name: TextOutput, Type: "string", Description: "The text the tool answered."}}
	}
	return a, nil
}

// objectSchema is the part of a tool's JSON schema that names its parameters.
type objectSchema struct {
	Properties map[string]struct {
		Type        any    `json:"type"`
		Description string `json:"description"`
		Enum        []any  `json:"enum"`
		Pattern     string `json:"pattern"`
	} `json:"properties"`
	Required []string `json:"required"`
}

// inputParams reads the properties of a tool's input schema, required ones first, then by
// name. A nil schema has none.
func inputParams(schema any) ([]toolspec.Param, error) {
	if schema == nil {
		return nil, nil
	}
	b, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	var s objectSchema
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	required := map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	var out []toolspec.Param
	for name, p := range s.Properties {
		out = append(out, toolspec.Param{Name: name, Type: schemaType(p.Type), Description: p.Description,
			Required: required[name], Enum: toolspec.EnumValues(p.Enum), Pattern: p.Pattern})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Required != out[j].Required {
			return out[i].Required
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

// outputParams reads the fields of a tool's output schema: the top-level properties sorted by
// name, then, breadth first, those inside its lists of records and the objects that wrap them
// to toolspec.MaxOutputDepth, each with its path ("tracks.items[].uri") and named by
// toolspec.NestedName. A nil schema has none.
func outputParams(schema any) ([]toolspec.Param, error) {
	if schema == nil {
		return nil, nil
	}
	b, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	var top map[string]any
	if err := json.Unmarshal(b, &top); err != nil {
		return nil, err
	}
	type level struct {
		path    string   // where the object lies, "" at the top; "key[]" for a list's items
		parents []string // the keys of the enclosing fields, outermost first
		schema  map[string]any
	}
	var out []toolspec.Param
	taken := map[string]bool{}
	queue := []level{{schema: top}}
	for depth := 0; len(queue) > 0 && depth < toolspec.MaxOutputDepth; depth++ {
		var next []level
		for _, l := range queue {
			props, _ := l.schema["properties"].(map[string]any)
			for _, k := range slices.Sorted(maps.Keys(props)) {
				p, _ := props[k].(map[string]any)
				if k == "" || p == nil {
					continue
				}
				name, ok := toolspec.NestedName(taken, l.parents, k)
				if !ok {
					continue
				}
				taken[name] = true
				q := toolspec.Param{Name: name, Type: schemaType(p["type"])}
				q.Description, _ = p["description"].(string)
				path := k
				if l.path != "" {
					path = l.path + "." + k
					q.Path = path
				}
				out = append(out, q)
				child := level{path: path, parents: append(slices.Clone(l.parents), k), schema: p}
				if items := listOfRecords(p); items != nil {
					child.path, child.schema = path+"[]", items
				} else if !wrapsRecords(p) {
					continue
				}
				next = append(next, child)
			}
		}
		queue = next
	}
	return out, nil
}

// listOfRecords is the item schema of a list of records (an array whose items have
// properties), nil for any other schema.
func listOfRecords(schema map[string]any) map[string]any {
	items, _ := schema["items"].(map[string]any)
	if props, _ := items["properties"].(map[string]any); len(props) > 0 {
		return items
	}
	return nil
}

// wrapsRecords reports whether an object schema holds a list of records (a page:
// {"items": [...], "total": 3}). As in the OpenAPI importer, outputs are read inside lists
// of records and the objects that wrap them, not inside a record nested in a record.
func wrapsRecords(schema map[string]any) bool {
	props, _ := schema["properties"].(map[string]any)
	for _, p := range props {
		if m, _ := p.(map[string]any); m != nil && listOfRecords(m) != nil {
			return true
		}
	}
	return false
}

// schemaType is a JSON schema type as a catalog type: its one type, or the first that is not
// null of a list.
func schemaType(t any) string {
	switch v := t.(type) {
	case string:
		return v
	case []any:
		for _, x := range v {
			if s, ok := x.(string); ok && s != "null" {
				return s
			}
		}
	}
	return ""
}

// Pool calls MCP tools, keeping one session per server for the calls of a worker. The zero
// Pool is ready; Close ends its sessions.
type Pool struct {
	mu       sync.Mutex
	sessions map[string]session // by serverKey
}

// serverKey names a server in the pool: its command line or URL, the folder it runs in, and
// the environment it was told.
func serverKey(tool toolspec.MCPTool) string {
	return strings.Join(append([]string{tool.Server, tool.Dir}, tool.Env...), "\x00")
}

// session returns the open session with the server of tool, opening one when there is none.
func (p *Pool) session(ctx context.Context, tool toolspec.MCPTool) (session, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if s, ok := p.sessions[serverKey(tool)]; ok {
		return s, nil
	}
	s, err := connect(ctx, tool)
	if err != nil {
		return session{}, err
	}
	if p.sessions == nil {
		p.sessions = map[string]session{}
	}
	p.sessions[serverKey(tool)] = s
	return s, nil
}

// drop closes and forgets the session with the server of tool, if it is s: the next call
// opens another.
func (p *Pool) drop(tool toolspec.MCPTool, s session) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if cur, ok := p.sessions[serverKey(tool)]; ok && cur.ClientSession == s.ClientSession {
		delete(p.sessions, serverKey(tool))
		_ = s.Close()
	}
}

// CallMCP implements toolcall.MCPCaller: it calls tool with args on its server. The output
// is the tool's structured content when it is an object, else its text (TextOutput). A tool
// that answers with an error fails the call for good (toolcall.ErrRejected, with the tool's
// words); a server that cannot be reached, or a session that breaks, fails it for a retry
// (toolcall.ErrUnavailable), which opens a new session; a stdio server whose command does not
// exist cannot be called (toolcall.ErrNotCallable).
func (p *Pool) CallMCP(ctx context.Context, api string, tool toolspec.MCPTool, args map[string]any) (map[string]any, error) {
	s, err := p.session(ctx, tool)
	if err != nil {
		var te *toolcall.Error
		if errors.As(err, &te) {
			te.API = api
			return nil, te
		}
		kind := toolcall.ErrUnavailable
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
			kind = toolcall.ErrNotCallable
		}
		return nil, &toolcall.Error{Kind: kind, API: api, Detail: "mcp server " + tool.Server + " cannot be reached", Err: err}
	}
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: tool.Tool, Arguments: args})
	if err != nil {
		if ctx.Err() == nil {
			p.drop(tool, s)
		}
		// The call went to the server: a tool that is not read-only may have run.
		return nil, &toolcall.Error{Kind: toolcall.ErrUnavailable, API: api, Detail: "mcp call of " + tool.Tool + " failed", Err: s.diagnose(err), Sent: true}
	}
	text := texts(res.Content)
	if res.IsError {
		return nil, &toolcall.Error{Kind: toolcall.ErrRejected, API: api, Detail: "the tool answered an error", Body: text}
	}
	if m, ok := res.StructuredContent.(map[string]any); ok {
		return m, nil
	}
	return map[string]any{TextOutput: text}, nil
}

// texts joins the text contents of a tool's answer, a line each, and names the others
// ("[image]").
func texts(cs []mcp.Content) string {
	var parts []string
	for _, c := range cs {
		switch v := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, v.Text)
		case *mcp.ImageContent:
			parts = append(parts, "[image]")
		case *mcp.AudioContent:
			parts = append(parts, "[audio]")
		default:
			parts = append(parts, fmt.Sprintf("[%T]", c))
		}
	}
	return strings.Join(parts, "\n")
}

// Close ends every session the pool opened.
func (p *Pool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var errs []error
	for key, s := range p.sessions {
		server, _, _ := strings.Cut(key, "\x00")
		if err := s.Close(); err != nil {
			errs = append(errs, fmt.Errorf("close mcp session with %s: %w", server, err))
		}
	}
	p.sessions = nil
	return errors.Join(errs...)
}
