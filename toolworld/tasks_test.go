package toolworld

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/twnm"
)

func genTasks(t *testing.T, opts TaskOptions) []Task {
	t.Helper()
	tasks, err := GenerateTasks(opts)
	require.NoError(t, err)
	require.Len(t, tasks, opts.N)
	return tasks
}

func jsonl(t *testing.T, tasks []Task) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, task := range tasks {
		require.NoError(t, enc.Encode(task))
	}
	return b.Bytes()
}

// normalize passes v through JSON, so that in-process ints compare with decoded float64s.
func normalize(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	var out any
	require.NoError(t, json.Unmarshal(data, &out))
	return out
}

func TestGenerateTasksDeterministic(t *testing.T) {
	a := jsonl(t, genTasks(t, TaskOptions{Seed: 7, N: 120}))
	b := jsonl(t, genTasks(t, TaskOptions{Seed: 7, N: 120}))
	assert.Equal(t, string(a), string(b))
	c := jsonl(t, genTasks(t, TaskOptions{Seed: 8, N: 120}))
	assert.NotEqual(t, string(a), string(c))
	// Task i does not depend on N.
	short := genTasks(t, TaskOptions{Seed: 7, N: 10})
	assert.Equal(t, string(jsonl(t, short)), string(jsonl(t, genTasks(t, TaskOptions{Seed: 7, N: 120})[:10])))
}

func TestGenerateTasksDifficulty(t *testing.T) {
	calls := map[string][2]int{DifficultyEasy: {1, 1}, DifficultyMedium: {2, 2}, DifficultyHard: {3, 4}}
	for d, r := range calls {
		for _, task := range genTasks(t, TaskOptions{Seed: 3, N: 60, Difficulty: d}) {
			assert.Equal(t, d, task.Difficulty)
			assert.GreaterOrEqual(t, len(task.GoldChain), r[0], task.ID)
			assert.LessOrEqual(t, len(task.GoldChain), r[1], task.ID)
		}
	}
	counts := map[string]int{}
	for _, task := range genTasks(t, TaskOptions{Seed: 1, N: 300, Difficulty: DifficultyAll}) {
		counts[task.Difficulty]++
		assert.Equal(t, calls[task.Difficulty][0] == 1, len(task.GoldChain) == 1, task.ID)
	}
	assert.Equal(t, map[string]int{DifficultyEasy: 100, DifficultyMedium: 100, DifficultyHard: 100}, counts)

	_, err := GenerateTasks(TaskOptions{N: 1, Difficulty: "extreme"})
	assert.Error(t, err)
	_, err = GenerateTasks(TaskOptions{N: -1})
	assert.Error(t, err)
}

func TestRunChainMatchesExpected(t *testing.T) {
	for _, task := range genTasks(t, TaskOptions{Seed: 1, N: 300}) {
		got, err := RunChain(task)
		require.NoError(t, err, task.ID)
		assert.Equal(t, normalize(t, task.Expected), normalize(t, got), task.ID)

		// The same after a JSONL round trip.
		var back Task
		require.NoError(t, json.Unmarshal(jsonl(t, []Task{task}), &back))
		got2, err := RunChain(back)
		require.NoError(t, err, task.ID)
		assert.Equal(t, normalize(t, task.Expected), normalize(t, got2), task.ID)
	}
	_, err := RunChain(Task{ID: "x", GoldChain: []string{"no.Such"}})
	assert.Error(t, err)
	_, err = RunChain(Task{ID: "x", GoldChain: []string{"stay.HotelDetails"},
		GoldFlow: []Flow{{FromAPI: "stay.SearchHotels", Output: "hotel_id", ToAPI: "stay.HotelDetails", Input: "hotel_id"}}})
	assert.Error(t, err, "a flow from an API that has not run")
}

