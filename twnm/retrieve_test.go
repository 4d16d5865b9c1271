package twnm

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/naviagent/navi/twnm/bm25"
)

func TestAPIDocument(t *testing.T) {
	a := API{
		Name:        "geo.Elevation",
		Description: "Gives the ground elevation at a point.",
		Inputs:      []Param{{Name: "latitude", Description: "Latitude in decimal degrees."}},
		Outputs: []Param{
			{Name: "elevation_m", Description: "Elevation above sea level in metres."},
			{Name: "ignored", Path: "results[].uri"},
		},
	}
	doc := APIDocument(a)
	assert.Equal(t, bm25.Tokens("geo Elevation Gives the ground elevation at a point."), doc.Fields[bm25.FieldText])
	// What the API gives is in the document, its description too: a question asks for it.
	// What it takes is there by name only: any API taking a latitude would share its words.
	// A nested output is there by its own name, the last key of its path.
	assert.Equal(t, bm25.Tokens("latitude elevation_m Elevation above sea level in metres. uri"), doc.Fields[bm25.FieldParams])

	// Its kin's descriptions follow, in the lighter field: the family's words for the resource.
	kin := API{Name: "geo.ElevationProfile", Description: "Heights along a path."}
	doc = APIDocument(a, kin)
	assert.Equal(t, bm25.Tokens("geo Elevation Gives the ground elevation at a point."), doc.Fields[bm25.FieldText])
	assert.Equal(t, bm25.Tokens("latitude elevation_m Elevation above sea level in metres. uri Heights along a path."), doc.Fields[bm25.FieldParams])
}

// An API's kin are its source's and provider's APIs whose names differ from its own by their
// first word alone.
func TestKin(t *testing.T) {
	apis := []API{
		{Name: "AddAgenda", Description: "Adds an agenda item."},        // 0
		{Name: "DeleteAgenda", Description: "Deletes a schedule item."}, // 1
		{Name: "QueryAgenda"},                     // 2
		{Name: "AddMeeting"},                      // 3: another resource
		{Name: "Agenda"},                          // 4: one word, no kin
		{Name: "ModifyAgenda", Provider: "other"}, // 5: another provider
		{Name: "ModifyAgenda", Source: "old"},     // 6: another source
		{Name: "cal.ModifyAgenda", Description: "Changes an agenda item."}, // 7: the provider's prefix is no word of it
	}
	assert.Equal(t, [][]int{{1, 2, 7}, {0, 2, 7}, {0, 1, 7}, nil, nil, nil, nil, {0, 1, 2}}, Kin(apis, nil)) // by name

	// A retired API is no one's kin and has none.
	retired := make([]bool, len(apis))
	retired[2] = true
	assert.Equal(t, [][]int{{1, 7}, {0, 7}, nil, nil, nil, nil, nil, {0, 1}}, Kin(apis, retired))

	// "add a schedule item" finds AddAgenda through DeleteAgenda's words; the order of the
	// APIs does not change a document.
	docs := KinDocuments(apis, nil)
	assert.Contains(t, docs[0].Fields[bm25.FieldParams], bm25.Tokens("schedule")[0])
	assert.Equal(t, APIDocument(apis[2]), KinDocuments(apis, retired)[2])
	reversed := slices.Clone(apis)
	slices.Reverse(reversed)
	assert.Equal(t, docs[0], KinDocuments(reversed, nil)[len(apis)-1])
}
