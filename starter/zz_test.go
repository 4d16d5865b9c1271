package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/naviagent/navi/research/retrievaleval"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/recall"
)

func TestZZRetrieve(t *testing.T) {
	ctx := context.Background()
	s, err := retrievaleval.ToolWorld(10, 1)
	if err != nil {
		t.Fatal(err)
	}
	graphs := &graphCache{byCatalog: map[string]*twnm.Graph{}}
	g, emb, err := graphs.get(ctx, s.Catalog)
	if err != nil {
		t.Fatal(err)
	}
	mem, _ := recall.NewMemory(g, recall.MemoryOptions{})
	for _, q := range strings.Split(os.Getenv("ZZQ"), "|") {
		r, err := recall.Retrieve(ctx, mem, emb, q, recall.Options{})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println("==", q)
		for _, gl := range r.Goals {
			fmt.Printf("  goal %q best %.3f relevant %v\n", gl.Text, gl.Best, gl.Relevant)
			for i, c := range gl.Candidates {
				if i > 2 { break }
				fmt.Printf("     %-22s s=%.3f lex=%.2f dense=%.3f\n", c.Name, c.Score, c.Lexical, c.Dense)
			}
		}
	}
}
