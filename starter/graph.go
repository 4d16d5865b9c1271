package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/twnm/embed"
)

// graphCmd runs `navi graph reembed`.
func graphCmd(args []string, s streams) error {
	if len(args) == 0 || args[0] != "reembed" {
		return fmt.Errorf("%w: navi graph reembed [-embedder minilm|hashed]", errUsage)
	}
	c := newCommand("graph reembed")
	name := c.fs.String("embedder", os.Getenv(embed.EnvEmbedder),
		"the embedder to move the graph to: minilm (all-MiniLM-L6-v2, the default) or hashed ("+embed.EnvEmbedder+")")
	timeout := c.fs.Duration("timeout", time.Hour, "give up after this long")
	if _, err := c.parse(args[1:], 0, 0, "no arguments"); err != nil {
		return err
	}
	emb, err := embed.Open(*name)
	if err != nil {
		return err
	}
	if err := c.cfg.Validate(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	// Not OpenGraph: its schema check refuses a graph of another embedder, which is what this
	// command is for.
	store, err := neo4j.Open(ctx, neo4j.Options{URI: c.cfg.Neo4jURI, User: c.cfg.Neo4jUser, Password: c.cfg.Neo4jPassword})
	if err != nil {
		return err
	}
	defer store.Close(context.Background())
	last := time.Now()
	st, err := store.Reembed(ctx, emb, func(done, total int) {
		if time.Since(last) > 5*time.Second || done == total {
			fmt.Fprintf(s.err, "reembedded %d of %d vectors\n", done, total)
			last = time.Now()
		}
	})
	if err != nil {
		return err
	}
	how := "the vector indexes kept"
	if st.Recreated {
		how = "the vector indexes rebuilt"
	}
	fmt.Fprintf(s.out, "graph moved to %s (%d dimensions): %d APIs and %d past sub-goals reembedded, %s, every statistic kept\n",
		emb.Name(), st.Dim, st.APIs, st.Goals, how)
	return nil
}
