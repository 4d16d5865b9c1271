package toolworld

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/catalogs"
)

// seeds are the inputs a user supplies; every other input must come from an API's output.
var seeds = map[string]string{
	"city": "Paris", "city_name": "Paris", "team_name": "Arsenal", "club_name": "Arsenal",
	"league": "Premier League", "check_in": "2025-07-01", "date": "2025-07-01", "time": "19:30",
	"nights": "2", "party_size": "4", "guest_name": "Ada Lovelace",
	"artistName": "Nina Simone", "cityName": "Paris", "minutes": "30",
}

// call calls an API over HTTP with the given inputs and returns the status and body.
func call(t *testing.T, base string, a twnm.API, inputs map[string]string) (int, []byte, http.Header) {
	t.Helper()
	p := a.Endpoint.Path
	query := url.Values{}
	bodyVals := map[string]any{}
	for _, in := range a.Inputs {
		v, ok := inputs[in.Name]
		if !ok {
			continue
		}
		switch in.In {
		case twnm.InPath:
			p = strings.ReplaceAll(p, "{"+in.Name+"}", url.PathEscape(v))
		case twnm.InQuery:
			query.Set(in.Name, v)
		case twnm.InBody:
			bodyVals[in.Name] = v
		}
	}
	var body io.Reader
	if a.Endpoint.Method == http.MethodPost {
		data, err := json.Marshal(bodyVals)
		require.NoError(t, err)
		body = bytes.NewReader(data)
	}
	u := base + p
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	req, err := http.NewRequest(a.Endpoint.Method, u, body)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, data, resp.Header
}

func newTestServer(t *testing.T, opts Options) (*Server, *httptest.Server) {
	t.Helper()
	s := New(opts)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts
}

func apiByName(t *testing.T, name string) twnm.API {
	t.Helper()
	for _, tool := range Registry() {
		if tool.API.Name == name {
			return tool.API
		}
	}
	t.Fatalf("no API %s", name)
	return twnm.API{}
}

func decode(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(data, &m), string(data))
	return m
}

func TestRegistry(t *testing.T) {
	tools := Registry()
	require.Len(t, Classic(), 41)
	require.Len(t, tools, 46)

	domains := map[string]int{}
	produced := map[string]bool{}
	for _, tool := range tools {
		if !tool.Renamed {
			domains[tool.Domain]++
		}
		require.NotEmpty(t, tool.API.Outputs, tool.API.Name)
		require.NotNil(t, tool.Handle, tool.API.Name)
		for _, o := range tool.API.Outputs {
			produced[o.Name] = true
			for _, k := range []string{tool.API.Name + "." + o.Name, "*." + o.Name} {
				for _, in := range renames[k] {
					produced[in] = true
				}
			}
		}
	}
	for _, d := range Domains {
		assert.GreaterOrEqual(t, domains[d], 3, "domain %s", d)
	}
	assert.Len(t, domains, len(Domains), "the classic APIs cover the seven domains")

	// Every required input is a seed or some API's output (under its name or as renames
	// says), so every API can be reached.
	for _, tool := range tools {
		for _, in := range tool.API.Inputs {
			if in.Required {
				_, seed := seeds[in.Name]
				assert.True(t, seed || produced[in.Name], "%s: input %s is neither a seed nor an output", tool.API.Name, in.Name)
			}
		}
	}
	require.NoError(t, Catalog("").Validate())
	require.NoError(t, Catalog("http://127.0.0.1:8300").Validate())
}

