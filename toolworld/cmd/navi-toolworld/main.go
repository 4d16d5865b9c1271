// Command navi-toolworld serves Navi's local tool world: deterministic HTTP tools in seven
// domains, with fault injection, for demos and tests.
//
//	navi-toolworld -addr 127.0.0.1:8300 [-debug]
//	navi-toolworld tasks [-n 300] [-seed 1] [-difficulty all|easy|medium|hard|renamed|compound]
//	navi-toolworld synthetic [-n 16000] [-seed 1]
//
// The tasks subcommand writes generated tasks (toolworld.GenerateTasks) as JSON lines to
// stdout instead of serving; synthetic writes a generated catalog of n APIs for scale
// benchmarks (research/synth), in Navi's native JSON format.
//
// The address comes from -addr, else NAVI_TOOLWORLD_ADDR, else 127.0.0.1:8300. With -debug,
// every request is logged. SIGINT or SIGTERM shuts the server down gracefully.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/naviagent/navi/research/synth"
	"github.com/naviagent/navi/toolworld"
)

const defaultAddr = "127.0.0.1:8300"

func main() {
	if len(os.Args) > 1 {
		sub := map[string]func([]string, io.Writer) error{"tasks": runTasks, "synthetic": runSynthetic}[os.Args[1]]
		if sub != nil {
			if err := sub(os.Args[2:], os.Stdout); err != nil {
				fmt.Fprintf(os.Stderr, "navi-toolworld %s: %v\n", os.Args[1], err)
				os.Exit(1)
			}
			return
		}
	}
	def := defaultAddr
	if v := os.Getenv("NAVI_TOOLWORLD_ADDR"); v != "" {
		def = v
	}
	addr := flag.String("addr", def, "listen address (env NAVI_TOOLWORLD_ADDR)")
	debug := flag.Bool("debug", false, "log every request")
	flag.Parse()

	level := slog.LevelInfo
	if *debug {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	if err := run(*addr, logger); err != nil {
		logger.Error("navi-toolworld", "err", err)
		os.Exit(1)
	}
}

func run(addr string, logger *slog.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	srv := &http.Server{
		Addr:              addr,
		Handler:           toolworld.New(toolworld.Options{Logger: logger}),
		ReadHeaderTimeout: 10 * time.Second,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	logger.Info("navi-toolworld listening", "addr", addr, "apis", len(toolworld.Registry()),
		"catalog", "http://"+addr+"/catalog.json")

	select {
	case err := <-errc:
		return fmt.Errorf("serve %s: %w", addr, err)
	case <-ctx.Done():
	}
	logger.Info("navi-toolworld shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve %s: %w", addr, err)
	}
	return nil
}

// runTasks parses the tasks subcommand's flags and writes the tasks as JSON lines to w.
func runTasks(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("tasks", flag.ContinueOnError)
	n := fs.Int("n", 300, "number of tasks")
	seed := fs.Uint64("seed", 1, "generator seed")
	difficulty := fs.String("difficulty", "all", "easy, medium, hard, all (the three), renamed (flows across names) or compound (several questions in one query)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	tasks, err := toolworld.GenerateTasks(toolworld.TaskOptions{Seed: *seed, N: *n, Difficulty: *difficulty})
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, t := range tasks {
		if err := enc.Encode(t); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// runSynthetic writes a generated catalog of -n APIs (1 to 100,000) in the native JSON format.
func runSynthetic(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("synthetic", flag.ContinueOnError)
	n := fs.Int("n", 16000, "number of APIs")
	seed := fs.Uint64("seed", 1, "generator seed")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *n < 1 || *n > 100000 {
		return fmt.Errorf("-n %d: want 1 to 100000", *n)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(synth.Catalog(*n, *seed))
}
