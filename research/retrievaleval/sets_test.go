package retrievaleval

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/naviagent/navi/research/chaineval"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sharedData is the development workspace's copy of the public datasets, beside the
// repository. A fresh clone (CI) does not have it: the tests on it are skipped there.
const sharedData = "../../../shared/data"

func dataDir(tb testing.TB) string {
	tb.Helper()
	if _, err := os.Stat(sharedData); os.IsNotExist(err) {
		tb.Skipf("%s not found: the dev-set checks run only in the development workspace", sharedData)
	}
	return sharedData
}

func TestLoadSets(t *testing.T) {
	dir := dataDir(t)
	sets, err := Load(dir, nil, 30, 1)
	require.NoError(t, err)
	require.Len(t, sets, 8)

	tests := []struct {
		name    string
		tasks   int
		apis    int
		ordered bool
		// anyOrder: the task's calls may come in any order (Task.AnyOrder)
		anyOrder bool
		// one task spot-checked
		id, query, final string
		chain            []string
	}{
		{
			name: "StableToolBench", tasks: 765, apis: 2479,
			id: "G1_category/28", query: "I am currently tracking a package with the ID CA107308006SI.",
			final: "suivi_colis.All", chain: []string{"suivi_colis.Latest", "suivi_colis.All"},
		},
		{
			name: "RestBench", tasks: 100, apis: 54, ordered: true,
			id: "tmdb/0", query: "give me the number of movies directed by Sofia Coppola",
			final: "GET_person-person_id-movie_credits", chain: []string{"GET_search-person", "GET_person-person_id-movie_credits"},
		},
		{
			name: "API-Bank", tasks: 50, apis: 71, ordered: true,
			id: "level-3/0", query: "Query meeting of John and send email reminder",
			final: "EmailReminder", chain: []string{"QueryMeeting", "EmailReminder"},
		},
		{
			name: "API-Bank dialogues", tasks: 205, apis: 71, ordered: true,
			id: "level-1-given-desc/AddAgenda-level-1-1", query: "Hi, can you help me add a new schedule for my meeting tomorrow at 2pm? Today is 2021-09-27",
			final: "AddAgenda", chain: []string{"GetUserToken", "AddAgenda"},
		},
		{
			name: "ToolWorld", tasks: 30, apis: 46, ordered: true,
			id: "tw-1-0001", query: "What is the air quality at the centre of Rome?",
			final: "airq.Current", chain: []string{"geo.Geocode", "airq.Current"},
		},
		{
			name: "ToolWorld compound", tasks: ToolWorldCompoundN, apis: 46, ordered: true, anyOrder: true,
			id: "tw-compound-1-0037", query: "What is the weather right now at latitude 31.2304, longitude 121.4737? Also, what time zone",
			final: "geo.Timezone", chain: []string{"skycast.Now", "geo.Geocode", "geo.Timezone"},
		},
		{
			name: "Public specs (dev)", tasks: 56, apis: 599, ordered: true,
			id: "spotify-06", query: "Show me every album Phoebe Bridgers has released.",
			final: "spotify.get-an-artists-albums", chain: []string{"spotify.search", "spotify.get-an-artists-albums"},
		},
		{
			name: "Public specs", tasks: 76, apis: 776, ordered: true,
			id: "gmaps-06", query: "What's the UTC offset in Auckland",
			final: "googlemaps.timezone", chain: []string{"googlemaps.geocode", "googlemaps.timezone"},
		},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := sets[i]
			assert.Equal(t, tt.name, s.Name)
			assert.Len(t, s.Tasks, tt.tasks)
			assert.Len(t, s.Catalog.APIs, tt.apis)
			assert.NotEmpty(t, s.Note)
			known := apiNames(s.Catalog)
			ids := map[string]bool{}
			var spot *Task
			for j := range s.Tasks {
				task := s.Tasks[j]
				require.NotEmpty(t, task.Chain, task.ID)
				assert.Equal(t, task.Chain[len(task.Chain)-1], task.Final, "Final is the last of Chain: %s", task.ID)
				assert.Equal(t, tt.ordered, task.Ordered, task.ID)
				assert.Equal(t, tt.anyOrder, task.AnyOrder, task.ID)
				assert.NotEmpty(t, task.Query, task.ID)
				assert.False(t, ids[task.ID], "task ID %s repeats", task.ID)
				ids[task.ID] = true
				seen := map[string]bool{}
				for _, a := range task.Chain {
					assert.True(t, known[a], "%s: gold %s in the catalog", task.ID, a)
					assert.False(t, seen[a], "%s: %s repeats in the chain", task.ID, a)
					seen[a] = true
				}
				if task.ID == tt.id {
					spot = &s.Tasks[j]
				}
			}
			require.NotNil(t, spot, "task %s", tt.id)
			assert.Contains(t, spot.Query, tt.query)
			assert.Equal(t, tt.final, spot.Final)
			assert.Equal(t, tt.chain, []string(spot.Chain))
		})
	}
}

