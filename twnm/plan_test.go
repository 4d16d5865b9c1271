package twnm

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSubgraphTree(t *testing.T) {
	g := graphOf(t, append(travelAPIs(), tool("Trip", "hotel_name temperature budget? nights", "plan"))...)
	sg, err := DefaultAlphaBeta().Search(context.Background(), g, SearchRequest{
		Target: apiID(t, g, "Trip"),
		Known:  map[string]string{"address": "10 Rue de Rivoli, Paris", "city": "Paris", "budget": `"cheap"`},
	})
	require.NoError(t, err)
	want := `Trip (score 0.00)
├─ hotel_name ← HotelDetails.hotel_name
│  └─ HotelDetails
│     └─ hotel_id ← HotelSearch.hotel_id
│        └─ HotelSearch
│           └─ city = "Paris" (given)
├─ nights (required, missing)
├─ temperature ← Weather.temperature
│  └─ Weather
│     ├─ latitude ← Geocoding.latitude
│     │  └─ Geocoding
│     │     └─ address = "10 Rue de Rivoli, Paris" (given)
│     ├─ longitude ← Geocoding.longitude (see above)
│     └─ units (optional, unbound)
└─ budget = "\"cheap\"" (given)
`
	assert.Equal(t, want, sg.Tree(g))
	// Trip's missing input zeroes the search score; the tree still shows the best bindings.
	assert.Zero(t, sg.Score)
}

func TestSubgraphTreeScore(t *testing.T) {
	g := graphOf(t, travelAPIs()...)
	sg, err := DefaultAlphaBeta().Search(context.Background(), g, SearchRequest{
		Target: apiID(t, g, "Weather"), Known: map[string]string{"address": "Paris"}})
	require.NoError(t, err)
	assert.Equal(t, `Weather (score 0.36)
├─ latitude ← Geocoding.latitude
│  └─ Geocoding
│     └─ address = "Paris" (given)
├─ longitude ← Geocoding.longitude (see above)
└─ units (optional, unbound)
`, sg.Tree(g))
}

func TestSubgraphTreeAlias(t *testing.T) {
	// HotelSearch outputs "id"; history says it feeds hotel_id.
	g := graphOf(t, tool("HotelSearch", "city", "id"), tool("HotelDetails", "hotel_id", "hotel_name"))
	g.AddEdge(Feeds, paramID(t, g, "id"), paramID(t, g, "hotel_id")).Weight = 0.5
	sg, err := DefaultAlphaBeta().Search(context.Background(), g, SearchRequest{
		Target: apiID(t, g, "HotelDetails"), Known: map[string]string{"city": "Rome"}})
	require.NoError(t, err)
	assert.Equal(t, `HotelDetails (score 0.30)
└─ hotel_id ← HotelSearch.id
   └─ HotelSearch
      └─ city = "Rome" (given)
`, sg.Tree(g))
	p, err := sg.Plan(g, map[string]string{"city": "Rome"})
	require.NoError(t, err)
	assert.Equal(t, [2]string{"HotelSearch", "id"}, [2]string{p.Steps[1].Bindings[0].FromAPI, p.Steps[1].Bindings[0].FromOutput})
}

// A binding that rests on a predicted link alone says so, with the link's probability; one the
// history or the catalog shows does not.
func TestSubgraphPlanPredictedLink(t *testing.T) {
	tests := []struct {
		name string
		edge func(e *Edge)
		want float64
	}{
		{"predicted only", func(e *Edge) { e.Predicted, e.HasPrediction = 0.91, true }, 0.91},
		{"predicted and observed", func(e *Edge) { e.Predicted, e.HasPrediction, e.Count, e.Success = 0.91, true, 2, 2 }, 0},
		{"predicted and in the catalog", func(e *Edge) { e.Predicted, e.HasPrediction, e.Confidence = 0.91, true, 0.8 }, 0},
		{"observed only", func(e *Edge) { e.Weight, e.Count, e.Success = 0.5, 1, 1 }, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := graphOf(t, tool("HotelSearch", "city", "id"), tool("HotelDetails", "hotel_id", "hotel_name"))
			tt.edge(g.AddEdge(Feeds, paramID(t, g, "id"), paramID(t, g, "hotel_id")))
			sg, err := DefaultAlphaBeta().Search(context.Background(), g, SearchRequest{
				Target: apiID(t, g, "HotelDetails"), Known: map[string]string{"city": "Rome"}})
			require.NoError(t, err)
			p, err := sg.Plan(g, map[string]string{"city": "Rome"})
			require.NoError(t, err)
			require.Len(t, p.Steps, 2)
			assert.Equal(t, tt.want, p.Steps[1].Bindings[0].Predicted)
			if tt.want > 0 {
				assert.Equal(t, []string{"HotelSearch → HotelDetails, p = 0.91"}, p.PredictedLinks())
			} else {
				assert.Empty(t, p.PredictedLinks())
			}
		})
	}
}

