package chaineval

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/toolspec"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/catalogs"
	"github.com/naviagent/navi/twnm/embed"
)

func TestF1(t *testing.T) {
	tests := []struct {
		gold, found []string
		want        float64
	}{
		{nil, nil, 1},
		{[]string{"A", "B"}, []string{"A", "B"}, 1},
		{[]string{"A", "B"}, []string{"B"}, 2 * 1 * 0.5 / 1.5},                             // P 1, R 1/2
		{[]string{"A", "B"}, []string{"B", "C", "D"}, 2 * (1.0 / 3) * 0.5 / (1.0/3 + 0.5)}, // P 1/3, R 1/2
		{[]string{"A"}, []string{"C"}, 0},
		{[]string{"A", "A"}, []string{"A"}, 1},
	}
	for _, tt := range tests {
		assert.InDelta(t, tt.want, F1(tt.gold, tt.found), 1e-12, "%v vs %v", tt.gold, tt.found)
	}
}

func TestScoreAgainstGold(t *testing.T) {
	g := twnm.New()
	for _, a := range []twnm.API{
		{Name: "Geocode", Inputs: []twnm.Param{{Name: "city", Required: true}}, Outputs: []twnm.Param{{Name: "lat"}}},
		{Name: "Weather", Inputs: []twnm.Param{{Name: "lat", Required: true}}, Outputs: []twnm.Param{{Name: "temp"}}},
	} {
		_, err := g.AddAPI(a)
		require.NoError(t, err)
	}
	target, _ := g.APIByName("Weather")
	sub, err := twnm.DefaultAlphaBeta().Search(context.Background(), g, twnm.SearchRequest{Target: target, Known: map[string]string{"city": "Paris"}})
	require.NoError(t, err)

	exact := Score(g, Chain{ID: "c", APIs: []string{"Geocode", "Weather"}, Links: [][2]string{{"Geocode", "Weather"}}}, sub)
	assert.True(t, exact.Exact)
	assert.Equal(t, []string{"Geocode", "Weather"}, exact.Found)
	assert.Equal(t, [][2]string{{"Geocode", "Weather"}}, exact.FoundLinks)

	// A gold chain with one more API: node-F1 = 2·1·(2/3)/(1+2/3) = 0.8, the link is found.
	longer := Score(g, Chain{ID: "c", APIs: []string{"Login", "Geocode", "Weather"}, Links: [][2]string{{"Geocode", "Weather"}}}, sub)
	assert.False(t, longer.Exact)
	assert.InDelta(t, 0.8, longer.NodeF1, 1e-12)
	assert.Equal(t, 1.0, longer.LinkF1)
}

func hashed(t testing.TB) embed.Embedder {
	h, err := embed.NewHashed(embed.HashedOptions{})
	require.NoError(t, err)
	return h
}

// builder builds a graph from cat and records the feedback of the chains it may learn from.
func builder(cat twnm.Catalog, emb embed.Embedder) func(context.Context, []Chain) (*twnm.Graph, error) {
	return func(ctx context.Context, learn []Chain) (*twnm.Graph, error) {
		g, err := twnm.Build(ctx, cat, twnm.BuildOptions{Embedder: emb})
		if err != nil {
			return nil, err
		}
		return g, Learn(g, learn)
	}
}

type dataset struct {
	name   string
	cat    twnm.Catalog
	chains []Chain
}

func datasets(t *testing.T) []dataset {
	bank, err := catalogs.APIBankSet("../../twnm/catalogs/testdata/api-bank/api_catalog_extracted.json", "lv3")
	require.NoError(t, err)
	bankChains, err := APIBankChains("testdata/api-bank-level-3.json")
	require.NoError(t, err)
	tmdb, err := catalogs.OpenAPI("../../twnm/catalogs/testdata/restbench/tmdb_oas.json")
	require.NoError(t, err)
	tmdbChains, err := RestBenchChains("testdata/restbench-tmdb.json", tmdb)
	require.NoError(t, err)
	return []dataset{{"API-Bank level-3", bank, bankChains}, {"RestBench TMDB", tmdb, tmdbChains}}
}

