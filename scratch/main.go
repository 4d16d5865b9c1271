package main

import (
	"context"
	"fmt"
	"os"

	"github.com/naviagent/navi/twnm/chaineval"
)

func main() {
	d := "../shared/data"
	a, err := chaineval.APIBankSet(d)
	if err != nil {
		panic(err)
	}
	r, err := chaineval.RestBenchSet(d)
	if err != nil {
		panic(err)
	}
	t, err := chaineval.ToolWorldSet(300, 1)
	if err != nil {
		panic(err)
	}
	rep, err := chaineval.Run(context.Background(), []chaineval.Set{a, r, t}, chaineval.Methods(), nil)
	if err != nil {
		panic(err)
	}
	rep.WriteMarkdown(os.Stdout)
	if len(os.Args) > 1 {
		for _, x := range rep.Results {
			if x.Method == os.Args[1] {
				for _, res := range x.All.Results {
					if !res.Exact {
						fmt.Println(x.Set, res.Chain, res.Found, res.FoundLinks)
					}
				}
			}
		}
	}
}

func init() {
	if os.Getenv("FLOWS") != "" {
		a, _ := chaineval.APIBankSet("../shared/data")
		seen := map[chaineval.Flow]bool{}
		for _, c := range a.Chains {
			for _, f := range c.Flows() {
				if !seen[f] {
					seen[f] = true
					fmt.Println(f)
				}
			}
		}
		os.Exit(0)
	}
}