func TestSubgraphPlan(t *testing.T) {
	g := graphOf(t, append(travelAPIs(), tool("Trip", "hotel_name temperature", "plan"))...)
	known := map[string]string{"address": "Paris", "city": "Paris"}
	sg, err := DefaultAlphaBeta().Search(context.Background(), g, SearchRequest{Target: apiID(t, g, "Trip"), Known: known})
	require.NoError(t, err)
	// A later value for units, and a new address, reach the plan.
	p, err := sg.Plan(g, map[string]string{"address": "Lyon", "city": "Paris", "units": "metric"})
	require.NoError(t, err)

	var order []string
	for _, s := range p.Steps {
		order = append(order, s.API)
	}
	// Geocoding and HotelSearch are ready first (by name), Weather after Geocoding.
	assert.Equal(t, []string{"Geocoding", "HotelSearch", "HotelDetails", "Weather", "Trip"}, order)
	assert.Equal(t, "Trip", p.Target)
	assert.Empty(t, p.Missing())
	assert.Equal(t, []Binding{{Param: "address", Required: true, Source: SupplyGiven, Value: "Lyon"}},
		p.Steps[0].Bindings)
	assert.Equal(t, []Binding{
		{Param: "latitude", Required: true, Source: SupplyUpstream, FromAPI: "Geocoding", FromOutput: "latitude"},
		{Param: "longitude", Required: true, Source: SupplyUpstream, FromAPI: "Geocoding", FromOutput: "longitude"},
		{Param: "units", Source: SupplyGiven, Value: "metric"},
	}, p.Steps[3].Bindings)
	assert.Equal(t, [2]string{"HotelDetails", "hotel_name"}, [2]string{p.Steps[4].Bindings[0].FromAPI, p.Steps[4].Bindings[0].FromOutput})
	assert.Equal(t, [2]string{"Weather", "temperature"}, [2]string{p.Steps[4].Bindings[1].FromAPI, p.Steps[4].Bindings[1].FromOutput})
	assert.Equal(t, 3, p.StepOf("Weather"))
	assert.Equal(t, -1, p.StepOf("OpenGeo"))
}

func TestSubgraphPlanMissing(t *testing.T) {
	g := graphOf(t, travelAPIs()...)
	sg, err := DefaultAlphaBeta().Search(context.Background(), g, SearchRequest{Target: apiID(t, g, "Restaurants")})
	require.NoError(t, err)
	p, err := sg.Plan(g, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"Restaurants.latitude", "Restaurants.longitude"}, p.Missing())
	// A value supplied after the search binds the input.
	p, err = sg.Plan(g, map[string]string{"latitude": "1"})
	require.NoError(t, err)
	assert.Equal(t, []string{"Restaurants.longitude"}, p.Missing())
}