func TestGoldChainsLoad(t *testing.T) {
	ds := datasets(t)
	require.Len(t, ds[0].chains, 50)
	require.Len(t, ds[1].chains, 100)

	first := ds[1].chains[0] // "give me the number of movies directed by Sofia Coppola"
	require.Len(t, first.APIs, 2)
	assert.Equal(t, [][2]string{{first.APIs[0], first.APIs[1]}}, first.Links)
	assert.Contains(t, first.Known, first.APIs[0]+".query", "the person's name comes from the query")
	for k := range first.Known {
		assert.False(t, strings.HasPrefix(k, first.APIs[1]+".person_id"), "person_id is fed by the search, not stated")
	}

	// API-Bank chain 0: QueryMeeting(user_name: John) then SendEmail to the address stated.
	c := ds[0].chains[0]
	assert.Equal(t, "John", c.Known["QueryMeeting.user_name"])
	// The reminder's time came from inside the list of meetings QueryMeeting answered.
	assert.Equal(t, "meetings[].meeting_time", c.Fields[Flow{From: "QueryMeeting", Output: "meetings", To: "EmailReminder", Input: "time"}])
}

// TestChainRecovery runs both searchers on both gold-chain sets, on the static graph (catalog
// only) and on a graph that learned from the other chains' executions (leave-one-out), and
// logs the table the README reports (go test -run ChainRecovery -v ./research/chaineval).
func TestChainRecovery(t *testing.T) {
	ctx := context.Background()
	emb := hashed(t)
	searchers := []struct {
		name string
		s    twnm.Searcher
	}{{"Alpha-Beta", twnm.DefaultAlphaBeta()}, {"Heuristic", twnm.DefaultHeuristic()}}

	var table strings.Builder
	table.WriteString("| chains | searcher | graph | exact | node-F1 | link-F1 |\n|---|---|---|---|---|---|\n")
	for _, d := range datasets(t) {
		for _, s := range searchers {
			static, err := Evaluate(ctx, d.chains, Options{Build: builder(d.cat, emb), Static: true, Searcher: s.s})
			require.NoError(t, err)
			learned, err := Evaluate(ctx, d.chains, Options{Build: builder(d.cat, emb), Searcher: s.s})
			require.NoError(t, err)
			require.Equal(t, len(d.chains), static.Chains)
			for _, r := range []struct {
				graph string
				sum   Summary
			}{{"static", static}, {"learned (leave-one-out)", learned}} {
				fmt.Fprintf(&table, "| %s (%d) | %s | %s | %.0f%% | %.3f | %.3f |\n", d.name, r.sum.Chains, s.name, r.graph,
					100*r.sum.ExactRate(), r.sum.NodeF1, r.sum.LinkF1)
			}
			// Learning from executions must not make the search worse at finding data flow.
			assert.GreaterOrEqual(t, learned.LinkF1, static.LinkF1, "%s %s", d.name, s.name)
		}
	}
	t.Log("\n" + table.String())
}

// A gold flow from a field inside an output (Chain.Fields, what the run's answer showed) is
// nested unless the catalog lists an output at that path, which then counts in its place.
func TestLinksFromFields(t *testing.T) {
	flow := Flow{From: "Meetings", Output: "meetings", To: "Remind", Input: "time"}
	chain := Chain{ID: "1", APIs: []string{"Meetings", "Remind"},
		Transitions: []twnm.Transition{{Kind: twnm.Feeds, From: "Meetings", FromParam: "meetings", To: "Remind", ToParam: "time", Success: true}},
		Fields:      map[Flow]string{flow: "meetings[].meeting_time"}}
	remind := twnm.API{Name: "Remind", Inputs: []twnm.Param{{Name: "time", Type: "string", Required: true}}}
	tests := []struct {
		name                   string
		outputs                []twnm.Param
		flows, nested, covered int
	}{
		{"not listed", []twnm.Param{{Name: "meetings", Type: "array"}}, 0, 1, 0},
		{"listed at its path", []twnm.Param{{Name: "meetings", Type: "array"},
			{Name: "meeting_time", Type: "string", Path: "meetings[].meeting_time"}}, 1, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := twnm.Catalog{Name: "c", APIs: []twnm.API{{Name: "Meetings", Outputs: tt.outputs}, remind}}
			g, err := twnm.Build(context.Background(), c, twnm.BuildOptions{Embedder: embed.Default()})
			require.NoError(t, err)
			s := Links(g, []Chain{chain})
			assert.Equal(t, tt.flows, s.Flows)
			assert.Equal(t, tt.nested, s.Nested)
			assert.Equal(t, tt.covered, s.Covered, "missed: %v", s.Missed)
		})
	}
}

