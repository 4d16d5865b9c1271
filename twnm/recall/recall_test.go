package recall

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/subgoal"
)

func TestFuseHandComputed(t *testing.T) {
	// BM25 A=4, B=2 scale by the maximum 4 to A=1, B=0.5. Cosines B=.8, C=.6, A=.4 scale by
	// the maximum .8 to B=1, C=.75, A=.5. With w = 0.5:
	//   A = .5·1 + .5·.5 = .75,  B = .5·.5 + .5·1 = .75,  C = .5·0 + .5·.75 = .375,
	// rescaled by the best (.75): A = B = 1 (A first by name), C = .5.
	got := Fuse([]Hit{{Name: "A", Score: 4}, {Name: "B", Score: 2}}, []Hit{{Name: "B", Score: .8}, {Name: "C", Score: .6}, {Name: "A", Score: .4}}, 0.5)
	require.Len(t, got, 3)
	want := []struct {
		name         string
		score        float64
		lexical, cos float64
	}{{"A", 1, 4, .4}, {"B", 1, 2, .8}, {"C", .5, 0, .6}}
	for i, w := range want {
		assert.Equal(t, w.name, got[i].Name)
		assert.InDelta(t, w.score, got[i].Score, 1e-12, w.name)
		assert.Equal(t, w.lexical, got[i].Lexical, w.name)
		assert.Equal(t, w.cos, got[i].Dense, w.name)
	}
}

func TestFuseEdgeCases(t *testing.T) {
	tests := []struct {
		name       string
		lex, dense []Hit
		w          float64
		want       []string
	}{
		{"lexical only", []Hit{{Name: "b", Score: 1}, {Name: "a", Score: 1}}, nil, 0, []string{"a", "b"}}, // ties by name
		{"dense only", nil, []Hit{{Name: "x", Score: .9}, {Name: "y", Score: .1}}, 1, []string{"x", "y"}},
		{"one dense hit", nil, []Hit{{Name: "x", Score: .3}}, 1, []string{"x"}},
		{"a negative cosine counts nothing", nil, []Hit{{Name: "x", Score: .5}, {Name: "y", Score: -.2}}, 1, []string{"x", "y"}},
		{"nothing", nil, nil, .5, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Fuse(tt.lex, tt.dense, tt.w)
			names := []string{}
			for _, c := range got {
				names = append(names, c.Name)
				assert.LessOrEqual(t, c.Score, 1.0)
				assert.GreaterOrEqual(t, c.Score, 0.0)
			}
			assert.Equal(t, tt.want, names)
		})
	}
}

// links is a fixed data-flow relation for Choose's tests.
type links struct {
	feeds     map[[2]string]bool
	producers map[string][]Need
	apis      map[string]twnm.API
}

func (l links) Feeds(p, c string) bool      { return l.feeds[[2]string{p, c}] }
func (l links) Producers(api string) []Need { return l.producers[api] }
func (l links) API(api string) (twnm.API, bool) {
	a, ok := l.apis[api]
	return a, ok
}

// needOf declares that producer gives consumer's required input in.
func needOf(consumer, in, producer string) map[string][]Need {
	return map[string][]Need{consumer: {{Inputs: []string{in}, Producers: []Producer{{Name: producer}}}}}
}

// getAt is an API of provider (its source too) that reads path by GET, with required string
// inputs in the path.
func getAt(name, provider, path string, inputs ...string) twnm.API {
	a := twnm.API{Name: name, Provider: provider, Source: provider, Endpoint: &twnm.Endpoint{Method: "GET", Path: path}}
	for _, in := range inputs {
		a.Inputs = append(a.Inputs, twnm.Param{Name: in, Type: "string", Required: true, In: twnm.InPath})
	}
	return a
}

// chooseWhole runs Choose on a request of one goal, the whole request, with cands.
func chooseWhole(t *testing.T, l Links, request string, cands ...Match) *Result {
	t.Helper()
	r := &Result{Goals: []Goal{goal(0, true, cands...)}}
	r.Goals[0].Text = request
	require.NoError(t, Choose(r, l, Options{}))
	return r
}

func goal(order int, whole bool, cands ...Match) Goal {
	text := fmt.Sprintf("part %d", order) // a part's words differ from the whole request's
	if whole {
		text = "the whole request"
	}
	return Goal{Goal: subgoal.Goal{Order: order, Text: text, Whole: whole}, Candidates: cands, Relevant: true}
}

// withText is g with the text t.
func withText(g Goal, t string) Goal {
	g.Text = t
	return g
}

// withBest is g with the similarity Best.
func withBest(g Goal, b float64) Goal {
	g.Best = b
	return g
}

func TestChooseConsumerBecomesFinal(t *testing.T) {
	// Final scores: P = (1 + .9)/2 = .95, C = (.8 + 1)/2 = .9, X = 0. P leads; C consumes P's
	// output and .9 ≥ .7·.95, so C is the final step and P its producer.
	r := &Result{Goals: []Goal{
		goal(0, false, Match{Name: "P", Score: 1}, Match{Name: "X", Score: .5}),
		goal(1, false, Match{Name: "C", Score: 1}, Match{Name: "P", Score: .9}),
		goal(2, true, Match{Name: "P", Score: 1}, Match{Name: "C", Score: .8}),
	}}
	l := links{feeds: map[[2]string]bool{{"P", "C"}: true}, producers: map[string][]Need{"C": {{Inputs: []string{"movie_id"}, Producers: []Producer{{Name: "Q"}, {Name: "P"}}}}},
		apis: map[string]twnm.API{"P": {Name: "P", Description: "top rated movies"},
			"C": {Name: "C", Description: "credits: who directed or acted in a movie", Inputs: []twnm.Param{{Name: "movie_id"}}}}}
	r.Goals[2].Text = "Who directed the top rated movie?"
	require.NoError(t, Choose(r, l, Options{}))
	assert.Equal(t, "C", r.Final)
	assert.Equal(t, []string{"C", "P", "X"}, r.Ranked)
	assert.Equal(t, []string{"P", "C"}, []string(r.Chain))

	// Without the graph, relevance alone keeps P.
	r2 := &Result{Goals: r.Goals}
	require.NoError(t, Choose(r2, l, Options{NoGraph: true}))
	assert.Equal(t, "P", r2.Final)
	assert.Equal(t, []string{"P"}, []string(r2.Chain))
}

func TestChooseSkipsARemark(t *testing.T) {
	// The last clause is a remark no tool is relevant to: the clause before it is the last
	// part read (see remarkShare). A = (1 + 1)/2 = 1 against B = (.9 + .5)/2 = .7; had the remark counted, B
	// would lead with (.9 + 1)/2 = .95 against A's (1 + 0)/2.
	songs := goal(0, false, Match{Name: "A", Score: 1}, Match{Name: "B", Score: .5})
	remark := goal(1, false, Match{Name: "B", Score: 1})
	remark.Relevant = false
	r := &Result{Goals: []Goal{songs, remark, goal(2, true, Match{Name: "A", Score: 1}, Match{Name: "B", Score: .9})}}
	require.NoError(t, Choose(r, links{}, Options{}))
	assert.Equal(t, "A", r.Final)
	assert.InDelta(t, .7, r.Scores["B"], 1e-12)

	// Nor does the remark's head vote: read, it would give B (.9 + .5 + 1)/3 = .8 against A's
	// (1 + 1 + 0)/3.
	r = &Result{Goals: []Goal{songs, remark, goal(2, true, Match{Name: "A", Score: 1}, Match{Name: "B", Score: .9})}}
	focus := goal(3, false, Match{Name: "B", Score: 1})
	r.Focus = &focus
	require.NoError(t, Choose(r, links{}, Options{}))
	assert.Equal(t, "A", r.Final)

	// So is a relevant one hardly as close to a tool as the request's best part (.25 under half
	// of .6): "Need something for the gym" after "Got any playlists from the Workout category?".
	songs.Best, remark.Relevant, remark.Best = .6, true, .25
	r = &Result{Goals: []Goal{songs, remark, goal(2, true, Match{Name: "A", Score: 1}, Match{Name: "B", Score: .9})}}
	require.NoError(t, Choose(r, links{}, Options{}))
	assert.Equal(t, "A", r.Final)
	remark.Best = .3 // half of it: a part of its own
	r = &Result{Goals: []Goal{songs, remark, goal(2, true, Match{Name: "A", Score: 1}, Match{Name: "B", Score: .9})}}
	require.NoError(t, Choose(r, links{}, Options{}))
	assert.Equal(t, "B", r.Final)

	// Where no part is relevant, the last is read as before.
	remark.Relevant = false
	songs.Relevant = false
	r = &Result{Goals: []Goal{songs, remark, goal(2, true, Match{Name: "A", Score: 1}, Match{Name: "B", Score: .9})}}
	require.NoError(t, Choose(r, links{}, Options{}))
	assert.Equal(t, "B", r.Final)
}

func TestChooseFocusNamesTheFinalStep(t *testing.T) {
	// "Who directed the top rated movie?": the clause and the whole request find the top-rated
	// list (P), the head "Who directed" the credits (C). Final scores, the mean of the three:
	// P = (1 + 1 + .2)/3 = .733, C = (.3 + .3 + 1)/3 = .533. C is under ConsumerRatio·P, so
	// the consumer's move leaves P; but P scores .2 < .7 for the head and feeds C, so C is
	// the final step.
	l := links{feeds: map[[2]string]bool{{"P", "C"}: true}, producers: needOf("C", "movie_id", "P"),
		apis: map[string]twnm.API{"P": {Name: "P"}, "C": {Name: "C", Inputs: []twnm.Param{{Name: "movie_id"}}}}}
	result := func(headP float64) *Result {
		r := &Result{Goals: []Goal{
			goal(0, false, Match{Name: "P", Score: 1}, Match{Name: "C", Score: .3}),
			goal(1, true, Match{Name: "P", Score: 1}, Match{Name: "C", Score: .3}),
		}}
		f := goal(0, false, Match{Name: "C", Score: 1}, Match{Name: "P", Score: headP})
		r.Focus = &f
		return r
	}
	r := result(.2)
	require.NoError(t, Choose(r, l, Options{}))
	assert.Equal(t, "C", r.Final)
	assert.Equal(t, []string{"P", "C"}, []string(r.Chain))
	assert.InDelta(t, .7333, r.Scores["P"], 1e-3)
	assert.InDelta(t, .7333, r.Scores["C"], 1e-3, "the chosen final step has the best score")

	// A leader the head asks for too stays the final step.
	r = result(.8)
	require.NoError(t, Choose(r, l, Options{}))
	assert.Equal(t, "P", r.Final)

	// The head's tool must consume the leader's output.
	r = result(.2)
	require.NoError(t, Choose(r, links{apis: l.apis}, Options{}))
	assert.Equal(t, "P", r.Final)

	// The head's best finalist that does, scoring at least ConsumerRatio for the head: "the
	// lead actor in the most popular TV show" is the show's credits (T, .8), not a movie's
	// (C, 1), which the list of shows does not feed. Under .7 for the head, it does not move.
	for _, tc := range []struct {
		tv   float64
		want string
	}{{.8, "T"}, {.6, "P"}} {
		r = result(.2)
		r.Focus.Candidates = append(r.Focus.Candidates, Match{Name: "T", Score: tc.tv})
		sortCandidates(r.Focus.Candidates)
		lt := links{feeds: map[[2]string]bool{{"P", "T"}: true}, producers: needOf("T", "tv_id", "P"), apis: map[string]twnm.API{"P": {Name: "P"}, "C": {Name: "C"}, "T": {Name: "T"}}}
		require.NoError(t, Choose(r, lt, Options{}))
		assert.Equal(t, tc.want, r.Final, "T scores %v for the head", tc.tv)
	}
}

func TestChooseCountsEachViewOnce(t *testing.T) {
	// "Find a hotel in the place at latitude 51.5, longitude -0.1.": one clause, the whole
	// request without its full stop. Its scores count once beside the head's: for the place
	// finder (P, 1 for the request, .45 for the head "Find a hotel") (1 + .45)/2 = .725, for
	// the hotel finder (H, .7 and 1) (.7 + 1)/2 = .85, so H is final. Counted twice, the
	// request would outweigh its head two to one: P (1 + 1 + .45)/3 = .817 against
	// H (.7 + .7 + 1)/3 = .8.
	clause := goal(0, false, Match{Name: "P", Score: 1}, Match{Name: "H", Score: .7})
	clause.Text = "Find a hotel in the place at latitude 51.5, longitude -0.1"
	whole := goal(1, true, Match{Name: "P", Score: 1}, Match{Name: "H", Score: .7})
	whole.Text = clause.Text + "."
	head := goal(0, false, Match{Name: "H", Score: 1}, Match{Name: "P", Score: .45})
	head.Text = "Find a hotel"
	r := &Result{Goals: []Goal{clause, whole}, Focus: &head}
	require.NoError(t, Choose(r, nil, Options{}))
	assert.Equal(t, "H", r.Final)
	assert.InDelta(t, .85, r.Scores["H"], 1e-9)
	assert.InDelta(t, .725, r.Scores["P"], 1e-9)

	// A clause that is a part of the request is a view of its own: (1 + 1 + .45)/3 for P.
	r.Goals[1].Text = "Find a hotel in the place at latitude 51.5, longitude -0.1, and book it."
	require.NoError(t, Choose(r, nil, Options{}))
	assert.InDelta(t, (1+1+.45)/3, r.Scores["P"], 1e-9)
}

func TestChooseConsumerMustAddWhatIsAsked(t *testing.T) {
	// Clothing consumes the weather's conditions and scores .9 of it, but the request's words
	// it matches beyond the weather API ("conditions") name its input: the weather stays final.
	r := &Result{Goals: []Goal{
		goal(0, true, Match{Name: "Weather", Score: 1}, Match{Name: "Clothing", Score: .9}),
	}}
	r.Goals[0].Text = "Check the current weather conditions in New York City."
	l := links{feeds: map[[2]string]bool{{"Weather", "Clothing"}: true}, producers: needOf("Clothing", "weather_conditions", "Weather"),
		apis: map[string]twnm.API{"Weather": {Name: "GetWeather", Description: "current weather at coordinates"},
			"Clothing": {Name: "ClothingRecommendation", Description: "clothing recommendations based on weather conditions",
				Inputs: []twnm.Param{{Name: "temperature"}, {Name: "humidity"}, {Name: "weather_conditions"}}}}}
	require.NoError(t, Choose(r, l, Options{}))
	assert.Equal(t, "Weather", r.Final)

	// Asked for what to wear, clothing is what the request wants out of the chain.
	r.Goals[0].Text = "What clothing should I wear given the weather in New York City?"
	require.NoError(t, Choose(r, l, Options{}))
	assert.Equal(t, "Clothing", r.Final)
}

