package toolworld

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// booking is a valid stay.Book body.
const booking = `{"hotel_id": "htl-42", "check_in": "2025-07-01", "nights": 2, "guest_name": "Ada Lovelace"}`

// send does one request with an optional Idempotency-Key and returns the status, the body
// and whether the answer was a replay.
func send(t *testing.T, ctx context.Context, method, url, body, key string) (int, string, bool) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, r)
	require.NoError(t, err)
	if key != "" {
		req.Header.Set(HeaderIdempotencyKey, key)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(data), resp.Header.Get(HeaderIdempotentReplayed) == "true"
}

func TestIdempotencyKeyReplaysTheAnswer(t *testing.T) {
	s, ts := newTestServer(t, Options{})
	book := ts.URL + "/stay/bookings"
	ctx := context.Background()

	status, first, replayed := send(t, ctx, http.MethodPost, book, booking, "k1")
	require.Equal(t, http.StatusOK, status, first)
	assert.False(t, replayed)
	assert.Contains(t, first, "booking_id")

	// A repeat with the key gets the stored answer, even with another body, and is no call.
	status, again, replayed := send(t, ctx, http.MethodPost, book, `{"hotel_id": "htl-7"}`, "k1")
	require.Equal(t, http.StatusOK, status)
	assert.True(t, replayed)
	assert.Equal(t, first, again)
	assert.Equal(t, 1, s.Calls("stay.Book"))
	assert.Equal(t, map[string]int{"stay.Book": 1}, s.Deduplicated())

	// Another key, or no key, executes.
	status, _, replayed = send(t, ctx, http.MethodPost, book, booking, "k2")
	require.Equal(t, http.StatusOK, status)
	assert.False(t, replayed)
	for range 2 {
		status, _, replayed = send(t, ctx, http.MethodPost, book, booking, "")
		require.Equal(t, http.StatusOK, status)
		assert.False(t, replayed)
	}
	assert.Equal(t, 4, s.Calls("stay.Book"))

	// The same key at another API is another key there.
	status, _, replayed = send(t, ctx, http.MethodGet, ts.URL+"/geo/geocode?city=Paris", "", "k1")
	require.Equal(t, http.StatusOK, status)
	assert.False(t, replayed)
	status, _, replayed = send(t, ctx, http.MethodGet, ts.URL+"/geo/geocode?city=Rome", "", "k1")
	require.Equal(t, http.StatusOK, status)
	assert.True(t, replayed, "GETs are deduplicated too")
	assert.Equal(t, 1, s.Calls("geo.Geocode"))

	// /admin/stats keeps "calls" and adds "deduplicated".
	status, body, _ := send(t, ctx, http.MethodGet, ts.URL+"/admin/stats", "", "")
	require.Equal(t, http.StatusOK, status)
	var stats struct {
		Calls        map[string]int `json:"calls"`
		Deduplicated map[string]int `json:"deduplicated"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &stats))
	assert.Equal(t, map[string]int{"stay.Book": 4, "geo.Geocode": 1}, stats.Calls)
	assert.Equal(t, map[string]int{"stay.Book": 1, "geo.Geocode": 1}, stats.Deduplicated)

	// ?key_prefix= counts only the keyed requests whose key starts with the prefix.
	status, body, _ = send(t, ctx, http.MethodGet, ts.URL+"/admin/stats?key_prefix=k1", "", "")
	require.Equal(t, http.StatusOK, status)
	require.NoError(t, json.Unmarshal([]byte(body), &stats))
	assert.Equal(t, map[string]int{"stay.Book": 1, "geo.Geocode": 1}, stats.Calls)
	assert.Equal(t, map[string]int{"stay.Book": 1, "geo.Geocode": 1}, stats.Deduplicated)
	calls, dedup := s.CallsByKey("k2")
	assert.Equal(t, map[string]int{"stay.Book": 1}, calls)
	assert.Empty(t, dedup)
}

// Faults and invalid inputs are not stored: the API did not run, and a client that retries
// with the same key must reach it.
func TestIdempotencyStoresOnlySuccess(t *testing.T) {
	tests := []struct {
		name   string
		fault  Fault
		body   string
		status int
	}{
		{"down", Fault{Mode: ModeDown}, booking, http.StatusServiceUnavailable},
		{"flaky", Fault{Mode: ModeFlaky, ErrorRate: 1}, booking, http.StatusInternalServerError},
		{"rate limited", Fault{Mode: ModeRateLimited}, booking, http.StatusTooManyRequests},
		{"deprecated", Fault{Mode: ModeDeprecated}, booking, http.StatusGone},
		{"invalid input", Fault{Mode: ModeNone}, `{"hotel_id": "nope"}`, http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := tt.fault
			f.API = "stay.Book"
			s, ts := newTestServer(t, Options{Faults: []Fault{f}})
			book := ts.URL + "/stay/bookings"
			ctx := context.Background()
			for range 2 {
				status, _, replayed := send(t, ctx, http.MethodPost, book, tt.body, "k")
				require.Equal(t, tt.status, status)
				assert.False(t, replayed)
			}
			require.NoError(t, s.SetFault(Fault{API: "stay.Book", Mode: ModeNone}))
			status, first, replayed := send(t, ctx, http.MethodPost, book, booking, "k")
			require.Equal(t, http.StatusOK, status)
			assert.False(t, replayed, "the first success executes")
			status, again, replayed := send(t, ctx, http.MethodPost, book, booking, "k")
			require.Equal(t, http.StatusOK, status)
			assert.True(t, replayed)
			assert.Equal(t, first, again)
			assert.Equal(t, 3, s.Calls("stay.Book"))
			assert.Equal(t, map[string]int{"stay.Book": 1}, s.Deduplicated())
		})
	}
}

func TestIdempotencyConcurrentRequestsExecuteOnce(t *testing.T) {
	// The slow fault keeps the first execution in flight while the others arrive.
	s, ts := newTestServer(t, Options{Faults: []Fault{{API: "stay.Book", Mode: ModeSlow, LatencyMS: 100}}})
	const n = 30
	var wg sync.WaitGroup
	var mu sync.Mutex
	bodies := map[string]int{}
	replays := 0
	for range n {
		wg.Go(func() {
			status, body, replayed := send(t, context.Background(), http.MethodPost, ts.URL+"/stay/bookings", booking, "same-key")
			assert.Equal(t, http.StatusOK, status)
			mu.Lock()
			defer mu.Unlock()
			bodies[body]++
			if replayed {
				replays++
			}
		})
	}
	// Other keys and APIs run alongside, each once.
	for i := range 10 {
		wg.Go(func() {
			status, _, _ := send(t, context.Background(), http.MethodGet, ts.URL+"/geo/geocode?city=Oslo", "", fmt.Sprint("geo-", i))
			assert.Equal(t, http.StatusOK, status)
		})
	}
	wg.Wait()
	assert.Equal(t, 1, s.Calls("stay.Book"), "exactly one execution")
	assert.Equal(t, n-1, s.Deduplicated()["stay.Book"])
	assert.Equal(t, n-1, replays)
	assert.Len(t, bodies, 1, "every request got the same answer")
	assert.Equal(t, 10, s.Calls("geo.Geocode"))
	assert.Zero(t, s.Deduplicated()["geo.Geocode"])
}

func TestIdempotencyClientGoneFreesTheKey(t *testing.T) {
	// A GET, whose abandonment the server sees at once: it has no body left to read.
	s, ts := newTestServer(t, Options{Faults: []Fault{{API: "geo.Geocode", Mode: ModeSlow, LatencyMS: 300}}})
	url := ts.URL + "/geo/geocode?city=Paris"
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	require.NoError(t, err)
	req.Header.Set(HeaderIdempotencyKey, "k")
	_, err = http.DefaultClient.Do(req)
	require.Error(t, err)

	// The abandoned execution stored nothing, so the retry executes.
	status, _, replayed := send(t, context.Background(), http.MethodGet, url, "", "k")
	require.Equal(t, http.StatusOK, status)
	assert.False(t, replayed)
	assert.Equal(t, 2, s.Calls("geo.Geocode"))
	assert.Empty(t, s.Deduplicated())
}

func TestIdempotencyKeysAreBounded(t *testing.T) {
	s, ts := newTestServer(t, Options{IdempotencyKeys: 3})
	url := ts.URL + "/geo/geocode?city=Paris"
	ctx := context.Background()
	for _, k := range []string{"k1", "k2", "k3", "k4"} {
		_, _, replayed := send(t, ctx, http.MethodGet, url, "", k)
		require.False(t, replayed)
	}
	_, _, replayed := send(t, ctx, http.MethodGet, url, "", "k4")
	assert.True(t, replayed, "a recent key is remembered")
	_, _, replayed = send(t, ctx, http.MethodGet, url, "", "k2")
	assert.True(t, replayed)
	_, _, replayed = send(t, ctx, http.MethodGet, url, "", "k1")
	assert.False(t, replayed, "the oldest key was forgotten")
	// Storing k1 again evicted k2, the oldest then.
	_, _, replayed = send(t, ctx, http.MethodGet, url, "", "k2")
	assert.False(t, replayed)
	assert.Equal(t, 6, s.Calls("geo.Geocode"))
	assert.Equal(t, 2, s.Deduplicated()["geo.Geocode"])

	// The default bound applies when the option is zero.
	assert.Equal(t, DefaultIdempotencyKeys, New(Options{}).idemCap)
}

// A fault with a key prefix breaks the API for the requests of one run only.
func TestFaultLimitedToKeyPrefix(t *testing.T) {
	_, ts := newTestServer(t, Options{Faults: []Fault{{API: "geo.Geocode", Mode: ModeDown, KeyPrefix: "navi/run-a/"}}})
	ctx := context.Background()
	url := ts.URL + "/geo/geocode?city=Paris"
	tests := []struct {
		key  string
		want int
	}{
		{"navi/run-a/r1/5", http.StatusServiceUnavailable},
		{"navi/run-b/r1/5", http.StatusOK},
		{"", http.StatusOK},
	}
	for _, tt := range tests {
		status, body, _ := send(t, ctx, http.MethodGet, url, "", tt.key)
		assert.Equal(t, tt.want, status, "key %q: %s", tt.key, body)
	}
}
