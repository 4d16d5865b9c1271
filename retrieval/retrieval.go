// Package retrieval turns a request into candidate plans over the tool graph: recall over the
// graph store's reads (twnm/recall), the final step's choice, the values the request states
// (twnm/extract), graph search from each target (twnm.SearchTargets), and the joining of a
// compound request's other parts into the final step's plan. It is the retrieval service the
// Retrieve activity adapts: the activity adds Temporal's error types, heartbeats and logs.
package retrieval

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/neo4j"
	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/toolspec"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/bm25"
	"github.com/naviagent/navi/twnm/embed"
	"github.com/naviagent/navi/twnm/extract"
	"github.com/naviagent/navi/twnm/recall"
	"github.com/naviagent/navi/twnm/subgoal"
)

// Store is what retrieval reads of the graph store: one read transaction for a request's
// retrieval, and the subgraph of APIs named outright (the checks of a plan's APIs).
type Store interface {
	ReadTx(ctx context.Context, what string, fn func(neo4j.Reads) error) error
	Subgraph(ctx context.Context, targets []string, o neo4j.SubgraphOptions) (*twnm.Graph, error)
}

// InputError is a request Retrieve cannot read: no retry mends it.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

// PlanError is a target's subgraph that makes no plan (a dependency cycle): no retry mends it.
type PlanError struct {
	API string
	Err error
}

func (e *PlanError) Error() string { return fmt.Sprintf("retrieve: plan for %s: %v", e.API, e.Err) }
func (e *PlanError) Unwrap() error { return e.Err }

// StoreError is the graph store's failure: Neo4j down, or its credentials refused.
type StoreError struct{ Err error }

func (e *StoreError) Error() string { return e.Err.Error() }
func (e *StoreError) Unwrap() error { return e.Err }

// partKnown is what one part of the request, clause, binds: the values it states itself, in
// place of those read from the whole request, and of the whole request's values none that
// only another part states (others: every part's clause), unless the part states no value at
// all and borrow (nil: none) says it may take that one for that input (see
// joinParts.borrower); what the user answered (answered) stays. known itself when clause is
// empty.
func partKnown(known, answered map[string]string, clause string, others []string, slots []extract.Slot, today time.Time, borrow func(key, value, from string) bool) map[string]string {
	if strings.TrimSpace(clause) == "" {
		return known
	}
	own := extract.ValuesOn(clause, slots, today)
	out := make(map[string]string, len(known))
	for k, v := range known {
		i := slices.IndexFunc(others, func(o string) bool { return o != clause && statedIn(v, o) })
		if statedIn(v, clause) || i < 0 || len(own) == 0 && borrow != nil && borrow(k, v, others[i]) {
			out[k] = v
		}
	}
	maps.Copy(out, own)
	maps.Copy(out, answered)
	return out
}

// answerValues binds the user's answers to the inputs of the subgraph g (slots). An answer
// binds only where its question asked: the inputs it asked for and those of the steps that
// produce them ("which team?" for a team id binds the team search's name, not a hotel
// search's city, though both are free text). Within that scope it binds the values it
// states, or, when it states none the rules recognise ("rome"), its whole text to the one
// input its question asked for. A later answer wins over an earlier one.
func answerValues(g *twnm.Graph, answers []contract.QA, slots []extract.Slot, today time.Time) map[string]string {
	out := map[string]string{}
	for _, qa := range answers {
		scope := askedSlots(g, qa.Params, slots)
		got := extract.ValuesOn(qa.Answer, scope, today)
		if text := strings.TrimSpace(qa.Answer); len(got) == 0 && len(qa.Params) == 1 && text != "" {
			got = map[string]string{qa.Params[0]: text}
		}
		maps.Copy(out, got)
	}
	return out
}

// askedDepth bounds how far upstream of an asked input an answer binds.
const askedDepth = 3

// askedSlots is the part of slots a question about params ("API.param") asked for: the
// inputs of the params' APIs and of the APIs that produce their required inputs, up to
// askedDepth steps upstream.
func askedSlots(g *twnm.Graph, params []string, slots []extract.Slot) []extract.Slot {
	apis := map[string]bool{}
	var level []twnm.NodeID
	for _, p := range params {
		i := strings.LastIndex(p, ".") // API names may hold dots; parameter names do not
		if i <= 0 || apis[p[:i]] {
			continue
		}
		apis[p[:i]] = true
		if id, ok := g.APIByName(p[:i]); ok {
			level = append(level, id)
		}
	}
	for d := 0; d < askedDepth && len(level) > 0; d++ {
		var next []twnm.NodeID
		for _, id := range level {
			for _, producers := range g.RequiredProducers(id) {
				for _, pid := range producers {
					if name := g.Node(pid).Name; !apis[name] {
						apis[name] = true
						next = append(next, pid)
					}
				}
			}
		}
		level = next
	}
	var out []extract.Slot
	for _, s := range slots {
		if i := strings.LastIndex(s.Key, "."); i > 0 && apis[s.Key[:i]] {
			out = append(out, s)
		}
	}
	return out
}

// statedIn reports whether text writes value (case aside).
func statedIn(value, text string) bool {
	return value != "" && strings.Contains(strings.ToLower(text), strings.ToLower(value))
}

// withoutCalls is known without the values keyed to an input of one of apis ("API.param").
func withoutCalls(known map[string]string, apis []string) map[string]string {
	if len(apis) == 0 {
		return known
	}
	out := make(map[string]string, len(known))
	for k, v := range known {
		// API names may hold dots; parameter names do not.
		if i := strings.LastIndex(k, "."); i > 0 && slices.Contains(apis, k[:i]) {
			continue
		}
		out[k] = v
	}
	return out
}

// goalsOf turns the planner's sub-intents into retrieval's sub-goals, the whole description
// last.
func goalsOf(intents []contract.Intent, desc string) []subgoal.Goal {
	goals := make([]subgoal.Goal, 0, len(intents)+1)
	for i, it := range intents {
		goals = append(goals, subgoal.Goal{Order: i, Rank: it.Rank, Text: it.Text, Values: subgoal.Values(it.Text), Source: subgoal.SourceLLM})
	}
	return append(goals, subgoal.Goal{Order: len(intents), Rank: len(intents), Text: desc, Values: subgoal.Values(desc), Whole: true, Source: subgoal.SourceLLM})
}

