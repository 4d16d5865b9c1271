package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/naviagent/navi/internal/config"
	"github.com/naviagent/navi/twnm/catalogs"
)

func tools(args []string) error {
	if len(args) == 0 || args[0] != "load" {
		return fmt.Errorf("%w: navi tools load <catalog.json|yaml>", errUsage)
	}
	cfg := config.FromEnv()
	fs := flag.NewFlagSet("navi tools load", flag.ContinueOnError)
	cfg.RegisterFlags(fs)
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: navi tools load needs one catalog file", errUsage)
	}
	path := fs.Arg(0)
	cat, err := catalogs.Native(path) // JSON or YAML, by extension
	if err != nil {
		return err
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	store, err := cfg.OpenGraph(ctx)
	if err != nil {
		return err
	}
	defer store.Close(context.Background())
	stats, err := store.LoadCatalog(ctx, cat)
	if err != nil {
		return err
	}
	counts, err := store.Counts(ctx)
	if err != nil {
		return err
	}
	fmt.Printf("loaded %s: %d APIs, %d parameters (graph now %d APIs, %d parameters, %d edges)\n",
		path, stats.APIs, stats.Params, counts.APIs, counts.Params, counts.Edges)
	return nil
}
