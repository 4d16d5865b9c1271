package toolworld

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/naviagent/navi/toolspec"
	"github.com/naviagent/navi/twnm"
)

// Task difficulties: easy is one call, medium two, hard three or four, all cycles the three.
// Renamed tasks are two or three calls over every provider, the renamed ones included, with
// at least one flow from an output into an input of another name (lat into latitude, a
// search result's id into track_id); all never includes them. Compound tasks ask for two or
// three things in one query (Task.Parts), each a chain of one or two calls about the same
// place or team, so that parts often share a producer (one geocoding serves two questions);
// all never includes them either.
const (
	DifficultyEasy     = "easy"
	DifficultyMedium   = "medium"
	DifficultyHard     = "hard"
	DifficultyAll      = "all"
	DifficultyRenamed  = "renamed"
	DifficultyCompound = "compound"
)

// Task is one generated question over the tool world with its gold answer (NaviAgent
// Appendix D): a chain of API calls whose parents' outputs match their children's inputs by
// name, a query that states every leaf input verbatim, and the final API's answer.
type Task struct {
	ID         string `json:"id"`
	Query      string `json:"query"`
	Difficulty string `json:"difficulty"`
	// GoldChain names the APIs in call order; producers come before their consumers and the
	// last one answers the query.
	GoldChain toolspec.Chain `json:"gold_chain"`
	// GoldFlow is the parameter flow: each required input not given is bound by the output of
	// the same name of an earlier API.
	GoldFlow []Flow `json:"gold_flow"`
	// Given holds the leaf inputs the query states, keyed "API.param".
	Given map[string]string `json:"given"`
	// Expected is the final API's answer, computed by running the gold chain.
	Expected map[string]any `json:"expected"`
	// Parts are a compound task's questions, in the order the query asks them; the task's
	// gold chain and flow are theirs together, each shared call once, and Expected is the
	// last part's. Empty for a task of one question.
	Parts []Part `json:"parts,omitempty"`
}

// Part is one question of a compound task, with its own gold chain and answer.
type Part struct {
	Query     string            `json:"query"`
	GoldChain toolspec.Chain    `json:"gold_chain"`
	GoldFlow  []Flow            `json:"gold_flow"`
	Given     map[string]string `json:"given"`
	Expected  map[string]any    `json:"expected"`
}

// Flow binds input Input of ToAPI to output Output of FromAPI; Output equals Input except in
// renamed tasks.
type Flow struct {
	FromAPI string `json:"from_api"`
	Output  string `json:"output"`
	ToAPI   string `json:"to_api"`
	Input   string `json:"input"`
}

// TaskOptions configures GenerateTasks.
type TaskOptions struct {
	Seed uint64
	N    int
	// Difficulty is easy, medium, hard or all (the default): all cycles easy, medium, hard.
	Difficulty string
}

// maxAttempts bounds the random tries for one task.
const maxAttempts = 5000

// GenerateTasks generates opts.N tasks. Task i depends only on the seed, i and the
// difficulty, so the same options always give the same tasks.
func GenerateTasks(opts TaskOptions) ([]Task, error) {
	if opts.N < 0 {
		return nil, fmt.Errorf("generate tasks: N is %d, want ≥ 0", opts.N)
	}
	diff := opts.Difficulty
	if diff == "" {
		diff = DifficultyAll
	}
	switch diff {
	case DifficultyEasy, DifficultyMedium, DifficultyHard, DifficultyAll, DifficultyRenamed, DifficultyCompound:
	default:
		return nil, fmt.Errorf("generate tasks: unknown difficulty %q, want easy, medium, hard, all, renamed or compound", diff)
	}
	w := world()
	tasks := make([]Task, 0, opts.N)
	for i := range opts.N {
		d := diff
		if d == DifficultyAll {
			d = []string{DifficultyEasy, DifficultyMedium, DifficultyHard}[i%3]
		}
		rng := rand.New(rand.NewPCG(opts.Seed, uint64(i)))
		generate := w.generate
		if d == DifficultyCompound {
			generate = w.compound
		}
		t, err := generate(rng, d)
		if err != nil {
			return nil, fmt.Errorf("generate task %d: %w", i, err)
		}
		t.ID = fmt.Sprintf("tw-%d-%04d", opts.Seed, i)
		if d == DifficultyRenamed || d == DifficultyCompound {
			t.ID = fmt.Sprintf("tw-%s-%d-%04d", d, opts.Seed, i)
		}
		tasks = append(tasks, t)
	}
	return tasks, nil
}