// subGoalsShown is how many candidates of each sub-goal the result names.
const subGoalsShown = 3

// Retrieve finds the tools the request needs (twnm/recall): the description is split into
// sub-goals, each retrieved from Neo4j by BM25 (the full-text index) and embedding similarity
// (the vector index) fused; the subgraph around the candidates of all sub-goals is read,
// ranked by relevance; its data-flow links choose the final step, which leads the targets.
// Values the user stated are bound, and graph search runs from each target (NaviAgent
// Section 3.2): the result is the candidates with their executable plans and the serialized
// subgraph. When no tool is relevant enough to the request (the relevance floor), there are
// no candidates: the planner says so instead of answering from a wrong tool. Errors: an
// *InputError for a request it cannot read, a *PlanError for a subgraph that makes no plan, a
// *StoreError for the store's (Neo4j down: a retry may mend it).
func Retrieve(ctx context.Context, store Store, emb embed.Embedder, in contract.RetrieveInput) (contract.RetrieveResult, error) {
	desc := strings.TrimSpace(in.Description)
	if desc == "" {
		return contract.RetrieveResult{}, &InputError{Msg: "retrieve: the recall description is empty"}
	}
	searcher, err := Searcher(in.Search)
	if err != nil {
		return contract.RetrieveResult{}, &InputError{Msg: err.Error()}
	}
	var today time.Time
	if in.Today != "" {
		if today, err = time.Parse(time.DateOnly, in.Today); err != nil {
			return contract.RetrieveResult{}, &InputError{Msg: fmt.Sprintf("retrieve: today %q is no date (YYYY-MM-DD)", in.Today)}
		}
	}
	k := in.K
	if k <= 0 {
		k = contract.DefaultTargets
	}
	exclude := map[string]bool{}
	for _, api := range in.Exclude {
		exclude[api] = true
	}
	opts := recall.Options{}
	// Retrieval's reads (BM25, vectors and past sub-goals of each sub-goal, then the subgraph)
	// are one read transaction: one snapshot, one round of commits.
	var found *recall.Result
	var g *twnm.Graph
	var pool []string
	err = store.ReadTx(ctx, "retrieve", func(rd neo4j.Reads) error {
		found, g, pool = nil, nil, nil // a retried transaction starts over
		var err error
		if len(in.Intents) > 0 {
			found, err = recall.RetrieveGoals(ctx, rd.RecallSource(true), emb, goalsOf(in.Intents, desc), opts)
		} else {
			found, err = recall.Retrieve(ctx, rd.RecallSource(true), emb, desc, opts)
		}
		if err != nil || !found.Whole().Relevant {
			return err
		}
		found.Without(exclude)
		pool = found.Pool(recall.PoolPerGoal)
		if len(pool) == 0 {
			return nil
		}
		// How relevant each candidate is to some part of the request ranks the subgraph read.
		g, err = rd.Subgraph(ctx, pool, neo4j.SubgraphOptions{Relevance: found.Relevance(), MaxAPIs: recall.SubgraphAPIs})
		return err
	})
	if err != nil {
		return contract.RetrieveResult{}, &StoreError{Err: err}
	}
	res := contract.RetrieveResult{APIs: map[string]twnm.API{}, Skipped: found.Skipped}
	for _, goal := range found.Goals {
		res.SubGoals = append(res.SubGoals, subGoalOf(goal))
	}
	if found.Focus != nil {
		head := subGoalOf(*found.Focus)
		res.Head = &head
	}
	if !found.Whole().Relevant {
		return res, nil
	}
	if len(pool) == 0 {
		return res, nil
	}
	// Among producers that bind an input equally well, relevance also ranks the search's choice.
	relevance := found.Relevance()
	res.SubgraphAPIs = countAPIs(g)
	if err := recall.Choose(found, recall.GraphLinks{G: g}, opts); err != nil {
		return contract.RetrieveResult{}, fmt.Errorf("retrieve: choose the final step: %w", err)
	}
	// The targets are the final step and the next best finalists; graph search finds the
	// producers each of them needs.
	var targets []twnm.Match
	for _, name := range found.Finalists() {
		if id, ok := g.APIByName(name); ok && len(targets) < k {
			targets = append(targets, twnm.Match{API: id, Name: name, Score: found.Scores[name]})
		}
	}
	res.Final, res.Chain = found.Final, found.Chain
	if why := refusal(found, g); why != "" {
		res.Refused = why
		return res, nil
	}

	sl := slots(g) // the subgraph's inputs, which every part's values are read for
	// What the user answered and what the caller bound win over what the text states; the
	// answers are returned with the extraction, so that the run binds its calls alike.
	answers := answerValues(g, in.Answers, sl, today)
	answered := map[string]string{}
	maps.Copy(answered, in.Known)
	maps.Copy(answered, answers)
	res.Extracted = extract.ValuesOn(in.Text, sl, today)
	maps.Copy(res.Extracted, answers)
	known := maps.Clone(res.Extracted)
	maps.Copy(known, answered)
	items := extract.Items(in.Text, sl, known)
	excludeIDs := map[twnm.NodeID]bool{}
	for api := range exclude {
		if id, ok := g.APIByName(api); ok {
			excludeIDs[id] = true
		}
	}
	// Graph search reaches an API that creates, updates or deletes only where retrieval chose
	// it: a value for another call is read, not made (the token to add an alarm comes from
	// logging in, not from registering a user whose name the request happens to state).
	// Each target may be one itself.
	searchExclude := producersOff(g, found.Chain)
	maps.Copy(searchExclude, excludeIDs)
	reqs := make([]twnm.SearchRequest, len(targets))
	named := namedAPIs(g, found)
	for i, t := range targets {
		ex := maps.Clone(searchExclude)
		if !excludeIDs[t.API] {
			delete(ex, t.API)
		}
		reqs[i] = twnm.SearchRequest{Target: t.API, Known: known, Exclude: ex, Relevance: relevance, Named: named, Said: recall.Says(found.PartOf(t.Name))}
	}
	subs, err := twnm.SearchTargets(ctx, g, searcher, reqs)
	if err != nil {
		return contract.RetrieveResult{}, fmt.Errorf("retrieve: graph search: %w", err)
	}
	// The request's other parts (a compound request's other intents) join the final step's
	// plan where their chains bind every input, a call they share with it bound alike with
	// values both parts state (one call then serves both). Each part binds the values its own
	// clause states before the whole request's: "the air quality in Rome" next to "the weather
	// in Paris" is geocoded with Rome.
	planKnown := make([]map[string]string, len(reqs))
	for i := range reqs {
		planKnown[i] = reqs[i].Known
	}
	if len(subs) > 0 && subs[0] != nil && found.Final == targets[0].Name {
		j := joinParts{g: g, searcher: searcher, found: found, opts: opts, known: known, answered: answered, slots: sl, today: today, exclude: excludeIDs}
		var parts joinedParts
		if reqs[0], subs[0], parts, planKnown[0], err = j.join(ctx, reqs[0], subs[0]); err != nil {
			return contract.RetrieveResult{}, err
		}
		res.Branches, res.Unplanned = parts.branches, parts.unplanned
	}
	var trees []string
	for i, sg := range subs {
		node := g.Node(reqs[i].Target)
		cand := candidateOf(node, targets[i].Score)
		cand.Relevance = found.Similarity(node.Name)
		if sg != nil {
			p, err := sg.Plan(g, planKnown[i])
			if err != nil {
				return contract.RetrieveResult{}, &PlanError{API: node.Name, Err: err}
			}
			p = twnm.Ground(p, g, reqs[i].Exclude) // ask rather than guess a producer
			p = pickItems(p, g, items)
			cand.Plan, cand.Proven = p, g.ChainRuns(p, planner.DefaultOptions.InertiaReliability)
			cand.Instead = instead(g, p, reqs[i].Exclude, relevance)
			trees = append(trees, sg.Tree(g))
			for _, api := range sg.APIs {
				if n := g.Node(api); n.API != nil {
					res.APIs[n.Name] = *n.API
				}
			}
		}
		res.Candidates = append(res.Candidates, cand)
	}
	res.Tree = strings.Join(trees, "\n")
	// An input a plan leaves missing is one its part of the request does not state: the value
	// another part states for it ("Rome" for the hotels, next to "the fixtures of my team")
	// does not go back with the extraction, or the run would bind it there after all.
	for _, c := range res.Candidates {
		for _, m := range c.Plan.Missing() {
			delete(res.Extracted, m)
		}
	}
	// And a value the final step's plan binds from its own part goes back in place of the
	// whole request's: "Arsenal" for the team search of "who is the top scorer of Arsenal",
	// where two other parts state "New York", which the whole request's reading gives every
	// name input. The run binds its calls with the extraction, which would undo the plan.
	if len(res.Candidates) > 0 && len(res.Branches) > 0 {
		for _, st := range res.Candidates[0].Plan.Steps {
			for _, b := range st.Bindings {
				key := st.API + "." + b.Param
				if _, asked := answered[key]; !asked && b.Source == planner.SourceGiven && b.Value != "" {
					res.Extracted[key] = b.Value
				}
			}
		}
	}
	if err := addChecks(ctx, store, res.APIs); err != nil {
		return contract.RetrieveResult{}, err
	}
	return res, nil
}

