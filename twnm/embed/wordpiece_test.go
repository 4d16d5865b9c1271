package embed

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func loadVocab(t testing.TB, o WordPieceOptions) *WordPiece {
	t.Helper()
	w, err := LoadWordPiece(filepath.Join(testModelDir(t), "vocab.txt"), o)
	require.NoError(t, err)
	return w
}

// The expected ids come from the reference tokenizers on the model's vocab.txt:
// transformers 4.57.6 BertTokenizer(vocab.txt, do_lower_case=True) (the Python
// BasicTokenizer + WordpieceTokenizer), with truncation=True, max_length=256, which gave the
// same ids as transformers 5.23 BertTokenizer and tokenizers 0.23.3
// BertWordPieceTokenizer(vocab.txt, lowercase=True) (the Rust implementation) on every row.
func TestWordPieceMatchesReference(t *testing.T) {
	w := loadVocab(t, WordPieceOptions{})
	tests := []struct {
		text string
		want []int32
	}{
		{"hello world", []int32{101, 7592, 2088, 102}},
		{"Crème brûlée à Zürich", []int32{101, 13675, 21382, 7987, 9307, 2063, 1037, 10204, 102}},
		{"東京の天気", []int32{101, 1879, 1755, 1671, 1811, 100, 102}},
		{"I love pizza 🍕🎉!", []int32{101, 1045, 2293, 10733, 100, 999, 102}},
		{"https://api.example.com/v1/users?id=42", []int32{101, 16770, 1024, 1013, 1013, 17928, 1012, 2742, 1012, 4012, 1013, 1058, 2487, 1013, 5198, 1029, 8909, 1027, 4413, 102}},
		{"getUserById returns the user_profile for an HTTPServer", []int32{101, 2131, 20330, 3762, 3593, 5651, 1996, 5310, 1035, 6337, 2005, 2019, 16770, 2121, 6299, 102}},
		{"snake_case_identifier and camelCaseIdentifier", []int32{101, 7488, 1035, 2553, 1035, 8909, 4765, 18095, 1998, 19130, 18382, 5178, 16778, 8873, 2121, 102}},
		{strings.Repeat("a", 120), []int32{101, 100, 102}},
		{strings.Repeat("x", 100), []int32{101, 22038, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 20348, 102}},
		{"supercalifragilisticexpialidocioussupercalifragilisticexpialidocioussupercalifragilisticexpialidocious", []int32{101, 100, 102}},
		{"naïve café—“quoted” text\u2026 \u00bd \u2122 © ®", []int32{101, 15743, 7668, 1517, 1523, 9339, 1524, 3793, 1529, 1092, 1580, 1075, 1079, 102}},
		{"Ünïcödé ÀÉÎÕÜ ß \ufb01", []int32{101, 27260, 29347, 3695, 2226, 1096, 1984, 102}},
		{"tab\tnew\nline\r\x00null\ufffdrepl\u200bzw\u00a0nbsp", []int32{101, 21628, 2047, 2240, 19701, 2890, 24759, 2480, 2860, 1050, 5910, 2361, 102}},
		{"Ответ сервера: 200 OK", []int32{101, 1193, 22919, 25529, 15290, 22919, 1196, 15290, 16856, 25529, 15290, 16856, 10260, 1024, 3263, 7929, 102}},
		{"한국어 텍스트 and عربى", []int32{101, 1469, 30006, 30021, 29991, 30014, 30020, 29999, 30008, 1467, 30009, 30020, 29997, 30017, 30003, 30017, 1998, 1288, 17149, 29816, 29837, 102}},
		{"price: $19.99 (USD) #hash @user 100% a&b <tag> [x] {y} ~z ^w `q` |p \\ /", []int32{101, 3976, 1024, 1002, 2539, 1012, 5585, 1006, 13751, 1007, 1001, 23325, 1030, 5310, 2531, 1003, 1037, 1004, 1038, 1026, 6415, 1028, 1031, 1060, 1033, 1063, 1061, 1065, 1066, 1062, 1034, 1059, 1036, 1053, 1036, 1064, 1052, 1032, 1013, 102}},
		{"GET /v2/weather?lat=52.52&lon=13.405&units=metric", []int32{101, 2131, 1013, 1058, 2475, 1013, 4633, 1029, 2474, 2102, 1027, 4720, 1012, 4720, 1004, 8840, 2078, 1027, 2410, 1012, 23988, 1004, 3197, 1027, 12046, 102}},
		{"e-mail: john.doe+test@example.co.uk", []int32{101, 1041, 1011, 5653, 1024, 2198, 1012, 18629, 1009, 3231, 1030, 2742, 1012, 2522, 1012, 2866, 102}},
		{"don't can't won't", []int32{101, 2123, 1005, 1056, 2064, 1005, 1056, 2180, 1005, 1056, 102}},
		{"", []int32{101, 102}},
		{"   ", []int32{101, 102}},
		{"\u01c4 \u01c5 \u01c6 İstanbul ΣΑΣ", []int32{101, 100, 100, 100, 9960, 1173, 14608, 29733, 102}},
		{"\u0301start with combining", []int32{101, 2707, 2007, 11566, 102}},
		{"x\u0300\u0301y", []int32{101, 1060, 2100, 102}},
		{"日本語のテキスト、句読点。", []int32{101, 1864, 1876, 1950, 1671, 30239, 30227, 30233, 30240, 1635, 100, 100, 100, 1636, 102}},
		{"emoji👍\U0001f3fdfamily👨\u200d👩\u200d👧", []int32{101, 100, 102}},
		{"\U0001d518\U0001d52b\U0001d526\U0001d520\U0001d52c\U0001d521\U0001d522 math \U0001d7d9\U0001d7da\U0001d7db", []int32{101, 100, 8785, 100, 102}},
		{"\ufb00 Å Å K \u2103", []int32{101, 100, 1037, 1037, 1047, 100, 102}},
		{"零一二三 〇", []int32{101, 100, 1740, 1752, 1741, 100, 102}},
		{"ascii control \x07bell \x1bESC", []int32{101, 2004, 6895, 2072, 2491, 4330, 9686, 2278, 102}},
		{"soft\u00adhyphen", []int32{101, 3730, 10536, 8458, 2368, 102}},
		{"zero\u200dwidth\u200cjoiner", []int32{101, 5717, 9148, 11927, 2232, 5558, 26455, 102}},
		{"\u2028line sep\u2029para", []int32{101, 2240, 19802, 11498, 102}},
		{"\u3000ideographic space", []int32{101, 8909, 8780, 14773, 2686, 102}},
		{"Tool: vin_decode_for_vin_decoder_v4 — Decodes a Vehicle Identification Number (VIN) and returns make, model, year.", []int32{101, 6994, 1024, 19354, 1035, 21933, 3207, 1035, 2005, 1035, 19354, 1035, 21933, 4063, 1035, 1058, 2549, 1517, 21933, 6155, 1037, 4316, 8720, 2193, 1006, 19354, 1007, 1998, 5651, 2191, 1010, 2944, 1010, 2095, 1012, 102}},
		{"\u212b\u212a Ångström KELVIN", []int32{101, 17712, 17076, 15687, 24810, 102}},
		{"ΟΔΥΣΣΕΥΣ. ΣΑΣ'Σ Σ αΣα", []int32{101, 1169, 29722, 29735, 29733, 29733, 29723, 29735, 29733, 1012, 1173, 14608, 29733, 1005, 1173, 1173, 1155, 29733, 14608, 102}},
		{strings.Repeat("x", 101), []int32{101, 100, 102}},
		{"GetWeatherForCoordinates(lat: float, lon: float) -> Forecast", []int32{101, 2131, 28949, 29278, 3597, 8551, 28184, 1006, 2474, 2102, 1024, 14257, 1010, 8840, 2078, 1024, 14257, 1007, 1011, 1028, 19939, 102}},
		{"The API for adding a agenda item includes content, time and location.", []int32{101, 1996, 17928, 2005, 5815, 1037, 11376, 8875, 2950, 4180, 1010, 2051, 1998, 3295, 1012, 102}},
	}
	for _, tt := range tests {
		name := tt.text
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, tt.want, w.Encode(tt.text), "pieces %q", w.Tokens(tt.text))
		})
	}
}

