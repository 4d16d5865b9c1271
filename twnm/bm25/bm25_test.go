package bm25

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"getHTTPResponse", []string{"get", "http", "respons"}},
		{"XMLHttpRequest", []string{"xml", "http", "request"}},
		{"GetWeatherForCoordinates", []string{"get", "weather", "coordinat"}},
		{"userIDs listAPIsForUser", []string{"user", "id", "list", "api", "user"}},
		{"OAuth2 IPv4 myIPv6", []string{"oauth2", "ipv4", "ipv6"}},
		{"/users/{user_id}/posts", []string{"user", "user", "id", "post"}},
		{"snake_case_name kebab-case-name dotted.name", []string{"snak", "cas", "nam", "kebab", "cas", "nam", "dot", "nam"}},
		{"v2users getV2Users utf8 s3", []string{"v2users", "get", "v2", "user", "utf8", "s3"}},
		{"What's the weather in Paris, please?", []string{"weather", "pari"}},
		{"Zürich café 東京 naïve", []string{"zürich", "café", "東京", "naïve"}},
		{"restaurants ratings rating rated rate", []string{"restaurant", "rat", "rat", "rat", "rat"}},
		{"cities city categories category queries", []string{"citi", "citi", "categori", "categori", "queri"}},
		{"addresses address status statuses boxes", []string{"address", "address", "status", "status", "box"}},
		{"getting shipped billing added settings", []string{"get", "ship", "bill", "add", "set"}},
		{"string things speed news embed embedding", []string{"string", "thing", "speed", "news", "embed", "embed"}},
		{"get list search id all new not", []string{"get", "list", "search", "id", "all", "new", "not"}},
		{"the a of to for and or is me my you can which", nil},
		{strings.Repeat("x", MaxTokenLen+1) + " ok", []string{"ok"}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Tokens(tt.in), "%q", tt.in)
	}
}

// TestStemIsStableOnWords checks that the stemmer gives singular and plural, and the -ing and
// -ed forms of tool words, one stem.
func TestStemIsStableOnWords(t *testing.T) {
	groups := [][]string{
		{"restaurant", "restaurants"},
		{"movie", "movies"},
		{"city", "cities"},
		{"search", "searches", "searching", "searched"},
		{"book", "books", "booking", "booked"},
		{"map", "maps", "mapping", "mapped"},
		{"code", "codes", "coding", "coded"},
		{"class", "classes"},
		{"match", "matches", "matching", "matched"},
		{"apply", "applies", "applied"},
	}
	for _, g := range groups {
		want := Tokens(g[0])
		for _, w := range g[1:] {
			assert.Equal(t, want, Tokens(w), "%s vs %s", w, g[0])
		}
	}
}

func TestSmallFloat(t *testing.T) {
	// Lengths below 24 are stored exactly; above, 4 significant bits of length − 24 remain.
	for i := 0; i < 24; i++ {
		assert.Equal(t, byte(i), intToByte4(i))
		assert.Equal(t, i, byte4ToInt(byte(i)))
	}
	tests := []struct{ dl, byte_, decoded int }{
		{24, 24, 24},
		{31, 31, 31},  // 24 + 7: subnormal, exact
		{32, 32, 32},  // 24 + 8
		{40, 40, 40},  // 24 + 16: 0b10000 → shift 1, exact
		{41, 40, 40},  // 24 + 17 loses its last bit
		{100, 57, 96}, // 24 + 76 = 24 + 0b1001100 → 0b1001 << 3 = 72
		{math.MaxInt32, 255, 24 + 0x78000000},
	}
	for _, tt := range tests {
		assert.Equal(t, byte(tt.byte_), intToByte4(tt.dl), "encode %d", tt.dl)
		assert.Equal(t, tt.decoded, byte4ToInt(intToByte4(tt.dl)), "decode %d", tt.dl)
	}
	// Monotonic: a longer field never decodes shorter.
	for dl := 1; dl < 5000; dl++ {
		require.LessOrEqual(t, byte4ToInt(intToByte4(dl-1)), byte4ToInt(intToByte4(dl)))
	}
}

// corpus3 is the corpus of the hand-computed scores, one field "text":
//
//	d1 "Weather forecast"             → weather forecast          dl = 2
//	b-alerts "Weather alerts for city" → weather alert citi        dl = 3 ("for" is a stop word)
//	a-guide "City restaurant guide"    → citi restaurant guid      dl = 3
func corpus3() *Index {
	docs := []Document{
		NewDocument("d1", map[string]string{"text": "Weather forecast"}),
		NewDocument("b-alerts", map[string]string{"text": "Weather alerts for city"}),
		NewDocument("a-guide", map[string]string{"text": "City restaurant guide"}),
	}
	return New(docs, Options{Fields: []Field{{Name: "text", Weight: 1}}})
}

