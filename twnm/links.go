package twnm

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/naviagent/navi/twnm/embed"
)

// Link is a data flow the catalog suggests: output Output of API From can bind input Input
// of API To, with a confidence in (0, 1].
type Link struct {
	From, Output string
	To, Input    string
	Confidence   float64
}

// LinkOptions configures FindLinks.
type LinkOptions struct {
	// MinConfidence is the lowest confidence kept; default 0.5.
	MinConfidence float64
	// PerInput is how many producing concepts an input keeps at most, best first; default 2.
	PerInput int
	// Near keeps, besides the best link of an input, only those within this fraction of its
	// confidence; default 0.8.
	Near float64
	// Similar is the cosine similarity from which an output feeds an input that no output
	// shares a word with, where the graph has a sentence encoder (BuildOptions.APIEmbedder):
	// a weather `description` feeds `weather_conditions`, a `username` an `account`; default
	// 0.7 (with all-MiniLM-L6-v2, where `date` → `check_in_time` scores 0.63 and `username` →
	// `new_password` 0.61).
	Similar float64
}

// DefaultLinkOptions are FindLinks' defaults.
func DefaultLinkOptions() LinkOptions {
	return LinkOptions{MinConfidence: 0.5, PerInput: 2, Near: 0.8, Similar: 0.7}
}

// FindLinks finds the data flows among the APIs of apis: for each input that can be fed
// (Linkable), the outputs of other APIs whose concept can bind it, scored by
//
//	confidence = Dice(input, output) · role · type
//
// Dice is the overlap of the two concepts' words (role words left out) weighted by their IDF
// over all the catalog's parameters, 2·Σ shared / (Σ input + Σ output) with idf(w) =
// ln(1 + N/df(w)), N the number of parameters (inputs and outputs) and df(w) those whose
// concept holds w: a shared `id` counts little, a shared `person` much. Role is 0 when the two
// name different sides (a destination never feeds an origin), 0.9 when only the input names
// one (`placeId` → `originPlaceId`), else 1. Type is 0 for incompatible types (a boolean into
// a number), 0.9 when a list feeds a single value (its first item), else 1. Two concepts of
// two words or more whose last words differ are two attributes of one thing (city_name and
// city_code), and two that each qualify it with a word the other lacks are one attribute of
// two things (city_code and region_code): neither pair links. A more specific output feeds a
// plainer input (leader_team_id → team_id), and the other way round. A concept written
// without its spaces is the same concept (`username` and `user_name`): confidence role · type.
//
// FindLinks links by words alone; a graph built with a sentence encoder also links the inputs
// that share no word with any output by meaning (see LinkOptions.Similar and Build).
//
// Outputs that echo one of their API's own inputs (a concept the API takes) produce nothing.
// Each input keeps its best PerInput concepts at or above MinConfidence and within Near of
// the best, its own concept (the two share a parameter node) first. Candidates come from an
// index of concept words (see probeWords), never from every pair. The result is sorted by
// consumer, input, confidence (best first), producer.
func FindLinks(apis []API, o LinkOptions) []Link {
	x := newLinkIndex()
	for _, a := range apis {
		x.add(a)
	}
	links, _ := x.links(context.Background(), nil, o, x.inKinds, "") // no embedder: no error
	return links
}

// withDefaults fills the zero fields of o with DefaultLinkOptions'.
func (o LinkOptions) withDefaults() LinkOptions {
	d := DefaultLinkOptions()
	if o.MinConfidence == 0 {
		o.MinConfidence = d.MinConfidence
	}
	if o.PerInput == 0 {
		o.PerInput = d.PerInput
	}
	if o.Near == 0 {
		o.Near = d.Near
	}
	if o.Similar == 0 {
		o.Similar = d.Similar
	}
	return o
}

