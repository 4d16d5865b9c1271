// Package chaineval measures how well graph search recovers real tool chains: given the gold
// final API of a chain and the inputs its query states, does the searched dependency subgraph
// hold exactly the gold chain's APIs and data-flow links? It reports exact recovery and
// node-F1 and link-F1 against the gold chain, for any twnm.Searcher.
package chaineval

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/naviagent/navi/research/runlogs"
	"github.com/naviagent/navi/toolspec"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/invlog"
	"github.com/naviagent/navi/twnm/recall"
)

// Chain is one gold tool chain.
type Chain struct {
	ID    string
	Query string
	APIs  toolspec.Chain // in call order; the last is the target
	Links [][2]string    // data flow between APIs: producer, consumer
	// Known holds the inputs the query states, keyed "API.param" (a twnm.SearchRequest key).
	Known map[string]string
	// Feedback is the chain as the execution feedback would record it, for the variant whose
	// graph has learned from the other chains.
	Invocations []twnm.Invocation
	Transitions []twnm.Transition
	// Alternatives are other outputs of a gold flow's producer that the gold accepts in its
	// place, where the data names no field: RestBench says only that the previous call's id
	// feeds the next call, so any id of its answer, top level or in a list's items, is gold.
	Alternatives map[Flow][]string
	// Fields locates, for a gold flow from a field inside its producer's output (a meeting's
	// time inside a list of meetings), that field as an output path ("meetings[].meeting_time",
	// twnm.Param.Path's form), where the run's answer shows it.
	Fields map[Flow]string
	// Answers are the answers the chain's calls got, for graphs that learn outputs from them
	// (Observed).
	Answers []Answer
}

// Target is the chain's final API.
func (c Chain) Target() string { return c.APIs[len(c.APIs)-1] }

// APIBankChains reads API-Bank's level-3 chains. The data flow is what invlog.Link finds: an
// input whose value an earlier call output. Inputs with no such provenance are the ones the
// requirement states. Calls of one API repeated in a chain count once.
func APIBankChains(path string) ([]Chain, error) {
	runs, err := runlogs.APIBankLevel3(path)
	if err != nil {
		return nil, err
	}
	var chains []Chain
	for i := range runs {
		run := &runs[i]
		if len(run.Events) == 0 {
			continue
		}
		invlog.Link(run)
		chains = append(chains, chainOf(run))
	}
	return chains, nil
}

// APIBankDialogueChains reads API-Bank's level-1 and level-2 dialogues (every *.jsonl below
// dir) as chains, the first User turn being the query. A dialogue counts when its calls form
// one chain: every call feeds the last one, directly or through others, by invlog.Link's data
// flow (the token GetUserToken outputs feeds AddAgenda). Dialogues that make two requests (a
// schedule, then an alarm that nothing of the schedule feeds) or call nothing are left out;
// skipped counts them.
func APIBankDialogueChains(dir string) (chains []Chain, skipped int, err error) {
	runs, err := runlogs.APIBankDialogues(dir)
	if err != nil {
		return nil, 0, err
	}
	for i := range runs {
		run := &runs[i]
		if len(run.Events) == 0 || strings.TrimSpace(run.Query) == "" {
			skipped++
			continue
		}
		invlog.Link(run)
		if !feedsLast(run) {
			skipped++
			continue
		}
		c := chainOf(run)
		// The last call is the target, even where its API was called before too.
		final := run.Events[len(run.Events)-1].API
		c.APIs = append(slices.DeleteFunc(c.APIs, func(a string) bool { return a == final }), final)
		chains = append(chains, c)
	}
	return chains, skipped, nil
}

// feedsLast reports whether every call of run feeds its last call, directly or through other
// calls (by the inputs' provenance).
func feedsLast(run *invlog.Run) bool {
	feeds := make([]bool, len(run.Events))
	last := len(run.Events) - 1
	feeds[last] = true
	for j := last; j >= 0; j-- { // provenance points back, so one backward pass finds them all
		if !feeds[j] {
			continue
		}
		for _, in := range run.Events[j].Inputs {
			if in.From != nil {
				feeds[in.From.Seq] = true
			}
		}
	}
	for j, ev := range run.Events {
		// A repeated call of an API that feeds counts as feeding (a token fetched twice).
		if !feeds[j] && !slices.ContainsFunc(run.Events, func(o invlog.Event) bool { return o.API == ev.API && feeds[o.Seq] }) {
			return false
		}
	}
	return true
}

