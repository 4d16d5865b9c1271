package config

import (
	"flag"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFromEnvAndFlags(t *testing.T) {
	t.Setenv("NAVI_TEMPORAL_ADDRESS", "temporal.example:7233")
	t.Setenv("NAVI_NEO4J_PASSWORD", "s3cret-value")
	t.Setenv("NAVI_TASK_QUEUE", "")

	c := FromEnv()
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	c.RegisterFlags(fs)
	require.NoError(t, fs.Parse([]string{"-namespace", "prod"}))

	assert.Equal(t, "temporal.example:7233", c.TemporalAddress, "environment sets the default")
	assert.Equal(t, "prod", c.Namespace, "a flag overrides")
	assert.Equal(t, DefaultTaskQueue, c.TaskQueue, "an empty variable falls back to the default")
	assert.Equal(t, "s3cret-value", c.Neo4jPassword)
	assert.Nil(t, fs.Lookup("neo4j-password"), "no flag may carry the password")
	require.NoError(t, c.Validate())
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(*Config)
		wantErr string
	}{
		{"defaults", func(*Config) {}, ""},
		{"no port", func(c *Config) { c.TemporalAddress = "localhost" }, "NAVI_TEMPORAL_ADDRESS"},
		{"http uri", func(c *Config) { c.Neo4jURI = "http://localhost:7474" }, `scheme "http"`},
		{"garbage uri", func(c *Config) { c.Neo4jURI = "localhost" }, "NAVI_NEO4J_URI"},
		{"neo4j+s", func(c *Config) { c.Neo4jURI = "neo4j+s://x.databases.neo4j.io" }, ""},
		{"empty queue", func(c *Config) { c.TaskQueue = "" }, "NAVI_TASK_QUEUE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Config{TemporalAddress: DefaultTemporalAddress, Namespace: DefaultNamespace,
				TaskQueue: DefaultTaskQueue, Neo4jURI: DefaultNeo4jURI}
			tt.mutate(&c)
			err := c.Validate()
			if tt.wantErr == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
}

func TestRunURL(t *testing.T) {
	c := Config{UIURL: "http://localhost:8233/", Namespace: "default"}
	assert.Equal(t, "http://localhost:8233/namespaces/default/workflows/navi-q%2F1", c.RunURL("navi-q/1"))
}