func TestStableToolBenchRepeatsDropped(t *testing.T) {
	s, err := StableToolBench(dataDir(t))
	require.NoError(t, err)
	for _, task := range s.Tasks {
		if task.ID == "G2_category/3990" {
			// Listed: Video Downloader, Generate PDF, Video Downloader.
			assert.Equal(t, []string{"Video_Downloader.Video_Downloader", "Web_Capture.Generate_PDF"}, []string(task.Chain))
			assert.Equal(t, "Web_Capture.Generate_PDF", task.Final)
			return
		}
	}
	t.Fatal("no task G2_category/3990")
}

func TestLoadErrors(t *testing.T) {
	dir := dataDir(t)
	writeTo := func(t *testing.T, rel, content string) string {
		t.Helper()
		root := t.TempDir()
		p := filepath.Join(root, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		return root
	}
	link := func(t *testing.T, root, rel string) {
		t.Helper()
		abs, err := filepath.Abs(filepath.Join(dir, rel))
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o755))
		require.NoError(t, os.Symlink(abs, filepath.Join(root, rel)))
	}
	stbQuery := `{"query":"q","query_id":7,"api_list":[{"category_name":"c","tool_name":"T","api_name":"A","api_description":"d","required_parameters":[],"optional_parameters":[],"method":"GET"}],"relevant APIs":%s}`

	tests := []struct {
		name    string
		setup   func(t *testing.T) string
		sets    []string
		wantErr []string
	}{
		{
			name:    "unknown set",
			setup:   func(t *testing.T) string { return dir },
			sets:    []string{"toolbench"},
			wantErr: []string{`unknown set "toolbench"`, "stabletoolbench, restbench, apibank, apibank-dialogues, toolworld, toolworld-compound, publicdev, public"},
		},
		{
			name:    "set named twice",
			setup:   func(t *testing.T) string { return dir },
			sets:    []string{"toolworld", "ToolWorld"},
			wantErr: []string{"named twice"},
		},
		{
			name:    "missing folder",
			setup:   func(t *testing.T) string { return t.TempDir() },
			sets:    []string{"restbench"},
			wantErr: []string{"tmdb_oas.json"},
		},
		{
			name: "relevant API not a pair",
			setup: func(t *testing.T) string {
				return writeTo(t, stableToolBenchDir+"/G1_x.json", "["+fmt.Sprintf(stbQuery, `[["T"]]`)+"]")
			},
			sets:    []string{"stabletoolbench"},
			wantErr: []string{"G1_x.json", "record 0 (query 7)", "relevant APIs[0]", `want [tool, api], got ["T"]`},
		},
		{
			name: "relevant API not in the catalog",
			setup: func(t *testing.T) string {
				return writeTo(t, stableToolBenchDir+"/G1_x.json", "["+fmt.Sprintf(stbQuery, `[["T","B"]]`)+"]")
			},
			sets:    []string{"stabletoolbench"},
			wantErr: []string{"G1_x.json", "query 7", "relevant API T / B is not in the catalog"},
		},
		{
			name: "api-bank chain with an API the catalog lacks",
			setup: func(t *testing.T) string {
				root := writeTo(t, chaineval.APIBankLevel3Path, `[{"requirement":"do it","response":"","apis":[{"api_name":"NoSuchAPI","input":{},"output":{}}]}]`)
				link(t, root, chaineval.APIBankCatalogPath)
				return root
			},
			sets:    []string{"apibank"},
			wantErr: []string{"level-3.json", "chain level-3/0", "gold API NoSuchAPI is not in catalog api-bank"},
		},
		{
			name: "restbench malformed queries",
			setup: func(t *testing.T) string {
				root := writeTo(t, chaineval.RestBenchQueriesPath, `{"query": 1}`)
				link(t, root, chaineval.RestBenchSpecPath)
				return root
			},
			sets:    []string{"restbench"},
			wantErr: []string{"tmdb.json"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(tt.setup(t), tt.sets, 3, 1)
			require.Error(t, err)
			for _, want := range tt.wantErr {
				assert.Contains(t, err.Error(), want)
			}
		})
	}
	_, err := ToolWorld(0, 1)
	assert.ErrorContains(t, err, "n is 0")
}