// RunChain executes the task's gold chain through the registry handlers in-process, binding
// each input from Given or from the named upstream output, and returns the final API's answer.
func RunChain(task Task) (map[string]any, error) {
	last, _, err := runChain(task)
	return last, err
}

// ChainInputs executes the gold chain as RunChain does and returns the value of every input
// of every step, keyed "API.param": the parameter records a simulated user answers from
// (NaviAgent Appendix E.3.4), including the values the chain's own calls produce.
func ChainInputs(task Task) (map[string]string, error) {
	_, inputs, err := runChain(task)
	return inputs, err
}

func runChain(task Task) (map[string]any, map[string]string, error) {
	w := world()
	if len(task.GoldChain) == 0 {
		return nil, nil, fmt.Errorf("run chain %s: empty gold chain", task.ID)
	}
	outs := map[string]map[string]any{}
	inputs := map[string]string{}
	var last map[string]any
	for _, name := range task.GoldChain {
		tool, ok := w.byName[name]
		if !ok {
			return nil, nil, fmt.Errorf("run chain %s: unknown API %s", task.ID, name)
		}
		in, err := bindInputs(task, tool.API, outs)
		if err != nil {
			return nil, nil, fmt.Errorf("run chain %s: %w", task.ID, err)
		}
		for k, v := range in {
			inputs[name+"."+k] = v
		}
		out, err := tool.Handle(in)
		if err != nil {
			return nil, nil, fmt.Errorf("run chain %s: %s: %w", task.ID, name, err)
		}
		outs[name], last = out, out
	}
	return last, inputs, nil
}

// bindInputs gives the inputs of one step of a task: the given values of api and the flows
// into it, from the outputs of the steps run so far.
func bindInputs(task Task, api twnm.API, outs map[string]map[string]any) (map[string]string, error) {
	in := map[string]string{}
	for _, p := range api.Inputs {
		if v, ok := task.Given[api.Name+"."+p.Name]; ok {
			in[p.Name] = v
		}
	}
	for _, f := range task.GoldFlow {
		if f.ToAPI != api.Name {
			continue
		}
		prev, ok := outs[f.FromAPI]
		if !ok {
			return nil, fmt.Errorf("%s.%s: %s has not run before it", f.ToAPI, f.Input, f.FromAPI)
		}
		v, ok := prev[f.Output]
		if p, found := outputParam(f.FromAPI, f.Output); found && p.Path != "" {
			v, ok = twnm.Lookup(prev, p.Path)
		}
		if !ok {
			return nil, fmt.Errorf("%s.%s: %s gave no %s", f.ToAPI, f.Input, f.FromAPI, f.Output)
		}
		in[f.Input] = ValueString(v)
	}
	return in, nil
}

// outputParam returns the catalog entry of output name of API api.
func outputParam(api, name string) (twnm.Param, bool) {
	if t, ok := world().byName[api]; ok {
		for _, p := range t.API.Outputs {
			if p.Name == name {
				return p, true
			}
		}
	}
	return twnm.Param{}, false
}

// ValueString renders an output value as an input value: strings as they are, anything else
// as its JSON text (48.8566, 3, true), the same whether it came in-process or over HTTP.
func ValueString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}

// taskWorld is the registry indexed for generation.
type taskWorld struct {
	tools  []Tool // the classic APIs, which the classic tasks end at
	all    []Tool // every API, which the renamed tasks end at
	byName map[string]Tool
	// producers maps an input name to the classic APIs whose outputs carry exactly that name
	// and that do not take it as an input themselves (no echo producers), in registry order;
	// renamedProducers to every API with an output that feeds it (see feeds), likewise.
	producers, renamedProducers map[string][]string
}

