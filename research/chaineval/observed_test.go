package chaineval

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/invlog"
)

func TestObserved(t *testing.T) {
	runs := []invlog.Run{{Events: []invlog.Event{
		// A bare list of records: the items of Dict's one output.
		{API: "Dict", Success: true, Outputs: []invlog.Value{{Param: "output", Value: `[{"word":"go","senses":[{"gloss":"move"}]}]`}}},
		{API: "Meetings", Success: true, Outputs: []invlog.Value{{Param: "meetings", Value: `[{"time":"10:00"}]`}, {Param: "user", Value: "ann"}}},
		{API: "Meetings", Success: false, Outputs: []invlog.Value{{Param: "error", Value: `{"code":1}`}}},
		{API: "Elsewhere", Success: true, Outputs: []invlog.Value{{Param: "x", Value: "1"}}},
	}}}
	answers := Answers(runs)
	assert.Len(t, answers, 3, "the failed call's answer is left out")
	cat := twnm.Catalog{Name: "c", APIs: []twnm.API{
		{Name: "Dict", Outputs: []twnm.Param{{Name: "results", Type: "list"}}},
		{Name: "Meetings", Outputs: []twnm.Param{{Name: "meetings", Type: "list"}, {Name: "user"}}},
	}}
	ext, n := Observed(cat, answers)
	assert.Equal(t, 3, n)
	assert.Equal(t, []twnm.Param{{Name: "results", Type: "list"},
		{Name: "gloss", Type: "string", Path: "results[].senses[].gloss"},
		{Name: "word", Type: "string", Path: "results[].word"}}, ext.APIs[0].Outputs)
	assert.Equal(t, twnm.Param{Name: "time", Type: "string", Path: "meetings[].time"}, ext.APIs[1].Outputs[2])
	assert.Len(t, cat.APIs[0].Outputs, 1, "the catalog given is not changed")

	_, key := observedCatalog(cat, []Chain{{Answers: answers}})
	assert.Equal(t, "Dict.gloss=results[].senses[].gloss;Dict.word=results[].word;Meetings.time=meetings[].time;", key)
	same, none := observedCatalog(cat, nil)
	assert.Empty(t, none)
	assert.Equal(t, cat, same)
}