func TestChooseConsumerTakesAStatedNumber(t *testing.T) {
	// The stop search leads (1, .8 for the reachable area it feeds), and every word of the
	// request the area's document holds is the search's too; but the request states the
	// minutes the area takes, a number the search has no input for: the area is final. Without
	// the minutes, the search stays.
	l := links{feeds: map[[2]string]bool{{"FindStop", "Reachable"}: true},
		producers: map[string][]Need{"Reachable": {{Inputs: []string{"originStopId"}, Producers: []Producer{{Name: "FindStop"}}}}},
		apis: map[string]twnm.API{
			"FindStop": {Name: "FindStop", Description: "Finds the main public transport stop of a city.",
				Inputs: []twnm.Param{{Name: "cityName", Type: "string", Required: true}}, Outputs: []twnm.Param{{Name: "stopId"}}},
			"Reachable": {Name: "Reachable", Description: "Towns reachable by public transport from a stop.",
				Inputs:  []twnm.Param{{Name: "originStopId", Type: "string", Required: true}, {Name: "minutes", Type: "integer", Required: true}},
				Outputs: []twnm.Param{{Name: "townsReached"}}}}}
	book := l.apis["Reachable"]
	book.Name, book.Endpoint = "Reserve", &twnm.Endpoint{Method: "POST", Path: "/reserve"}
	l.apis["Reserve"] = book
	l.feeds[[2]string{"FindStop", "Reserve"}] = true
	assertFinals(t, l, []Match{{Name: "FindStop", Score: 1}, {Name: "Reachable", Score: .8}},
		finalCase{"How far can I get by public transport from Munich's main stop in 30 minutes?", "Reachable"},
		finalCase{"How far can I get by public transport from Munich's main stop?", "FindStop"},
	)
	// A number the leader takes too, under another name, moves nothing.
	near := links{feeds: map[[2]string]bool{{"Near", "Homes"}: true}, apis: map[string]twnm.API{
		"Near":  {Name: "Near", Description: "Places near a point.", Inputs: []twnm.Param{{Name: "lat", Type: "number", Required: true}}},
		"Homes": {Name: "Homes", Description: "Homes at a place.", Inputs: []twnm.Param{{Name: "place_id", Type: "string", Required: true}, {Name: "latitude", Type: "number", Required: true}}}}}
	r0 := &Result{Goals: []Goal{goal(0, true, Match{Name: "Near", Score: 1}, Match{Name: "Homes", Score: .8})}}
	r0.Goals[0].Text = "places near latitude 52.5"
	require.True(t, statedInputs(r0.Goals[0].Text, near, "Homes")["latitude"] && statedInputs(r0.Goals[0].Text, near, "Near")["lat"])
	require.NoError(t, Choose(r0, near, Options{}))
	assert.Equal(t, "Near", r0.Final)
	// A consumer that books takes no lead for the number it would take.
	r := &Result{Goals: []Goal{goal(0, true, Match{Name: "FindStop", Score: 1}, Match{Name: "Reserve", Score: .8})}}
	r.Goals[0].Text = "the public transport stop of Munich for 30 minutes"
	require.NoError(t, Choose(r, l, Options{}))
	assert.Equal(t, "FindStop", r.Final)
}

func TestChooseLeaderKeepsAStatedDate(t *testing.T) {
	// The hotel search and the prices it feeds tie. The request names the hotel, which the
	// search gives, and nothing the prices give: the reverse move would hand the lead to the
	// search. But the prices take the stated day, which the search does not (it is optional
	// there, and stated reads required inputs), and they cannot feed the search: the day
	// would go unused, so the prices stay. Without the day, the search leads.
	l := links{feeds: map[[2]string]bool{{"SearchHotels", "HotelPrices"}: true},
		producers: map[string][]Need{"HotelPrices": {{Inputs: []string{"hotel_id"}, Producers: []Producer{{Name: "SearchHotels"}}}}},
		apis: map[string]twnm.API{
			"SearchHotels": {Name: "SearchHotels", Description: "Finds the best hotel in a city.",
				Inputs:  []twnm.Param{{Name: "city", Type: "string", Required: true}, {Name: "check_in", Type: "string", Description: "Arrival day, YYYY-MM-DD."}},
				Outputs: []twnm.Param{{Name: "hotel_id"}, {Name: "hotel_name"}}},
			"HotelPrices": {Name: "HotelPrices", Description: "Price of a stay at a hotel.",
				Inputs: []twnm.Param{{Name: "hotel_id", Type: "string", Required: true},
					{Name: "check_in", Type: "string", Description: "Arrival day, YYYY-MM-DD.", Required: true}},
				Outputs: []twnm.Param{{Name: "total_price"}}}}}
	assertFinals(t, l, []Match{{Name: "HotelPrices", Score: 1}, {Name: "SearchHotels", Score: 1}},
		finalCase{"How much would the best hotel in Amsterdam cost from 2026-12-20?", "HotelPrices"},
		finalCase{"How much would the best hotel in Amsterdam cost?", "SearchHotels"},
	)
}

// finalCase is a request and the final step Choose should pick for it.
type finalCase struct{ text, want string }

// assertFinals chooses the final step of each case's request, one clause ranked as ranked,
// over l.
func assertFinals(t *testing.T, l links, ranked []Match, cases ...finalCase) {
	t.Helper()
	for _, tc := range cases {
		r := &Result{Goals: []Goal{goal(0, true, ranked...)}}
		r.Goals[0].Text = tc.text
		require.NoError(t, Choose(r, l, Options{}))
		assert.Equal(t, tc.want, r.Final, tc.text)
	}
}

func TestChooseLeaderKeepsAStatedCode(t *testing.T) {
	// "How much is listing lst-0515bb06 worth?": the details lead, and the request's words
	// they match ("listing") name their input, which the listings search gives: the reverse
	// move would hand the lead to the search. But the details take the stated id, read by its
	// shape as a number is, which the search does not take and they cannot feed: it stays.
	// Without the id, the search that gives the listing and its price leads.
	l := links{feeds: map[[2]string]bool{{"Listings", "ListingDetails"}: true},
		apis: map[string]twnm.API{
			"Listings": {Name: "homes.Listings", Description: "Homes for sale near a point.",
				Inputs:  []twnm.Param{{Name: "latitude", Type: "number", Required: true}, {Name: "longitude", Type: "number", Required: true}},
				Outputs: []twnm.Param{{Name: "listing_id"}, {Name: "price"}}},
			"ListingDetails": {Name: "homes.ListingDetails", Description: "Details of a listing.",
				Inputs:  []twnm.Param{{Name: "listing_id", Type: "string", Required: true}},
				Outputs: []twnm.Param{{Name: "year_built"}}}}}
	assertFinals(t, l, []Match{{Name: "ListingDetails", Score: 1}, {Name: "Listings", Score: .9}},
		finalCase{"How much is listing lst-0515bb06 worth?", "ListingDetails"},
		finalCase{"What is the price of the listing?", "Listings"},
	)
}

func TestChooseLeaderTellsMoreThanItsSearch(t *testing.T) {
	// "Does the top hotel in Dubai have a pool?": the details lead, and the only word of the
	// request the search gives (hotel) names the id the details take: the search finds what
	// the details are about and does not tell its amenities, so the details stay final. Where
	// the details tell nothing the search does not, the search that gives the hotel answers.
	// So does it where the request asks for hotels themselves: in the plural, or which hotel.
	search := twnm.API{Name: "SearchHotels", Description: "Finds the best hotel in a city.",
		Inputs:  []twnm.Param{{Name: "city", Type: "string", Required: true}},
		Outputs: []twnm.Param{{Name: "hotel_id"}, {Name: "hotel_name"}, {Name: "stars"}}}
	for _, tc := range []struct {
		name    string
		outputs []twnm.Param
		want    string
	}{
		{"details tell more", []twnm.Param{{Name: "hotel_name"}, {Name: "amenities"}}, "Details"},
		{"details tell nothing more", []twnm.Param{{Name: "hotel_name"}, {Name: "stars"}}, "Search"},
	} {
		l := links{feeds: map[[2]string]bool{{"Search", "Details"}: true}, producers: needOf("Details", "hotel_id", "Search"),
			apis: map[string]twnm.API{"Search": search,
				"Details": {Name: "HotelDetails", Description: "Details of a hotel.",
					Inputs: []twnm.Param{{Name: "hotel_id", Type: "string", Required: true}}, Outputs: tc.outputs}}}
		r := &Result{Goals: []Goal{goal(0, true, Match{Name: "Details", Score: 1}, Match{Name: "Search", Score: .95})}}
		r.Goals[0].Text = "Does the top hotel in Dubai have a pool?"
		require.NoError(t, Choose(r, l, Options{}), tc.name)
		assert.Equal(t, tc.want, r.Final, tc.name)
		// Asked for hotels themselves, the search that finds them answers.
		for _, text := range []string{"Find the top hotels in Dubai", "Which hotel in Dubai has a pool?"} {
			r = &Result{Goals: []Goal{goal(0, true, Match{Name: "Details", Score: 1}, Match{Name: "Search", Score: .95})}}
			r.Goals[0].Text = text
			require.NoError(t, Choose(r, l, Options{}), text)
			assert.Equal(t, "Search", r.Final, text)
		}
	}
}

func TestChooseListThatTellsAllTheLookupTells(t *testing.T) {
	// "I need the build hook URL for my marketing-site": the lookup of one hook by its id leads,
	// but the request states no id, and the list of the site's hooks, which gives it, gives the
	// URL and every other output of the lookup: the list is the final step. A lookup that
	// tells more, one whose id the request states, or a list of another resource keeps the
	// lead.
	hookOutputs := []twnm.Param{{Name: "id"}, {Name: "url"}, {Name: "title"}}
	api := func(name, path string, inputs, outputs []twnm.Param) twnm.API {
		return twnm.API{Name: name, Provider: "netlify", Endpoint: &twnm.Endpoint{Method: "GET", Path: path}, Inputs: inputs, Outputs: outputs}
	}
	siteID := twnm.Param{Name: "site_id", Type: "string", Required: true}
	hookID := twnm.Param{Name: "id", Type: "string", Required: true}
	for _, tc := range []struct {
		name, request, listPath string
		lookupOutputs           []twnm.Param
		want                    string
	}{
		{"the list tells all", "I need the build hook URL for my site", "/sites/{site_id}/build_hooks", hookOutputs, "List"},
		{"the lookup tells more", "I need the build hook URL for my site", "/sites/{site_id}/build_hooks",
			append(slices.Clone(hookOutputs), twnm.Param{Name: "branch"}), "Get"},
		{"the id is stated", "I need the URL of the build hook with id 5f3a9c1e8b7d2a0012e4c6f1", "/sites/{site_id}/build_hooks", hookOutputs, "Get"},
		{"another resource", "I need the build hook URL for my site", "/sites/{site_id}/deploys", hookOutputs, "Get"},
	} {
		l := links{feeds: map[[2]string]bool{{"List", "Get"}: true},
			producers: map[string][]Need{"Get": {{Inputs: []string{"id"}, Producers: []Producer{{Name: "List"}}}}},
			apis: map[string]twnm.API{
				"List": api("listSiteBuildHooks", tc.listPath, []twnm.Param{siteID}, hookOutputs),
				"Get":  api("getSiteBuildHook", "/sites/{site_id}/build_hooks/{id}", []twnm.Param{siteID, hookID}, tc.lookupOutputs)}}
		r := chooseWhole(t, l, tc.request, Match{Name: "Get", Score: 1}, Match{Name: "List", Score: .6})
		assert.Equal(t, tc.want, r.Final, tc.name)
	}
}

func TestChooseThePartOfTheItemNamed(t *testing.T) {
	// "Who's in the Marketing Ops group?": the list of groups leads, but the request names one
	// group, which the list gives by its id: the final step reads a part of that group, its
	// memberships, not the group's own lookup, which tells nothing the list does not. Without a
	// named group, the list stays.
	api := func(name, path string, inputs []twnm.Param, outputs ...string) twnm.API {
		a := twnm.API{Name: name, Provider: "box", Source: "box", Endpoint: &twnm.Endpoint{Method: "GET", Path: path}, Inputs: inputs}
		for _, o := range outputs {
			a.Outputs = append(a.Outputs, twnm.Param{Name: o})
		}
		return a
	}
	groupID := []twnm.Param{{Name: "group_id", Type: "string", Required: true, In: twnm.InPath}}
	l := links{feeds: map[[2]string]bool{{"Groups", "Memberships"}: true, {"Groups", "Group"}: true},
		producers: map[string][]Need{
			"Memberships": {{Inputs: []string{"group_id"}, Producers: []Producer{{Name: "Groups"}}}},
			"Group":       {{Inputs: []string{"group_id"}, Producers: []Producer{{Name: "Groups"}}}}},
		apis: map[string]twnm.API{
			"Groups":      api("Groups", "/groups", nil, "id", "name", "description"),
			"Group":       api("Group", "/groups/{group_id}", groupID, "id", "name"),
			"Memberships": api("Memberships", "/groups/{group_id}/memberships", groupID, "user", "role")}}
	for _, tc := range []struct{ request, want string }{
		{"Who's in the Marketing Ops group?", "Memberships"},
		{"Who's in our groups?", "Groups"},
	} {
		r := chooseWhole(t, l, tc.request, Match{Name: "Groups", Score: 1}, Match{Name: "Group", Score: .7}, Match{Name: "Memberships", Score: .5})
		assert.Equal(t, tc.want, r.Final, tc.request)
	}
}

func TestChooseSiblingPickingOnlyNamedItems(t *testing.T) {
	// "Show me all the public channels in our "Support Desk" chat service": a user's channels
	// lead, but they need a user the request neither names nor states, of the users some
	// candidate lists; the service's own channels need only the service it names, and are the
	// final step. Where the request names the user too, the user's channels stay.
	l := links{apis: map[string]twnm.API{
		"Services":     getAt("Services", "chat", "/Services"),
		"Users":        getAt("Users", "chat", "/Services/{ServiceSid}/Users", "ServiceSid"),
		"Channels":     getAt("Channels", "chat", "/Services/{ServiceSid}/Channels", "ServiceSid"),
		"UserChannels": getAt("UserChannels", "chat", "/Services/{ServiceSid}/Users/{UserSid}/Channels", "ServiceSid", "UserSid"),
	}}
	cands := []Match{{Name: "UserChannels", Score: 1}, {Name: "Channels", Score: .8}, {Name: "Services", Score: .6}, {Name: "Users", Score: .5}}
	for _, tc := range []struct{ request, want string }{
		{`Show me all the public channels in our "Support Desk" chat service`, "Channels"},
		{`Show me the channels of the user "Maria" in our "Support Desk" chat service`, "UserChannels"},
	} {
		r := chooseWhole(t, l, tc.request, cands...)
		assert.Equal(t, tc.want, r.Final, tc.request)
	}
}

func TestWrittenInDigits(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want bool
	}{
		{"2026-12-20", true}, {"20:00", true}, {"3", true}, {"1,250.50", true}, {"2026-12-20T20:00", true},
		{"Amsterdam", false}, {"trk-12345", false}, {"-", false}, {"", false},
	} {
		assert.Equal(t, tc.want, writtenInDigits(tc.v), tc.v)
	}
}

