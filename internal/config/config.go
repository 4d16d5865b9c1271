// Package config holds the settings shared by the Navi worker and the navi command line:
// where Temporal and Neo4j are and how to reach them. Every setting has an environment
// variable and a flag; flags win. Secrets come from the environment only, so they never show
// in a process list.
package config

import (
	"context"
	"flag"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/naviagent/navi/neo4j"
)

// Defaults match the local stack that `make up` starts.
const (
	DefaultTemporalAddress = "localhost:7233"
	DefaultNamespace       = "default"
	DefaultTaskQueue       = "navi"
	DefaultUIURL           = "http://localhost:8233"
	DefaultNeo4jURI        = "bolt://localhost:7687"
	DefaultNeo4jUser       = "neo4j"
	// DefaultNeo4jPassword is the password of the local development Neo4j only. Production
	// deployments set NAVI_NEO4J_PASSWORD.
	DefaultNeo4jPassword = "navi-dev-password"
)

// Config locates Temporal and Neo4j.
type Config struct {
	TemporalAddress string // host:port of the Temporal frontend
	Namespace       string // Temporal namespace
	TaskQueue       string // task queue of Navi's workflows and activities
	UIURL           string // base URL of the Temporal UI, for links
	Neo4jURI        string // bolt:// or neo4j:// URI
	Neo4jUser       string
	Neo4jPassword   string // from NAVI_NEO4J_PASSWORD only; never logged

	// Limits on what enters a run's history, in bytes; 0 takes the default of the package
	// that applies it (workflows.Limits for the query and answers, toolcall.Client for tool
	// outputs kept in full; a larger output goes to the output store).
	MaxQueryBytes      int // NAVI_MAX_QUERY_BYTES
	MaxAnswerBytes     int // NAVI_MAX_ANSWER_BYTES
	MaxToolOutputBytes int // NAVI_MAX_TOOL_OUTPUT_BYTES

	badInt error // the first NAVI_MAX_* that is not a number, for Validate
}

// FromEnv reads the NAVI_* environment variables, with defaults for the local stack.
func FromEnv() Config {
	c := Config{
		TemporalAddress: Getenv("NAVI_TEMPORAL_ADDRESS", DefaultTemporalAddress),
		Namespace:       Getenv("NAVI_TEMPORAL_NAMESPACE", DefaultNamespace),
		TaskQueue:       Getenv("NAVI_TASK_QUEUE", DefaultTaskQueue),
		UIURL:           Getenv("NAVI_TEMPORAL_UI", DefaultUIURL),
		Neo4jURI:        Getenv("NAVI_NEO4J_URI", DefaultNeo4jURI),
		Neo4jUser:       Getenv("NAVI_NEO4J_USER", DefaultNeo4jUser),
		Neo4jPassword:   Getenv("NAVI_NEO4J_PASSWORD", DefaultNeo4jPassword),
	}
	for _, f := range []struct {
		env string
		v   *int
	}{{"NAVI_MAX_QUERY_BYTES", &c.MaxQueryBytes}, {"NAVI_MAX_ANSWER_BYTES", &c.MaxAnswerBytes},
		{"NAVI_MAX_TOOL_OUTPUT_BYTES", &c.MaxToolOutputBytes}} {
		if v := Getenv(f.env, ""); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil && c.badInt == nil {
				c.badInt = fmt.Errorf("%s %q: want a number of bytes", f.env, v)
			}
			*f.v = n
		}
	}
	return c
}

