package toolworld

// The renamed providers name shared values their own way, as real catalogs do: camelCase
// beside snake_case, a bare id inside a list (results[].id) where the consumer wants a
// track_id, and a role-prefixed input (originStopId) fed by a plain stopId. The renamed
// tasks chain them with each other and with the classic APIs through flows whose output and
// input names differ; the classic tasks never use them.

// renamedDefinitions is the API table of the renamed providers.
func renamedDefinitions() []def {
	return []def{
		// Music.
		{name: "tunes.SearchTracks", provider: "tunes", domain: "music", method: "GET", path: "/tunes/search",
			desc: "Searches the tracks of an artist, best match first.",
			in:   []inp{q("artistName", "string", "Artist name, e.g. Nina Simone.")},
			out: []outp{
				o("resultCount", "integer", "Tracks found.", intn(3, 60)),
				o("results", "array", "Tracks of the artist, best match first.", fn(func(*genCtx) any { return []any{} })),
				item("results", "id", "id", "string", "Id of the track.", slugID("trk-", "artistName")),
				item("results", "title", "title", "string", "Title of the track.", keyedValue("track title", "id", trackTitle)),
				item("results", "artistName", "artistName", "string", "Artist of the track.", echo("artistName")),
				item("results", "durationMs", "durationMs", "integer", "Length in milliseconds.", keyedValue("track length", "id", intn(120000, 420000))),
			}},
		{name: "tunes.Track", provider: "tunes", domain: "music", method: "GET", path: "/tunes/tracks/{trackId}",
			desc: "A track: title, artist, length and release year.",
			in:   []inp{path("trackId", "Track id from tunes.SearchTracks.")},
			out: []outp{
				o("id", "string", "Id of the track.", echo("trackId")),
				o("title", "string", "Title of the track.", keyedValue("track title", "trackId", trackTitle)),
				o("artistName", "string", "Artist of the track.", fn(func(c *genCtx) any { return title(idSlug(c.value("trackId"))) })),
				o("durationMs", "integer", "Length in milliseconds.", keyedValue("track length", "trackId", intn(120000, 420000))),
				o("releaseYear", "integer", "Year of release.", keyedValue("track year", "trackId", intn(1958, 2024))),
			}},
		{name: "lyrico.Lyrics", provider: "lyrico", domain: "music", method: "GET", path: "/lyrico/tracks/{track_id}/lyrics",
			desc: "Lyrics of a track: its first line, line count and language.",
			in:   []inp{path("track_id", "Id of the track.")},
			out: []outp{
				o("first_line", "string", "First line of the lyrics.", keyedValue("lyrics", "track_id",
					pick("I woke up this morning", "Birds flying high, you know how I feel", "Here comes the sun again", "The night is young and so are we", "Take me down to the river"))),
				o("line_count", "integer", "Lines of the lyrics.", keyedValue("lyrics lines", "track_id", intn(12, 80))),
				o("language", "string", "Language of the lyrics.", keyedValue("lyrics language", "track_id", pick("en", "fr", "es", "pt"))),
			}},

		// Routes.
		{name: "routely.FindStop", provider: "routely", domain: "routes", method: "GET", path: "/routely/stops",
			desc: "Finds the main public transport stop of a city.",
			in:   []inp{q("cityName", "string", dCity)},
			out: []outp{
				o("stopId", "string", "Id of the stop.", slugID("stp-", "cityName")),
				o("stopName", "string", "Name of the stop.", fn(func(c *genCtx) any { return title(c.value("cityName")) + " Central" })),
			}},
		{name: "routely.Reachable", provider: "routely", domain: "routes", method: "GET", path: "/routely/reachable",
			desc: "Area and towns reachable by public transport from a stop within a travel time.",
			in:   []inp{q("originStopId", "string", "Stop id to start from."), q("minutes", "integer", "Travel time in minutes.")},
			out: []outp{
				o("reachableAreaKm2", "number", "Area reachable in km².", fn(func(c *genCtx) any {
					return round(float64(c.intIn("minutes", 30))*float64(c.intIn("minutes", 30))*(2+c.rng.Float64()), 1)
				})),
				o("townsReached", "integer", "Towns within reach.", intn(2, 40)),
			}},
	}
}

func trackTitle(c *genCtx) any {
	first := []string{"Feeling", "Blue", "Midnight", "Golden", "Silent", "River", "Summer", "Electric"}
	second := []string{"Good", "Moon", "Train", "Hour", "Heart", "Road", "Rain", "Dreams"}
	return first[c.rng.IntN(len(first))] + " " + second[c.rng.IntN(len(second))]
}

// artists are the artists a renamed task may name.
var artists = []string{"Nina Simone", "Miles Davis", "Aretha Franklin", "David Bowie", "Edith Piaf", "Fela Kuti"}

// renames are the tool world's own truth about data flow across names: an output (keyed
// "API.output", or "*.output" for any API's) and the inputs of other names it feeds. The
// renamed tasks' gold flows come from here; Navi never reads it.
var renames = map[string][]string{
	"*.lat": {"latitude"}, "*.lon": {"longitude"}, "*.latitude": {"lat"}, "*.longitude": {"lon"},
	"*.city_name": {"city", "cityName"}, "*.city": {"city_name", "cityName"},
	"scoreline.ClubMatches.game_id": {"match_id"},
	"tunes.SearchTracks.id":         {"track_id", "trackId"},
	"routely.FindStop.stopId":       {"originStopId"},
}

// feeds reports whether output out of API api binds input in: by the same name, or, for
// renamed tasks, by renames.
func feeds(api, out, in string, renamed bool) bool {
	if out == in {
		return true
	}
	if !renamed {
		return false
	}
	for _, k := range []string{api + "." + out, "*." + out} {
		for _, x := range renames[k] {
			if x == in {
				return true
			}
		}
	}
	return false
}