// joinParts joins a compound request's other parts to the final step's plan (see Retrieve).
type joinParts struct {
	g        *twnm.Graph
	searcher twnm.Searcher
	found    *recall.Result
	opts     recall.Options
	// known are the values of the request and the answers, answered those of the answers and
	// the caller, slots the subgraph's inputs; exclude the APIs the caller ruled out.
	known, answered map[string]string
	slots           []extract.Slot
	today           time.Time // the day relative days are dated from (zero: none)
	exclude         map[twnm.NodeID]bool
}

// joinedParts are the request's other parts as join leaves them: the APIs of those joined to
// the final step's plan, and the clauses of those whose API could not join it (an input no
// value or call binds, or a call it may not share), that ask for something (not Tentative)
// and that no API of the plan answers (recall.Answers): parts the run does not answer.
type joinedParts struct {
	branches, unplanned []string
}

// join searches the final step's request req again with the values of its own part where
// they differ from the whole request's, joins the other parts' chains to its subgraph sub
// (twnm.JoinBranches), and returns the request and subgraph of the final step, the parts
// joined and left out, and the values its plan binds its calls with (a joined branch's calls
// keep those of their own part).
func (p joinParts) join(ctx context.Context, req twnm.SearchRequest, sub *twnm.Subgraph) (twnm.SearchRequest, *twnm.Subgraph, joinedParts, map[string]string, error) {
	g := p.g
	links := recall.GraphLinks{G: g}
	branches := p.found.Branches(sub.APINames(g), links, p.opts)
	var others []string // the parts' clauses: a clause that sets the scene states for all
	for _, c := range p.found.Clauses() {
		if !p.found.Background(c) {
			others = append(others, c.Text)
		}
	}
	borrow := p.borrower()
	if own := partKnown(p.known, p.answered, branches.Own, others, p.slots, p.today, borrow); !maps.Equal(own, p.known) {
		r := req
		r.Known = own
		s, err := p.searcher.Search(ctx, g, r)
		if err != nil {
			return req, sub, joinedParts{}, nil, fmt.Errorf("retrieve: graph search: %w", err)
		}
		if s != nil {
			req, sub = r, s
			branches = p.found.Branches(s.APINames(g), links, p.opts)
		}
	}
	if r, s, ok, err := p.throughNamed(ctx, req, sub); err != nil {
		return req, sub, joinedParts{}, nil, err
	} else if ok {
		req, sub = r, s
		branches = p.found.Branches(s.APINames(g), links, p.opts)
	}
	if r, s, ok, err := p.oneSlotEach(ctx, req, sub); err != nil {
		return req, sub, joinedParts{}, nil, err
	} else if ok {
		req, sub = r, s
		branches = p.found.Branches(s.APINames(g), links, p.opts)
	}
	clauses := map[string]string{}
	for _, b := range branches.Branches {
		clauses[b.API] = b.Clause
	}
	own := sub.APINames(g)
	// The other parts' own final steps are retrieval's choice too.
	branchReq := req
	branchReq.Exclude = maps.Clone(req.Exclude)
	for _, name := range branches.Names() {
		if id, ok := g.APIByName(name); ok && !p.exclude[id] {
			delete(branchReq.Exclude, id)
		}
	}
	// A part's calls take the values its own part states, and the roles its own words say
	// (recall.Result.PartOf), less a value the plan already gives a call that can serve the
	// part as well (reuse).
	partKnowns := map[string]map[string]string{}
	pc := p.plannedCalls(req, sub)
	for _, name := range branches.Names() {
		b := branchReq
		b.Known = partKnown(p.known, p.answered, clauses[name], others, p.slots, p.today, borrow)
		b.Said = recall.Says(p.found.PartOf(name))
		known, err := p.reuse(ctx, b, name, pc)
		if err != nil {
			return req, sub, joinedParts{}, nil, err
		}
		partKnowns[name] = known
	}
	ownPart := func(api string, b *twnm.SearchRequest) {
		b.Known = partKnowns[api]
		b.Said = recall.Says(p.found.PartOf(api))
	}
	joined, err := twnm.JoinBranches(ctx, g, p.searcher, sub, branchReq, branches.Names(), branches.Allows, ownPart)
	if err != nil {
		return req, sub, joinedParts{}, nil, fmt.Errorf("retrieve: %w", err)
	}
	// A part that asks for something and could not share a call (another city to geocode)
	// searches again with the plan's calls out of its reach: a producer of its own, another
	// provider's, serves it ("the weather in Paris, and the air quality in Rome" geocodes each
	// city once). A part that only says what the request is about (Tentative) shares or stays out.
	var again []string
	for _, b := range branches.Branches {
		if !b.Tentative && !slices.Contains(joined, b.API) {
			again = append(again, b.API)
		}
	}
	if len(again) > 0 {
		retryReq := branchReq
		retryReq.Exclude = map[twnm.NodeID]bool{}
		maps.Copy(retryReq.Exclude, branchReq.Exclude)
		for _, id := range sub.APIs {
			retryReq.Exclude[id] = true
		}
		more, err := twnm.JoinBranches(ctx, g, p.searcher, sub, retryReq, again, branches.Allows, ownPart)
		if err != nil {
			return req, sub, joinedParts{}, nil, fmt.Errorf("retrieve: %w", err)
		}
		joined = append(joined, more...)
	}
	planned := sub.APINames(g)
	parts := joinedParts{branches: joined, unplanned: unplanned(branches, joined, links, planned)} // before planned is cut below
	planKnown := withoutCalls(req.Known, slices.DeleteFunc(planned, func(api string) bool { return slices.Contains(own, api) }))
	return req, sub, parts, planKnown, nil
}

