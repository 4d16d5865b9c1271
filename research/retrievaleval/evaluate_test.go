package retrievaleval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm"
)

// byName is a test double, not a retrieval method: it ranks the whole catalog in name order
// whatever the query.
var byName = Method{
	Name: "by-name",
	Note: "the catalog in name order",
	New: func(_ context.Context, s Set) (Ranker, error) {
		cat := s.Catalog
		var names []string
		for _, a := range cat.APIs {
			names = append(names, a.Name)
		}
		slices.Sort(names)
		return RankerFunc(func(context.Context, string) ([]string, error) { return names, nil }), nil
	},
}

// fixed ranks by a table from query to ranking.
func fixed(name string, rankings map[string][]string) Method {
	return Method{Name: name, New: func(context.Context, Set) (Ranker, error) {
		return RankerFunc(func(_ context.Context, q string) ([]string, error) {
			r, ok := rankings[q]
			if !ok {
				return nil, errors.New("no ranking for " + q)
			}
			return r, nil
		}), nil
	}}
}

func catalogOf(names ...string) twnm.Catalog {
	c := twnm.Catalog{Name: "test"}
	for _, n := range names {
		c.APIs = append(c.APIs, twnm.API{Name: n})
	}
	return c
}

// testSets are two small sets whose scores under byName are worked out by hand.
func testSets() []Set {
	// Names in order: A B C D E F G H I J K L.
	letters := catalogOf("L", "K", "J", "I", "H", "G", "F", "E", "D", "C", "B", "A")
	return []Set{
		{
			Name:    "Letters",
			Catalog: letters,
			Note:    "twelve letters",
			Tasks: []Task{
				{ID: "a", Query: "qa", Final: "A", Chain: []string{"A"}},                      // rank 1
				{ID: "b", Query: "qb", Final: "D", Chain: []string{"B", "D"}, Ordered: true},  // ranks 2, 4
				{ID: "c", Query: "qc", Final: "L", Chain: []string{"F", "L"}, Ordered: true},  // ranks 6, 12
				{ID: "d", Query: "qd", Final: "K", Chain: []string{"C", "K"}, Ordered: false}, // ranks 3, 11
			},
		},
		{
			Name:    "Pair",
			Catalog: catalogOf("Y", "X"),
			Tasks:   []Task{{ID: "p", Query: "qp", Final: "Y", Chain: []string{"X", "Y"}}}, // ranks 1, 2
		},
	}
}

func TestEvaluateByName(t *testing.T) {
	var progress bytes.Buffer
	rep, err := Evaluate(context.Background(), testSets(), []Method{byName}, Options{Workers: 3, Progress: &progress})
	require.NoError(t, err)
	require.Len(t, rep.Results, 2)
	assert.Equal(t, 3, rep.Workers)
	assert.Equal(t, []SetInfo{
		{Name: "Letters", Tasks: 4, Total: 4, APIs: 12, Note: "twelve letters"},
		{Name: "Pair", Tasks: 1, Total: 1, APIs: 2},
	}, rep.Sets)
	assert.Contains(t, progress.String(), "Letters (4 tasks, 12 APIs) × by-name: building")
	assert.Contains(t, progress.String(), "Pair × by-name: built in")

	letters, ok := rep.Result("Letters", "by-name")
	require.True(t, ok)
	require.Len(t, letters.PerTask, 4)
	got := map[string]TaskResult{}
	for _, tr := range letters.PerTask {
		got[tr.ID] = tr
	}
	assert.Equal(t, []int{2, 4}, got["b"].ChainRanks)
	assert.Equal(t, 12, got["c"].FinalRank)
	assert.Equal(t, []string{"A", "B", "C", "D", "E"}, got["a"].Top)
	assert.Equal(t, "a", letters.PerTask[0].ID, "tasks keep their order")

	// Final ranks 1, 4, 12, 11: @1 1/4, @3 1/4, @10 2/4, MRR (1 + 1/4 + 1/12 + 1/11)/4.
	assert.InDelta(t, 0.25, letters.Hit1, 1e-12)
	assert.InDelta(t, 0.25, letters.Hit3, 1e-12)
	assert.InDelta(t, 0.5, letters.Hit10, 1e-12)
	assert.InDelta(t, (1+0.25+1.0/12+1.0/11)/4, letters.MRR, 1e-12)
	// Recall@5: 1, 2/2, 0/2, 1/2 → 2.5/4.
	assert.InDelta(t, 2.5/4, letters.Recall5, 1e-12)
	// NDCG@10: a 1; b (1/log2 3 + 1/log2 5)/(1 + 1/log2 3); c 1/log2 7 / (1 + 1/log2 3); d 1/log2 4 / (1 + 1/log2 3).
	idcg2 := 1 + 1/math.Log2(3)
	wantNDCG := (1 + (1/math.Log2(3)+1/math.Log2(5))/idcg2 + (1/math.Log2(7))/idcg2 + 0.5/idcg2) / 4
	assert.InDelta(t, wantNDCG, letters.NDCG10, 1e-12)

	pair, ok := rep.Result("Pair", "by-name")
	require.True(t, ok)
	// Ranking X, Y: Final Y at 2.
	assert.Equal(t, Metrics{Hit1: 0, Hit3: 1, Hit10: 1, MRR: 0.5, Recall5: 1, NDCG10: 1, QueryMillis: pair.QueryMillis}, pair.Metrics)

	_, ok = rep.Result("Pair", "other")
	assert.False(t, ok)
}

