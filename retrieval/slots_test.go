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

// A plan takes a listed input from the item of the lister's answer that the request names:
// the channel "Board Prep" of the channels' list.
func TestPickItemsNamesTheItem(t *testing.T) {
	ep := func(path string) *twnm.Endpoint { return &twnm.Endpoint{Method: "GET", Path: path} }
	service := twnm.Param{Name: "ServiceSid", Type: "string", Required: true, In: "path"}
	channel := twnm.Param{Name: "ChannelSid", Type: "string", Required: true, In: "path"}
	cat := twnm.Catalog{Name: "chat", APIs: []twnm.API{
		{Name: "ListChannel", Source: "chat", Description: "Channels of a service.", Endpoint: ep("/Services/{ServiceSid}/Channels"),
			Inputs: []twnm.Param{service}, Outputs: []twnm.Param{{Name: "sid", Type: "string", Path: "channels[].sid"}, {Name: "friendly_name", Type: "string", Path: "channels[].friendly_name"}}},
		{Name: "ListInvite", Source: "chat", Description: "Invites of a channel.", Endpoint: ep("/Services/{ServiceSid}/Channels/{ChannelSid}/Invites"),
			Inputs: []twnm.Param{service, channel}, Outputs: []twnm.Param{{Name: "identity", Type: "string"}}},
	}}
	g, err := twnm.Build(context.Background(), cat, twnm.BuildOptions{Embedder: embed.Default()})
	require.NoError(t, err)
	upstream := func(item string) twnm.Plan {
		return twnm.Plan{Target: "ListInvite", Steps: []twnm.Step{
			{API: "ListChannel", Bindings: []twnm.Binding{{Param: "ServiceSid", Required: true, Source: twnm.SupplyGiven, Value: "IS1"}}},
			{API: "ListInvite", Bindings: []twnm.Binding{
				{Param: "ServiceSid", Required: true, Source: twnm.SupplyGiven, Value: "IS1"},
				{Param: "ChannelSid", Required: true, Source: twnm.SupplyUpstream, FromAPI: "ListChannel", FromOutput: "sid", Item: item}}}}}
	}
	text := `Who was invited to the "Board Prep" channel? Service is IS1.`
	items := extract.Items(text, slotsIn(g, nil), extract.Values(text, slotsIn(g, nil)))
	require.Equal(t, map[string]string{"ListInvite.ChannelSid": "Board Prep"}, items)
	plan := upstream("")
	got := pickItems(plan, g, items)
	assert.Equal(t, upstream("Board Prep"), got)
	assert.Equal(t, upstream(""), plan, "the plan given is not changed")
	assert.Equal(t, plan, pickItems(plan, g, nil), "no item named")
	assert.Equal(t, plan, pickItems(plan, g, map[string]string{"ListInvite.ServiceSid": "Prod"}), "a given input picks no item")
}