// plannedCalls is what the final step's plan gives, for reuse: the calls it makes, and the
// values it gives them that the request states once.
type plannedCalls struct {
	calls, once map[string]bool
}

// plannedCalls reads the plan of the final step's request req over sub (see plannedCalls).
func (p joinParts) plannedCalls(req twnm.SearchRequest, sub *twnm.Subgraph) plannedCalls {
	pc := plannedCalls{calls: map[string]bool{}, once: map[string]bool{}}
	for _, name := range sub.APINames(p.g) {
		pc.calls[name] = true
	}
	plan, err := sub.Plan(p.g, req.Known)
	if err != nil {
		return pc
	}
	whole := strings.ToLower(p.found.Whole().Text)
	for v := range givenValues(plan) {
		if strings.Count(whole, strings.ToLower(v)) == 1 {
			pc.once[v] = true
		}
	}
	return pc
}

// reuse returns the values the branch request b (of the part whose final step is api) plans
// with: b.Known, less the value its own calls would take where the final step's plan (pc)
// already gives it, stated once, to a call that feeds the branch as well. "What's the
// weather in Nairobi right now and what time zone is it in?" names the city once: the time
// zone's geocoder serves the weather too, where the weather's own search would geocode it
// again with another provider's. The value is withheld from the calls the plan does not
// make, and kept out only where the branch then still binds every input, with fewer calls of
// its own. A part that states no such value for a call of its own is not searched here.
func (p joinParts) reuse(ctx context.Context, b twnm.SearchRequest, api string, pc plannedCalls) (map[string]string, error) {
	// ownCall reports whether in ("API.param") is an input of a call the branch would make
	// and the plan does not.
	ownCall := func(in string) bool { return apiOf(in) != api && !pc.calls[apiOf(in)] }
	withholds := false // a value the plan gives goes to a call of the branch's own
	for k, v := range b.Known {
		withholds = withholds || pc.once[v] && ownCall(k)
	}
	if !withholds {
		return b.Known, nil
	}
	target, ok := p.g.APIByName(api)
	if !ok {
		return b.Known, nil
	}
	b.Target = target
	plan, ok, err := p.searchPlan(ctx, b)
	if err != nil || !ok {
		return b.Known, err
	}
	// The values the plan gives, stated once, that the branch would give a call of its own.
	withheld := map[string]bool{}
	for v, inputs := range givenValues(plan) {
		if pc.once[v] && slices.ContainsFunc(inputs, ownCall) {
			withheld[v] = true
		}
	}
	if len(withheld) == 0 {
		return b.Known, nil
	}
	r := b
	r.Known = maps.Clone(b.Known)
	for k, v := range b.Known {
		if withheld[v] && ownCall(k) {
			delete(r.Known, k)
		}
	}
	again, ok, err := p.searchPlan(ctx, r)
	if err != nil || !ok || len(again.Missing()) > 0 || ownCalls(again, pc.calls) >= ownCalls(plan, pc.calls) {
		return b.Known, err
	}
	return r.Known, nil
}

// searchPlan searches for r and plans what the search found; ok is false where it found
// nothing or no plan.
func (p joinParts) searchPlan(ctx context.Context, r twnm.SearchRequest) (twnm.Plan, bool, error) {
	s, err := p.searcher.Search(ctx, p.g, r)
	if err != nil {
		return twnm.Plan{}, false, fmt.Errorf("retrieve: graph search: %w", err)
	}
	if s == nil {
		return twnm.Plan{}, false, nil
	}
	plan, err := s.Plan(p.g, r.Known)
	return plan, err == nil, nil
}

