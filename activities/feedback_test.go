package activities_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/activities"
	"github.com/naviagent/navi/internal/stacktest"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/twnm"
)

// chainCatalog loads two APIs of names no other test uses, Locate → Forecast, and returns
// their names and the name of Locate's input.
func chainCatalog(t *testing.T, store *neo4j.Store) (locate, forecast, place string) {
	t.Helper()
	p := stacktest.UniqueName("fb") + "."
	locate, forecast, place = p+"Locate", p+"Forecast", p+"place"
	_, err := store.LoadCatalog(context.Background(), twnm.Catalog{Name: p + "cat", APIs: []twnm.API{
		{Name: locate, Description: "locates " + p,
			Inputs:  []twnm.Param{{Name: p + "place", Type: "string", Required: true}},
			Outputs: []twnm.Param{{Name: p + "point", Type: "string"}}},
		{Name: forecast, Description: "forecast at " + p,
			Inputs:  []twnm.Param{{Name: p + "point", Type: "string", Required: true}},
			Outputs: []twnm.Param{{Name: p + "outlook", Type: "string"}}},
	}})
	require.NoError(t, err)
	return locate, forecast, place
}

// counts reads an API's success and failure counts from Neo4j.
func counts(t *testing.T, store *neo4j.Store, api string) (success, failure int64) {
	t.Helper()
	g, err := store.Subgraph(context.Background(), []string{api}, neo4j.SubgraphOptions{Hops: 1, MaxAPIs: 1})
	require.NoError(t, err)
	id, ok := g.APIByName(api)
	require.True(t, ok, "%s is in the graph", api)
	return g.Node(id).Success, g.Node(id).Failure
}

// thenCount reads the THEN edge from → to: its observed transitions, or -1 when there is none.
func thenCount(t *testing.T, store *neo4j.Store, from, to string) int64 {
	t.Helper()
	g, err := store.Subgraph(context.Background(), []string{to}, neo4j.SubgraphOptions{Hops: 1})
	require.NoError(t, err)
	a, okA := g.APIByName(from)
	b, okB := g.APIByName(to)
	require.True(t, okA && okB, "%s and its producer %s are read", to, from)
	e, ok := g.Edge(twnm.Then, a, b)
	if !ok {
		return -1
	}
	return e.Count
}

func recordFeedback(t *testing.T, a *activities.Activities, in activities.FeedbackInput) error {
	t.Helper()
	_, err := execute[activities.FeedbackResult](t, a, "RecordFeedback", in)
	return err
}

func TestRecordFeedbackCountsAChainOnce(t *testing.T) {
	store := stacktest.Store(t)
	a := &activities.Activities{Store: store}
	locate, forecast, place := chainCatalog(t, store)
	now := time.Now()
	in := activities.FeedbackInput{
		Key: stacktest.UniqueName("navi/test/run/chain-"),
		Invocations: []twnm.Invocation{
			{API: locate, Inputs: []string{place}, Success: true, Time: now},
			{API: forecast, Success: false, Time: now},
		},
		Transitions: []twnm.Transition{{Kind: twnm.Then, From: locate, To: forecast, Success: false, Time: now}},
	}

	for attempt := 1; attempt <= 2; attempt++ {
		res, err := execute[activities.FeedbackResult](t, a, "RecordFeedback", in)
		require.NoError(t, err, "attempt %d", attempt)
		assert.Equal(t, in.Key, res.Recorded.Key, "the result holds the chain recorded, for the run's history")
		assert.Len(t, res.Recorded.Invocations, 2)
		assert.Equal(t, attempt == 1, res.Fresh, "only the first attempt counts the chain")
		s, f := counts(t, store, locate)
		assert.Equal(t, [2]int64{1, 0}, [2]int64{s, f}, "%s after attempt %d", locate, attempt)
		s, f = counts(t, store, forecast)
		assert.Equal(t, [2]int64{0, 1}, [2]int64{s, f}, "%s after attempt %d", forecast, attempt)
		assert.Equal(t, int64(1), thenCount(t, store, locate, forecast), "THEN edge after attempt %d", attempt)
	}

	// Another chain of the same run is another key: it counts.
	in.Key += "-2"
	require.NoError(t, recordFeedback(t, a, in))
	s, _ := counts(t, store, locate)
	assert.Equal(t, int64(2), s)
	assert.Equal(t, int64(2), thenCount(t, store, locate, forecast))
}