func TestChooseConsumerGivesWhatTheRequestAsks(t *testing.T) {
	// "What amenities does the best hotel in Vienna have?": the hotel search leads (1, .8 for
	// the details); the request's words in the details' document are the search's too, but
	// the head asks for amenities, an output only the details give: they are the final step.
	// A head that asks for what both give (stars) leaves the search final. A word after the
	// head asks as well: "When was the best hotel in Vienna built?" is the details' year_built.
	l := links{feeds: map[[2]string]bool{{"Search", "Details"}: true}, producers: needOf("Details", "hotel_id", "Search"),
		apis: map[string]twnm.API{
			"Search": {Name: "SearchHotels", Description: "Finds the best hotel in a city.", Inputs: []twnm.Param{{Name: "city"}},
				Outputs: []twnm.Param{{Name: "hotel_id"}, {Name: "stars"}}},
			"Details": {Name: "HotelDetails", Description: "Details of a hotel.", Inputs: []twnm.Param{{Name: "hotel_id"}},
				Outputs: []twnm.Param{{Name: "stars"}, {Name: "amenities"}, {Name: "year_built"}}}}}
	for _, tc := range []struct{ head, rest, want string }{
		{"What amenities does the best hotel", " in Vienna have?", "Details"},
		{"How many stars does the best hotel", " in Vienna have?", "Search"},
		{"When was the best hotel", " in Vienna built?", "Details"},
		{"When was the best hotel", " in Vienna opened?", "Search"},
	} {
		r := &Result{Goals: []Goal{goal(0, true, Match{Name: "Search", Score: 1}, Match{Name: "Details", Score: .8})}}
		r.Goals[0].Text = tc.head + tc.rest
		f := goal(0, false, Match{Name: "Search", Score: 1}, Match{Name: "Details", Score: .8})
		f.Text = tc.head
		r.Focus = &f
		require.NoError(t, Choose(r, l, Options{}))
		assert.Equal(t, tc.want, r.Final, tc.head)
	}
}

func TestChooseProducerOfWhatIsAsked(t *testing.T) {
	// The reverse geocoder leads (1 against .9) but the request's words it matches (latitude,
	// longitude) only name what it takes, read as concepts read them (lat is latitude); the
	// geocoder feeds it and gives them: the geocoder is final, though each feeds the other.
	r := &Result{Goals: []Goal{
		goal(0, true, Match{Name: "Reverse", Score: 1}, Match{Name: "Locate", Score: .9}),
	}}
	r.Goals[0].Text = "What are the latitude and longitude of Toronto?"
	l := links{feeds: map[[2]string]bool{{"Locate", "Reverse"}: true, {"Reverse", "Locate"}: true},
		apis: map[string]twnm.API{
			"Reverse": {Name: "opengeo.Reverse", Description: "Names the place at a latitude and longitude.",
				Inputs: []twnm.Param{{Name: "lat"}, {Name: "lon"}}, Outputs: []twnm.Param{{Name: "city_name"}}},
			"Locate": {Name: "opengeo.Locate", Description: "Locates a city: latitude and longitude of a place name.",
				Inputs: []twnm.Param{{Name: "city_name"}}, Outputs: []twnm.Param{{Name: "lat"}, {Name: "lon"}}}}}
	require.NoError(t, Choose(r, l, Options{}))
	assert.Equal(t, "Locate", r.Final)

	// Asked for the place at a point, the reverse geocoder answers: "place" is its own word.
	r.Goals[0].Text = "Which place is at latitude 43.65, longitude -79.38?"
	require.NoError(t, Choose(r, l, Options{}))
	assert.Equal(t, "Reverse", r.Final)

	// A geocoder that echoes the city it takes gives no city: asked for the city at a point,
	// it yields to the reverse geocoder; its "city" output would keep the lead. Asked where a
	// city it is told is, it keeps it: it takes the city the request states.
	echo := links{feeds: l.feeds, apis: map[string]twnm.API{
		"Locate": {Name: "geo.Geocode", Description: "Finds the coordinates of a city by name.",
			Inputs:  []twnm.Param{{Name: "city", Type: "string", Required: true}},
			Outputs: []twnm.Param{{Name: "city"}, {Name: "latitude"}, {Name: "longitude"}}},
		"Reverse": {Name: "geo.ReverseGeocode", Description: "Finds the city and address at a point.",
			Inputs:  []twnm.Param{{Name: "latitude"}, {Name: "longitude"}},
			Outputs: []twnm.Param{{Name: "city"}, {Name: "address"}}}}}
	assertFinals(t, echo, []Match{{Name: "Locate", Score: 1}, {Name: "Reverse", Score: .97}},
		finalCase{"What city is at 40.4168, -3.7038?", "Reverse"},
		finalCase{"Where is the city of Madrid?", "Locate"},
	)

	// A finalist's echo counts where the request states what it echoes: the episode details
	// are about the episode "the third episode of the second season" names; asked how many
	// episodes a show has, the show's details give their number.
	episode := []twnm.Param{{Name: "show_id", Type: "integer", Required: true}, {Name: "season_number", Type: "integer", Required: true},
		{Name: "episode_number", Type: "integer", Required: true}}
	shows := links{feeds: map[[2]string]bool{{"Details", "Credits"}: true, {"Show", "Credits"}: true, {"Credits", "Details"}: true, {"Credits", "Show"}: true},
		apis: map[string]twnm.API{
			"Credits": {Name: "EpisodeCredits", Description: "Cast of an episode.", Inputs: episode,
				Outputs: []twnm.Param{{Name: "id"}, {Name: "cast"}}},
			"Details": {Name: "EpisodeDetails", Description: "Details of an episode.", Inputs: episode,
				Outputs: []twnm.Param{{Name: "season_number"}, {Name: "episode_number"}, {Name: "overview"}}},
			"Show": {Name: "ShowDetails", Description: "Details of a show.", Inputs: []twnm.Param{{Name: "show_id", Type: "integer", Required: true}},
				Outputs: []twnm.Param{{Name: "number_of_episodes"}, {Name: "show_id"}}}}}
	assertFinals(t, shows, []Match{{Name: "Credits", Score: 1}, {Name: "Details", Score: .9}, {Name: "Show", Score: .85}},
		finalCase{"How many episodes does Friends have?", "Show"},
		finalCase{"What happens in the third episode of the second season of Friends?", "Details"},
	)

	// A word of an output's name that names an input says what the API was given: the hotel of
	// the details' hotel_name is the hotel they take by its id. "What hotels are there in
	// Lisbon?" asks for the search; "what amenities does it have" for the details.
	hotels := links{feeds: map[[2]string]bool{{"Search", "Details"}: true},
		apis: map[string]twnm.API{
			"Search": {Name: "stay.SearchHotels", Description: "Finds the best hotel in a city.",
				Inputs:  []twnm.Param{{Name: "city", Type: "string", Required: true}},
				Outputs: []twnm.Param{{Name: "hotel_id"}, {Name: "hotel_name"}}},
			"Details": {Name: "stay.HotelDetails", Description: "Details of a hotel.",
				Inputs:  []twnm.Param{{Name: "hotel_id", Type: "string", Required: true}},
				Outputs: []twnm.Param{{Name: "hotel_name"}, {Name: "amenities"}}}}}
	assertFinals(t, hotels, []Match{{Name: "Details", Score: 1}, {Name: "Search", Score: .98}},
		finalCase{"What hotels are there in Lisbon?", "Search"},
		finalCase{"What amenities does the best hotel in Lisbon have?", "Details"},
	)

	// What the request asks for is its head: the reviews lead, and the restaurant they take
	// is what the request asks about, so the search that gives it does not take their place.
	// Without the head every word the reviews match names their input, but the search only
	// finds the restaurant they take by its id, and tells nothing of what people say: the
	// reviews stay (findsOnlyItsSubject).
	food := links{feeds: map[[2]string]bool{{"Search", "Reviews"}: true},
		apis: map[string]twnm.API{
			"Search": {Name: "dine.Search", Description: "Finds the best restaurant near a point.",
				Inputs: []twnm.Param{{Name: "city"}}, Outputs: []twnm.Param{{Name: "restaurant_id"}, {Name: "name"}}},
			"Reviews": {Name: "dine.Reviews", Description: "Recent reviews of a restaurant.",
				Inputs: []twnm.Param{{Name: "restaurant_id"}}, Outputs: []twnm.Param{{Name: "summary"}}}}}
	for _, tc := range []struct {
		head string
		want string
	}{
		{"What do people say", "Reviews"},
		{"", "Reviews"},
	} {
		r := &Result{Goals: []Goal{goal(0, true, Match{Name: "Reviews", Score: 1}, Match{Name: "Search", Score: .9})}}
		r.Goals[0].Text = "What do people say about the best restaurant in Florence?"
		if tc.head != "" {
			f := goal(0, false, Match{Name: "Reviews", Score: 1}, Match{Name: "Search", Score: .9})
			f.Text = tc.head
			r.Focus = &f
		}
		require.NoError(t, Choose(r, food, Options{}))
		assert.Equal(t, tc.want, r.Final, "head %q", tc.head)
	}

	// A word of the request past its head that names what the leader gives keeps it: the
	// details give the opening hours "open" asks for.
	food.feeds[[2]string{"Search", "Details"}] = true
	food.apis["Details"] = twnm.API{Name: "dine.Details", Description: "Details of a restaurant.",
		Inputs: []twnm.Param{{Name: "restaurant_id"}}, Outputs: []twnm.Param{{Name: "opening_hours"}}}
	open := &Result{Goals: []Goal{goal(0, true, Match{Name: "Details", Score: 1}, Match{Name: "Search", Score: .9})}}
	open.Goals[0].Text = "When is the top restaurant in Porto open?"
	head := goal(0, false, Match{Name: "Details", Score: 1}, Match{Name: "Search", Score: .9})
	head.Text = "When is the top restaurant"
	open.Focus = &head
	require.NoError(t, Choose(open, food, Options{}))
	assert.Equal(t, "Details", open.Final)
}

func TestChooseProducerOfTheInputAsked(t *testing.T) {
	// "Which league is Juventus in?" asks for a league: the league table leads by far (1
	// against .4, under ConsumerRatio), but it takes the league, so the team search that
	// produces it answers. Stating the league keeps the table.
	league := []twnm.Param{{Name: "league", Type: "string", Required: true}}
	l := links{feeds: map[[2]string]bool{{"Team", "Table"}: true},
		producers: map[string][]Need{"Table": {{Inputs: []string{"league"}, Producers: []Producer{{Name: "Team"}}}}},
		apis: map[string]twnm.API{
			"Table": {Name: "sports.Standings", Description: "The league table of a league.", Inputs: league,
				Outputs: []twnm.Param{{Name: "leader"}, {Name: "points"}}},
			"Team": {Name: "sports.SearchTeam", Description: "Finds a team by name.",
				Inputs:  []twnm.Param{{Name: "team_name", Type: "string", Required: true}},
				Outputs: []twnm.Param{{Name: "team_id"}, {Name: "league"}}}}}
	assertFinals(t, l, []Match{{Name: "Table", Score: 1}, {Name: "Team", Score: .4}},
		finalCase{"Which league is Juventus in?", "Team"},
		finalCase{"Who leads the league Serie A?", "Table"},
	)
}

func TestChooseRunnableOverAQuestion(t *testing.T) {
	// The prices lead (1 against .9) but need an arrival day that the request does not state
	// and no API gives: the hotel search that feeds them runs on the city the request states
	// and answers "Where can I stay in Kyoto?". Asked for a price per night, which only the
	// prices give, they keep the lead (and the run asks for the day).
	l := links{feeds: map[[2]string]bool{{"Search", "Prices"}: true},
		producers: map[string][]Need{"Prices": {{Inputs: []string{"hotel_id"}, Producers: []Producer{{Name: "Search"}}}}},
		apis: map[string]twnm.API{
			"Prices": {Name: "stay.HotelPrices", Description: "Price of a stay at a hotel.",
				Inputs: []twnm.Param{{Name: "hotel_id", Type: "string", Required: true}, {Name: "check_in", Type: "string", Required: true,
					Description: "Arrival day, YYYY-MM-DD."}},
				Outputs: []twnm.Param{{Name: "price_per_night"}, {Name: "total_price"}}},
			"Search": {Name: "stay.SearchHotels", Description: "Finds the best hotel in a city.",
				Inputs:  []twnm.Param{{Name: "city", Type: "string", Required: true, Description: "City name, e.g. Paris."}},
				Outputs: []twnm.Param{{Name: "hotel_id"}, {Name: "hotel_name"}}}}}
	assertFinals(t, l, []Match{{Name: "Prices", Score: 1}, {Name: "Search", Score: .9}},
		finalCase{"Where can I stay in Kyoto?", "Search"},
		finalCase{"What is the price per night of the best hotel in Kyoto?", "Prices"},
		finalCase{"Where can I stay in Kyoto from 2026-12-01?", "Prices"},
	)
}

func TestChooseWeakConsumerStaysBehind(t *testing.T) {
	// C consumes P's output but scores (.2 + .2)/2 = .2 < .7·1: a search API stays final.
	r := &Result{Goals: []Goal{
		goal(0, false, Match{Name: "P", Score: 1}, Match{Name: "C", Score: .2}),
		goal(1, true, Match{Name: "P", Score: 1}, Match{Name: "C", Score: .2}),
	}}
	l := links{feeds: map[[2]string]bool{{"P", "C"}: true}}
	require.NoError(t, Choose(r, l, Options{}))
	assert.Equal(t, "P", r.Final)
	assert.Equal(t, []string{"P", "C"}, r.Ranked)
}

func TestChooseEmpty(t *testing.T) {
	r := &Result{Goals: []Goal{goal(0, true)}}
	require.NoError(t, Choose(r, nil, Options{}))
	assert.Empty(t, r.Final)
	assert.Empty(t, r.Ranked)
}

func TestChooseProducerThatStartsTheChain(t *testing.T) {
	// Reviews needs a movie id. Similar (.9) and Search (.5) both output one, but Similar
	// requires a movie id itself: it cannot start the chain, so Search binds Reviews' input.
	movies := links{
		feeds: map[[2]string]bool{{"Search", "Reviews"}: true, {"Similar", "Reviews"}: true, {"Search", "Similar"}: true},
		producers: map[string][]Need{
			"Reviews": {{Inputs: []string{"movie_id"}, Producers: []Producer{{Name: "Search"}, {Name: "Similar", Circular: true}}}},
			"Similar": {{Inputs: []string{"movie_id"}, Producers: []Producer{{Name: "Search"}}}},
		},
		apis: map[string]twnm.API{
			"Reviews": {Name: "Reviews", Description: "the reviews of a movie", Inputs: []twnm.Param{{Name: "movie_id", Required: true}}},
			"Similar": {Name: "Similar", Description: "the movies similar to a movie", Inputs: []twnm.Param{{Name: "movie_id", Required: true}}},
			"Search":  {Name: "Search", Description: "search movies by title", Inputs: []twnm.Param{{Name: "query", Required: true}}},
		},
	}
	tests := []struct {
		request   string
		wantChain []string
	}{
		// Nothing asks for similar movies: the chain starts at the search.
		{"give me some reviews of Titanic", []string{"Search", "Reviews"}},
		// Asked for, the circular producer binds the input, and the chain reaches back to the
		// search that binds its own.
		{"give me some reviews of the first movie similar to Titanic", []string{"Search", "Similar", "Reviews"}},
	}
	for _, tt := range tests {
		t.Run(tt.request, func(t *testing.T) {
			r := chooseWhole(t, movies, tt.request, Match{Name: "Reviews", Score: 1}, Match{Name: "Similar", Score: .9},
				Match{Name: "Search", Score: .5})
			assert.Equal(t, "Reviews", r.Final)
			assert.Equal(t, tt.wantChain, []string(r.Chain))
		})
	}
}