// A producer branch with nothing stated to run on is cut where other producers could feed the
// same input (which one is meant is a guess: the input is asked for), and kept where it is the
// only way to its input (its own inputs are asked for).
func TestGround(t *testing.T) {
	g := graphOf(t, append(travelAPIs(), tool("HotelPlace", "hotel_id", "latitude longitude"), tool("Book", "hotel_id guest", "booking_id"),
		tool("ClaimRoom", "city", "hotel_id"))...)
	plan := func(target string, known map[string]string, exclude ...string) Plan {
		t.Helper()
		ex := map[NodeID]bool{}
		for _, e := range exclude {
			ex[apiID(t, g, e)] = true
		}
		sg, err := DefaultAlphaBeta().Search(context.Background(), g, SearchRequest{Target: apiID(t, g, target), Known: known, Exclude: ex})
		require.NoError(t, err)
		p, err := sg.Plan(g, known)
		require.NoError(t, err)
		return Ground(p, g, ex)
	}
	tests := []struct {
		name, target string
		known        map[string]string
		exclude      []string
		apis         []string
		missing      []string
	}{
		{"no place stated: the weather's coordinates are asked for", "Weather", nil, nil,
			[]string{"Weather"}, []string{"Weather.latitude", "Weather.longitude"}},
		{"a city stated grounds its geocoder", "Weather", map[string]string{"city": "Paris"}, nil,
			[]string{"OpenGeo", "Weather"}, nil},
		// ClaimRoom, a write, is a second producer of hotel ids unless the search leaves it out.
		{"the only usable producer of a hotel id stays, its city asked for", "Book", map[string]string{"guest": "Ada Lovelace"}, []string{"ClaimRoom"},
			[]string{"HotelSearch", "Book"}, []string{"HotelSearch.city"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := plan(tt.target, tt.known, tt.exclude...)
			assert.Equal(t, tt.apis, p.APIs())
			assert.Equal(t, tt.missing, p.Missing())
		})
	}
	// An identifier is never asked for itself, however many producers it has: a user gets it
	// from its issuer, whose own input is asked for instead.
	p := plan("Book", map[string]string{"guest": "Ada Lovelace"})
	require.Len(t, p.Steps, 2)
	assert.Equal(t, []string{p.Steps[0].API + ".city"}, p.Missing())
}

func TestSubgraphPlanCycle(t *testing.T) {
	g := graphOf(t, tool("T", "x", "out"), tool("A", "y", "x"), tool("B", "x", "y"))
	T, A, B := apiID(t, g, "T"), apiID(t, g, "A"), apiID(t, g, "B")
	x, y := paramID(t, g, "x"), paramID(t, g, "y")
	sg := assemble(g, T, map[NodeID][]Supply{
		T: {{API: T, Param: x, Required: true, Source: SupplyUpstream, Producer: A, Output: x}},
		A: {{API: A, Param: y, Required: true, Source: SupplyUpstream, Producer: B, Output: y}},
		B: {{API: B, Param: x, Required: true, Source: SupplyUpstream, Producer: A, Output: x}},
	})
	_, err := sg.Plan(g, nil)
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrPlanCycle))
	assert.Contains(t, err.Error(), "among A, B")
	assert.NotContains(t, err.Error(), "T,")
}

func TestJoinBranches(t *testing.T) {
	// "Reviews of Titanic, what is trending, movies similar to it and photos of its star":
	// the similar movies share the title search with the reviews and bind it alike, so one
	// search serves both; the trending list is joined; the photos need a person id nothing
	// binds and are left out. The target (Reviews) stays last in the plan.
	ctx := context.Background()
	g, err := Build(ctx, movies, BuildOptions{Embedder: hashed(t)})
	require.NoError(t, err)
	known := map[string]string{"query": "Titanic"}
	s := DefaultAlphaBeta()
	search := func(api string, known map[string]string) *Subgraph {
		sub, err := s.Search(ctx, g, SearchRequest{Target: mustAPI(t, g, api), Known: known})
		require.NoError(t, err)
		return sub
	}
	sub := search("Reviews", known)
	joined := sub.Join(nil, search("Similar", known), nil, search("PersonImages", known), search("Trending", known))
	assert.Equal(t, []int{0, 3}, joined)
	assert.Equal(t, []string{"Reviews", "SearchMovie", "Similar", "Trending"}, sub.APINames(g))
	assert.Equal(t, mustAPI(t, g, "Reviews"), sub.Target)
	perAPI := map[string]int{}
	for _, in := range sub.Inputs {
		perAPI[g.Node(in.API).Name]++
	}
	assert.Equal(t, map[string]int{"Reviews": 2, "SearchMovie": 1, "Similar": 1}, perAPI, "one supply per input: the shared search once")

	p, err := sub.Plan(g, known)
	require.NoError(t, err)
	var steps []string
	for _, st := range p.Steps {
		steps = append(steps, st.API)
	}
	assert.Equal(t, []string{"SearchMovie", "Similar", "Trending", "Reviews"}, steps)
	assert.Equal(t, "Reviews", p.Target)
	assert.Empty(t, p.Missing())

	// A branch that would search another title cannot share the call: it is left out.
	sub = search("Reviews", known)
	assert.Empty(t, sub.Join(nil, search("Similar", map[string]string{"query": "Avatar"})))
	assert.Equal(t, []string{"Reviews", "SearchMovie"}, sub.APINames(g))

	// Nor can one whose parts do not both state the value the shared call is given.
	sub = search("Reviews", known)
	notShared := func(_ int, _ string, shared bool) bool { return !shared }
	assert.Empty(t, sub.Join(notShared, search("Similar", known)))
	stated := func(_ int, v string, _ bool) bool { return v == "Titanic" }
	assert.Equal(t, []int{0}, sub.Join(stated, search("Similar", known)))
}

