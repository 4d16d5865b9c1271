package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	sdklog "go.temporal.io/sdk/log"

	"github.com/naviagent/navi/internal/config"
	"github.com/naviagent/navi/workflows"
)

// connect dials Temporal, logging only the SDK's errors.
func connect(ctx context.Context, cfg config.Config) (client.Client, error) {
	return cfg.DialTemporal(ctx, sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))))
}

func ask(args []string, out io.Writer) error {
	cfg := config.FromEnv()
	fs := flag.NewFlagSet("navi ask", flag.ContinueOnError)
	cfg.RegisterFlags(fs)
	id := fs.String("id", "", "workflow ID (default: generated)")
	wait := fs.Bool("wait", true, "wait for the result")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	timeout := fs.Duration("timeout", 10*time.Minute, "how long to wait for the result")
	if err := fs.Parse(args); err != nil {
		return err
	}
	query := strings.TrimSpace(strings.Join(fs.Args(), " "))
	if query == "" {
		return fmt.Errorf("%w: navi ask needs a query", errUsage)
	}
	if *id == "" {
		*id = newRunID()
	}

	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	c, err := connect(ctx, cfg)
	if err != nil {
		return err
	}
	defer c.Close()

	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                       *id,
		TaskQueue:                cfg.TaskQueue,
		WorkflowExecutionTimeout: 24 * time.Hour,
		StaticSummary:            "navi ask: " + oneLine(query, 100),
	}, workflows.QueryWorkflow, workflows.QueryRequest{Query: query})
	if err != nil {
		return fmt.Errorf("start workflow %s: %w", *id, err)
	}
	fmt.Fprintf(out, "workflow  %s\n", run.GetID())
	fmt.Fprintf(out, "ui        %s\n", cfg.RunURL(run.GetID()))
	if !*wait {
		return nil
	}
	var res workflows.QueryResult
	if err := run.Get(ctx, &res); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("no result after %s: the run goes on; see `navi show %s`", *timeout, run.GetID())
		}
		return fmt.Errorf("workflow %s failed: %w", run.GetID(), err)
	}
	return printResult(out, res, *asJSON)
}

func printResult(out io.Writer, res workflows.QueryResult, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	fmt.Fprintf(out, "status    %s (planner: %s, %d step(s))\n\n%s\n", res.Status, res.Planner, res.Steps, res.Answer)
	return nil
}

func show(args []string, out io.Writer) error {
	cfg := config.FromEnv()
	fs := flag.NewFlagSet("navi show", flag.ContinueOnError)
	cfg.RegisterFlags(fs)
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: navi show needs one workflow ID", errUsage)
	}
	id := fs.Arg(0)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := connect(ctx, cfg)
	if err != nil {
		return err
	}
	defer c.Close()

	desc, err := c.DescribeWorkflowExecution(ctx, id, "")
	var notFound *serviceerror.NotFound
	if errors.As(err, &notFound) {
		return fmt.Errorf("no workflow %s in namespace %s", id, cfg.Namespace)
	}
	if err != nil {
		return fmt.Errorf("describe %s: %w", id, err)
	}
	info := desc.GetWorkflowExecutionInfo()
	fmt.Fprintf(out, "workflow  %s (run %s)\n", id, info.GetExecution().GetRunId())
	fmt.Fprintf(out, "type      %s\n", info.GetType().GetName())
	fmt.Fprintf(out, "status    %s\n", info.GetStatus())
	fmt.Fprintf(out, "started   %s\n", info.GetStartTime().AsTime().Local().Format(time.RFC3339))
	if ct := info.GetCloseTime(); ct != nil {
		fmt.Fprintf(out, "closed    %s\n", ct.AsTime().Local().Format(time.RFC3339))
	}
	fmt.Fprintf(out, "ui        %s\n", cfg.RunURL(id))
	if sa := info.GetSearchAttributes().GetIndexedFields(); len(sa) > 0 {
		keys := make([]string, 0, len(sa))
		for k := range sa {
			if strings.HasPrefix(k, "Navi") {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			var v any
			if err := converter.GetDefaultDataConverter().FromPayload(sa[k], &v); err == nil {
				fmt.Fprintf(out, "  %-14s %v\n", k, v)
			}
		}
	}

	switch info.GetStatus() {
	case enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING:
		v, err := c.QueryWorkflow(ctx, id, "", workflows.StateQuery)
		if err != nil {
			return fmt.Errorf("query state of %s: %w", id, err)
		}
		var st workflows.QueryState
		if err := v.Get(&st); err != nil {
			return fmt.Errorf("decode state of %s: %w", id, err)
		}
		fmt.Fprintf(out, "\nstep %d, %s\n", st.Step, st.Status)
	case enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED:
		var res workflows.QueryResult
		if err := c.GetWorkflow(ctx, id, "").Get(ctx, &res); err != nil {
			return fmt.Errorf("result of %s: %w", id, err)
		}
		fmt.Fprintln(out)
		return printResult(out, res, *asJSON)
	default:
		err := c.GetWorkflow(ctx, id, "").Get(ctx, nil)
		if err != nil {
			fmt.Fprintf(out, "\n%v\n", err)
		}
	}
	return nil
}

// newRunID returns a readable, unique workflow ID: navi-<UTC time>-<random>.
func newRunID() string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return fmt.Sprintf("navi-%s-%s", time.Now().UTC().Format("20060102-150405"), hex.EncodeToString(b))
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return s
}