// linkIndex holds a catalog's parameters for linking, grouped in kinds (parameters of one
// concept and type class score alike, so confidences are computed once per pair of kinds and
// given to each of their parameters), with the words' document frequencies and an index of
// the kinds by word. It grows with the catalog: a graph keeps one, so that integrating a
// tool scores only the links it takes part in.
type linkIndex struct {
	names     []string // API names, by index
	kinds     map[string]*linkKind
	inKinds   []*linkKind // kinds with linkable inputs, in the order first read
	outKinds  []*linkKind // kinds with producing outputs, likewise
	ins, outs map[*linkKind][]linkMember
	df        map[string]int // parameters whose concept holds the word
	fields    int            // parameters read
	outByWord map[string][]*linkKind
	inByWord  map[string][]*linkKind
	// outByCompact indexes the output kinds by their concept written without spaces.
	outByCompact map[string][]*linkKind
	// Words by number, and their weights (idf) as of weightsAt parameters read.
	wordIDs   map[string]int32
	weights   []float64
	weightsAt int
	floor     float64 // the MinConfidence of the scoring under way
	// vecs holds the vectors of the kinds' texts (linkKind.text) embedded so far.
	vecs map[string][]float64
}

func newLinkIndex() *linkIndex {
	return &linkIndex{kinds: map[string]*linkKind{}, ins: map[*linkKind][]linkMember{}, outs: map[*linkKind][]linkMember{},
		df: map[string]int{}, outByWord: map[string][]*linkKind{}, inByWord: map[string][]*linkKind{},
		outByCompact: map[string][]*linkKind{}, wordIDs: map[string]int32{},
		vecs: map[string][]float64{}}
}

// add reads the parameters of one more API.
func (x *linkIndex) add(a API) {
	i := len(x.names)
	x.names = append(x.names, a.Name)
	noun := resourceNoun(a)
	takes := map[string]bool{}
	for _, p := range a.Inputs {
		k := x.kindOf(a, p, noun, true)
		takes[k.key] = true
		if Linkable(p) {
			x.member(k, linkMember{i, p.Name}, true)
		}
	}
	for _, p := range a.Outputs {
		if k := x.kindOf(a, p, noun, false); !takes[k.key] { // an echo of an input produces nothing
			x.member(k, linkMember{i, p.Name}, false)
		}
	}
}

// kindOf counts p, a parameter of a (an input where input is set), and returns its kind.
func (x *linkIndex) kindOf(a API, p Param, noun string, input bool) *linkKind {
	x.fields++
	ws := paramConcept(a, p, noun, input)
	for w := range set(ws...) {
		if roleWords[w] == "" {
			x.df[w]++
		}
	}
	key := joinWords(ws)
	sig := fmt.Sprintf("%t\x00%s\x00%s", input, key, typeClass(p.Type))
	k := x.kinds[sig]
	if k == nil {
		k = &linkKind{key: key, compact: strings.Join(ws, ""), class: typeClass(p.Type), roles: roles(ws)}
		for _, w := range ws {
			if roleWords[w] == "" {
				k.head = w // the last word names what the value is: a city_name is a name
			}
		}
		for w := range set(ws...) {
			if roleWords[w] == "" {
				k.words = append(k.words, w)
			}
		}
		sort.Strings(k.words)
		for _, w := range k.words {
			id, ok := x.wordIDs[w]
			if !ok {
				id = int32(len(x.wordIDs))
				x.wordIDs[w] = id
			}
			k.ids = append(k.ids, id)
			if !genericWords[w] {
				k.spec = append(k.spec, id)
			}
		}
		slices.Sort(k.ids)
		slices.Sort(k.spec)
		k.sumAt = -1
		x.kinds[sig] = k
		k.text = similarText(ws, p)
	}
	return k
}

// member adds m to kind k, indexing k by its words on its first member.
func (x *linkIndex) member(k *linkKind, m linkMember, input bool) {
	members, byWord := x.outs, x.outByWord
	if input {
		members, byWord = x.ins, x.inByWord
	}
	if len(members[k]) == 0 {
		for _, w := range k.words {
			byWord[w] = append(byWord[w], k)
		}
		if input {
			x.inKinds = append(x.inKinds, k)
		} else {
			x.outKinds = append(x.outKinds, k)
			x.outByCompact[k.compact] = append(x.outByCompact[k.compact], k)
		}
	}
	members[k] = append(members[k], m)
}

