package embed

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testModelDir returns the folder of the MiniLM weights, failing the test (never skipping it)
// when they are missing.
func testModelDir(t testing.TB) string {
	t.Helper()
	dir, err := MiniLMDir()
	if err != nil {
		t.Fatalf("the MiniLM tests need the model's weights: %v", err)
	}
	return dir
}

var (
	sharedMiniLM     *MiniLM
	sharedMiniLMErr  error
	sharedMiniLMOnce sync.Once
)

// testMiniLM returns a MiniLM with the default options, loaded once per test binary.
func testMiniLM(t testing.TB) *MiniLM {
	t.Helper()
	dir := testModelDir(t)
	sharedMiniLMOnce.Do(func() { sharedMiniLM, sharedMiniLMErr = NewMiniLM(dir, MiniLMOptions{}) })
	require.NoError(t, sharedMiniLMErr)
	return sharedMiniLM
}

// The expected values come from a float64 NumPy implementation of BertModel over the same
// model.safetensors (token ids from transformers' BertTokenizer, mean pooling, L2
// normalization); "hello world" also matches sentence-transformers' published output. The Go
// encoder agrees with it within 2e-7 on every dimension of these texts.
func TestMiniLMGolden(t *testing.T) {
	m := testMiniLM(t)
	tests := []struct {
		text string
		want []float64 // the first five dimensions
	}{
		{"hello world", []float64{-0.034477, 0.031023, 0.006735, 0.026109, -0.039362}},
		{"How is the weather in Berlin tomorrow?", []float64{-0.02184, 0.040609, 0.076398, 0.099962, -0.040193}},
		{"Crème brûlée à Zürich, 東京の天気 🍕", []float64{0.042855, 0.068744, 0.082523, -0.032224, -0.029065}},
		{"BookHotel. This API orders a hotel room. Two rooms are ordered if the number of adults is greater than 2. Only one order can be made at same time.",
			[]float64{0.015018, -0.009852, -0.03545, 0.059582, -0.10614}},
		// 30 repeats make 630 tokens: truncated to 256.
		{strings.TrimSpace(strings.Repeat("The GetWeatherForecast API returns hourly temperatures, precipitation and wind for a city. ", 30)),
			[]float64{-0.030367, 0.041295, 0.023193, 0.08606, 0.001974}},
		{"", []float64{-0.118838, 0.048299, -0.002548, -0.011011, 0.051951}},
	}
	texts := make([]string, len(tests))
	for i, tt := range tests {
		texts[i] = tt.text
	}
	vecs, err := m.Embed(context.Background(), texts)
	require.NoError(t, err)
	require.Len(t, vecs, len(tests))
	for i, tt := range tests {
		require.Len(t, vecs[i], MiniLMDim)
		assert.InDelta(t, 1, norm(vecs[i]), 1e-6, "norm of %q", tt.text)
		for j, want := range tt.want {
			assert.InDelta(t, want, vecs[i][j], 1e-5, "%q dimension %d", tt.text, j)
		}
	}
}

func TestMiniLMIdentity(t *testing.T) {
	m := testMiniLM(t)
	assert.Equal(t, "all-minilm-l6-v2@53aa51172d14", m.Name())
	assert.Equal(t, "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db", m.WeightsHash())
	assert.Equal(t, 384, m.Dim())
	assert.Equal(t, 30522, m.Tokenizer().VocabSize())

	short, err := NewMiniLM(testModelDir(t), MiniLMOptions{MaxTokens: 128})
	require.NoError(t, err)
	assert.Equal(t, "all-minilm-l6-v2@53aa51172d14-max128", short.Name())
}

// Batching (sorting by length, packing sequences of different lengths, parallel workers)
// must not change any vector.
func TestMiniLMBatchMatchesSingle(t *testing.T) {
	m, err := NewMiniLM(testModelDir(t), MiniLMOptions{Workers: 3, BatchTokens: 64})
	require.NoError(t, err)
	texts := append(toolDocs()[:10],
		"", "weather", "How is the weather in Berlin tomorrow?", "東京の天気",
		strings.Repeat("a long text that is truncated at 256 tokens ", 40), "weather")
	batched, err := m.Embed(context.Background(), texts)
	require.NoError(t, err)
	require.Len(t, batched, len(texts))
	for i, text := range texts {
		single, err := m.Embed(context.Background(), []string{text})
		require.NoError(t, err)
		require.Len(t, single, 1)
		for j := range single[0] {
			require.InDelta(t, single[0][j], batched[i][j], 1e-5, "text %d (%.30q) dimension %d", i, text, j)
		}
	}
	assert.Equal(t, batched[len(texts)-1], batched[len(texts)-5], "the same text twice in one call")
}