func TestTasksOverHTTP(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	for _, task := range genTasks(t, TaskOptions{Seed: 2, N: 120}) {
		assert.Equal(t, normalize(t, task.Expected), normalize(t, runOverHTTP(t, ts.URL, task)), task.ID)
	}
}

// runOverHTTP calls the task's gold chain on the server at base, each input bound as the task
// says, and returns the final API's answer.
func runOverHTTP(t *testing.T, base string, task Task) map[string]any {
	t.Helper()
	outs := map[string]map[string]any{}
	var last map[string]any
	for _, name := range task.GoldChain {
		a := apiByName(t, name)
		in, err := bindInputs(task, a, outs)
		require.NoError(t, err, task.ID)
		status, body, _ := call(t, base, a, in)
		require.Equal(t, http.StatusOK, status, "%s %s: %s", task.ID, name, body)
		last = decode(t, body)
		outs[name] = last
	}
	return last
}

func TestTaskQueriesStateLeaves(t *testing.T) {
	for _, task := range genTasks(t, TaskOptions{Seed: 1, N: 300}) {
		require.NotEmpty(t, task.Given, task.ID)
		assert.NotContains(t, task.Query, "{", task.ID)
		for k, v := range task.Given {
			assert.Contains(t, task.Query, v, "%s: %s", task.ID, k)
		}
	}
	// Every API has a question template naming each required input.
	for _, tool := range Registry() {
		tpl, ok := asks[tool.API.Name]
		require.True(t, ok, tool.API.Name)
		for _, p := range tool.API.Inputs {
			if !p.Required {
				continue
			}
			ph := "{" + p.Name + "}"
			if _, pair := pointPairs[p.Name]; pair || p.Name == "latitude" || p.Name == "lat" {
				ph = "{point}"
			}
			assert.Contains(t, tpl, ph, tool.API.Name)
		}
	}
}

func TestTaskFlowsMatchByName(t *testing.T) {
	for _, task := range genTasks(t, TaskOptions{Seed: 1, N: 300}) {
		pos := map[string]int{}
		for i, a := range task.GoldChain {
			_, dup := pos[a]
			require.False(t, dup, "%s: %s twice", task.ID, a)
			pos[a] = i
		}
		final := task.GoldChain[len(task.GoldChain)-1]
		bound := map[string]bool{}
		used := map[string]bool{}
		for _, f := range task.GoldFlow {
			assert.Equal(t, f.Output, f.Input, task.ID)
			assert.Less(t, pos[f.FromAPI], pos[f.ToAPI], "%s: %s before %s", task.ID, f.FromAPI, f.ToAPI)
			assert.True(t, hasParam(apiByName(t, f.FromAPI).Outputs, f.Output), "%s: %s outputs %s", task.ID, f.FromAPI, f.Output)
			assert.True(t, hasParam(apiByName(t, f.ToAPI).Inputs, f.Input), "%s: %s takes %s", task.ID, f.ToAPI, f.Input)
			bound[f.ToAPI+"."+f.Input] = true
			used[f.FromAPI] = true
		}
		// Every required input is given or flows in, and every API but the last feeds another.
		for _, a := range task.GoldChain {
			for _, p := range apiByName(t, a).Inputs {
				_, given := task.Given[a+"."+p.Name]
				if p.Required {
					assert.True(t, given != bound[a+"."+p.Name], "%s: %s.%s bound once", task.ID, a, p.Name)
				}
			}
			if a != final {
				assert.True(t, used[a], "%s: %s output unused", task.ID, a)
			}
		}
	}
}