// ownCalls counts the calls of plan that are not in inPlan.
func ownCalls(plan twnm.Plan, inPlan map[string]bool) int {
	n := 0
	for _, st := range plan.Steps {
		if !inPlan[st.API] {
			n++
		}
	}
	return n
}

// unplanned returns the clauses of the branches that did not join the plan (joined), that ask
// for something (not Tentative) and that no API of the plan (planned) answers (recall.Answers).
func unplanned(branches recall.Parts, joined []string, links recall.Links, planned []string) []string {
	var out []string
	for _, b := range branches.Branches {
		if !slices.Contains(joined, b.API) && !b.Tentative && !recall.Answers(b.Clause, links, planned) {
			out = append(out, b.Clause)
		}
	}
	return out
}

// PlanChain plans the calls that end at found's final step over g as Retrieve plans its first
// target for a request with no answers and no values bound by the caller: graph search from
// the final step with the values text states, relevance ranking producers that bind alike
// (retrieval's, read before recall.Choose rescores the clauses), an API that creates, updates
// or deletes only where found.Chain (retrieval's choice) holds it, and the request's other
// parts joined (joinParts.join). It returns the plan's APIs in calling order; nil where Retrieve
// offers none: the request under the relevance floor (no tool serves it), the final step
// refused (refusal), not in g, or no plan found. `navi eval retrieval` scores it.
//
// read holds the APIs of g that Retrieve would have read from the store (recall.BoundedRead),
// nil for all of g: the plan uses no other API, and the values text states are read for their
// inputs only. On a catalog of hundreds of APIs the subgraph decides which inputs compete for
// a value ("team 98765") and which producers a search may reach.
func PlanChain(ctx context.Context, g *twnm.Graph, s twnm.Searcher, found *recall.Result, relevance map[string]float64, text string, opts recall.Options, read map[string]bool) ([]string, error) {
	if !found.Whole().Relevant || refusal(found, g) != "" {
		return nil, nil
	}
	id, ok := g.APIByName(found.Final)
	if !ok {
		return nil, nil
	}
	sl := slotsIn(g, read)
	exclude := producersOff(g, found.Chain)
	if read != nil {
		for _, n := range g.Nodes() {
			if n.Kind == twnm.KindAPI && !read[n.Name] {
				exclude[n.ID] = true
			}
		}
	}
	known := extract.Values(text, sl)
	delete(exclude, id)
	req := twnm.SearchRequest{Target: id, Known: known, Exclude: exclude, Relevance: relevance, Named: namedAPIs(g, found), Said: recall.Says(found.PartOf(found.Final))}
	subs, err := twnm.SearchTargets(ctx, g, s, []twnm.SearchRequest{req})
	if err != nil {
		return nil, fmt.Errorf("plan %s: graph search: %w", found.Final, err)
	}
	if len(subs) == 0 || subs[0] == nil {
		return nil, nil
	}
	j := joinParts{g: g, searcher: s, found: found, opts: opts, known: known, answered: map[string]string{}, slots: sl}
	req, sub, _, planKnown, err := j.join(ctx, req, subs[0])
	if err != nil {
		return nil, fmt.Errorf("plan %s: %w", found.Final, err)
	}
	p, err := sub.Plan(g, planKnown)
	if err != nil {
		return nil, fmt.Errorf("plan %s: %w", found.Final, err)
	}
	return twnm.Ground(p, g, req.Exclude).APIs(), nil
}

// borrower returns the test partKnown borrows by: whether a part of the request that does
// not state value may take it for input key ("API.param") from the part from that states it.
// It may when value fills, in that part, an input of the same parameter node as key at that
// part's best tool or at one of the tools that feed it. "What's the weather in Lisbon right
// now, and what hotels are there?": Lisbon is the weather's city (a geocoder's), so the
// hotels' city too; "hotels in Rome, and the fixtures of my team": Rome is the hotels' city,
// never the team. What each lending part fills is read once (lends).
func (p joinParts) borrower() func(key, value, from string) bool {
	lent := map[string]map[string]map[twnm.NodeID]bool{} // by lending part, then value
	return func(key, value, from string) bool {
		node, ok := p.paramNode(key)
		if !ok {
			return false
		}
		if _, ok := lent[from]; !ok {
			lent[from] = p.lends(from)
		}
		return lent[from][value][node]
	}
}

// lends maps each value the part of the request from states to the parameter nodes of the
// inputs it fills at that part's best tool or at one of the tools that feed it.
func (p joinParts) lends(from string) map[string]map[twnm.NodeID]bool {
	i := slices.IndexFunc(p.found.Goals, func(g recall.Goal) bool { return g.Text == from })
	if i < 0 || len(p.found.Goals[i].Candidates) == 0 {
		return nil
	}
	best, ok := p.g.APIByName(p.found.Goals[i].Candidates[0].Name)
	if !ok {
		return nil
	}
	near := map[string]bool{p.g.Node(best).Name: true}
	for _, producers := range p.g.RequiredProducers(best) {
		for _, id := range producers {
			near[p.g.Node(id).Name] = true
		}
	}
	out := map[string]map[twnm.NodeID]bool{}
	for k, v := range extract.ValuesOn(from, p.slots, p.today) {
		if !near[apiOf(k)] {
			continue
		}
		if n, ok := p.paramNode(k); ok {
			if out[v] == nil {
				out[v] = map[twnm.NodeID]bool{}
			}
			out[v][n] = true
		}
	}
	return out
}

// paramNode is the parameter node of input key ("API.param") in the graph.
func (p joinParts) paramNode(key string) (twnm.NodeID, bool) {
	i := strings.LastIndex(key, ".")
	if i <= 0 {
		return 0, false
	}
	return p.g.ParamOf(key[:i], key[i+1:], true)
}