// A call whose answer showed an output its record does not list teaches the graph that output:
// the forecast's point, nested in Locate's answer, becomes the producer of Forecast's input.
// A failed call's observation teaches nothing.
func TestRecordFeedbackAddsObservedOutputs(t *testing.T) {
	store := stacktest.Store(t)
	a := &activities.Activities{Store: store}
	locate, forecast, place := chainCatalog(t, store)
	prefix := strings.TrimSuffix(locate, "Locate")
	now := time.Now()
	in := activities.FeedbackInput{Key: stacktest.UniqueName("navi/test/run/chain-"), Invocations: []twnm.Invocation{
		{API: locate, Inputs: []string{place}, Success: true, Time: now,
			Observed: []twnm.Param{{Name: prefix + "zone", Type: "string", Path: "where." + prefix + "zone"}}},
		{API: forecast, Success: false, Time: now, Observed: []twnm.Param{{Name: prefix + "ignored", Type: "string"}}},
	}}
	require.NoError(t, recordFeedback(t, a, in))
	g, err := store.Subgraph(context.Background(), []string{locate, forecast}, neo4j.SubgraphOptions{Hops: 1})
	require.NoError(t, err)
	outputs := func(api string) []string {
		id, ok := g.APIByName(api)
		require.True(t, ok, api)
		var names []string
		for _, p := range g.Node(id).API.Outputs {
			names = append(names, p.Name)
		}
		return names
	}
	assert.Equal(t, []string{prefix + "point", prefix + "zone"}, outputs(locate))
	assert.Equal(t, []string{prefix + "outlook"}, outputs(forecast), "a failed call's answer is not learned")
	s, _ := counts(t, store, locate)
	assert.Equal(t, int64(1), s, "the counts recorded with it stay")
}

func TestRecordFeedbackUnknownAPIRecordsNothing(t *testing.T) {
	store := stacktest.Store(t)
	a := &activities.Activities{Store: store}
	locate, forecast, _ := chainCatalog(t, store)
	ghost := locate + "Ghost"
	key := stacktest.UniqueName("navi/test/run/chain-")
	now := time.Now()
	in := activities.FeedbackInput{Key: key,
		Invocations: []twnm.Invocation{{API: locate, Success: true, Time: now}, {API: ghost, Success: true, Time: now}},
		Transitions: []twnm.Transition{{Kind: twnm.Then, From: locate, To: forecast, Success: true, Time: now}},
	}
	err := recordFeedback(t, a, in)
	requireAppError(t, err, activities.ErrTypeNotInGraph, true)
	assert.Contains(t, err.Error(), "name an API or parameter the graph does not have")
	s, f := counts(t, store, locate)
	assert.Equal(t, [2]int64{0, 0}, [2]int64{s, f}, "the known API of the batch is not counted either")
	assert.Equal(t, int64(-1), thenCount(t, store, locate, forecast), "no THEN edge is created")

	// The failed batch did not use up its key: the same chain without the unknown API counts.
	in.Invocations = in.Invocations[:1]
	require.NoError(t, recordFeedback(t, a, in))
	s, _ = counts(t, store, locate)
	assert.Equal(t, int64(1), s)
}

func TestRecordFeedbackErrors(t *testing.T) {
	store := stacktest.Store(t)
	tests := []struct {
		name     string
		acts     *activities.Activities
		key      string
		wantType string
	}{
		{"empty key", &activities.Activities{Store: store}, "", activities.ErrTypeInvalidInput},
		{"blank key", &activities.Activities{Store: store}, " \t ", activities.ErrTypeInvalidInput},
		{"no store", &activities.Activities{}, stacktest.UniqueName("navi/test/run/chain-"), activities.ErrTypeNoGraphStore},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			locate, _, _ := chainCatalog(t, store)
			in := activities.FeedbackInput{Key: tt.key, Invocations: []twnm.Invocation{{API: locate, Success: true, Time: time.Now()}}}
			requireAppError(t, recordFeedback(t, tt.acts, in), tt.wantType, true)
			s, f := counts(t, store, locate)
			assert.Equal(t, [2]int64{0, 0}, [2]int64{s, f}, "nothing is recorded")
		})
	}
}