func TestEvaluateLimit(t *testing.T) {
	rep, err := Evaluate(context.Background(), testSets(), []Method{byName}, Options{Limit: 2})
	require.NoError(t, err)
	assert.Equal(t, 2, rep.Sets[0].Tasks)
	assert.Equal(t, 4, rep.Sets[0].Total)
	assert.Equal(t, 1, rep.Sets[1].Tasks)
	letters, _ := rep.Result("Letters", "by-name")
	assert.Len(t, letters.PerTask, 2)
	assert.InDelta(t, 0.5, letters.Hit1, 1e-12)
}

func TestEvaluateErrors(t *testing.T) {
	ok := map[string][]string{"qa": {"A"}, "qb": {"B"}, "qc": {"C"}, "qd": {"D"}}
	withRanking := func(q string, r []string) map[string][]string {
		m := map[string][]string{}
		for k, v := range ok {
			m[k] = v
		}
		m[q] = r
		return m
	}
	failing := Method{Name: "broken", New: func(context.Context, Set) (Ranker, error) {
		return nil, errors.New("index failed")
	}}
	tests := []struct {
		name    string
		methods []Method
		sets    []Set
		wantErr []string
	}{
		{"empty ranking", []Method{fixed("m", withRanking("qc", nil))}, nil, nil},
		{"rank error names the task", []Method{fixed("m", map[string][]string{"qa": {"A"}})}, nil,
			[]string{"set Letters, method m, task b: no ranking for qb"}},
		{"unknown API", []Method{fixed("m", withRanking("qc", []string{"A", "Z"}))}, nil,
			[]string{"set Letters, method m, task c: ranking[1]: API \"Z\" is not in the catalog"}},
		{"repeated API", []Method{fixed("m", withRanking("qd", []string{"A", "B", "A"}))}, nil,
			[]string{"task d: ranking[2]: API \"A\" ranked twice"}},
		{"build error", []Method{failing}, nil, []string{"set Letters, method broken: build: index failed"}},
		{"methods named alike", []Method{byName, byName}, nil, []string{"method by-name listed twice"}},
		{"no methods", []Method{}, nil, []string{"no methods"}},
		{"no sets", []Method{byName}, []Set{}, []string{"no sets"}},
		{"empty set", []Method{byName}, []Set{{Name: "E", Catalog: catalogOf("A")}}, []string{"set E has no tasks"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sets := tt.sets
			if sets == nil {
				sets = testSets()[:1]
			}
			_, err := Evaluate(context.Background(), sets, tt.methods, Options{Workers: 2})
			if tt.wantErr == nil {
				assert.NoError(t, err, "an empty ranking is a miss, not an error")
				return
			}
			require.Error(t, err)
			for _, want := range tt.wantErr {
				assert.Contains(t, err.Error(), want)
			}
		})
	}
}

func TestReportOutputs(t *testing.T) {
	rep, err := Evaluate(context.Background(), testSets(), []Method{byName, fixed("oracle", map[string][]string{
		"qa": {"A"}, "qb": {"D", "B"}, "qc": {"L", "F"}, "qd": {"K", "C"}, "qp": {"Y", "X"},
	})}, Options{})
	require.NoError(t, err)

	var md bytes.Buffer
	require.NoError(t, rep.WriteMarkdown(&md))
	out := md.String()
	for _, want := range []string{
		"# Retrieval evaluation",
		"| Method | Letters @1 | R@5 | Pair @1 | R@5 |\n|---|---:|---:|---:|---:|\n",
		"| by-name | 25.0 | 62.5 | 0.0 | 100.0 |\n",
		"| oracle | 100.0 | 100.0 | 100.0 | 100.0 |\n",
		"| Method | Letters @1 | @3 | @10 | MRR | Pair @1 | @3 | @10 | MRR |\n",
		"| by-name | 25.0 | 25.0 | 50.0 | 35.6 | 0.0 | 100.0 | 100.0 | 50.0 |\n",
		"| Method | Letters R@5 | NDCG@10 | Pair R@5 | NDCG@10 |\n",
		"| oracle | 100.0 | 100.0 | 100.0 | 100.0 |\n",
		"| Method | Letters build s | ms/query | Pair build s | ms/query |\n",
		"- **Letters** (4 tasks, 12 APIs ranked): twelve letters\n",
		"- **by-name**: the catalog in name order\n",
	} {
		assert.Contains(t, out, want)
	}
	assert.Equal(t, 4, strings.Count(out, "| Method |"), "summary, final API, chain, time")

	var sum bytes.Buffer
	require.NoError(t, rep.WriteSummary(&sum))
	assert.Contains(t, out, sum.String(), "the report holds the summary")
	assert.NotContains(t, sum.String(), "MRR")

	var js bytes.Buffer
	require.NoError(t, rep.WriteJSON(&js))
	var back Report
	require.NoError(t, json.Unmarshal(js.Bytes(), &back))
	assert.Equal(t, rep, back)
	var raw map[string]any
	require.NoError(t, json.Unmarshal(js.Bytes(), &raw))
	first := raw["results"].([]any)[0].(map[string]any)
	assert.Contains(t, first, "hit_at_1", "metrics are fields of the result")
	task := first["per_task"].([]any)[1].(map[string]any)
	assert.Equal(t, map[string]any{
		"id": "b", "query": "qb", "final": "D", "chain": []any{"B", "D"}, "final_rank": 4.0, "chain_ranks": []any{2.0, 4.0},
		"recall_at_5": 1.0, "ndcg_at_10": task["ndcg_at_10"], "top": []any{"A", "B", "C", "D", "E"}, "ms": task["ms"],
	}, task)
}

