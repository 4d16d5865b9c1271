package toolcall_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/toolcall"
	"github.com/naviagent/navi/toolspec"
)

// secrets is a fixed secret source.
type secrets map[string]string

func (s secrets) Secret(name string) (string, error) {
	if v, ok := s[name]; ok {
		return v, nil
	}
	return "", toolcall.ErrNoSecret
}

const canary = "canary-Zx9 q&k" // a space and an ampersand, so the query encoding differs

// The credential goes on the request the way the catalog says, and nowhere else: not in the
// result, not in an error, even when the tool echoes it back or the transport fails.
func TestCallSendsTheSecretAndNothingElse(t *testing.T) {
	echo := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		// The credential comes back as values, and as keys (a tool that echoes its request
		// headers as an object).
		_ = json.NewEncoder(w).Encode(map[string]any{"auth": r.Header.Get("Authorization"), "key": r.URL.Query().Get("api_key"),
			"x": r.Header.Get("X-Api-Key"), "nested": []any{map[string]any{"k": r.URL.RawQuery}},
			"seen": map[string]any{r.Header.Get("Authorization") + r.Header.Get("X-Api-Key") + r.URL.Query().Get("api_key"): true}})
	}
	tests := []struct {
		auth  toolspec.Auth
		check func(t *testing.T, s seen)
	}{
		{toolspec.Auth{Scheme: toolspec.AuthBearer, Secret: "svc"}, func(t *testing.T, s seen) {
			assert.Equal(t, "Bearer "+canary, s.Header.Get("Authorization"))
		}},
		{toolspec.Auth{Scheme: toolspec.AuthHeader, Name: "X-Api-Key", Secret: "svc"}, func(t *testing.T, s seen) {
			assert.Equal(t, canary, s.Header.Get("X-Api-Key"))
		}},
		{toolspec.Auth{Scheme: toolspec.AuthQuery, Name: "api_key", Secret: "svc"}, func(t *testing.T, s seen) {
			assert.Equal(t, []string{canary}, s.Query["api_key"])
		}},
		{toolspec.Auth{Scheme: toolspec.AuthBasic, Secret: "svc"}, func(t *testing.T, s seen) {
			assert.Equal(t, "Basic "+base64.StdEncoding.EncodeToString([]byte(canary)), s.Header.Get("Authorization"))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.auth.Scheme, func(t *testing.T) {
			rec := newRecorder(t, echo)
			api := simpleAPI(rec.URL)
			au := tt.auth
			api.Auth = &au
			c := &toolcall.Client{Secrets: secrets{"svc": canary}}
			res, err := c.Call(context.Background(), api, map[string]string{"city": "x"}, toolcall.CallOptions{})
			require.NoError(t, err)
			tt.check(t, rec.last(t))
			out, _ := json.Marshal(res)
			assert.NotContains(t, string(out), "canary", "the echoed secret is redacted from the result")

			// A tool that answers 401 with the key in its body, and a transport failure
			// whose error names the URL (and so a query key).
			rec.Close()
			_, err = c.Call(context.Background(), api, map[string]string{"city": "x"}, toolcall.CallOptions{})
			require.Error(t, err)
			assert.NotContains(t, err.Error(), "canary")
			assert.NotContains(t, err.Error(), "Zx9")
		})
	}
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte("bad key " + r.URL.Query().Get("api_key")))
	})
	api := simpleAPI(rec.URL)
	api.Auth = &toolspec.Auth{Scheme: toolspec.AuthQuery, Name: "api_key", Secret: "svc"}
	_, err := (&toolcall.Client{Secrets: secrets{"svc": canary}}).Call(context.Background(), api, map[string]string{"city": "x"}, toolcall.CallOptions{})
	require.ErrorIs(t, err, toolcall.ErrUnauthorized)
	assert.Contains(t, err.Error(), "bad key [redacted]")
}

func TestCallWithoutTheSecret(t *testing.T) {
	rec := newRecorder(t, answerWith(200, `{}`))
	api := simpleAPI(rec.URL)
	api.Auth = &toolspec.Auth{Scheme: toolspec.AuthBearer, Secret: "weather-key"}
	_, err := (&toolcall.Client{}).Call(context.Background(), api, map[string]string{"city": "x"}, toolcall.CallOptions{})
	require.ErrorIs(t, err, toolcall.ErrNotCallable)
	assert.ErrorContains(t, err, "needs secret weather-key and the worker has no secret source")
	t.Setenv("NAVI_SECRET_WEATHER_KEY", "")
	_, err = (&toolcall.Client{Secrets: toolcall.EnvSecrets{}}).Call(context.Background(), api, map[string]string{"city": "x"}, toolcall.CallOptions{})
	require.ErrorIs(t, err, toolcall.ErrNotCallable)
	assert.ErrorContains(t, err, "secret weather-key: secret not set (set NAVI_SECRET_WEATHER_KEY)")
	assert.Empty(t, rec.requests(), "nothing was sent without the credential")
}

func TestEnvSecrets(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "svc"), []byte("from-file\n"), 0o600))
	s := toolcall.EnvSecrets{Dir: dir}
	v, err := s.Secret("svc")
	require.NoError(t, err)
	assert.Equal(t, "from-file", v)
	t.Setenv("NAVI_SECRET_SVC", "from-env")
	v, err = s.Secret("svc")
	require.NoError(t, err)
	assert.Equal(t, "from-env", v, "the environment wins")
	_, err = s.Secret("../etc/passwd")
	assert.ErrorIs(t, err, toolcall.ErrNoSecret, "no path outside the folder")
	assert.Equal(t, "NAVI_SECRET_OPENWEATHER_API_KEY", toolcall.SecretEnv("openweather.api-key"))
}