func TestWordPieceTruncation(t *testing.T) {
	long := strings.Repeat("The GetWeatherForecast API returns hourly temperatures, precipitation and wind for a city. ", 30)
	tests := []struct {
		maxTokens int
		wantLen   int
		head      []int32
		tail      []int32
	}{
		// From transformers BertTokenizer with truncation=True and max_length 256 and 16.
		{0, 256, []int32{101, 1996, 2131, 28949, 29278}, []int32{2103, 1012, 1996, 2131, 102}},
		{16, 16, []int32{101, 1996, 2131, 28949, 29278}, []int32{21462, 7715, 1010, 13511, 1998, 3612, 102}},
		{2, 2, []int32{101}, []int32{102}},
	}
	for _, tt := range tests {
		w := loadVocab(t, WordPieceOptions{MaxTokens: tt.maxTokens})
		ids := w.Encode(long)
		require.Len(t, ids, tt.wantLen)
		assert.Equal(t, tt.head, ids[:len(tt.head)])
		assert.Equal(t, tt.tail, ids[len(ids)-len(tt.tail):])
	}
}

// The algorithm on a vocabulary small enough to reason about.
func TestWordPieceSmallVocab(t *testing.T) {
	vocab := []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "un", "##aff", "##able", "aff", "##a", "able", ",", "runn", "##ing", "run", "café", "cafe", "##s", "s"}
	w, err := NewWordPiece(vocab, WordPieceOptions{})
	require.NoError(t, err)
	tests := []struct {
		text string
		want []string
	}{
		{"unaffable", []string{"un", "##aff", "##able"}},
		{"UNAFFABLE, running", []string{"un", "##aff", "##able", ",", "runn", "##ing"}},
		{"unaffablex", []string{"[UNK]"}}, // an unmatched rest makes the whole word unknown
		{"xable able", []string{"[UNK]", "able"}},
		{"Café CAFÉS", []string{"cafe", "cafe", "##s"}}, // accents stripped
		{"run\x00ning\ufffd", []string{"runn", "##ing"}},
		{strings.Repeat("a", 101), []string{"[UNK]"}},
		{"", nil},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, w.Tokens(tt.text), "%q", tt.text)
	}
	assert.Equal(t, []int32{2, 4, 5, 6, 3}, w.Encode("unaffable"))
	assert.Equal(t, len(vocab), w.VocabSize())
	assert.Equal(t, DefaultMaxTokens, w.MaxTokens())
	assert.Equal(t, "##aff", w.Token(5))
	assert.Equal(t, "", w.Token(-1))
}

