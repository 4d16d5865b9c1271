package workflows

import (
	"fmt"
	"strings"
)

// Limits bound the user text a run takes into its history. Temporal stores the query with
// every event that carries it (the start, activity inputs, the state it continues as new
// with) and an answer with its Update; the server refuses a payload over a few MiB only when
// it arrives, so a query of a few hundred KiB is accepted and then jams the run, every
// workflow task failing as its commands grow past the limit. A run checks its limits before
// it does anything else. Zero fields take the defaults; no limit goes above MaxLimitBytes.
//
// The limits travel in the request, not in the worker's settings, so that a run replays
// under the limits it started with whatever the worker is configured with later.
type Limits struct {
	MaxQueryBytes  int `json:"max_query_bytes,omitempty"`
	MaxAnswerBytes int `json:"max_answer_bytes,omitempty"`
}

// Defaults of Limits, and the most any limit may be.
const (
	DefaultMaxQueryBytes  = 16 << 10
	DefaultMaxAnswerBytes = 4 << 10
	MaxLimitBytes         = 256 << 10
)

// Environment variables of the limits, named in the errors so that users know what to change.
const (
	EnvMaxQueryBytes  = "NAVI_MAX_QUERY_BYTES"
	EnvMaxAnswerBytes = "NAVI_MAX_ANSWER_BYTES"
)

// ErrTypeInputTooLarge is the type of the non-retryable error that ends a run whose query is
// over its limit.
const ErrTypeInputTooLarge = "navi.InputTooLarge"

// TooLargeError is a text over its limit.
type TooLargeError struct {
	What    string // "the query", "the answer"
	Size    int    // bytes
	Limit   int    // bytes
	Setting string // the environment variable of the limit
}

// Error names the text, its size, the limit and where the limit is set.
func (e *TooLargeError) Error() string {
	size, limit := byteSize(e.Size), byteSize(e.Limit)
	if size == limit { // just over: the rounded figures would read alike
		size, limit = fmt.Sprintf("%d B", e.Size), fmt.Sprintf("%d B", e.Limit)
	}
	return fmt.Sprintf("%s is %s, over the limit of %s (%s)", e.What, size, limit, e.Setting)
}

// Validate reports a negative limit or one over MaxLimitBytes.
func (l Limits) Validate() error {
	for _, f := range []struct {
		env string
		v   int
	}{{EnvMaxQueryBytes, l.MaxQueryBytes}, {EnvMaxAnswerBytes, l.MaxAnswerBytes}} {
		if f.v < 0 || f.v > MaxLimitBytes {
			return fmt.Errorf("%s %d: want 0 (the default) to %d bytes", f.env, f.v, MaxLimitBytes)
		}
	}
	return nil
}

// CheckQuery reports a query over the query limit.
func (l Limits) CheckQuery(query string) error {
	return check("the query", query, l.MaxQueryBytes, DefaultMaxQueryBytes, EnvMaxQueryBytes)
}

// CheckAnswer reports an answer over the answer limit.
func (l Limits) CheckAnswer(answer string) error {
	return check("the answer", answer, l.MaxAnswerBytes, DefaultMaxAnswerBytes, EnvMaxAnswerBytes)
}

func check(what, text string, limit, def int, env string) error {
	if limit <= 0 {
		limit = def
	}
	limit = min(limit, MaxLimitBytes)
	if n := len(text); n > limit {
		return &TooLargeError{What: what, Size: n, Limit: limit, Setting: env}
	}
	return nil
}

// byteSize renders n bytes for people: 512 B, 16 KiB, 9.5 MiB.
func byteSize(n int) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<10)), ".0") + " KiB"
	}
	return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<20)), ".0") + " MiB"
}
