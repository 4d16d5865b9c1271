package neo4j_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/twnm"
)

func TestRecordFeedbackOnceCountsABatchOnce(t *testing.T) {
	s, ctx, prefix, _ := imported(t)
	invs, trs := feedbackOf(prefix, true, time.Now())
	key := stacktest.UniqueName(prefix + "chain-")

	fresh, err := s.RecordFeedbackOnce(ctx, key, invs, trs)
	require.NoError(t, err)
	assert.True(t, fresh, "the first batch with a key is recorded")
	once := apiProps(t, s, prefix)
	assert.Equal(t, int64(2), once["success"], "Geocode and Weather succeeded once")
	assert.Equal(t, int64(1), once["then_n"])
	assert.Equal(t, int64(1), once["feeds_n"])

	fresh, err = s.RecordFeedbackOnce(ctx, key, invs, trs)
	require.NoError(t, err, "a batch recorded before is not an error")
	assert.False(t, fresh, "the same key again is reported as recorded before")
	assert.Equal(t, once, apiProps(t, s, prefix), "and changes nothing")

	fresh, err = s.RecordFeedbackOnce(ctx, key+"-2", invs, trs)
	require.NoError(t, err)
	assert.True(t, fresh, "another key is another batch")
	twice := apiProps(t, s, prefix)
	assert.Equal(t, int64(4), twice["success"])
	assert.Equal(t, int64(2), twice["then_n"])
}

func TestRecordFeedbackOnceErrors(t *testing.T) {
	s, ctx, prefix, _ := imported(t)
	invs, trs := feedbackOf(prefix, true, time.Now())

	t.Run("empty key", func(t *testing.T) {
		fresh, err := s.RecordFeedbackOnce(ctx, "", invs, trs)
		require.ErrorContains(t, err, "the batch key is empty")
		assert.False(t, fresh)
		assert.Equal(t, int64(0), apiProps(t, s, prefix)["success"], "nothing was recorded")
	})

	t.Run("an unknown API does not use up the key", func(t *testing.T) {
		key := stacktest.UniqueName(prefix + "chain-")
		bad := append(append([]twnm.Invocation(nil), invs...), twnm.Invocation{API: prefix + "Ghost", Success: true, Time: time.Now()})
		fresh, err := s.RecordFeedbackOnce(ctx, key, bad, trs)
		require.ErrorContains(t, err, "1 of 3 rows name an API or parameter the graph does not have")
		assert.False(t, fresh)
		assert.Equal(t, int64(0), apiProps(t, s, prefix)["success"], "nothing was recorded")

		fresh, err = s.RecordFeedbackOnce(ctx, key, invs, trs)
		require.NoError(t, err)
		assert.True(t, fresh, "the failed batch rolled its key back with its counts")
		assert.Equal(t, int64(2), apiProps(t, s, prefix)["success"])
	})
}
