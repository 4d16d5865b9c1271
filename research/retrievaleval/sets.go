package retrievaleval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/naviagent/navi/research/chaineval"
	"github.com/naviagent/navi/toolspec"
	"github.com/naviagent/navi/toolworld"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/catalogs"
)

// Task is one query with its gold APIs.
type Task struct {
	ID    string
	Query string
	// Final is the gold final API: the last of Chain.
	Final string
	// Chain holds the gold APIs of the task without repeats, in call order when Ordered.
	Chain   toolspec.Chain
	Ordered bool
	// AnyOrder says that the calls of Chain may come in any order: a compound request's parts
	// are planned together, and a plan is its gold chain where it makes the same calls.
	AnyOrder bool
}

// Set is one dev set: tasks and the catalog whose APIs are ranked for them (all of it).
type Set struct {
	Name    string
	Catalog twnm.Catalog
	Tasks   []Task
	Note    string
}

// Keys of the sets for Load, in their default order.
const (
	KeyStableToolBench = "stabletoolbench"
	KeyRestBench       = "restbench"
	KeyAPIBank         = "apibank"
	KeyAPIBankDialogs  = "apibank-dialogues"
	KeyToolWorld       = "toolworld"
	// KeyToolWorldCompound is the tool world's compound requests (two or three requests in one).
	KeyToolWorldCompound = "toolworld-compound"
)

// ToolWorldCompoundN is how many compound tool-world tasks Load generates: as many as `make
// bench` runs (BENCH_COMPOUND_ARGS).
const ToolWorldCompoundN = 60

// SetKeys are the keys Load knows, in the default order.
// The held-out set of public specs comes last: it is reported, never tuned on.
var SetKeys = []string{KeyStableToolBench, KeyRestBench, KeyAPIBank, KeyAPIBankDialogs, KeyToolWorld, KeyToolWorldCompound, KeyPublicDev, KeyPublic}

// Paths of the sets' files under the data folder (shared/data, see its README.md).
const (
	stableToolBenchDir = "stabletoolbench/solvable_queries/test_instruction"
)

// ToolWorldBaseURL is the base URL given to toolworld.Catalog: a placeholder, as nothing is
// called.
const ToolWorldBaseURL = "http://toolworld.invalid"

// NeedsData reports whether the set of key (case-insensitive) is read from the shared data
// folder: all but the tool world, which is generated, and the public specs, which the
// repository holds.
func NeedsData(key string) bool {
	return !strings.EqualFold(key, KeyToolWorld) && !strings.EqualFold(key, KeyToolWorldCompound) &&
		!strings.EqualFold(key, KeyPublic) && !strings.EqualFold(key, KeyPublicDev)
}

// Load loads the sets named by names (keys of SetKeys, case-insensitive; none means all), in
// that order. dataDir is the shared data folder; it is needed by every set but the tool world,
// which generates toolWorldN tasks from seed, and the two sets of public specs, which come
// from the repository (PublicSpecDir).
func Load(dataDir string, names []string, toolWorldN int, seed int64) ([]Set, error) {
	if len(names) == 0 {
		names = SetKeys
	}
	seen := map[string]bool{}
	var sets []Set
	for _, n := range names {
		key := strings.ToLower(strings.TrimSpace(n))
		if seen[key] {
			return nil, fmt.Errorf("retrieval sets: %q named twice", n)
		}
		seen[key] = true
		var s Set
		var err error
		switch key {
		case KeyStableToolBench:
			s, err = StableToolBench(dataDir)
		case KeyRestBench:
			s, err = RestBench(dataDir)
		case KeyAPIBank:
			s, err = APIBank(dataDir)
		case KeyAPIBankDialogs:
			s, err = APIBankDialogues(dataDir)
		case KeyToolWorld:
			s, err = ToolWorld(toolWorldN, seed)
		case KeyToolWorldCompound:
			s, err = ToolWorldCompound(ToolWorldCompoundN, seed)
		case KeyPublic, KeyPublicDev:
			var dir string
			if dir, err = PublicSpecDir(); err == nil {
				load := Public
				if key == KeyPublicDev {
					load = PublicDev
				}
				s, err = load(dir)
			}
		default:
			return nil, fmt.Errorf("retrieval sets: unknown set %q, want one of %s", n, strings.Join(SetKeys, ", "))
		}
		if err != nil {
			return nil, err
		}
		sets = append(sets, s)
	}
	return sets, nil
}

