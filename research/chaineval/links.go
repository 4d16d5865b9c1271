package chaineval

import (
	"regexp"
	"sort"
	"strings"

	"github.com/naviagent/navi/toolworld"
	"github.com/naviagent/navi/twnm"
)

// Flow is one gold data flow: output Output of API From bound input Input of API To. Output
// may locate a value inside a structured output ("meetings[0].meeting_time").
type Flow struct {
	From   string `json:"from"`
	Output string `json:"output"`
	To     string `json:"to"`
	Input  string `json:"input"`
}

// Flows returns the chain's gold data flows (its FEEDS transitions), each once.
func (c Chain) Flows() []Flow {
	var out []Flow
	seen := map[Flow]bool{}
	for _, tr := range c.Transitions {
		f := Flow{From: tr.From, Output: tr.FromParam, To: tr.To, Input: tr.ToParam}
		if tr.Kind == twnm.Feeds && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// LinkStats says how well a graph's links cover the gold data flows of a set of chains.
type LinkStats struct {
	// Flows counts the distinct gold flows into linkable inputs (twnm.Linkable) whose producer
	// output and consumer input both exist in the catalog; Covered those the graph links (the
	// two share a parameter node, or a FEEDS edge joins them).
	Flows   int `json:"flows"`
	Covered int `json:"covered"`
	// Unlinkable counts the gold flows into inputs a plan binds when it is built (free text,
	// flags, options); Nested those from a field inside an output the catalog does not list.
	Unlinkable int `json:"unlinkable"`
	Nested     int `json:"nested"`
	// Links counts the links the graph has from an output of one API of a gold chain into an
	// input of another API of the same chain; Correct those that are gold flows.
	Links   int `json:"links"`
	Correct int `json:"correct"`
	// PerInput is the mean number of parameter nodes that can bind a linkable input of the
	// catalog (its own node when another API outputs it, plus its FEEDS sources), over the
	// inputs with at least one.
	PerInput float64 `json:"per_input"`
	Missed   []Flow  `json:"missed,omitempty"`
}

// Coverage is Covered / Flows.
func (s LinkStats) Coverage() float64 { return ratio(s.Covered, s.Flows) }

// Precision is Correct / Links.
func (s LinkStats) Precision() float64 { return ratio(s.Correct, s.Links) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// indexSuffix is a path that only picks an item of a list output ("members[0]"): the flow
// is from the list itself.
var indexSuffix = regexp.MustCompile(`^([^\[\].]+)(\[\d+\])+$`)

// fromList is f with an output that only picks an item of a list read as the list itself
// (indexSuffix).
func fromList(f Flow) Flow {
	if m := indexSuffix.FindStringSubmatch(f.Output); m != nil {
		f.Output = m[1]
	}
	return f
}

// Links measures the graph's links against the gold flows of chains.
func Links(g *twnm.Graph, chains []Chain) LinkStats {
	return LinksEach(func(int) *twnm.Graph { return g }, chains)
}

// LinksEach is Links where chain i was searched in graph(i), a graph of its own (one that
// learned from the other chains): each gold flow and each link between a chain's APIs is
// judged in its chain's graph, each once (in the first chain that has it). PerInput is the
// first chain's graph's.
func LinksEach(graph func(i int) *twnm.Graph, chains []Chain) LinkStats {
	var s LinkStats
	gold := map[Flow]bool{}
	for i, c := range chains {
		g := graph(i)
		for _, f := range c.Flows() {
			alts := c.Alternatives[f]
			f = fromList(f)
			if gold[f] {
				continue
			}
			// The flow, and the same flow from each output the gold accepts in its place.
			fs := []Flow{f}
			for _, o := range alts {
				a := f
				a.Output = o
				fs = append(fs, a)
			}
			hasOut, isLinked := false, false
			for _, a := range fs {
				gold[a] = true
				_, ok := g.ParamOf(a.From, a.Output, false)
				hasOut = hasOut || ok
				isLinked = isLinked || ok && linked(g, a)
			}
			if field, ok := c.Fields[f]; ok {
				// The value came from a field inside the output: the flow is from the catalog's
				// output at that path, or from one the catalog does not list.
				name, listed := fieldOutput(g, f.From, field)
				f.Output, hasOut = field, listed
				if listed {
					f.Output, isLinked = name, linked(g, Flow{From: f.From, Output: name, To: f.To, Input: f.Input})
					gold[f] = true
				}
			}
			in, ok := input(g, f.To, f.Input)
			switch {
			case !ok || !hasOut && !nested(f.Output):
				continue // not in the catalog
			case !hasOut:
				s.Nested++
			case !twnm.Linkable(in):
				s.Unlinkable++
			default:
				s.Flows++
				if isLinked {
					s.Covered++
				} else {
					s.Missed = append(s.Missed, f)
				}
			}
		}
	}
	counted := map[Flow]bool{}
	for i, c := range chains {
		g := graph(i)
		for _, p := range c.APIs {
			for _, q := range c.APIs {
				if p == q {
					continue
				}
				pid, ok1 := g.APIByName(p)
				qid, ok2 := g.APIByName(q)
				if !ok1 || !ok2 {
					continue
				}
				for _, out := range g.Node(pid).API.Outputs {
					for _, in := range g.Node(qid).API.Inputs {
						f := Flow{From: p, Output: out.Name, To: q, Input: in.Name}
						if counted[f] || !twnm.Linkable(in) || !linked(g, f) {
							continue
						}
						counted[f] = true
						s.Links++
						if gold[f] {
							s.Correct++
						}
					}
				}
			}
		}
	}
	var inputs, sources int
	if len(chains) == 0 {
		return s
	}
	g := graph(0)
	for _, id := range g.APIs() {
		for _, e := range g.Inputs(id) {
			n := 0
			for _, p := range g.Producers(e.From) {
				if p != id {
					n++
					break
				}
			}
			for _, f := range g.In(e.From) {
				if f.Kind == twnm.Feeds && len(g.Producers(f.From)) > 0 {
					n++
				}
			}
			if n > 0 {
				inputs++
				sources += n
			}
		}
	}
	if inputs > 0 {
		s.PerInput = float64(sources) / float64(inputs)
	}
	sort.Slice(s.Missed, func(i, j int) bool { return flowKey(s.Missed[i]) < flowKey(s.Missed[j]) })
	return s
}

func flowKey(f Flow) string { return f.To + "\x00" + f.Input + "\x00" + f.From + "\x00" + f.Output }

// fieldOutput names api's output at path (twnm.Param.Path), or named path.
func fieldOutput(g *twnm.Graph, api, path string) (string, bool) {
	id, ok := g.APIByName(api)
	if !ok || g.Node(id).API == nil {
		return "", false
	}
	for _, o := range g.Node(id).API.Outputs {
		if o.Path == path || o.Name == path {
			return o.Name, true
		}
	}
	return "", false
}

// nested reports whether an output name locates a field inside an output.
func nested(output string) bool { return strings.ContainsAny(output, ".[") }

// input returns the catalog entry of input name of API api.
func input(g *twnm.Graph, api, name string) (twnm.Param, bool) {
	id, ok := g.APIByName(api)
	if !ok {
		return twnm.Param{}, false
	}
	for _, p := range g.Node(id).API.Inputs {
		if p.Name == name {
			return p, true
		}
	}
	return twnm.Param{}, false
}

// linked reports whether the graph links f: its output and input share a parameter node, or
// a FEEDS edge joins them.
func linked(g *twnm.Graph, f Flow) bool {
	from, ok1 := g.ParamOf(f.From, f.Output, false)
	to, ok2 := g.ParamOf(f.To, f.Input, true)
	if !ok1 || !ok2 {
		return false
	}
	if from == to {
		return true
	}
	_, ok := g.Edge(twnm.Feeds, from, to)
	return ok
}

// ToolWorldChains turns generated tool-world tasks into gold chains: the gold chain's APIs,
// its flows, and the inputs the query states.
func ToolWorldChains(tasks []toolworld.Task) []Chain {
	chains := make([]Chain, 0, len(tasks))
	for _, t := range tasks {
		c := Chain{ID: t.ID, Query: t.Query, Known: map[string]string{}}
		if len(t.GoldChain) == 0 {
			continue
		}
		final := t.GoldChain.Final()
		seen := map[string]bool{final: true}
		for _, a := range t.GoldChain {
			if !seen[a] {
				seen[a] = true
				c.APIs = append(c.APIs, a)
			}
		}
		c.APIs = append(c.APIs, final) // last, even where it was called before too
		for k, v := range t.Given {
			c.Known[k] = v
		}
		links := map[[2]string]bool{}
		for _, f := range t.GoldFlow {
			c.Transitions = append(c.Transitions, twnm.Transition{Kind: twnm.Feeds, From: f.FromAPI, To: f.ToAPI, FromParam: f.Output, ToParam: f.Input, Success: true})
			if l := [2]string{f.FromAPI, f.ToAPI}; !links[l] && f.FromAPI != f.ToAPI {
				links[l] = true
				c.Links = append(c.Links, l)
			}
		}
		chains = append(chains, c)
	}
	return chains
}
