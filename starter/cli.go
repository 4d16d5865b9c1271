package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"
	"unicode"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	sdklog "go.temporal.io/sdk/log"

	"github.com/naviagent/navi/internal/config"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/workflows"
)

// command is what every subcommand starts from: the configuration from the environment and a
// flag set that can override it.
type command struct {
	name string
	cfg  config.Config
	fs   *flag.FlagSet
}

func newCommand(name string) *command {
	c := &command{name: "navi " + name, cfg: config.FromEnv()}
	c.fs = flag.NewFlagSet(c.name, flag.ContinueOnError)
	c.cfg.RegisterFlags(c.fs)
	return c
}

// parse parses args, letting flags stand before, between and after the positional arguments
// (until "--"), and returns the positional ones. It is a usage error when their count is not
// within [min, max]; max < 0 means no upper bound.
func (c *command) parse(args []string, min, max int, what string) ([]string, error) {
	var pos []string
	for {
		if err := c.fs.Parse(args); err != nil {
			return nil, err
		}
		rest := c.fs.Args()
		if len(rest) == 0 {
			break
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			pos = append(pos, rest...)
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	if len(pos) < min || (max >= 0 && len(pos) > max) {
		return nil, fmt.Errorf("%w: %s needs %s", errUsage, c.name, what)
	}
	return pos, nil
}

// withTemporal dials Temporal and runs fn with the client, under a timeout for the whole call.
func (c *command) withTemporal(timeout time.Duration, fn func(ctx context.Context, tc client.Client) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	tc, err := c.cfg.DialTemporal(ctx, sdkLogger())
	if err != nil {
		return err
	}
	defer tc.Close()
	return fn(ctx, tc)
}

// withGraph opens the graph in Neo4j and runs fn with the store, under a timeout for the whole
// call.
func (c *command) withGraph(timeout time.Duration, fn func(ctx context.Context, store *neo4j.Store) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	store, err := c.cfg.OpenGraph(ctx)
	if err != nil {
		return err
	}
	defer store.Close(context.Background())
	return fn(ctx, store)
}

// dataConverter reads payloads as the worker wrote them: through the codec when keys are
// configured (NAVI_CODEC_KEYS), else as they are.
func (c *command) dataConverter() (converter.DataConverter, error) {
	cdc, err := c.cfg.Codec()
	if err != nil || cdc == nil {
		return converter.GetDefaultDataConverter(), err
	}
	return cdc.DataConverter(), nil
}

// sdkLogger logs only the SDK's errors, on stderr.
func sdkLogger() sdklog.Logger {
	return sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})))
}

// notFound turns the server's NotFound for a workflow into an error that names it; other errors
// are wrapped with what was being done.
func (c *command) notFound(err error, id, doing string) error {
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		return fmt.Errorf("no workflow %s in namespace %s", id, c.cfg.Namespace)
	}
	return fmt.Errorf("%s %s: %w", doing, id, err)
}

// queryState asks a run for its live state. The query needs a worker: one that is down makes
// it wait, so each query gets at most limit.
func queryState(ctx context.Context, tc client.Client, id string, limit time.Duration) (workflows.QueryState, error) {
	var st workflows.QueryState
	qctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	v, err := tc.QueryWorkflow(qctx, id, "", workflows.StateQuery)
	if err != nil {
		return st, err
	}
	return st, v.Get(&st)
}

// field prints one "label     value" line, the layout of every human-readable output here.
func field(w io.Writer, label, format string, args ...any) {
	fmt.Fprintln(w, terminalSafe(fmt.Sprintf("%-9s "+format, append([]any{label}, args...)...)))
}

// terminalSafe escapes what a terminal would obey rather than show in text that users or
// tools wrote (a query, an answer, a tool's output): control characters but newline and tab
// (an ANSI escape sequence starts with one) and the bidirectional overrides that reorder what
// is shown.
func terminalSafe(s string) string {
	if !strings.ContainsFunc(s, unsafeRune) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case !unsafeRune(r):
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			fmt.Fprintf(&b, "\\u%04x", r)
		}
	}
	return b.String()
}

func unsafeRune(r rune) bool {
	return r != '\n' && r != '\t' && unicode.IsControl(r) || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func localTime(t time.Time) string {
	return t.Local().Format(time.RFC3339)
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return s
}
