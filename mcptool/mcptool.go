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
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"

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

// transport opens server as a transport.
func transport(server string) (mcp.Transport, error) {
	switch {
	case strings.HasPrefix(server, StdioPrefix):
		args := strings.Fields(strings.TrimPrefix(server, StdioPrefix))
		if len(args) == 0 {
			return nil, fmt.Errorf("mcp server %q: no command after %q", server, StdioPrefix)
		}
		// A server that does not end when its input closes is stopped after 2s, not 5s.
		return &mcp.CommandTransport{Command: exec.Command(args[0], args[1:]...), TerminateDuration: 2 * time.Second}, nil
	case strings.HasPrefix(server, "http://"), strings.HasPrefix(server, "https://"):
		return &mcp.StreamableClientTransport{Endpoint: server, DisableStandaloneSSE: true}, nil
	}
	return nil, fmt.Errorf("mcp server %q: want %q and a command line, or an http(s) URL", server, StdioPrefix)
}

// connect opens a session with server.
func connect(ctx context.Context, server string) (*mcp.ClientSession, error) {
	t, err := transport(server)
	if err != nil {
		return nil, err
	}
	s, err := client.Connect(ctx, t, nil)
	if err != nil {
		return nil, fmt.Errorf("connect to mcp server %s: %w", server, err)
	}
	return s, nil
}

// Import lists the tools of server and returns them as a catalog named after the server,
// each an API named provider.tool, provider being the server's name as it introduces itself,
// made an identifier (catalogs.Identifier). A tool's input schema gives the API's inputs;
// its output schema its outputs, or else one string output, TextOutput; its annotations the
// call's effect (read-only: read; idempotent: idempotent; otherwise, or without
// annotations, unsafe) and tags ("mcp", "destructive").
func Import(ctx context.Context, server string) (toolspec.Catalog, error) {
	s, err := connect(ctx, server)
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
			return toolspec.Catalog{}, fmt.Errorf("list the tools of mcp server %s: %w", server, err)
		}
		a, err := api(provider, server, tool)
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
func api(provider, server string, t *mcp.Tool) (toolspec.API, error) {
	a := toolspec.API{Name: provider + "." + t.Name, Description: cmp.Or(t.Description, t.Title), Provider: provider,
		Tags: []string{"mcp"}, MCP: &toolspec.MCPTool{Server: server, Tool: t.Name}, Effect: toolspec.EffectUnsafe}
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
	if a.Inputs, err = params(t.InputSchema, true); err != nil {
		return a, fmt.Errorf("input schema: %w", err)
	}
	if a.Outputs, err = params(t.OutputSchema, false); err != nil {
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
	} `json:"properties"`
	Required []string `json:"required"`
}

// params reads the properties of an object schema, sorted by name, required ones first for
// inputs. A nil schema has none.
func params(schema any, inputs bool) ([]toolspec.Param, error) {
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
		q := toolspec.Param{Name: name, Type: schemaType(p.Type), Description: p.Description}
		if inputs {
			q.Required = required[name]
			q.Enum = toolspec.EnumValues(p.Enum)
		}
		out = append(out, q)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Required != out[j].Required {
			return out[i].Required
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
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
	sessions map[string]*mcp.ClientSession
}

// session returns the open session with server, opening one when there is none.
func (p *Pool) session(ctx context.Context, server string) (*mcp.ClientSession, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if s := p.sessions[server]; s != nil {
		return s, nil
	}
	s, err := connect(ctx, server)
	if err != nil {
		return nil, err
	}
	if p.sessions == nil {
		p.sessions = map[string]*mcp.ClientSession{}
	}
	p.sessions[server] = s
	return s, nil
}

// drop closes and forgets the session with server, if it is s: the next call opens another.
func (p *Pool) drop(server string, s *mcp.ClientSession) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sessions[server] == s {
		delete(p.sessions, server)
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
	s, err := p.session(ctx, tool.Server)
	if err != nil {
		kind := toolcall.ErrUnavailable
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
			kind = toolcall.ErrNotCallable
		}
		return nil, &toolcall.Error{Kind: kind, API: api, Detail: "mcp server " + tool.Server + " cannot be reached", Err: err}
	}
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: tool.Tool, Arguments: args})
	if err != nil {
		if ctx.Err() == nil {
			p.drop(tool.Server, s)
		}
		// The call went to the server: a tool that is not read-only may have run.
		return nil, &toolcall.Error{Kind: toolcall.ErrUnavailable, API: api, Detail: "mcp call of " + tool.Tool + " failed", Err: err, Sent: true}
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
	for server, s := range p.sessions {
		if err := s.Close(); err != nil {
			errs = append(errs, fmt.Errorf("close mcp session with %s: %w", server, err))
		}
	}
	p.sessions = nil
	return errors.Join(errs...)
}
