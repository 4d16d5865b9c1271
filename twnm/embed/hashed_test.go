package embed

import (
	"context"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newHashed(t testing.TB, opts HashedOptions) *Hashed {
	t.Helper()
	h, err := NewHashed(opts)
	require.NoError(t, err)
	return h
}

func norm(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x * x
	}
	return math.Sqrt(s)
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"GetWeatherForCoordinates", []string{"get", "weather", "for", "coordinates"}},
		{"city_name", []string{"city", "name"}},
		{"getUserToken", []string{"get", "user", "token"}},
		{"HTTPServer", []string{"http", "server"}},
		{"parseURL", []string{"parse", "url"}},
		{"vin_decode_for_vin_decoder_v4", []string{"vin", "decode", "for", "vin", "decoder", "v4"}},
		{"ipv4Address", []string{"ipv4", "address"}},
		{"Name of a City!", []string{"name", "of", "a", "city"}},
		{"kebab-case.and/paths", []string{"kebab", "case", "and", "paths"}},
		{"  __  ", nil},
		{"", nil},
		{"ÜberStraße café", []string{"über", "straße", "café"}},
		{"東京 weather", []string{"東京", "weather"}},
		{"Ответ_сервера", []string{"ответ", "сервера"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, Tokenize(tt.in))
		})
	}
}

func TestNewHashedOptions(t *testing.T) {
	tests := []struct {
		name     string
		opts     HashedOptions
		wantName string
		wantErr  bool
	}{
		{"defaults", HashedOptions{}, "hashed-ngram-256", false},
		{"dim", HashedOptions{Dim: 64}, "hashed-ngram-64", false},
		{"range", HashedOptions{MinN: 2, MaxN: 4}, "hashed-ngram-256-c2-4", false},
		{"features", HashedOptions{Features: WordUnigrams | CharNGrams}, "hashed-ngram-256-fwc", false},
		{"negative dim", HashedOptions{Dim: -1}, "", true},
		{"reversed range", HashedOptions{MinN: 5, MaxN: 3}, "", true},
		{"zero min", HashedOptions{MinN: 0, MaxN: 3}, "", true},
		{"unknown feature", HashedOptions{Features: 1 << 6}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := NewHashed(tt.opts)
			if tt.wantErr {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantName, h.Name())
		})
	}
}

func TestHashedDeterministic(t *testing.T) {
	corpus := []string{"Get the weather for a city", "Get the user token", "city_name: name of the city"}
	texts := []string{"GetWeatherForCoordinates", "city_name", "the token of the user"}
	embed := func() [][]float64 {
		h := newHashed(t, HashedOptions{})
		h.Fit(corpus)
		v, err := h.Embed(context.Background(), texts)
		require.NoError(t, err)
		return v
	}
	a, b := embed(), embed()
	assert.Equal(t, a, b)

	// The fit fingerprint is deterministic too, and differs between corpora.
	h1, h2, h3 := newHashed(t, HashedOptions{}), newHashed(t, HashedOptions{}), newHashed(t, HashedOptions{})
	h1.Fit(corpus)
	h2.Fit(corpus)
	h3.Fit(corpus[:2])
	assert.Equal(t, h1.Name(), h2.Name())
	assert.NotEqual(t, h1.Name(), h3.Name())
	assert.Regexp(t, `^hashed-ngram-256-idf[0-9a-f]{8}$`, h1.Name())
}

func TestHashedUnitLengthAndDim(t *testing.T) {
	for _, dim := range []int{16, 100, 256, 1024} {
		h := newHashed(t, HashedOptions{Dim: dim})
		h.Fit([]string{"alpha beta", "gamma"})
		assert.Equal(t, dim, h.Dim())
		vs, err := h.Embed(context.Background(), []string{"GetUserToken", "a", "The location of the agenda.", "東京"})
		require.NoError(t, err)
		require.Len(t, vs, 4)
		for _, v := range vs {
			require.Len(t, v, dim)
			assert.InDelta(t, 1, norm(v), 1e-12)
		}
	}
}

// TestHashedEmpty documents that a text without letters or digits embeds to the zero vector,
// which Cosine scores 0 against anything.
func TestHashedEmpty(t *testing.T) {
	h := newHashed(t, HashedOptions{})
	vs, err := h.Embed(context.Background(), []string{"", "   ", "--- !!"})
	require.NoError(t, err)
	for _, v := range vs {
		require.Len(t, v, DefaultDim)
		assert.Zero(t, norm(v))
		assert.Zero(t, Cosine(v, h.Vector("city")))
	}
	none, err := h.Embed(context.Background(), nil)
	require.NoError(t, err)
	assert.Empty(t, none)
}

func TestHashedSimilarityOrder(t *testing.T) {
	corpus := []string{
		"city_name", "city", "name of a city", "temperature", "The temperature in degrees Celsius",
		"GetWeatherForCoordinates", "latitude", "longitude", "user token", "the name of the user",
	}
	for _, fitted := range []bool{false, true} {
		h := newHashed(t, HashedOptions{})
		if fitted {
			h.Fit(corpus)
		}
		v := func(s string) []float64 { return h.Vector(s) }
		base := v("city_name")
		far := Cosine(base, v("temperature"))
		assert.Greater(t, Cosine(base, v("city")), far, "fitted=%v: city", fitted)
		assert.Greater(t, Cosine(base, v("name of a city")), far, "fitted=%v: name of a city", fitted)
		assert.Greater(t, Cosine(base, v("CityName")), Cosine(base, v("city")), "fitted=%v: same words", fitted)
		assert.Greater(t, Cosine(v("GetWeatherForCoordinates"), v("get weather for coordinates")), 0.99, "fitted=%v", fitted)
	}
}

