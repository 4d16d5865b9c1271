package llm

import (
	"fmt"
	"net/url"
	"os"
	"slices"
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
	EnvTimeout   = "NAVI_LLM_TIMEOUT"
	EnvContext   = "NAVI_LLM_CONTEXT_TOKENS"
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
	// Format is the response_format requested: FormatAuto (the default) asks for the
	// decisions' JSON schema and, each time the endpoint rejects response_format with a 400,
	// retries that call one level down (JSON object, then none) and stays there; the others
	// ask for their level only (a rejection is an error).
	Format Format
	// Temperature is the sampling temperature; the default 0 keeps decisions reproducible.
	Temperature float32
	// MaxTokens caps the completion; 0 means DefaultMaxTokens.
	MaxTokens int
	// ContextTokens is the model's context window in tokens; 0 means unknown (a hosted model's
	// is large). When set, a prompt that would not leave MaxTokens for the answer lists fewer
	// candidates, the lowest ranked left out, instead of being refused by the endpoint.
	ContextTokens int
	// Timeout bounds one HTTP call to the endpoint; 0 means DefaultTimeout. A model on a CPU
	// needs more than a hosted one: tens of seconds for a long prompt.
	Timeout time.Duration
}

// ConfigFromEnv reads a Config from NAVI_LLM_BASE_URL, NAVI_LLM_MODEL, NAVI_LLM_API_KEY,
// NAVI_LLM_JSON_MODE (see ParseFormat; empty is auto), NAVI_LLM_MAX_TOKENS,
// NAVI_LLM_CONTEXT_TOKENS and NAVI_LLM_TIMEOUT (a Go duration such as 3m). Unset
// variables leave their field zero; the error names a variable that cannot be parsed.
// Whether the result is usable is for Enabled and New to say.
func ConfigFromEnv() (Config, error) {
	cfg := Config{
		BaseURL: strings.TrimSpace(os.Getenv(EnvBaseURL)),
		Model:   strings.TrimSpace(os.Getenv(EnvModel)),
		APIKey:  strings.TrimSpace(os.Getenv(EnvAPIKey)),
	}
	format, err := ParseFormat(os.Getenv(EnvJSONMode))
	if err != nil {
		return cfg, fmt.Errorf("llm: %s: %w", EnvJSONMode, err)
	}
	cfg.Format = format
	if s := strings.TrimSpace(os.Getenv(EnvTimeout)); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return cfg, fmt.Errorf("llm: %s=%q is not a positive duration such as 3m", EnvTimeout, s)
		}
		cfg.Timeout = d
	}
	for _, v := range []struct {
		env string
		to  *int
	}{{EnvMaxTokens, &cfg.MaxTokens}, {EnvContext, &cfg.ContextTokens}} {
		if s := strings.TrimSpace(os.Getenv(v.env)); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil || n <= 0 {
				return cfg, fmt.Errorf("llm: %s=%q is not a positive integer", v.env, s)
			}
			*v.to = n
		}
	}
	return cfg, nil
}

// Format is the response_format a planner asks the endpoint for, from the most constrained.
type Format string

// The formats, in the order FormatAuto falls back through them.
const (
	// FormatAuto asks for FormatSchema and falls back as the endpoint rejects each level.
	FormatAuto Format = ""
	// FormatSchema is response_format json_schema with the decisions' schema (Schema):
	// servers that decode under it (constrained decoding) cannot return an invalid shape.
	FormatSchema Format = "json_schema"
	// FormatObject is response_format json_object: any JSON object.
	FormatObject Format = "json_object"
	// FormatNone sends no response_format; the prompt alone asks for JSON.
	FormatNone Format = "none"
)

// ParseFormat parses a response-format setting (case-insensitive): "" or "auto" gives
// FormatAuto; "schema" or "json_schema" FormatSchema; "object", "json_object" or, as before
// schemas, "true" FormatObject; "none" or "false" FormatNone.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return FormatAuto, nil
	case "schema", "json_schema":
		return FormatSchema, nil
	case "object", "json_object", "true", "1", "on", "yes":
		return FormatObject, nil
	case "none", "false", "0", "off", "no":
		return FormatNone, nil
	}
	return FormatAuto, fmt.Errorf("%q is not one of auto, schema, object, none", s)
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
	if !slices.Contains([]Format{FormatAuto, FormatSchema, FormatObject, FormatNone}, c.Format) {
		return fmt.Errorf("llm: format %q is not one of auto, json_schema, json_object, none (%s or Config.Format)", c.Format, EnvJSONMode)
	}
	if c.MaxTokens < 0 {
		return fmt.Errorf("llm: max tokens %d is negative (%s or Config.MaxTokens)", c.MaxTokens, EnvMaxTokens)
	}
	if c.ContextTokens < 0 {
		return fmt.Errorf("llm: context tokens %d is negative (%s or Config.ContextTokens)", c.ContextTokens, EnvContext)
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
	mode := string(c.Format)
	if mode == "" {
		mode = "auto"
	}
	key := "unset"
	if c.APIKey != "" {
		key = "set"
	}
	return fmt.Sprintf("llm.Config{BaseURL: %q, Model: %q, APIKey: %s, Format: %s, Temperature: %g, MaxTokens: %d, ContextTokens: %d, Timeout: %s}",
		redactURL(c.BaseURL), c.Model, key, mode, c.Temperature, c.MaxTokens, c.ContextTokens, c.Timeout)
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
