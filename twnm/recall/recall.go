// Package recall finds the tools a request needs. The request is split into sub-goals
// (twnm/subgoal); each sub-goal is retrieved by BM25 over tool documents and by dense
// similarity, fused into one candidate list; the graph's data-flow links then choose, among
// the candidates of all sub-goals, the chain's final step (the tool that consumes the others'
// outputs) and the order of the steps that feed it.
//
// The same code ranks in process (Memory, over a twnm.Graph) and through the store (a Source
// backed by Neo4j's full-text and vector indexes), so both paths rank alike.
package recall

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/sync/errgroup"

	"github.com/naviagent/navi/toolspec"
	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/bm25"
	"github.com/naviagent/navi/twnm/embed"
	"github.com/naviagent/navi/twnm/subgoal"
)

// Hit is an API a source found for a text, with the source's own score (BM25, or cosine).
type Hit struct {
	Name  string  `json:"name"`
	Score float64 `json:"score"`
	// Provider is the API's provider, where the source knows it ("" otherwise).
	Provider string `json:"provider,omitempty"`
}

// Source ranks the callable APIs of a graph for one sub-goal.
type Source interface {
	// Lexical returns the k APIs with the highest BM25 score for text, best first.
	Lexical(ctx context.Context, text string, k int) ([]Hit, error)
	// Dense returns the k APIs whose embeddings are most similar to vec, best first.
	Dense(ctx context.Context, vec []float64, k int) ([]Hit, error)
}

// Batch is a Source that answers every sub-goal of a request in one request per kind of
// evidence: a store whose transaction runs one query at a time then reads a request's
// sub-goals in three queries (lexical, dense, past sub-goals), not three per sub-goal. Each
// result holds one list per text or vector, in order, as Lexical, Dense and Served give it
// (ServedAll may return nil lists when the source is not Learned).
type Batch interface {
	Source
	LexicalAll(ctx context.Context, texts []string, k int) ([][]Hit, error)
	DenseAll(ctx context.Context, vecs [][]float64, k int) ([][]Hit, error)
	ServedAll(ctx context.Context, vecs [][]float64, k int) ([][]Hit, error)
}

// Ranker says which evidence ranks a sub-goal's candidates.
type Ranker string

// Rankers.
const (
	// Fused blends BM25 and dense similarity (the default).
	Fused Ranker = "fused"
	// Lexical ranks by BM25 alone.
	Lexical Ranker = "bm25"
	// Dense ranks by embedding similarity alone.
	Dense Ranker = "dense"
)

// Defaults of Options.
const (
	DefaultDepth       = 50
	DefaultDenseWeight = 0.4
	// DefaultConsumerRatio: a candidate that consumes the leading candidate's output becomes the
	// final step when its own score is at least this share of the leader's. Chosen leaving one
	// dev set out over 0.6–0.8: 0.69 in every rotation (against 0.7, RestBench @1 +1.0 and
	// R@5 −0.3, the tool world's planned chains +0.5 when each is left out; no other set moves).
	DefaultConsumerRatio = 0.69
	// DefaultFloor is the cosine similarity below which a sub-goal's best candidate is not
	// relevant enough to act on (all-MiniLM-L6-v2; see navi eval retrieval's floor table).
	DefaultFloor = 0.2
	// DefaultWordlessFloor is the higher floor of a sub-goal that shares no word with any
	// tool's document: there, meaning alone must plainly be there ("translate good morning
	// into Japanese" is 0.24 from a reverse geocoder). Chosen leaving one catalog out, each
	// dev set's requests against the other sets' catalogs standing for the requests no tool
	// serves (a lost request weighed as ten wrongly served): 0.3 in every rotation.
	DefaultWordlessFloor = 0.3
	// DefaultContext is the weight of a clause candidate's provider relevance to the whole
	// request (see Choose).
	DefaultContext = 0.3
	// DefaultLearnedFloor is the similarity to a past sub-goal from which it counts: below
	// it, two requests are merely on a related topic.
	DefaultLearnedFloor = 0.75
	// DefaultLearnedWeight scales the boost a past sub-goal as similar as can be (cosine 1)
	// gives, relative to the fused score of the best candidate (1).
	DefaultLearnedWeight = 0.5
	// DefaultMaxClauses is how many clauses of a request retrieval reads: the first
	// DefaultMaxClauses−1 and the last (where a request's final step usually is). A request
	// of hundreds of clauses (a pasted document) would otherwise cost hundreds of searches and
	// a subgraph of every tool; the result says how many were left out (Result.Skipped).
	DefaultMaxClauses = 12
)