var world = sync.OnceValue(func() *taskWorld {
	w := &taskWorld{all: Registry(), byName: map[string]Tool{}, producers: map[string][]string{}, renamedProducers: map[string][]string{}}
	inputs := map[string]bool{}
	for _, t := range w.all {
		w.byName[t.API.Name] = t
		if !t.Renamed {
			w.tools = append(w.tools, t)
		}
		for _, p := range t.API.Inputs {
			inputs[p.Name] = true
		}
	}
	for _, t := range w.all {
		takes := map[string]bool{}
		for _, p := range t.API.Inputs {
			takes[p.Name] = true
		}
		for _, o := range t.API.Outputs {
			if takes[o.Name] {
				continue
			}
			if !t.Renamed {
				w.producers[o.Name] = append(w.producers[o.Name], t.API.Name)
			}
			for in := range inputs {
				if feeds(t.API.Name, o.Name, in, true) && !slices.Contains(w.renamedProducers[in], t.API.Name) {
					w.renamedProducers[in] = append(w.renamedProducers[in], t.API.Name)
				}
			}
		}
	}
	return w
})

// pointPairs pair coordinate inputs: a latitude and its longitude come from the same source.
var pointPairs = map[string]string{"longitude": "latitude", "lon": "lat"}

// taskContext is the world one task is about: one city, one team, one day, ...; the leaf
// value of an input is the context's value of that name.
type taskContext map[string]string

func newContext(rng *rand.Rand) taskContext {
	names := make([]string, 0, len(cities))
	for n := range cities {
		names = append(names, n)
	}
	sort.Strings(names)
	cn := names[rng.IntN(len(names))]
	c := cities[cn]
	day := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, rng.IntN(92)).Format(time.DateOnly)
	guests := []string{"Ada Lovelace", "Alan Turing", "Grace Hopper", "Marie Curie", "Nikola Tesla", "Rosalind Franklin"}
	// The renamed providers' leaves come from a hash, not from rng, so that the classic
	// tasks draw exactly what they drew before those providers existed.
	h := hashOf("renamed", cn, day)
	return taskContext{
		"cityName": title(cn), "artistName": artists[h%uint64(len(artists))],
		"minutes": strconv.Itoa(15 * (1 + int(h>>8%4))),
		"city":    title(cn), "city_name": title(cn),
		"latitude": ValueString(c.lat), "longitude": ValueString(c.lon), "lat": ValueString(c.lat), "lon": ValueString(c.lon),
		"team_name": teams[rng.IntN(len(teams))], "club_name": teams[rng.IntN(len(teams))],
		"league":   leagues[rng.IntN(len(leagues))],
		"check_in": day, "date": day,
		"time":       []string{"12:30", "13:00", "19:00", "19:30", "20:15", "21:00"}[rng.IntN(6)],
		"nights":     strconv.Itoa(1 + rng.IntN(7)),
		"party_size": strconv.Itoa(2 + rng.IntN(7)),
		"guest_name": guests[rng.IntN(len(guests))],
	}
}

// draft is a chain under construction.
type draft struct {
	final    string
	apis     map[string]bool
	children map[string][]string          // consumer -> producers, in choice order
	flows    []Flow                       // in choice order
	given    map[string]string            // "API.param" -> value
	source   map[string]map[string]string // API -> input -> producer API ("" when given)
}

// generate makes one task of difficulty d.
func (w *taskWorld) generate(rng *rand.Rand, d string) (Task, error) {
	renamed := d == DifficultyRenamed
	tools, producers := w.tools, w.producers
	if renamed {
		tools, producers = w.all, w.renamedProducers
	}
	for range maxAttempts {
		want := 1
		switch d {
		case DifficultyMedium:
			want = 2
		case DifficultyHard:
			want = 3 + rng.IntN(2)
		case DifficultyRenamed:
			want = 2 + rng.IntN(2)
		}
		ctx := newContext(rng)
		final := tools[rng.IntN(len(tools))].API.Name
		dr, ok := w.grow(rng, ctx, final, want, producers, renamed)
		if !ok || renamed && !slices.ContainsFunc(dr.flows, func(f Flow) bool { return f.Output != f.Input }) {
			continue
		}
		return w.finish(dr, d)
	}
	return Task{}, fmt.Errorf("no %s chain found in %d attempts", d, maxAttempts)
}

