package activities_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/embed"
	"github.com/naviagent/navi/twnm/recall"
)

// PlanChain plans from the final step with the values the request states, reaching an API
// that creates something only where retrieval's chain holds it.
func TestPlanChain(t *testing.T) {
	ctx := context.Background()
	city := twnm.Param{Name: "city", Type: "string", Required: true, Description: "the name of a city"}
	lat := twnm.Param{Name: "latitude", Type: "number", Description: "latitude in degrees"}
	lon := twnm.Param{Name: "longitude", Type: "number", Description: "longitude in degrees"}
	req := func(p twnm.Param) twnm.Param { p.Required = true; return p }
	cat := twnm.Catalog{Name: "plan", APIs: []twnm.API{
		{Name: "Geocode", Description: "Coordinates of a city.", Inputs: []twnm.Param{city}, Outputs: []twnm.Param{lat, lon}},
		{Name: "RegisterPlace", Description: "Register a new place by its city; returns its coordinates.",
			Inputs: []twnm.Param{city}, Outputs: []twnm.Param{lat, lon}},
		{Name: "Weather", Description: "Current weather at coordinates.", Inputs: []twnm.Param{req(lat), req(lon)},
			Outputs: []twnm.Param{{Name: "temperature", Type: "number"}}},
	}}
	g, err := twnm.Build(ctx, cat, twnm.BuildOptions{Embedder: embed.Default()})
	require.NoError(t, err)
	const text = "What is the weather in Paris?"
	// The registration is the more relevant producer, but it writes: not unless chosen.
	relevance := map[string]float64{"RegisterPlace": 1, "Geocode": .1, "Weather": 1}
	found := func(final string, chain ...string) *recall.Result {
		return &recall.Result{Final: final, Chain: chain}
	}
	plan, err := activities.PlanChain(ctx, g, twnm.DefaultAlphaBeta(), found("Weather", "Weather"), relevance, text, recall.Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{"Geocode", "Weather"}, plan)

	plan, err = activities.PlanChain(ctx, g, twnm.DefaultAlphaBeta(), found("Weather", "RegisterPlace", "Weather"), relevance, text, recall.Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{"RegisterPlace", "Weather"}, plan, "retrieval chose it")

	plan, err = activities.PlanChain(ctx, g, twnm.DefaultAlphaBeta(), found("Forecast"), relevance, text, recall.Options{})
	require.NoError(t, err)
	assert.Nil(t, plan, "a final step the graph lacks")
}