// Options configures Retrieve. The zero value is the full method with the defaults.
type Options struct {
	// Ranker is Fused (default), Lexical or Dense.
	Ranker Ranker
	// Depth is how many hits each source returns per sub-goal; 0 means DefaultDepth.
	Depth int
	// DenseWeight is the dense share of the fused score, in [0, 1]; 0 means DefaultDenseWeight.
	DenseWeight float64
	// WholeOnly retrieves with the whole request alone, without sub-goals.
	WholeOnly bool
	// NoGraph leaves the final step to relevance alone, without data-flow links.
	NoGraph bool
	// ConsumerRatio overrides DefaultConsumerRatio when positive.
	ConsumerRatio float64
	// Floor overrides DefaultFloor when positive; negative disables the floor.
	Floor float64
	// WordlessFloor overrides DefaultWordlessFloor when positive; negative disables it.
	WordlessFloor float64
	// Context overrides DefaultContext when positive, in (0, 1]; negative reads each clause
	// without its request's context.
	Context float64
	// LearnedFloor and LearnedWeight override DefaultLearnedFloor and DefaultLearnedWeight
	// when positive: how similar a past sub-goal must be to count, and how much it counts.
	LearnedFloor, LearnedWeight float64
	// MaxClauses overrides DefaultMaxClauses when at least 2.
	MaxClauses int
}

func (o Options) withDefaults() (Options, error) {
	if o.Ranker == "" {
		o.Ranker = Fused
	}
	switch o.Ranker {
	case Fused, Lexical, Dense:
	default:
		return o, fmt.Errorf("recall: ranker %q is not one of %s, %s, %s", o.Ranker, Fused, Lexical, Dense)
	}
	if o.Depth <= 0 {
		o.Depth = DefaultDepth
	}
	if o.DenseWeight == 0 {
		o.DenseWeight = DefaultDenseWeight
	}
	if o.DenseWeight < 0 || o.DenseWeight > 1 {
		return o, fmt.Errorf("recall: dense weight %g is outside [0, 1]", o.DenseWeight)
	}
	switch o.Ranker {
	case Lexical:
		o.DenseWeight = 0
	case Dense:
		o.DenseWeight = 1
	}
	if o.ConsumerRatio <= 0 {
		o.ConsumerRatio = DefaultConsumerRatio
	}
	if o.Floor == 0 {
		o.Floor = DefaultFloor
	}
	if o.WordlessFloor == 0 {
		o.WordlessFloor = DefaultWordlessFloor
	}
	if o.LearnedFloor <= 0 || o.LearnedFloor >= 1 {
		o.LearnedFloor = DefaultLearnedFloor
	}
	if o.LearnedWeight <= 0 {
		o.LearnedWeight = DefaultLearnedWeight
	}
	if o.MaxClauses < 2 {
		o.MaxClauses = DefaultMaxClauses
	}
	if o.Context == 0 {
		o.Context = DefaultContext
	}
	if o.Context > 1 {
		return o, fmt.Errorf("recall: context weight %g is over 1", o.Context)
	}
	return o, nil
}

// Match is an API retrieved for a sub-goal.
type Match struct {
	Name string `json:"name"`
	// Provider is the API's provider, as a source gave it ("" where none did).
	Provider string `json:"provider,omitempty"`
	// Score is the fused score, normalised so that the sub-goal's best candidate has 1.
	Score float64 `json:"score"`
	// Lexical is the BM25 score, Dense the cosine similarity (0 where the source did not
	// return the API).
	Lexical float64 `json:"lexical,omitempty"`
	Dense   float64 `json:"dense,omitempty"`
	// Learned is the boost from past sub-goals this API served (see Learned).
	Learned float64 `json:"learned,omitempty"`
}

