package agenteval

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/toolworld"
)

// Each hand-written set covers what the evaluation promises, and names only the tool world's
// APIs.
func TestQuestionSets(t *testing.T) {
	apis := map[string]bool{}
	for _, api := range toolworld.Catalog("http://toolworld.invalid").APIs {
		apis[api.Name] = true
	}
	tests := []struct {
		file string
		min  int
	}{
		{"questions.jsonl", 80}, // the set Default embeds
		{"unseen.jsonl", 60},    // the second set, written before its first run
		{"third.jsonl", 60},     // the third set, written before its first run
		{"fourth.jsonl", 50},    // the fourth set, written before its first run
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, err := os.Open(tt.file)
			require.NoError(t, err)
			defer f.Close()
			qs, err := Load(f)
			require.NoError(t, err)
			assert.GreaterOrEqual(t, len(qs), tt.min)
			kinds, families, ids := map[string]int{}, map[string]bool{}, map[string]bool{}
			for _, q := range qs {
				assert.False(t, ids[q.ID], "%s twice", q.ID)
				ids[q.ID] = true
				kinds[q.Kind()]++
				families[q.Family] = true
				for _, api := range q.APIs() {
					assert.True(t, apis[api], "%s names %s, which the tool world lacks", q.ID, api)
				}
			}
			assert.GreaterOrEqual(t, kinds[KindAsk], 4, "requests that must ask")
			assert.GreaterOrEqual(t, kinds[KindNone], 4, "requests no tool serves")
			for _, f := range []string{"geo", "weather", "air", "dining", "homes", "hotels", "sports", "music", "transit", "compound"} {
				assert.True(t, families[f], "family %s", f)
			}
		})
	}
	qs, err := Default()
	require.NoError(t, err)
	assert.GreaterOrEqual(t, len(qs), 80, "Default embeds questions.jsonl")
}

