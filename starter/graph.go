package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/naviagent/navi/internal/config"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/twnm/embed"
)

// graphUsage is what `navi graph reembed -h` prints before the flags.
const graphUsage = `usage: navi graph reembed [flags]

Moves the graph in Neo4j (NAVI_NEO4J_URI, NAVI_NEO4J_USER, NAVI_NEO4J_PASSWORD) to another
embedder in place: every API's vector is computed again from its catalog entry (and its
full-text document, as this version writes it), and every past sub-goal's from its text, in
transactions of %d; the vector indexes are rebuilt when the
dimension changes, and the graph then records the new embedder. It keeps
every learned statistic: call counts and sliding windows, statuses, behavioural edges,
weights and predictions.

This is the way out when a worker refuses the graph with "schema mismatch" after
NAVI_EMBEDDER changed, and the way to bring a graph an older version imported up to this
version's documents (run it with the same embedder). Vector retrieval is degraded while it runs: stop the workers first,
then start them with the new NAVI_EMBEDDER. Running it again after a failure is safe.
Progress goes to stderr.

flags:
`

// graphCmd runs `navi graph reembed`.
func graphCmd(args []string, s streams) error {
	if len(args) == 0 || args[0] != "reembed" {
		return fmt.Errorf("%w: navi graph reembed [-embedder minilm|hashed]", errUsage)
	}
	// Only the Neo4j settings: the command does not talk to Temporal.
	c := &command{name: "navi graph reembed", cfg: config.FromEnv(), fs: flag.NewFlagSet("navi graph reembed", flag.ContinueOnError)}
	c.fs.StringVar(&c.cfg.Neo4jURI, "neo4j-uri", c.cfg.Neo4jURI, "Neo4j Bolt URI (NAVI_NEO4J_URI)")
	c.fs.StringVar(&c.cfg.Neo4jUser, "neo4j-user", c.cfg.Neo4jUser, "Neo4j user (NAVI_NEO4J_USER; password from NAVI_NEO4J_PASSWORD)")
	c.fs.SetOutput(s.err)
	c.fs.Usage = func() {
		fmt.Fprintf(c.fs.Output(), graphUsage, neo4j.ReembedBatch)
		c.fs.PrintDefaults()
	}
	def := os.Getenv(embed.EnvEmbedder)
	if def == "" {
		def = embed.NameMiniLM
	}
	name := c.fs.String("embedder", def,
		"the embedder to move the graph to: "+embed.NameMiniLM+" (all-MiniLM-L6-v2, 384 dimensions) or "+embed.NameHashed+
			"; the default is $"+embed.EnvEmbedder+" when set")
	every := c.fs.Int("every", 1000, "print the progress every N vectors (after the batch that reaches them)")
	timeout := c.fs.Duration("timeout", time.Hour, "give up after this long")
	if _, err := c.parse(args[1:], 0, 0, "no arguments"); err != nil {
		return err
	}
	if *every <= 0 {
		return fmt.Errorf("%w: -every %d: want at least 1", errUsage, *every)
	}
	emb, err := embed.Open(*name)
	if err != nil {
		return fmt.Errorf("%w: -embedder: %v", errUsage, err)
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
	fmt.Fprintf(s.err, "reembedding the graph at %s with %s (%d dimensions)\n", c.cfg.Neo4jURI, emb.Name(), emb.Dim())
	printed := 0
	st, err := store.Reembed(ctx, emb, func(done, total int) {
		if done/(*every) > printed/(*every) || done == total {
			fmt.Fprintf(s.err, "reembedded %d of %d vectors\n", done, total)
			printed = done
		}
	})
	if err != nil {
		return fmt.Errorf("navi graph reembed: %w", err)
	}
	how := "the vector indexes kept"
	if st.Recreated {
		how = "the vector indexes rebuilt"
	}
	fmt.Fprintf(s.out, "graph moved to %s (%d dimensions): %d APIs and %d past sub-goals reembedded, %s, every statistic kept\n",
		emb.Name(), st.Dim, st.APIs, st.Goals, how)
	if st.Dropped > 0 {
		fmt.Fprintf(s.out, "%d past sub-goals kept without their text (payloads encrypted) were forgotten: their vectors cannot be rebuilt\n", st.Dropped)
	}
	if st.Changed > 0 {
		fmt.Fprintf(s.out, "%d APIs were imported again meanwhile and keep the vector their import wrote: run navi graph reembed again if that import used another embedder\n", st.Changed)
	}
	return nil
}