func TestProvidersOfferSubstitutes(t *testing.T) {
	// Several providers offer the same function under other names.
	byDomainProviders := map[string]map[string]bool{}
	for _, tool := range Classic() {
		if byDomainProviders[tool.Domain] == nil {
			byDomainProviders[tool.Domain] = map[string]bool{}
		}
		byDomainProviders[tool.Domain][tool.API.Provider] = true
	}
	for _, d := range Domains {
		assert.GreaterOrEqual(t, len(byDomainProviders[d]), 2, "domain %s", d)
	}

	// geo.Geocode and opengeo.Locate agree on coordinates; the weather providers agree on the weather.
	_, ts := newTestServer(t, Options{})
	_, g, _ := call(t, ts.URL, apiByName(t, "geo.Geocode"), map[string]string{"city": "Tokyo"})
	_, l, _ := call(t, ts.URL, apiByName(t, "opengeo.Locate"), map[string]string{"city_name": "Tokyo"})
	gm, lm := decode(t, g), decode(t, l)
	assert.Equal(t, gm["latitude"], lm["lat"])
	assert.Equal(t, gm["longitude"], lm["lon"])
	assert.InDelta(t, 35.6762, gm["latitude"], 1e-9)

	pt := map[string]string{"latitude": "35.6762", "longitude": "139.6503", "lat": "35.6762", "lon": "139.6503"}
	_, w1, _ := call(t, ts.URL, apiByName(t, "weather.Current"), pt)
	_, w2, _ := call(t, ts.URL, apiByName(t, "skycast.Now"), pt)
	w1m, w2m := decode(t, w1), decode(t, w2)
	assert.Equal(t, w1m["temperature"], w2m["temp_c"])
	assert.Equal(t, w1m["condition"], w2m["summary"])

	// The sports providers agree on a club's next match: its id, rival and day.
	_, f, _ := call(t, ts.URL, apiByName(t, "sports.TeamFixtures"), map[string]string{"team_id": "team-arsenal-a63f"})
	_, m, _ := call(t, ts.URL, apiByName(t, "scoreline.ClubMatches"), map[string]string{"club_id": "club-arsenal-0b1c"})
	fm, mm := decode(t, f), decode(t, m)
	assert.Equal(t, fm["match_id"], mm["game_id"])
	assert.Equal(t, fm["opponent"], mm["rival"])
	assert.Equal(t, fm["match_date"], mm["kickoff"])
	_, o, _ := call(t, ts.URL, apiByName(t, "sports.TeamFixtures"), map[string]string{"team_id": "team-chelsea-77aa"})
	assert.NotEqual(t, fm["match_id"], decode(t, o)["match_id"], "another club's next match is another")
}

// TestEveryAPIAnswers calls every API with its required inputs, taking each from the seeds
// or from the output of an API called before, until all have answered.
func TestEveryAPIAnswers(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	pool := map[string]string{}
	for k, v := range seeds {
		pool[k] = v
	}
	done := map[string]bool{}
	tools := Registry()
	for pass := 0; pass < 5 && len(done) < len(tools); pass++ {
		for _, tool := range tools {
			a := tool.API
			if done[a.Name] {
				continue
			}
			inputs := map[string]string{}
			ready := true
			for _, in := range a.Inputs {
				v, ok := pool[in.Name]
				if in.Required && !ok {
					ready = false
					break
				}
				if ok && in.Required {
					inputs[in.Name] = v
				}
			}
			if !ready {
				continue
			}
			status, body, _ := call(t, ts.URL, a, inputs)
			require.Equal(t, http.StatusOK, status, "%s: %s", a.Name, body)
			out := decode(t, body)
			top := 0
			for _, o := range a.Outputs {
				v, ok := out[o.Name]
				if o.Path != "" {
					v, ok = twnm.Lookup(out, o.Path)
				} else {
					top++
				}
				require.True(t, ok, "%s: output %s missing from %s", a.Name, o.Name, body)
				assertType(t, a.Name+"."+o.Name, o.Type, v)
				if _, seeded := seeds[o.Name]; !seeded {
					pool[o.Name] = jsonScalar(v)
					for _, in := range renames[a.Name+"."+o.Name] {
						pool[in] = jsonScalar(v)
					}
				}
			}
			assert.Len(t, out, top, "%s: undeclared outputs in %s", a.Name, body)

			// Determinism: the same request gives the same body.
			status2, body2, _ := call(t, ts.URL, a, inputs)
			require.Equal(t, http.StatusOK, status2)
			assert.Equal(t, string(body), string(body2), a.Name)
			done[a.Name] = true
		}
	}
	require.Len(t, done, len(tools), "APIs never reached: the chain is broken")

	// A fresh server gives the same answers: determinism does not depend on server state.
	_, ts2 := newTestServer(t, Options{})
	a := apiByName(t, "stay.HotelPrices")
	in := map[string]string{"hotel_id": pool["hotel_id"], "check_in": "2025-07-01", "nights": "3"}
	_, b1, _ := call(t, ts.URL, a, in)
	_, b2, _ := call(t, ts2.URL, a, in)
	assert.Equal(t, string(b1), string(b2))
}