func TestChooseProducerTheRequestNames(t *testing.T) {
	// ReleaseDates needs a movie id, which Upcoming (.8, no input) and Search (.4, a title)
	// both output. A request that names a movie binds it through the search, whose title
	// nothing else takes; a request that names none keeps the better-scored list.
	movies := links{
		feeds: map[[2]string]bool{{"Search", "ReleaseDates"}: true, {"Upcoming", "ReleaseDates"}: true},
		producers: map[string][]Need{
			"ReleaseDates": {{Inputs: []string{"movie_id"}, Producers: []Producer{{Name: "Search"}, {Name: "Upcoming"}}}},
		},
		apis: map[string]twnm.API{
			"ReleaseDates": {Name: "ReleaseDates", Description: "the release dates of a movie", Inputs: []twnm.Param{{Name: "movie_id", Type: "integer", Required: true}}},
			"Upcoming":     {Name: "Upcoming", Description: "movies coming out soon", Inputs: []twnm.Param{{Name: "page", Type: "integer"}}},
			"Search":       {Name: "Search", Description: "search movies by title", Inputs: []twnm.Param{{Name: "query", Type: "string", Required: true}}},
		},
	}
	tests := []struct {
		request   string
		wantChain []string
	}{
		{`When is the movie "The Matrix" released?`, []string{"Search", "ReleaseDates"}},
		{"When is the next upcoming movie released?", []string{"Upcoming", "ReleaseDates"}},
	}
	for _, tt := range tests {
		t.Run(tt.request, func(t *testing.T) {
			r := chooseWhole(t, movies, tt.request, Match{Name: "ReleaseDates", Score: 1}, Match{Name: "Upcoming", Score: .8},
				Match{Name: "Search", Score: .4})
			assert.Equal(t, "ReleaseDates", r.Final)
			assert.Equal(t, tt.wantChain, []string(r.Chain))
		})
	}
}

func TestChooseLeavesStatedInputsToTheRequest(t *testing.T) {
	// Format checks an email address, which Verify also outputs. A request that states the
	// address needs no producer; one that does not binds it through Verify. A token is never
	// read from the request's words ("24 Hour Fitness" is no token).
	l := links{
		feeds: map[[2]string]bool{{"Verify", "Format"}: true, {"Login", "Delete"}: true},
		producers: map[string][]Need{
			"Format": {{Inputs: []string{"email"}, Producers: []Producer{{Name: "Verify"}}}},
			"Delete": {{Inputs: []string{"token"}, Producers: []Producer{{Name: "Login"}}}},
		},
		apis: map[string]twnm.API{
			"Format": {Name: "Format", Inputs: []twnm.Param{{Name: "email", Type: "string", Required: true}}},
			"Verify": {Name: "Verify", Inputs: []twnm.Param{{Name: "address", Type: "string", Required: true}}},
			"Delete": {Name: "Delete", Inputs: []twnm.Param{{Name: "token", Type: "string", Required: true}, {Name: "location", Type: "string", Required: true}}},
			"Login":  {Name: "Login", Inputs: []twnm.Param{{Name: "username", Type: "string", Required: true}}},
		},
	}
	tests := []struct {
		request, final string
		wantChain      []string
	}{
		{"validate the format of the email 'john.doe@gmail.com'", "Format", []string{"Format"}},
		{"validate the format of my email", "Format", []string{"Verify", "Format"}},
		{"delete my workout at 24 Hour Fitness", "Delete", []string{"Login", "Delete"}},
	}
	for _, tt := range tests {
		t.Run(tt.request, func(t *testing.T) {
			r := chooseWhole(t, l, tt.request, Match{Name: tt.final, Score: 1})
			assert.Equal(t, tt.wantChain, []string(r.Chain))
		})
	}
}

func TestChooseProducerThatReads(t *testing.T) {
	// DeleteAccount needs a token, which RegisterUser (.9) and GetUserToken (.5) both output.
	// Registering a user changes state: the token is read from GetUserToken instead.
	l := links{
		feeds: map[[2]string]bool{{"RegisterUser", "DeleteAccount"}: true, {"GetUserToken", "DeleteAccount"}: true},
		producers: map[string][]Need{
			"DeleteAccount": {{Inputs: []string{"token"}, Producers: []Producer{{Name: "RegisterUser"}, {Name: "GetUserToken"}}}},
		},
		apis: map[string]twnm.API{
			"DeleteAccount": {Name: "DeleteAccount", Description: "delete an account", Inputs: []twnm.Param{{Name: "token", Required: true}}},
			"RegisterUser":  {Name: "RegisterUser", Description: "register a new user account", Inputs: []twnm.Param{{Name: "username", Type: "string", Required: true}}},
			"GetUserToken":  {Name: "GetUserToken", Description: "get the user's token"},
		},
	}
	// The second request states a name RegisterUser would take, but does not ask to register.
	for _, request := range []string{"can you delete my account?", "can you delete my account at ABC Company?"} {
		r := chooseWhole(t, l, request, Match{Name: "DeleteAccount", Score: 1}, Match{Name: "RegisterUser", Score: .9},
			Match{Name: "GetUserToken", Score: .5})
		assert.Equal(t, []string{"GetUserToken", "DeleteAccount"}, []string(r.Chain), request)
	}

	// A file's comments need its id, which a folder's creation (retrieved) and two listings
	// (not retrieved) give: no producer the request favours reads it, and none is made by a
	// write it does not ask for. The id stays unbound.
	files := links{
		producers: map[string][]Need{"Comments": {{Inputs: []string{"file_id"}, Producers: []Producer{
			{Name: "CreateFolder"}, {Name: "ListFiles"}, {Name: "ListRecent"}}}}},
		apis: map[string]twnm.API{
			"Comments":     {Name: "get_files_id_comments", Description: "List a file's comments.", Inputs: []twnm.Param{{Name: "file_id", Required: true}}},
			"CreateFolder": {Name: "CreateFolder", Description: "Creates a folder.", Outputs: []twnm.Param{{Name: "file_id"}}},
			"ListFiles":    {Name: "ListFiles", Description: "Lists files.", Outputs: []twnm.Param{{Name: "file_id"}}},
			"ListRecent":   {Name: "ListRecent", Description: "Lists recent items.", Outputs: []twnm.Param{{Name: "file_id"}}},
		},
	}
	r := chooseWhole(t, files, "What have people said in the comments on the budget spreadsheet?",
		Match{Name: "Comments", Score: 1}, Match{Name: "CreateFolder", Score: .4})
	assert.Equal(t, []string{"Comments"}, []string(r.Chain))
}

// A producer whose output adds a role to the input (the league leader's team id) gives
// another thing than the input unless the request says the role: "the next match of the club
// Bayern Munich" is the team search's team, "the team leading the Bundesliga" the leader's.
func TestChooseProducerOfTheRoleSaid(t *testing.T) {
	l := links{
		feeds: map[[2]string]bool{{"SearchTeam", "Fixtures"}: true, {"Standings", "Fixtures"}: true},
		producers: map[string][]Need{"Fixtures": {{Inputs: []string{"team_id"}, Producers: []Producer{
			{Name: "Standings", Role: []string{"leader"}}, {Name: "SearchTeam"}}}}},
		apis: map[string]twnm.API{
			"Fixtures":   {Name: "Fixtures", Description: "Next fixture of a team.", Inputs: []twnm.Param{{Name: "team_id", Required: true}}},
			"Standings":  {Name: "Standings", Description: "Leader of a league table."},
			"SearchTeam": {Name: "SearchTeam", Description: "Finds a team by name."},
		},
	}
	for request, want := range map[string][]string{
		"When is the next match of the club Bayern Munich?":   {"SearchTeam", "Fixtures"},
		"When is the next match of the team leading Serie A?": {"Standings", "Fixtures"},
	} {
		r := chooseWhole(t, l, request, Match{Name: "Fixtures", Score: 1}, Match{Name: "Standings", Score: .6},
			Match{Name: "SearchTeam", Score: .5})
		assert.Equal(t, want, []string(r.Chain), request)
	}
}

// A leader that needs a value the request does not state yields to a sibling of its provider
// that runs on the stated values and takes a number the leader does not: the listing search
// takes the point, the market statistics need a city. Another provider's API that takes the
// point does not take the lead: a hotel is not looked for among restaurants.
func TestChooseSiblingThatRunsOnTheStatedValues(t *testing.T) {
	point := []twnm.Param{{Name: "latitude", Type: "number", Required: true}, {Name: "longitude", Type: "number", Required: true}}
	l := links{
		feeds: map[[2]string]bool{{"ReverseGeocode", "MarketStats"}: true, {"ReverseGeocode", "FindHotels"}: true},
		producers: map[string][]Need{
			"MarketStats": {{Inputs: []string{"city"}, Producers: []Producer{{Name: "ReverseGeocode"}}}},
			"FindHotels":  {{Inputs: []string{"city"}, Producers: []Producer{{Name: "ReverseGeocode"}}}},
		},
		apis: map[string]twnm.API{
			"MarketStats":    {Name: "MarketStats", Provider: "homes", Inputs: []twnm.Param{{Name: "city", Type: "string", Required: true}}},
			"Listings":       {Name: "Listings", Provider: "homes", Inputs: point},
			"FindHotels":     {Name: "FindHotels", Provider: "stay", Inputs: []twnm.Param{{Name: "city", Type: "string", Required: true}}},
			"FindPlaces":     {Name: "FindPlaces", Provider: "eat", Inputs: point},
			"ReverseGeocode": {Name: "ReverseGeocode", Provider: "geo", Inputs: point},
		},
	}
	r := chooseWhole(t, l, "Show me houses for sale near 40.7128, -74.0060",
		Match{Name: "MarketStats", Provider: "homes", Score: 1}, Match{Name: "Listings", Provider: "homes", Score: .95})
	assert.Equal(t, "Listings", r.Final)
	assert.Equal(t, []string{"Listings"}, []string(r.Chain))
	r = chooseWhole(t, l, "Find a hotel in the place at latitude 37.7749, longitude -122.4194",
		Match{Name: "FindHotels", Provider: "stay", Score: 1}, Match{Name: "FindPlaces", Provider: "eat", Score: .95})
	assert.Equal(t, "FindHotels", r.Final)
}

func TestChooseReadsClausesInContext(t *testing.T) {
	// The clause alone prefers the video site's suggestions (1 against .8), but the whole
	// request is about the page analyser's service (relevance 1; the video site's .2).
	// Scores become 1·(.7 + .3·.2) = .76 and .8·(.7 + .3·1) = .8, renormalised by .8.
	apis := map[string]twnm.API{
		"Analyze":     {Name: "Analyze", Provider: "seo"},
		"Summary":     {Name: "Summary", Provider: "seo"},
		"Suggestions": {Name: "Suggestions", Provider: "video"},
	}
	newResult := func() *Result {
		return &Result{Goals: []Goal{
			goal(0, false, Match{Name: "Suggestions", Score: 1}, Match{Name: "Summary", Score: .8}),
			goal(1, true, Match{Name: "Analyze", Score: 1}, Match{Name: "Suggestions", Score: .2}),
		}}
	}
	r := newResult()
	require.NoError(t, Choose(r, links{apis: apis}, Options{}))
	clause := r.Goals[0].Candidates
	require.Len(t, clause, 2)
	assert.Equal(t, "Summary", clause[0].Name)
	assert.InDelta(t, 1, clause[0].Score, 1e-9)
	assert.InDelta(t, .76/.8, clause[1].Score, 1e-9)

	// Without context, or without the graph, the clause keeps its own order.
	for _, o := range []Options{{Context: -1}, {NoGraph: true}} {
		r := newResult()
		require.NoError(t, Choose(r, links{apis: apis}, o))
		assert.Equal(t, "Suggestions", r.Goals[0].Candidates[0].Name)
	}
	_, err := (Options{Context: 1.5}).withDefaults()
	assert.Error(t, err)
}

func TestBranchesAskOfTheNamedService(t *testing.T) {
	// "What roles exist in the Acme Community chat service and what permissions does each one
	// have?": the request names one of the chat service's services, so its second part asks of
	// that service's roles too, which the chain already reads, not of another service's
	// permissions, which that part alone ranks first. Where the request names no service,
	// the part joins its own best.
	l := links{feeds: map[[2]string]bool{{"Services", "Roles"}: true}, producers: needOf("Roles", "ServiceSid", "Services"),
		apis: map[string]twnm.API{
			"Services":    getAt("Services", "chat", "/Services"),
			"Roles":       getAt("Roles", "chat", "/Services/{ServiceSid}/Roles", "ServiceSid"),
			"Permissions": getAt("Permissions", "ai", "/projects/{project_id}/permissions", "project_id"),
		}}
	for _, tc := range []struct {
		service string
		want    []string
	}{
		{"the Acme Community chat service", nil},
		{"our chat service", []string{"Permissions"}},
	} {
		roles := goal(0, false, Match{Name: "Roles", Score: 1}, Match{Name: "Services", Score: .8})
		roles.Text = "What roles exist in " + tc.service
		perms := goal(1, false, Match{Name: "Permissions", Score: 1, Dense: .4}, Match{Name: "Roles", Score: .6, Dense: .3})
		perms.Text = "what permissions does each one have?"
		whole := goal(2, true, Match{Name: "Roles", Score: 1}, Match{Name: "Permissions", Score: .7})
		whole.Text = roles.Text + " and " + perms.Text
		r := &Result{Goals: []Goal{roles, perms, whole}}
		assert.Equal(t, tc.want, r.Branches([]string{"Services", "Roles"}, l, Options{}).Names(), tc.service)
	}
}

