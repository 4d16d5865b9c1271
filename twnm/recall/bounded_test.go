package recall

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/naviagent/navi/twnm"
)

func TestBounded(t *testing.T) {
	apis := map[string]twnm.API{}
	for _, n := range []string{"A", "P1", "P2", "P3", "Q"} {
		apis[n] = twnm.API{Name: n}
	}
	l := links{
		apis: apis,
		producers: map[string][]Need{
			"A":  {{Inputs: []string{"id"}, Producers: []Producer{{Name: "P2"}, {Name: "P3"}, {Name: "P1"}}}},
			"P1": {{Inputs: []string{"q"}, Producers: []Producer{{Name: "Q"}}}},
		},
		feeds: map[[2]string]bool{{"P1", "A"}: true, {"P2", "A"}: true, {"P3", "A"}: true, {"Q", "P1"}: true},
	}
	relevance := map[string]float64{"A": 1, "P1": .9, "P3": .5}

	// Three APIs: A, then its producers by relevance (P1 .9, P3 .5; P2 has none and is left).
	b := Bounded(l, []string{"A"}, relevance, 3)
	_, ok := b.API("P2")
	assert.False(t, ok)
	_, ok = b.API("P3")
	assert.True(t, ok)
	assert.False(t, b.Feeds("P2", "A"))
	assert.True(t, b.Feeds("P1", "A"))
	assert.Equal(t, []Need{{Inputs: []string{"id"}, Producers: []Producer{{Name: "P3"}, {Name: "P1"}}}}, b.Producers("A"))
	assert.Nil(t, b.Producers("P1"), "Q, a level further, is not read")
	assert.Nil(t, b.Producers("P2"))

	// With room, the next level is read too, and an API without relevance comes last.
	b = Bounded(l, []string{"A"}, relevance, 10)
	assert.Equal(t, []Need{{Inputs: []string{"q"}, Producers: []Producer{{Name: "Q"}}}}, b.Producers("P1"))
	assert.Len(t, b.Producers("A")[0].Producers, 3)

	// The targets themselves count against the bound.
	b = Bounded(l, []string{"A", "Q"}, relevance, 1)
	_, ok = b.API("Q")
	assert.False(t, ok)
	assert.Nil(t, b.Producers("A"))
}

func TestBoundedReadsTheItemPartsOfAListedCollection(t *testing.T) {
	// The list of channels is a target: the candidates that take one of its channels (its
	// messages, most relevant first) are read with it, before any producer; a candidate of
	// another collection (users) is not, nor is a part no candidate names (members).
	l := links{apis: map[string]twnm.API{
		"Channels": getAt("Channels", "chat", "/Services/{ServiceSid}/Channels", "ServiceSid"),
		"Messages": getAt("Messages", "chat", "/Services/{ServiceSid}/Channels/{ChannelSid}/Messages", "ServiceSid", "ChannelSid"),
		"Webhooks": getAt("Webhooks", "chat", "/Services/{ServiceSid}/Channels/{ChannelSid}/Webhooks", "ServiceSid", "ChannelSid"),
		"Members":  getAt("Members", "chat", "/Services/{ServiceSid}/Channels/{ChannelSid}/Members", "ServiceSid", "ChannelSid"),
		"User":     getAt("User", "chat", "/Services/{ServiceSid}/Users/{Sid}", "ServiceSid", "Sid"),
	}}
	relevance := map[string]float64{"Channels": 1, "User": .9, "Webhooks": .3, "Messages": .4}
	assert.Equal(t, map[string]bool{"Channels": true, "Messages": true, "Webhooks": true}, BoundedRead(l, []string{"Channels"}, relevance, 10))
	assert.Equal(t, map[string]bool{"Channels": true, "Messages": true}, BoundedRead(l, []string{"Channels"}, relevance, 2), "the most relevant part first")
	assert.Equal(t, map[string]bool{"User": true}, BoundedRead(l, []string{"User"}, relevance, 10), "a target that lists nothing reads no part")
}