// Link coverage and precision on a hand-built catalog: two gold flows into linkable inputs
// (one linked by name, one by a role-prefixed name), one into free text, one from a field
// inside an output; links among the chain's APIs that are not gold count against precision.
func TestLinks(t *testing.T) {
	c := twnm.Catalog{Name: "c", APIs: []twnm.API{
		{Name: "Place", Inputs: []twnm.Param{{Name: "address", Required: true}}, Outputs: []twnm.Param{{Name: "placeId"}, {Name: "address"}}},
		{Name: "Route", Inputs: []twnm.Param{{Name: "originPlaceId", Required: true}, {Name: "address"}, {Name: "note"}},
			Outputs: []twnm.Param{{Name: "legs", Type: "array"}}},
		{Name: "Share", Inputs: []twnm.Param{{Name: "message", Required: true}, {Name: "leg_id", Required: true}}},
	}}
	g, err := twnm.Build(context.Background(), c, twnm.BuildOptions{Embedder: embed.Default()})
	require.NoError(t, err)
	feeds := func(from, out, to, in string) twnm.Transition {
		return twnm.Transition{Kind: twnm.Feeds, From: from, FromParam: out, To: to, ToParam: in, Success: true}
	}
	chain := Chain{ID: "1", APIs: []string{"Place", "Route", "Share"}, Transitions: []twnm.Transition{
		feeds("Place", "placeId", "Route", "originPlaceId"), // linked: placeId → originPlaceId
		feeds("Route", "legs", "Share", "message"),          // into free text: not linkable
		feeds("Route", "legs[0].id", "Share", "leg_id"),     // from inside an output
		feeds("Route", "legs[1]", "Share", "leg_id"),        // an item of a list output: the list
		feeds("Place", "placeId", "Route", "originPlaceId"), // repeated: counted once
	}}
	s := Links(g, []Chain{chain})
	assert.Equal(t, 2, s.Flows, "placeId → originPlaceId and legs → leg_id")
	assert.Equal(t, 1, s.Unlinkable)
	assert.Equal(t, 1, s.Nested)
	// legs → leg_id: {leg} against {leg, id}, a list into one value: linked.
	assert.Equal(t, 2, s.Covered, "missed: %v", s.Missed)
	// Links among the chain's APIs: the two gold ones, and Place.address → Route.address (same
	// name, not a gold flow).
	assert.Equal(t, 3, s.Links)
	assert.Equal(t, 2, s.Correct)
	assert.InDelta(t, 2.0/3, s.Precision(), 1e-12)
	assert.Equal(t, 1.0, s.Coverage())
}

func TestAPIBankDialogueChains(t *testing.T) {
	chains, skipped, err := APIBankDialogueChains("testdata/api-bank-dialogues")
	require.NoError(t, err)
	assert.Equal(t, 2, skipped, "the dialogue of two requests and the one that calls nothing")
	require.Len(t, chains, 1)
	c := chains[0]
	assert.Equal(t, "level-1-given-desc/AddAgenda-level-1-1", c.ID)
	assert.True(t, strings.HasPrefix(c.Query, "Hi, can you help me add a new schedule"), c.Query)
	assert.Equal(t, toolspec.Chain{"GetUserToken", "AddAgenda"}, c.APIs)
	assert.Equal(t, [][2]string{{"GetUserToken", "AddAgenda"}}, c.Links, "the token flows")
	assert.Equal(t, "foo", c.Known["GetUserToken.username"])
	assert.NotContains(t, c.Known, "AddAgenda.token", "the token is produced, not stated")
}