// idf is ln(1 + N/df(w)).
func (x *linkIndex) idf(w string) float64 {
	return math.Log(1 + float64(x.fields)/float64(max(x.df[w], 1)))
}

// weigh returns Σ idf over k's words, computing the words' weights anew when parameters were
// read since (IDF moves with the catalog).
func (x *linkIndex) weigh(k *linkKind) float64 {
	if len(x.weights) != len(x.wordIDs) || x.weightsAt != x.fields {
		x.weights = make([]float64, len(x.wordIDs))
		for w, id := range x.wordIDs {
			x.weights[id] = x.idf(w)
		}
		x.weightsAt = x.fields
	}
	if k.sumAt != x.fields {
		k.sum = 0
		for _, id := range k.ids {
			k.sum += x.weights[id]
		}
		k.sumAt = x.fields
	}
	return k.sum
}

// scoredKind is an output kind that can bind an input, with its confidence.
type scoredKind struct {
	out  *linkKind
	conf float64
}

// links scores the links into the input kinds given; with focus set, only those into or out
// of that API are returned. With emb, the inputs that share no word with any output are
// linked by similarity (see similar).
func (x *linkIndex) links(ctx context.Context, emb embed.Embedder, o LinkOptions, inKinds []*linkKind, focus string) ([]Link, error) {
	o = o.withDefaults()
	x.floor = o.MinConfidence
	cands := make([][]scoredKind, len(inKinds))
	var unlinked []int
	for i, in := range inKinds {
		cands[i] = x.lexical(in, o)
		if len(cands[i]) == 0 {
			unlinked = append(unlinked, i)
		}
	}
	if emb != nil && len(unlinked) > 0 {
		if err := x.similar(ctx, emb, o, inKinds, unlinked, cands); err != nil {
			return nil, err
		}
	}
	var links []Link
	for i, in := range inKinds {
		links = x.emit(links, in, cands[i], o, focus)
	}
	sort.Slice(links, func(i, j int) bool {
		a, b := links[i], links[j]
		switch {
		case a.To != b.To:
			return a.To < b.To
		case a.Input != b.Input:
			return a.Input < b.Input
		case a.Confidence != b.Confidence:
			return a.Confidence > b.Confidence
		case a.From != b.From:
			return a.From < b.From
		}
		return a.Output < b.Output
	})
	return links, nil
}

// lexical returns the output kinds that share words with in and reach MinConfidence, and
// those whose concept is in's written another way (`username` and `user_name`, `timezone` and
// `time_zone`), which count as the same concept.
func (x *linkIndex) lexical(in *linkKind, o LinkOptions) []scoredKind {
	var cands []scoredKind
	seen := map[*linkKind]bool{}
	for _, out := range x.outByCompact[in.compact] {
		seen[out] = true
		if c := compatible(in, out); c >= o.MinConfidence {
			cands = append(cands, scoredKind{out, c})
		}
	}
	for _, w := range x.probeWords(in, o.MinConfidence) {
		for _, out := range x.outByWord[w] {
			if seen[out] {
				continue
			}
			seen[out] = true
			if c := x.confidence(in, out); c >= o.MinConfidence {
				cands = append(cands, scoredKind{out, c})
			}
		}
	}
	return cands
}

