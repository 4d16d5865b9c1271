// Package synth generates synthetic tool catalogs for scale benchmarks: thousands of APIs that
// chain through shared parameters, with clusters of equivalent providers. Generation is
// deterministic for a seed.
package synth

import (
	"fmt"
	"math/rand/v2"

	"github.com/naviagent/navi/twnm"
)

// Catalog generates n APIs in domains of about 50, each taking one to three of its
// domain's parameters and producing one to three others, so that APIs chain through shared
// parameters, with every fifth API a second provider of an earlier one's function.
func Catalog(n int, seed uint64) twnm.Catalog {
	r := rand.New(rand.NewPCG(seed, 0x6e617669))
	entities := []string{"city", "hotel", "team", "match", "listing", "station", "restaurant", "region", "player", "forecast"}
	attrs := []string{"id", "name", "code", "score", "price", "date", "latitude", "longitude", "rating", "count"}
	c := twnm.Catalog{Name: fmt.Sprintf("synthetic-%d", n)}
	param := func(domain int) twnm.Param {
		e, a := entities[r.IntN(len(entities))], attrs[r.IntN(len(attrs))]
		return twnm.Param{Name: fmt.Sprintf("d%d_%s_%s", domain, e, a), Type: "string", Description: fmt.Sprintf("The %s %s in domain %d", e, a, domain)}
	}
	for i := 0; i < n; i++ {
		d := i / 50
		a := twnm.API{Name: fmt.Sprintf("Api%05d", i), Provider: fmt.Sprintf("provider%d", i%7)}
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
