package activities_test

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/testsuite"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/twnm/embed"
)

func TestZZExplore(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip()
	}
	store := stacktest.Store(t)
	stacktest.LoadToolWorld(t, store)
	var in activities.RetrieveInput
	require.NoError(t, json.Unmarshal([]byte(os.Getenv("ZZIN")), &in))
	if in.Text == "" {
		in.Text = in.Description
	}
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	env.RegisterActivity(&activities.Activities{Store: store, Embedder: embed.Default()})
	v, err := env.ExecuteActivity("Retrieve", in)
	require.NoError(t, err)
	var res activities.RetrieveResult
	require.NoError(t, v.Get(&res))
	fmt.Println("=== ", in.Description, "subgraph", res.SubgraphAPIs)
	for _, c := range res.Candidates {
		b, _ := json.Marshal(c.Plan)
		fmt.Printf("  %s %.3f missing=%v plan=%s\n", c.API, c.Score, c.Plan.Missing(), b)
	}
	if os.Getenv("ZZREC") == "" {
		return
	}
	var rin activities.RecombineInput
	require.NoError(t, json.Unmarshal([]byte(os.Getenv("ZZREC")), &rin))
	for _, c := range res.Candidates {
		if c.API == os.Getenv("ZZCAND") {
			rin.Plan = c.Plan
		}
	}
	if rin.Known == nil {
		rin.Known = res.Extracted
	}
	for _, strat := range []string{"substitution", "upstream_reroute", "subgraph_switch"} {
		rin.Strategy = strat
		env := s.NewTestActivityEnvironment()
		env.RegisterActivity(&activities.Activities{Store: store, Embedder: embed.Default()})
		v, err := env.ExecuteActivity("Recombine", rin)
		if err != nil {
			fmt.Println(strat, "ERR", err)
			continue
		}
		var rr activities.RecombineResult
		require.NoError(t, v.Get(&rr))
		b, _ := json.Marshal(rr.Plan)
		fmt.Printf("%s found=%v reason=%q plan=%s\n", strat, rr.Found, rr.Reason, b)
	}
}