// jsonScalar gives a JSON value as an input string: a string unquoted, else its JSON form.
func jsonScalar(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	data, _ := json.Marshal(v)
	return string(data)
}

func assertType(t *testing.T, what, typ string, v any) {
	t.Helper()
	switch typ {
	case "string":
		assert.IsType(t, "", v, what)
	case "number":
		assert.IsType(t, float64(0), v, what)
	case "integer":
		f, ok := v.(float64)
		assert.True(t, ok && f == float64(int64(f)), "%s: want an integer, got %v", what, v)
	case "boolean":
		assert.IsType(t, true, v, what)
	case "array":
		assert.IsType(t, []any{}, v, what)
	default:
		t.Errorf("%s: undeclared type %q", what, typ)
	}
}

// TestChainCityToWeather runs city -> geo.Geocode -> weather.Current -> airq.Current over HTTP,
// each call fed only by the outputs of the previous one.
func TestChainCityToWeather(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	geo, weather, air := apiByName(t, "geo.Geocode"), apiByName(t, "weather.Current"), apiByName(t, "airq.Current")

	status, body, _ := call(t, ts.URL, geo, map[string]string{"city": "Berlin"})
	require.Equal(t, http.StatusOK, status, string(body))
	prev := decode(t, body)

	next := func(a twnm.API, prev map[string]any) map[string]any {
		inputs := map[string]string{}
		for _, in := range a.Inputs {
			if v, ok := prev[in.Name]; ok {
				inputs[in.Name] = jsonScalar(v)
			}
		}
		status, body, _ := call(t, ts.URL, a, inputs)
		require.Equal(t, http.StatusOK, status, "%s: %s", a.Name, body)
		return decode(t, body)
	}
	w := next(weather, prev)
	assert.Contains(t, w, "temperature")
	assert.Contains(t, w, "condition")
	// The weather answer carries no coordinates, so the third call takes them from the geocode.
	aq := next(air, prev)
	assert.Contains(t, aq, "aqi")

	// A hotel chain: city -> hotel_id -> coordinates -> weather.
	h := next(apiByName(t, "stay.SearchHotels"), prev)
	require.True(t, strings.HasPrefix(h["hotel_id"].(string), "htl-berlin-"), h["hotel_id"])
	d := next(apiByName(t, "stay.HotelDetails"), h)
	assert.Equal(t, h["hotel_name"], d["hotel_name"])
	assert.InDelta(t, 52.52, d["latitude"], 0.05)
	assert.Contains(t, next(weather, d), "temperature")

	// A sports chain: team name -> team_id -> match_id -> statistics.
	team := next(apiByName(t, "sports.SearchTeam"), map[string]any{"team_name": "Arsenal"})
	fixture := next(apiByName(t, "sports.TeamFixtures"), team)
	stats := next(apiByName(t, "sports.MatchStats"), fixture)
	assert.Contains(t, stats, "home_score")
}