// similar fills the candidates of the unlinked inputs (indexes into inKinds) with the output
// kinds whose text the sentence encoder finds similar, at o.Similar or above, scaled by role
// and type as lexical confidences are (see compatible). Only those inputs are compared with
// the outputs, through a nearest-vector index (embed.Index: exact up to embed.ExactLimit
// outputs, clustered past it). Each text is embedded once.
func (x *linkIndex) similar(ctx context.Context, emb embed.Embedder, o LinkOptions, inKinds []*linkKind, unlinked []int, cands [][]scoredKind) error {
	var outs []*linkKind
	for _, k := range x.outKinds {
		if telling(k) {
			outs = append(outs, k)
		}
	}
	row := map[string]int{} // an input text's row among the queries
	var queries []string
	for _, i := range unlinked {
		if t := inKinds[i].text; telling(inKinds[i]) {
			if _, ok := row[t]; !ok {
				row[t] = len(queries)
				queries = append(queries, t)
			}
		}
	}
	if len(queries) == 0 || len(outs) == 0 {
		return nil
	}
	texts := slices.Clone(queries)
	for _, k := range outs {
		texts = append(texts, k.text)
	}
	if err := x.embed(ctx, emb, texts); err != nil {
		return err
	}
	qv, ov := make([][]float64, len(queries)), make([][]float64, len(outs))
	for i, t := range queries {
		qv[i] = x.vecs[t]
	}
	for j, k := range outs {
		ov[j] = x.vecs[k.text]
	}
	hits := embed.NewIndex(ov).Above(qv, o.Similar)
	for _, i := range unlinked {
		in := inKinds[i]
		r, ok := row[in.text]
		if !ok {
			continue
		}
		for _, h := range hits[r] {
			out := outs[h.Index]
			f := compatible(in, out)
			if f == 0 || (genericWords[in.head] || genericWords[out.head]) && in.head != out.head {
				continue // a request id is no contact id, a coin's name no coin id
			}
			if c := h.Score * f; c >= o.MinConfidence {
				cands[i] = append(cands[i], scoredKind{out, c})
			}
		}
	}
	return nil
}

// similarText is the text of a parameter of concept ws that similar compares: its words
// that are not generic, then its description. A shared `id` or `type` says nothing of what
// two values are.
func similarText(ws []string, p Param) string {
	var spec []string
	for _, w := range ws {
		if !genericWords[w] && roleWords[w] == "" {
			spec = append(spec, w)
		}
	}
	return strings.Join(spec, " ") + ". " + p.Description
}

// telling reports whether k's concept holds a word that is neither generic nor shorter than
// three letters: abbreviations (`hl`, `de`) and bare ids are too vague to compare by meaning.
func telling(k *linkKind) bool {
	for _, w := range k.words {
		if !genericWords[w] && len(w) >= 3 {
			return true
		}
	}
	return false
}

// emit appends the links into the members of in from the concepts it keeps of cands.
func (x *linkIndex) emit(links []Link, in *linkKind, cands []scoredKind, o LinkOptions, focus string) []Link {
	// The best per concept (one concept is one parameter node, whatever its types).
	best := map[string]float64{}
	in.best = 0
	for _, c := range cands {
		best[c.out.key] = math.Max(best[c.out.key], c.conf)
		if c.out.key != in.key {
			in.best = math.Max(in.best, c.conf)
		}
	}
	for _, m := range x.ins[in] {
		// Per member, its own API's outputs do not count.
		own := map[string]float64{}
		for _, c := range cands {
			for _, om := range x.outs[c.out] {
				if om.api != m.api {
					own[c.out.key] = best[c.out.key]
					break
				}
			}
		}
		keep := keepConcepts(own, in.key, o)
		for _, c := range cands {
			if !keep[c.out.key] {
				continue
			}
			for _, om := range x.outs[c.out] {
				from, to := x.names[om.api], x.names[m.api]
				if om.api != m.api && (focus == "" || from == focus || to == focus) {
					links = append(links, Link{From: from, Output: om.name, To: to, Input: m.name, Confidence: c.conf})
				}
			}
		}
	}
	return links
}

