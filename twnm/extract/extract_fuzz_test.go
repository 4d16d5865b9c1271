package extract

import (
	"strings"
	"testing"
)

// FuzzExtract feeds arbitrary text to the value extractor over a fixed set of slots: it never
// panics, binds only the slots it was given, and every value it returns is text of the
// request (trimmed of punctuation and a possessive), or a date or time of it in ISO form.
// Run with: go test -fuzz FuzzExtract ./planner
func FuzzValues(f *testing.F) {
	for _, seed := range []string{
		"What is the weather in Rome tomorrow at 19:30?",
		"Book a table for 4 at rst-1a2b3c4d on 2025-07-01 for Ada Lovelace",
		"latitude 41.9028, longitude 12.4964",
		"Rome's weather", "\"quoted 'nested\" value", "", "日本の東京の天気", "a\x00b\xff",
	} {
		f.Add(seed)
	}
	slots := []Slot{
		{Key: "geo.Geocode.city", Name: "city", Type: "string", Required: true},
		{Key: "weather.Current.latitude", Name: "latitude", Type: "number", Required: true},
		{Key: "weather.Current.longitude", Name: "longitude", Type: "number", Required: true},
		{Key: "dine.Reserve.date", Name: "date", Type: "string"},
		{Key: "dine.Reserve.time", Name: "time", Type: "string"},
		{Key: "dine.Reserve.party_size", Name: "party_size", Type: "integer"},
		{Key: "dine.Reserve.restaurant_id", Name: "restaurant_id", Type: "string"},
		{Key: "stay.Book.guest_name", Name: "guest_name", Type: "string"},
	}
	keys := map[string]bool{}
	for _, s := range slots {
		keys[s.Key] = true
	}
	f.Fuzz(func(t *testing.T, text string) {
		// A date or a time is bound in ISO form, however the text writes it ("1AM" is 01:00).
		read := map[string]bool{}
		for _, tok := range exTokenize(text) {
			if tok.kind == exTokDate || tok.kind == exTokTime {
				read[tok.text] = true
			}
		}
		for k, v := range Values(text, slots) {
			if !keys[k] {
				t.Fatalf("bound %q, which is no slot", k)
			}
			if v == "" || !strings.Contains(text, v) && !read[v] {
				t.Fatalf("slot %s got %q, which %q does not state", k, v, text)
			}
		}
	})
}
