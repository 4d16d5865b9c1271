package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/naviagent/navi/internal/config"
	"github.com/naviagent/navi/internal/devstack"
)

func dev(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: navi dev up|down|status|logs", errUsage)
	}
	fs := flag.NewFlagSet("navi dev "+args[0], flag.ContinueOnError)
	state := fs.String("state", config.Getenv("NAVI_STATE_DIR", ".state"), "state folder: pid files, logs, data (NAVI_STATE_DIR)")
	switch args[0] {
	case "up":
		return devUp(fs, state, args[1:])
	case "down":
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		return devstack.Down(*state, os.Stdout)
	case "status":
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		fmt.Println(strings.Join(devstack.Status(*state), "\n"))
		return nil
	case "logs":
		n := fs.Int("n", 20, "lines per log")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		return devLogs(*state, *n)
	}
	return fmt.Errorf("%w: unknown command navi dev %s", errUsage, args[0])
}

func devUp(fs *flag.FlagSet, state *string, args []string) error {
	cfg := config.FromEnv()
	o := devstack.Options{Out: os.Stdout, Neo4jUser: cfg.Neo4jUser, Neo4jPass: cfg.Neo4jPassword,
		Namespace: cfg.Namespace, TaskQueue: cfg.TaskQueue}
	fs.StringVar(&o.Root, "root", ".", "repository root, where bin/ and neo4j/launcher are")
	fs.BoolVar(&o.Worker, "worker", true, "also start the worker")
	fs.StringVar(&o.TaskQueue, "task-queue", o.TaskQueue, "task queue of the worker (NAVI_TASK_QUEUE)")
	free := fs.Bool("free-ports", false, "pick free ports instead of the configured ones (tests)")
	fs.StringVar(&o.EnvPrefix, "env-prefix", "NAVI_", "variable prefix in <state>/stack.env")
	fs.StringVar(&o.Neo4jHeap, "neo4j-heap", config.Getenv("NAVI_NEO4J_HEAP", "1g"), "Neo4j JVM heap (NAVI_NEO4J_HEAP)")
	fs.StringVar(&o.Persistence, "persistence", config.Getenv("NAVI_PERSISTENCE", "sqlite"),
		"where Temporal keeps its data: sqlite (one file) or postgres (a PostgreSQL of the stack's own; make postgres installs it) (NAVI_PERSISTENCE)")
	fs.IntVar(&o.TemporalNodes, "temporal-nodes", 1, "Temporal server processes, one cluster on PostgreSQL (more than 1 needs -persistence postgres)")
	fs.IntVar(&o.Workers, "workers", 1, "worker processes")
	fs.StringVar(&o.LLM, "llm", config.Getenv("NAVI_LLM", ""),
		"local: also run the local model (make llm installs it) and plan with it by default (NAVI_LLM)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	o.StateDir = *state
	// With payload encryption keys configured, the stack encrypts and the UI decodes through
	// a codec server of its own.
	cdc, err := cfg.Codec()
	if err != nil {
		return err
	}
	o.Codec = cdc != nil
	if !*free {
		if o.TemporalPort, err = portEnv("NAVI_TEMPORAL_PORT", 7233); err != nil {
			return err
		}
		if o.UIPort, err = portEnv("NAVI_UI_PORT", 8233); err != nil {
			return err
		}
		if o.BoltPort, err = portEnv("NAVI_NEO4J_BOLT_PORT", 7687); err != nil {
			return err
		}
		if o.ToolPort, err = portEnv("NAVI_TOOLWORLD_PORT", 8300); err != nil {
			return err
		}
		if o.CodecPort, err = portEnv("NAVI_CODEC_PORT", 8234); err != nil {
			return err
		}
		if o.PostgresPort, err = portEnv("NAVI_POSTGRES_PORT", 7432); err != nil {
			return err
		}
		if o.LLMPort, err = portEnv("NAVI_LLM_PORT", 8402); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ep, err := devstack.Up(ctx, o)
	if err != nil {
		return fmt.Errorf("%w\n(see `navi dev logs -state %s`; `make down` stops what started)", err, *state)
	}
	fmt.Printf("\nstack up: Temporal %s, Temporal UI %s, Neo4j %s, tool world %s\nendpoints in %s\n",
		ep.TemporalAddress, ep.UIURL, ep.Neo4jURI, ep.ToolWorldURL, devstack.EnvFile(*state))
	if ep.CodecURL != "" {
		fmt.Printf("payloads encrypted; the UI decodes them through %s\n", ep.CodecURL)
	}
	if ep.LLMURL != "" {
		fmt.Printf("the worker plans with %s at %s\n", ep.LLMModel, ep.LLMURL)
	}
	return nil
}

func devLogs(state string, n int) error {
	files, err := filepath.Glob(filepath.Join(state, "logs", "*.log"))
	if err != nil || len(files) == 0 {
		return fmt.Errorf("no logs in %s/logs: has the stack run?", state)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
		fmt.Printf("==> %s <==\n%s\n\n", f, strings.Join(lines[max(0, len(lines)-n):], "\n"))
	}
	return nil
}

func portEnv(name string, def int) (int, error) {
	v := os.Getenv(name)
	if v == "" {
		return def, nil
	}
	p, err := strconv.Atoi(v)
	if err != nil || p < 1 || p > 65535 {
		return 0, fmt.Errorf("%s=%q: want a port number from 1 to 65535", name, v)
	}
	return p, nil
}
