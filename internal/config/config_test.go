package config

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"flag"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/codec"
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
		{"dev password, local Neo4j", func(c *Config) { c.devPassword, c.Neo4jURI = true, "bolt://127.0.0.1:7687" }, ""},
		{"dev password, remote Neo4j", func(c *Config) { c.devPassword, c.Neo4jURI = true, "neo4j+s://x.databases.neo4j.io" },
			"NAVI_NEO4J_PASSWORD is not set: the development password is only for a Neo4j on this machine"},
		{"cert without key", func(c *Config) { c.TemporalTLSCert = "c.pem" }, "NAVI_TEMPORAL_TLS_CERT and NAVI_TEMPORAL_TLS_KEY go together"},
		{"negative limit", func(c *Config) { c.MaxQueryBytes = -1 }, "NAVI_MAX_QUERY_BYTES -1"},
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

func TestFromEnvLimitsAndTLS(t *testing.T) {
	t.Setenv("NAVI_NEO4J_PASSWORD", "")
	t.Setenv("NAVI_MAX_QUERY_BYTES", "abc")
	c := FromEnv()
	assert.True(t, c.devPassword)
	assert.ErrorContains(t, c.Validate(), `NAVI_MAX_QUERY_BYTES "abc": want a number of bytes`)

	t.Setenv("NAVI_MAX_QUERY_BYTES", "2048")
	t.Setenv("NAVI_TEMPORAL_TLS", "yes please")
	assert.ErrorContains(t, FromEnv().Validate(), `NAVI_TEMPORAL_TLS "yes please": want true or false`)
	t.Setenv("NAVI_TEMPORAL_TLS", "")
	t.Setenv("NAVI_TEMPORAL_API_KEY", "key-123")
	c = FromEnv()
	require.NoError(t, c.Validate())
	assert.Equal(t, 2048, c.MaxQueryBytes)
	o, err := c.ClientOptions(nil)
	require.NoError(t, err)
	require.NotNil(t, o.ConnectionOptions.TLS, "an API key implies TLS")
	assert.NotNil(t, o.Credentials)
}

func TestClientOptionsTLS(t *testing.T) {
	c := Config{TemporalAddress: "t.example:7233", Namespace: "ns"}
	o, err := c.ClientOptions(nil)
	require.NoError(t, err)
	assert.Nil(t, o.ConnectionOptions.TLS, "plain by default, as the local stack is")
	assert.Nil(t, o.Credentials)

	dir := t.TempDir()
	certPEM, keyPEM := selfSigned(t)
	cert, key, ca := filepath.Join(dir, "c.pem"), filepath.Join(dir, "k.pem"), filepath.Join(dir, "ca.pem")
	require.NoError(t, os.WriteFile(cert, certPEM, 0o600))
	require.NoError(t, os.WriteFile(key, keyPEM, 0o600))
	require.NoError(t, os.WriteFile(ca, certPEM, 0o600))
	c.TemporalTLSCA, c.TemporalTLSCert, c.TemporalTLSKey, c.TemporalTLSServerName = ca, cert, key, "temporal.internal"
	o, err = c.ClientOptions(nil)
	require.NoError(t, err)
	require.NotNil(t, o.ConnectionOptions.TLS)
	assert.Len(t, o.ConnectionOptions.TLS.Certificates, 1)
	assert.NotNil(t, o.ConnectionOptions.TLS.RootCAs)
	assert.Equal(t, "temporal.internal", o.ConnectionOptions.TLS.ServerName)

	c.TemporalTLSCA = filepath.Join(dir, "missing.pem")
	_, err = c.ClientOptions(nil)
	assert.ErrorContains(t, err, "NAVI_TEMPORAL_TLS_CA")
	c.TemporalTLSCA = key // a key is no certificate
	_, err = c.ClientOptions(nil)
	assert.ErrorContains(t, err, "no PEM certificate in it")
}

// selfSigned returns a PEM certificate and its PEM key.
func selfSigned(t *testing.T) (certPEM, keyPEM []byte) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "navi-test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	require.NoError(t, err)
	kder, err := x509.MarshalECPrivateKey(k)
	require.NoError(t, err)
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder})
}

func TestClientOptionsCodec(t *testing.T) {
	c := Config{TemporalAddress: "t.example:7233", Namespace: "ns"}
	o, err := c.ClientOptions(nil)
	require.NoError(t, err)
	assert.Nil(t, o.DataConverter, "payloads as they are by default")

	k1, err := codec.NewKey("k1")
	require.NoError(t, err)
	k2, err := codec.NewKey("k2")
	require.NoError(t, err)
	t.Setenv("NAVI_CODEC_KEYS", k1+","+k2)
	t.Setenv("NAVI_CODEC_KEY_ID", "k2")
	c = FromEnv()
	o, err = c.ClientOptions(nil)
	require.NoError(t, err)
	require.NotNil(t, o.DataConverter)
	require.NotNil(t, o.FailureConverter)
	p, err := o.DataConverter.ToPayload("plans")
	require.NoError(t, err)
	assert.Equal(t, "k2", string(p.Metadata[codec.MetadataKeyID]), "NAVI_CODEC_KEY_ID seals")

	file := filepath.Join(t.TempDir(), "keys")
	require.NoError(t, os.WriteFile(file, []byte("# keys\n"+k1+"\n"), 0o600))
	c.CodecKeysFile = file
	_, err = c.ClientOptions(nil)
	assert.ErrorContains(t, err, "both set")
	c.CodecKeys, c.CodecKeyID = "", ""
	cdc, err := c.Codec()
	require.NoError(t, err)
	require.NotNil(t, cdc)

	c.CodecKeysFile = filepath.Join(t.TempDir(), "missing")
	_, err = c.Codec()
	assert.ErrorContains(t, err, "NAVI_CODEC_KEYS_FILE")
	c.CodecKeysFile, c.CodecKeys = "", "k1=short"
	_, err = c.Codec()
	assert.ErrorContains(t, err, `NAVI_CODEC_KEYS: codec key "k1"`)
	c.CodecKeys, c.CodecKeyID = "", "k1"
	_, err = c.Codec()
	assert.ErrorContains(t, err, "NAVI_CODEC_KEY_ID is set but no key is")
}
