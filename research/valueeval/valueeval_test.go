package valueeval

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm"
)

func TestEvaluate(t *testing.T) {
	cat := twnm.Catalog{Name: "c", APIs: []twnm.API{
		{Name: "GetToken", Inputs: []twnm.Param{{Name: "username", Type: "string"}, {Name: "password", Type: "string"}}},
		{Name: "Weather", Inputs: []twnm.Param{{Name: "city", Type: "string", Required: true}, {Name: "days", Type: "integer"}}},
	}}
	s := Set{Name: "s", Catalog: cat, Calls: []Call{
		// city right; days stated as 3 but not bound (nothing cues it): missed.
		{API: "Weather", Said: "The weather in Rome over 3 of the next days", Args: map[string]string{"city": "Rome", "days": "3"}},
		// city bound to Paris where the call took Lyon: wrong; days bound but not taken: extra.
		{API: "Weather", Said: "Weather in Paris for 2 days", Args: map[string]string{"city": "Lyon"}},
		// Nothing stated, nothing bound: neither missed nor wrong.
		{API: "GetToken", Said: "log me in", Args: map[string]string{"username": "foo", "password": "bar"}},
		{API: "Gone", Said: "x", Args: map[string]string{"a": "b"}},
	}}
	r := Evaluate(s)
	assert.Equal(t, Result{Set: "s", Calls: 3, Unknown: 1, Args: 5, Stated: 2, Right: 1, Wrong: 1, Missed: 1, Extra: 1}, r)
	assert.InDelta(t, 0.5, r.Precision(), 1e-9)
	assert.InDelta(t, 1.0/3, r.Recall(), 1e-9)
}

func TestStatedAndSame(t *testing.T) {
	assert.True(t, Stated("my  username is\nfoo", "username is foo"))
	assert.True(t, Stated("call (5+6)*3 please", "(5+6)*3"))
	assert.False(t, Stated("a table for 12 people", "2"), "whole words only")
	assert.False(t, Stated("anything", " "))
	assert.True(t, Same(" Rome", "rome"))
	assert.True(t, Same("2", "2.0"))
	assert.False(t, Same("14:00", "2023-09-12 14:00:00"))
}

func TestLoadToolWorld(t *testing.T) {
	s, err := ToolWorld(6, 1, "")
	require.NoError(t, err)
	require.NotEmpty(t, s.Calls)
	r := Evaluate(s)
	assert.Equal(t, len(s.Calls), r.Calls)
	assert.Positive(t, r.Stated, "the tasks state the values of their first calls")
	_, err = Load("", []string{"nope"}, 1, 1)
	assert.ErrorContains(t, err, `unknown set "nope"`)
}
