package retrieval

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/embed"
	"github.com/naviagent/navi/twnm/extract"
)

// Values stated in turn go to the inputs the catalog declares in turn, not in the order of
// their names: "end_time" sorts before "start_time".
func TestSlotsKeepTheCatalogOrder(t *testing.T) {
	at := func(name string) twnm.Param {
		return twnm.Param{Name: name, Type: "string", Required: true, Description: "Time of the meeting, in the pattern of %Y-%m-%d %H:%M:%S"}
	}
	cat := twnm.Catalog{Name: "meetings", APIs: []twnm.API{
		{Name: "Meetings.Add", Description: "Book a meeting.", Inputs: []twnm.Param{at("start_time"), at("end_time")}},
		{Name: "Calendar.Block", Description: "Block a slot.", Inputs: []twnm.Param{at("from"), at("until")}},
	}}
	g, err := twnm.Build(context.Background(), cat, twnm.BuildOptions{Embedder: embed.Default()})
	require.NoError(t, err)
	sl := slotsIn(g, nil)
	var keys []string
	for _, s := range sl {
		keys = append(keys, s.Key)
	}
	assert.Equal(t, []string{"Calendar.Block.from", "Calendar.Block.until", "Meetings.Add.start_time", "Meetings.Add.end_time"}, keys)
	got := extract.Values("Book a meeting on 2023-06-08 from 14:00 to 15:00.", sl)
	assert.Equal(t, "2023-06-08 14:00:00", got["Meetings.Add.start_time"])
	assert.Equal(t, "2023-06-08 15:00:00", got["Meetings.Add.end_time"])
}
