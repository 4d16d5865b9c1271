package codec

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"google.golang.org/protobuf/encoding/protojson"
)

const uiOrigin = "http://localhost:8233"

func post(t *testing.T, url string, body []byte, header map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(string(body)))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { _ = res.Body.Close() })
	return res
}

func TestHandlerDecodesForTheUI(t *testing.T) {
	c := New(mustKeys(t, key("k1", 1), ""))
	srv := httptest.NewServer(Handler(c, ServerOptions{Origins: []string{uiOrigin}}))
	defer srv.Close()

	enc, err := c.Encode(payloads(t, "What is the air quality in Rome?"))
	require.NoError(t, err)
	body, err := protojson.Marshal(&commonpb.Payloads{Payloads: enc})
	require.NoError(t, err)

	// The UI's preflight, then its request, from its origin with the namespace header.
	req, err := http.NewRequest(http.MethodOptions, srv.URL+"/decode", nil)
	require.NoError(t, err)
	req.Header.Set("Origin", uiOrigin)
	req.Header.Set("Access-Control-Request-Method", "POST")
	pre, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_ = pre.Body.Close()
	assert.Equal(t, http.StatusNoContent, pre.StatusCode)
	assert.Equal(t, uiOrigin, pre.Header.Get("Access-Control-Allow-Origin"))
	assert.Contains(t, pre.Header.Get("Access-Control-Allow-Headers"), "X-Namespace")

	res := post(t, srv.URL+"/decode", body, map[string]string{"Origin": uiOrigin, "X-Namespace": "default"})
	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, uiOrigin, res.Header.Get("Access-Control-Allow-Origin"))
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	var out commonpb.Payloads
	require.NoError(t, protojson.Unmarshal(raw, &out))
	require.Len(t, out.Payloads, 1)
	var s string
	require.NoError(t, converter.GetDefaultDataConverter().FromPayload(out.Payloads[0], &s))
	assert.Equal(t, "What is the air quality in Rome?", s)

	// A namespace prefix works too (the CLI's --codec-endpoint 'http://host/{namespace}').
	assert.Equal(t, http.StatusOK, post(t, srv.URL+"/default/decode", body, nil).StatusCode)

	health, err := http.Get(srv.URL + "/healthz")
	require.NoError(t, err)
	_ = health.Body.Close()
	assert.Equal(t, http.StatusOK, health.StatusCode)
}

func TestHandlerRefuses(t *testing.T) {
	c := New(mustKeys(t, key("k1", 1), ""))
	enc, err := c.Encode(payloads(t, "x"))
	require.NoError(t, err)
	body, err := protojson.Marshal(&commonpb.Payloads{Payloads: enc})
	require.NoError(t, err)
	srv := httptest.NewServer(Handler(c, ServerOptions{Origins: []string{uiOrigin}, Token: "s3cret"}))
	defer srv.Close()

	tests := []struct {
		name   string
		path   string
		body   []byte
		header map[string]string
		want   int
	}{
		{"no token", "/decode", body, nil, http.StatusUnauthorized},
		{"wrong token", "/decode", body, map[string]string{"Authorization": "Bearer nope"}, http.StatusUnauthorized},
		{"token", "/decode", body, map[string]string{"Authorization": "Bearer s3cret"}, http.StatusOK},
		{"other origin", "/decode", body, map[string]string{"Authorization": "Bearer s3cret", "Origin": "http://evil.example"}, http.StatusForbidden},
		{"not JSON", "/decode", []byte("{"), map[string]string{"Authorization": "Bearer s3cret"}, http.StatusBadRequest},
		{"unknown path", "/decrypt", body, map[string]string{"Authorization": "Bearer s3cret"}, http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, post(t, srv.URL+tt.path, tt.body, tt.header).StatusCode)
		})
	}
}