// stbFileQuery is what the loader reads of one StableToolBench query.
type stbFileQuery struct {
	Query    string            `json:"query"`
	QueryID  json.RawMessage   `json:"query_id"`
	Relevant []json.RawMessage `json:"relevant APIs"`
	APIList  []struct {
		Tool string `json:"tool_name"`
		API  string `json:"api_name"`
	} `json:"api_list"`
}

// StableToolBench loads the test queries of dataDir/stabletoolbench/solvable_queries/
// test_instruction, ranked over the catalog catalogs.StableToolBench imports from the same
// files. A relevant API [tool, api] is named as that catalog names the endpoint: the loader
// walks the files in the importer's order and pairs each first-met (tool, api) with the
// catalog's API at the same position. Task IDs are the file's base name and the query_id,
// "G1_category/28".
func StableToolBench(dataDir string) (Set, error) {
	dir := filepath.Join(dataDir, stableToolBenchDir)
	cat, err := catalogs.StableToolBench(dir)
	if err != nil {
		return Set{}, err
	}
	files, err := filepath.Glob(filepath.Join(dir, "G*.json"))
	if err != nil {
		return Set{}, fmt.Errorf("stabletoolbench queries %s: %w", dir, err)
	}
	sort.Strings(files) // the importer's order
	names := map[[2]string]string{}
	next := 0
	var tasks []Task
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return Set{}, fmt.Errorf("stabletoolbench queries: %w", err)
		}
		var queries []stbFileQuery
		if err := json.Unmarshal(data, &queries); err != nil {
			return Set{}, fmt.Errorf("stabletoolbench queries %s: want an array of queries: %w", f, err)
		}
		base := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
		for i, q := range queries {
			id := base + "/" + rawLabel(q.QueryID)
			where := func(format string, args ...any) error {
				return fmt.Errorf("stabletoolbench queries %s: record %d (query %s): %s", f, i, rawLabel(q.QueryID), fmt.Sprintf(format, args...))
			}
			for j, a := range q.APIList {
				k := [2]string{a.Tool, a.API}
				if _, ok := names[k]; ok {
					continue
				}
				if next >= len(cat.APIs) || cat.APIs[next].Provider != strings.TrimSpace(a.Tool) {
					return Set{}, where("api_list[%d] (%s / %s): the catalog's order differs from the files' (is catalogs.StableToolBench deduplicating otherwise?)", j, a.Tool, a.API)
				}
				names[k] = cat.APIs[next].Name
				next++
			}
			if strings.TrimSpace(q.Query) == "" {
				return Set{}, where("field query is missing or empty")
			}
			if len(q.Relevant) == 0 {
				return Set{}, where("field relevant APIs is missing or empty")
			}
			t := Task{ID: id, Query: strings.TrimSpace(q.Query)}
			for j, raw := range q.Relevant {
				var pair []string
				if err := json.Unmarshal(raw, &pair); err != nil || len(pair) != 2 {
					return Set{}, where("field relevant APIs[%d]: want [tool, api], got %s", j, bytes.TrimSpace(raw))
				}
				name, ok := names[[2]string{pair[0], pair[1]}]
				if !ok {
					return Set{}, where("relevant API %s / %s is not in the catalog", pair[0], pair[1])
				}
				t.Chain = appendNew(t.Chain, name)
			}
			t.Final = t.Chain.Final()
			tasks = append(tasks, t)
		}
	}
	if next != len(cat.APIs) {
		return Set{}, fmt.Errorf("stabletoolbench queries %s: the files list %d endpoints, the catalog has %d", dir, next, len(cat.APIs))
	}
	return Set{
		Name:    "StableToolBench",
		Catalog: cat,
		Tasks:   tasks,
		Note: fmt.Sprintf("%d ToolBench test queries (G1–G3 test_instruction) over the %d endpoints of their candidate lists. "+
			"Gold = the query's relevant APIs (unordered in the data; repeats dropped); Final = the last one listed, "+
			"whose list order mostly follows the order the query asks for them.", len(tasks), len(cat.APIs)),
	}, nil
}