// throughNamed plans the final step again without the values the request states for its own
// inputs when the request names another thing (req.Named) that the plan sub does not pass
// through: in "the weather at the location of the best hotel in the city at latitude 52.5,
// longitude 13.4" the coordinates are the city's, stated inside the thing the request names,
// and the weather takes the hotel's. One stated value fills one slot of the chain, so the
// second plan is taken only when it goes through a named API, leaves no required input
// missing, and still uses every value it withheld from the final step upstream; otherwise
// the values stay where they were and so does sub. Values the user answered or the caller
// bound are never withheld.
func (p joinParts) throughNamed(ctx context.Context, req twnm.SearchRequest, sub *twnm.Subgraph) (twnm.SearchRequest, *twnm.Subgraph, bool, error) {
	g := p.g
	if len(req.Named) == 0 || slices.ContainsFunc(sub.APINames(g), func(api string) bool { return req.Named[api] }) {
		return req, sub, false, nil
	}
	target := g.Node(req.Target).Name
	withheld := map[string]string{}
	for k, v := range req.Known {
		if _, answered := p.answered[k]; apiOf(k) == target && !answered && strings.TrimSpace(v) != "" {
			withheld[k] = v
		}
	}
	if len(withheld) == 0 {
		return req, sub, false, nil
	}
	r := req
	r.Known = maps.Clone(req.Known)
	for k := range withheld {
		delete(r.Known, k)
	}
	s, err := p.searcher.Search(ctx, g, r)
	if err != nil {
		return req, sub, false, fmt.Errorf("retrieve: graph search: %w", err)
	}
	if s == nil || !slices.ContainsFunc(s.APINames(g), func(api string) bool { return req.Named[api] }) {
		return req, sub, false, nil
	}
	plan, err := s.Plan(g, r.Known)
	if err != nil || len(plan.Missing()) > 0 {
		return req, sub, false, nil
	}
	given := givenValues(plan)
	for _, v := range withheld {
		if !slices.ContainsFunc(given[v], func(in string) bool { return apiOf(in) != target }) {
			return req, sub, false, nil // the value is not used upstream
		}
	}
	return r, s, true, nil
}

// oneSlotEach plans the final step's request req again when its plan (of sub) gives one
// value, stated once, to inputs of different names while it leaves other stated values
// unused: in "book the best hotel in the city at latitude 52.5, longitude 13.4 for Ada
// Lovelace" the name fills the guest and, as free text, the hotel search's city, and the
// coordinates go unused. It withholds the value from one input at a time, and keeps the
// first plan that misses nothing, still uses the value, and uses more of the stated values
// than sub's; otherwise req and sub stay.
func (p joinParts) oneSlotEach(ctx context.Context, req twnm.SearchRequest, sub *twnm.Subgraph) (twnm.SearchRequest, *twnm.Subgraph, bool, error) {
	g := p.g
	whole := p.found.Whole().Text
	plan, err := sub.Plan(g, req.Known)
	if err != nil || whole == "" {
		return req, sub, false, nil
	}
	stated := map[string]bool{}
	for k, v := range req.Known {
		if _, answered := p.answered[k]; !answered && statedIn(v, whole) {
			stated[v] = true
		}
	}
	usedBy := givenValues(plan)
	before := len(usedBy)
	if before >= len(stated) {
		return req, sub, false, nil
	}
	for _, v := range slices.Sorted(maps.Keys(usedBy)) { // in a fixed order: the first plan found wins
		inputs := usedBy[v]
		if !stated[v] || strings.Count(strings.ToLower(whole), strings.ToLower(v)) != 1 || !differentNames(inputs) {
			continue
		}
		for _, in := range inputs {
			if _, ok := req.Known[in]; !ok {
				continue // bound by a bare name: withholding it would withhold it everywhere
			}
			r := req
			r.Known = maps.Clone(req.Known)
			delete(r.Known, in)
			s, err := p.searcher.Search(ctx, g, r)
			if err != nil {
				return req, sub, false, fmt.Errorf("retrieve: graph search: %w", err)
			}
			if s == nil {
				continue
			}
			pl, err := s.Plan(g, r.Known)
			if err != nil || len(pl.Missing()) > 0 {
				continue
			}
			if after := givenValues(pl); len(after[v]) > 0 && len(after) > before {
				return r, s, true, nil
			}
		}
	}
	return req, sub, false, nil
}

// givenValues maps each value plan binds as given to the inputs ("API.param") it binds.
func givenValues(plan twnm.Plan) map[string][]string {
	out := map[string][]string{}
	for _, st := range plan.Steps {
		for _, b := range st.Bindings {
			if b.Source == twnm.SupplyGiven && b.Value != "" {
				out[b.Value] = append(out[b.Value], st.API+"."+b.Param)
			}
		}
	}
	return out
}

// differentNames reports whether inputs ("API.param") name more than one parameter.
func differentNames(inputs []string) bool {
	for _, in := range inputs[1:] {
		if paramOf(in) != paramOf(inputs[0]) {
			return true
		}
	}
	return false
}

// apiOf and paramOf are the API and the parameter of an input "API.param" (API names may hold
// dots; parameter names do not); apiOf is "" when input has no dot.
func apiOf(input string) string   { return input[:max(0, strings.LastIndex(input, "."))] }
func paramOf(input string) string { return input[strings.LastIndex(input, ".")+1:] }

// genericNameWords are words of API names that say what an API does or how, not what it is
// about: they name no thing of the request. They are written as bm25.Tokens stems them
// ("creat" for create, "queri" for query).
var genericNameWords = map[string]bool{"get": true, "search": true, "find": true, "list": true, "lookup": true,
	"detail": true, "info": true, "id": true, "all": true, "new": true, "creat": true, "updat": true,
	"delet": true, "add": true, "set": true, "current": true, "data": true, "queri": true, "api": true,
	"post": true, "put": true, "best": true, "top": true}