func TestBranches(t *testing.T) {
	recommend := goal(0, false, Match{Name: "Recommend", Score: 1}, Match{Name: "Watched", Score: .5})
	filter := goal(1, false, Match{Name: "Watched", Score: 1}, Match{Name: "Recommend", Score: .97})
	whole := goal(2, true, Match{Name: "Recommend", Score: 1}, Match{Name: "Watched", Score: .8})
	irrelevant := goal(1, false, Match{Name: "Weather", Score: 1})
	irrelevant.Relevant = false
	tests := []struct {
		name  string
		goals []Goal
		chain []string
		want  []string // nil: no branch
	}{
		// The chain serves the first clause; the second's best tool is another intent.
		{"two intents", []Goal{recommend, filter, whole}, []string{"Recommend", "Preferences"}, []string{"Watched"}},
		// A clause whose best tool the chain holds needs no branch of its own.
		{"covered", []Goal{recommend, filter, whole}, []string{"Recommend", "Watched"}, nil},
		// The chain's own clause is the one where it scores best, though its best tool is
		// another (Suggest): it has no branch.
		{"own clause", []Goal{goal(0, false, Match{Name: "Suggest", Score: 1}, Match{Name: "Recommend", Score: .9}),
			goal(1, false, Match{Name: "Watched", Score: 1}, Match{Name: "Recommend", Score: .3}), whole},
			[]string{"Recommend"}, []string{"Watched"}},
		{"one clause", []Goal{recommend, whole}, []string{"Preferences"}, nil},
		{"irrelevant clause", []Goal{recommend, irrelevant, whole}, []string{"Recommend"}, nil},
		// A part under remarkShare of the best part's similarity is a remark: "Got any
		// playlists of the Workout category? Need something for the gym."
		{"a remark", []Goal{withBest(recommend, .6), withBest(filter, .29), whole}, []string{"Recommend"}, nil},
		{"no remark", []Goal{withBest(recommend, .6), withBest(filter, .31), whole}, []string{"Recommend"}, []string{"Watched"}},
		// A weak part before a strong one is a part: "How cold is it in Oslo right now, and
		// what is the air quality there?"
		{"a weak part first", []Goal{withBest(filter, .29), withBest(recommend, .6), whole}, []string{"Recommend"}, []string{"Watched"}},
		// A question last is a part, however weak: "… And which league does Borussia Dortmund
		// play in?"
		{"a weak question last", []Goal{withBest(recommend, .6), withText(withBest(filter, .29), "which films have I watched"), whole},
			[]string{"Recommend"}, []string{"Watched"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Result{Goals: tt.goals}
			assert.Equal(t, tt.want, r.Branches(tt.chain, nil, Options{}).Names())
		})
	}

	// Two clauses the chain serves alike (its search leads both): it serves the one that
	// ranks its final step higher, the reviews', and the prices' clause is the other part.
	prices := goal(0, false, Match{Name: "Search", Score: 1}, Match{Name: "Prices", Score: .9}, Match{Name: "Reviews", Score: .6})
	reviews := goal(1, false, Match{Name: "Search", Score: 1}, Match{Name: "Reviews", Score: .95})
	r := &Result{Goals: []Goal{prices, reviews, whole}, Final: "Reviews"}
	assert.Equal(t, reviews.Text, r.Branches([]string{"Search", "Reviews"}, nil, Options{}).Own)
	r.Final = "Prices"
	assert.Equal(t, prices.Text, r.Branches([]string{"Search", "Prices"}, nil, Options{}).Own)

	// With links, a clause's branch is its final step: "book a table at the best-rated
	// restaurant" ends at the booking (.9), which consumes the search the clause ranks first
	// and adds a word the request asks for ("book").
	book := goal(1, false, Match{Name: "SearchNearby", Score: 1}, Match{Name: "Reserve", Score: .9})
	book.Text = "book a table at the best-rated restaurant near latitude 41.9, longitude 12.5"
	l := links{feeds: map[[2]string]bool{{"SearchNearby", "Reserve"}: true},
		apis: map[string]twnm.API{"SearchNearby": {Name: "SearchNearby", Description: "best-rated restaurants near a point"},
			"Reserve": {Name: "Reserve", Description: "book a table at a restaurant", Inputs: []twnm.Param{{Name: "restaurant_id"}}}}}
	r = &Result{Goals: []Goal{recommend, book, whole}}
	parts := r.Branches([]string{"Recommend"}, l, Options{})
	assert.Equal(t, []string{"Reserve"}, parts.Names())
	assert.Equal(t, []string{"SearchNearby"}, r.Branches([]string{"Recommend"}, nil, Options{}).Names(), "without links, the clause's best")
	assert.Equal(t, 1.0, book.Candidates[0].Score, "the clause's candidates are left as they were")

	// A part chooses its final step with its own head, as the request does with its focus:
	// "give me the details of the best home for sale" ranks the listing search first and its
	// details under ConsumerRatio of it, but its head "give me the details" asks for them.
	home := goal(0, false, Match{Name: "Listings", Score: 1}, Match{Name: "Details", Score: .6})
	home.Text = "Give me the details of the best home for sale near latitude 40.4, longitude -3.7"
	homes := links{feeds: map[[2]string]bool{{"Listings", "Details"}: true}, producers: needOf("Details", "listing_id", "Listings"),
		apis: map[string]twnm.API{"Listings": {Name: "Listings", Description: "Finds the best home for sale near a point.", Outputs: []twnm.Param{{Name: "listing_id"}}},
			"Details": {Name: "ListingDetails", Description: "Details of a listing.", Inputs: []twnm.Param{{Name: "listing_id", Required: true}}}}}
	hotel := goal(1, false, Match{Name: "Book", Score: 1})
	r = &Result{Goals: []Goal{home, hotel, whole}}
	assert.Equal(t, []string{"Listings"}, r.Branches([]string{"Book"}, homes, Options{}).Names(), "without its head")
	h := goal(0, false, Match{Name: "Details", Score: 1}, Match{Name: "Listings", Score: .5})
	h.Text = "Give me the details"
	r.Goals[0].Head = &h
	assert.Equal(t, []string{"Details"}, r.Branches([]string{"Book"}, homes, Options{}).Names(), "with it")

	// A part joins no call that changes state unless it asks for that change: a question whose
	// best tool deletes joins the tool that reads what it would delete (see
	// TestChooseMismatchYieldsToItsResource), or none where no tool does; a part that asks to
	// delete joins the deletion.
	owner := goal(1, false, Match{Name: "DeleteUser", Score: 1}, Match{Name: "GetUsers", Score: .6})
	owner.Text = "Who owns server 81384788765712384"
	users := links{apis: map[string]twnm.API{"DeleteUser": {Name: "DeleteUser", Description: "Deletes a user."},
		"GetUsers": {Name: "GetUsers", Description: "Lists users."}}}
	r = &Result{Goals: []Goal{recommend, owner, whole}}
	assert.Equal(t, []string{"GetUsers"}, r.Branches([]string{"Recommend"}, users, Options{}).Names())
	// A part that states no task sets the scene and joins nothing, however near a tool its
	// words rank; one that opens with a tool's own verb does.
	scene := goal(1, false, Match{Name: "GetUsers", Score: 1})
	scene.Text, scene.Tentative = "I'm auditing users.", true
	r = &Result{Goals: []Goal{recommend, scene, whole}}
	assert.Empty(t, r.Branches([]string{"Recommend"}, users, Options{}).Names())
	scene.Text = "Get users of the team"
	r = &Result{Goals: []Goal{recommend, scene, whole}}
	assert.Equal(t, []string{"GetUsers"}, r.Branches([]string{"Recommend"}, users, Options{}).Names())
	alone := goal(1, false, Match{Name: "DeleteUser", Score: 1})
	alone.Text = owner.Text
	r = &Result{Goals: []Goal{recommend, alone, whole}}
	assert.Empty(t, r.Branches([]string{"Recommend"}, users, Options{}).Names())
	owner.Text = "delete the user who owns server 81384788765712384"
	r = &Result{Goals: []Goal{recommend, owner, whole}}
	assert.Equal(t, []string{"DeleteUser"}, r.Branches([]string{"Recommend"}, users, Options{}).Names())

	// A part joins only a tool the encoder found for it: "Whose server is that?" ranks an
	// events API first by a shared word alone (no dense hit), and joins nothing; found by the
	// encoder too, however weakly, it joins.
	server := goal(1, false, Match{Name: "Events", Score: 1, Lexical: 2.5}, Match{Name: "GetGuild", Score: .8, Lexical: 1, Dense: .45})
	server.Text = "Whose server is that"
	r = &Result{Goals: []Goal{recommend, server, whole}}
	assert.Empty(t, r.Branches([]string{"Recommend"}, nil, Options{}).Names())
	server.Candidates[0].Dense = .15
	r = &Result{Goals: []Goal{recommend, server, whole}}
	assert.Equal(t, []string{"Events"}, r.Branches([]string{"Recommend"}, nil, Options{}).Names())

	// A call the plan shares with a branch takes only a value both clauses state.
	parts = Parts{Own: "What is the weather in Paris right now", Branches: []Branch{
		{API: "AirQuality", Clause: "what is the air quality in Rome"}, {API: "Hotels", Clause: "find hotels in Paris"}}}
	assert.False(t, parts.Allows("AirQuality", "Rome", true), "the plan's part does not state Rome")
	assert.False(t, parts.Allows("AirQuality", "Paris", true), "Rome's part does not state Paris")
	assert.True(t, parts.Allows("AirQuality", "Rome", false), "a call of its own takes any value")
	assert.True(t, parts.Allows("Hotels", "paris", true), "both state Paris")
	assert.False(t, parts.Allows("Unknown", "Paris", false))
	assert.False(t, parts.Allows("Hotels", "", true))

	// A plan's clause that names no city of its own shares the one a branch that asks for
	// something names; a branch that only says what the request is about does not join so.
	parts = Parts{Own: "what is the air quality there", Branches: []Branch{
		{API: "Weather", Clause: "How cold is it in Oslo right now"},
		{API: "Details", Clause: "I'm watching the tv series Dark", Tentative: true}}}
	assert.True(t, parts.Allows("Weather", "Oslo", true), "the plan's part names no other city")
	assert.False(t, parts.Allows("Weather", "Rome", true), "the branch does not state Rome")
	assert.False(t, parts.Allows("Details", "Dark", true), "a statement of what the request is about")
	parts.Own = "what is the air quality in Rome"
	assert.False(t, parts.Allows("Weather", "Oslo", true), "the plan's part names another city")

	// A clause whose pronoun stands for what the clause before asks about is about the same
	// thing: it shares what that clause states.
	stars := goal(0, false, Match{Name: "SearchHotels", Score: 1}, Match{Name: "HotelDetails", Score: .7})
	stars.Text = "How many stars does the best hotel in Lisbon have"
	where := goal(1, false, Match{Name: "HotelDetails", Score: 1}, Match{Name: "SearchHotels", Score: .9})
	where.Text, where.Resolved = "where is it exactly", "where is the hotel exactly"
	r = &Result{Goals: []Goal{stars, where, whole}}
	parts = r.Branches([]string{"SearchHotels"}, nil, Options{})
	require.Equal(t, []Branch{{API: "HotelDetails", Clause: "where is it exactly", About: stars.Text}}, parts.Branches)
	assert.True(t, parts.Allows("HotelDetails", "Lisbon", true), "the hotel the clause before names")
	where.Resolved = ""
	r = &Result{Goals: []Goal{stars, where, whole}}
	parts = r.Branches([]string{"SearchHotels"}, nil, Options{})
	assert.False(t, parts.Allows("HotelDetails", "Lisbon", true), "a clause of its own states no city")
}

// A part of the request is answered by a chain one of whose APIs gives what it asks for: a
// word of it names an output that is not one of the API's inputs.
func TestAnswers(t *testing.T) {
	l := links{apis: map[string]twnm.API{
		"Agent": {Name: "Agent", Description: "Contact details of an estate agent.",
			Inputs:  []twnm.Param{{Name: "agent_id"}},
			Outputs: []twnm.Param{{Name: "agent_name"}, {Name: "phone"}}},
		"AirQuality": {Name: "AirQuality", Description: "Air quality at a point.",
			Inputs:  []twnm.Param{{Name: "lat"}, {Name: "lon"}},
			Outputs: []twnm.Param{{Name: "air_quality_index"}}},
	}}
	assert.True(t, Answers("what is their phone number", l, []string{"AirQuality", "Agent"}))
	assert.False(t, Answers("How cold is it in Oslo right now", l, []string{"AirQuality", "Agent"}))
	assert.False(t, Answers("who is the agent", l, []string{"Agent"}), "the agent is what it takes, by its id")
	assert.False(t, Answers("what is their phone number", l, nil))

	// A list is named by what its description says it lists.
	l.apis["Search"] = twnm.API{Name: "Search", Inputs: []twnm.Param{{Name: "artistName"}},
		Outputs: []twnm.Param{{Name: "results", Type: "array", Description: "Tracks of the artist, best match first."}}}
	assert.True(t, Answers("find tracks by Aretha Franklin", l, []string{"Search"}))
	assert.False(t, Answers("who is the artist", l, []string{"Search"}), "the artist is what it takes")
}

func TestRankedParts(t *testing.T) {
	clauses := []Goal{
		goal(0, false, Match{Name: "Content", Score: 1}, Match{Name: "Extract", Score: .9}),
		goal(1, false, Match{Name: "News", Score: 1}, Match{Name: "Crypto", Score: .6}),
	}
	whole := goal(2, true, Match{Name: "News", Score: 1}, Match{Name: "Crypto", Score: .9}, Match{Name: "Blog", Score: .5})
	// News 1 + .6·1 = 1.6; Crypto .6 + .6·.9 = 1.14; Content 1; Extract .9; Blog .6·.5 = .3:
	// the clause that only names "content" would rank after the whole request's second
	// candidate, but Crypto serves the clauses as News does (profiles (0, 1) and (0, .6),
	// cosine 1), so it counts 1.14·(1 − .3) = .798 after News, and Content (1) comes first;
	// Extract, like Content, counts .9·.7 = .63 after it, and Crypto passes it.
	assert.Equal(t, []string{"News", "Content", "Crypto", "Extract", "Blog"}, rankedParts(clauses, whole, nil))
	// A request of one part ranks by its own scores.
	assert.Equal(t, []string{"News", "Crypto", "Blog"}, rankedParts(nil, whole, nil))
	// A factor scales the scores: Crypto's provider at .7 puts it at 1.14·.7 = .798, and
	// .798·.7 = .5586 after News, after both of the other clause's candidates (Extract .63).
	factor := func(api string) float64 {
		if api == "Crypto" {
			return .7
		}
		return 1
	}
	assert.Equal(t, []string{"News", "Content", "Extract", "Crypto", "Blog"}, rankedParts(clauses, whole, factor))
}

func TestRankedPartsDiversify(t *testing.T) {
	// Two QR code generators serve the first clause alike, a die the second. Scores: QR1 1,
	// QR2 .95, Die .9. Profiles: QR1 (1, 0), QR2 (.95, .2), Die (0, .9).
	// QR1 first. Then QR2: cosine with QR1 .95/√(.95² + .2²) = .97855, so .95·(1 − .3·.97855)
	// = .67111; Die: cosine 0, so .9. Die second, QR2 third.
	clauses := []Goal{
		goal(0, false, Match{Name: "QR1", Score: 1}, Match{Name: "QR2", Score: .95}),
		goal(1, false, Match{Name: "Die", Score: .9}, Match{Name: "QR2", Score: .2}),
	}
	assert.Equal(t, []string{"QR1", "Die", "QR2"}, rankedParts(clauses, Goal{Goal: subgoal.Goal{Whole: true}}, nil))

	// A candidate no clause found (the whole request's alone) is like none.
	whole := goal(2, true, Match{Name: "QR1", Score: 1}, Match{Name: "Blog", Score: .9})
	assert.Equal(t, []string{"QR1", "Die", "QR2", "Blog"}, rankedParts(clauses, whole, nil),
		"QR1 1.6, QR2 .95 → .67111, Die .9, Blog .54")

	// Past diverseTop places, the order is the score's.
	var many []Match
	for i := range diverseTop + 3 {
		many = append(many, Match{Name: fmt.Sprintf("Q%02d", i), Score: 1 - float64(i)/100})
	}
	clauses = []Goal{goal(0, false, many...), goal(1, false, Match{Name: "Die", Score: .8})}
	got := rankedParts(clauses, Goal{Goal: subgoal.Goal{Whole: true}}, nil)
	require.Len(t, got, diverseTop+4)
	assert.Equal(t, "Die", got[1], "unlike the first, it comes before the others alike (.8 > .99·.7)")
	assert.Equal(t, []string{"Q09", "Q10", "Q11", "Q12"}, got[diverseTop:])
}