// RestBench loads RestBench's TMDB queries (dataDir/restbench/datasets/tmdb.json) with their
// gold endpoint sequences, ranked over the operations of dataDir/restbench/specs/tmdb_oas.json
// (as chaineval.RestBenchSet reads them).
func RestBench(dataDir string) (Set, error) {
	s, err := fromChains(chaineval.RestBenchSet(dataDir))
	if err != nil {
		return Set{}, err
	}
	s.Note = fmt.Sprintf("%d TMDB queries over the %d operations of the TMDB OpenAPI spec. "+
		"Gold = the solution's endpoints in call order (repeats dropped); Final = the last call.", len(s.Tasks), len(s.Catalog.APIs))
	return s, nil
}

// APIBank loads API-Bank's level-3 chains (dataDir/api-bank/test-data/level-3.json), ranked
// over the whole API-Bank catalog (dataDir/api-bank/api_catalog_extracted.json), as
// chaineval.APIBankSet reads them. A chain naming an API the catalog lacks is an error.
func APIBank(dataDir string) (Set, error) {
	s, err := fromChains(chaineval.APIBankSet(dataDir))
	if err != nil {
		return Set{}, err
	}
	s.Note = fmt.Sprintf("%d level-3 chains over all %d APIs of API-Bank's catalog, the level-3 copies of the names both sets use (ToolSearcher is a candidate, never gold). "+
		"Gold = the chain's calls in order, ToolSearcher dropped, repeats counted once; Final = the last call.", len(s.Tasks), len(s.Catalog.APIs))
	return s, nil
}

// APIBankDialogues loads API-Bank's level-1 and level-2 dialogues
// (dataDir/api-bank/lv1-lv2-samples) whose calls form one chain (chaineval.APIBankDialogueSet),
// ranked over the whole API-Bank catalog: the first thing the user says against the call that
// answers it. Many of API-Bank's tools differ only by what they do to one object (AddAgenda,
// ModifyAgenda, DeleteAgenda, QueryAgenda), which the level-3 chains hardly test.
func APIBankDialogues(dataDir string) (Set, error) {
	cs, err := chaineval.APIBankDialogueSet(dataDir)
	s, err := fromChains(cs, err)
	if err != nil {
		return Set{}, err
	}
	s.Note = fmt.Sprintf("%d level-1 and level-2 dialogues over all %d APIs of API-Bank's catalog; the query is the user's first turn. "+
		"Gold = the dialogue's calls in order (ToolSearcher dropped), kept when every call feeds the last one (%d dialogues that make "+
		"two requests or call nothing left out); Final = the last call.", len(s.Tasks), len(s.Catalog.APIs), cs.Skipped)
	return s, nil
}

// fromChains is the retrieval set of a set of gold chains (a loader's result, passed on with
// its error), without its note: each chain a task over the same catalog.
func fromChains(cs chaineval.Set, err error) (Set, error) {
	if err != nil {
		return Set{}, err
	}
	tasks, err := chainTasks(cs.Name+" "+cs.Source, cs.Chains, cs.Catalog)
	if err != nil {
		return Set{}, err
	}
	return Set{Name: cs.Name, Catalog: cs.Catalog, Tasks: tasks}, nil
}

// ToolWorld generates n tool-world tasks from seed (every difficulty, in turn) and ranks them
// over the tool world's catalog.
func ToolWorld(n int, seed int64) (Set, error) {
	s, err := toolWorldSet(n, seed, "")
	if err != nil {
		return Set{}, err
	}
	s.Name = "ToolWorld"
	s.Note = fmt.Sprintf("%d generated tasks (seed %d, easy/medium/hard in turn) over the tool world's %d APIs. "+
		"Gold = the task's chain in call order; Final = the API that answers.", len(s.Tasks), seed, len(s.Catalog.APIs))
	return s, nil
}