// TestHashedIDF checks the IDF weights on a case small enough to compute by hand, with word
// unigrams only. Corpus: "alpha beta", "alpha gamma", "alpha delta"; N = 3.
// idf(alpha) = ln(4/4)+1 = 1 (in every document); idf(beta) = idf(gamma) = ln(4/2)+1 = 1+ln 2.
// "alpha beta" embeds to (±1, ±(1+ln 2)) / sqrt(1 + (1+ln 2)²) in two buckets, so the frequent
// alpha weighs less than beta, and "alpha beta" · "alpha gamma" = 1 / (1 + (1+ln 2)²) ≈ 0.259
// instead of 1/2 unfitted.
func TestHashedIDF(t *testing.T) {
	h := newHashed(t, HashedOptions{Dim: 1024, Features: WordUnigrams})
	bucket := func(word string) int {
		v := h.Vector(word)
		for i, x := range v {
			if x != 0 {
				return i
			}
		}
		t.Fatalf("%q: zero vector", word)
		return -1
	}
	a, b, g := bucket("alpha"), bucket("beta"), bucket("gamma")
	require.NotEqual(t, a, b, "test needs alpha and beta in different buckets")
	require.NotEqual(t, a, g)
	require.NotEqual(t, b, g)

	unfitted := h.Vector("alpha beta")
	assert.InDelta(t, 1/math.Sqrt2, math.Abs(unfitted[a]), 1e-12)
	assert.InDelta(t, 1/math.Sqrt2, math.Abs(unfitted[b]), 1e-12)
	assert.InDelta(t, 0.5, Cosine(unfitted, h.Vector("alpha gamma")), 1e-12)

	h.Fit([]string{"alpha beta", "alpha gamma", "alpha delta"})
	rare := 1 + math.Ln2
	z := math.Sqrt(1 + rare*rare)
	fitted := h.Vector("alpha beta")
	assert.InDelta(t, 1/z, math.Abs(fitted[a]), 1e-12)
	assert.InDelta(t, rare/z, math.Abs(fitted[b]), 1e-12)
	assert.InDelta(t, 1/(1+rare*rare), Cosine(fitted, h.Vector("alpha gamma")), 1e-12)

	// A word outside the corpus gets the largest weight, ln(1+N)+1 = ln 4 + 1.
	unseen := 1 + math.Log(4)
	o := bucket("omega")
	require.NotEqual(t, a, o)
	v := h.Vector("alpha omega")
	assert.InDelta(t, unseen/math.Sqrt(1+unseen*unseen), math.Abs(v[o]), 1e-12)

	// Term frequency counts: "beta beta" is still just the beta direction.
	assert.InDelta(t, 1, math.Abs(h.Vector("beta beta")[b]), 1e-12)

	// Fitting an empty corpus is the same as unfitted.
	h.Fit(nil)
	assert.Equal(t, unfitted, h.Vector("alpha beta"))
}

func TestHashedConcurrent(t *testing.T) {
	h := newHashed(t, HashedOptions{})
	h.Fit([]string{"get the weather", "city name"})
	want := h.Vector("GetWeatherForCoordinates")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				vs, err := h.Embed(context.Background(), []string{"GetWeatherForCoordinates"})
				if assert.NoError(t, err) {
					assert.Equal(t, want, vs[0])
				}
			}
		})
	}
	wg.Wait()
}

func TestHashedCanceled(t *testing.T) {
	h := newHashed(t, HashedOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := h.Embed(ctx, []string{"x"})
	require.ErrorIs(t, err, context.Canceled)
}

func BenchmarkHashedEmbed(b *testing.B) {
	h := newHashed(b, HashedOptions{})
	h.Fit([]string{"Get the current weather for the given coordinates", "The user's token", "city_name"})
	text := "GetWeatherForCoordinates: returns the current temperature, humidity and wind speed for a latitude and longitude"
	b.ReportAllocs()
	for b.Loop() {
		_ = h.Vector(text)
	}
}

func randomUnitVectors(n, dim int, seed uint64) [][]float64 {
	r := rand.New(rand.NewPCG(seed, seed))
	vs := make([][]float64, n)
	for i := range vs {
		v := make([]float64, dim)
		for j := range v {
			v[j] = r.NormFloat64()
		}
		nv := norm(v)
		for j := range v {
			v[j] /= nv
		}
		vs[i] = v
	}
	return vs
}

func TestDefaultIsNewHashedWithDefaults(t *testing.T) {
	h, err := NewHashed(HashedOptions{})
	require.NoError(t, err)
	d := Default()
	assert.Equal(t, h.Name(), d.Name())
	assert.Equal(t, h.Vector("city name"), d.Vector("city name"))
}