// Goal is a sub-goal with the candidates retrieved for it, best first.
type Goal struct {
	subgoal.Goal
	Candidates []Match `json:"candidates"`
	// Relevant is false when even the best candidate's dense similarity is under the floor:
	// no tool of the graph serves this part of the request. Always true for Lexical. The
	// whole request is relevant where one of its clauses is.
	Relevant bool `json:"relevant"`
	// Best is the best candidate's dense similarity (0 for Lexical).
	Best float64 `json:"best"`
	// Worded reports whether the sub-goal shares a word with some tool's document, a word that
	// dates it included (see ranker.retrieve): one that does not is held to the higher
	// WordlessFloor.
	Worded bool `json:"worded,omitempty"`
	// Alone holds the candidates as the sub-goal alone ranks them, when Choose has read
	// Candidates in the request's context (inContext): a part of a compound request chooses
	// its own final step from these.
	Alone []Match `json:"-"`
	// Head is the clause's head (see subgoal.Focus) with its candidates, for a clause of a
	// compound request other than the last (whose head is Result.Focus); nil when it has none.
	// A part of the request chooses its own final step with it as the request does with Focus.
	Head *Goal `json:"-"`
}

// Result is what Retrieve found.
type Result struct {
	Goals []Goal `json:"goals"`
	// Ranked is every candidate once, the final step first; Choose fills it.
	Ranked []string `json:"ranked,omitempty"`
	// Final is the chosen final step, and Chain the steps in order, producers before
	// consumers, the final last; Choose fills them.
	Final string         `json:"final,omitempty"`
	Chain toolspec.Chain `json:"chain,omitempty"`
	// Scores holds each candidate's score as the final step, in [0, 1]: the mean of its
	// scores for the whole request, the last clause and, where it has one, the last clause's
	// head (Focus), scaled by its provider's relevance where the catalog has providers (see
	// Choose); the chosen final step has the best.
	Scores map[string]float64 `json:"scores,omitempty"`
	// Focus is the head of the last clause (see subgoal.Focus) with its candidates, nil when
	// the clause has none: what the request asks for, without the things it asks about.
	Focus *Goal `json:"focus,omitempty"`
	// Skipped is how many clauses of a long request retrieval did not read (see Options.MaxClauses).
	Skipped int `json:"skipped,omitempty"`
}

// Without removes the APIs of names from the candidates of every sub-goal and of the head, in
// place (call it before Choose): APIs the caller ruled out take no part in the choice, as a
// step or through their provider's relevance, so that a broken tool's siblings do not inherit
// its place. The other candidates keep their scores.
func (r *Result) Without(names map[string]bool) {
	if len(names) == 0 {
		return
	}
	drop := func(g *Goal) {
		g.Candidates = slices.DeleteFunc(g.Candidates, func(c Match) bool { return names[c.Name] })
	}
	for i := range r.Goals {
		drop(&r.Goals[i])
	}
	if r.Focus != nil {
		drop(r.Focus)
	}
}

// Relevance is each candidate's best score over the sub-goals and the head: how relevant it
// is to some part of the request.
func (r *Result) Relevance() map[string]float64 {
	out := map[string]float64{}
	for _, g := range r.parts() {
		for _, c := range g.Candidates {
			out[c.Name] = max(out[c.Name], c.Score)
		}
	}
	return out
}

// Similarity is api's best dense similarity to a part of the request (the closest sub-goal,
// the whole request or the head), 0 when no part's dense source returned it.
func (r *Result) Similarity(api string) float64 {
	best, _ := r.Likeness(api)
	return max(best, 0)
}

// Likeness is api's best dense similarity to a part of the request, negative ones included,
// and whether any part's dense source returned it: a candidate that only BM25 found has no
// similarity to judge it by.
func (r *Result) Likeness(api string) (best float64, ok bool) {
	best = math.Inf(-1)
	for _, g := range r.parts() {
		for _, c := range g.Candidates {
			if c.Name == api && c.Dense != 0 {
				best, ok = max(best, c.Dense), true
			}
		}
	}
	if !ok {
		return 0, false
	}
	return best, true
}

// Pool lists the candidates of every sub-goal, then of the head, once, at most perGoal from
// each, round-robin over the sub-goals in order, so that every part of the request is
// represented.
func (r *Result) Pool(perGoal int) []string {
	var out []string
	seen := map[string]bool{}
	for i := 0; i < perGoal; i++ {
		for _, g := range r.parts() {
			if i < len(g.Candidates) && !seen[g.Candidates[i].Name] {
				seen[g.Candidates[i].Name] = true
				out = append(out, g.Candidates[i].Name)
			}
		}
	}
	return out
}