// ToolWorldCompound generates n compound tool-world tasks from seed (two or three requests in
// one, as `make bench` runs them) and ranks them over the tool world's catalog. A task's plan
// is its gold chain where it makes the same calls, in any order (Task.AnyOrder); its final step
// is the last part's.
func ToolWorldCompound(n int, seed int64) (Set, error) {
	s, err := toolWorldSet(n, seed, toolworld.DifficultyCompound)
	if err != nil {
		return Set{}, err
	}
	for i := range s.Tasks {
		s.Tasks[i].AnyOrder = true
	}
	s.Name = "ToolWorld compound"
	s.Note = fmt.Sprintf("%d generated compound tasks (seed %d) over the tool world's %d APIs. "+
		"Gold = the calls of every part, in any order; Final = the last part's answer.", len(s.Tasks), seed, len(s.Catalog.APIs))
	return s, nil
}

// toolWorldSet generates n tool-world tasks of difficulty (every one in turn where "") from
// seed, each with its chain in call order and the API that answers last.
func toolWorldSet(n int, seed int64, difficulty string) (Set, error) {
	if n <= 0 {
		return Set{}, fmt.Errorf("toolworld tasks: n is %d, want > 0", n)
	}
	gen, err := toolworld.GenerateTasks(toolworld.TaskOptions{Seed: uint64(seed), N: n, Difficulty: difficulty})
	if err != nil {
		return Set{}, fmt.Errorf("toolworld tasks: %w", err)
	}
	cat := toolworld.Catalog(ToolWorldBaseURL)
	known := apiNames(cat)
	tasks := make([]Task, 0, len(gen))
	for _, g := range gen {
		if len(g.GoldChain) == 0 {
			return Set{}, fmt.Errorf("toolworld task %s: empty gold chain", g.ID)
		}
		t := Task{ID: g.ID, Query: g.Query, Final: g.GoldChain.Final(), Ordered: true}
		for _, a := range g.GoldChain {
			if !known[a] {
				return Set{}, fmt.Errorf("toolworld task %s: gold API %s is not in the catalog", g.ID, a)
			}
			if a != t.Final {
				t.Chain = appendNew(t.Chain, a)
			}
		}
		t.Chain = append(t.Chain, t.Final) // last, even where it was called before too
		tasks = append(tasks, t)
	}
	return Set{Catalog: cat, Tasks: tasks}, nil
}

// chainTasks turns gold chains into ordered tasks, checking that every gold API is in cat.
func chainTasks(source string, chains []chaineval.Chain, cat twnm.Catalog) ([]Task, error) {
	known := apiNames(cat)
	tasks := make([]Task, 0, len(chains))
	for _, c := range chains {
		if len(c.APIs) == 0 {
			return nil, fmt.Errorf("%s: chain %s: no APIs", source, c.ID)
		}
		if strings.TrimSpace(c.Query) == "" {
			return nil, fmt.Errorf("%s: chain %s: empty query", source, c.ID)
		}
		t := Task{ID: c.ID, Query: strings.TrimSpace(c.Query), Ordered: true}
		for _, a := range c.APIs {
			if !known[a] {
				return nil, fmt.Errorf("%s: chain %s: gold API %s is not in catalog %s", source, c.ID, a, cat.Name)
			}
			t.Chain = appendNew(t.Chain, a)
		}
		t.Final = t.Chain.Final()
		tasks = append(tasks, t)
	}
	return tasks, nil
}

func apiNames(cat twnm.Catalog) map[string]bool {
	m := make(map[string]bool, len(cat.APIs))
	for _, a := range cat.APIs {
		m[a.Name] = true
	}
	return m
}

// appendNew appends s to xs unless xs holds it already.
func appendNew(xs []string, s string) []string {
	for _, x := range xs {
		if x == s {
			return xs
		}
	}
	return append(xs, s)
}

// rawLabel renders a JSON id (a string or a number) for IDs and errors.
func rawLabel(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return "?"
	}
	return string(bytes.TrimSpace(raw))
}