// chatOrPhoto is a request for a chat service's invite data ("fetch the invite data for this
// code") and for a user ("the username and avatar of the user with this ID"), which the
// photo site's user search and followers match best alone.
func chatOrPhoto() (*Result, links) {
	apis := map[string]twnm.API{
		"Invite":     {Name: "Invite", Provider: "chat"},
		"UserData":   {Name: "UserData", Provider: "chat"},
		"UserByName": {Name: "UserByName", Provider: "photo"},
		"Followers":  {Name: "Followers", Provider: "photo"},
		"Reels":      {Name: "Reels", Provider: "photo"},
	}
	r := &Result{Goals: []Goal{
		goal(0, false, Match{Name: "Invite", Score: 1}, Match{Name: "Reels", Score: .5}),
		goal(1, false, Match{Name: "UserByName", Score: 1}, Match{Name: "Followers", Score: .95}, Match{Name: "UserData", Score: .7}),
		goal(2, true, Match{Name: "Invite", Score: 1}, Match{Name: "UserByName", Score: .5}, Match{Name: "UserData", Score: .3}, Match{Name: "Followers", Score: .3}),
	}}
	return r, links{apis: apis}
}

func TestProviderRelevance(t *testing.T) {
	// chat: 1 for the whole request, + .5·1 for the first clause (Invite); photo: .5 for the
	// whole request, + .5·1 for the second clause (UserByName; UserData's .7 is under serves).
	// 1.5 and 1, scaled by 1.5.
	r, l := chatOrPhoto()
	rel := providerRelevance(r, providerOf(r, l), nil)
	assert.InDelta(t, 1, rel["chat"], 1e-9)
	assert.InDelta(t, 1/1.5, rel["photo"], 1e-9)

	// A request of one clause counts the whole request alone (chat 1, photo .5): the clause
	// would only echo its own preference.
	r.Goals = r.Goals[1:]
	rel = providerRelevance(r, providerOf(r, l), nil)
	assert.InDelta(t, 1, rel["chat"], 1e-9)
	assert.InDelta(t, .5, rel["photo"], 1e-9)
}

func TestValueNamesItsProvider(t *testing.T) {
	// The request states "IS5bc…", which only the chat service's pattern reads: chat is what
	// it is about, at relevance 1, and photo at 0, though photo's words rank it first.
	sid := "^IS[0-9a-fA-F]{32}$"
	l := links{apis: map[string]twnm.API{
		"Roles":      {Name: "ListRole", Provider: "chat", Inputs: []twnm.Param{{Name: "ServiceSid", Required: true, Pattern: sid}}},
		"UserRoles":  {Name: "listUserRoles", Provider: "ai", Inputs: []twnm.Param{{Name: "user_id", Required: true}}},
		"AnyPattern": {Name: "listAny", Provider: "photo", Inputs: []twnm.Param{{Name: "id", Pattern: "^[0-9]+$"}}},
	}}
	const request = "What role is Dev Patel assigned in chat service IS5bc9357794f7f0ae6a6c0cf541aac0b6?"
	r := &Result{Goals: []Goal{goal(0, true, Match{Name: "UserRoles", Score: 1}, Match{Name: "Roles", Score: .8}, Match{Name: "AnyPattern", Score: .5})}}
	r.Goals[0].Text = request
	provider := providerOf(r, l)
	named := namedByValue(r, l, provider)
	assert.Equal(t, map[string]bool{"chat": true}, named, "a pattern that matches any number names nobody")
	rel := providerRelevance(r, provider, named)
	assert.Equal(t, map[string]float64{"chat": 1, "ai": 0, "photo": 0}, rel)

	// In Choose: only the named service's candidates are final steps; UserRoles, another's,
	// has no score.
	r = chooseWhole(t, l, request, Match{Name: "UserRoles", Score: 1}, Match{Name: "Roles", Score: .8})
	assert.Equal(t, "Roles", r.Final)
	assert.NotContains(t, r.Scores, "UserRoles")

	// Without the value, the words decide.
	r = chooseWhole(t, l, "What role is Dev Patel assigned in the chat service?", Match{Name: "UserRoles", Score: 1}, Match{Name: "Roles", Score: .8})
	assert.Equal(t, "UserRoles", r.Final)
}

func TestItemNamesItsProvider(t *testing.T) {
	// "my bakery-landing site" names an item of the sites that only the web host lists: it is
	// what the request is about, though the chat service's messages match its words first.
	// A value's shape names its provider before an item does, and a service's own name names
	// no item.
	l := links{apis: map[string]twnm.API{
		"Sites":    getAt("Sites", "web", "/sites"),
		"Forms":    getAt("Forms", "web", "/sites/{site_id}/forms", "site_id"),
		"Messages": getAt("Messages", "chat", "/services/{ServiceSid}/messages", "ServiceSid"),
	}}
	l.apis["Messages"].Inputs[0].Pattern = "^IS[0-9a-fA-F]{32}$"
	cands := []Match{{Name: "Messages", Score: 1}, {Name: "Forms", Score: .8}, {Name: "Sites", Score: .5}}
	for _, tc := range []struct {
		request string
		named   map[string]bool
		final   string
	}{
		{"Show me the contact messages of the forms on my bakery-landing site", map[string]bool{"web": true}, "Forms"},
		{"Show me the contact messages of the forms on my site", map[string]bool{}, "Messages"},
		// A service's own name is no item: "our Chat site" names no site of the web host.
		{"Show me the contact messages of the forms on our Chat site", map[string]bool{}, "Messages"},
		{"Show me the messages of IS5bc9357794f7f0ae6a6c0cf541aac0b6 and my bakery-landing site", map[string]bool{"chat": true}, "Messages"},
	} {
		r := &Result{Goals: []Goal{goal(0, true, cands...)}}
		r.Goals[0].Text = tc.request
		assert.Equal(t, tc.named, named(r, l, providerOf(r, l), itemsOf(r, l)), tc.request)
		r = chooseWhole(t, l, tc.request, cands...)
		assert.Equal(t, tc.final, r.Final, tc.request)
	}
}

func TestChooseRanksByProviderRelevance(t *testing.T) {
	// Relevance chat 1, photo 2/3 (see TestProviderRelevance). The second clause in context:
	// UserByName 1·(.7 + .3·2/3) = .9, Followers .95·.9 = .855, UserData .7, renormalised by .9.
	// Ranked by the best clause score + .6·the whole request's, times .4 + .6·relevance:
	// Invite (1 + .6)·1 = 1.6, UserByName (1 + .3)·.8 = 1.04, UserData (.7/.9 + .18)·1 ≈ .958,
	// Followers (.95 + .18)·.8 = .904, Reels (.5·.9 + 0)·.8 = .36. The final step is the last
	// clause's best, UserByName ((.5 + 1)/2·.9 = .675 against UserData's .539); the chat
	// service's user lookup comes before the photo site's followers, which its own clause
	// prefers.
	r, l := chatOrPhoto()
	require.NoError(t, Choose(r, l, Options{}))
	assert.Equal(t, "UserByName", r.Final)
	assert.Equal(t, []string{"UserByName", "Invite", "UserData", "Followers", "Reels"}, r.Ranked)
	assert.InDelta(t, .675, r.Scores["UserByName"], 1e-9)

	// The providers may come with the candidates, as the store's sources give them, when the
	// links (a subgraph read around the best candidates) do not hold every API.
	r, l = chatOrPhoto()
	for i := range r.Goals {
		for j := range r.Goals[i].Candidates {
			c := &r.Goals[i].Candidates[j]
			c.Provider = l.apis[c.Name].Provider
		}
	}
	require.NoError(t, Choose(r, links{}, Options{}))
	assert.Equal(t, []string{"UserByName", "Invite", "UserData", "Followers", "Reels"}, r.Ranked)

	// Without context, the ranked list keeps the clauses' own order.
	r, l = chatOrPhoto()
	require.NoError(t, Choose(r, l, Options{Context: -1}))
	assert.Equal(t, []string{"UserByName", "Invite", "Followers", "UserData", "Reels"}, r.Ranked)
}

func TestChooseChainJoinsNoWriteAPartDoesNotAsk(t *testing.T) {
	// The members list is final; the clause ranks the creation of a member first, and it
	// feeds the list (the member's segment id). A question creates nothing: the chain is the
	// list and the producer of its segment. Asked to add a member, the creation joins.
	l := links{
		feeds: map[[2]string]bool{{"AddMember", "Members"}: true, {"Segments", "Members"}: true},
		producers: map[string][]Need{
			"Members": {{Inputs: []string{"segment_id"}, Producers: []Producer{{Name: "Segments"}}}},
		},
		apis: map[string]twnm.API{
			"Members": {Name: "get_segment_members", Description: "List the members of a segment.",
				Inputs: []twnm.Param{{Name: "segment_id", Type: "string", Required: true}}, Endpoint: &twnm.Endpoint{Method: "GET", Path: "/segment_members"}},
			"AddMember": {Name: "post_segment_members", Description: "Creates a segment member.",
				Outputs: []twnm.Param{{Name: "segment_id"}}, Endpoint: &twnm.Endpoint{Method: "POST", Path: "/segment_members"}},
			"Segments": {Name: "get_segments", Description: "List the segments.",
				Outputs: []twnm.Param{{Name: "segment_id"}}, Endpoint: &twnm.Endpoint{Method: "GET", Path: "/segments"}},
		},
	}
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"who are the members of the Investment Banking segment", []string{"Segments", "Members"}},
		{"create a member of the Investment Banking segment", []string{"AddMember", "Segments", "Members"}},
	} {
		clause := goal(0, false, Match{Name: "AddMember", Score: 1}, Match{Name: "Members", Score: .95})
		clause.Text = tc.text
		whole := goal(1, true, Match{Name: "Members", Score: 1}, Match{Name: "AddMember", Score: .6}, Match{Name: "Segments", Score: .3})
		whole.Text = tc.text + "?"
		r := &Result{Goals: []Goal{clause, whole}}
		require.NoError(t, Choose(r, l, Options{}))
		assert.Equal(t, tc.want, []string(r.Chain), tc.text)
	}
}

func TestChooseProducersOfProducers(t *testing.T) {
	// Reviews needs a hotel id from Search, which needs a city. Locate echoes a city's name
	// and gives its latitude (circular); Reverse and OpenReverse give the city at a point.
	num := func(name, desc string) twnm.Param {
		return twnm.Param{Name: name, Type: "number", Description: desc, Required: true}
	}
	city := twnm.Param{Name: "city", Type: "string", Description: "City name, e.g. Paris.", Required: true}
	hotels := links{
		feeds: map[[2]string]bool{{"Search", "Reviews"}: true, {"Locate", "Search"}: true, {"Reverse", "Search"}: true, {"OpenReverse", "Search"}: true},
		producers: map[string][]Need{
			"Reviews": {{Inputs: []string{"hotel_id"}, Producers: []Producer{{Name: "Search"}}}},
			"Search": {{Inputs: []string{"city"}, Producers: []Producer{{Name: "Locate", Circular: true}, {Name: "OpenReverse"},
				{Name: "Reverse"}}}},
		},
		apis: map[string]twnm.API{
			"Reviews": {Name: "Reviews", Description: "what guests say about a hotel", Inputs: []twnm.Param{{Name: "hotel_id", Type: "string", Required: true}}},
			"Search":  {Name: "Search", Description: "finds the best hotel in a city", Inputs: []twnm.Param{city}},
			"Locate": {Name: "Locate", Description: "latitude and longitude of a city", Inputs: []twnm.Param{city},
				Outputs: []twnm.Param{{Name: "city"}, {Name: "latitude"}, {Name: "longitude"}}},
			"Reverse": {Name: "Reverse", Description: "the city at a point",
				Inputs: []twnm.Param{num("latitude", "Latitude in decimal degrees."), num("longitude", "Longitude in decimal degrees.")}},
			"OpenReverse": {Name: "OpenReverse", Description: "names the place at a point",
				Inputs: []twnm.Param{num("lat", "Latitude in decimal degrees."), num("lon", "Longitude in decimal degrees.")}},
		},
	}
	tests := []struct {
		request    string
		wantChain  []string
		wantRanked []string
	}{
		// The search's city comes from the point the request states, through the reverse
		// geocoder the request retrieved best (.5); the other one ranks right after as its
		// substitute. "latitude" names a stated value: it does not ask for the geocoder
		// that gives one.
		{"What do guests say about the best hotel in the city at latitude 35.6762, longitude 139.6503?",
			[]string{"Reverse", "Search", "Reviews"}, []string{"Reviews", "Search", "Reverse", "OpenReverse", "Locate"}},
		// A stated city needs no producer.
		{"What do guests say about the best hotel in Tokyo?",
			[]string{"Search", "Reviews"}, []string{"Reviews", "Search", "Locate", "Reverse", "OpenReverse"}},
	}
	for _, tt := range tests {
		t.Run(tt.request, func(t *testing.T) {
			r := chooseWhole(t, hotels, tt.request, Match{Name: "Reviews", Score: 1}, Match{Name: "Locate", Score: .6},
				Match{Name: "Reverse", Score: .5}, Match{Name: "OpenReverse", Score: .4})
			assert.Equal(t, "Reviews", r.Final)
			assert.Equal(t, tt.wantChain, []string(r.Chain))
			assert.Equal(t, tt.wantRanked, r.Ranked)
		})
	}
}

func TestChooseIdentifierFromItsIssuer(t *testing.T) {
	// Fixtures (provider sports) needs a team id. FindClub, of another provider, scores better
	// for the request and gives a club id the graph links to it; only sports' own search
	// issues ids that sports understands. A city, by contrast, may come from any provider.
	name := func(n string) []twnm.Param { return []twnm.Param{{Name: n, Type: "string", Required: true}} }
	l := links{
		feeds: map[[2]string]bool{{"SearchTeam", "Fixtures"}: true, {"FindClub", "Fixtures"}: true, {"FindClub", "Weather"}: true},
		producers: map[string][]Need{
			"Fixtures": {{Inputs: []string{"team_id"}, Producers: []Producer{{Name: "FindClub"}, {Name: "SearchTeam"}}}},
			"Weather":  {{Inputs: []string{"city"}, Producers: []Producer{{Name: "FindClub"}, {Name: "SearchTeam"}}}},
		},
		apis: map[string]twnm.API{
			"Fixtures":   {Name: "Fixtures", Provider: "sports", Description: "next fixture of a team", Inputs: name("team_id")},
			"Weather":    {Name: "Weather", Provider: "sports", Description: "weather at the stadium", Inputs: name("city")},
			"SearchTeam": {Name: "SearchTeam", Provider: "sports", Description: "finds a team by name", Inputs: name("team_name")},
			"FindClub":   {Name: "FindClub", Provider: "scoreline", Description: "looks up a club by name", Inputs: name("club_name")},
		},
	}
	tests := []struct {
		final, request string
		want           []string
	}{
		{"Fixtures", "When is the next fixture of Arsenal?", []string{"SearchTeam", "Fixtures"}},
		{"Weather", "What is the weather at the stadium of my club?", []string{"FindClub", "Weather"}},
	}
	for _, tt := range tests {
		r := chooseWhole(t, l, tt.request, Match{Name: tt.final, Score: 1}, Match{Name: "FindClub", Score: .5})
		assert.Equal(t, tt.want, []string(r.Chain), tt.final)
	}
}

