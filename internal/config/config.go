// Package config holds the settings shared by the Navi worker and the navi command line:
// where Temporal and Neo4j are and how to reach them. Every setting has an environment
// variable and a flag; flags win. Secrets come from the environment only, so they never show
// in a process list.
package config

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/naviagent/navi/codec"
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
	TemporalAddress string // host:port of the Temporal frontend, or several, comma-separated
	Namespace       string // Temporal namespace
	TaskQueue       string // task queue of Navi's workflows and activities
	UIURL           string // base URL of the Temporal UI, for links
	Neo4jURI        string // bolt:// or neo4j:// URI
	Neo4jUser       string
	Neo4jPassword   string // from NAVI_NEO4J_PASSWORD only; never logged

	// TLS to Temporal (Temporal Cloud, or a cluster that requires it): TemporalTLS turns it
	// on with the system's roots; a CA file replaces them, a certificate and key (mTLS) are
	// presented to the server, ServerName overrides the name checked. An API key (Temporal
	// Cloud) implies TLS; it comes from NAVI_TEMPORAL_API_KEY only and is never logged.
	TemporalTLS           bool
	TemporalTLSCA         string
	TemporalTLSCert       string
	TemporalTLSKey        string
	TemporalTLSServerName string
	TemporalAPIKey        string

	// Limits on what enters a run's history, in bytes; 0 takes the default of the package
	// that applies it (workflows.Limits for the query and answers, toolcall.Client for tool
	// outputs kept in full; a larger output goes to the output store).
	MaxQueryBytes      int // NAVI_MAX_QUERY_BYTES
	MaxAnswerBytes     int // NAVI_MAX_ANSWER_BYTES
	MaxToolOutputBytes int // NAVI_MAX_TOOL_OUTPUT_BYTES

	// Payload encryption (package codec): the keys, written "id=base64", come inline from
	// NAVI_CODEC_KEYS only (never logged) or from the file NAVI_CODEC_KEYS_FILE names;
	// CodecKeyID names the key that seals new payloads (default: the first). No keys: payloads
	// are written as they are.
	CodecKeys     string
	CodecKeysFile string
	CodecKeyID    string

	badEnv error // the first NAVI_MAX_* or NAVI_TEMPORAL_TLS that does not parse, for Validate
	// devPassword: NAVI_NEO4J_PASSWORD was unset and the development password stands in,
	// which Validate allows only for a Neo4j on this machine.
	devPassword bool
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

		TemporalTLSCA:         Getenv("NAVI_TEMPORAL_TLS_CA", ""),
		TemporalTLSCert:       Getenv("NAVI_TEMPORAL_TLS_CERT", ""),
		TemporalTLSKey:        Getenv("NAVI_TEMPORAL_TLS_KEY", ""),
		TemporalTLSServerName: Getenv("NAVI_TEMPORAL_TLS_SERVER_NAME", ""),
		TemporalAPIKey:        Getenv("NAVI_TEMPORAL_API_KEY", ""),

		CodecKeys:     Getenv("NAVI_CODEC_KEYS", ""),
		CodecKeysFile: Getenv("NAVI_CODEC_KEYS_FILE", ""),
		CodecKeyID:    Getenv("NAVI_CODEC_KEY_ID", ""),
	}
	c.devPassword = Getenv("NAVI_NEO4J_PASSWORD", "") == ""
	if v := Getenv("NAVI_TEMPORAL_TLS", ""); v != "" {
		on, err := strconv.ParseBool(v)
		if err != nil && c.badEnv == nil {
			c.badEnv = fmt.Errorf("NAVI_TEMPORAL_TLS %q: want true or false", v)
		}
		c.TemporalTLS = on
	}
	for _, f := range c.limits() {
		if v := Getenv(f.env, ""); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil && c.badEnv == nil {
				c.badEnv = fmt.Errorf("%s %q: want a number of bytes", f.env, v)
			}
			*f.v = n
		}
	}
	return c
}

// limit is one of the NAVI_MAX_* settings of a Config.
type limit struct {
	env string
	v   *int
}

// limits are c's NAVI_MAX_* settings.
func (c *Config) limits() []limit {
	return []limit{{"NAVI_MAX_QUERY_BYTES", &c.MaxQueryBytes}, {"NAVI_MAX_ANSWER_BYTES", &c.MaxAnswerBytes},
		{"NAVI_MAX_TOOL_OUTPUT_BYTES", &c.MaxToolOutputBytes}}
}

