package workflows

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/contract"
)

func TestLimits(t *testing.T) {
	tests := []struct {
		name   string
		limits Limits
		query  int
		answer int
		errs   [2]string // what CheckQuery and CheckAnswer say; "" for no error
	}{
		{"defaults, at the limits", Limits{}, DefaultMaxQueryBytes, DefaultMaxAnswerBytes, [2]string{}},
		{"defaults, one over", Limits{}, DefaultMaxQueryBytes + 1, DefaultMaxAnswerBytes + 1,
			[2]string{"the query is 16385 B, over the limit of 16384 B (NAVI_MAX_QUERY_BYTES)", "the answer is 4097 B, over the limit of 4096 B (NAVI_MAX_ANSWER_BYTES)"}},
		{"set limits", Limits{MaxQueryBytes: 10, MaxAnswerBytes: 5}, 11, 5,
			[2]string{"the query is 11 B, over the limit of 10 B", ""}},
		{"capped", Limits{MaxQueryBytes: 1 << 30}, 10 << 20, 1, [2]string{"the query is 10 MiB, over the limit of 256 KiB", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i, err := range []error{tt.limits.CheckQuery(strings.Repeat("q", tt.query)), tt.limits.CheckAnswer(strings.Repeat("a", tt.answer))} {
				if tt.errs[i] == "" {
					assert.NoError(t, err)
					continue
				}
				var tl *TooLargeError
				require.ErrorAs(t, err, &tl)
				assert.Contains(t, err.Error(), tt.errs[i])
			}
		})
	}
	assert.NoError(t, Limits{MaxQueryBytes: MaxLimitBytes}.Validate())
	assert.ErrorContains(t, Limits{MaxQueryBytes: MaxLimitBytes + 1}.Validate(), "NAVI_MAX_QUERY_BYTES 262145: want 0 (the default) to 262144 bytes")
	assert.ErrorContains(t, Limits{MaxAnswerBytes: -1}.Validate(), "NAVI_MAX_ANSWER_BYTES -1")
}

func TestByteSize(t *testing.T) {
	for n, want := range map[int]string{0: "0 B", 1023: "1023 B", 1024: "1 KiB", 1536: "1.5 KiB", 450 << 10: "450 KiB", 10 << 20: "10 MiB", 9<<20 + 512<<10: "9.5 MiB"} {
		assert.Equal(t, want, byteSize(n), n)
	}
}

func TestBackoff(t *testing.T) {
	p := &contract.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 10 * time.Second}
	for n, want := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second, 4: 8 * time.Second, 5: 10 * time.Second} {
		assert.Equal(t, want, backoff(p, n), "retry %d", n)
	}
	assert.Equal(t, 3*time.Second, backoff(&contract.RetryPolicy{InitialInterval: 3 * time.Second, BackoffCoefficient: 1}, 4), "no maximum, no growth")
}