// namedAPIs lists the APIs of g that the request names besides what it asks for (graph search
// prefers a branch through one: twnm.SearchRequest.Named): the last clause says every word of
// an API's own name (after its provider's prefix, generic words aside), one at least outside
// its head and the final step's own name ("the location of the best hotel in Singapore",
// besides "what is the ground elevation", names the hotel search and the hotel's details).
// One word is not enough: "the lead actor of the most popular TV show" names the popular TV
// shows, not the popular people. An API that changes state is never named this way: a noun
// ("webhook") does not ask to create one. nil when the request has no head.
func namedAPIs(g *twnm.Graph, found *recall.Result) map[string]bool {
	if found.Focus == nil {
		return nil
	}
	// The head is the last clause's: that clause's other words name things, the other
	// clauses' words other parts of the request.
	clause := found.Whole()
	if cs := found.Clauses(); len(cs) > 0 {
		clause = cs[len(cs)-1]
	}
	head := map[string]bool{}
	for _, w := range slices.Concat(bm25.Tokens(found.Focus.Text), bm25.Tokens(twnm.OwnName(found.Final))) {
		head[w] = true
	}
	// A word that names an input of the final step states that input ("the lyrics of track
	// 98765" gives the lyrics' track_id), not another API named by it (Track).
	if id, ok := g.APIByName(found.Final); ok {
		if api := g.Node(id).API; api != nil {
			for _, in := range api.Inputs {
				for _, w := range bm25.Tokens(in.Name) {
					head[w] = true
				}
			}
		}
	}
	said, rest := map[string]bool{}, map[string]bool{}
	for _, w := range bm25.Tokens(clause.Text) {
		said[w] = true
		if !head[w] && !genericNameWords[w] {
			rest[w] = true
		}
	}
	out := map[string]bool{}
	for _, n := range g.Nodes() {
		if n.Kind != twnm.KindAPI {
			continue
		}
		named := false
		for _, w := range bm25.Tokens(twnm.OwnName(n.Name)) {
			if !said[w] && !genericNameWords[w] {
				named = false // a word of its name the request does not say
				break
			}
			named = named || rest[w]
		}
		// Read the API's action only for the few its name names, not for every API per request.
		if named && (n.API == nil || !recall.ChangesState(*n.API)) {
			out[n.Name] = true
		}
	}
	return out
}

// producersOff lists the APIs of g that graph search may not reach as producers, but those
// named in keep (retrieval's chain): the writers, which create, update or delete what they act
// on (recall.ChangesState), and the clocks (recall.Clock).
func producersOff(g *twnm.Graph, keep []string) map[twnm.NodeID]bool {
	out := map[twnm.NodeID]bool{}
	for _, n := range g.Nodes() {
		if n.Kind == twnm.KindAPI && n.API != nil && !slices.Contains(keep, n.Name) && (recall.ChangesState(*n.API) || recall.Clock(*n.API)) {
			out[n.ID] = true
		}
	}
	return out
}

// Searcher returns the graph search named by name ("" is Alpha-Beta).
func Searcher(name string) (twnm.Searcher, error) {
	switch name {
	case "", contract.SearchAlphaBeta:
		return twnm.DefaultAlphaBeta(), nil
	case contract.SearchHeuristic:
		return twnm.DefaultHeuristic(), nil
	case contract.SearchNone:
		ab := twnm.DefaultAlphaBeta()
		ab.MaxAPIs = 1 // the target and nothing upstream of it
		return ab, nil
	}
	return nil, fmt.Errorf("search %q is not one of %s, %s, %s", name, contract.SearchAlphaBeta, contract.SearchHeuristic, contract.SearchNone)
}

// instead returns, for each step of p that misses required inputs, what the user may state in
// their place (contract.Instead): the required inputs of the most relevant API that gives them
// all (a required producer of each, by the graph's links) and that runs on words a person
// knows, text that is no identifier ("the city", for the latitude and the longitude a
// geocoder gives). Ground asked for the inputs themselves where several producers could give
// them: which one the request means is a guess, but the user may name the thing they are of.
// A producer in p, one of exclude or not active offers nothing.
func instead(g *twnm.Graph, p twnm.Plan, exclude map[twnm.NodeID]bool, relevance map[string]float64) []contract.Instead {
	var out []contract.Instead
	for _, st := range p.Steps {
		var missing []string
		for _, b := range st.Bindings {
			if b.Required && b.Source == planner.SourceMissing {
				missing = append(missing, b.Param)
			}
		}
		id, ok := g.APIByName(st.API)
		if len(missing) == 0 || !ok {
			continue
		}
		suppliers := g.RequiredSuppliers(id)
		var common []twnm.NodeID // the producers that give every missing input
		for i, m := range missing {
			node, ok := g.ParamOf(st.API, m, true)
			if !ok {
				common = nil
				break
			}
			var gives []twnm.NodeID
			for _, s := range suppliers[node] {
				if len(s.Role) == 0 && (i == 0 || slices.Contains(common, s.API)) && !slices.Contains(gives, s.API) {
					gives = append(gives, s.API)
				}
			}
			common = gives
		}
		var best *twnm.API
		for _, q := range common {
			n := g.Node(q)
			if n.API == nil || n.Status != twnm.Active || exclude[q] || p.StepOf(n.Name) >= 0 || !stateable(*n.API) {
				continue
			}
			if best == nil || relevance[n.Name] > relevance[best.Name] || relevance[n.Name] == relevance[best.Name] && n.Name < best.Name {
				best = n.API
			}
		}
		if best == nil {
			continue
		}
		in := contract.Instead{}
		for _, m := range missing {
			in.For = append(in.For, st.API+"."+m)
		}
		for _, q := range best.Inputs {
			if q.Required {
				in.Inputs = append(in.Inputs, planner.ParamInfo{Name: q.Name, Type: q.Type, Description: q.Description, Required: true, Enum: q.Enum})
			}
		}
		out = append(out, in)
	}
	return out
}

// stateable reports whether a person could state every required input of a, and a takes one:
// text that is no identifier (a city's name, not a hotel's id nor a latitude).
func stateable(a twnm.API) bool {
	n := 0
	for _, p := range a.Inputs {
		if !p.Required {
			continue
		}
		if twnm.Identifier(p.Name) || toolspec.TypeKind(p.Type) != toolspec.KindString {
			return false
		}
		n++
	}
	return n > 0
}

// candidateOf describes an API node for the planner.
func candidateOf(n *twnm.Node, score float64) contract.Candidate {
	c := contract.Candidate{API: n.Name, Description: n.Description, Score: score, Status: n.Status.String()}
	if n.API != nil {
		for _, p := range n.API.Inputs {
			c.Inputs = append(c.Inputs, planner.ParamInfo{Name: p.Name, Type: p.Type, Description: p.Description, Required: p.Required, Enum: p.Enum})
		}
		for _, p := range n.API.Outputs {
			c.Outputs = append(c.Outputs, planner.ParamInfo{Name: p.Name, Type: p.Type, Description: p.Description})
		}
	}
	return c
}