func TestLoadErrors(t *testing.T) {
	tests := []struct{ name, input, want string }{
		{"not JSON", "{\"id\":\"a\",\"text\":\"x\",\"none\":true}\n{oops", "line 2"},
		{"unknown field", `{"id":"a","text":"x","none":true,"chain":[["x"]]}`, `line 1: json: unknown field "chain"`},
		{"no id", `{"text":"x","none":true}`, "line 1: no id"},
		{"no text", `{"id":"a","none":true}`, "line 1: question a: no text"},
		{"two expectations", `{"id":"a","text":"x","none":true,"asks":["b"]}`, "2 expectations"},
		{"no expectation", `{"id":"a","text":"x"}`, "0 expectations"},
		{"empty chain", `{"id":"a","text":"x","chains":[[]]}`, "an empty chain"},
		{"empty alternative", `{"id":"a","text":"x","chains":[["b|"]]}`, "an empty API name"},
		{"repeated id", "{\"id\":\"a\",\"text\":\"x\",\"none\":true}\n\n{\"id\":\"a\",\"text\":\"y\",\"none\":true}", `line 3: id "a" repeated`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(strings.NewReader(tt.input))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestMatches(t *testing.T) {
	chain := []string{"geo.Geocode|opengeo.Locate", "weather.Current|skycast.Now", "stay.SearchHotels"}
	tests := []struct {
		calls []string
		want  bool
	}{
		{[]string{"geo.Geocode", "weather.Current", "stay.SearchHotels"}, true},
		{[]string{"stay.SearchHotels", "opengeo.Locate", "skycast.Now"}, true},  // parts in either order
		{[]string{"geo.Geocode", "weather.Current"}, false},                     // a part left out
		{[]string{"geo.Geocode", "opengeo.Locate", "stay.SearchHotels"}, false}, // two of one step, none of another
		{[]string{"geo.Geocode", "weather.Current", "stay.SearchHotels", "stay.HotelDetails"}, false},
		{nil, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Matches(chain, tt.calls), "%v", tt.calls)
	}
	// A call that fits two steps takes the one that leaves the other calls a step.
	assert.True(t, Matches([]string{"a|b", "a"}, []string{"b", "a"}))
	assert.True(t, Matches([]string{"a|b", "a"}, []string{"a", "b"}))
}

func TestJudge(t *testing.T) {
	chainQ := Question{ID: "c", Text: "weather in Rome", Chains: [][]string{{"geo.Geocode|opengeo.Locate", "weather.Current"}}}
	askQ := Question{ID: "a", Text: "book a hotel", Asks: []string{"stay.Book", "stay.SearchHotels"}}
	noneQ := Question{ID: "n", Text: "translate this", None: true}
	tests := []struct {
		name    string
		q       Question
		run     Run
		pass    bool
		outside bool
		why     string
	}{
		{"the chain", chainQ, Run{Status: StatusAnswered, Chain: []string{"opengeo.Locate", "weather.Current"}}, true, false, "called opengeo.Locate, weather.Current"},
		{"another chain", chainQ, Run{Status: StatusAnswered, Chain: []string{"weather.Current"}}, false, false, "called weather.Current"},
		{"answered, status failed", chainQ, Run{Status: "failed", Chain: []string{"geo.Geocode", "weather.Current"}}, false, false, "status failed"},
		{"asked where it should answer", chainQ, Run{Status: "clarification_timeout", Asked: [][]string{{"geo.Geocode.city"}}}, false, false, "asked for geo.Geocode.city"},
		{"asked outside", chainQ, Run{Status: "clarification_timeout", Asked: [][]string{{"stay.SearchHotels.city"}}}, false, true, "asked for"},
		{"asks", askQ, Run{Status: "clarification_timeout", Asked: [][]string{{"stay.SearchHotels.city"}}}, true, false, "asked for stay.SearchHotels.city"},
		{"asks about another API", askQ, Run{Status: "clarification_timeout", Asked: [][]string{{"geo.Timezone.latitude"}}}, false, true, "outside the chain"},
		{"wrote before asking", askQ, Run{Status: "clarification_timeout", Chain: []string{"stay.Book"}, Wrote: []string{"stay.Book"}, Asked: [][]string{{"stay.Book.guest_name"}}}, false, false, "changed state"},
		{"guessed instead of asking", askQ, Run{Status: StatusAnswered, Chain: []string{"stay.SearchHotels", "stay.Book"}}, false, false, "asked nothing"},
		{"no tool", noneQ, Run{Status: StatusNoTools}, true, false, "no tool"},
		{"answered from a tool", noneQ, Run{Status: StatusAnswered, Chain: []string{"tunes.SearchTracks"}}, false, false, "status answered"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Judge(tt.q, tt.run)
			assert.Equal(t, tt.pass, v.Pass)
			assert.Equal(t, tt.outside, v.AskedOutside)
			assert.Contains(t, v.Why, tt.why)
		})
	}
}

func TestSummarizeAndMarkdown(t *testing.T) {
	res := []Result{
		{Question: Question{ID: "c1", Family: "weather", Text: "weather | Rome", Chains: [][]string{{"a"}}}, Run: Run{Status: StatusAnswered, Chain: []string{"a"}}},
		{Question: Question{ID: "c2", Family: "weather", Text: "x", Chains: [][]string{{"a"}}}, Run: Run{Status: "clarification_timeout", Asked: [][]string{{"z.p"}}}},
		{Question: Question{ID: "n1", Family: "none", Text: "y", None: true}, Run: Run{Status: StatusNoTools}},
	}
	for i := range res {
		res[i].Verdict = Judge(res[i].Question, res[i].Run)
	}
	s := Summarize(res)
	assert.Equal(t, Tally{Pass: 2, Of: 3}, s.All)
	assert.Equal(t, Tally{Pass: 1, Of: 2}, s.ByKind[KindChain])
	assert.Equal(t, Tally{Pass: 1, Of: 2}, s.ByFamily["weather"])
	assert.Equal(t, 1, s.Asked)
	assert.Equal(t, 1, s.AskedOutside)
	assert.Equal(t, map[string]int{StatusAnswered: 1, "clarification_timeout": 1}, s.Statuses[KindChain])
	assert.InDelta(t, 2.0/3, s.All.Share(), 1e-12)
	assert.Zero(t, Tally{}.Share())

	var b bytes.Buffer
	require.NoError(t, WriteMarkdown(&b, Report{Started: "now", Command: "navi eval agent", Search: "alphabeta", Results: res}))
	md := b.String()
	assert.Contains(t, md, "**2 of 3 (66.7%)**")
	assert.Contains(t, md, "| chain | 1 | 2 | 50.0% | answered 1, clarification_timeout 1 |")
	assert.Contains(t, md, `| c1 | weather \| Rome | a | answered | pass: called a |`)
}