func TestNewWordPieceErrors(t *testing.T) {
	tests := []struct {
		name    string
		vocab   []string
		o       WordPieceOptions
		wantErr string
	}{
		{"no specials", []string{"[PAD]", "[UNK]", "[CLS]", "a"}, WordPieceOptions{}, "lacks [SEP]"},
		{"max tokens", []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]"}, WordPieceOptions{MaxTokens: 1}, "MaxTokens 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewWordPiece(tt.vocab, tt.o)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
	_, err := LoadWordPiece(filepath.Join(t.TempDir(), "missing.txt"), WordPieceOptions{})
	require.Error(t, err)
}

// A token listed twice keeps its last id, as Python's dict-building loader does.
func TestWordPieceDuplicateToken(t *testing.T) {
	w, err := NewWordPiece([]string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "dup", "dup"}, WordPieceOptions{})
	require.NoError(t, err)
	assert.Equal(t, []int32{2, 5, 3}, w.Encode("dup"))
}

func BenchmarkWordPiece(b *testing.B) {
	w := loadVocab(b, WordPieceOptions{})
	docs := toolDocs()
	b.ResetTimer()
	tokens := 0
	for b.Loop() {
		for _, d := range docs {
			tokens += len(w.Encode(d))
		}
	}
	b.ReportMetric(float64(len(docs)*b.N)/b.Elapsed().Seconds(), "docs/s")
	b.ReportMetric(float64(tokens)/b.Elapsed().Seconds(), "tokens/s")
}