// RegisterFlags binds flags to c, using c's current values as defaults, so that a caller
// does FromEnv, then RegisterFlags, then Parse.
func (c *Config) RegisterFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.TemporalAddress, "temporal-address", c.TemporalAddress, "Temporal frontend host:port, or several comma-separated (NAVI_TEMPORAL_ADDRESS)")
	fs.StringVar(&c.Namespace, "namespace", c.Namespace, "Temporal namespace (NAVI_TEMPORAL_NAMESPACE)")
	fs.StringVar(&c.TaskQueue, "task-queue", c.TaskQueue, "task queue (NAVI_TASK_QUEUE)")
	fs.StringVar(&c.UIURL, "ui", c.UIURL, "Temporal UI base URL, for links (NAVI_TEMPORAL_UI)")
	fs.StringVar(&c.Neo4jURI, "neo4j-uri", c.Neo4jURI, "Neo4j Bolt URI (NAVI_NEO4J_URI)")
	fs.StringVar(&c.Neo4jUser, "neo4j-user", c.Neo4jUser, "Neo4j user (NAVI_NEO4J_USER; password from NAVI_NEO4J_PASSWORD)")
	fs.BoolVar(&c.TemporalTLS, "temporal-tls", c.TemporalTLS, "connect to Temporal over TLS with the system's roots (NAVI_TEMPORAL_TLS; on with an API key)")
	fs.StringVar(&c.TemporalTLSCA, "temporal-tls-ca", c.TemporalTLSCA, "PEM file of the CA that signs Temporal's certificate (NAVI_TEMPORAL_TLS_CA)")
	fs.StringVar(&c.TemporalTLSCert, "temporal-tls-cert", c.TemporalTLSCert, "PEM client certificate for mTLS (NAVI_TEMPORAL_TLS_CERT; with -temporal-tls-key)")
	fs.StringVar(&c.TemporalTLSKey, "temporal-tls-key", c.TemporalTLSKey, "PEM client key for mTLS (NAVI_TEMPORAL_TLS_KEY)")
	fs.StringVar(&c.TemporalTLSServerName, "temporal-tls-server-name", c.TemporalTLSServerName, "server name to check Temporal's certificate against (NAVI_TEMPORAL_TLS_SERVER_NAME; API key from NAVI_TEMPORAL_API_KEY)")
	fs.StringVar(&c.CodecKeysFile, "codec-keys-file", c.CodecKeysFile, "file of the payload encryption keys, one id=base64 per line (NAVI_CODEC_KEYS_FILE; inline keys from NAVI_CODEC_KEYS)")
	fs.StringVar(&c.CodecKeyID, "codec-key-id", c.CodecKeyID, "ID of the key that encrypts new payloads; default the first (NAVI_CODEC_KEY_ID)")
	fs.IntVar(&c.MaxQueryBytes, "max-query-bytes", c.MaxQueryBytes, "largest query a run takes, in bytes; 0: the default (NAVI_MAX_QUERY_BYTES)")
	fs.IntVar(&c.MaxAnswerBytes, "max-answer-bytes", c.MaxAnswerBytes, "largest answer to a question, in bytes; 0: the default (NAVI_MAX_ANSWER_BYTES)")
	fs.IntVar(&c.MaxToolOutputBytes, "max-tool-output-bytes", c.MaxToolOutputBytes, "largest tool output kept in a history, in bytes; larger ones go to the output store; 0: the default (NAVI_MAX_TOOL_OUTPUT_BYTES)")
}