func TestTaskChainsAreFeasiblePlans(t *testing.T) {
	full := twnm.New()
	for _, tool := range Registry() {
		_, err := full.AddAPI(tool.API)
		require.NoError(t, err)
	}
	search := twnm.DefaultAlphaBeta()
	plan := func(g *twnm.Graph, task Task) twnm.Plan {
		final := task.GoldChain[len(task.GoldChain)-1]
		target, ok := g.APIByName(final)
		require.True(t, ok, final)
		sub, err := search.Search(context.Background(), g, twnm.SearchRequest{Target: target, Known: task.Given})
		require.NoError(t, err, task.ID)
		p, err := sub.Plan(g, task.Given)
		require.NoError(t, err, task.ID)
		return p
	}
	for _, task := range genTasks(t, TaskOptions{Seed: 1, N: 300}) {
		// Over the chain's own APIs: the search must find a plan binding every input.
		g := twnm.New()
		for _, a := range task.GoldChain {
			_, err := g.AddAPI(apiByName(t, a))
			require.NoError(t, err)
		}
		p := plan(g, task)
		assert.Empty(t, p.Missing(), "%s: %s", task.ID, strings.Join(task.GoldChain, " -> "))
		if task.Difficulty == DifficultyEasy {
			require.Len(t, p.Steps, 1, task.ID)
			assert.Equal(t, task.GoldChain[0], p.Steps[0].API, task.ID)
		}
		// Over the whole registry: feasible, though it may pick other producers.
		assert.Empty(t, plan(full, task).Missing(), task.ID)
	}
}

func TestChainInputs(t *testing.T) {
	task := Task{ID: "t", GoldChain: []string{"geo.Geocode", "weather.Current"},
		GoldFlow: []Flow{{FromAPI: "geo.Geocode", Output: "latitude", ToAPI: "weather.Current", Input: "latitude"},
			{FromAPI: "geo.Geocode", Output: "longitude", ToAPI: "weather.Current", Input: "longitude"}},
		Given: map[string]string{"geo.Geocode.city": "Rome"}}
	in, err := ChainInputs(task)
	require.NoError(t, err)
	assert.Equal(t, "Rome", in["geo.Geocode.city"])
	assert.Equal(t, "41.9028", in["weather.Current.latitude"], "the value the first call produced")
	assert.NotEmpty(t, in["weather.Current.longitude"])
}

// Renamed tasks chain through outputs named otherwise than the inputs they feed, as the
// tool world's renames say; classic tasks never touch the renamed providers.
func TestRenamedTasks(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	tasks := genTasks(t, TaskOptions{Seed: 1, N: 120, Difficulty: DifficultyRenamed})
	renamedFlows, renamedAPIs := 0, map[string]bool{}
	for _, task := range tasks {
		assert.Equal(t, DifficultyRenamed, task.Difficulty)
		assert.True(t, strings.HasPrefix(task.ID, "tw-renamed-1-"), task.ID)
		assert.Contains(t, []int{2, 3}, len(task.GoldChain), task.ID)
		differ := false
		for _, f := range task.GoldFlow {
			assert.True(t, feeds(f.FromAPI, f.Output, f.Input, true), "%s: %+v", task.ID, f)
			assert.True(t, hasParam(apiByName(t, f.FromAPI).Outputs, f.Output), "%s: %+v", task.ID, f)
			assert.True(t, hasParam(apiByName(t, f.ToAPI).Inputs, f.Input), "%s: %+v", task.ID, f)
			if f.Output != f.Input {
				differ = true
				renamedFlows++
			}
		}
		assert.True(t, differ, "%s: no flow across names", task.ID)
		for k, v := range task.Given {
			assert.Contains(t, task.Query, v, "%s: %s", task.ID, k)
		}
		for _, a := range task.GoldChain {
			if tool, _ := world().byName[a]; tool.Renamed {
				renamedAPIs[a] = true
			}
		}

		// In process and over HTTP, the gold chain gives the expected answer.
		got, err := RunChain(task)
		require.NoError(t, err, task.ID)
		assert.Equal(t, normalize(t, task.Expected), normalize(t, got), task.ID)
		assert.Equal(t, normalize(t, task.Expected), normalize(t, runOverHTTP(t, ts.URL, task)), task.ID)
	}
	assert.Greater(t, renamedFlows, 120)
	assert.Len(t, renamedAPIs, 5, "every renamed provider's API takes part")

	for _, task := range genTasks(t, TaskOptions{Seed: 1, N: 300}) {
		for _, a := range task.GoldChain {
			assert.False(t, world().byName[a].Renamed, "%s: classic task uses %s", task.ID, a)
		}
	}
}

