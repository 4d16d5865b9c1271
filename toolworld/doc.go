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
// providers. Ids carry a prefix (htl-, rst-, team-, ...); an id the world did not hand out
// is rejected with 400.
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
//	GET  /admin/stats    calls per API
//
// A missing or invalid input answers 400 with {"error": ..., "parameter": name, "api": name}.
//
// # Faults
//
// A fault is set per API at start (Options.Faults) or at run time. Modes: down (503), slow
// (latency_ms more, 500 by default; a cancelled request stops waiting), flaky (a fraction
// error_rate of calls, 0.5 by default, answer 500, decided by a sequence seeded by seed),
// rate_limited (429 with Retry-After: retry_after_s, 1 by default), drift (the output field,
// the first by default, is renamed with the suffix "_v2"), deprecated (410) and none (clear).
// Every request to an API is counted, faulted and invalid ones included.
//
// # Running it
//
//	go run ./toolworld/cmd/navi-toolworld -addr 127.0.0.1:8300 -debug
//	curl 'http://127.0.0.1:8300/geo/geocode?city=Paris'
//	curl 'http://127.0.0.1:8300/weather/current?latitude=48.8566&longitude=2.3522'
//	curl -X POST http://127.0.0.1:8300/admin/faults \
//	     -d '{"api": "weather.Current", "mode": "flaky", "error_rate": 0.3, "seed": 7}'
//	curl -X POST http://127.0.0.1:8300/admin/faults -d '{"api": "weather.Current", "mode": "none"}'
//	curl http://127.0.0.1:8300/admin/stats
//
// The address can also be set with NAVI_TOOLWORLD_ADDR.
package toolworld
