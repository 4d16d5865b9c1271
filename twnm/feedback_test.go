package twnm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm/invlog"
)

func TestFeedbackFromLinkedRun(t *testing.T) {
	run := &invlog.Run{ID: "r1", Events: []invlog.Event{
		{Seq: 0, API: "GetToken", Outputs: []invlog.Value{{Param: "token", Value: "a9f3c2e1b7"}}, Success: true, Time: t0},
		{Seq: 1, API: "AddAgenda", Inputs: []invlog.Value{{Param: "user_token", Value: "a9f3c2e1b7"}, {Param: "content", Value: "Dentist"}}, Success: true, Time: t0},
		{Seq: 2, API: "Busy", Success: true, Uncertain: true, Time: t0},
	}}
	invlog.Link(run)
	invs, trs := Feedback(run)
	require.Len(t, invs, 2, "the uncertain event is not counted")
	assert.Equal(t, []string{"user_token", "content"}, invs[1].Inputs)
	require.Len(t, trs, 2)
	assert.Equal(t, Transition{Kind: Then, From: "GetToken", To: "AddAgenda", Success: true, Time: t0}, trs[0])
	assert.Equal(t, Transition{Kind: Feeds, From: "GetToken", To: "AddAgenda", FromParam: "token", ToParam: "user_token", Success: true, Time: t0}, trs[1])

	g := statsGraph(t)
	require.NoError(t, g.Record(invs, trs))
	then, ok := g.Edge(Then, mustAPI(t, g, "GetToken"), mustAPI(t, g, "AddAgenda"))
	require.True(t, ok)
	assert.Equal(t, 1.0, then.Weight, "1 successful transition over 1 call of AddAgenda")
}