func TestChooseForeignProducerNeedsGrounds(t *testing.T) {
	// ToRGB (provider colors) needs a number "b"; the graph links Candles (provider defi), whose
	// close price is a number. Forecast (provider wx) needs a latitude, which Geocode (provider
	// maps) gives for a city. Another provider's producer takes part only where the request
	// states a value it takes, or retrieval found it.
	num := func(n string) []twnm.Param { return []twnm.Param{{Name: n, Type: "number", Required: true}} }
	l := links{
		feeds: map[[2]string]bool{{"Candles", "ToRGB"}: true, {"Geocode", "Forecast"}: true},
		producers: map[string][]Need{
			"ToRGB":    {{Inputs: []string{"b"}, Producers: []Producer{{Name: "Candles"}}}},
			"Forecast": {{Inputs: []string{"lat"}, Producers: []Producer{{Name: "Geocode"}}}},
		},
		apis: map[string]twnm.API{
			"ToRGB":    {Name: "ToRGB", Provider: "colors", Description: "converts a colour to RGB", Inputs: num("b")},
			"Candles":  {Name: "Candles", Provider: "defi", Description: "price candles of a token", Inputs: num("days")},
			"Forecast": {Name: "Forecast", Provider: "wx", Description: "weather forecast at a point", Inputs: num("lat")},
			"Geocode":  {Name: "Geocode", Provider: "maps", Description: "latitude of a city", Inputs: []twnm.Param{{Name: "city", Type: "string", Required: true}}},
		},
	}
	tests := []struct {
		name, final, request string
		others               []Match
		want                 []string
	}{
		{"neither stated nor retrieved", "ToRGB", "Convert the colour white to RGB.", nil, []string{"ToRGB"}},
		{"retrieved under half the best", "ToRGB", "Convert the colour white to RGB.", []Match{{Name: "Candles", Score: .4}}, []string{"ToRGB"}},
		{"retrieved at half the best", "ToRGB", "Convert the colour white to RGB.", []Match{{Name: "Candles", Score: .5}}, []string{"Candles", "ToRGB"}},
		{"takes a value the request states", "Forecast", "What is the weather forecast in Tokyo?", nil, []string{"Geocode", "Forecast"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := chooseWhole(t, l, tt.request, append([]Match{{Name: tt.final, Score: 1}}, tt.others...)...)
			assert.Equal(t, tt.want, []string(r.Chain))
		})
	}
}

// A request of many clauses is read as its first DefaultMaxClauses−1 clauses and its last, and the
// whole request as those clauses: retrieval's work stays bounded whatever the request's
// length, and the result says how much it left out.
func TestBoundClauses(t *testing.T) {
	var parts []string
	for i := range 30 {
		parts = append(parts, fmt.Sprintf("find the hotel number %d in Rome", i))
	}
	goals := subgoal.Split(strings.Join(parts, ", and then ") + ", and finally book the last one")
	require.Greater(t, len(goals), DefaultMaxClauses+1)
	kept, skipped := boundClauses(goals, DefaultMaxClauses)
	require.Len(t, kept, DefaultMaxClauses+1)
	assert.Equal(t, len(goals)-1-DefaultMaxClauses, skipped)
	assert.Equal(t, goals[0].Text, kept[0].Text)
	assert.Equal(t, goals[len(goals)-2].Text, kept[DefaultMaxClauses-1].Text, "the last clause is kept")
	whole := kept[DefaultMaxClauses]
	require.True(t, whole.Whole)
	assert.Contains(t, whole.Text, "book the last one")
	assert.NotContains(t, whole.Text, "number 20 ", "the whole request is the clauses read")

	short := subgoal.Split("find a hotel in Rome and book it")
	same, skipped := boundClauses(short, DefaultMaxClauses)
	assert.Equal(t, short, same)
	assert.Zero(t, skipped)
}

func TestChooseCommandedActionOverItsFeeder(t *testing.T) {
	// The search leads by its words, but the request commands a booking: the booking that the
	// search feeds (its hotel id) is the final step, the search its producer. Asked a
	// question, the search stays; and a write the leader does not feed never takes its place.
	search := twnm.API{Name: "stay.SearchHotels", Description: "Finds the best hotel in a city.",
		Inputs: []twnm.Param{{Name: "city", Required: true}}, Outputs: []twnm.Param{{Name: "hotel_id"}},
		Endpoint: &twnm.Endpoint{Method: "GET", Path: "/hotels"}}
	book := twnm.API{Name: "stay.Book", Description: "Books a hotel stay.",
		Inputs:   []twnm.Param{{Name: "hotel_id", Required: true}, {Name: "guest_name", Required: true}},
		Endpoint: &twnm.Endpoint{Method: "POST", Path: "/bookings"}}
	tests := []struct {
		name, text string
		feeds      bool
		want       []string
	}{
		{"commanded", "Reserve the best hotel in Florence under the name Maria Lopez", true, []string{"S", "B"}},
		{"asked", "Which is the best hotel in Florence?", true, []string{"S"}},
		{"not fed", "Reserve the best hotel in Florence under the name Maria Lopez", false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := links{apis: map[string]twnm.API{"S": search, "B": book}, feeds: map[[2]string]bool{}}
			if tt.feeds {
				l.feeds[[2]string{"S", "B"}] = true
				l.producers = map[string][]Need{"B": {{Inputs: []string{"hotel_id"}, Producers: []Producer{{Name: "S"}}}}}
			}
			r := chooseWhole(t, l, tt.text, Match{Name: "S", Score: 1}, Match{Name: "B", Score: .6})
			if tt.want == nil {
				assert.Equal(t, "S", r.Final, "a read that feeds no write stays, for the run to refuse")
				return
			}
			assert.Equal(t, tt.want, []string(r.Chain))
		})
	}
}

func TestFirstSameToolMergesAnAntecedent(t *testing.T) {
	// "where exactly is Lima" clears no floor; "its coordinates" takes it up by a pronoun:
	// the two are one question. A clause that clears no floor beside one that refers to
	// nothing stays apart, to be reported unserved.
	lima := goal(0, false, Match{Name: "opengeo.Reverse", Score: 1})
	lima.Relevant = false
	coords := goal(1, false, Match{Name: "geo.Geocode", Score: 1})
	assert.Equal(t, -1, firstSameTool([]Goal{lima, coords, goal(2, true)}))
	coords.Resolved = "Lima's coordinates"
	assert.Equal(t, 0, firstSameTool([]Goal{lima, coords, goal(2, true)}))
}

func TestChooseConsumerNeedsTheLeader(t *testing.T) {
	// "Give me the details of the best home for sale near …": the listing search leads, its
	// details consume its listing id and the request asks for them. A property search beside
	// them takes the details' bedrooms as an optional fewest beds, and the request's "for
	// sale" is in its document only: it is no step after the details, which stay final.
	l := links{
		feeds:     map[[2]string]bool{{"Listings", "Details"}: true, {"Details", "Search"}: true, {"Listings", "Search"}: true},
		producers: needOf("Details", "listing_id", "Listings"),
		apis: map[string]twnm.API{
			"Listings": {Name: "Listings", Description: "Finds the best homes-for-sale listing near a point.",
				Inputs: []twnm.Param{{Name: "latitude", Required: true}, {Name: "longitude", Required: true}}, Outputs: []twnm.Param{{Name: "listing_id"}, {Name: "bedrooms"}}},
			"Details": {Name: "ListingDetails", Description: "Details of a listing.",
				Inputs: []twnm.Param{{Name: "listing_id", Required: true}}, Outputs: []twnm.Param{{Name: "bedrooms"}, {Name: "year_built"}}},
			"Search": {Name: "Search", Description: "Searches properties for sale near a latitude and longitude.",
				Inputs: []twnm.Param{{Name: "lat", Required: true}, {Name: "lon", Required: true}, {Name: "beds"}}, Outputs: []twnm.Param{{Name: "property_id"}}},
		},
	}
	r := chooseWhole(t, l, "Give me the details of the best home for sale near latitude 40.4168, longitude -3.7038.",
		Match{Name: "Listings", Score: 1}, Match{Name: "Search", Score: .9}, Match{Name: "Details", Score: .8})
	assert.Equal(t, "Details", r.Final)
	assert.Equal(t, []string{"Listings", "Details"}, []string(r.Chain))

	// Fed a required input, the search would be the step after the details.
	l.producers["Search"] = []Need{{Inputs: []string{"beds"}, Producers: []Producer{{Name: "Details"}}}}
	r = chooseWhole(t, l, "Give me the details of the best home for sale near latitude 40.4168, longitude -3.7038.",
		Match{Name: "Listings", Score: 1}, Match{Name: "Search", Score: .9}, Match{Name: "Details", Score: .8})
	assert.Equal(t, "Search", r.Final)
}

func TestPartOf(t *testing.T) {
	clause := func(text string, names ...string) Goal {
		g := Goal{Goal: subgoal.Goal{Text: text}}
		for i, n := range names {
			g.Candidates = append(g.Candidates, Match{Name: n, Score: 1 - 0.1*float64(i)})
		}
		return g
	}
	whole := Goal{Goal: subgoal.Goal{Text: "When do Ajax play next, and who leads the Eredivisie?", Whole: true}}
	r := &Result{Goals: []Goal{clause("When do Ajax play next", "Fixtures", "Standings"), clause("who leads the Eredivisie", "Standings"), whole}}
	assert.Equal(t, "When do Ajax play next", r.PartOf("Fixtures"))
	assert.Equal(t, "who leads the Eredivisie", r.PartOf("Standings"), "the clause that ranks it first")
	assert.Equal(t, whole.Text, r.PartOf("Elsewhere"), "no clause holds it")

	r = &Result{Goals: []Goal{clause("Who leads Ligue 1", "Standings"), clause("who's their top scorer", "Players"),
		{Goal: subgoal.Goal{Text: "Who leads Ligue 1, and who's their top scorer?", Whole: true}}}}
	assert.Equal(t, "Who leads Ligue 1 who's their top scorer", r.PartOf("Players"), "their refers back")

	r = &Result{Goals: []Goal{clause("weather in Oslo", "Weather"), {Goal: subgoal.Goal{Text: "weather in Oslo", Whole: true}}}}
	assert.Equal(t, "weather in Oslo", r.PartOf("Weather"), "one clause: the whole request")
}

// A part the chain already answers joins no call of its own, unless that call gives more of
// what the part asks for: "… and how many build minutes have we used?" is told by the
// account's build status the chain reads; "… and filter out the movies the user has watched"
// asks for what the watched movies give, though the recommendations give movies too.
func TestBranchesSkipAPartTheChainTells(t *testing.T) {
	out := func(names ...string) []twnm.Param {
		var ps []twnm.Param
		for _, n := range names {
			ps = append(ps, twnm.Param{Name: n})
		}
		return ps
	}
	l := links{apis: map[string]twnm.API{
		"BuildStatus": {Name: "BuildStatus", Description: "Build status of an account.", Outputs: out("active_builds", "build_minutes_used")},
		"SiteBuilds":  {Name: "SiteBuilds", Description: "Builds of a site.", Outputs: out("build_id", "deploy_time")},
		"Recommend":   {Name: "Recommend", Description: "Recommended movies.", Outputs: out("movies")},
		"Watched":     {Name: "Watched", Description: "Movies a user watched.", Outputs: out("watched_movies")},
		"StartBuild": {Name: "StartBuild", Description: "Starts a build.", Endpoint: &twnm.Endpoint{Method: "POST", Path: "/builds"},
			Outputs: out("build_id")},
	}}
	for _, tc := range []struct {
		name, first, second   string
		chain                 []string
		firstBest, secondBest string
		want                  []string
	}{
		{"told by the chain", "How many builds are running right now", "how many build minutes have we used",
			[]string{"BuildStatus"}, "BuildStatus", "SiteBuilds", nil},
		{"the part's own call tells more", "Recommend movies from my preferences", "filter out the movies that the user has watched",
			[]string{"Recommend"}, "Recommend", "Watched", []string{"Watched"}},
		// A part that states a value is about it, which the chain was not given.
		{"a stated value", "How many builds are running right now", "how many build minutes were used on 2025-06-23",
			[]string{"BuildStatus"}, "BuildStatus", "SiteBuilds", []string{"SiteBuilds"}},
		// A change is made by the part's own call, whatever the chain tells.
		{"a change", "How many builds are running right now", "create a build that uses build minutes",
			[]string{"BuildStatus"}, "BuildStatus", "StartBuild", []string{"StartBuild"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first := goal(0, false, Match{Name: tc.firstBest, Score: 1, Dense: .4})
			first.Text = tc.first
			second := goal(1, false, Match{Name: tc.secondBest, Score: 1, Dense: .4}, Match{Name: tc.firstBest, Score: .8, Dense: .3})
			second.Text = tc.second
			whole := goal(2, true, Match{Name: tc.firstBest, Score: 1}, Match{Name: tc.secondBest, Score: .9})
			whole.Text = tc.first + ", and " + tc.second
			r := &Result{Goals: []Goal{first, second, whole}}
			assert.Equal(t, tc.want, r.Branches(tc.chain, l, Options{}).Names())
		})
	}
}

func TestChooseCommandNamingNoAction(t *testing.T) {
	// "queue up Mr. Brightside …": the command's verb names no action, and its words and the
	// encoder both rank the queue's addition first: a command asks for what its verb does, so
	// the write is the final step. Told nothing of an action, a question or a statement still
	// presumes a read, and so does a command whose words and meaning disagree: the queue's
	// reading answers.
	add := twnm.API{Name: "spotify.add-to-queue", Description: "Add an item to the end of the user's current playback queue.",
		Inputs: []twnm.Param{{Name: "uri", Required: true}}, Endpoint: &twnm.Endpoint{Method: "POST", Path: "/me/player/queue"}}
	get := twnm.API{Name: "spotify.get-queue", Description: "Get the list of objects that make up the user's queue.",
		Outputs: []twnm.Param{{Name: "queue"}}, Endpoint: &twnm.Endpoint{Method: "GET", Path: "/me/player/queue"}}
	l := links{apis: map[string]twnm.API{"Add": add, "Get": get}, feeds: map[[2]string]bool{}}
	for _, tt := range []struct{ text, want string }{
		{"queue up Mr. Brightside by The Killers to play next", "Add"},
		{"Please queue up Mr. Brightside by The Killers", "Add"},
		{"the queue with Mr. Brightside by The Killers", "Get"},
		{"Is Mr. Brightside by The Killers in the queue?", "Get"},
	} {
		r := chooseWhole(t, l, tt.text, Match{Name: "Add", Score: 1, Dense: .31}, Match{Name: "Get", Score: .87, Dense: .25})
		assert.Equal(t, tt.want, r.Final, tt.text)
	}
	r := chooseWhole(t, l, "queue up Mr. Brightside by The Killers", Match{Name: "Add", Score: 1, Dense: .25}, Match{Name: "Get", Score: .87, Dense: .31})
	assert.Equal(t, "Get", r.Final, "the encoder places the read first")
}

