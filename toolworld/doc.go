// Package toolworld is Navi's local "tool world": a deterministic HTTP server of realistic
// tools that Navi can call in demos and tests without reaching the internet.
//
// # Tools
//
// The registry (Registry) is a table of about forty APIs over the seven domains of the
// NaviAgent real-world test: geolocation, weather, air_quality, restaurants, real_estate,
// hotels and sports. Each API is a twnm.API (name, description, provider, endpoint, typed
// inputs with their location, outputs) and a handler that computes the answer from the inputs
// alone, seeded by a hash of them: the same request always gets the same answer.
//
// APIs chain through shared parameter names, and every output a later call needs is a
// top-level JSON field named like that call's input:
//
//	city -> geo.Geocode -> latitude, longitude -> weather.Current, airq.Current,
//	        dine.SearchNearby, homes.Listings, ...
//	city -> stay.SearchHotels -> hotel_id -> stay.HotelDetails (latitude, longitude), stay.HotelPrices, stay.Book
//	team_name -> sports.SearchTeam -> team_id -> sports.TeamFixtures -> match_id -> sports.MatchStats
//
// Several providers offer the same function under other names and parameter names, so that
// substitution has real targets: geo.Geocode(city) -> latitude, longitude and
// opengeo.Locate(city_name) -> lat, lon; weather.Current and skycast.Now; airq.Current and
// breezo.AirQuality; dine and eatly; homes and nestfind; stay and lodgr; sports and
// scoreline. Substitutes agree: the same place has the same temperature at both weather
// providers, and a club has the same next match (its id, rival and day) at both sports
// ones. Ids carry a prefix (htl-, rst-, team-, ...); an id the world did not hand out is
// rejected with 400.
//
// The renamed providers (Tool.Renamed; Classic leaves them out) name shared values their own
// way, as real catalogs do: tunes.SearchTracks(artistName) answers a list whose first
// item's id (results[].id) tunes.Track(trackId) and lyrico.Lyrics(track_id) take, and
// routely.FindStop(cityName) gives the stopId that routely.Reachable(originStopId, minutes)
// takes. The renamed tasks (DifficultyRenamed) chain through flows across names, as renames
// says (lat feeds latitude, city_name feeds city, game_id feeds match_id).
//
// # Server
//
// New builds the http.Handler. Besides the API endpoints it serves:
//
//	GET  /healthz        liveness and the API count
//	GET  /catalog.json   the registry as a Navi native catalog (base_url: this server)
//	GET  /openapi.json   the same as an OpenAPI 3.0 document
//	GET  /admin/faults   the faults in force
//	POST /admin/faults   inject or clear a fault
//	GET  /admin/stats    calls and deduplicated requests per API:
//	                     {"calls": {"geo.Geocode": 3}, "deduplicated": {"stay.Book": 1}};
//	                     with ?key_prefix=P, only requests whose Idempotency-Key starts with P
//
// A missing or invalid input answers 400 with {"error": ..., "parameter": name, "api": name}.
//
// # Idempotency
//
// A request to an API that carries an Idempotency-Key header runs the API at most once per
// key and API: a later request with the same key gets the stored answer, byte for byte, with
// the header Idempotent-Replayed: true, whatever its inputs. It is not counted as a call
// (Server.Calls, "calls") but as deduplicated (Server.Deduplicated, "deduplicated"), so a
// test can check that a retried booking booked once. A request that comes while the first
// with its key is still running waits for it and gets its answer.
//
// Only a 2xx answer is stored. A fault (503, 500, 429, 410) or an invalid input (400) is
// not, nor a request its client abandoned before the API ran: the API did not run, and a
// client retrying with the same key must reach it again. The same key at another API is another key. The
// server remembers the last Options.IdempotencyKeys keys (10,000 by default) and forgets the
// oldest first.
//
// # Faults
//
// A fault is set per API at start (Options.Faults) or at run time. Modes: down (503), slow
// (latency_ms more, 500 by default; a cancelled request stops waiting), flaky (a fraction
// error_rate of calls, 0.5 by default, answer 500, decided by a sequence seeded by seed),
// rate_limited (429 with Retry-After: retry_after_s, 1 by default), drift (the output field,
// the first by default, is renamed with the suffix "_v2"), deprecated (410) and none (clear).
// Every request to an API is counted, faulted and invalid ones included; a replayed
// idempotent answer is not (see Idempotency).
//
// # Running it
//
//	go run ./toolworld/cmd/navi-toolworld -addr 127.0.0.1:8300 -debug
//	curl 'http://127.0.0.1:8300/geo/geocode?city=Paris'
//	curl 'http://127.0.0.1:8300/weather/current?latitude=48.8566&longitude=2.3522'
//	curl -X POST http://127.0.0.1:8300/admin/faults \
//	     -d '{"api": "weather.Current", "mode": "flaky", "error_rate": 0.3, "seed": 7}'
//	curl -X POST http://127.0.0.1:8300/admin/faults -d '{"api": "weather.Current", "mode": "none"}'
//	curl -X POST -H 'Idempotency-Key: demo-1' http://127.0.0.1:8300/stay/bookings \
//	     -d '{"hotel_id": "htl-1", "check_in": "2025-07-01", "nights": 2, "guest_name": "Ada"}'
//	curl http://127.0.0.1:8300/admin/stats
//
// The address can also be set with NAVI_TOOLWORLD_ADDR.
package toolworld