// TestHandComputedScores checks BM25 against scores worked out by hand, with k1 = 1.2 and
// b = 0.75 (the lengths are below 24, so Lucene's norm encoding keeps them exact):
//
//	docCount = 3, avgdl = (2 + 3 + 3) / 3 = 8/3
//	"weather" and "citi" each occur in 2 documents:
//	  idf = ln(1 + (3 − 2 + 0.5) / (2 + 0.5)) = ln(1.6) = 0.470003629
//	length normalisation k1 · (1 − b + b · dl / avgdl):
//	  dl = 2: 1.2 · (0.25 + 0.75 · 2 / (8/3)) = 1.2 · 0.8125  = 0.975
//	  dl = 3: 1.2 · (0.25 + 0.75 · 3 / (8/3)) = 1.2 · 1.09375 = 1.3125
//	one occurrence (tf = 1) scores idf · tf / (tf + norm):
//	  dl = 2: 0.470003629 / 1.975  = 0.237976521
//	  dl = 3: 0.470003629 / 2.3125 = 0.203244812
//
// So "weather city" scores b-alerts 2 · 0.203244812 = 0.406489624, d1 0.237976521 and
// a-guide 0.203244812; "city" alone ties b-alerts and a-guide at 0.203244812.
func TestHandComputedScores(t *testing.T) {
	ix := corpus3()
	require.Equal(t, 3, ix.Len())
	tests := []struct {
		query string
		want  []Hit
	}{
		{"weather city", []Hit{{"b-alerts", 0.406489624}, {"d1", 0.237976521}, {"a-guide", 0.203244812}}},
		{"What is the weather?", []Hit{{"d1", 0.237976521}, {"b-alerts", 0.203244812}}},
		// Equal scores: by ID.
		{"cities", []Hit{{"a-guide", 0.203244812}, {"b-alerts", 0.203244812}}},
		// A repeated term counts again.
		{"weather weather", []Hit{{"d1", 2 * 0.237976521}, {"b-alerts", 2 * 0.203244812}}},
	}
	for _, tt := range tests {
		got := ix.Search(tt.query, 10)
		require.Len(t, got, len(tt.want), tt.query)
		for i := range got {
			assert.Equal(t, tt.want[i].ID, got[i].ID, "%q #%d", tt.query, i)
			assert.InDelta(t, tt.want[i].Score, got[i].Score, 1e-6, "%q #%d", tt.query, i)
		}
		scores := ix.Scores(tt.query)
		assert.Len(t, scores, len(tt.want), tt.query)
		for _, h := range got {
			assert.Equal(t, h.Score, scores[h.ID], "Scores agrees with Search: %q %s", tt.query, h.ID)
		}
	}
	top1 := ix.Search("weather city", 1)
	assert.Equal(t, []string{"b-alerts"}, ids(top1), "k bounds the hits")
}

func TestNoHits(t *testing.T) {
	ix := corpus3()
	for _, q := range []string{"", "   ", "the and of", "zebra quantum", "!!!"} {
		assert.Empty(t, ix.Search(q, 10), "%q", q)
		assert.Empty(t, ix.Scores(q), "%q", q)
	}
	assert.Empty(t, ix.Search("weather", 0), "k = 0")
	assert.Empty(t, New(nil, DefaultOptions()).Search("weather", 10), "empty index")
}

func TestFieldWeights(t *testing.T) {
	// "isbn" only in a's parameters; "book" only in b's text. One field alone, both fields
	// equal: a's score is the params field's BM25 times its weight.
	docs := []Document{
		ToolDocument("a", "Look up a volume", []string{"isbn"}),
		ToolDocument("b", "Find a book", []string{"title"}),
		ToolDocument("c", "Weather now", nil),
	}
	one := New(docs, Options{Fields: []Field{{Name: FieldText, Weight: 1}, {Name: FieldParams, Weight: 1}}})
	def := New(docs, DefaultOptions())
	a1, a3 := one.Scores("isbn book")["a"], def.Scores("isbn book")["a"]
	require.Positive(t, a1)
	assert.InDelta(t, 0.3*a1, a3, 1e-6)
	assert.Equal(t, one.Scores("book")["b"], def.Scores("book")["b"], "text weight 1 in both")
	assert.Equal(t, []string{"b", "a"}, ids(def.Search("isbn book", 10)), "the text field outweighs the params field")

	// A field of weight 0 is not scored.
	noParams := New(docs, Options{Fields: []Field{{Name: FieldText, Weight: 1}, {Name: FieldParams, Weight: 0}}})
	assert.Empty(t, noParams.Search("isbn", 10))
}

func TestToolDocument(t *testing.T) {
	d := ToolDocument("getRestaurantsByCity", "Lists restaurants in a city.", []string{"city_name", "max_results", "city_name"})
	assert.Equal(t, "getRestaurantsByCity", d.ID)
	assert.Equal(t, []string{"get", "restaurant", "citi", "list", "restaurant", "citi"}, d.Fields[FieldText])
	assert.Equal(t, []string{"citi", "nam", "max", "result"}, d.Fields[FieldParams], "a repeated parameter name counts once")
}