// A plan's JSON is the one workflow histories hold (the form planner.Plan had before it
// became this type): it reads and writes back unchanged, sources by name.
func TestPlanJSON(t *testing.T) {
	const recorded = `{"target":"weather.Current","score":0.7,"steps":[` +
		`{"api":"geo.Geocode","bindings":[{"param":"city","required":true,"source":"given","value":"Rome"}]},` +
		`{"api":"weather.Current","bindings":[{"param":"latitude","required":true,"source":"upstream","from_api":"geo.Geocode","from_output":"latitude"},` +
		`{"param":"units","source":"unbound"},{"param":"key","required":true,"source":"missing"}]}]}`
	var p Plan
	require.NoError(t, json.Unmarshal([]byte(recorded), &p))
	assert.Equal(t, SupplyUpstream, p.Steps[1].Bindings[0].Source)
	assert.Equal(t, "geo.Geocode", p.Steps[1].Bindings[0].FromAPI)
	assert.Equal(t, []string{"weather.Current.key"}, p.Missing())
	b, err := json.Marshal(p)
	require.NoError(t, err)
	assert.JSONEq(t, recorded, string(b))

	assert.ErrorContains(t, json.Unmarshal([]byte(`{"steps":[{"api":"a","bindings":[{"param":"p","source":"guessed"}]}]}`), &p),
		`supply source "guessed" is not one of given, upstream, missing, unbound`)
}

func TestJoinFillsASharedCallsOptionalInput(t *testing.T) {
	// The reviews' part searches the best hotel in Dubai; the prices' part searches it too,
	// checking in on a day its clause states, which the search takes as an optional input.
	// One search serves both, with the day: the optional input one part leaves unbound takes
	// the other's value. A shared call whose required input differs, or whose optional input
	// both bind differently, is no shared call.
	const search, reviews, prices, city, checkIn, hotel, day = 1, 2, 3, 10, 11, 12, 13
	main := func() *Subgraph {
		return &Subgraph{Target: reviews, APIs: []NodeID{reviews, search}, Inputs: []Supply{
			{API: reviews, Param: hotel, Required: true, Source: SupplyUpstream, Producer: search, Output: hotel},
			{API: search, Param: city, Required: true, Source: SupplyGiven, Value: "Dubai"},
			{API: search, Param: checkIn, Source: SupplyUnbound},
		}}
	}
	branch := func(cityValue, checkInValue string) *Subgraph {
		return &Subgraph{Target: prices, APIs: []NodeID{prices, search}, Inputs: []Supply{
			{API: prices, Param: hotel, Required: true, Source: SupplyUpstream, Producer: search, Output: hotel},
			{API: prices, Param: day, Required: true, Source: SupplyGiven, Value: "2025-06-23"},
			{API: search, Param: city, Required: true, Source: SupplyGiven, Value: cityValue},
			{API: search, Param: checkIn, Source: SupplyGiven, Value: checkInValue},
		}}
	}
	s := main()
	require.Equal(t, []int{0}, s.Join(nil, branch("Dubai", "2025-06-23")))
	assert.Equal(t, []NodeID{reviews, search, prices}, s.APIs)
	var searchInputs []Supply
	for _, in := range s.Inputs {
		if in.API == search {
			searchInputs = append(searchInputs, in)
		}
	}
	assert.Equal(t, []Supply{
		{API: search, Param: city, Required: true, Source: SupplyGiven, Value: "Dubai"},
		{API: search, Param: checkIn, Source: SupplyGiven, Value: "2025-06-23"},
	}, searchInputs, "one search, with the day")

	assert.Empty(t, main().Join(nil, branch("Doha", "2025-06-23")), "another city is another search")
	s = main()
	s.Inputs[2] = Supply{API: search, Param: checkIn, Source: SupplyGiven, Value: "2025-06-20"}
	assert.Empty(t, s.Join(nil, branch("Dubai", "2025-06-23")), "another day is another search")
}