// listIndex is the index of a list's item in a provenance path ("[0]").
var listIndex = regexp.MustCompile(`\[\d+\]`)

// chainOf is the chain of a linked run: its APIs in call order (repeats once), the inputs no
// call produced (what the query states), its data flow and its feedback.
func chainOf(run *invlog.Run) Chain {
	c := Chain{ID: run.ID, Query: strings.TrimSpace(run.Query), Known: map[string]string{}}
	seen := map[string]bool{}
	for _, ev := range run.Events {
		if !seen[ev.API] {
			seen[ev.API] = true
			c.APIs = append(c.APIs, ev.API)
		}
		for _, in := range ev.Inputs {
			if in.From == nil {
				c.Known[ev.API+"."+in.Param] = in.Value
			}
		}
	}
	for _, ev := range run.Events {
		for _, in := range ev.Inputs {
			if p := in.From; p != nil && strings.Contains(p.Path, ".") {
				if c.Fields == nil {
					c.Fields = map[Flow]string{}
				}
				c.Fields[Flow{From: p.API, Output: p.Param, To: ev.API, Input: in.Param}] = p.Param + listIndex.ReplaceAllString(p.Path, "[]")
			}
		}
	}
	c.Answers = Answers([]invlog.Run{*run})
	links := map[[2]string]bool{}
	c.Invocations, c.Transitions = twnm.Feedback(run)
	for _, tr := range c.Transitions {
		if tr.Kind == twnm.Then && tr.From != tr.To && !links[[2]string{tr.From, tr.To}] {
			links[[2]string{tr.From, tr.To}] = true
			c.Links = append(c.Links, [2]string{tr.From, tr.To})
		}
	}
	return c
}

// RestBenchChains reads RestBench's TMDB queries ([{query, solution: ["GET /path", ...]}]) and
// maps each endpoint to its API in cat by Endpoint.String() (see endpointShape). RestBench gives no values or data
// flow, so this package assumes what its README states: a call's path parameters that name an
// id ({person_id}) are fed by an id of the call before it (its top-level "id", or the id of
// a list's items: Chain.Alternatives), and every other required
// input ({season_number}, {media_type}) is stated by the query. Each consecutive pair of calls
// is a link.
func RestBenchChains(path string, cat twnm.Catalog) ([]Chain, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("restbench chains: %w", err)
	}
	var recs []struct {
		Query    string   `json:"query"`
		Solution []string `json:"solution"`
	}
	if err := json.Unmarshal(b, &recs); err != nil {
		return nil, fmt.Errorf("restbench chains %s: %w", path, err)
	}
	byEndpoint := map[string]*twnm.API{}
	for i := range cat.APIs {
		if e := cat.APIs[i].Endpoint; e != nil {
			byEndpoint[endpointShape(e.String())] = &cat.APIs[i]
		}
	}
	var chains []Chain
	for i, r := range recs {
		if len(r.Solution) == 0 {
			return nil, fmt.Errorf("restbench chains %s: record %d: field solution is empty", path, i)
		}
		c := Chain{ID: fmt.Sprintf("tmdb/%d", i), Query: r.Query, Known: map[string]string{}}
		var prev *twnm.API
		seen := map[string]bool{}
		for _, ep := range r.Solution {
			a, ok := byEndpoint[endpointShape(ep)]
			if !ok {
				return nil, fmt.Errorf("restbench chains %s: record %d: endpoint %q is not in catalog %s", path, i, ep, cat.Name)
			}
			c.Invocations = append(c.Invocations, twnm.Invocation{API: a.Name, Success: true})
			for _, in := range a.Inputs {
				fed := in.In == "path" && strings.HasSuffix(in.Name, "_id") && prev != nil && hasOutput(prev, "id")
				if fed {
					c.Transitions = append(c.Transitions, twnm.Transition{Kind: twnm.Feeds, From: prev.Name, To: a.Name, FromParam: "id", ToParam: in.Name, Success: true})
					f := Flow{From: prev.Name, Output: "id", To: a.Name, Input: in.Name}
					for _, o := range prev.Outputs {
						if strings.HasSuffix(o.Path, "[].id") {
							if c.Alternatives == nil {
								c.Alternatives = map[Flow][]string{}
							}
							c.Alternatives[f] = append(c.Alternatives[f], o.Name)
						}
					}
					continue
				}
				if in.Required {
					c.Known[a.Name+"."+in.Name] = "<" + in.Name + " from the query>"
				}
				if fed || in.Required {
					c.Invocations[len(c.Invocations)-1].Inputs = append(c.Invocations[len(c.Invocations)-1].Inputs, in.Name)
				}
			}
			if prev != nil && prev.Name != a.Name {
				c.Transitions = append(c.Transitions, twnm.Transition{Kind: twnm.Then, From: prev.Name, To: a.Name, Success: true})
				c.Links = append(c.Links, [2]string{prev.Name, a.Name})
			}
			if !seen[a.Name] {
				seen[a.Name] = true
				c.APIs = append(c.APIs, a.Name)
			}
			prev = a
		}
		chains = append(chains, c)
	}
	return chains, nil
}

