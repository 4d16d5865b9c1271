package toolcall

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/naviagent/navi/toolspec"
)

// MCPCaller calls a tool of a Model Context Protocol server (package mcptool implements
// it). A failure is an *Error of this package's kinds: a tool that answers with an error is
// ErrRejected, a server that cannot be reached or dies mid-call ErrUnavailable, Sent when the
// call had gone to the server (an unsafe tool's outcome is then unknown).
type MCPCaller interface {
	CallMCP(ctx context.Context, api string, tool toolspec.MCPTool, args map[string]any) (map[string]any, error)
}

// callMCP is Call for an API served by an MCP server: the arguments checked and typed as for
// an HTTP call's JSON body, the call made through c.MCP with the same heartbeats, and the
// output kept or stored as an HTTP answer's.
func (c *Client) callMCP(ctx, callCtx context.Context, api toolspec.API, args map[string]string, opts CallOptions, start time.Time) (Result, error) {
	if c.MCP == nil {
		return Result{}, notCallable(api.Name, "it is an MCP tool (%s on %s), and the worker has no MCP client", api.MCP.Tool, api.MCP.Server)
	}
	typed, err := typedArgs(api, args)
	if err != nil {
		return Result{}, err
	}
	stop := startHeartbeat(cmp.Or(c.HeartbeatInterval, DefaultHeartbeatInterval), opts.Heartbeat, api.Name, start)
	output, err := c.MCP.CallMCP(callCtx, api.Name, *api.MCP, typed)
	stop()
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, fmt.Errorf("call %s: %w", api.Name, ctx.Err())
		}
		if e := (*Error)(nil); errors.As(err, &e) {
			return Result{}, unknownOutcome(api, e)
		}
		return Result{}, err
	}
	return c.keep(ctx, api, opts, start, Result{API: api.Name, Output: output}, nil)
}

// typedArgs checks args against api's inputs, as buildRequest does for a JSON body: no
// unknown argument, every required one given, each of its declared type.
func typedArgs(api toolspec.API, args map[string]string) (map[string]any, error) {
	if err := unknownArgs(api, args); err != nil {
		return nil, err
	}
	out := map[string]any{}
	for _, p := range api.Inputs {
		v, given := args[p.Name]
		if !given || v == "" {
			if p.Required {
				return nil, invalidInput(api.Name, p.Name, "required parameter %s is missing", p.Name)
			}
			continue
		}
		t, err := convert(p, v)
		if err != nil {
			return nil, invalidInput(api.Name, p.Name, "parameter %s: %v", p.Name, err)
		}
		if err := emptyRequired(api, p, t); err != nil {
			return nil, err
		}
		out[p.Name] = t
	}
	return out, nil
}

// unknownArgs reports the args api has no input for, all at once, sorted, so that the caller
// can fix them in one go.
func unknownArgs(api toolspec.API, args map[string]string) error {
	known := make(map[string]bool, len(api.Inputs))
	for _, p := range api.Inputs {
		known[p.Name] = true
	}
	var unknown []string
	for name := range args {
		if !known[name] {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	param := ""
	if len(unknown) == 1 {
		param = unknown[0]
	}
	return invalidInput(api.Name, param, "unknown parameter(s) %s; the inputs are %s", strings.Join(unknown, ", "), inputNames(api.Inputs))
}
