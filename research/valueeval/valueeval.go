// Package valueeval measures whether the values a user states reach the inputs of the calls
// that need them: extract.Values over what the user said, against the arguments of real calls
// (API-Bank's dialogues and level-3 chains) and the values the tool world's tasks state.
//
// For each call of an API of the catalog, Extract reads the user's words with a slot for every
// input of every API of the catalog, as the Retrieve activity reads a request against the APIs
// it read (extract.SlotsOf; these catalogs are of 46 to 71 APIs, and the activity reads 60),
// so that the inputs of other APIs compete for the values as they do in a run. Each argument
// of the call is then
//
//   - right: the value bound equals the argument (case and spaces aside, numbers by value);
//   - wrong: a value was bound, another one;
//   - missed: nothing was bound, and the user's words hold the argument verbatim (a value the
//     user never wrote, such as a token another call gave, is no miss);
//
// and each input the call did not take that a value was bound to is extra. Precision is
// right / (right + wrong), recall right / (right + wrong + missed).
package valueeval

import (
	"fmt"
	"github.com/naviagent/navi/twnm/extract"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/naviagent/navi/research/chaineval"
	"github.com/naviagent/navi/research/retrievaleval"
	"github.com/naviagent/navi/research/runlogs"
	"github.com/naviagent/navi/toolworld"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/catalogs"
	"github.com/naviagent/navi/twnm/invlog"
)

// Call is one call of a set: its API, what the user had said before it, and its arguments.
type Call struct {
	API  string
	Said string
	// Args are the call's arguments by input name; for the tool world, only those the task
	// states (the others come from earlier calls).
	Args map[string]string
	// Fed names the inputs another call fed, which the user's words should not fill: extra
	// where bound. Only the tool world says which; elsewhere every input not in Args is.
	Fed map[string]bool
}

// Set is a catalog and calls of its APIs.
type Set struct {
	Name    string
	Note    string
	Catalog twnm.Catalog
	Calls   []Call
}

// Result is a set's score.
type Result struct {
	Set     string `json:"set"`
	Calls   int    `json:"calls"`   // calls of an API of the catalog, scored
	Unknown int    `json:"unknown"` // calls of an API the catalog lacks, not scored
	Args    int    `json:"args"`    // their arguments
	Stated  int    `json:"stated"`  // arguments the user's words hold verbatim
	Right   int    `json:"right"`
	Wrong   int    `json:"wrong"`
	Missed  int    `json:"missed"`
	Extra   int    `json:"extra"`
}

// Precision is right / (right + wrong); 0 when nothing was bound.
func (r Result) Precision() float64 { return ratio(r.Right, r.Right+r.Wrong) }