// parts returns the sub-goals, then the last clause's head where it has one.
func (r *Result) parts() []Goal {
	if r.Focus == nil {
		return r.Goals
	}
	return append(slices.Clip(r.Goals), *r.Focus)
}

// editable returns pointers to r's sub-goals and its head (where it has one), for rescoring
// their candidates in place.
func (r *Result) editable() []*Goal {
	goals := make([]*Goal, 0, len(r.Goals)+1)
	for i := range r.Goals {
		goals = append(goals, &r.Goals[i])
	}
	if r.Focus != nil {
		goals = append(goals, r.Focus)
	}
	return goals
}

// rescaled returns a copy of cs with each score multiplied by factor's, renormalised so that
// the best is 1 (where any is above 0), and sorted.
func rescaled(cs []Match, factor func(Match) float64) []Match {
	cs = slices.Clone(cs)
	best := 0.0
	for j := range cs {
		cs[j].Score *= factor(cs[j])
		best = max(best, cs[j].Score)
	}
	if best > 0 {
		for j := range cs {
			cs[j].Score /= best
		}
	}
	sortCandidates(cs)
	return cs
}

// Clauses returns the sub-goals that are parts of the request (all but the whole request).
func (r *Result) Clauses() []Goal {
	var out []Goal
	for _, g := range r.Goals {
		if !g.Whole {
			out = append(out, g)
		}
	}
	return out
}

// Whole returns the sub-goal holding the whole request.
func (r *Result) Whole() Goal {
	for _, g := range r.Goals {
		if g.Whole {
			return g
		}
	}
	return Goal{}
}

// Wordless reports whether no part of the request shares a word with any tool (Goal.Worded),
// where some part has a candidate: what was found, the meaning alone found.
func (r *Result) Wordless() bool {
	found := false
	for _, g := range r.parts() {
		if g.Worded {
			return false
		}
		found = found || len(g.Candidates) > 0
	}
	return found
}

// Relevant reports whether every part of the request has a relevant candidate.
func (r *Result) Relevant() bool {
	for _, g := range r.Goals {
		if !g.Relevant {
			return false
		}
	}
	return true
}

// Retrieve splits request into sub-goals and retrieves candidates for each from src: BM25 and
// dense similarity (emb embeds the sub-goals; it may be nil for Lexical), fused. A clause that
// asks for a list of things, under one verb or none, is taken apart where each item finds its own tool
// (see splitLists), and adjacent sub-goals whose best candidate is the same tool are merged
// back into one. Call Choose on the result to pick the final step.
func Retrieve(ctx context.Context, src Source, emb embed.Embedder, request string, o Options) (*Result, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	request = strings.TrimSpace(request)
	if request == "" {
		return nil, errors.New("recall: the request is empty")
	}
	if emb == nil && o.Ranker != Lexical {
		return nil, errors.New("recall: dense ranking needs an embedder")
	}
	if isData(request) {
		// One JSON value, an object or an array, is data and no task: whatever its words, no
		// tool serves it, and nothing is searched for it (or learned of it).
		return &Result{Goals: []Goal{{Goal: subgoal.Goal{Text: request, Whole: true}}}}, nil
	}
	var goals []subgoal.Goal
	if o.WholeOnly {
		goals = []subgoal.Goal{{Text: request, Whole: true}}
	} else {
		goals = subgoal.Split(request)
	}
	return retrieveGoals(ctx, src, emb, goals, o)
}

// RetrieveGoals is Retrieve for sub-goals given by the caller (an LLM planner's sub-intents).
// The last goal should hold the whole request (Whole).
func RetrieveGoals(ctx context.Context, src Source, emb embed.Embedder, goals []subgoal.Goal, o Options) (*Result, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	if len(goals) == 0 {
		return nil, errors.New("recall: no sub-goals")
	}
	return retrieveGoals(ctx, src, emb, goals, o)
}