// endpointShape is "METHOD /path" without surrounding space and with path parameter names
// left out ("GET /person/{}/movie_credits"): the gold data has a stray leading space and one
// misnamed parameter ("/person/{movie_id}/movie_credits").
func endpointShape(ep string) string {
	var b strings.Builder
	skip := false
	for _, r := range strings.TrimSpace(ep) {
		switch {
		case r == '{':
			skip = true
			b.WriteRune(r)
		case r == '}':
			skip = false
			b.WriteRune(r)
		case !skip:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func hasOutput(a *twnm.API, name string) bool {
	for _, o := range a.Outputs {
		if o.Name == name {
			return true
		}
	}
	return false
}

// Result scores one searched chain against its gold chain.
type Result struct {
	Chain          string
	Found          []string    // APIs of the searched subgraph, sorted
	FoundLinks     [][2]string // producer, consumer
	Exact          bool        // same APIs and same links as the gold chain
	NodeF1, LinkF1 float64
}

// Summary aggregates the results of one searcher on one set of chains.
type Summary struct {
	Chains         int
	Exact          int
	NodeF1, LinkF1 float64 // means over chains
	Results        []Result
}

// ExactRate is the fraction of chains recovered exactly.
func (s Summary) ExactRate() float64 {
	if s.Chains == 0 {
		return 0
	}
	return float64(s.Exact) / float64(s.Chains)
}

// Score compares a searched subgraph with a gold chain.
func Score(g *twnm.Graph, c Chain, sub *twnm.Subgraph) Result {
	r := Result{Chain: c.ID}
	for _, id := range sub.APIs {
		r.Found = append(r.Found, g.Node(id).Name)
	}
	sort.Strings(r.Found)
	links := map[[2]string]bool{}
	for _, s := range sub.Upstream() {
		l := [2]string{g.Node(s.Producer).Name, g.Node(s.API).Name}
		if !links[l] {
			links[l] = true
			r.FoundLinks = append(r.FoundLinks, l)
		}
	}
	sort.Slice(r.FoundLinks, func(i, j int) bool {
		return r.FoundLinks[i][0]+"\x00"+r.FoundLinks[i][1] < r.FoundLinks[j][0]+"\x00"+r.FoundLinks[j][1]
	})
	r.NodeF1 = F1(c.APIs, r.Found)
	r.LinkF1 = F1(linkKeys(c.Links), linkKeys(r.FoundLinks))
	r.Exact = r.NodeF1 == 1 && (len(c.Links) == 0 && len(r.FoundLinks) == 0 || r.LinkF1 == 1)
	return r
}

func linkKeys(ls [][2]string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l[0] + " -> " + l[1]
	}
	return out
}

// F1 is the F1 score of found against gold, as sets: 2PR/(P+R), 1 when both are empty.
func F1(gold, found []string) float64 {
	g, f := set(gold), set(found)
	if len(g) == 0 && len(f) == 0 {
		return 1
	}
	tp := 0
	for k := range f {
		if g[k] {
			tp++
		}
	}
	if tp == 0 {
		return 0
	}
	p, r := float64(tp)/float64(len(f)), float64(tp)/float64(len(g))
	return 2 * p * r / (p + r)
}

func set(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// Options configures Evaluate.
type Options struct {
	// Build makes the graph for one chain. Evaluate calls it once per chain with the chains the
	// graph may learn from (all but the evaluated one: leave-one-out), so that a dynamic variant
	// records their feedback and a static one ignores it.
	Build func(ctx context.Context, learn []Chain) (*twnm.Graph, error)
	// Static skips the per-chain rebuild: the graph is built once with no chains to learn from.
	Static   bool
	Searcher twnm.Searcher
	// Relevance, when set, scores the APIs against a chain's query for the search
	// (twnm.SearchRequest.Relevance).
	Relevance func(query string) map[string]float64
	// Branches, when set, names the APIs that serve the other parts of a chain's query,
	// given the APIs the target's subgraph holds: each is searched too and joined to the
	// target's subgraph (twnm.Subgraph.Join), as the agent plans a compound request. g is
	// the graph the chain is searched in.
	Branches func(g *twnm.Graph, query string, covered []string) (recall.Parts, error)
}

// Evaluate searches every chain from its target with its stated inputs and scores the result.
func Evaluate(ctx context.Context, chains []Chain, o Options) (Summary, error) {
	var s Summary
	var g *twnm.Graph
	var err error
	if o.Static {
		if g, err = o.Build(ctx, nil); err != nil {
			return s, err
		}
	}
	for i, c := range chains {
		if !o.Static {
			learn := make([]Chain, 0, len(chains)-1)
			learn = append(learn, chains[:i]...)
			learn = append(learn, chains[i+1:]...)
			if g, err = o.Build(ctx, learn); err != nil {
				return s, err
			}
		}
		target, ok := g.APIByName(c.Target())
		if !ok {
			return s, fmt.Errorf("chain %s: target %s is not in the graph", c.ID, c.Target())
		}
		req := twnm.SearchRequest{Target: target, Known: c.Known}
		if o.Relevance != nil {
			req.Relevance = o.Relevance(c.Query)
		}
		sub, err := o.Searcher.Search(ctx, g, req)
		if err != nil {
			return s, fmt.Errorf("chain %s: %w", c.ID, err)
		}
		if o.Branches != nil {
			parts, err := o.Branches(g, c.Query, sub.APINames(g))
			if err != nil {
				return s, fmt.Errorf("chain %s: branches: %w", c.ID, err)
			}
			if _, err := twnm.JoinBranches(ctx, g, o.Searcher, sub, req, parts.Names(), parts.Allows, nil); err != nil {
				return s, fmt.Errorf("chain %s: %w", c.ID, err)
			}
		}
		s.Results = append(s.Results, Score(g, c, sub))
	}
	return summarize(s.Results, nil), nil
}

// summarize counts and averages the results that keep (nil: all) keeps, by index.
func summarize(results []Result, keep func(i int) bool) Summary {
	s := Summary{Results: results}
	for i, r := range results {
		if keep != nil && !keep(i) {
			continue
		}
		s.Chains++
		if r.Exact {
			s.Exact++
		}
		s.NodeF1 += r.NodeF1
		s.LinkF1 += r.LinkF1
	}
	if s.Chains > 0 {
		s.NodeF1 /= float64(s.Chains)
		s.LinkF1 /= float64(s.Chains)
	}
	return s
}

// Learn records the feedback of chains into g, skipping calls of APIs g does not know. A flow
// whose gold accepts other outputs (Chain.Alternatives) is recorded from the first accepted
// output that g links to the input, as a run would record the output its plan bound.
func Learn(g *twnm.Graph, chains []Chain) error {
	for _, c := range chains {
		var invs []twnm.Invocation
		for _, inv := range c.Invocations {
			if _, ok := g.APIByName(inv.API); ok {
				invs = append(invs, inv)
			}
		}
		var trs []twnm.Transition
		for _, tr := range c.Transitions {
			_, okF := g.APIByName(tr.From)
			_, okT := g.APIByName(tr.To)
			if !okF || !okT {
				continue
			}
			if tr.Kind == twnm.Feeds {
				f := Flow{From: tr.From, Output: tr.FromParam, To: tr.To, Input: tr.ToParam}
				if !linked(g, f) {
					for _, o := range c.Alternatives[f] {
						if f.Output = o; linked(g, f) {
							tr.FromParam = o
							break
						}
					}
				}
			}
			trs = append(trs, tr)
		}
		if err := g.Record(invs, trs); err != nil {
			return fmt.Errorf("learn from chain %s: %w", c.ID, err)
		}
	}
	return nil
}
