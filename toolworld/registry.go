package toolworld

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/naviagent/navi/twnm"
)

// Tool is one API of the tool world: its catalog record and the handler that answers it.
type Tool struct {
	// Domain is the test domain of the API: geolocation, weather, air_quality, restaurants,
	// real_estate, hotels or sports. It is also the API's category in the catalog.
	Domain string
	API    twnm.API
	// Handle computes the response from the inputs, by parameter name. The same inputs always
	// give the same response. An invalid or missing input gives an *InputError.
	Handle func(inputs map[string]string) (map[string]any, error)
	// Renamed marks the providers that name shared values their own way (camelCase, a bare
	// id in a list, role-prefixed inputs): the renamed tasks use them, the classic tasks and
	// the failure scenario's faults do not.
	Renamed bool
}

// InputError is a missing or invalid input; the server answers it with 400 naming Param.
type InputError struct {
	Param  string
	Reason string
}

// Error names the parameter and what is wrong with it.
func (e *InputError) Error() string { return fmt.Sprintf("parameter %s: %s", e.Param, e.Reason) }

// Domains are the seven domains of the NaviAgent real-world test, in registry order.
var Domains = []string{"geolocation", "weather", "air_quality", "restaurants", "real_estate", "hotels", "sports"}

// Registry returns the tool world's APIs, in a stable order. Each call builds a fresh copy.
func Registry() []Tool {
	defs, renamed := definitions(), renamedDefinitions()
	tools := make([]Tool, 0, len(defs)+len(renamed))
	for _, d := range defs {
		tools = append(tools, d.tool())
	}
	for _, d := range renamed {
		t := d.tool()
		t.Renamed = true
		tools = append(tools, t)
	}
	return tools
}

// Classic returns the registry without the renamed providers: the 41 APIs the classic tasks
// are generated over.
func Classic() []Tool {
	var out []Tool
	for _, t := range Registry() {
		if !t.Renamed {
			out = append(out, t)
		}
	}
	return out
}

// Catalog returns the registry as a Navi catalog named "toolworld", its list items typed as
// the resources they are (twnm.TypeListItems). baseURL, when not empty, becomes every
// endpoint's base_url.
func Catalog(baseURL string) twnm.Catalog {
	c := twnm.Catalog{Name: "toolworld"}
	for _, t := range Registry() {
		a := t.API
		if baseURL != "" {
			ep := *a.Endpoint
			ep.BaseURL = baseURL
			a.Endpoint = &ep
		}
		c.APIs = append(c.APIs, a)
	}
	twnm.TypeListItems(&c) // a track search's results[].id is a track's
	return c
}

// def is one row of the API table.
type def struct {
	name, provider, domain, method, path, desc string
	in                                         []inp
	out                                        []outp
}

// inp is an input parameter of a def.
type inp struct {
	name, typ, loc, desc string
	req                  bool
}

// outp is an output field of a def with the generator of its value. A field with a path
// ("results[].id") lies in the first item of a list of the answer, not at its top level.
type outp struct {
	name, typ, desc string
	gen             gen
	path            string
}

// gen computes one output value.
type gen func(c *genCtx) any

// genCtx is what a generator sees: the inputs, the outputs computed so far and a random
// source seeded by the API name and the inputs.
type genCtx struct {
	api, field string
	in         map[string]string
	out        map[string]any
	rng        *rand.Rand
}

func (d def) tool() Tool {
	a := twnm.API{
		Name:        d.name,
		Description: d.desc,
		Provider:    d.provider,
		Category:    d.domain,
		Tags:        []string{d.domain},
		Endpoint:    &twnm.Endpoint{Method: d.method, Path: d.path},
	}
	if d.method != "GET" {
		// Every tool of the world answers a repeated Idempotency-Key from its stored answer.
		a.Effect = twnm.EffectIdempotent
	}
	for _, p := range d.in {
		a.Inputs = append(a.Inputs, twnm.Param{Name: p.name, Type: p.typ, Description: p.desc, Required: p.req, In: p.loc})
	}
	for _, o := range d.out {
		a.Outputs = append(a.Outputs, twnm.Param{Name: o.name, Type: o.typ, Description: o.desc, Path: o.path})
	}
	return Tool{Domain: d.domain, API: a, Handle: d.handle}
}