// boundClauses keeps max of goals' clauses (see Options.MaxClauses) and the whole request, whose
// text becomes that of the kept clauses; skipped is how many clauses it left out.
func boundClauses(goals []subgoal.Goal, max int) (kept []subgoal.Goal, skipped int) {
	var clauses []subgoal.Goal
	var whole *subgoal.Goal
	for i, g := range goals {
		if g.Whole {
			whole = &goals[i]
		} else {
			clauses = append(clauses, g)
		}
	}
	if len(clauses) <= max {
		return goals, 0
	}
	skipped = len(clauses) - max
	kept = append(slices.Clone(clauses[:max-1]), clauses[len(clauses)-1])
	if whole != nil {
		w := *whole
		texts := make([]string, len(kept))
		for i, g := range kept {
			texts[i] = g.Text
		}
		w.Text = strings.Join(texts, " ")
		w.Values = subgoal.Values(w.Text)
		kept = append(kept, w)
	}
	return subgoal.Renumber(kept), skipped
}

func retrieveGoals(ctx context.Context, src Source, emb embed.Embedder, goals []subgoal.Goal, o Options) (*Result, error) {
	r := newRanker(src, emb, o)
	goals, skipped := boundClauses(goals, o.MaxClauses)
	goals, err := confirm(ctx, r, goals)
	if err != nil {
		return nil, err
	}
	if goals, err = splitLists(ctx, r, goals); err != nil {
		return nil, err
	}
	res := &Result{Skipped: skipped}
	for range len(goals) { // each round merges two goals or stops
		if res.Goals, err = r.rank(ctx, goals); err != nil {
			return nil, err
		}
		i := firstSameTool(res.Goals)
		if i < 0 {
			break
		}
		goals = subgoal.Merge(goals, i, i+1)
	}
	// The request finds a tool where one of its parts does: its words together can fall under
	// the floor where a clause's alone clear it ("Give me one cover image of the movie
	// Oppenheimer." against its clause, without the full stop that moves the encoder).
	// And a request of one clause is that clause: the one clears the floor where the other
	// does ("How windy is it in Chicago at the moment?" clears it with its question mark and
	// not without), or the part would read as unserved while the request is served.
	clauses := res.Clauses()
	whole := slices.IndexFunc(res.Goals, func(g Goal) bool { return g.Whole })
	if whole >= 0 && slices.ContainsFunc(clauses, func(g Goal) bool { return g.Relevant }) {
		res.Goals[whole].Relevant = true
	}
	if whole >= 0 && len(clauses) == 1 && res.Goals[whole].Relevant {
		for i := range res.Goals {
			res.Goals[i].Relevant = true
		}
	}
	// The last clause's head is the request's focus (Result.Focus), and each other clause's
	// head its own (Goal.Head): a part of a compound request chooses its own final step as the
	// request does, with what it asks for apart from what it is about ("Give me the details |
	// of the best home for sale near …" is the listing's details, fed by the search; see
	// Branches). One ranking reads them all.
	if len(clauses) > 0 {
		lastOrder := clauses[len(clauses)-1].Order
		var heads []subgoal.Goal
		var of []int // each head's clause in res.Goals
		for i, g := range res.Goals {
			if g.Whole {
				continue
			}
			head := subgoal.Focus(g.Text)
			if head == "" || g.Order != lastOrder && head == g.Text {
				continue
			}
			heads = append(heads, subgoal.Goal{Order: g.Order, Rank: g.Rank, Text: head, Values: subgoal.Values(head), Source: g.Source})
			of = append(of, i)
		}
		if len(heads) > 0 {
			hs, err := r.rank(ctx, heads)
			if err != nil {
				return nil, err
			}
			for j, i := range of {
				if res.Goals[i].Order == lastOrder {
					res.Focus = &hs[j]
				} else {
					res.Goals[i].Head = &hs[j]
				}
			}
		}
	}
	return res, nil
}

// listTop is how far down a clause's own candidates the best tools of both parts of a list it
// asks for must be for splitList to take it apart.
const listTop = 3

