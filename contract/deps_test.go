package contract_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The contract and the workflows link no graph store driver, LLM client or numeric library:
// a host application, the CLI and the bench import them without those.
func TestLightDependencies(t *testing.T) {
	for _, pkg := range []string{"github.com/naviagent/navi/contract", "github.com/naviagent/navi/workflows"} {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		require.NoError(t, err, "%s", out)
		deps := strings.Fields(string(out))
		require.Contains(t, deps, pkg)
		for _, d := range deps {
			for _, heavy := range []string{"github.com/neo4j/neo4j-go-driver", "github.com/sashabaranov/go-openai", "gonum.org/v1/gonum"} {
				assert.False(t, strings.HasPrefix(d, heavy), "%s links %s", pkg, d)
			}
		}
	}
}

// The plain types are leaves: toolspec and hgtspec link no other Navi package, the contract
// only them, and the tool client links toolspec alone, not the graph.
func TestCatalogTypesAreALeaf(t *testing.T) {
	for pkg, allowed := range map[string][]string{
		"github.com/naviagent/navi/toolspec": {"github.com/naviagent/navi/toolspec"},
		"github.com/naviagent/navi/toolcall": {"github.com/naviagent/navi/toolspec", "github.com/naviagent/navi/toolcall"},
		// The contract holds plain data: the catalog's and the model's types, and its own.
		"github.com/naviagent/navi/contract":         {"github.com/naviagent/navi/toolspec", "github.com/naviagent/navi/twnm/hgt/hgtspec", "github.com/naviagent/navi/contract"},
		"github.com/naviagent/navi/twnm/hgt/hgtspec": {"github.com/naviagent/navi/twnm/hgt/hgtspec"},
	} {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		require.NoError(t, err, "%s", out)
		var navi []string
		for _, d := range strings.Fields(string(out)) {
			if strings.HasPrefix(d, "github.com/naviagent/navi") {
				navi = append(navi, d)
			}
		}
		assert.ElementsMatch(t, allowed, navi, pkg)
	}
}

// A caller of the contract links no network code: not net/http, nor Temporal's SDK, which
// does.
func TestContractLinksNoNetwork(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/naviagent/navi/contract").CombinedOutput()
	require.NoError(t, err, "%s", out)
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "github.com/naviagent/navi/contract")
	assert.NotContains(t, deps, "net/http")
	for _, d := range deps {
		assert.False(t, strings.HasPrefix(d, "go.temporal.io/sdk"), "contract links %s", d)
	}
	assert.Less(t, len(deps), 100, "the contract's dependencies, the standard library's included")
}
