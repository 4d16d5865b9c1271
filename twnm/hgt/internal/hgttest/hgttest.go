// Package hgttest holds the hand-built graph that the tests of the hgt packages share.
package hgttest

import (
	"testing"

	"github.com/naviagent/navi/twnm"
)

// TravelGraph returns the APIs of the travel graph, without embeddings or history:
//
//	Geocode(city) → lat, lon      Weather(lat, lon) → temp
//	Hotels(city, lat) → hotel_id  Book(id) → booking      Ping() (no parameters)
func TravelGraph(t testing.TB) *twnm.Graph {
	t.Helper()
	g := twnm.New()
	str := func(names ...string) []twnm.Param {
		ps := make([]twnm.Param, len(names))
		for i, n := range names {
			ps[i] = twnm.Param{Name: n, Type: "string", Required: true}
		}
		return ps
	}
	for _, a := range []twnm.API{
		{Name: "Geocode", Inputs: str("city"), Outputs: str("lat", "lon")},
		{Name: "Weather", Inputs: str("lat", "lon"), Outputs: str("temp")},
		{Name: "Hotels", Inputs: str("city", "lat"), Outputs: str("hotel_id")},
		{Name: "Book", Inputs: str("id"), Outputs: str("booking")},
		{Name: "Ping"},
	} {
		if _, err := g.AddAPI(a); err != nil {
			t.Fatalf("travel graph: %v", err)
		}
	}
	return g
}

// TravelTransitions is the travel graph's history of transitions: Geocode → Weather twice
// (one success), and Hotels' hotel_id fed into Book's id once.
func TravelTransitions() []twnm.Transition {
	return []twnm.Transition{
		{Kind: twnm.Then, From: "Geocode", To: "Weather", Success: true},
		{Kind: twnm.Then, From: "Geocode", To: "Weather", Success: false},
		{Kind: twnm.Then, From: "Hotels", To: "Book", Success: true},
		{Kind: twnm.Feeds, From: "Hotels", To: "Book", FromParam: "hotel_id", ToParam: "id", Success: true},
	}
}