// splitLists takes apart the clauses that ask for a list of things, under one verb or none (see
// subgoal.SplitList) where each part's best tool differs and both are among the clause's own
// best listTop: "retrieve flight options and hotel availability" is two requests to two
// tools, "find the title and the year of a movie" one.
func splitLists(ctx context.Context, r *ranker, goals []subgoal.Goal) ([]subgoal.Goal, error) {
	for i := 0; i < len(goals); i++ {
		parts, ok := subgoal.SplitList(goals, i)
		if !ok {
			continue
		}
		found, err := r.rank(ctx, goals) // every goal at once: the later rounds reuse them
		if err != nil {
			return nil, err
		}
		ranked, err := r.rank(ctx, parts[i:i+2])
		if err != nil {
			return nil, err
		}
		a, b := best(ranked[0]), best(ranked[1])
		if a == "" || b == "" || a == b || !amongBest(found[i], a) || !amongBest(found[i], b) {
			continue
		}
		goals = parts
		i++
	}
	return goals, nil
}

// confirm keeps the tentative clauses of goals (subgoal.Goal.Tentative: their form states no
// task) that some tool is relevant to, and drops the others: whether a clause asks for a task
// is retrieval's to say, not a word list's. A request keeps at least one clause.
func confirm(ctx context.Context, r *ranker, goals []subgoal.Goal) ([]subgoal.Goal, error) {
	if !slices.ContainsFunc(goals, func(g subgoal.Goal) bool { return g.Tentative }) {
		return goals, nil
	}
	ranked, err := r.rank(ctx, goals)
	if err != nil {
		return nil, err
	}
	// As relevant as the least relevant clause that states its task: the floor alone lets a
	// context sentence ("my username is ...") through wherever an account tool is near it.
	bar := math.Inf(1)
	for i, g := range goals {
		if !g.Tentative && !g.Whole {
			bar = min(bar, ranked[i].Best)
		}
	}
	var kept []subgoal.Goal
	clauses := 0
	for i, g := range goals {
		if g.Tentative && !(ranked[i].Relevant && (ranked[i].Best >= bar || actsAs(ranked[i]))) {
			continue
		}
		if !g.Whole {
			clauses++
		}
		kept = append(kept, g)
	}
	if clauses == 0 {
		return goals, nil
	}
	return subgoal.Renumber(kept), nil
}

// actsAs reports whether g's text opens with the action one of its best candidates is named
// by ("Query meeting of John" and QueryMeeting, "deploy the latest version" and
// DeployVersion): the catalog's own verbs say that a clause asks for a tool.
func actsAs(g Goal) bool {
	head := bm25.Tokens(g.Text)
	if len(head) == 0 {
		return false
	}
	for _, c := range g.Candidates[:min(listTop, len(g.Candidates))] {
		if ws := bm25.Tokens(twnm.OwnName(c.Name)); len(ws) > 0 && ws[0] == head[0] {
			return true
		}
	}
	return false
}

// best is the name of g's best candidate, "" when it has none.
func best(g Goal) string {
	if len(g.Candidates) == 0 {
		return ""
	}
	return g.Candidates[0].Name
}

// amongBest reports whether api is among g's first listTop candidates.
func amongBest(g Goal, api string) bool {
	return slices.ContainsFunc(g.Candidates[:min(listTop, len(g.Candidates))], func(c Match) bool { return c.Name == api })
}

// firstSameTool is the index i of the first pair of adjacent clauses whose best candidate is
// the same API, or −1: one tool covers both, so they are one sub-goal.
func firstSameTool(goals []Goal) int {
	for i := 0; i+1 < len(goals); i++ {
		a, b := goals[i], goals[i+1]
		if a.Whole || b.Whole || len(a.Candidates) == 0 || len(b.Candidates) == 0 {
			continue
		}
		if a.Candidates[0].Name == b.Candidates[0].Name {
			return i
		}
		// A clause that the next takes up by a pronoun, and that no tool serves alone, names
		// what the next asks about: "where exactly is Lima? I need its coordinates" is one
		// question.
		if !a.Relevant && b.Relevant && b.Resolved != "" {
			return i
		}
	}
	return -1
}

// ranker retrieves sub-goals' candidates for one request, each text once: a request's
// sub-goals are ranked again after a merge or a list taken apart, and its head is often a
// whole clause, so a text already ranked reuses its evidence.
type ranker struct {
	src  Source
	emb  embed.Embedder
	o    Options
	seen map[string]evidence
}

// evidence is what the sources returned for one text.
type evidence struct {
	lex, dense, served []Hit
	worded             bool // the text has a word in common with some tool
}