func TestInvalidInputs(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	tests := []struct {
		api, param string
		inputs     map[string]string
	}{
		{"geo.Geocode", "city", map[string]string{}},
		{"geo.Geocode", "city", map[string]string{"city": "  "}},
		{"weather.Current", "longitude", map[string]string{"latitude": "48.8"}},
		{"weather.Current", "latitude", map[string]string{"latitude": "north", "longitude": "2.3"}},
		{"weather.Current", "latitude", map[string]string{"latitude": "91", "longitude": "2.3"}},
		{"skycast.Now", "lon", map[string]string{"lat": "48.8", "lon": "500"}},
		{"stay.HotelDetails", "hotel_id", map[string]string{"hotel_id": "hotel-made-up"}},
		{"stay.HotelPrices", "check_in", map[string]string{"hotel_id": "htl-paris-0001"}},
		{"stay.HotelPrices", "check_in", map[string]string{"hotel_id": "htl-paris-0001", "check_in": "July 1st"}},
		{"stay.Book", "guest_name", map[string]string{"hotel_id": "htl-paris-0001", "check_in": "2025-07-01", "nights": "2"}},
		{"dine.Reserve", "party_size", map[string]string{"restaurant_id": "rst-1", "party_size": "many", "date": "2025-07-01", "time": "19:00"}},
	}
	for _, tt := range tests {
		t.Run(tt.api+"/"+tt.param, func(t *testing.T) {
			status, body, _ := call(t, ts.URL, apiByName(t, tt.api), tt.inputs)
			require.Equal(t, http.StatusBadRequest, status, string(body))
			m := decode(t, body)
			assert.Equal(t, tt.param, m["parameter"])
			assert.Contains(t, m["error"], tt.param)
		})
	}

	t.Run("body not JSON", func(t *testing.T) {
		resp, err := http.Post(ts.URL+"/stay/bookings", "application/json", strings.NewReader("{nope"))
		require.NoError(t, err)
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		require.Equal(t, http.StatusBadRequest, resp.StatusCode)
		assert.Equal(t, "body", decode(t, data)["parameter"])
	})
	t.Run("body numbers", func(t *testing.T) {
		resp, err := http.Post(ts.URL+"/stay/bookings", "application/json",
			strings.NewReader(`{"hotel_id":"htl-paris-0001","check_in":"2025-07-01","nights":3,"guest_name":"Ada"}`))
		require.NoError(t, err)
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		require.Equal(t, http.StatusOK, resp.StatusCode, string(data))
		assert.Equal(t, "confirmed", decode(t, data)["status"])
	})
}

func TestFaults(t *testing.T) {
	geo := apiByName(t, "geo.Geocode")
	in := map[string]string{"city": "Paris"}
	tests := []struct {
		name    string
		fault   Fault
		calls   int
		status  []int // per call
		check   func(t *testing.T, body []byte, h http.Header)
		minTime time.Duration
	}{
		{name: "down", fault: Fault{Mode: ModeDown}, calls: 3, status: []int{503, 503, 503}},
		{name: "deprecated", fault: Fault{Mode: ModeDeprecated}, calls: 2, status: []int{410, 410}},
		{name: "rate limited", fault: Fault{Mode: ModeRateLimited, RetryAfterS: 7}, calls: 2, status: []int{429, 429},
			check: func(t *testing.T, _ []byte, h http.Header) { assert.Equal(t, "7", h.Get("Retry-After")) }},
		{name: "rate limited default", fault: Fault{Mode: ModeRateLimited}, calls: 1, status: []int{429},
			check: func(t *testing.T, _ []byte, h http.Header) { assert.Equal(t, "1", h.Get("Retry-After")) }},
		{name: "flaky always", fault: Fault{Mode: ModeFlaky, ErrorRate: 1}, calls: 3, status: []int{500, 500, 500}},
		{name: "slow", fault: Fault{Mode: ModeSlow, LatencyMS: 60}, calls: 2, status: []int{200, 200}, minTime: 120 * time.Millisecond},
		{name: "drift", fault: Fault{Mode: ModeDrift}, calls: 1, status: []int{200},
			check: func(t *testing.T, body []byte, _ http.Header) {
				m := decode(t, body)
				assert.NotContains(t, m, "city")
				assert.Equal(t, "Paris", m["city_v2"])
			}},
		{name: "drift named field", fault: Fault{Mode: ModeDrift, Field: "latitude"}, calls: 1, status: []int{200},
			check: func(t *testing.T, body []byte, _ http.Header) {
				m := decode(t, body)
				assert.NotContains(t, m, "latitude")
				assert.Contains(t, m, "latitude_v2")
				assert.Contains(t, m, "city")
			}},
		{name: "none", fault: Fault{Mode: ModeNone}, calls: 2, status: []int{200, 200}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := tt.fault
			f.API = geo.Name
			s, ts := newTestServer(t, Options{Faults: []Fault{f}})
			start := time.Now()
			for i := 0; i < tt.calls; i++ {
				status, body, h := call(t, ts.URL, geo, in)
				require.Equal(t, tt.status[i], status, "call %d: %s", i, body)
				if status != http.StatusOK {
					assert.Equal(t, geo.Name, decode(t, body)["api"])
				}
				if tt.check != nil {
					tt.check(t, body, h)
				}
			}
			assert.GreaterOrEqual(t, time.Since(start), tt.minTime)
			assert.Equal(t, tt.calls, s.Calls(geo.Name))
			// Other APIs are untouched.
			status, _, _ := call(t, ts.URL, apiByName(t, "opengeo.Locate"), map[string]string{"city_name": "Paris"})
			assert.Equal(t, http.StatusOK, status)
			assert.Equal(t, 1, s.Calls("opengeo.Locate"))
		})
	}
}