// pickItems names, on each upstream binding of p from an API that lists the collection its
// input picks an item of (twnm.ListKey), the item the request names for that input (items,
// see extract.Items): the run binds it from that item of the answer's list (toolspec.Pick),
// "the "Board Prep" channel", not from the list's first. p itself is not changed.
func pickItems(p twnm.Plan, g *twnm.Graph, items map[string]string) twnm.Plan {
	if len(items) == 0 {
		return p
	}
	links := recall.GraphLinks{G: g}
	out := p
	out.Steps = slices.Clone(p.Steps)
	for i, st := range out.Steps {
		consumer, ok := links.API(st.API)
		if !ok {
			continue
		}
		cloned := false
		for j, b := range st.Bindings {
			item := items[st.API+"."+b.Param]
			producer, ok := links.API(b.FromAPI)
			if item == "" || b.Source != twnm.SupplyUpstream || !ok {
				continue
			}
			if k := twnm.ListKey(producer); k == "" || k != twnm.PickKey(consumer, b.Param) {
				continue
			}
			if !cloned {
				out.Steps[i].Bindings, cloned = slices.Clone(st.Bindings), true
			}
			b.Item = item
			out.Steps[i].Bindings[j] = b
		}
	}
	return out
}

// slots lists every input of every API of g, by API name, as values may be stated for.
func slots(g *twnm.Graph) []extract.Slot { return slotsIn(g, nil) }

// slotsIn is slots of the APIs of read only, of all of g's for nil (see extract.SlotsOf).
func slotsIn(g *twnm.Graph, read map[string]bool) []extract.Slot {
	var apis []twnm.API
	for _, n := range g.Nodes() {
		if n.Kind == twnm.KindAPI && n.API != nil && (read == nil || read[n.Name]) {
			apis = append(apis, *n.API)
		}
	}
	return extract.SlotsOf(apis)
}

// addChecks adds to apis the check of each API there that names one (twnm.API.Check), so
// that a call of it cut off with its worker can be checked in the run.
func addChecks(ctx context.Context, store Store, apis map[string]twnm.API) error {
	var checks []string
	for _, api := range apis {
		if _, ok := apis[api.Check]; api.Check != "" && !ok && !slices.Contains(checks, api.Check) {
			checks = append(checks, api.Check)
		}
	}
	if len(checks) == 0 {
		return nil
	}
	sort.Strings(checks)
	g, err := store.Subgraph(ctx, checks, neo4j.SubgraphOptions{MaxAPIs: len(checks)})
	if err != nil {
		return &StoreError{Err: err}
	}
	for _, n := range g.Nodes() {
		if n.Kind == twnm.KindAPI && n.API != nil && slices.Contains(checks, n.Name) {
			apis[n.Name] = *n.API
		}
	}
	return nil
}

func countAPIs(g *twnm.Graph) int {
	n := 0
	for _, node := range g.Nodes() {
		if node.Kind == twnm.KindAPI {
			n++
		}
	}
	return n
}

// subGoalOf is the trace's view of a retrieved sub-goal: its text, values and best tools.
func subGoalOf(goal recall.Goal) contract.SubGoal {
	sg := contract.SubGoal{Text: goal.Text, Values: goal.Values, Whole: goal.Whole, Relevant: goal.Relevant, Best: goal.Best}
	for _, c := range goal.Candidates[:min(subGoalsShown, len(goal.Candidates))] {
		sg.Top = append(sg.Top, c.Name)
	}
	return sg
}

// refusal says why the final step found chose may not end the chain, "" when it may.
//
// An API hardly like any part of the request in meaning (its best cosine under
// planner.Options.AnswerRelevanceFloor, the floor under which an answer teaches retrieval
// nothing) shares words with it, not a subject: "What's the exchange rate between yen and
// dollars?" is no restaurant search, whose ratings match "rate". Its answer would be another
// tool's, so the request has no tool.
//
// An API that changes state (by its declared effect) runs only where the request asks
// for what it does: a request whose last part asks to delete ("DROP TABLE users") is not
// served by a reservation that shares its words; a question is not answered by a booking.
// And an API that only reads does not serve a request that commands a change, its first word
// naming the action its last part asks for ("set an alarm for 6am tomorrow" is not answered by
// tomorrow's air-quality forecast): that answer would be another tool's, not what the user
// asked done. Where the request's action is unknown, nothing is refused for it, unless the
// request is a command that shares no word with any tool (Result.Wordless): what its meaning
// found is a tool about its subject, and one that only reads does not do what a verb no action
// word names asks done ("Order a large pizza with extra cheese." is no search for places to
// eat, nor "Call me a taxi to the airport" a transit stop's lookup).
func refusal(found *recall.Result, g *twnm.Graph) string {
	id, ok := g.APIByName(found.Final)
	if !ok || g.Node(id).API == nil {
		return ""
	}
	a := *g.Node(id).API
	if like, ok := found.Likeness(a.Name); ok && like < planner.DefaultOptions.AnswerRelevanceFloor {
		return fmt.Sprintf("%s shares words with the request but is hardly like any part of it (similarity %.2f, under %.2f)",
			a.Name, like, planner.DefaultOptions.AnswerRelevanceFloor)
	}
	want, has := found.Action(), recall.APIAction(a)
	if a.CallEffect() == twnm.EffectRead {
		whole := found.Whole().Text
		if has == recall.ActionRead && want != recall.ActionRead && want != recall.ActionUnknown && recall.Commands(whole) == want {
			return fmt.Sprintf("the request asks to %s, and %s only reads", want, a.Name)
		}
		if has == recall.ActionRead && found.Wordless() && subgoal.Imperative(whole) && recall.RequestAction(whole) == recall.ActionUnknown {
			return fmt.Sprintf("the request asks for something done in words no tool shares, and %s, the nearest in meaning, only reads", a.Name)
		}
		return ""
	}
	if want == recall.ActionUnknown || has == recall.ActionUnknown || want == has {
		return ""
	}
	return fmt.Sprintf("%s would %s, and the request asks to %s", a.Name, has, want)
}