// planned is byName that also plans, by a table from query to plan.
func planned(plans map[string][]string) Method {
	return Method{Name: "planned", New: func(ctx context.Context, s Set) (Ranker, error) {
		r, err := byName.New(ctx, s)
		if err != nil {
			return nil, err
		}
		return tablePlanner{Ranker: r, plans: plans}, nil
	}}
}

type tablePlanner struct {
	Ranker
	plans map[string][]string
}

func (p tablePlanner) Plan(_ context.Context, q string) ([]string, error) { return p.plans[q], nil }

func TestEvaluatePlans(t *testing.T) {
	// Of Letters' tasks only b and c are planned: a has one step, d's gold is unordered. b's
	// plan is its chain; c's has the calls in the other order; qa's and qd's plans are never
	// asked for. Pair's one task is not ordered: nothing planned there.
	plans := map[string][]string{"qa": {"A"}, "qb": {"B", "D"}, "qc": {"L", "F"}, "qd": {"C", "K"}}
	rep, err := Evaluate(context.Background(), testSets(), []Method{planned(plans), byName}, Options{Workers: 2})
	require.NoError(t, err)
	letters, ok := rep.Result("Letters", "planned")
	require.True(t, ok)
	assert.Equal(t, 2, letters.MultiStep)
	require.NotNil(t, letters.ChainExact)
	assert.InDelta(t, 0.5, *letters.ChainExact, 1e-12)
	got := map[string][]string{}
	for _, tr := range letters.PerTask {
		got[tr.ID] = tr.Plan
	}
	assert.Equal(t, map[string][]string{"a": nil, "b": {"B", "D"}, "c": {"L", "F"}, "d": nil}, got)
	pair, _ := rep.Result("Pair", "planned")
	assert.Nil(t, pair.ChainExact)
	plain, _ := rep.Result("Letters", "by-name")
	assert.Nil(t, plain.ChainExact, "a ranker that does not plan")

	var md bytes.Buffer
	require.NoError(t, rep.WriteMarkdown(&md))
	assert.Contains(t, md.String(), "## Planned chain")
	assert.Contains(t, md.String(), "| planned | 50.0 | 2 | – | – |")
	assert.Contains(t, md.String(), "| by-name | – | – | – | – |")

	// A task whose calls may come in any order (a compound request's parts) is exact where
	// the plan makes the same calls: c's plan is its chain in the other order.
	sets := testSets()
	sets[0].Tasks[2].AnyOrder = true
	rep, err = Evaluate(context.Background(), sets, []Method{planned(plans)}, Options{Workers: 2})
	require.NoError(t, err)
	letters, _ = rep.Result("Letters", "planned")
	require.NotNil(t, letters.ChainExact)
	assert.InDelta(t, 1, *letters.ChainExact, 1e-12)
	plans["qc"] = []string{"F", "L", "K"}
	rep, err = Evaluate(context.Background(), sets, []Method{planned(plans)}, Options{Workers: 2})
	require.NoError(t, err)
	letters, _ = rep.Result("Letters", "planned")
	assert.InDelta(t, 0.5, *letters.ChainExact, 1e-12, "a call more is not the same calls")

	// A plan naming an API the catalog lacks is an error, naming the task.
	plans["qb"] = []string{"B", "Z"}
	_, err = Evaluate(context.Background(), testSets(), []Method{planned(plans)}, Options{Workers: 1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `task b: plan[1]: API "Z" is not in the catalog`)
}