func TestQueryTerms(t *testing.T) {
	assert.Equal(t, []Term{{"weather", 2}, {"citi", 1}}, QueryTerms("weather in the city, weather!"))
	assert.Nil(t, QueryTerms("the of"))
	var long []string
	for i := 0; i < MaxQueryTerms+10; i++ {
		long = append(long, fmt.Sprintf("w%d", i))
	}
	terms := QueryTerms(strings.Join(long, " ") + " w0")
	assert.Len(t, terms, MaxQueryTerms)
	assert.Equal(t, Term{"w0", 2}, terms[0], "a term repeated after the cap still counts")
}

// reference is BM25 written plainly, in float64, with the Lucene length encoding.
func reference(docs []Document, o Options, query string) map[string]float64 {
	out := map[string]float64{}
	for _, f := range o.Fields {
		var n, sum float64
		df := map[string]float64{}
		for _, d := range docs {
			toks := d.Fields[f.Name]
			if len(toks) == 0 {
				continue
			}
			n++
			sum += float64(len(toks))
			seen := map[string]bool{}
			for _, t := range toks {
				if !seen[t] {
					seen[t] = true
					df[t]++
				}
			}
		}
		avgdl := sum / n
		for _, q := range QueryTerms(query) {
			if df[q.Text] == 0 {
				continue
			}
			idf := math.Log(1 + (n-df[q.Text]+0.5)/(df[q.Text]+0.5))
			for _, d := range docs {
				var tf float64
				for _, t := range d.Fields[f.Name] {
					if t == q.Text {
						tf++
					}
				}
				if tf == 0 {
					continue
				}
				dl := float64(byte4ToInt(intToByte4(len(d.Fields[f.Name]))))
				out[d.ID] += f.Weight * float64(q.Count) * idf * tf / (tf + 1.2*(1-0.75+0.75*dl/avgdl))
			}
		}
	}
	return out
}

func TestMatchesReference(t *testing.T) {
	docs := synthDocs(300, 7)
	ix := New(docs, DefaultOptions())
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 50; i++ {
		q := synthQuery(r)
		want := reference(docs, DefaultOptions(), q)
		got := ix.Scores(q)
		require.Len(t, got, len(want), q)
		for id, w := range want {
			assert.InEpsilon(t, w, got[id], 1e-6, "%q %s", q, id)
		}
	}
}

func TestConcurrentSearch(t *testing.T) {
	docs := synthDocs(2000, 1)
	ix := New(docs, DefaultOptions())
	r := rand.New(rand.NewPCG(1, 2))
	queries := make([]string, 40)
	want := make([][]Hit, len(queries))
	for i := range queries {
		queries[i] = synthQuery(r)
		want[i] = ix.Search(queries[i], 10)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, q := range queries {
				assert.Equal(t, want[i], ix.Search(q, 10))
			}
		}()
	}
	wg.Wait()
}

// vocabulary is the words of synthetic documents. Synthetic text draws from it with a skew
// towards the first words fitted to the StableToolBench catalog (2,479 APIs): documents of 17
// tokens on average, the commonest term ("get") in half of them, the next in about a fifth.
var vocabulary = func() []string {
	base := []string{"weather", "forecast", "city", "hotel", "restaurant", "flight", "booking", "price", "currency",
		"exchange", "stock", "quote", "news", "article", "movie", "review", "rating", "music", "track", "artist",
		"user", "account", "order", "payment", "invoice", "email", "message", "translate", "language", "image",
		"video", "map", "route", "distance", "address", "geocode", "timezone", "holiday", "calendar", "event"}
	var v []string
	for i := 0; i < 4000; i++ {
		w := base[i%len(base)]
		if i >= len(base) {
			w = fmt.Sprintf("%s%d", w, i/len(base))
		}
		v = append(v, w)
	}
	return v
}()

func synthWord(r *rand.Rand) string {
	return vocabulary[int(math.Pow(r.Float64(), 2.4)*float64(len(vocabulary)))]
}

func synthDocs(n int, seed uint64) []Document {
	r := rand.New(rand.NewPCG(seed, 99))
	docs := make([]Document, n)
	for i := range docs {
		words := make([]string, 6+r.IntN(23))
		for k := range words {
			words[k] = synthWord(r)
		}
		var params []string
		for k := 0; k < r.IntN(6); k++ {
			params = append(params, synthWord(r)+"_"+synthWord(r))
		}
		docs[i] = ToolDocument(fmt.Sprintf("api%05d", i), strings.Join(words, " "), params)
	}
	return docs
}

func synthQuery(r *rand.Rand) string {
	words := make([]string, 3+r.IntN(6))
	for k := range words {
		words[k] = synthWord(r)
	}
	return "please find " + strings.Join(words, " ")
}

// BenchmarkSearch is a top-10 query of 5 to 10 words over 16,000 tool documents.
func BenchmarkSearch(b *testing.B) {
	ix := New(synthDocs(16000, 1), DefaultOptions())
	r := rand.New(rand.NewPCG(5, 6))
	queries := make([]string, 256)
	for i := range queries {
		queries[i] = synthQuery(r)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		ix.Search(queries[i%len(queries)], 10)
		i++
	}
}

func ids(hits []Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}