// linksOf returns the links into or out of the API last added, named name. Its inputs are
// scored as links scores them (with emb, by meaning too). Its outputs feed an input elsewhere
// by words when the confidence reaches MinConfidence and Near of the best link that input had
// when it was last scored (without rescoring that input's other producers, so PerInput is not
// enforced there); they feed no input elsewhere by meaning until the graph is built again.
func (x *linkIndex) linksOf(ctx context.Context, emb embed.Embedder, name string, o LinkOptions) ([]Link, error) {
	o = o.withDefaults()
	x.floor = o.MinConfidence
	i := len(x.names) - 1
	var into []*linkKind
	for _, k := range x.inKinds { // in the index's order: deterministic
		if ms := x.ins[k]; ms[len(ms)-1].api == i {
			into = append(into, k)
		}
	}
	links, err := x.links(ctx, emb, o, into, name)
	if err != nil {
		return nil, err
	}
	var mine []*linkKind
	for _, k := range x.outKinds {
		if ms := x.outs[k]; ms[len(ms)-1].api == i {
			mine = append(mine, k)
		}
	}
	for _, out := range mine {
		seen := map[*linkKind]bool{}
		for _, w := range out.words {
			for _, in := range x.inByWord[w] {
				if seen[in] {
					continue
				}
				seen[in] = true
				c := x.confidence(in, out)
				if c < o.MinConfidence || c < o.Near*in.best {
					continue
				}
				for _, m := range x.ins[in] {
					for _, om := range x.outs[out] {
						if om.api == i && m.api != i {
							links = append(links, Link{From: name, Output: om.name, To: x.names[m.api], Input: m.name, Confidence: c})
						}
					}
				}
			}
		}
	}
	return links, nil
}

// prepare embeds, before API a joins the index, the texts that linking it by similarity may
// need (its parameters' and every output kind's), so that a failing encoder leaves the index
// and the graph as they were.
func (x *linkIndex) prepare(ctx context.Context, emb embed.Embedder, a API) error {
	if emb == nil {
		return nil
	}
	noun := resourceNoun(a)
	var texts []string
	for i, ps := range [][]Param{a.Inputs, a.Outputs} {
		for _, p := range ps {
			texts = append(texts, paramText(paramConcept(a, p, noun, i == 0), p))
		}
	}
	for _, k := range x.outKinds {
		texts = append(texts, k.text)
	}
	return x.embed(ctx, emb, texts)
}

// embed computes the vectors of the texts not embedded yet.
func (x *linkIndex) embed(ctx context.Context, emb embed.Embedder, texts []string) error {
	var need []string
	seen := map[string]bool{}
	for _, t := range texts {
		if x.vecs[t] == nil && !seen[t] {
			seen[t] = true
			need = append(need, t)
		}
	}
	if len(need) == 0 {
		return nil
	}
	vecs, err := emb.Embed(ctx, need)
	if err != nil {
		return fmt.Errorf("links: embed %d parameters: %w", len(need), err)
	}
	if len(vecs) != len(need) {
		return fmt.Errorf("links: the embedder returned %d vectors for %d parameters", len(vecs), len(need))
	}
	for i, t := range need {
		x.vecs[t] = vecs[i]
	}
	return nil
}

// probeWords returns the words of in whose postings hold every output that can reach
// minConf: its rarest words, until the rest cannot. An output sharing only the rest, of total
// weight C, has a confidence of at most 2C / (Σ in + C); the rarest words are added until that
// bound falls below minConf. Common words (`id`, `name`) are then rarely probed, which keeps
// candidate generation far from every pair of parameters.
func (x *linkIndex) probeWords(in *linkKind, minConf float64) []string {
	type weighted struct {
		word string
		idf  float64
	}
	ws := make([]weighted, len(in.words))
	sum := 0.0
	for i, w := range in.words {
		ws[i] = weighted{w, x.idf(w)}
		sum += ws[i].idf
	}
	sort.Slice(ws, func(i, j int) bool {
		if ws[i].idf != ws[j].idf {
			return ws[i].idf > ws[j].idf
		}
		return ws[i].word < ws[j].word
	})
	probe := make([]string, 0, len(ws))
	rest := sum
	for _, w := range ws {
		if 2*rest/(sum+rest) < minConf {
			break
		}
		probe = append(probe, w.word)
		rest -= w.idf
	}
	return probe
}

// linkMember is a parameter of a linkKind: its API (an index) and its name.
type linkMember struct {
	api  int
	name string
}

