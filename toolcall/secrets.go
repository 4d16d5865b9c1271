package toolcall

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/naviagent/navi/toolspec"
)

// SecretSource resolves the secrets that catalogs name (toolspec.Auth.Secret) to their values.
// Values stay inside the tool call: they are put on the request and nowhere else.
type SecretSource interface {
	Secret(name string) (string, error)
}

// EnvSecrets reads secret name from the environment variable NAVI_SECRET_<NAME> (upper case,
// other characters than letters and digits as _), else from the file Dir/<name> (its
// content without surrounding white space) when Dir is set.
type EnvSecrets struct {
	Dir string
}

// ErrNoSecret is a secret that no source has.
var ErrNoSecret = errors.New("secret not set")

// Secret returns the value of secret name.
func (e EnvSecrets) Secret(name string) (string, error) {
	env := SecretEnv(name)
	if v := os.Getenv(env); v != "" {
		return v, nil
	}
	if e.Dir != "" && !strings.ContainsAny(name, `/\`) && name != ".." && name != "." {
		b, err := os.ReadFile(filepath.Join(e.Dir, name))
		if v := strings.TrimSpace(string(b)); err == nil && v != "" {
			return v, nil
		}
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("secret %s: read %s: %w", name, filepath.Join(e.Dir, name), err)
		}
		return "", fmt.Errorf("secret %s: %w (set %s or write it to %s)", name, ErrNoSecret, env, filepath.Join(e.Dir, name))
	}
	return "", fmt.Errorf("secret %s: %w (set %s)", name, ErrNoSecret, env)
}

// SecretEnv is the environment variable of secret name: NAVI_SECRET_ and the name in upper
// case, every character but letters and digits as _.
func SecretEnv(name string) string {
	return "NAVI_SECRET_" + strings.Map(func(r rune) rune {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return unicode.ToUpper(r)
		}
		return '_'
	}, name)
}

// CanAuthorize returns nil when the client can put api's credential on a call (api needs none,
// or its secret is set), else the not-callable error the call would fail with, naming the
// secret and where to set it.
func (c *Client) CanAuthorize(api toolspec.API) error {
	_, err := c.secret(api)
	return err
}

// secret is the value of api's secret, "" when it needs none.
func (c *Client) secret(api toolspec.API) (string, error) {
	au := api.Auth
	if au == nil {
		return "", nil
	}
	if c.Secrets == nil {
		return "", notCallable(api.Name, "it needs secret %s and the worker has no secret source", au.Secret)
	}
	v, err := c.Secrets.Secret(au.Secret)
	if err != nil {
		return "", notCallable(api.Name, "%v", err)
	}
	return v, nil
}

// authorize puts api's credential on req and returns the value it sent, for redaction; ""
// when the API needs none.
func (c *Client) authorize(req *http.Request, api toolspec.API) (string, error) {
	au := api.Auth
	if au == nil {
		return "", nil
	}
	v, err := c.secret(api)
	if err != nil {
		return "", err
	}
	switch au.Scheme {
	case toolspec.AuthBearer:
		req.Header.Set("Authorization", "Bearer "+v)
	case toolspec.AuthHeader:
		req.Header.Set(au.Name, v)
	case toolspec.AuthQuery:
		q := req.URL.Query()
		q.Set(au.Name, v)
		req.URL.RawQuery = q.Encode()
	case toolspec.AuthBasic:
		req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(v)))
	default:
		return "", notCallable(api.Name, "auth scheme %q is not one Navi sends", au.Scheme)
	}
	return v, nil
}

// redacted is text with every occurrence of secret (and of its query encoding) replaced.
func redacted(text, secret string) string {
	if secret == "" {
		return text
	}
	text = strings.ReplaceAll(text, secret, "[redacted]")
	if enc := url.QueryEscape(secret); enc != secret { // as a query carries it
		text = strings.ReplaceAll(text, enc, "[redacted]")
	}
	return text
}

// redactedError is an error whose message has a secret taken out; Unwrap keeps the chain
// for errors.Is.
type redactedError struct {
	err    error
	secret string
}

func (e redactedError) Error() string { return redacted(e.err.Error(), e.secret) }
func (e redactedError) Unwrap() error { return e.err }

// redact takes secret out of what an Error says: its detail, body excerpt and cause.
func (e *Error) redact(secret string) *Error {
	if secret == "" {
		return e
	}
	e.Detail, e.Body = redacted(e.Detail, secret), redacted(e.Body, secret)
	if e.Err != nil {
		e.Err = redactedError{e.Err, secret}
	}
	return e
}

// redactValue takes secret out of every string of a decoded JSON value, object keys
// included, in place where it can: a tool that echoes its key must not put it in a history,
// nor, as a key, in the outputs the graph learns.
func redactValue(v any, secret string) any {
	switch x := v.(type) {
	case string:
		return redacted(x, secret)
	case map[string]any:
		for k, e := range x {
			x[k] = redactValue(e, secret)
		}
		var keyed []string
		for k := range x {
			if redacted(k, secret) != k {
				keyed = append(keyed, k)
			}
		}
		for _, k := range keyed {
			e := x[k]
			delete(x, k)
			x[redacted(k, secret)] = e
		}
	case []any:
		for i, e := range x {
			x[i] = redactValue(e, secret)
		}
	}
	return v
}