func newRanker(src Source, emb embed.Embedder, o Options) *ranker {
	return &ranker{src: src, emb: emb, o: o, seen: map[string]evidence{}}
}

// rank retrieves every sub-goal's candidates. The lexical queries start at once, the dense and
// learned ones once the texts are embedded; all run concurrently (a store answers them in
// parallel), or, for a Batch, in one request per kind. Texts ranked before are not asked again.
func (r *ranker) rank(ctx context.Context, goals []subgoal.Goal) ([]Goal, error) {
	var texts []string
	for _, gl := range goals {
		if t := rankedBy(gl); !slices.Contains(texts, t) {
			if _, ok := r.seen[t]; !ok {
				texts = append(texts, t)
			}
		}
	}
	if len(texts) > 0 {
		if err := r.retrieve(ctx, texts); err != nil {
			return nil, err
		}
	}
	o := r.o
	out := make([]Goal, len(goals))
	for i, gl := range goals {
		ev := r.seen[rankedBy(gl)]
		out[i] = Goal{Goal: gl, Candidates: Fuse(ev.lex, ev.dense, o.DenseWeight), Relevant: hasWord(gl.Text), Worded: ev.worded}
		if len(ev.dense) > 0 && out[i].Relevant {
			out[i].Best = ev.dense[0].Score
			floor := o.Floor
			if !ev.worded { // no word in common with any tool
				floor = max(floor, o.WordlessFloor)
			}
			out[i].Relevant = o.Floor < 0 || ev.dense[0].Score >= floor
		}
		if out[i].Relevant {
			out[i].Candidates = boost(out[i].Candidates, ev.served, o)
		}
	}
	return out, nil
}

// rankedBy is the text a sub-goal is ranked by: its text with what its pronoun stands for
// written out, where it has one (subgoal.Goal.Resolved).
func rankedBy(gl subgoal.Goal) string { return cmp.Or(gl.Resolved, gl.Text) }

