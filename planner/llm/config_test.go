package llm_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/planner/llm"
)

func TestConfigFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    llm.Config
		enabled bool
		wantErr string
	}{
		{name: "nothing set", want: llm.Config{}},
		{
			name: "everything set",
			env: map[string]string{
				"NAVI_LLM_BASE_URL": " http://localhost:11434/v1 ", "NAVI_LLM_MODEL": "qwen2.5",
				"NAVI_LLM_API_KEY": "k-123", "NAVI_LLM_JSON_MODE": "false", "NAVI_LLM_MAX_TOKENS": "2048", "NAVI_LLM_TIMEOUT": "3m",
			},
			want:    llm.Config{BaseURL: "http://localhost:11434/v1", Model: "qwen2.5", APIKey: "k-123", Format: llm.FormatNone, MaxTokens: 2048, Timeout: 3 * time.Minute},
			enabled: true,
		},
		{
			name:    "json mode on, model missing",
			env:     map[string]string{"NAVI_LLM_BASE_URL": "https://api.openai.com/v1", "NAVI_LLM_JSON_MODE": "ON"},
			want:    llm.Config{BaseURL: "https://api.openai.com/v1", Format: llm.FormatObject},
			enabled: false,
		},
		{name: "json mode auto", env: map[string]string{"NAVI_LLM_JSON_MODE": "auto"}, want: llm.Config{}},
		{name: "json mode schema", env: map[string]string{"NAVI_LLM_JSON_MODE": "Schema"}, want: llm.Config{Format: llm.FormatSchema}},
		{name: "bad json mode", env: map[string]string{"NAVI_LLM_JSON_MODE": "maybe"}, wantErr: `NAVI_LLM_JSON_MODE: "maybe" is not one of auto, schema, object, none`},
		{name: "context tokens", env: map[string]string{"NAVI_LLM_CONTEXT_TOKENS": "8192"}, want: llm.Config{ContextTokens: 8192}},
		{name: "bad context tokens", env: map[string]string{"NAVI_LLM_CONTEXT_TOKENS": "-1"}, wantErr: `NAVI_LLM_CONTEXT_TOKENS="-1" is not a positive integer`},
		{name: "bad timeout", env: map[string]string{"NAVI_LLM_TIMEOUT": "soon"}, wantErr: `NAVI_LLM_TIMEOUT="soon" is not a positive duration`},
		{name: "bad max tokens", env: map[string]string{"NAVI_LLM_MAX_TOKENS": "lots"}, wantErr: `NAVI_LLM_MAX_TOKENS="lots" is not a positive integer`},
		{name: "zero max tokens", env: map[string]string{"NAVI_LLM_MAX_TOKENS": "0"}, wantErr: `NAVI_LLM_MAX_TOKENS="0"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, k := range []string{llm.EnvBaseURL, llm.EnvModel, llm.EnvAPIKey, llm.EnvJSONMode, llm.EnvMaxTokens, llm.EnvTimeout, llm.EnvContext} {
				t.Setenv(k, tt.env[k])
			}
			cfg, err := llm.ConfigFromEnv()
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, cfg)
			assert.Equal(t, tt.enabled, cfg.Enabled())
		})
	}
}

func TestNewErrors(t *testing.T) {
	valid := llm.Config{BaseURL: "https://api.example.com/v1", Model: "m", APIKey: "sk-very-secret"}
	tests := []struct {
		name    string
		edit    func(*llm.Config)
		wantErr string
	}{
		{"valid", func(*llm.Config) {}, ""},
		{"empty base URL", func(c *llm.Config) { c.BaseURL = " " }, "NAVI_LLM_BASE_URL"},
		{"base URL without scheme", func(c *llm.Config) { c.BaseURL = "api.example.com/v1" }, `NAVI_LLM_BASE_URL="api.example.com/v1" is not an http(s) URL`},
		{"base URL with password", func(c *llm.Config) { c.BaseURL = "ftp://u:sk-very-secret@host/v1" }, `NAVI_LLM_BASE_URL="ftp://u:xxxxx@host/v1"`},
		{"empty model", func(c *llm.Config) { c.Model = "" }, "NAVI_LLM_MODEL"},
		{"negative max tokens", func(c *llm.Config) { c.MaxTokens = -1 }, "NAVI_LLM_MAX_TOKENS"},
		{"temperature", func(c *llm.Config) { c.Temperature = 3 }, "Config.Temperature"},
		{"negative timeout", func(c *llm.Config) { c.Timeout = -time.Second }, "Config.Timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := valid
			tt.edit(&cfg)
			p, err := llm.New(cfg)
			if tt.wantErr == "" {
				require.NoError(t, err)
				assert.Equal(t, "llm:m", p.Name())
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
			assert.NotContains(t, err.Error(), "sk-very-secret")
		})
	}
}