// compound makes one compound task: two questions, or three one time in three, about one
// context (the same city, team, point), each a chain of one or two calls. The parts' final
// APIs differ and none serves another part on the way (each question is answered by its own
// call), and a call two parts share has the same inputs in both: it is one call.
func (w *taskWorld) compound(rng *rand.Rand, d string) (Task, error) {
	for range maxAttempts {
		ctx := newContext(rng)
		n := 2
		if rng.IntN(3) == 0 {
			n = 3
		}
		var drafts []*draft
		finals := map[string]bool{}
		for range n {
			final := w.tools[rng.IntN(len(w.tools))].API.Name
			dr, ok := w.grow(rng, ctx, final, 1+rng.IntN(2), w.producers, false)
			if !ok || finals[final] {
				break
			}
			finals[final] = true
			drafts = append(drafts, dr)
		}
		if len(drafts) < n || !independent(drafts) {
			continue
		}
		t := Task{Difficulty: d, Given: map[string]string{}}
		var queries []string
		for _, dr := range drafts {
			pt, err := w.finish(dr, d)
			if err != nil {
				return Task{}, err
			}
			t.Parts = append(t.Parts, Part{Query: pt.Query, GoldChain: pt.GoldChain, GoldFlow: pt.GoldFlow, Given: pt.Given, Expected: pt.Expected})
			queries = append(queries, pt.Query)
			for _, a := range pt.GoldChain {
				if !slices.Contains(t.GoldChain, a) { // a call two parts share is one call
					t.GoldChain = append(t.GoldChain, a)
				}
			}
			for _, f := range pt.GoldFlow {
				if !slices.Contains(t.GoldFlow, f) {
					t.GoldFlow = append(t.GoldFlow, f)
				}
			}
			for k, v := range pt.Given {
				t.Given[k] = v
			}
			t.Expected = pt.Expected
		}
		t.Query = joinQuestions(queries)
		return t, nil
	}
	return Task{}, fmt.Errorf("no compound task found in %d attempts", maxAttempts)
}

// independent reports whether the drafts ask separate questions: no part's final API is a
// call of another part, and an API two parts call has the same sources and given values in
// both (one call serves both).
func independent(drafts []*draft) bool {
	for i, a := range drafts {
		for j, b := range drafts {
			if i == j {
				continue
			}
			if b.apis[a.final] {
				return false
			}
			for api := range a.apis {
				if !b.apis[api] {
					continue
				}
				if !maps.Equal(a.source[api], b.source[api]) {
					return false
				}
				for k, v := range a.given {
					if strings.HasPrefix(k, api+".") && b.given[k] != v {
						return false
					}
				}
			}
		}
	}
	return true
}

// joinQuestions writes a compound query: the questions in turn, each after the first opened
// by a connective ("Also, what is …").
func joinQuestions(qs []string) string {
	out := qs[0]
	for i, q := range qs[1:] {
		conn := []string{"Also, ", "And "}[i%2]
		out += " " + conn + strings.ToLower(q[:1]) + q[1:]
	}
	return out
}

// grow builds a chain of exactly want distinct APIs ending at final, or reports failure. An
// input's producers are producers[input]; when renamed, an output feeds an input of another
// name as renames says, and never when it echoes the producer's own input.
func (w *taskWorld) grow(rng *rand.Rand, ctx taskContext, final string, want int, producers map[string][]string, renamed bool) (*draft, bool) {
	dr := &draft{final: final, apis: map[string]bool{final: true}, children: map[string][]string{},
		given: map[string]string{}, source: map[string]map[string]string{}}
	queue := []string{final}
	for len(queue) > 0 {
		a := queue[0]
		queue = queue[1:]
		api := w.byName[a].API
		src := map[string]string{}
		dr.source[a] = src
		for _, p := range api.Inputs {
			if !p.Required {
				continue
			}
			if _, done := src[p.Name]; done {
				continue
			}
			leaf, hasLeaf := ctx[p.Name]
			if partner, ok := pointPairs[p.Name]; ok {
				if s, bound := src[partner]; bound && s == "" {
					src[p.Name] = "" // the latitude was given: give the longitude too
					dr.given[a+"."+p.Name] = leaf
					continue
				}
			}
			var cands []string
			for _, prod := range producers[p.Name] {
				if !dr.apis[prod] && prod != a {
					cands = append(cands, prod)
				}
			}
			room := want - len(dr.apis)
			useLeaf := hasLeaf && (room == 0 || len(cands) == 0 || rng.IntN(10) < 3)
			if useLeaf {
				src[p.Name] = ""
				dr.given[a+"."+p.Name] = leaf
				continue
			}
			if room == 0 || len(cands) == 0 {
				return nil, false
			}
			prod := cands[rng.IntN(len(cands))]
			dr.apis[prod] = true
			dr.children[a] = append(dr.children[a], prod)
			queue = append(queue, prod)
			// The producer binds every required input of a that it outputs (under the same
			// name, or as renames says).
			papi := w.byName[prod].API
			for _, q := range api.Inputs {
				if _, done := src[q.Name]; done || !q.Required {
					continue
				}
				for _, o := range papi.Outputs {
					if feeds(prod, o.Name, q.Name, renamed) && (o.Name == q.Name || !takes(papi, o.Name)) {
						src[q.Name] = prod
						dr.flows = append(dr.flows, Flow{FromAPI: prod, Output: o.Name, ToAPI: a, Input: q.Name})
						break
					}
				}
			}
		}
	}
	return dr, len(dr.apis) == want
}

