package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"strings"
	"time"

	"github.com/naviagent/navi/twnm/catalogs"
)

// tools runs `navi tools import` (or its older name, load).
func tools(args []string, s streams) error {
	if len(args) == 0 || (args[0] != "import" && args[0] != "load") {
		return fmt.Errorf("%w: navi tools import <catalog.json|yaml|URL>", errUsage)
	}
	c := newCommand("tools " + args[0])
	pos, err := c.parse(args[1:], 1, 1, "one catalog file or URL")
	if err != nil {
		return err
	}
	source := pos[0]
	path := source
	if strings.HasPrefix(path, "http://") || strings.HasPrefix(path, "https://") {
		local, err := download(path)
		if err != nil {
			return err
		}
		defer os.Remove(local)
		path = local
	}
	cat, err := catalogs.Native(path) // JSON or YAML, by extension
	if err != nil {
		return err
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	store, err := c.cfg.OpenGraph(ctx)
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
	fmt.Fprintf(s.out, "loaded %s: %d APIs, %d parameters (graph now %d APIs, %d parameters, %d edges)\n",
		source, stats.APIs, stats.Params, counts.APIs, counts.Params, counts.Edges)
	return nil
}

// download fetches a catalog served over HTTP (the tool world's /catalog.json) into a
// temporary file, named with the URL's extension so that Native reads it as JSON or YAML.
func download(url string) (string, error) {
	client := &http.Client{Timeout: 30 * time.Second}
	resp, err := client.Get(url)
	if err != nil {
		return "", fmt.Errorf("catalog %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("catalog %s: HTTP %d", url, resp.StatusCode)
	}
	ext := path.Ext(strings.SplitN(url, "?", 2)[0])
	if ext != ".yaml" && ext != ".yml" {
		ext = ".json"
	}
	f, err := os.CreateTemp("", "navi-catalog-*"+ext)
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(f, io.LimitReader(resp.Body, 64<<20)); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", fmt.Errorf("catalog %s: %w", url, err)
	}
	return f.Name(), f.Close()
}
