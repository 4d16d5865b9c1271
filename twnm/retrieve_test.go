package twnm

import (
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
}