// takes reports whether api has an input of that name.
func takes(api twnm.API, name string) bool {
	return slices.ContainsFunc(api.Inputs, func(p twnm.Param) bool { return p.Name == name })
}

// finish orders the chain (producers first, post-order from the final API), phrases the
// query and computes the expected answer.
func (w *taskWorld) finish(dr *draft, d string) (Task, error) {
	var chain []string
	var visit func(a string)
	visit = func(a string) {
		for _, c := range dr.children[a] {
			visit(c)
		}
		chain = append(chain, a)
	}
	visit(dr.final)
	pos := map[string]int{}
	for i, a := range chain {
		pos[a] = i
	}
	flows := append([]Flow{}, dr.flows...)
	sort.SliceStable(flows, func(i, j int) bool { return pos[flows[i].ToAPI] < pos[flows[j].ToAPI] })
	t := Task{Query: w.phrase(dr), Difficulty: d, GoldChain: chain, GoldFlow: flows, Given: dr.given}
	exp, err := RunChain(t)
	if err != nil {
		return Task{}, err
	}
	t.Expected = exp
	return t, nil
}

// asks phrase the question a final API answers; {param} is the phrase of a required input,
// {point} that of a latitude/longitude (or lat/lon) pair.
var asks = map[string]string{
	"geo.Geocode":            "What are the coordinates of {city}?",
	"opengeo.Locate":         "What are the latitude and longitude of {city_name}?",
	"geo.ReverseGeocode":     "Which city and street address are at {point}?",
	"opengeo.Reverse":        "What is the name of the place at {point}?",
	"geo.Timezone":           "What time zone and UTC offset apply at {point}?",
	"geo.Elevation":          "What is the ground elevation at {point}?",
	"weather.Current":        "What is the current weather at {point}?",
	"weather.Forecast":       "What is the weather forecast for tomorrow at {point}?",
	"skycast.Now":            "What is the weather right now at {point}?",
	"skycast.Daily":          "What are tomorrow's high, low and chance of rain at {point}?",
	"weather.Alerts":         "Are there any severe-weather alerts at {point}?",
	"weather.Sun":            "When are sunrise and sunset, and what is the UV index, at {point}?",
	"airq.Current":           "What is the air quality at {point}?",
	"airq.Forecast":          "What will the air quality index be tomorrow at {point}?",
	"breezo.AirQuality":      "What is the air quality index, with health advice, at {point}?",
	"airq.Pollen":            "How high are pollen levels at {point}?",
	"dine.SearchNearby":      "Find the best-rated restaurant near {point}.",
	"dine.RestaurantDetails": "What are the phone number and opening hours of {restaurant_id}?",
	"dine.Reviews":           "What do reviews say about {restaurant_id}?",
	"dine.Reserve":           "Book a table for {party_size} at {restaurant_id} on {date} at {time}.",
	"eatly.FindPlaces":       "Find a place to eat near {point}.",
	"eatly.Menu":             "What is on the menu at {place_id}?",
	"homes.Listings":         "Find the best home for sale near {point}.",
	"homes.ListingDetails":   "Give me the details of {listing_id}.",
	"homes.Valuation":        "What is the estimated market value of {listing_id}?",
	"homes.MarketStats":      "What are the housing market statistics for {city}?",
	"nestfind.Search":        "Search properties for sale near {point}.",
	"homes.Agent":            "How can I contact {agent_id}?",
	"stay.SearchHotels":      "Find the best hotel in {city}.",
	"stay.HotelDetails":      "Give me the details and coordinates of {hotel_id}.",
	"stay.HotelPrices":       "How much does a stay at {hotel_id} cost, checking in on {check_in}?",
	"stay.Book":              "Book {hotel_id} for {guest_name}, checking in on {check_in} for {nights} nights.",
	"stay.HotelReviews":      "What do guests say about {hotel_id}?",
	"lodgr.FindHotels":       "Find a hotel in {city_name}.",
	"sports.SearchTeam":      "Which league does {team_name} play in, and what is its stadium?",
	"sports.TeamFixtures":    "When is the next fixture of {team_id}?",
	"sports.MatchStats":      "What are the statistics of {match_id}?",
	"sports.Standings":       "Which team leads the league table of {league}?",
	"sports.TeamPlayers":     "Who is the top scorer of {team_id}?",
	"scoreline.FindClub":     "Which league does the club {club_name} play in?",
	"scoreline.ClubMatches":  "When is the next match of {club_id}?",
	"tunes.SearchTracks":     "What is the top track of {artistName}?",
	"tunes.Track":            "How long is {trackId}, and when was it released?",
	"lyrico.Lyrics":          "What is the first line of the lyrics of {track_id}?",
	"routely.FindStop":       "Which is the main public transport stop of {cityName}?",
	"routely.Reachable":      "How much area can I reach by public transport within {minutes} minutes from {originStopId}?",
}

