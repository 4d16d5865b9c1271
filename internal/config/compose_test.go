package config

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// TestComposeFile reads the reference deployment (docker-compose.yaml; no Docker engine runs
// here, so this is what can be checked): it parses, Temporal runs on PostgreSQL as the cluster
// make cluster runs, and payloads
// are encrypted with the UI decoding through the codec server.
func TestComposeFile(t *testing.T) {
	b, err := os.ReadFile("../../docker-compose.yaml")
	require.NoError(t, err)
	var f struct {
		Services map[string]struct {
			Image       string            `json:"image"`
			Command     []string          `json:"command"`
			Environment map[string]string `json:"environment"`
			Ports       []string          `json:"ports"`
			DependsOn   map[string]any    `json:"depends_on"`
			Deploy      struct {
				Replicas int `json:"replicas"`
			} `json:"deploy"`
		} `json:"services"`
		Env map[string]string `json:"x-navi-env"`
	}
	require.NoError(t, yaml.Unmarshal(b, &f), "docker-compose.yaml is not valid YAML")
	s := f.Services
	require.Contains(t, s, "postgresql")
	assert.Equal(t, "postgres12", s["temporal"].Environment["DB"], "Temporal on PostgreSQL")
	assert.Equal(t, "postgresql", s["temporal"].Environment["POSTGRES_SEEDS"])
	// make cluster's topology: two nodes on the one database, two workers given both frontends.
	assert.Equal(t, "postgres12", s["temporal-2"].Environment["DB"], "the second node on PostgreSQL")
	assert.Equal(t, "postgresql", s["temporal-2"].Environment["POSTGRES_SEEDS"], "on the same database")
	assert.Equal(t, 2, s["worker"].Deploy.Replicas)
	fe, err := Frontends(f.Env["NAVI_TEMPORAL_ADDRESS"])
	require.NoError(t, err)
	assert.Equal(t, []string{"temporal:7233", "temporal-2:7233"}, fe)
	for _, name := range []string{"worker", "navi", "codec"} {
		assert.Contains(t, s[name].Environment["NAVI_CODEC_KEYS"], "NAVI_CODEC_KEYS:?", "%s requires the keys", name)
	}
	assert.Contains(t, s["worker"].DependsOn, "temporal-setup", "the worker waits for the search attributes")
	for _, sa := range []string{"NaviStatus", "NaviPlanner", "NaviSteps", "NaviLLMCalls", "NaviToolsUsed", "NaviLLMSaved"} {
		assert.Contains(t, strings.Join(s["temporal-setup"].Command, " "), "--name "+sa)
	}
	require.Equal(t, []string{"127.0.0.1:8234:8234"}, s["codec"].Ports, "the codec server is this machine's only")
	assert.Equal(t, "http://localhost:8234", s["temporal-ui"].Environment["TEMPORAL_CODEC_ENDPOINT"])
	assert.Contains(t, s["codec"].Command, "codec-server")
}
