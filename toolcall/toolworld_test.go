package toolcall_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/toolcall"
	"github.com/naviagent/navi/toolspec"
	"github.com/naviagent/navi/toolworld"
)

// worldAPIs serves a fresh tool world and returns it with its catalog, by API name.
func worldAPIs(t *testing.T) (*toolworld.Server, map[string]toolspec.API) {
	t.Helper()
	world := toolworld.New(toolworld.Options{})
	ts := httptest.NewServer(world)
	t.Cleanup(ts.Close)
	apis := map[string]toolspec.API{}
	for _, a := range toolworld.Catalog(ts.URL).APIs {
		apis[a.Name] = a
	}
	return world, apis
}

// The catalog of the tool world is callable as it is: a chain of query, path and body calls.
func TestCallToolWorldChain(t *testing.T) {
	world, apis := worldAPIs(t)
	c := &toolcall.Client{}
	ctx := context.Background()

	search, err := c.Call(ctx, apis["stay.SearchHotels"], map[string]string{"city": "Paris", "nights": "2"}, toolcall.CallOptions{})
	require.NoError(t, err)
	hotel, ok := search.Output["hotel_id"].(string)
	require.True(t, ok, "%v", search.Output)

	details, err := c.Call(ctx, apis["stay.HotelDetails"], map[string]string{"hotel_id": hotel}, toolcall.CallOptions{})
	require.NoError(t, err)
	assert.Equal(t, search.Output["hotel_name"], details.Output["hotel_name"])

	args := map[string]string{"hotel_id": hotel, "check_in": "2025-07-01", "nights": "2", "guest_name": "Ada Lovelace"}
	booked, err := c.Call(ctx, apis["stay.Book"], args, toolcall.CallOptions{IdempotencyKey: "book-1"})
	require.NoError(t, err)
	assert.Equal(t, "confirmed", booked.Output["status"])

	// A retry of the booking with the same key books nothing more.
	again, err := c.Call(ctx, apis["stay.Book"], args, toolcall.CallOptions{IdempotencyKey: "book-1"})
	require.NoError(t, err)
	assert.Equal(t, booked.Output, again.Output)
	assert.Equal(t, 1, world.Calls("stay.Book"))
	assert.Equal(t, map[string]int{"stay.Book": 1}, world.Deduplicated())
}

func TestCallToolWorldFaults(t *testing.T) {
	tests := []struct {
		fault      toolworld.Fault
		kind       error
		status     int
		retryAfter time.Duration
	}{
		{toolworld.Fault{Mode: toolworld.ModeDown}, toolcall.ErrUnavailable, 503, 0},
		{toolworld.Fault{Mode: toolworld.ModeFlaky, ErrorRate: 1}, toolcall.ErrUnavailable, 500, 0},
		{toolworld.Fault{Mode: toolworld.ModeRateLimited, RetryAfterS: 3}, toolcall.ErrRateLimited, 429, 3 * time.Second},
		{toolworld.Fault{Mode: toolworld.ModeDeprecated}, toolcall.ErrRejected, 410, 0},
	}
	for _, tt := range tests {
		t.Run(tt.fault.Mode, func(t *testing.T) {
			world, apis := worldAPIs(t)
			f := tt.fault
			f.API = "geo.Geocode"
			require.NoError(t, world.SetFault(f))
			_, err := (&toolcall.Client{}).Call(context.Background(), apis["geo.Geocode"], map[string]string{"city": "Paris"}, toolcall.CallOptions{})
			require.ErrorIs(t, err, tt.kind)
			var e *toolcall.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tt.status, e.Status)
			assert.Equal(t, tt.retryAfter, e.RetryAfter)
		})
	}

	t.Run("unknown id", func(t *testing.T) {
		_, apis := worldAPIs(t)
		_, err := (&toolcall.Client{}).Call(context.Background(), apis["stay.HotelDetails"], map[string]string{"hotel_id": "nope"}, toolcall.CallOptions{})
		require.ErrorIs(t, err, toolcall.ErrRejected)
		assert.Contains(t, err.Error(), "HTTP 400")
		assert.Contains(t, err.Error(), "hotel_id")
	})
	t.Run("slow call times out", func(t *testing.T) {
		world, apis := worldAPIs(t)
		require.NoError(t, world.SetFault(toolworld.Fault{API: "geo.Geocode", Mode: toolworld.ModeSlow, LatencyMS: 5000}))
		api := apis["geo.Geocode"]
		api.Timeout = toolspec.Duration(100 * time.Millisecond)
		_, err := (&toolcall.Client{}).Call(context.Background(), api, map[string]string{"city": "Paris"}, toolcall.CallOptions{})
		require.ErrorIs(t, err, toolcall.ErrUnavailable)
	})
}