// retrieve asks the sources about texts and keeps what they return in r.seen.
func (r *ranker) retrieve(ctx context.Context, texts []string) error {
	src, emb, o := r.src, r.emb, r.o
	n := len(texts)
	// What the sources rank by (see subgoal.Query); BM25 without the quoted values, nor the
	// words that date the text (see inTime).
	queries, words, withDays := make([]string, n), make([]string, n), make([]string, n)
	for i, text := range texts {
		queries[i] = subgoal.Query(text)
		withDays[i] = subgoal.WithoutQuotes(queries[i])
		words[i] = subgoal.Timeless(withDays[i])
	}
	lex, dense, served := make([][]Hit, n), make([][]Hit, n), make([][]Hit, n)
	learned, _ := src.(Learned)
	batch, _ := src.(Batch)
	g, gctx := errgroup.WithContext(ctx)
	if o.DenseWeight < 1 {
		if batch != nil {
			g.Go(func() (err error) {
				if lex, err = batch.LexicalAll(gctx, words, o.Depth); err != nil {
					return fmt.Errorf("recall: %d sub-goals: lexical: %w", n, err)
				}
				return nil
			})
		} else {
			for i, text := range texts {
				g.Go(func() (err error) {
					if lex[i], err = src.Lexical(gctx, words[i], o.Depth); err != nil {
						return fmt.Errorf("recall: sub-goal %q: lexical: %w", text, err)
					}
					return nil
				})
			}
		}
	}
	if o.DenseWeight > 0 {
		g.Go(func() error {
			vecs, err := emb.Embed(gctx, queries)
			if err != nil {
				return fmt.Errorf("recall: embed %d sub-goals: %w", n, err)
			}
			if len(vecs) != n {
				return fmt.Errorf("recall: the embedder returned %d vectors for %d sub-goals", len(vecs), n)
			}
			if batch != nil {
				if dense, err = batch.DenseAll(gctx, vecs, o.Depth); err != nil {
					return fmt.Errorf("recall: %d sub-goals: dense: %w", n, err)
				}
				if served, err = batch.ServedAll(gctx, vecs, o.Depth); err != nil {
					return fmt.Errorf("recall: %d sub-goals: past sub-goals: %w", n, err)
				}
				return nil
			}
			inner, ictx := errgroup.WithContext(gctx)
			for i, text := range texts {
				inner.Go(func() (err error) {
					if dense[i], err = src.Dense(ictx, vecs[i], o.Depth); err != nil {
						return fmt.Errorf("recall: sub-goal %q: dense: %w", text, err)
					}
					return nil
				})
				if learned != nil {
					inner.Go(func() (err error) {
						if served[i], err = learned.Served(ictx, vecs[i], o.Depth); err != nil {
							return fmt.Errorf("recall: sub-goal %q: past sub-goals: %w", text, err)
						}
						return nil
					})
				}
			}
			return inner.Wait()
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for _, lists := range [][][]Hit{lex, dense, served} {
		if len(lists) != n {
			return fmt.Errorf("recall: the source returned %d lists for %d sub-goals", len(lists), n)
		}
	}
	for i, text := range texts {
		ev := evidence{lex: lex[i], dense: dense[i], served: served[i]}
		ev.worded = len(lex[i]) > 0 && lex[i][0].Score > 0
		// The words that date the text were left out of its lexical query; they are still
		// words it has in common with a tool that dates what it gives.
		if !ev.worded && o.DenseWeight < 1 && withDays[i] != words[i] {
			hits, err := src.Lexical(ctx, withDays[i], 1)
			if err != nil {
				return fmt.Errorf("recall: sub-goal %q: lexical: %w", text, err)
			}
			ev.worded = len(hits) > 0 && hits[0].Score > 0
		}
		r.seen[text] = ev
	}
	return nil
}

// hasWord reports whether text holds a letter or a digit: a text of punctuation alone asks for
// nothing, whatever an encoder makes of it.
// isData reports whether text is one JSON object or array.
func isData(text string) bool {
	return (strings.HasPrefix(text, "{") || strings.HasPrefix(text, "[")) && json.Valid([]byte(text))
}

func hasWord(text string) bool {
	return strings.IndexFunc(text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

// Fuse blends a lexical and a dense hit list into one: each list's scores are scaled by the
// list's maximum, so that each hit counts by how close it comes to the best (a negative cosine
// counts 0), an API missing from a list gets 0 there, and the fused score is
// (1 − w)·lexical + w·dense, rescaled so that the best is 1. Ties are broken by name.
//
// Scaling the cosines min-max over the list instead gave the list's weakest hit 0 however close
// it came to the best: among fifty hits of a large catalog, between cosines of 0.55 and 0.6, the
// dense list then outweighed BM25 where BM25 told them apart. By their maximum, StableToolBench's
// all-chain Recall@5 rose 0.4 and RestBench's 1.5 (its final step @1 53 → 54), for half a point
// of the ToolWorld's planned chains (see navi eval retrieval).
func Fuse(lex, dense []Hit, w float64) []Match {
	byName := map[string]*Match{}
	var order []*Match
	get := func(name string) *Match {
		c, ok := byName[name]
		if !ok {
			c = &Match{Name: name}
			byName[name] = c
			order = append(order, c)
		}
		return c
	}
	fused := map[*Match]float64{}
	if len(lex) > 0 {
		top := lex[0].Score
		for _, h := range lex {
			top = max(top, h.Score)
		}
		for _, h := range lex {
			c := get(h.Name)
			c.Lexical = h.Score
			c.Provider = cmp.Or(c.Provider, h.Provider)
			if top > 0 {
				fused[c] += (1 - w) * h.Score / top
			}
		}
	}
	if len(dense) > 0 {
		top := dense[0].Score
		for _, h := range dense {
			top = max(top, h.Score)
		}
		for _, h := range dense {
			c := get(h.Name)
			c.Dense = h.Score
			c.Provider = cmp.Or(c.Provider, h.Provider)
			if top > 0 {
				fused[c] += w * max(h.Score, 0) / top
			}
		}
	}
	best := 0.0
	for _, c := range order {
		best = max(best, fused[c])
	}
	out := make([]Match, len(order))
	for i, c := range order {
		c.Score = fused[c]
		if best > 0 {
			c.Score /= best
		}
		out[i] = *c
	}
	sortCandidates(out)
	return out
}

// sortCandidates orders candidates by score, best first, ties by name.
func sortCandidates(cs []Match) {
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].Score != cs[j].Score {
			return cs[i].Score > cs[j].Score
		}
		return cs[i].Name < cs[j].Name
	})
}