// The held-out questions about public specs need no shared data: they and the specs are in the
// repository.
func TestPublic(t *testing.T) {
	dir, err := PublicSpecDir()
	require.NoError(t, err)
	s, err := Public(dir)
	require.NoError(t, err)
	assert.Equal(t, "Public specs", s.Name)
	assert.Len(t, s.Catalog.APIs, 776)
	assert.GreaterOrEqual(t, len(s.Tasks), 75)
	providers := map[string]int{}
	for _, a := range s.Catalog.APIs {
		assert.Equal(t, a.Provider, a.Source, a.Name)
		assert.True(t, strings.HasPrefix(a.Name, a.Provider+"."), a.Name)
		providers[a.Provider]++
	}
	assert.Equal(t, map[string]int{"box": 296, "discord": 242, "figma": 47, "googlemaps": 17, "slack": 174}, providers)
	for _, task := range s.Tasks {
		assert.True(t, task.Ordered, task.ID)
		assert.Equal(t, task.Chain.Final(), task.Final, task.ID)
	}

	dev, err := PublicDev(dir)
	require.NoError(t, err)
	assert.Equal(t, "Public specs (dev)", dev.Name)
	devProviders := map[string]int{}
	for _, a := range dev.Catalog.APIs {
		devProviders[a.Provider]++
	}
	assert.Equal(t, map[string]int{"netlify": 174, "openai": 288, "spotify": 97, "twilio": 40}, devProviders)
	assert.Len(t, dev.Tasks, 56)
	for p := range devProviders {
		assert.NotContains(t, providers, p, "a dev spec is no held-out one")
	}

	tests := []struct {
		name, file, content, wantErr string
	}{
		{"not JSON", "public/figma.jsonl", "{", "public/figma.jsonl:1"},
		{"unknown field", "public/figma.jsonl", `{"id":"f","query":"q","chain":["getMe"],"gold":1}`, `unknown field "gold"`},
		{"no id", "public/figma.jsonl", `{"query":"q","chain":["getMe"]}`, "public/figma.jsonl:1: field id is missing"},
		{"no query", "public/figma.jsonl", "\n" + `{"id":"f","chain":["getMe"]}`, "public/figma.jsonl:2 (f): field query"},
		{"no chain", "public/figma.jsonl", `{"id":"f","query":"q"}`, "(f): field chain"},
		{"API of another spec", "public/figma.jsonl", `{"id":"f","query":"q","chain":["pins_list"]}`, "f: gold API figma.pins_list is not in its spec"},
		{"repeated id", "public/figma.jsonl", `{"id":"f","query":"q","chain":["getMe"]}` + "\n" + `{"id":"f","query":"r","chain":["getMe"]}`, "id f repeats"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := publicSet(dir, publicSpecs, fstest.MapFS{tt.file: {Data: []byte(tt.content)}}, "public", "Public specs", "%d %d")
			require.ErrorContains(t, err, tt.wantErr)
		})
	}
}