// handle validates the inputs and computes every output in declared order.
func (d def) handle(inputs map[string]string) (map[string]any, error) {
	in := make(map[string]string, len(d.in))
	h := fnv.New64a()
	h.Write([]byte(d.name))
	for _, p := range d.in {
		v, ok := inputs[p.name]
		v = strings.TrimSpace(v)
		if !ok || v == "" {
			if p.req {
				return nil, &InputError{Param: p.name, Reason: "is required"}
			}
			continue
		}
		if err := checkInput(p, v); err != nil {
			return nil, err
		}
		in[p.name] = v
		fmt.Fprintf(h, "\x00%s=%s", p.name, v)
	}
	sum := h.Sum64()
	c := &genCtx{api: d.name, in: in, out: make(map[string]any, len(d.out)), rng: rand.New(rand.NewPCG(sum, sum>>7|1))}
	for _, o := range d.out {
		c.field = o.name
		c.out[o.name] = o.gen(c)
	}
	// Fields of a list's item move into the list's first item, computed under their own
	// names above so that generators could read them.
	for _, o := range d.out {
		list, key, ok := strings.Cut(o.path, "[].")
		if !ok {
			continue
		}
		items, _ := c.out[list].([]any)
		if len(items) == 0 {
			items = []any{map[string]any{}}
			c.out[list] = items
		}
		items[0].(map[string]any)[key] = c.out[o.name]
		delete(c.out, o.name)
	}
	return c.out, nil
}

// idPrefixes are the prefixes of the ids the tool world hands out; an id input without its
// prefix was not handed out and is rejected.
var idPrefixes = map[string]string{
	"hotel_id": "htl-", "property_code": "lod-", "restaurant_id": "rst-", "place_id": "plc-",
	"listing_id": "lst-", "property_id": "nst-", "agent_id": "agt-", "team_id": "team-",
	"match_id": "match-", "club_id": "club-", "trackId": "trk-", "track_id": "trk-", "originStopId": "stp-",
}

func checkInput(p inp, v string) error {
	switch p.typ {
	case "number":
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return &InputError{Param: p.name, Reason: fmt.Sprintf("want a number, got %q", v)}
		}
		switch p.name {
		case "latitude", "lat":
			if f < -90 || f > 90 {
				return &InputError{Param: p.name, Reason: fmt.Sprintf("want a latitude in [-90, 90], got %s", v)}
			}
		case "longitude", "lon":
			if f < -180 || f > 180 {
				return &InputError{Param: p.name, Reason: fmt.Sprintf("want a longitude in [-180, 180], got %s", v)}
			}
		}
	case "integer":
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return &InputError{Param: p.name, Reason: fmt.Sprintf("want a non-negative integer, got %q", v)}
		}
	}
	if strings.HasSuffix(p.name, "date") || p.name == "check_in" {
		if _, err := time.Parse(time.DateOnly, v); err != nil {
			return &InputError{Param: p.name, Reason: fmt.Sprintf("want a date YYYY-MM-DD, got %q", v)}
		}
	}
	if pre, ok := idPrefixes[p.name]; ok && (!strings.HasPrefix(v, pre) || len(v) == len(pre)) {
		return &InputError{Param: p.name, Reason: fmt.Sprintf("unknown id %q, want one starting with %q", v, pre)}
	}
	return nil
}

// Input helpers for the table.