func TestFlakyIsSeeded(t *testing.T) {
	geo := apiByName(t, "geo.Geocode")
	run := func(seed uint64) []int {
		s, ts := newTestServer(t, Options{Faults: []Fault{{API: geo.Name, Mode: ModeFlaky, ErrorRate: 0.5, Seed: seed}}})
		var statuses []int
		for i := 0; i < 40; i++ {
			status, _, _ := call(t, ts.URL, geo, map[string]string{"city": "Paris"})
			statuses = append(statuses, status)
		}
		require.Equal(t, 40, s.Calls(geo.Name))
		return statuses
	}
	a, b, c := run(42), run(42), run(43)
	assert.Equal(t, a, b, "the same seed gives the same failures")
	assert.NotEqual(t, a, c, "another seed gives other failures")
	fails := 0
	for _, st := range a {
		require.Contains(t, []int{200, 500}, st)
		if st == 500 {
			fails++
		}
	}
	assert.Greater(t, fails, 5)
	assert.Less(t, fails, 35)

	// A tiny rate almost never fails (a rate of 0 means the default 0.5).
	_, ts := newTestServer(t, Options{Faults: []Fault{{API: geo.Name, Mode: ModeFlaky, ErrorRate: 0.0001}}})
	for i := 0; i < 10; i++ {
		status, _, _ := call(t, ts.URL, geo, map[string]string{"city": "Paris"})
		assert.Equal(t, http.StatusOK, status)
	}
}

// A wrong API answers some inputs with wrong figures, the same inputs every time, and the
// others right; another seed picks other inputs.
func TestWrongIsByInput(t *testing.T) {
	geo := apiByName(t, "geo.Geocode")
	cities := []string{"Paris", "Rome", "London", "Berlin", "Madrid", "Tokyo", "Sydney", "Cairo", "Lima", "Oslo", "Dubai", "Toronto"}
	answers := func(opts Options) map[string]map[string]any {
		_, ts := newTestServer(t, opts)
		out := map[string]map[string]any{}
		for _, c := range cities {
			status, body, _ := call(t, ts.URL, geo, map[string]string{"city": c})
			require.Equal(t, http.StatusOK, status, "%s: %s", c, body)
			out[c] = decode(t, body)
		}
		return out
	}
	right := answers(Options{})
	wrongOf := func(seed uint64) []string {
		got := answers(Options{Faults: []Fault{{API: geo.Name, Mode: ModeWrong, ErrorRate: 0.5, Seed: seed}}})
		var wrong []string
		for _, c := range cities {
			if got[c]["latitude"] != right[c]["latitude"] {
				wrong = append(wrong, c)
				assert.InDelta(t, right[c]["latitude"].(float64)+3.7, got[c]["latitude"].(float64), 1e-9, c)
				assert.Equal(t, right[c]["city"], got[c]["city"], "text is left as it is")
			} else {
				assert.Equal(t, right[c], got[c], c)
			}
		}
		return wrong
	}
	a, b, c := wrongOf(7), wrongOf(7), wrongOf(8)
	assert.Equal(t, a, b, "the same inputs are wrong every time")
	assert.NotEqual(t, a, c, "another seed picks other inputs")
	assert.NotEmpty(t, a)
	assert.Less(t, len(a), len(cities))
}

