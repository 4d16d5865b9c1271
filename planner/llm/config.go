package llm

import (
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// Environment variables ConfigFromEnv reads.
const (
	EnvBaseURL   = "NAVI_LLM_BASE_URL"
	EnvModel     = "NAVI_LLM_MODEL"
	EnvAPIKey    = "NAVI_LLM_API_KEY"
	EnvJSONMode  = "NAVI_LLM_JSON_MODE"
	EnvMaxTokens = "NAVI_LLM_MAX_TOKENS"
)

// Defaults New applies to zero Config fields.
const (
	DefaultMaxTokens = 1024
	DefaultTimeout   = 60 * time.Second
)

// Config says which OpenAI-compatible endpoint the planner talks to and how.
//
// Config implements fmt.Stringer and fmt.GoStringer so that printing it with any verb never
// shows the API key.
type Config struct {
	// BaseURL is the endpoint's API root, e.g. "https://api.openai.com/v1" or
	// "http://localhost:11434/v1"; go-openai appends "/chat/completions".
	BaseURL string
	// Model is the model name sent with every request; Result.Planner is "llm:"+Model.
	Model string
	// APIKey is sent as a bearer token; empty sends none (local endpoints often need none).
	APIKey string
	// JSONMode says whether to request response_format {"type":"json_object"}. nil (auto, the
	// default) requests it and, when the endpoint rejects response_format with a 400, retries
	// that call without it and stops asking for it; true always requests it (a rejection is an
	// error); false never requests it.
	JSONMode *bool
	// Temperature is the sampling temperature; the default 0 keeps decisions reproducible.
	Temperature float32
	// MaxTokens caps the completion; 0 means DefaultMaxTokens.
	MaxTokens int
	// Timeout bounds one HTTP call to the endpoint; 0 means DefaultTimeout.
	Timeout time.Duration
}

// ConfigFromEnv reads a Config from NAVI_LLM_BASE_URL, NAVI_LLM_MODEL, NAVI_LLM_API_KEY,
// NAVI_LLM_JSON_MODE (auto, true or false; empty is auto) and NAVI_LLM_MAX_TOKENS. Unset
// variables leave their field zero; the error names a variable that cannot be parsed.
// Whether the result is usable is for Enabled and New to say.
func ConfigFromEnv() (Config, error) {
	cfg := Config{
		BaseURL: strings.TrimSpace(os.Getenv(EnvBaseURL)),
		Model:   strings.TrimSpace(os.Getenv(EnvModel)),
		APIKey:  strings.TrimSpace(os.Getenv(EnvAPIKey)),
	}
	mode, err := ParseJSONMode(os.Getenv(EnvJSONMode))
	if err != nil {
		return cfg, fmt.Errorf("llm: %s: %w", EnvJSONMode, err)
	}
	cfg.JSONMode = mode
	if s := strings.TrimSpace(os.Getenv(EnvMaxTokens)); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			return cfg, fmt.Errorf("llm: %s=%q is not a positive integer", EnvMaxTokens, s)
		}
		cfg.MaxTokens = n
	}
	return cfg, nil
}

// ParseJSONMode parses a JSON-mode setting: "" or "auto" gives nil (auto); "true", "1",
// "on", "yes" give true; "false", "0", "off", "no" give false (case-insensitive).
func ParseJSONMode(s string) (*bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return nil, nil
	case "true", "1", "on", "yes", "t":
		v := true
		return &v, nil
	case "false", "0", "off", "no", "f":
		v := false
		return &v, nil
	}
	return nil, fmt.Errorf("%q is not one of auto, true, false", s)
}

// Enabled reports whether an LLM is configured: a base URL and a model are set. Without one,
// callers use the graph-first planner.
func (c Config) Enabled() bool {
	return strings.TrimSpace(c.BaseURL) != "" && strings.TrimSpace(c.Model) != ""
}

// withDefaults fills zero fields with the defaults.
func (c Config) withDefaults() Config {
	c.BaseURL = strings.TrimSpace(c.BaseURL)
	c.Model = strings.TrimSpace(c.Model)
	if c.MaxTokens == 0 {
		c.MaxTokens = DefaultMaxTokens
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	return c
}

// validate checks a defaulted Config. Errors name the environment variable as well as the
// field, since most configs come from ConfigFromEnv; none of them includes the API key.
func (c Config) validate() error {
	if c.BaseURL == "" {
		return fmt.Errorf("llm: base URL is empty (set %s or Config.BaseURL)", EnvBaseURL)
	}
	u, err := url.Parse(c.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("llm: %s=%q is not an http(s) URL such as https://api.openai.com/v1", EnvBaseURL, redactURL(c.BaseURL))
	}
	if c.Model == "" {
		return fmt.Errorf("llm: model is empty (set %s or Config.Model)", EnvModel)
	}
	if c.MaxTokens < 0 {
		return fmt.Errorf("llm: max tokens %d is negative (%s or Config.MaxTokens)", c.MaxTokens, EnvMaxTokens)
	}
	if c.Temperature < 0 || c.Temperature > 2 {
		return fmt.Errorf("llm: temperature %g is outside [0, 2] (Config.Temperature)", c.Temperature)
	}
	if c.Timeout < 0 {
		return fmt.Errorf("llm: timeout %s is negative (Config.Timeout)", c.Timeout)
	}
	return nil
}

// String describes the config without the API key, which shows only as set or unset.
func (c Config) String() string {
	mode := "auto"
	if c.JSONMode != nil {
		mode = strconv.FormatBool(*c.JSONMode)
	}
	key := "unset"
	if c.APIKey != "" {
		key = "set"
	}
	return fmt.Sprintf("llm.Config{BaseURL: %q, Model: %q, APIKey: %s, JSONMode: %s, Temperature: %g, MaxTokens: %d, Timeout: %s}",
		redactURL(c.BaseURL), c.Model, key, mode, c.Temperature, c.MaxTokens, c.Timeout)
}

// GoString is String, so that %#v cannot print the API key either.
func (c Config) GoString() string { return c.String() }

// redactURL hides a password in a URL's user info, in case someone put a key there.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	return u.Redacted()
}