func q(name, typ, desc string) inp {
	return inp{name: name, typ: typ, loc: twnm.InQuery, desc: desc, req: true}
}
func opt(name, typ, desc string) inp { return inp{name: name, typ: typ, loc: twnm.InQuery, desc: desc} }
func path(name, desc string) inp {
	return inp{name: name, typ: "string", loc: twnm.InPath, desc: desc, req: true}
}
func body(name, typ, desc string) inp {
	return inp{name: name, typ: typ, loc: twnm.InBody, desc: desc, req: true}
}
func o(name, typ, desc string, g gen) outp {
	return outp{name: name, typ: typ, desc: desc, gen: g}
}

// item is field key of the first item of list, an output named name.
func item(list, key, name, typ, desc string, g gen) outp {
	return outp{name: name, typ: typ, desc: desc, gen: g, path: list + "[]." + key}
}

// Generators.

// hashOf hashes the parts into a 64-bit value.
func hashOf(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

func rngOf(parts ...string) *rand.Rand {
	s := hashOf(parts...)
	return rand.New(rand.NewPCG(s, s>>11|1))
}

func round(x float64, dec int) float64 {
	p := math.Pow(10, float64(dec))
	return math.Round(x*p) / p
}

func num(lo, hi float64, dec int) gen {
	return func(c *genCtx) any { return round(lo+c.rng.Float64()*(hi-lo), dec) }
}

func intn(lo, hi int) gen { return func(c *genCtx) any { return lo + c.rng.IntN(hi-lo+1) } }

func pick(vals ...string) gen { return func(c *genCtx) any { return vals[c.rng.IntN(len(vals))] } }

func constant(v any) gen { return func(*genCtx) any { return v } }

// value returns the named output computed so far, else the named input, as a string.
func (c *genCtx) value(name string) string {
	if v, ok := c.out[name]; ok {
		return fmt.Sprint(v)
	}
	return c.in[name]
}

// echo returns an input (or earlier output) unchanged.
func echo(name string) gen { return func(c *genCtx) any { return c.value(name) } }

// echoOr returns an input, or def when it was not given.
func echoOr(name, def string) gen {
	return func(c *genCtx) any {
		if v := c.value(name); v != "" {
			return v
		}
		return def
	}
}

// keyed runs g with a random source seeded only by the value of src and the output's name,
// so that two APIs describing the same entity (a hotel_id) agree on its fields.
func keyed(src string, g gen) gen {
	return func(c *genCtx) any { return keyedAs(c.field, src, g)(c) }
}

// keyedAs is keyed under a concept name other than the output's, so that differently named
// outputs (price, estimated_value) can derive from the same figure.
func keyedAs(concept, src string, g gen) gen {
	return func(c *genCtx) any {
		k := *c
		k.rng = rngOf("keyed", src, c.value(src), concept)
		return g(&k)
	}
}

// keyedValue is keyedAs seeded by src's value alone, not its name, so that providers that name
// one id differently (trackId, track_id, a search result's id) agree on its fields.
func keyedValue(concept, src string, g gen) gen {
	return func(c *genCtx) any {
		k := *c
		k.rng = rngOf("keyed-value", c.value(src), concept)
		return g(&k)
	}
}

// atPoint runs g with a random source seeded by the rounded coordinates of the inputs
// (latitude/longitude or lat/lon) and a concept name, so that two providers agree on the
// weather at a place whatever they call their parameters.
func atPoint(concept string, g gen) gen {
	return func(c *genCtx) any {
		lat, lon := c.point()
		k := *c
		k.rng = rngOf("point", concept, strconv.FormatFloat(round(lat, 2), 'f', 2, 64), strconv.FormatFloat(round(lon, 2), 'f', 2, 64))
		return g(&k)
	}
}

func (c *genCtx) point() (lat, lon float64) {
	for _, n := range []string{"latitude", "lat"} {
		if v, err := strconv.ParseFloat(c.in[n], 64); err == nil {
			lat = v
		}
	}
	for _, n := range []string{"longitude", "lon"} {
		if v, err := strconv.ParseFloat(c.in[n], 64); err == nil {
			lon = v
		}
	}
	return lat, lon
}

// slug lowers a name and joins its words with "-".
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// title makes "new-york" read "New York".
func title(s string) string {
	words := strings.Fields(strings.ReplaceAll(s, "-", " "))
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}

// slugID gives prefix-slug(src)-hash: an id that carries the name it was made from.
func slugID(prefix, src string) gen {
	return func(c *genCtx) any {
		v := c.value(src)
		return fmt.Sprintf("%s%s-%04x", prefix, slug(v), hashOf(prefix, slug(v))&0xffff)
	}
}

// hashID gives prefix + 8 hex digits of the hash of the sources' values.
func hashID(prefix string, srcs ...string) gen {
	return func(c *genCtx) any {
		parts := []string{prefix}
		for _, s := range srcs {
			parts = append(parts, c.value(s))
		}
		return fmt.Sprintf("%s%08x", prefix, uint32(hashOf(parts...)))
	}
}

// nextMatchID is the id of the next match of the club whose id (made by slugID) is src: the
// club's, whichever provider's id names it (sports' team-arsenal-…, scoreline's
// club-arsenal-…), so that substitutes agree on which match is next.
func nextMatchID(src string) gen {
	return func(c *genCtx) any {
		return fmt.Sprintf("match-%08x", uint32(hashOf("match-", idSlug(c.value(src)))))
	}
}

// ofClub runs g with a random source seeded by the club that src's id names (see
// nextMatchID) and a concept name: both providers give the next match the same rival and day.
func ofClub(concept, src string, g gen) gen {
	return func(c *genCtx) any {
		k := *c
		k.rng = rngOf("club", concept, idSlug(c.value(src)))
		return g(&k)
	}
}

// idSlug returns the slug carried by an id made by slugID: "htl-paris-1a2b" gives "paris".
func idSlug(id string) string {
	if i := strings.IndexByte(id, '-'); i >= 0 {
		id = id[i+1:]
	}
	if j := strings.LastIndexByte(id, '-'); j >= 0 {
		id = id[:j]
	}
	return id
}

// city is a known city of the geocoder.
type city struct {
	country, tz   string
	lat, lon      float64
	population    int
	utcOffsetHour float64
}

// cities are real coordinates for the cities demos ask about; other names get stable
// invented coordinates.
var cities = map[string]city{
	"paris":         {"FR", "Europe/Paris", 48.8566, 2.3522, 2102650, 1},
	"london":        {"GB", "Europe/London", 51.5072, -0.1276, 8866180, 0},
	"berlin":        {"DE", "Europe/Berlin", 52.52, 13.405, 3878100, 1},
	"madrid":        {"ES", "Europe/Madrid", 40.4168, -3.7038, 3332035, 1},
	"rome":          {"IT", "Europe/Rome", 41.9028, 12.4964, 2746984, 1},
	"amsterdam":     {"NL", "Europe/Amsterdam", 52.3676, 4.9041, 921402, 1},
	"new-york":      {"US", "America/New_York", 40.7128, -74.006, 8258035, -5},
	"san-francisco": {"US", "America/Los_Angeles", 37.7749, -122.4194, 808988, -8},
	"tokyo":         {"JP", "Asia/Tokyo", 35.6762, 139.6503, 14094034, 9},
	"beijing":       {"CN", "Asia/Shanghai", 39.9042, 116.4074, 21893095, 8},
	"shanghai":      {"CN", "Asia/Shanghai", 31.2304, 121.4737, 24870895, 8},
	"sydney":        {"AU", "Australia/Sydney", -33.8688, 151.2093, 5450496, 10},
	"singapore":     {"SG", "Asia/Singapore", 1.3521, 103.8198, 5917600, 8},
	"dubai":         {"AE", "Asia/Dubai", 25.2048, 55.2708, 3604030, 4},
	"sao-paulo":     {"BR", "America/Sao_Paulo", -23.5505, -46.6333, 11451245, -3},
	"toronto":       {"CA", "America/Toronto", 43.6532, -79.3832, 2794356, -5},
}

// lookupCity returns the known city of a name (any case, spaces or dashes), or invents a
// stable one.
func lookupCity(name string) city {
	s := slug(name)
	if c, ok := cities[s]; ok {
		return c
	}
	r := rngOf("city", s)
	lat := round(-50+r.Float64()*110, 4)
	lon := round(-170+r.Float64()*340, 4)
	off := math.Round(lon / 15)
	return city{country: []string{"XA", "XB", "XC", "XD"}[r.IntN(4)], tz: fmt.Sprintf("Etc/GMT%+d", int(-off)), lat: lat, lon: lon, population: 50000 + r.IntN(2000000), utcOffsetHour: off}
}

// nearestCity returns the known city closest to a point, or "" when none is within about 1°.
func nearestCity(lat, lon float64) string {
	best, bestD := "", 1.0
	for name, c := range cities {
		if d := math.Hypot(c.lat-lat, c.lon-lon); d < bestD {
			best, bestD = name, d
		}
	}
	return best
}

// cityField computes a field of the city named by src: "latitude", "longitude", "country",
// "timezone" or "population". A src ending in _id is an id made by slugID; its coordinates are
// jittered by up to jitter degrees, as a hotel lies somewhere in its city.
func cityField(src, field string, jitter float64) gen {
	return func(c *genCtx) any {
		v := c.value(src)
		if strings.HasSuffix(src, "_id") {
			v = idSlug(v)
		}
		ct := lookupCity(v)
		j := 0.0
		if jitter > 0 {
			j = (rngOf("jitter", field, c.value(src)).Float64()*2 - 1) * jitter
		}
		switch field {
		case "latitude":
			return round(ct.lat+j, 4)
		case "longitude":
			return round(ct.lon+j, 4)
		case "country":
			return ct.country
		case "timezone":
			return ct.tz
		case "utc_offset":
			return ct.utcOffsetHour
		default:
			return ct.population
		}
	}
}

// placeName names the place at the input coordinates: the nearest known city or a grid name.
func placeName(c *genCtx) string {
	lat, lon := c.point()
	if n := nearestCity(lat, lon); n != "" {
		return title(n)
	}
	return fmt.Sprintf("Grid %+.0f %+.0f", lat, lon)
}

// temperature is a plausible daytime temperature in °C at the input coordinates.
func temperature(offset float64) gen {
	return atPoint("temperature", func(c *genCtx) any {
		lat, _ := c.point()
		return round(31-0.45*math.Abs(lat)+c.rng.Float64()*8-4+offset, 1)
	})
}

// aqi is the US air-quality index at the input coordinates.
var aqi = atPoint("aqi", intn(12, 180))

// aqiCategory names the category of the index computed as field.
func aqiCategory(field string) gen {
	return func(c *genCtx) any {
		n, _ := c.out[field].(int)
		switch {
		case n <= 50:
			return "good"
		case n <= 100:
			return "moderate"
		case n <= 150:
			return "unhealthy_for_sensitive_groups"
		default:
			return "unhealthy"
		}
	}
}

// date is a day in June-August 2025, at most span days after 1 June.
func date(span int) gen {
	return func(c *genCtx) any {
		return time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, c.rng.IntN(span+1)).Format(time.DateOnly)
	}
}

// fn wraps an arbitrary generator function.
func fn(f func(c *genCtx) any) gen { return f }

// intIn reads an integer input, def when absent.
func (c *genCtx) intIn(name string, def int) int {
	if n, err := strconv.Atoi(c.in[name]); err == nil {
		return n
	}
	return def
}

// floatOut reads a number output computed earlier.
func (c *genCtx) floatOut(name string) float64 {
	switch v := c.out[name].(type) {
	case float64:
		return v
	case int:
		return float64(v)
	}
	return 0
}

// seedBytes turns a fault seed into PCG seeds.
func seedBytes(seed uint64) (uint64, uint64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	return hashOf("fault", string(b[:])), seed | 1
}