func TestSlowHonoursCancellation(t *testing.T) {
	_, ts := newTestServer(t, Options{Faults: []Fault{{API: "geo.Geocode", Mode: ModeSlow, LatencyMS: 10_000}}})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+"/geo/geocode?city=Paris", nil)
	require.NoError(t, err)
	start := time.Now()
	_, err = http.DefaultClient.Do(req)
	require.Error(t, err)
	assert.Less(t, time.Since(start), 5*time.Second)
}

func TestAdminFaultsOverHTTP(t *testing.T) {
	s, ts := newTestServer(t, Options{})
	post := func(body string) (int, map[string]any) {
		resp, err := http.Post(ts.URL+"/admin/faults", "application/json", strings.NewReader(body))
		require.NoError(t, err)
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, decode(t, data)
	}
	status, _ := post(`{"api":"weather.Current","mode":"down"}`)
	require.Equal(t, http.StatusOK, status)
	status, _ = post(`{"api":"skycast.Now","mode":"rate_limited","retry_after_s":3}`)
	require.Equal(t, http.StatusOK, status)

	resp, err := http.Get(ts.URL + "/admin/faults")
	require.NoError(t, err)
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var got struct{ Faults []Fault }
	require.NoError(t, json.Unmarshal(data, &got))
	require.Len(t, got.Faults, 2)
	assert.Equal(t, Fault{API: "skycast.Now", Mode: ModeRateLimited, RetryAfterS: 3}, got.Faults[0])
	assert.Equal(t, Fault{API: "weather.Current", Mode: ModeDown}, got.Faults[1])

	w := apiByName(t, "weather.Current")
	pt := map[string]string{"latitude": "48.85", "longitude": "2.35"}
	st, _, _ := call(t, ts.URL, w, pt)
	assert.Equal(t, http.StatusServiceUnavailable, st)
	status, _ = post(`{"api":"weather.Current","mode":"none"}`)
	require.Equal(t, http.StatusOK, status)
	st, _, _ = call(t, ts.URL, w, pt)
	assert.Equal(t, http.StatusOK, st)
	assert.Len(t, s.Faults(), 1)

	for _, tt := range []struct {
		body   string
		status int
		want   string
	}{
		{`{"api":"nope.Nothing","mode":"down"}`, http.StatusNotFound, "nope.Nothing"},
		{`{"api":"geo.Geocode","mode":"broken"}`, http.StatusBadRequest, "broken"},
		{`{"api":"geo.Geocode","mode":"flaky","error_rate":2}`, http.StatusBadRequest, "error_rate"},
		{`{"api":"geo.Geocode","mode":"drift","field":"altitude"}`, http.StatusBadRequest, "altitude"},
		{`{"api":"geo.Geocode","mode":"down","typo":1}`, http.StatusBadRequest, "typo"},
		{`not json`, http.StatusBadRequest, "invalid JSON"},
	} {
		status, m := post(tt.body)
		assert.Equal(t, tt.status, status, tt.body)
		assert.Contains(t, m["error"], tt.want, tt.body)
	}

	// Stats count every call of an API, faulted ones included.
	resp, err = http.Get(ts.URL + "/admin/stats")
	require.NoError(t, err)
	data, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	var stats struct{ Calls map[string]int }
	require.NoError(t, json.Unmarshal(data, &stats))
	assert.Equal(t, map[string]int{"weather.Current": 2}, stats.Calls)
}