// refs phrase how a consumer's question names what a producer gives, keyed "API.output"
// (the first output bound) or "API".
var refs = map[string]string{
	"geo.ReverseGeocode":        "the city at {point}",
	"opengeo.Reverse":           "the place at {point}",
	"geo.Geocode":               "the centre of {city}",
	"opengeo.Locate":            "the centre of {city_name}",
	"stay.HotelDetails":         "the location of {hotel_id}",
	"dine.SearchNearby":         "the best-rated restaurant near {point}",
	"eatly.FindPlaces":          "the top place to eat near {point}",
	"homes.Listings":            "the best home for sale near {point}",
	"homes.ListingDetails":      "the agent of {listing_id}",
	"stay.SearchHotels":         "the best hotel in {city}",
	"sports.SearchTeam.team_id": "{team_name}",
	"sports.SearchTeam.league":  "the league that {team_name} plays in",
	"sports.TeamFixtures":       "the next match of {team_id}",
	"scoreline.FindClub":        "the club {club_name}",
	"scoreline.ClubMatches":     "the next match of {club_id}",
	"tunes.SearchTracks":        "the top track of {artistName}",
	"routely.FindStop":          "the main stop of {cityName}",
}

// phrase renders the query of a draft.
func (w *taskWorld) phrase(dr *draft) string {
	q := w.render(dr, dr.final, asks[dr.final])
	return strings.ToUpper(q[:1]) + q[1:]
}

// render fills template tpl of API a: each {param} becomes the leaf value verbatim or the
// producer's ref, rendered in turn.
func (w *taskWorld) render(dr *draft, a, tpl string) string {
	if tpl == "" {
		tpl = w.byName[a].API.Description // never reached for the registry: every API has a template
	}
	src := dr.source[a]
	input := func(p string) string {
		prod, ok := src[p]
		if !ok {
			return "{" + p + "}"
		}
		if prod == "" {
			return dr.given[a+"."+p]
		}
		ref, ok := refs[prod+"."+p]
		if !ok {
			ref = refs[prod]
		}
		return w.render(dr, prod, ref)
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(tpl, '{')
		if i < 0 {
			b.WriteString(tpl)
			break
		}
		j := strings.IndexByte(tpl[i:], '}')
		if j < 0 {
			b.WriteString(tpl)
			break
		}
		b.WriteString(tpl[:i])
		name := tpl[i+1 : i+j]
		if name == "point" {
			lat, lon := "latitude", "longitude"
			if _, ok := src["lat"]; ok {
				lat, lon = "lat", "lon"
			}
			if src[lat] == "" {
				b.WriteString("latitude " + input(lat) + ", longitude " + input(lon))
			} else {
				b.WriteString(input(lat))
			}
		} else {
			b.WriteString(input(name))
		}
		tpl = tpl[i+j+1:]
	}
	return b.String()
}