func TestMiniLMSimilarity(t *testing.T) {
	m := testMiniLM(t)
	tests := []struct{ anchor, paraphrase, unrelated string }{
		{"A man is playing a guitar.", "Someone plays the guitar.", "The stock market fell sharply today."},
		{"What will the weather be like in Paris tomorrow?", "GetWeatherForecast. Returns the weather forecast for a city and a date.", "BookHotel. Orders a hotel room for a number of adults."},
		{"Convert 100 US dollars to euros", "Currency conversion: converts an amount from one currency to another.", "Sends an email message to a recipient."},
		{"book a flight to Tokyo", "Reserve a plane ticket to Japan's capital", "delete the user account"},
	}
	for _, tt := range tests {
		t.Run(tt.anchor, func(t *testing.T) {
			v, err := m.Embed(context.Background(), []string{tt.anchor, tt.paraphrase, tt.unrelated})
			require.NoError(t, err)
			near, far := Cosine(v[0], v[1]), Cosine(v[0], v[2])
			assert.Greater(t, near, far+0.1, "paraphrase %.3f, unrelated %.3f", near, far)
		})
	}
}

func TestMiniLMConcurrentUse(t *testing.T) {
	m := testMiniLM(t)
	texts := toolDocs()[:8]
	want, err := m.Embed(context.Background(), texts)
	require.NoError(t, err)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := range 4 {
		wg.Go(func() {
			rotated := append(slices.Clone(texts[g:]), texts[:g]...)
			got, err := m.Embed(context.Background(), rotated)
			if err != nil {
				errs <- err
				return
			}
			for i := range rotated {
				if !slices.Equal(got[i], want[(i+g)%len(texts)]) {
					errs <- fmt.Errorf("goroutine %d: text %d differs", g, i)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestMiniLMEmbedEdgeCases(t *testing.T) {
	m := testMiniLM(t)
	vecs, err := m.Embed(context.Background(), nil)
	require.NoError(t, err)
	assert.Empty(t, vecs)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = m.Embed(ctx, []string{"hello"})
	require.ErrorIs(t, err, context.Canceled)

	ctx, cancel = context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	time.Sleep(time.Millisecond)
	_, err = m.Embed(ctx, toolDocs())
	require.ErrorIs(t, err, context.DeadlineExceeded)
}

func TestNewMiniLMErrors(t *testing.T) {
	dir := testModelDir(t)
	tests := []struct {
		name    string
		dir     string
		o       MiniLMOptions
		wantErr string
	}{
		{"max tokens", dir, MiniLMOptions{MaxTokens: 513}, "MaxTokens 513"},
		{"workers", dir, MiniLMOptions{Workers: -1}, "Workers -1"},
		{"batch", dir, MiniLMOptions{BatchTokens: -1}, "BatchTokens -1"},
		{"missing dir", filepath.Join(t.TempDir(), "none"), MiniLMOptions{}, "make models"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewMiniLM(tt.dir, tt.o)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}

	// A vocabulary that does not fit the embeddings.
	bad := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(bad, "vocab.txt"), []byte("[PAD]\n[UNK]\n[CLS]\n[SEP]\n"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(dir, "model.safetensors"), filepath.Join(bad, "model.safetensors")))
	_, err := NewMiniLM(bad, MiniLMOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "30522 word embeddings for a vocabulary of 4 tokens")
}

func TestMiniLMDir(t *testing.T) {
	dir := testModelDir(t)

	t.Run("environment", func(t *testing.T) {
		t.Setenv(EnvModelDir, dir)
		got, err := MiniLMDir()
		require.NoError(t, err)
		assert.Equal(t, dir, got)
	})
	t.Run("environment without weights", func(t *testing.T) {
		t.Setenv(EnvModelDir, t.TempDir())
		_, err := MiniLMDir()
		require.Error(t, err)
		assert.Contains(t, err.Error(), "make models")
	})
	t.Run("search upward", func(t *testing.T) {
		t.Setenv(EnvModelDir, "")
		root := t.TempDir()
		models := filepath.Join(root, ModelDirName)
		require.NoError(t, os.MkdirAll(models, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(models, "model.safetensors"), nil, 0o644))
		sub := filepath.Join(root, "a", "b")
		require.NoError(t, os.MkdirAll(sub, 0o755))
		t.Chdir(sub)
		got, err := MiniLMDir()
		require.NoError(t, err)
		assert.Equal(t, models, got)
	})
	t.Run("nowhere", func(t *testing.T) {
		t.Setenv(EnvModelDir, "")
		t.Chdir(t.TempDir())
		_, err := MiniLMDir()
		require.Error(t, err)
		assert.Contains(t, err.Error(), "make models")
	})
}

// toolDocs returns 64 distinct tool documents of 40 to 80 words, as a tool catalog's import
// embeds them: an API name, a description and its parameters.
func toolDocs() []string {
	tools := []struct{ name, desc string }{
		{"GetWeatherForecast", "Returns the hourly weather forecast for a city or a pair of coordinates: temperature, precipitation probability, wind speed and direction, humidity and a short summary, for up to seven days ahead."},
		{"BookHotel", "Orders a hotel room. Two rooms are ordered if the number of adults is greater than two. Only one order can be made at the same time, and the order can be cancelled until the day before check-in."},
		{"ConvertCurrency", "Converts an amount of money from one currency to another at the latest exchange rate published by the central bank, and returns the converted amount with the rate and its timestamp."},
		{"SearchFlights", "Searches direct and connecting flights between two airports on a given date, sorted by price or by duration, with the airline, the departure and arrival times and the number of stops."},
		{"SendEmail", "Sends an email message to one or more recipients, with an optional carbon copy list, a subject, a plain-text or HTML body and attachments referenced by their upload identifiers."},
		{"GetStockQuote", "Returns the latest quote of a stock by its ticker symbol: last price, daily change in percent, opening price, day high and low, traded volume and market capitalisation."},
		{"TranslateText", "Translates a text from a source language to a target language; the source language is detected when it is omitted. Returns the translation and the confidence of the detection."},
		{"CreateCalendarEvent", "Adds an event to the user's calendar with a title, a start and end time, a location and a list of attendees, who receive an invitation; returns the identifier of the new event."},
		{"vin_decode_for_vin_decoder_v4", "Decodes a Vehicle Identification Number (VIN) and returns the make, model, model year, body type, engine displacement, fuel type and the plant where the vehicle was assembled."},
		{"GetNearbyRestaurants", "Lists restaurants near a location within a radius in meters, filtered by cuisine, price level and opening hours, with their rating, address and distance from the location."},
		{"QueryDatabase", "Runs a read-only SQL query against the analytics database and returns at most the given number of rows as JSON objects, with the column names and types of the result set."},
		{"GetUserProfile", "Returns the profile of a user by their identifier or token: display name, email address, preferred language, time zone and the date the account was created."},
		{"GeocodeAddress", "Turns a postal address or a place name into latitude and longitude coordinates, with the formatted address, the country code and a confidence score between zero and one."},
		{"ShortenURL", "Creates a short link for a long URL, optionally with a custom alias and an expiry date, and returns the short URL and the number of times it has been visited so far."},
		{"GetPackageStatus", "Tracks a parcel by its tracking number and carrier code and returns the current status, the last scanned location, the estimated delivery date and the full history of scans."},
		{"CheckDomainAvailability", "Checks whether an internet domain name is available for registration and returns the price for one year, the registrar and alternative suggestions when it is already taken."},
	}
	params := [][]string{
		{"city (string): the name of the city", "date (string): the day, format YYYY-MM-DD"},
		{"token (string): the user's access token", "limit (integer): the maximum number of results", "offset (integer): how many results to skip, for paging"},
		{"id (string): the identifier of the item", "language (string): ISO 639-1 code of the language", "fields (array of strings): the fields to return; all when empty", "verbose (boolean): include the raw provider response"},
		{"latitude (number): degrees north", "longitude (number): degrees east", "units (string): metric or imperial", "timeout_ms (integer): give up after this many milliseconds", "callback_url (string): where to post the result when it is ready"},
	}
	var docs []string
	for _, ps := range params {
		for _, tl := range tools {
			docs = append(docs, fmt.Sprintf("%s. %s Parameters: %s.", strings.Join(Tokenize(tl.name), " "), tl.desc, strings.Join(ps, "; ")))
		}
	}
	return docs
}

func TestToolDocsShape(t *testing.T) {
	docs := toolDocs()
	require.Len(t, docs, 64)
	seen := map[string]bool{}
	for _, d := range docs {
		n := len(strings.Fields(d))
		assert.True(t, n >= 40 && n <= 80, "%d words: %s", n, d)
		assert.False(t, seen[d], "duplicate %s", d)
		seen[d] = true
	}
}

// BenchmarkMiniLMQuery embeds one short query (12 tokens with [CLS] and [SEP]); run it with
// -cpu 1 for the single-core latency.
func BenchmarkMiniLMQuery(b *testing.B) {
	m := testMiniLM(b)
	query := "What will the weather be like in Paris tomorrow?"
	require.Len(b, m.Tokenizer().Encode(query), 12)
	ctx := context.Background()
	lat := make([]time.Duration, 0, 1024)
	for b.Loop() {
		t0 := time.Now()
		if _, err := m.Embed(ctx, []string{query}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkMiniLMDocs embeds a batch of 64 tool documents of 40 to 80 words; run it with
// -cpu 2 for the two-core throughput.
func BenchmarkMiniLMDocs(b *testing.B) {
	m := testMiniLM(b)
	docs := toolDocs()
	tokens := 0
	for _, d := range docs {
		tokens += len(m.Tokenizer().Encode(d))
	}
	ctx := context.Background()
	for b.Loop() {
		if _, err := m.Embed(ctx, docs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(docs)*b.N)/b.Elapsed().Seconds(), "docs/s")
	b.ReportMetric(float64(tokens)/float64(len(docs)), "tokens/doc")
	b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "procs")
}

// The load time of the model (hashing, reading and packing the weights).
func BenchmarkNewMiniLM(b *testing.B) {
	dir := testModelDir(b)
	for b.Loop() {
		if _, err := NewMiniLM(dir, MiniLMOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
