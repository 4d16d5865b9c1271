package twnm

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// syntheticCatalog generates n APIs in domains of about 50, each taking one to three of its
// domain's parameters and producing one to three others, so that APIs chain through shared
// parameters, with every fifth API a second provider of an earlier one's function.
func syntheticCatalog(n int, seed uint64) Catalog {
	r := rand.New(rand.NewPCG(seed, 0x6e617669))
	entities := []string{"city", "hotel", "team", "match", "listing", "station", "restaurant", "region", "player", "forecast"}
	attrs := []string{"id", "name", "code", "score", "price", "date", "latitude", "longitude", "rating", "count"}
	c := Catalog{Name: fmt.Sprintf("synthetic-%d", n)}
	param := func(domain int) Param {
		e, a := entities[r.IntN(len(entities))], attrs[r.IntN(len(attrs))]
		return Param{Name: fmt.Sprintf("d%d_%s_%s", domain, e, a), Type: "string", Description: fmt.Sprintf("The %s %s in domain %d", e, a, domain)}
	}
	for i := 0; i < n; i++ {
		d := i / 50
		a := API{Name: fmt.Sprintf("Api%05d", i), Provider: fmt.Sprintf("provider%d", i%7)}
		if i%5 == 4 && i > 0 {
			prev := c.APIs[i-1-r.IntN(min(i, 4))]
			a.Description, a.Inputs, a.Outputs = "Alternative: "+prev.Description, prev.Inputs, prev.Outputs
		} else {
			seen := map[string]bool{}
			for k := 0; k < 1+r.IntN(3); k++ {
				if p := param(d); !seen[p.Name] {
					seen[p.Name] = true
					p.Required = k == 0 || r.IntN(2) == 0
					a.Inputs = append(a.Inputs, p)
				}
			}
			for k := 0; k < 1+r.IntN(3); k++ {
				if p := param(d); !seen[p.Name] {
					seen[p.Name] = true
					a.Outputs = append(a.Outputs, p)
				}
			}
			a.Description = fmt.Sprintf("Returns %d values of domain %d from %d inputs", len(a.Outputs), d, len(a.Inputs))
		}
		c.APIs = append(c.APIs, a)
	}
	return c
}

func buildSynthetic(b *testing.B, n int) *Graph {
	b.Helper()
	g, err := Build(context.Background(), syntheticCatalog(n, 1), BuildOptions{Embedder: hashed(b)})
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// BenchmarkRecordRun is the cost of one feedback event: a three-call run with two data flows
// recorded into the graph (NaviAgent reports 55 ms per feedback event).
func BenchmarkRecordRun(b *testing.B) {
	for _, n := range []int{2500, 16000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			g := buildSynthetic(b, n)
			apis := g.APIs()
			// A chain whose second call consumes an output of the first.
			var from, to *Node
			var out, in string
			for _, id := range apis {
				a := g.Node(id).API
				for _, p := range a.Outputs {
					pid, _ := g.ParamOf(a.Name, p.Name, false)
					for _, e := range g.Out(pid) {
						if e.Kind == InputOf && e.To != id {
							from, to, out = g.Node(id), g.Node(e.To), p.Name
							for _, q := range to.API.Inputs {
								if qid, _ := g.ParamOf(to.Name, q.Name, true); qid == pid {
									in = q.Name
								}
							}
						}
					}
				}
				if from != nil {
					break
				}
			}
			now := time.Now()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				err := g.Record(
					[]Invocation{{API: from.Name, Success: true, Time: now}, {API: to.Name, Inputs: []string{in}, Success: i%3 != 0, Time: now}},
					[]Transition{
						{Kind: Then, From: from.Name, To: to.Name, Success: i%3 != 0, Time: now},
						{Kind: Feeds, From: from.Name, To: to.Name, FromParam: out, ToParam: in, Success: i%3 != 0, Time: now},
					})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkIntegrate is the cost of integrating one new tool into a built graph (NaviAgent:
// under 100 ms per new tool).
func BenchmarkIntegrate(b *testing.B) {
	for _, n := range []int{2500, 16000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			g := buildSynthetic(b, n)
			extra := syntheticCatalog(n+b.N, 1).APIs[n:]
			ctx := context.Background()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				a := extra[i]
				a.Name = fmt.Sprintf("New%06d", i)
				if err := g.Integrate(ctx, a); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBuild is the cost of building a graph from a catalog, clustering included.
func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{2500, 16000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			c := syntheticCatalog(n, 1)
			emb := hashed(b)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := Build(context.Background(), c, BuildOptions{Embedder: emb}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkRetrieve(b *testing.B) {
	for _, n := range []int{2500, 16000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			g := buildSynthetic(b, n)
			emb := hashed(b)
			ctx := context.Background()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := g.Retrieve(ctx, emb, "the hotel price and rating in domain 7", 3); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