// linkKind is a concept of a type class, as inputs or as outputs: what a link's confidence
// depends on.
type linkKind struct {
	key     string   // the whole concept, roles in
	compact string   // the concept written without spaces: `username` for `user_name`
	words   []string // the concept's words, roles out, sorted, each once
	class   string   // the type class (typeClass)
	head    string   // the last word, roles out
	best    float64  // inputs: the best link from another concept when last scored
	ids     []int32  // the words' numbers (linkIndex.wordIDs), sorted
	spec    []int32  // those of the words that are not generic (genericWords), sorted
	sum     float64  // Σ idf over the words as of sumAt parameters read
	sumAt   int
	roles   map[string]bool // the sides its role words name
	text    string          // what the sentence encoder compares (similarText of its first parameter)
}

// keepConcepts returns the concepts an input keeps from best (concept → confidence): its own
// concept first, then the most confident, at most o.PerInput, each within o.Near of the best.
func keepConcepts(best map[string]float64, own string, o LinkOptions) map[string]bool {
	concepts := make([]string, 0, len(best))
	for k := range best {
		concepts = append(concepts, k)
	}
	sort.Slice(concepts, func(a, b int) bool {
		ka, kb := concepts[a], concepts[b]
		switch {
		case (ka == own) != (kb == own):
			return ka == own
		case best[ka] != best[kb]:
			return best[ka] > best[kb]
		}
		return ka < kb
	})
	keep := map[string]bool{}
	for i, k := range concepts {
		if i >= o.PerInput || (k != own && best[k] < o.Near*best[concepts[0]]) {
			break
		}
		keep[k] = true
	}
	return keep
}

// confidence is FindLinks' confidence that an output of kind out binds an input of kind in.
func (x *linkIndex) confidence(in, out *linkKind) float64 {
	if len(in.words) > 1 && len(out.words) > 1 && in.head != out.head {
		return 0 // two attributes of one thing: a city's name is not its code
	}
	if hasOther(in.spec, out.ids) && hasOther(out.spec, in.ids) {
		return 0 // one attribute of two things: a city code is not a region code
	}
	f := compatible(in, out)
	if f == 0 {
		return 0
	}
	sumIn, sumOut := x.weigh(in), x.weigh(out)
	if 2*min(sumIn, sumOut)/(sumIn+sumOut)*f < x.floor {
		return 0 // even sharing every word of the shorter, it could not reach the floor
	}
	var shared float64
	for i, j := 0, 0; i < len(in.ids) && j < len(out.ids); { // both sorted: merge
		switch {
		case in.ids[i] < out.ids[j]:
			i++
		case in.ids[i] > out.ids[j]:
			j++
		default:
			shared += x.weights[in.ids[i]]
			i, j = i+1, j+1
		}
	}
	if shared == 0 {
		return 0
	}
	return 2 * shared / (sumIn + sumOut) * f
}

// compatible is the factor of role and type by which a confidence that out binds in is
// scaled: 0 when their roles conflict or their types cannot meet, 0.9 when only the input
// names a role (`placeId` → `originPlaceId`), times 0.9 when a list feeds a single value (its
// first item), else 1.
func compatible(in, out *linkKind) float64 {
	if rolesConflict(in.roles, out.roles) {
		return 0
	}
	role := 1.0
	if len(in.roles) > 0 && len(out.roles) == 0 {
		role = 0.9
	}
	typ := 1.0
	ci, co := in.class, out.class
	switch {
	case co == "array" && ci != "array" && ci != "":
		typ = 0.9
	case ci != "" && co != "" && ci != co && !(isScalarClass(ci) && isScalarClass(co)):
		return 0
	}
	return role * typ
}

// hasOther reports whether words (sorted) holds a word that of (sorted) lacks.
func hasOther(words, of []int32) bool {
	j := 0
	for _, w := range words {
		for j < len(of) && of[j] < w {
			j++
		}
		if j == len(of) || of[j] != w {
			return true
		}
	}
	return false
}

// isScalarClass reports whether a type class holds one text or number: ids are written as
// numbers by one API and as strings by the next.
func isScalarClass(c string) bool { return c == "string" || c == "number" }

func joinWords(ws []string) string { return strings.Join(ws, " ") }