// RegisterFlags binds flags to c, using c's current values as defaults, so that a caller
// does FromEnv, then RegisterFlags, then Parse.
func (c *Config) RegisterFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.TemporalAddress, "temporal-address", c.TemporalAddress, "Temporal frontend host:port (NAVI_TEMPORAL_ADDRESS)")
	fs.StringVar(&c.Namespace, "namespace", c.Namespace, "Temporal namespace (NAVI_TEMPORAL_NAMESPACE)")
	fs.StringVar(&c.TaskQueue, "task-queue", c.TaskQueue, "task queue (NAVI_TASK_QUEUE)")
	fs.StringVar(&c.UIURL, "ui", c.UIURL, "Temporal UI base URL, for links (NAVI_TEMPORAL_UI)")
	fs.StringVar(&c.Neo4jURI, "neo4j-uri", c.Neo4jURI, "Neo4j Bolt URI (NAVI_NEO4J_URI)")
	fs.StringVar(&c.Neo4jUser, "neo4j-user", c.Neo4jUser, "Neo4j user (NAVI_NEO4J_USER; password from NAVI_NEO4J_PASSWORD)")
	fs.IntVar(&c.MaxQueryBytes, "max-query-bytes", c.MaxQueryBytes, "largest query a run takes, in bytes; 0: the default (NAVI_MAX_QUERY_BYTES)")
	fs.IntVar(&c.MaxAnswerBytes, "max-answer-bytes", c.MaxAnswerBytes, "largest answer to a question, in bytes; 0: the default (NAVI_MAX_ANSWER_BYTES)")
	fs.IntVar(&c.MaxToolOutputBytes, "max-tool-output-bytes", c.MaxToolOutputBytes, "largest tool output kept in a history, in bytes; larger ones go to the output store; 0: the default (NAVI_MAX_TOOL_OUTPUT_BYTES)")
}

// Validate reports the first setting that cannot work, naming its variable.
func (c Config) Validate() error {
	if c.badInt != nil {
		return c.badInt
	}
	for _, f := range []struct {
		env string
		v   int
	}{{"NAVI_MAX_QUERY_BYTES", c.MaxQueryBytes}, {"NAVI_MAX_ANSWER_BYTES", c.MaxAnswerBytes}, {"NAVI_MAX_TOOL_OUTPUT_BYTES", c.MaxToolOutputBytes}} {
		if f.v < 0 {
			return fmt.Errorf("%s %d: want a positive number of bytes, or 0 for the default", f.env, f.v)
		}
	}
	if c.TemporalAddress == "" || !strings.Contains(c.TemporalAddress, ":") {
		return fmt.Errorf("NAVI_TEMPORAL_ADDRESS %q: want host:port", c.TemporalAddress)
	}
	if c.Namespace == "" {
		return fmt.Errorf("NAVI_TEMPORAL_NAMESPACE is empty")
	}
	if c.TaskQueue == "" {
		return fmt.Errorf("NAVI_TASK_QUEUE is empty")
	}
	u, err := url.Parse(c.Neo4jURI)
	if err != nil || u.Host == "" {
		return fmt.Errorf("NAVI_NEO4J_URI %q: want a URI such as bolt://localhost:7687", c.Neo4jURI)
	}
	switch u.Scheme {
	case "bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc":
	default:
		return fmt.Errorf("NAVI_NEO4J_URI %q: scheme %q is not a Bolt scheme (bolt://, neo4j://, or their +s/+ssc forms)", c.Neo4jURI, u.Scheme)
	}
	return nil
}

// RunURL is the Temporal UI page of one workflow execution.
func (c Config) RunURL(workflowID string) string {
	return fmt.Sprintf("%s/namespaces/%s/workflows/%s", strings.TrimRight(c.UIURL, "/"),
		url.PathEscape(c.Namespace), url.PathEscape(workflowID))
}

// Getenv returns the value of the environment variable name, or def when it is unset or empty.
func Getenv(name, def string) string {
	if v, ok := os.LookupEnv(name); ok && v != "" {
		return v
	}
	return def
}

// DialTemporal validates c and connects to Temporal, with an error that says what to check.
func (c Config) DialTemporal(ctx context.Context, logger sdklog.Logger) (client.Client, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	cl, err := client.DialContext(ctx, client.Options{HostPort: c.TemporalAddress, Namespace: c.Namespace, Logger: logger})
	if err != nil {
		return nil, fmt.Errorf("cannot reach Temporal at %s: %w (is the stack up? `make up`; is NAVI_TEMPORAL_ADDRESS right?)", c.TemporalAddress, err)
	}
	return cl, nil
}

// OpenGraph validates c, connects to Neo4j and applies the graph schema.
func (c Config) OpenGraph(ctx context.Context) (*neo4j.Store, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return neo4j.OpenWithSchema(ctx, neo4j.Options{URI: c.Neo4jURI, User: c.Neo4jUser, Password: c.Neo4jPassword})
}