// A rejected run's chain is recorded again with Forget: the sub-goals the run attached to its
// tools go, and retrieval no longer finds them by that request.
func TestRecordFeedbackForgetsARejectedRunsGoals(t *testing.T) {
	store := stacktest.Store(t)
	a := &activities.Activities{Store: store, Embedder: stacktest.Embedder(t)}
	locate, forecast, _ := chainCatalog(t, store)
	now := time.Now()
	run := activities.FeedbackInput{Key: stacktest.UniqueName("navi/test/run/chain-"),
		Invocations: []twnm.Invocation{{API: locate, Success: true, Time: now}, {API: forecast, Success: true, Time: now}},
		Transitions: []twnm.Transition{{Kind: twnm.Then, From: locate, To: forecast, Success: true, Time: now}},
		Goals:       []activities.GoalFeedback{{API: forecast, Text: "the outlook at " + forecast}}}
	require.NoError(t, recordFeedback(t, a, run))
	goals, err := store.Goals(context.Background(), forecast)
	require.NoError(t, err)
	require.Equal(t, []string{"the outlook at " + forecast}, goals)

	rating := activities.FeedbackInput{Key: "rating/" + run.Key, Forget: []string{run.Key},
		Invocations: []twnm.Invocation{{API: forecast, Success: false, Revised: true, Time: now}}}
	require.NoError(t, recordFeedback(t, a, rating))
	goals, err = store.Goals(context.Background(), forecast)
	require.NoError(t, err)
	assert.Empty(t, goals)
	s, f := counts(t, store, forecast)
	assert.Equal(t, [2]int64{0, 1}, [2]int64{s, f}, "the answering call's success was taken back")
}

// A run proposes the sub-goals it served (GoalsOnRating): retrieval learns nothing from the
// run alone; a good verdict records them under the run's key, a second one adds nothing, and a
// later bad verdict takes them back.
func TestRecordFeedbackLearnsGoalsOnAGoodVerdict(t *testing.T) {
	store := stacktest.Store(t)
	a := &activities.Activities{Store: store, Embedder: stacktest.Embedder(t)}
	_, forecast, _ := chainCatalog(t, store)
	now := time.Now()
	text := "the outlook at " + forecast
	goals := func() []string {
		got, err := store.Goals(context.Background(), forecast)
		require.NoError(t, err)
		return got
	}
	run := activities.FeedbackInput{Key: stacktest.UniqueName("navi/test/run/chain-"), GoalsOnRating: true,
		Invocations: []twnm.Invocation{{API: forecast, Success: true, Time: now}},
		Goals:       []activities.GoalFeedback{{API: forecast, Text: text}}}
	require.NoError(t, recordFeedback(t, a, run))
	assert.Empty(t, goals(), "the run alone teaches retrieval nothing")

	for i := range 2 {
		good := activities.FeedbackInput{Key: fmt.Sprintf("rating/%s/%d", run.Key, i), Goals: run.Goals, GoalsKey: run.Key,
			Invocations: []twnm.Invocation{{API: forecast, Success: true, Revised: true, Time: now}}}
		require.NoError(t, recordFeedback(t, a, good))
		assert.Equal(t, []string{text}, goals(), "good verdict %d: learned once, under the run's key", i+1)
	}
	bad := activities.FeedbackInput{Key: "rating/bad/" + run.Key, Forget: []string{run.Key},
		Invocations: []twnm.Invocation{{API: forecast, Success: false, Revised: true, Time: now}}}
	require.NoError(t, recordFeedback(t, a, bad))
	assert.Empty(t, goals(), "a later bad verdict takes them back")
}
