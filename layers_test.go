package navi_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// layers places every package of the module in the layers of docs/ARCHITECTURE.md, lowest
// first. A package imports packages of its own layer or below; the packages beside the layers
// (evaluation, the tool world, test stand-ins, the stack's settings) only the entry points and
// each other import.
var layers = []struct {
	name     string
	packages []string
}{
	{"plain types", []string{"toolspec", "contract", "twnm/hgt/hgtspec"}},
	{"graph", []string{"twnm", "twnm/bm25", "twnm/embed", "twnm/embed/kernel", "twnm/subgoal", "twnm/invlog", "twnm/hgt/ad", "twnm/lexicon",
		"twnm/recall", "twnm/extract", "twnm/catalogs", "twnm/hgt", "twnm/hgt/hgtdata"}},
	{"drivers", []string{"neo4j", "mcptool", "toolcall", "codec"}},
	{"planning", []string{"planner", "planner/llm", "retrieval"}},
	{"activities", []string{"activities"}},
	{"workflows", []string{"workflows"}},
	{"entry points", []string{"", "worker", "starter"}},
}

// beside are the packages outside the layers.
var beside = []string{"research/agenteval", "research/chaineval", "research/lexicon", "research/retrievaleval",
	"research/runlogs", "research/synth", "research/valueeval", "bench", "toolworld", "toolworld/cmd/navi-toolworld",
	"planner/llm/llmsim", "planner/llm/llmtest", "internal/config", "internal/devstack", "internal/stacktest", "internal/clustertest",
	"twnm/hgt/internal/hgttest"}

// No import runs from a lower layer to a higher one, nor from a layer to a package beside
// them; and every package has its place, so that a new one is placed on purpose.
func TestLayerOrder(t *testing.T) {
	const module = "github.com/naviagent/navi"
	level := map[string]int{}
	for i, l := range layers {
		for _, p := range l.packages {
			level[p] = i
		}
	}
	entry := len(layers) - 1
	for _, p := range beside {
		level[p] = entry + 1
	}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}:{{join .Imports " "}}`, "./...").CombinedOutput()
	require.NoError(t, err, "%s", out)
	rel := func(path string) (string, bool) {
		if path == module {
			return "", true
		}
		return strings.CutPrefix(path, module+"/")
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, imports, _ := strings.Cut(line, ":")
		pkg, _ := rel(path)
		from, ok := level[pkg]
		if !assert.True(t, ok, "package %q has no place in the layers (layers_test.go, docs/ARCHITECTURE.md)", pkg) {
			continue
		}
		seen++
		for _, imp := range strings.Fields(imports) {
			dep, ours := rel(imp)
			if !ours {
				continue
			}
			to := level[dep]
			switch {
			case from <= entry && to == entry+1 && from != entry:
				assert.Fail(t, "import of a package beside the layers", "%s (%s) imports %s", pkg, layers[from].name, dep)
			case from <= entry && to <= entry && to > from:
				assert.Fail(t, "import upwards", "%s (%s) imports %s (%s)", pkg, layers[from].name, dep, layers[to].name)
			}
		}
	}
	assert.Equal(t, len(level), seen, "every package placed is in the module")
}