// Recall is right / (right + wrong + missed): of the arguments the user's words should have
// given, the share bound right. 0 when there was nothing to bind.
func (r Result) Recall() float64 { return ratio(r.Right, r.Right+r.Wrong+r.Missed) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Evaluate scores the calls of s.
func Evaluate(s Set) Result {
	apis := make(map[string]twnm.API, len(s.Catalog.APIs))
	for _, a := range s.Catalog.APIs {
		apis[a.Name] = a
	}
	slots := extract.SlotsOf(s.Catalog.APIs)
	read := map[string]map[string]string{} // by what was said
	res := Result{Set: s.Name}
	for _, c := range s.Calls {
		a, ok := apis[c.API]
		if !ok {
			res.Unknown++
			continue
		}
		res.Calls++
		got, ok := read[c.Said]
		if !ok {
			got = extract.Values(c.Said, slots)
			read[c.Said] = got
		}
		prefix := a.Name + "."
		for _, p := range a.Inputs {
			v, bound := got[prefix+p.Name]
			want, given := c.Args[p.Name]
			if !given {
				if bound && (c.Fed == nil || c.Fed[p.Name]) {
					res.Extra++
				}
				continue
			}
			stated := Stated(c.Said, want)
			switch {
			case bound && Same(v, want):
				res.Right++
			case bound:
				res.Wrong++
			case stated:
				res.Missed++
			}
			res.Args++
			if stated {
				res.Stated++
			}
		}
	}
	return res
}

// Same reports whether a bound value is the argument: equal but for case and surrounding
// space, or equal numbers.
func Same(got, want string) bool {
	got, want = strings.TrimSpace(got), strings.TrimSpace(want)
	if strings.EqualFold(got, want) {
		return true
	}
	g, err1 := strconv.ParseFloat(got, 64)
	w, err2 := strconv.ParseFloat(want, 64)
	return err1 == nil && err2 == nil && g == w
}

// Stated reports whether the user's words hold value verbatim, as whole words (case and runs
// of spaces aside): "2" is not stated by "12 people".
func Stated(said, value string) bool {
	value = strings.Join(strings.Fields(value), " ")
	if value == "" {
		return false
	}
	pat := regexp.QuoteMeta(value)
	if isWordChar(value[0]) {
		pat = `\b` + pat
	}
	if isWordChar(value[len(value)-1]) {
		pat += `\b`
	}
	re, err := regexp.Compile(`(?i)` + pat)
	if err != nil {
		return false
	}
	return re.MatchString(strings.Join(strings.Fields(said), " "))
}

func isWordChar(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// SetKeys are the sets Load knows, in report order.
var SetKeys = []string{"apibank", "apibank-dialogues", "toolworld", "toolworld-renamed"}

// Load reads the sets named by keys (SetKeys) from dataDir (API-Bank's, as chaineval reads
// them) and generates the tool world's n tasks of each kind with seed.
func Load(dataDir string, keys []string, n int, seed int64) ([]Set, error) {
	var out []Set
	for _, k := range keys {
		var s Set
		var err error
		switch k {
		case "apibank":
			s, err = APIBankLevel3(dataDir)
		case "apibank-dialogues":
			s, err = APIBankDialogues(dataDir)
		case "toolworld":
			s, err = ToolWorld(n, seed, "")
		case "toolworld-renamed":
			s, err = ToolWorld(n, seed, toolworld.DifficultyRenamed)
		default:
			return nil, fmt.Errorf("unknown set %q; known: %s", k, strings.Join(SetKeys, ", "))
		}
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// APIBankDialogues is API-Bank's level-1 and level-2 dialogues: every call, with the User
// turns before it as what was said.
func APIBankDialogues(dataDir string) (Set, error) {
	cat, err := catalogs.APIBank(filepath.Join(dataDir, chaineval.APIBankCatalogPath))
	if err != nil {
		return Set{}, err
	}
	ds, err := runlogs.APIBankSaid(filepath.Join(dataDir, chaineval.APIBankDialoguesPath))
	if err != nil {
		return Set{}, err
	}
	s := Set{Name: "API-Bank dialogues", Catalog: cat}
	for _, d := range ds {
		for i, ev := range d.Run.Events {
			s.Calls = append(s.Calls, Call{API: ev.API, Said: d.Said[i], Args: args(ev.Inputs)})
		}
	}
	s.Note = fmt.Sprintf("%d calls of %d level-1 and level-2 dialogues; what was said: the user's turns before the call", len(s.Calls), len(ds))
	return s, nil
}

// APIBankLevel3 is API-Bank's level-3 chains: every call, with the requirement as what was
// said.
func APIBankLevel3(dataDir string) (Set, error) {
	cat, err := catalogs.APIBankPreferring(filepath.Join(dataDir, chaineval.APIBankCatalogPath), "lv3")
	if err != nil {
		return Set{}, err
	}
	runs, err := runlogs.APIBankLevel3(filepath.Join(dataDir, chaineval.APIBankLevel3Path))
	if err != nil {
		return Set{}, err
	}
	s := Set{Name: "API-Bank", Catalog: cat}
	for _, r := range runs {
		for _, ev := range r.Events {
			s.Calls = append(s.Calls, Call{API: ev.API, Said: r.Query, Args: args(ev.Inputs)})
		}
	}
	s.Note = fmt.Sprintf("%d calls of %d level-3 chains; what was said: the requirement", len(s.Calls), len(runs))
	return s, nil
}

func args(vs []invlog.Value) map[string]string {
	m := make(map[string]string, len(vs))
	for _, v := range vs {
		m[v.Param] = v.Value
	}
	return m
}

// ToolWorld is n generated tasks of the tool world (of difficulty, "" for easy, medium and
// hard in turn): each step of a task's gold chain a call, with the task's query as what was
// said and the values it states as arguments; the inputs an earlier step feeds are Fed.
func ToolWorld(n int, seed int64, difficulty string) (Set, error) {
	if n <= 0 {
		return Set{}, fmt.Errorf("toolworld tasks: n is %d, want > 0", n)
	}
	tasks, err := toolworld.GenerateTasks(toolworld.TaskOptions{Seed: uint64(seed), N: n, Difficulty: difficulty})
	if err != nil {
		return Set{}, fmt.Errorf("toolworld tasks: %w", err)
	}
	cat := toolworld.Catalog(retrievaleval.ToolWorldBaseURL)
	name := "ToolWorld"
	if difficulty != "" {
		name += " " + difficulty
	}
	s := Set{Name: name, Catalog: cat}
	for _, t := range tasks {
		for _, api := range t.GoldChain {
			c := Call{API: api, Said: t.Query, Args: map[string]string{}, Fed: map[string]bool{}}
			for k, v := range t.Given {
				if p, ok := strings.CutPrefix(k, api+"."); ok {
					c.Args[p] = v
				}
			}
			for _, f := range t.GoldFlow {
				if f.ToAPI == api {
					c.Fed[f.Input] = true
				}
			}
			s.Calls = append(s.Calls, c)
		}
	}
	s.Note = fmt.Sprintf("%d calls of %d generated tasks (seed %d); what was said: the query; arguments: the values it states", len(s.Calls), len(tasks), seed)
	return s, nil
}

// Markdown is the table of results, one row per set, with the sets' notes below it.
func Markdown(sets []Set, results []Result) string {
	var b strings.Builder
	b.WriteString("| set | calls | arguments | stated | right | wrong | missed | extra | precision | recall |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range results {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %d | %.3f | %.3f |\n",
			r.Set, r.Calls, r.Args, r.Stated, r.Right, r.Wrong, r.Missed, r.Extra, r.Precision(), r.Recall())
	}
	b.WriteString("\n")
	for _, s := range sets {
		fmt.Fprintf(&b, "- %s: %s.\n", s.Name, s.Note)
	}
	return b.String()
}