// Validate reports the first setting that cannot work, naming its variable.
func (c Config) Validate() error {
	if c.badEnv != nil {
		return c.badEnv
	}
	for _, f := range c.limits() {
		if *f.v < 0 {
			return fmt.Errorf("%s %d: want a positive number of bytes, or 0 for the default", f.env, *f.v)
		}
	}
	if _, err := Frontends(c.TemporalAddress); err != nil {
		return fmt.Errorf("NAVI_TEMPORAL_ADDRESS %q: %w (or several, comma-separated)", c.TemporalAddress, err)
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
	if c.devPassword && !Loopback(u.Hostname()) {
		return fmt.Errorf("NAVI_NEO4J_PASSWORD is not set: the development password is only for a Neo4j on this machine, and NAVI_NEO4J_URI is %s", c.Neo4jURI)
	}
	if (c.TemporalTLSCert == "") != (c.TemporalTLSKey == "") {
		return fmt.Errorf("NAVI_TEMPORAL_TLS_CERT and NAVI_TEMPORAL_TLS_KEY go together: set both for mTLS, or neither")
	}
	return nil
}

// Loopback reports whether host names this machine only.
func Loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Codec is the payload codec of c's keys, or nil when none is configured. Errors name the
// setting, never a key.
func (c Config) Codec() (*codec.Codec, error) {
	spec, from := c.CodecKeys, "NAVI_CODEC_KEYS"
	if c.CodecKeysFile != "" {
		if spec != "" {
			return nil, errors.New("NAVI_CODEC_KEYS and NAVI_CODEC_KEYS_FILE are both set: keep the keys in one place")
		}
		b, err := os.ReadFile(c.CodecKeysFile)
		if err != nil {
			return nil, fmt.Errorf("NAVI_CODEC_KEYS_FILE: %w", err)
		}
		spec, from = string(b), "NAVI_CODEC_KEYS_FILE "+c.CodecKeysFile
	}
	if spec == "" {
		if c.CodecKeyID != "" {
			return nil, errors.New("NAVI_CODEC_KEY_ID is set but no key is: set NAVI_CODEC_KEYS or NAVI_CODEC_KEYS_FILE")
		}
		return nil, nil
	}
	keys, err := codec.ParseKeys(spec, c.CodecKeyID)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", from, err)
	}
	return codec.New(keys), nil
}

// ClientOptions are the Temporal client options of c: address, namespace, the payload codec,
// and TLS and API key when set. A certificate, CA or key file that cannot be read is an error
// naming it.
func (c Config) ClientOptions(logger sdklog.Logger) (client.Options, error) {
	o, err := WithFrontends(client.Options{Namespace: c.Namespace, Logger: logger}, c.TemporalAddress)
	if err != nil {
		return o, fmt.Errorf("NAVI_TEMPORAL_ADDRESS: %w", err)
	}
	cdc, err := c.Codec()
	if err != nil {
		return o, err
	}
	if cdc != nil {
		o.DataConverter, o.FailureConverter = cdc.DataConverter(), cdc.FailureConverter()
	}
	if !c.TemporalTLS && c.TemporalAPIKey == "" && c.TemporalTLSCA == "" && c.TemporalTLSCert == "" {
		return o, nil
	}
	t := &tls.Config{ServerName: c.TemporalTLSServerName, MinVersion: tls.VersionTLS12}
	if c.TemporalTLSCA != "" {
		pem, err := os.ReadFile(c.TemporalTLSCA)
		if err != nil {
			return o, fmt.Errorf("NAVI_TEMPORAL_TLS_CA: %w", err)
		}
		t.RootCAs = x509.NewCertPool()
		if !t.RootCAs.AppendCertsFromPEM(pem) {
			return o, fmt.Errorf("NAVI_TEMPORAL_TLS_CA %s: no PEM certificate in it", c.TemporalTLSCA)
		}
	}
	if c.TemporalTLSCert != "" {
		cert, err := tls.LoadX509KeyPair(c.TemporalTLSCert, c.TemporalTLSKey)
		if err != nil {
			return o, fmt.Errorf("NAVI_TEMPORAL_TLS_CERT/NAVI_TEMPORAL_TLS_KEY: %w", err)
		}
		t.Certificates = []tls.Certificate{cert}
	}
	o.ConnectionOptions.TLS = t
	if c.TemporalAPIKey != "" {
		o.Credentials = client.NewAPIKeyStaticCredentials(c.TemporalAPIKey)
	}
	return o, nil
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

// DialTemporal validates c and connects to Temporal, with an error that says what to check; the
// client carries plugins (Navi's worker gives it Navi's, navi.NewPlugin).
func (c Config) DialTemporal(ctx context.Context, logger sdklog.Logger, plugins ...client.Plugin) (client.Client, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	opts, err := c.ClientOptions(logger)
	if err != nil {
		return nil, err
	}
	opts.Plugins = plugins
	cl, err := client.DialContext(ctx, opts)
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