func TestChooseListDoesNotTellAWrite(t *testing.T) {
	// "Can you put the site back on the deploy built from commit 9f2c4e1?": the restore leads
	// and takes a deploy id the request does not state, which the site's deploys give with
	// every output the restore gives. A list tells what a lookup would, not what a restore
	// does: the restore stays, the list its producer.
	outputs := []twnm.Param{{Name: "id"}, {Name: "state"}, {Name: "commit_ref"}}
	siteID := twnm.Param{Name: "site_id", Type: "string", Required: true}
	list := twnm.API{Name: "listSiteDeploys", Provider: "netlify", Inputs: []twnm.Param{siteID}, Outputs: outputs,
		Endpoint: &twnm.Endpoint{Method: "GET", Path: "/sites/{site_id}/deploys"}}
	restore := twnm.API{Name: "restoreSiteDeploy", Provider: "netlify", Outputs: outputs,
		Inputs:   []twnm.Param{siteID, {Name: "deploy_id", Type: "string", Required: true}},
		Endpoint: &twnm.Endpoint{Method: "POST", Path: "/sites/{site_id}/deploys/{deploy_id}/restore"}}
	l := links{feeds: map[[2]string]bool{{"List", "Restore"}: true},
		producers: map[string][]Need{"Restore": {{Inputs: []string{"deploy_id"}, Producers: []Producer{{Name: "List"}}}}},
		apis:      map[string]twnm.API{"List": list, "Restore": restore}}
	r := chooseWhole(t, l, "put the site back on the deploy built from commit 9f2c4e1",
		Match{Name: "Restore", Score: 1, Dense: .54}, Match{Name: "List", Score: .93, Dense: .36})
	assert.Equal(t, "Restore", r.Final)
	assert.Equal(t, []string{"List", "Restore"}, []string(r.Chain))
}

func TestChooseLastPartThatStatesATask(t *testing.T) {
	// "Who's actually in the 'Weekend Volunteers' channel? It's in service IS33cc…": the
	// second sentence states no task (Tentative) and its words rank the service's lookup
	// nearer than the first sentence's rank anything; it says what the request is about. The
	// final step is the first sentence's. A request whose clauses all state no task still
	// reads its last.
	get := func(path string) twnm.API { return twnm.API{Endpoint: &twnm.Endpoint{Method: "GET", Path: path}} }
	l := links{apis: map[string]twnm.API{"ListMember": get("/channels/{c}/members"), "FetchService": get("/services/{s}")}, feeds: map[[2]string]bool{}}
	for _, tt := range []struct {
		firstTentative bool
		want           string
	}{{false, "ListMember"}, {true, "FetchService"}} {
		first := withText(goal(0, false, Match{Name: "ListMember", Score: 1, Dense: .2}, Match{Name: "FetchService", Score: .3, Dense: .1}), "Who's actually in the 'Weekend Volunteers' channel")
		first.Best, first.Tentative = .2, tt.firstTentative
		second := withText(goal(1, false, Match{Name: "FetchService", Score: 1, Dense: .35}), "It's in service IS33ccfc37742bb2922ee3fce328b68dae")
		second.Best, second.Tentative = .35, true
		whole := goal(2, true, Match{Name: "FetchService", Score: 1, Dense: .28}, Match{Name: "ListMember", Score: .9, Dense: .27})
		r := &Result{Goals: []Goal{first, second, whole}}
		require.NoError(t, Choose(r, l, Options{}))
		assert.Equal(t, tt.want, r.Final, "first tentative: %v", tt.firstTentative)
	}
}

func TestChooseTheDayAskedFor(t *testing.T) {
	// "weather tomorrow in Oslo": a tool that gives what it gives on the day asked keeps its
	// score (its description says tomorrow's, or it takes the day); one that says nothing of
	// when scales by otherDay (0.7), and one dated to today only gives nothing of tomorrow (0);
	// the best is then 1 again. For today, a tool that says nothing of when gives the present's
	// and keeps its score; tomorrow's gives nothing of today.
	read := func(desc string, in ...twnm.Param) twnm.API {
		return twnm.API{Description: desc, Inputs: in, Endpoint: &twnm.Endpoint{Method: "GET", Path: "/weather"}}
	}
	l := links{feeds: map[[2]string]bool{}, apis: map[string]twnm.API{
		"Current":  read("Current weather at a point: temperature, humidity, wind and conditions."),
		"Daily":    read("Tomorrow's high, low and rain chance at a latitude and longitude."),
		"Forecast": read("Daily weather forecast at a point.", twnm.Param{Name: "days", Type: "integer", Description: "Days ahead, 1 to 7."}),
		"Sun":      read("Sunrise, sunset and UV index at a point."),
	}}
	cands := []Match{{Name: "Current", Score: 1}, {Name: "Sun", Score: .95}, {Name: "Forecast", Score: .9}, {Name: "Daily", Score: .85}}
	tests := []struct {
		request string
		want    map[string]float64
		final   string
	}{
		{"weather tomorrow in Oslo", map[string]float64{"Forecast": 1, "Daily": .85 / .9, "Sun": .95 * .7 / .9, "Current": 0}, "Forecast"},
		{"weather today in Oslo", map[string]float64{"Current": 1, "Sun": .95, "Forecast": .9, "Daily": 0}, "Current"},
		{"weather in Oslo", map[string]float64{"Current": 1, "Sun": .95, "Forecast": .9, "Daily": .85}, "Current"}, // no day: as retrieved
		{"weather in Oslo right now", map[string]float64{"Current": 1, "Sun": .95, "Forecast": .9, "Daily": 0}, "Current"},
	}
	for _, tt := range tests {
		r := chooseWhole(t, l, tt.request, slices.Clone(cands)...)
		got := map[string]float64{}
		for _, c := range r.Goals[0].Candidates {
			got[c.Name] = c.Score
		}
		for name, want := range tt.want {
			assert.InDelta(t, want, got[name], 1e-9, "%s: %s", tt.request, name)
		}
		assert.Equal(t, tt.final, r.Final, tt.request)
	}
	// The head names no day; it asks about the day of the part it was read from.
	r := &Result{Goals: []Goal{{Goal: subgoal.Goal{Text: "What will the high be in Oslo tomorrow", Whole: true}, Candidates: slices.Clone(cands)}},
		Focus: &Goal{Goal: subgoal.Goal{Text: "What will the high be"}, Candidates: slices.Clone(cands)}}
	inTime(r, l)
	assert.Equal(t, "Forecast", r.Focus.Candidates[0].Name)
	assert.Zero(t, r.Focus.Candidates[len(r.Focus.Candidates)-1].Score, "Current, dated today only")
}

func TestHeadsPart(t *testing.T) {
	goal := func(text string, whole bool) Goal { return Goal{Goal: subgoal.Goal{Text: text, Whole: whole}} }
	r := &Result{Goals: []Goal{
		goal("When do Ajax play next, and who leads the league tomorrow", true),
		goal("When do Ajax play next", false),
		goal("who leads the league tomorrow", false),
	}}
	tests := []struct{ head, want string }{
		{"When do Ajax play", "When do Ajax play next"},           // the shortest part that holds it
		{"When do Ajax play next", "When do Ajax play next"},      // a part of its own
		{"who leads the league", "who leads the league tomorrow"}, // not the whole request
		{"the best hotel in Rome", "the best hotel in Rome"},      // no part holds it: its own
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, r.headsPart(goal(tt.head, false)).Text, tt.head)
	}
}

func TestChooseNamesMoreOfTheHead(t *testing.T) {
	// "What's the nightly rate at the best hotel in Seville?": the restaurant finder (R) leads,
	// its "rating" a "rate" of the head; the hotel finder (H), at .8 of it, has an output named
	// nightly_rate, both words of the head, and R's document holds "nightly" nowhere: H answers.
	// Where H's outputs name only what R's do, or a word R's own description holds, R stays.
	// Where R's name nothing of the head, H answers by an output the whole head names.
	restaurants := twnm.API{Name: "SearchNearby", Description: "Finds the best-rated restaurant near a point.",
		Inputs:  []twnm.Param{{Name: "latitude", Required: true}, {Name: "longitude", Required: true}},
		Outputs: []twnm.Param{{Name: "restaurant_id"}, {Name: "rating"}}}
	for _, tc := range []struct {
		name, head       string
		hotelsIn, hotels []twnm.Param
		want             string
	}{
		{"names more", "What's the nightly rate", nil, []twnm.Param{{Name: "hotel_id"}, {Name: "nightly_rate"}}, "H"},
		{"no head", "", nil, []twnm.Param{{Name: "hotel_id"}, {Name: "nightly_rate"}}, "R"},
		{"names the same", "What's the nightly rate", nil, []twnm.Param{{Name: "hotel_id"}, {Name: "rate"}}, "R"},
		{"misses the leader's word", "What's the nightly rate", nil, []twnm.Param{{Name: "hotel_id"}, {Name: "nightly_price"}}, "R"},
		{"a word the leader holds", "What's the restaurant rating", nil, []twnm.Param{{Name: "restaurant_rating"}}, "R"},
		{"by an output's description", "What's the nightly rate", nil, []twnm.Param{{Name: "hotel_id"}, {Name: "price", Description: "Nightly rate in EUR."}}, "H"},
		// What H was given, not what it answers.
		{"a word naming an input", "What's the nightly rate", []twnm.Param{{Name: "nightly_plan", Required: true}}, []twnm.Param{{Name: "price", Description: "Nightly rate in EUR."}}, "R"},
		{"a date is no answer", "Tomorrow's rate", nil, []twnm.Param{{Name: "rating_tomorrow"}}, "R"},
		// R's answer names none of the head: H needs one output the whole head names.
		{"one output named by the head", "What's the home stadium", nil, []twnm.Param{{Name: "stadium", Description: "Home stadium."}}, "H"},
		{"the head's words in two outputs", "What's the home stadium", nil, []twnm.Param{{Name: "stadium"}, {Name: "home_team"}}, "R"},
		{"an identifier tells nothing", "What's the home stadium", nil, []twnm.Param{{Name: "stadium_id", Description: "Id of the home stadium."}}, "R"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := links{apis: map[string]twnm.API{"R": restaurants,
				"H": {Name: "SearchHotels", Description: "Finds the best hotel in a city.", Inputs: tc.hotelsIn, Outputs: tc.hotels}}}
			r := &Result{Goals: []Goal{withText(goal(0, true, Match{Name: "R", Score: 1}, Match{Name: "H", Score: .8}),
				"What's the nightly rate at the best hotel in Seville?")}}
			if tc.head != "" {
				head := withText(goal(0, false, Match{Name: "R", Score: 1}, Match{Name: "H", Score: .8}), tc.head)
				r.Focus = &head
			}
			require.NoError(t, Choose(r, l, Options{}))
			assert.Equal(t, tc.want, r.Final)
		})
	}
}

func TestChooseCuedOnly(t *testing.T) {
	// "How much is listing lst-0515bb06 worth?": the listing's details (L) lead on the word
	// "listing" alone, which names the input the stated id fills; the valuation (R), more
	// like the request in meaning, takes that id too: R answers. "Look up songs by Bob
	// Marley": a club's lookup (L) leads on the verb alone; the track search (R) answers. L
	// stays where it shares another word with the request, where R does not take the id or
	// needs a value nobody states, where R is less like the request, or where L shares no word.
	listingID := []twnm.Param{{Name: "listing_id", Required: true, Description: "Listing id."}}
	details := twnm.API{Name: "ListingDetails", Description: "Details of a listing.", Inputs: listingID,
		Outputs: []twnm.Param{{Name: "bedrooms"}, {Name: "year_built"}}}
	valuation := func(in ...twnm.Param) twnm.API {
		return twnm.API{Name: "Valuation", Description: "Estimated market value of a home.", Inputs: in,
			Outputs: []twnm.Param{{Name: "estimated_value"}}}
	}
	club := twnm.API{Name: "FindClub", Description: "Finds a club by name.",
		Inputs: []twnm.Param{{Name: "club_name", Required: true}}, Outputs: []twnm.Param{{Name: "club_id"}}}
	tracks := func(in ...twnm.Param) twnm.API {
		return twnm.API{Name: "SearchTracks", Description: "Finds an artist's tracks.", Inputs: in,
			Outputs: []twnm.Param{{Name: "track_id"}, {Name: "title"}}}
	}
	artist := twnm.Param{Name: "artist_name", Required: true, Description: "Artist's name."}
	for _, tc := range []struct {
		name, request string
		leader, rival twnm.API
		rivalLike     float64
		want          string
	}{
		{"an input's word only", "How much is listing lst-0515bb06 worth?", details, valuation(listingID...), .45, "R"},
		{"another word shared", "What are the details of listing lst-0515bb06?", details, valuation(listingID...), .45, "L"},
		{"the rival takes no such value", "How much is listing lst-0515bb06 worth?", details,
			valuation(twnm.Param{Name: "home_id", Required: true}), .45, "L"},
		{"the rival less like the request", "How much is listing lst-0515bb06 worth?", details, valuation(listingID...), .2, "L"},
		{"no word shared", "How much is it worth?", details, valuation(listingID...), .45, "L"},
		{"the verb only", "Find songs by Bob Marley", club, tracks(artist), .45, "R"},
		{"the rival needs an unstated value", "Find songs by Bob Marley", club,
			tracks(artist, twnm.Param{Name: "market", Required: true, Description: "Market code."}), .45, "L"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := links{apis: map[string]twnm.API{"L": tc.leader, "R": tc.rival}}
			r := &Result{Goals: []Goal{withText(goal(0, true, Match{Name: "L", Score: 1, Dense: .33}, Match{Name: "R", Score: .4, Dense: tc.rivalLike}),
				tc.request)}}
			require.NoError(t, Choose(r, l, Options{}))
			assert.Equal(t, tc.want, r.Final)
		})
	}
}

func TestWordless(t *testing.T) {
	words := func(lex ...float64) Goal {
		g := goal(0, true)
		for i, l := range lex {
			g.Candidates = append(g.Candidates, Match{Name: fmt.Sprint(i), Lexical: l, Dense: .3})
			g.Worded = g.Worded || l > 0 // as the ranker reads its BM25 hits
		}
		return g
	}
	for _, c := range []struct {
		name  string
		goals []Goal
		head  *Goal
		want  bool
	}{
		{"meaning alone", []Goal{words(0, 0), words(0)}, nil, true},
		{"a word in a part", []Goal{words(0, 0), words(0, 1.2)}, nil, false},
		{"a word in the head", []Goal{words(0)}, &Goal{Candidates: []Match{{Name: "h", Lexical: .5}}, Worded: true}, false},
		{"no candidate", []Goal{words()}, nil, false},
	} {
		r := &Result{Goals: c.goals, Focus: c.head}
		assert.Equal(t, c.want, r.Wordless(), c.name)
	}
}
