package llmsim_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/planner/llm"
	"github.com/naviagent/navi/planner/llm/llmsim"
)

// weather is a candidate whose plan has every input, or lacks latitude when missing.
func weather(missing bool) planner.Candidate {
	src := planner.SourceGiven
	if missing {
		src = planner.SourceMissing
	}
	return planner.Candidate{API: "weather.Current", Status: "active", Score: 0.9,
		Inputs: []planner.ParamInfo{{Name: "latitude", Type: "number", Required: true}},
		Plan: planner.Plan{Target: "weather.Current", Steps: []planner.PlanStep{{API: "weather.Current",
			Bindings: []planner.Binding{{Param: "latitude", Required: true, Source: src, Value: "1"}}}}}}
}

// plannerOn returns Navi's LLM planner pointed at a simulation with opts.
func plannerOn(t *testing.T, opts llmsim.Options) (*llm.Planner, *llmsim.Server, string) {
	t.Helper()
	sim, err := llmsim.New(opts)
	require.NoError(t, err)
	ts := httptest.NewServer(sim)
	t.Cleanup(ts.Close)
	p, err := llm.New(llm.Config{BaseURL: ts.URL + "/v1", Model: "navi-llmsim"})
	require.NoError(t, err)
	return p, sim, ts.URL
}

// Without errors the simulation decides as a careful planner, read from Navi's own prompt.
func TestDecideCarefully(t *testing.T) {
	p, sim, _ := plannerOn(t, llmsim.Options{})
	const q = "What is the weather at latitude 1, longitude 2?"
	tests := []struct {
		name   string
		c      planner.Context
		action planner.Action
		target string
	}{
		{"nothing retrieved: retrieve for the query", planner.Context{Query: q}, planner.RetrieveAPI, ""},
		{"a ready candidate: call it", planner.Context{Query: q, Candidates: []planner.Candidate{weather(false)}}, planner.CallAPI, "weather.Current"},
		{"it answered: answer", planner.Context{Query: q, Candidates: []planner.Candidate{weather(false)}, Called: []string{"weather.Current"}},
			planner.DirectAnswer, ""},
		{"an input is missing: ask", planner.Context{Query: q, Candidates: []planner.Candidate{weather(true)}}, planner.ClarifyIntent, ""},
		{"asked once already: call", planner.Context{Query: q, Candidates: []planner.Candidate{weather(true)},
			Clarifications: []planner.QA{{Question: "where?", Answer: "Rome"}}}, planner.CallAPI, "weather.Current"},
		{"a pruned candidate is passed over", planner.Context{Query: q, Candidates: []planner.Candidate{
			{API: "old.Weather", Status: "pruned"}, weather(false)}}, planner.CallAPI, "weather.Current"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := p.Decide(context.Background(), tt.c)
			require.NoError(t, err)
			require.Len(t, res.Decisions, 1)
			d := res.Decisions[0]
			assert.Equal(t, tt.action, d.Action)
			assert.Equal(t, tt.target, d.TargetAPI)
			if d.Action == planner.RetrieveAPI {
				assert.Equal(t, q, d.RecallDescription)
			}
		})
	}
	assert.Equal(t, llmsim.Stats{Calls: len(tests), Errors: map[string]int{}}, sim.Stats())
}

// At an error rate the simulation errs that often, in every way, the same way for the same
// seed; options set over HTTP start the draw again.
func TestErrs(t *testing.T) {
	errsOf := func(seed uint64) ([]planner.Action, llmsim.Stats) {
		p, sim, _ := plannerOn(t, llmsim.Options{ErrorRate: 0.5, Seed: seed})
		var actions []planner.Action
		c := planner.Context{Query: "weather?", Candidates: []planner.Candidate{weather(false)}}
		for range 40 {
			res, err := p.Decide(context.Background(), c)
			if err != nil { // invalid JSON twice: the planner gives up, as it would with a model
				actions = append(actions, "error")
				continue
			}
			actions = append(actions, res.Decisions[0].Action)
		}
		return actions, sim.Stats()
	}
	a, stats := errsOf(1)
	b, _ := errsOf(1)
	c, _ := errsOf(2)
	assert.Equal(t, a, b, "seeded")
	assert.NotEqual(t, a, c)
	errs := 0
	for _, k := range []string{llmsim.ErrMadeUpTool, llmsim.ErrWrongParam, llmsim.ErrInvalidJSON, llmsim.ErrPremature} {
		assert.Positive(t, stats.Errors[k], k)
		errs += stats.Errors[k]
	}
	assert.InDelta(t, 0.5, float64(errs)/float64(stats.Calls), 0.2)
	assert.GreaterOrEqual(t, stats.Calls, 40, "a repair is a call too")

	_, sim, url := plannerOn(t, llmsim.Options{ErrorRate: 1})
	resp, err := http.Post(url+"/admin/options", "application/json", bytes.NewReader([]byte(`{"error_rate": 0.2, "seed": 7}`)))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	resp, err = http.Get(url + "/admin/options")
	require.NoError(t, err)
	var o llmsim.Options
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&o))
	resp.Body.Close()
	assert.Equal(t, llmsim.Options{ErrorRate: 0.2, Seed: 7}, o)
	assert.Equal(t, 0, sim.Stats().Calls)
	resp, err = http.Post(url+"/admin/options", "application/json", bytes.NewReader([]byte(`{"error_rate": 2}`)))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	_, err = llmsim.New(llmsim.Options{ErrorRate: -1})
	assert.Error(t, err)
}