// A search result's id is nested: the chain reads it from the first result.
func TestRenamedNestedFlow(t *testing.T) {
	task := Task{ID: "x", GoldChain: []string{"tunes.SearchTracks", "lyrico.Lyrics"},
		GoldFlow: []Flow{{FromAPI: "tunes.SearchTracks", Output: "id", ToAPI: "lyrico.Lyrics", Input: "track_id"}},
		Given:    map[string]string{"tunes.SearchTracks.artistName": "Nina Simone"}}
	in, err := ChainInputs(task)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(in["lyrico.Lyrics.track_id"], "trk-nina-simone-"), in["lyrico.Lyrics.track_id"])
	out, err := world().byName["tunes.SearchTracks"].Handle(map[string]string{"artistName": "Nina Simone"})
	require.NoError(t, err)
	results := out["results"].([]any)
	require.Len(t, results, 1)
	assert.Equal(t, in["lyrico.Lyrics.track_id"], results[0].(map[string]any)["id"])
	assert.NotContains(t, out, "id", "the id is inside the list, not at the top")
	// The track's own API agrees with the search on its title.
	track, err := world().byName["tunes.Track"].Handle(map[string]string{"trackId": in["lyrico.Lyrics.track_id"]})
	require.NoError(t, err)
	assert.Equal(t, results[0].(map[string]any)["title"], track["title"])
	assert.Equal(t, "Nina Simone", track["artistName"])
}

func TestCompoundTasks(t *testing.T) {
	tasks, err := GenerateTasks(TaskOptions{Seed: 1, N: 40, Difficulty: DifficultyCompound})
	require.NoError(t, err)
	shared := 0
	for _, task := range tasks {
		require.GreaterOrEqual(t, len(task.Parts), 2, task.ID)
		require.LessOrEqual(t, len(task.Parts), 3, task.ID)
		assert.True(t, strings.HasPrefix(task.ID, "tw-compound-1-"), task.ID)
		assert.Equal(t, DifficultyCompound, task.Difficulty)
		calls := map[string]int{}
		finals := map[string]bool{}
		for i, p := range task.Parts {
			assert.Contains(t, task.Query, strings.TrimSuffix(p.Query[1:], "."), "the query asks part %d", i)
			// Each part's answer is its own chain's.
			exp, err := RunChain(Task{GoldChain: p.GoldChain, GoldFlow: p.GoldFlow, Given: p.Given})
			require.NoError(t, err)
			assert.Equal(t, p.Expected, exp)
			final := p.GoldChain[len(p.GoldChain)-1]
			assert.False(t, finals[final], "%s: two parts end at %s", task.ID, final)
			finals[final] = true
			for _, a := range p.GoldChain {
				calls[a]++
			}
		}
		// The task's chain holds every part's calls once, and runs to the last part's answer.
		assert.Len(t, task.GoldChain, len(calls), task.ID)
		for a, n := range calls {
			assert.Contains(t, task.GoldChain, a)
			if n > 1 {
				shared++
				assert.False(t, finals[a], "%s: %s answers one part and serves another", task.ID, a)
			}
		}
		exp, err := RunChain(task)
		require.NoError(t, err)
		assert.Equal(t, task.Expected, exp)
		assert.Equal(t, task.Parts[len(task.Parts)-1].Expected, task.Expected)
	}
	assert.NotZero(t, shared, "some parts share a call")
	// Compound tasks are not among all's.
	all, err := GenerateTasks(TaskOptions{Seed: 1, N: 30})
	require.NoError(t, err)
	for _, task := range all {
		assert.Empty(t, task.Parts)
	}
}