func TestConcurrentCalls(t *testing.T) {
	s, ts := newTestServer(t, Options{Faults: []Fault{{API: "opengeo.Locate", Mode: ModeFlaky, ErrorRate: 0.3, Seed: 1}}})
	geo, loc := apiByName(t, "geo.Geocode"), apiByName(t, "opengeo.Locate")
	const n = 40
	var wg sync.WaitGroup
	var mu sync.Mutex
	fails := 0
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, _, _ := call(t, ts.URL, geo, map[string]string{"city": "Rome"})
			assert.Equal(t, http.StatusOK, st)
			st, _, _ = call(t, ts.URL, loc, map[string]string{"city_name": "Rome"})
			if st == http.StatusInternalServerError {
				mu.Lock()
				fails++
				mu.Unlock()
			}
			if i%10 == 0 {
				assert.NoError(t, s.SetFault(Fault{API: "geo.Geocode", Mode: ModeNone}))
				_ = s.Faults()
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, n, s.Calls(geo.Name))
	assert.Equal(t, n, s.Calls(loc.Name))

	// The number of failures is that of the seeded sequence, whatever the interleaving.
	s2, ts2 := newTestServer(t, Options{Faults: []Fault{{API: "opengeo.Locate", Mode: ModeFlaky, ErrorRate: 0.3, Seed: 1}}})
	want := 0
	for i := 0; i < n; i++ {
		if st, _, _ := call(t, ts2.URL, loc, map[string]string{"city_name": "Rome"}); st == http.StatusInternalServerError {
			want++
		}
	}
	assert.Equal(t, want, fails)
	assert.Equal(t, n, s2.Calls(loc.Name))
}

func TestCatalogServedRoundTrips(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	c, err := catalogs.Native(download(t, ts.URL+"/catalog.json", "toolworld.json"))
	require.NoError(t, err)
	require.NoError(t, c.Validate())
	assert.Equal(t, Catalog(ts.URL), c)
	assert.Equal(t, ts.URL, c.APIs[0].Endpoint.BaseURL)

	// A fixed base URL wins over the request's host.
	_, ts2 := newTestServer(t, Options{BaseURL: "http://tools.example:8300/"})
	c2, err := catalogs.Native(download(t, ts2.URL+"/catalog.json", "fixed.json"))
	require.NoError(t, err)
	assert.Equal(t, "http://tools.example:8300", c2.APIs[0].Endpoint.BaseURL)
}

func TestOpenAPIImports(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	c, err := catalogs.OpenAPI(download(t, ts.URL+"/openapi.json", "openapi.json"))
	require.NoError(t, err)

	want := Catalog(ts.URL)
	require.Len(t, c.APIs, len(want.APIs))
	got := map[string]twnm.API{}
	for _, a := range c.APIs {
		got[a.Name] = a
	}
	for _, w := range want.APIs {
		g, ok := got[w.Name]
		require.True(t, ok, "missing %s", w.Name)
		assert.Equal(t, *w.Endpoint, *g.Endpoint, w.Name)
		assert.Equal(t, paramSig(w.Inputs, true), paramSig(g.Inputs, true), w.Name)
		assert.Equal(t, paramSig(w.Outputs, false), paramSig(g.Outputs, false), w.Name)
	}
}

// paramSig describes parameters order-free: name:type[:in:required].
func paramSig(ps []twnm.Param, input bool) []string {
	var out []string
	for _, p := range ps {
		s := p.Name + ":" + p.Type
		if input {
			s += ":" + p.In
			if p.Required {
				s += ":required"
			}
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func TestHealthz(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	resp, err := http.Get(ts.URL + "/healthz")
	require.NoError(t, err)
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	m := decode(t, data)
	assert.Equal(t, "ok", m["status"])
	assert.Equal(t, float64(len(Registry())), m["apis"])
}

func TestSetFaultErrors(t *testing.T) {
	s := New(Options{Faults: []Fault{{API: "nope", Mode: ModeDown}}}) // skipped, logged
	assert.Empty(t, s.Faults())
	assert.ErrorContains(t, s.SetFault(Fault{API: "geo.Geocode", Mode: ModeSlow, LatencyMS: -1}), "latency_ms")
	assert.ErrorContains(t, s.SetFault(Fault{API: "geo.Geocode", Mode: ModeRateLimited, RetryAfterS: -1}), "retry_after_s")
	require.NoError(t, s.SetFault(Fault{API: "geo.Geocode", Mode: ModeSlow}))
	assert.Equal(t, []Fault{{API: "geo.Geocode", Mode: ModeSlow, LatencyMS: defaultLatencyMS}}, s.Faults())
}

// download GETs url, requires a 200, and writes the body to a file named name in a temporary
// folder, whose path it returns.
func download(t *testing.T, url, name string) string {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(file, data, 0o600))
	return file
}
