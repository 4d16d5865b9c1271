package recall

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/naviagent/navi/twnm/extract"
	"github.com/naviagent/navi/twnm/lexicon"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/bm25"
	"github.com/naviagent/navi/twnm/embed"
	"github.com/naviagent/navi/twnm/subgoal"
)

// Links answers the data-flow questions Choose asks of the graph.
type Links interface {
	// Feeds reports whether an output of producer can bind an input of consumer.
	Feeds(producer, consumer string) bool
	// Producers returns, for each required input of api that some API can produce, those APIs.
	Producers(api string) []Need
	// API returns the catalog entry of api.
	API(api string) (twnm.API, bool)
}

// Need is a required input of an API and the APIs able to produce it.
type Need struct {
	// Inputs are the API's own names for the input (usually one).
	Inputs    []string
	Producers []Producer
}

// Producer is an API able to produce one of a consumer's required inputs.
type Producer struct {
	Name string
	// Circular is set when the producer itself requires the input it produces (the movies
	// similar to a movie, for a movie's id): it cannot start a chain, so the chain reaches
	// back to a producer of its own input.
	Circular bool
	// Role holds the words the producer's output adds to the input's concept (twnm.Supplier):
	// it gives another thing than the input unless the request says one of them.
	Role []string
}

// producerDepth bounds how far back Choose follows producers of producers: to one that starts
// the chain (past circular ones), or whose inputs the request states.
const producerDepth = 3

// finalists is how many of the best candidates for the final step Choose weighs against each
// other through the graph.
const finalists = 5

// remarkShare is the share of the best part's similarity (Goal.Best) under which a part of
// the request is a remark, not what it asks for: it chooses no final step (see score), and
// one the request ends with joins no call (Branches).
// Chosen leaving one dev set out over 0.4–0.7: 0.5 in every rotation (StableToolBench @1
// +0.3 and the public dev set's +5.4 when each is left out; at 0.6 StableToolBench loses).
const remarkShare = 0.5

// actionMismatch scales the final-step score of a tool whose action is not the one the
// request asks for (see Action).
const actionMismatch = 0.7

// Choose picks the final step and orders the result, filling r.Final, r.Chain and r.Ranked.
//
// The final step's score is the mean of its (normalised) scores for the whole request, for
// the request's last clause (unless its words are the whole request's) and for that clause's
// head (r.Focus, where it has one): the final step of a request is usually what its last part
// asks for, and within that part what its head asks for ("the current weather | at the
// location of the best hotel"). A part that is a remark counts not (see remarkShare), nor
// one whose form states no task where another states one (subgoal.Goal.Tentative). A tool
// whose action is not the one the request asks for is scaled by actionMismatch ("book a
// meeting" is not answered by QueryMeeting; see Action), and so is a tool that changes state
// where the request names no action (with links, a part whose words name none asks for the
// action its nearest tools by meaning agree on, see agreedAction, or, a command, for that of
// the tool its words and its meaning both rank first, see commandedAction); the moves below
// never land on such a tool. With links, only a candidate they hold is a final step (where they
// hold any): one the read after retrieval left out could be neither judged nor planned.
// With links, the leader moves among the best finalists:
//   - from a leader of another action than the request's to a finalist that does it and that
//     the leader feeds, or that acts on the same resource where the request's last part
//     names that action itself (see sameResource);
//   - to a candidate that consumes the leader's output, scores at least ConsumerRatio of the
//     leader's, and matches a word of the request that neither the leader nor its own inputs
//     match: "who directed the top-rated movie" is answered by the credits, fed by the
//     top-rated list, while "the current weather conditions" stay with the weather API
//     although a clothing recommendation consumes its "weather conditions"; or whose outputs
//     a word of the request names that the leader neither gives nor holds (see givesOnly);
//     or that takes a number the request states and the leader does not (see takesMore);
//   - to the head's best finalist that consumes the leader's output and scores at least
//     ConsumerRatio for the head, when the leader scores under it;
//   - the other way round, from a leader whose words in the request's head (the whole request
//     where it has none) all name its inputs (and no word of the request an output it yields,
//     its outputs' words that name its inputs aside: see yields), and that takes no stated
//     value the other does not, to a finalist that feeds it, scores at least ConsumerRatio of
//     it, and outputs a word of the request: "what are the latitude and longitude of
//     Toronto?" is answered by a geocoder, not by the reverse geocoder that takes them, while
//     "what do people say about the best restaurant" asks about the restaurant the reviews
//     take, and stays with them;
//   - from a leader that needs a value the request does not state to a sibling of its
//     provider that runs on the request's values alone and takes a number or a code the
//     leader does not ("houses for sale near 40.7128, -74.0060" is the listing search, not
//     the market statistics of the city a reverse geocoder would find there).
//
// The final step's required inputs that the request leaves to other tools are then bound by
// the producer the request favours, and so on back, producerDepth steps at most (an identifier
// by its issuer: see issuers; another provider's producer only where the request makes it
// plausible: see plausible); those producers and the other parts' best candidates that feed
// the chain come before it in Chain. Ranked holds the final step, then the candidates of the
// request's parts (see rankedParts), the producers after as many of them as the request has
// clauses, so that every part of the request is represented early, and right after them each
// producer's substitutes: the other producers of what it gives that take a value the request
// states and that the request retrieved.
// With links, each clause's candidates are first rescored in place by their provider's
// relevance to the whole request (see inContext; call Choose once per Result), and the final
// step's score is scaled the same way; in the ranked list, the parts' candidates weigh it
// with rankedContext. A provider that several parts of the request ask for thus lends its
// APIs to the parts it matches less well: a request for a chat service's invite data and
// for "the username and avatar of the user with this ID" ranks that service's user lookup
// before a photo site's user search. A clause that asks about one day ("the weather tomorrow")
// then has its candidates rescored by the day their descriptions date what they give (see
// inTime).
// links may be nil (or o.NoGraph set): relevance alone decides.
func Choose(r *Result, links Links, o Options) error {
	o, err := o.withDefaults()
	if err != nil {
		return err
	}
	if o.NoGraph {
		links = nil
	}
	c := newChoice(r, links, o)
	if len(c.pool) == 0 {
		r.Final, r.Chain, r.Ranked, r.Scores = "", nil, nil, nil
		return nil
	}
	c.score()
	best := c.names[0]
	if links != nil {
		best = c.moveLeader(best)
	}
	chain := []string{best}
	var producers, substitutes []string
	if links != nil {
		chain, producers, substitutes = c.bindProducers(best)
	}
	c.final[best] = max(c.final[best], c.final[c.names[0]])
	r.Final, r.Ranked, r.Scores = best, c.rank(best, producers, substitutes), c.final
	r.Chain = order(chain, links)
	return nil
}

// choice is Choose's reading of one result, shared by its stages: score, moveLeader,
// bindProducers and rank.
type choice struct {
	r     *Result
	links Links // nil: relevance alone decides
	o     Options
	// rel is the providers' relevance to the request (nil: one provider, or no links), and
	// provider names an API's provider.
	rel      map[string]float64
	provider func(api string) string
	clauses  []Goal
	whole    Goal
	pool     map[string]float64 // every candidate's relevance (Result.Relevance)
	asked    []string           // the whole request's terms
	head     []string           // what the request asks for, without the things it asks about
	// focus is the head of the last part the final step is read from (see score): the
	// request's (Result.Focus), or that of an earlier part where the last is a remark.
	focus *Goal
	// final is each candidate's score as the final step, names the candidates by it, best
	// first; mismatch marks those that do another action than the request asks for, and
	// sFocus holds the scores for the request's head (nil when it has none).
	final    map[string]float64
	names    []string
	mismatch map[string]bool
	sFocus   map[string]float64
	want     Action // the action the request asks for (Result.Action)
	// items are the items the request names for the candidates' inputs (namedItems), itemKeys
	// the keys of the collections they belong to (twnm.PickKey), and named the services the
	// request names by a value or an item (see named); nil without links.
	items    []namedItem
	itemKeys map[string]bool
	named    map[string]bool
}

// newChoice reads r for Choose; with links, each clause's candidates are rescored in place by
// their provider's relevance to the whole request (inContext).
func newChoice(r *Result, links Links, o Options) *choice {
	c := &choice{r: r, links: links, o: o}
	if links != nil {
		c.provider = providerOf(r, links)
		c.items = itemsOf(r, links)
		c.itemKeys = map[string]bool{}
		for _, n := range c.items {
			a, _ := links.API(n.api)
			c.itemKeys[twnm.PickKey(a, n.input)] = true
		}
		c.named = named(r, links, c.provider, c.items)
		c.rel = inContext(r, c.provider, o.Context, c.named)
		inTime(r, links)
	}
	// Read after the rescoring, which they see.
	c.clauses, c.whole, c.pool = r.Clauses(), r.Whole(), r.Relevance()
	c.asked = bm25.Tokens(c.whole.Text)
	c.setFocus(r.Focus)
	return c
}

// setFocus makes f the head the final step is read by (nil: none).
func (c *choice) setFocus(f *Goal) {
	c.focus, c.head = f, nil
	if f != nil {
		c.head = bm25.Tokens(f.Text)
	}
}

// score gives every candidate its score as the final step: the mean of its scores for the
// request's views (the whole request, the last clause, the head), scaled down where its
// action is not the request's and by its provider's relevance in the request's context.
func (c *choice) score() {
	// The last part that asks for something a tool does: some tool is relevant to it, at
	// remarkShare of the best part's similarity at least. A request often ends with a remark
	// ("… I heard something good an hour ago and forgot what it was", "Need something for the
	// gym."), whose best candidate, some other service's, would otherwise vote for the final
	// step. Where no part qualifies, the last is read.
	last := c.whole
	if n := len(c.clauses); n > 0 {
		last = c.clauses[n-1]
		// A clause whose form states no task (subgoal.Goal.Tentative: "It's in service
		// IS33cc…" after "Who's actually in the 'Weekend Volunteers' channel?") says what the
		// request is about, not what it asks, where another clause states a task.
		asks := func(g Goal) bool { return g.Relevant && !c.r.Background(g) }
		top := 0.0
		for _, g := range c.clauses {
			if asks(g) {
				top = max(top, g.Best)
			}
		}
		for i := n - 1; i >= 0; i-- {
			if g := c.clauses[i]; asks(g) && g.Best >= remarkShare*top {
				last = g
				break
			}
		}
	}
	sWhole, sLast := scores(c.whole), scores(last)
	c.want = c.r.Action()
	if c.want == ActionUnknown && c.links != nil {
		c.want = agreedAction(last, c.links, agreeing)
	}
	c.final, c.mismatch = map[string]float64{}, map[string]bool{}
	if n := len(c.clauses); n > 0 && last.Order != c.clauses[n-1].Order {
		c.setFocus(last.Head) // the remark's head asks for nothing either
	}
	if c.focus != nil {
		c.sFocus = scores(*c.focus)
	}
	// Each view of the request counts once: a request of one clause is its own last part, and
	// counted twice it would outweigh its head two to one.
	views := []map[string]float64{sWhole}
	if !slices.Equal(bm25.Tokens(last.Text), bm25.Tokens(c.whole.Text)) {
		views = append(views, sLast)
	}
	if c.sFocus != nil {
		views = append(views, c.sFocus)
	}
	// With links, a candidate they do not hold (one the read after retrieval left out) is no
	// final step where some other is held: what it does and what it needs are unknown, and
	// nothing could plan it.
	held := map[string]twnm.API{}
	if c.links != nil {
		for name := range c.pool {
			if a, ok := c.links.API(name); ok {
				held[name] = a
			}
		}
	}
	if c.want == ActionUnknown && c.links != nil && subgoal.Imperative(last.Text) {
		c.want = commandedAction(last, c.links)
	}
	for name := range c.pool {
		a, ok := held[name]
		if !ok && len(held) > 0 {
			continue
		}
		for _, v := range views {
			c.final[name] += v[name] / float64(len(views))
		}
		if ok {
			if act := APIAction(a); act != ActionUnknown && act != c.want && (c.want != ActionUnknown || act != ActionRead) {
				c.final[name] *= actionMismatch
				c.mismatch[name] = true
			}
		}
	}
	if c.rel != nil { // the final step is read in the request's context too, as the clauses are
		for name := range c.final {
			c.final[name] *= providerFactor(c.rel, c.provider(name), c.o.Context)
		}
	}
	// Where the request names services (named), only theirs are final steps, where they have
	// a candidate: "… my bakery-landing site — show me what people submitted through the
	// 'contact' form" is the web host's forms, however near the chat service's messages its
	// head's words rank.
	if len(c.named) > 0 && slices.ContainsFunc(slices.Collect(maps.Keys(c.final)), func(n string) bool { return c.named[c.provider(n)] }) {
		maps.DeleteFunc(c.final, func(name string, _ float64) bool { return !c.named[c.provider(name)] })
	}
	c.names = sortedBy(c.final)
}

// moveLeader moves the final step from best among the finalists along the graph's data flows:
// to a consumer of its output the request asks for, to the head's consumer of it, or back to
// a producer that gives what the request asks for (see Choose).
func (c *choice) moveLeader(best string) string {
	links, o, mismatch := c.links, c.o, c.mismatch
	asked, head, whole := c.asked, c.head, c.whole
	top := c.names[:min(finalists, len(c.names))]
	// A leader that does another action than the request's yields to a finalist that does
	// it and that the leader feeds: "Reserve the best hotel in Florence for 2 nights …" is
	// the booking, fed by the hotel search, which the request's words rank first.
	if mismatch[best] {
		for _, p := range top {
			if a, ok := links.API(p); ok && APIAction(a) == c.want && links.Feeds(best, p) && !links.Feeds(p, best) {
				best = p
				break
			}
		}
	}
	// Or, where the request's last part itself names the action, to the best finalist that
	// does it on the same resource: "Is my fine-tuning job … finished yet?" reads the job that
	// createFineTuningJob would start anew, and "Can you help me find my upcoming
	// appointment?" queries the registration that AppointmentRegistration would make. An
	// action read off another part of the request ("Query meeting of John and send email
	// reminder") says nothing of the last part's.
	if mismatch[best] && c.r.lastAction() == c.want {
		lead, _ := links.API(best)
		for _, p := range top {
			if a, ok := links.API(p); ok && !mismatch[p] && APIAction(a) != ActionUnknown && sameResource(lead, a) {
				best = p
				break
			}
		}
	}
	for range finalists { // each round moves to a consumer of the leader, or stops
		moved := false
		for _, b := range top {
			if c.rival(b, best) && links.Feeds(best, b) && needs(links, b, best) && !links.Feeds(b, best) &&
				(asksFor(asked, links, b, best) || givesOnly(asked, links, b, best) || takesMore(whole.Text, links, b, best)) {
				best, moved = b, true
				break
			}
		}
		if !moved {
			break
		}
	}
	// The head of the request names the final step, the rest what feeds it: "who directed
	// the top-rated movie" is answered by the credits, fed by the top-rated list. When the
	// leader scores under ConsumerRatio for the head (a leader the head asks for stays),
	// the head's best finalist that consumes the leader's output takes its place, among
	// those scoring at least ConsumerRatio for the head: "the lead actor in the most
	// popular TV show" is the TV show's credits, though a movie's score higher.
	if focus := c.focus; focus != nil && len(focus.Candidates) > 0 && c.sFocus[best] < o.ConsumerRatio {
		for _, m := range focus.Candidates[:min(finalists, len(focus.Candidates))] {
			f := m.Name
			if m.Score < o.ConsumerRatio {
				break
			}
			if f != best && !mismatch[f] && links.Feeds(best, f) && needs(links, f, best) && !links.Feeds(f, best) {
				best = f
				break
			}
		}
	}
	// A final step that only takes what the request asks for yields to a finalist that
	// feeds it and gives it: "what are the latitude and longitude of Toronto?" is
	// answered by a geocoder, not by the reverse geocoder that takes them.
	// What the request asks for is its head where it has one: "what do people say about
	// the best restaurant" names the restaurant it asks about, not what it asks for. A
	// word anywhere in it that names what the leader gives keeps it ("when is the top
	// restaurant in Porto open": the details give the opening hours). An output's word that
	// names an input gives nothing the leader was not given (see yields).
	sought := asked
	if len(head) > 0 {
		sought = head
	}
	if takesWhatIsAsked(sought, links, best) && !answers(asked, links, best) {
		for _, p := range top {
			// Unlike a consumer's move, this one holds where the two feed each other (a
			// geocoder and its reverse): what the request asks for decides.
			// A leader that takes a value the request states, which p does not, stays: the
			// value would go unused (see grounded). "How much is listing lst-0515bb06
			// worth?" keeps the listing's details ahead of the listings search that feeds
			// them, "where is the city of Madrid" the geocoder, which takes the city it
			// names. Nor does a leader give way to the search that only finds what it is
			// about, by the id it takes, where it tells more (see findsOnlyItsSubject):
			// "Does the top hotel in Dubai have a pool?"
			if c.rival(p, best) && links.Feeds(p, best) && gives(asked, links, p, whole.Text) &&
				!findsOnlyItsSubject(asked, links, p, best, whole.Text) &&
				!grounded(whole.Text, links, best, p) {
				best = p
				break
			}
		}
	}
	// A leader that shares with the request only words that say which value is given or what
	// is done yields to a finalist more like the request in meaning that runs on the stated
	// values (see cuedOnly): "How much is listing lst-0515bb06 worth?" is the listing's
	// valuation, not its details, whose name has the word "listing" that gives the id.
	if p := c.cuedOnly(best, top); p != "" {
		best = p
	}
	// A leader whose answer names some of what the head asks for yields to a finalist whose
	// answer names all of it and more, and one whose answer names none of it to a finalist
	// with an output the whole head names (see namesMoreOfHead): "What's the nightly rate at
	// the best hotel in Seville?" is the hotel finder whose answer has a nightly_rate, not the
	// best-rated restaurant near the hotel, whose rating alone is a "rate".
	if p := c.namesMoreOfHead(best, top); p != "" {
		best = p
	}
	// A leader that takes what the question asks for ("Which league is Juventus in?" of a
	// league table) is not its answer, however far ahead: it would need the very value the
	// request wants. The best finalist that produces it answers.
	if p := c.producerOfAsked(best, top); p != "" {
		best = p
	}
	// A leader that needs a value nothing gives (the request states none, no API produces
	// it) would have to ask for it. A finalist that feeds it and runs on what the request
	// states answers instead, unless the request asks for an output only the leader gives:
	// "Where can I stay in Kyoto?" is the hotel search, not a stay's price, which needs an
	// arrival day nobody said; "the price per night of the best hotel" keeps the price.
	if c.needsUnsaid(best) {
		for _, p := range top {
			if c.rival(p, best) && links.Feeds(p, best) && c.statesAll(p) && !givesOnly(asked, links, best, p) {
				best = p
				break
			}
		}
	}
	// A leader that needs a value the request does not state yields to a sibling of its
	// provider, neither feeding the other, that runs on the request's values alone and takes
	// a number or a code the leader does not: a stated value is there to be used. "Show me
	// houses for sale near 40.7128, -74.0060" is the listing search, which takes the point,
	// not the market statistics of the city a reverse geocoder would find there.
	if own := c.provider(best); own != "" && !c.statesAll(best) {
		for _, p := range top {
			if c.rival(p, best) && c.provider(p) == own && !links.Feeds(p, best) && !links.Feeds(best, p) &&
				c.statesAll(p) && takesMore(whole.Text, links, p, best) {
				best = p
				break
			}
		}
	}
	// A leader that looks up one thing by an id the request does not state yields to the
	// list of its resource that gives the id and tells all the lookup tells: "I need the
	// build hook URL for my marketing-site" reads the site's build hooks, URLs and all, and
	// looking one of them up again by its id adds nothing (see listTellingAll).
	if p := c.listTellingAll(best, top); p != "" {
		best = p
	}
	// A leader that lists the item the request names ("the Marketing Ops group") picks it for
	// the candidate that reads the part the request asks of it (see itemsPart).
	if p := c.itemsPart(best); p != "" {
		best = p
	}
	// A leader that needs an item the request neither names nor states, of a collection some
	// candidate lists, yields to a sibling that needs only items it names or states (see
	// pickingOnlyNamed): "Show me all the public channels in our "Support Desk" chat
	// service" lists the service's channels, not the channels of a user nobody named.
	if p := c.pickingOnlyNamed(best, top); p != "" {
		best = p
	}
	return best
}

// pickingOnlyNamed is the best rival of top, of best's service, that picks an item of a
// collection whose item the request names (namedItems) and of no other collection a candidate
// lists unless the request states its value, where best picks one the request neither names
// nor states; "" where best picks none such or no rival does.
func (c *choice) pickingOnlyNamed(best string, top []string) string {
	if len(c.itemKeys) == 0 {
		return ""
	}
	lists := listKeys(c.links, c.names)
	unnamed := func(api string) (n int, picksNamed bool) {
		a, _ := c.links.API(api)
		stated := statedInputs(c.whole.Text, c.links, api)
		for _, in := range a.Inputs {
			k := twnm.PickKey(a, in.Name)
			if !in.Required || k == "" || !lists[k] {
				continue
			}
			if c.itemKeys[k] {
				picksNamed = true
			} else if !stated[in.Name] {
				n++
			}
		}
		return n, picksNamed
	}
	if n, _ := unnamed(best); n == 0 {
		return ""
	}
	for _, p := range top {
		if !c.rival(p, best) || c.provider(p) != c.provider(best) {
			continue
		}
		if n, picks := unnamed(p); n == 0 && picks {
			return p
		}
	}
	return ""
}

// itemsPart is the best candidate that does the request's action to a part of one item of
// the collection best lists, where the request names that item (itemKeys): "Who's in the
// Marketing Ops group?" picks the group from the list of groups and reads its memberships.
// A read must tell more than the list (its outputs' words; a lookup of the item itself tells
// nothing more), and the part lie within best's resource (sameResource). "" where best lists
// nothing the request names an item of, or no candidate does that.
func (c *choice) itemsPart(best string) string {
	lead, _ := c.links.API(best)
	key := twnm.ListKey(lead)
	if key == "" || !c.itemKeys[key] {
		return ""
	}
	text, _, listed := terms(c.links, best)
	for _, p := range c.names {
		a, ok := c.links.API(p)
		if p == best || !ok || c.mismatch[p] || !sameResource(lead, a) || !c.links.Feeds(best, p) || !needs(c.links, p, best) {
			continue
		}
		if _, _, outputs := terms(c.links, p); APIAction(a) != ActionRead || anyBeyond(outputs, outputs, slices.Concat(text, listed)) {
			return p
		}
	}
	return ""
}

// namedItem is an item the request names for an input that picks one (extract.Items).
type namedItem struct{ api, input, item string }

// itemsOf returns the items r's request names for the inputs of its candidates that links
// hold (namedItems).
func itemsOf(r *Result, links Links) []namedItem {
	return namedItems(r.Whole().Text, links, slices.Sorted(maps.Keys(r.Relevance())))
}

// namedItems returns the items text names for the inputs of the APIs of names that links
// hold, by API and input.
func namedItems(text string, links Links, names []string) []namedItem {
	var apis []twnm.API
	for _, name := range names {
		if a, ok := links.API(name); ok {
			apis = append(apis, a)
		}
	}
	var out []namedItem
	for k, item := range extract.Items(text, extract.SlotsOf(apis), nil) {
		i := strings.LastIndexByte(k, '.') // API names may hold dots; parameter names do not
		out = append(out, namedItem{api: k[:i], input: k[i+1:], item: item})
	}
	slices.SortFunc(out, func(a, b namedItem) int {
		return cmp.Or(strings.Compare(a.api, b.api), strings.Compare(a.input, b.input))
	})
	return out
}

// listTellingAll is the finalist of top, of no other action than the request's, that produces
// an identifier best takes and the request does not state, on best's own resource
// (sameResource: GET /sites/{site_id}/build_hooks beside GET /sites/{site_id}/build_hooks/{id}),
// and that gives every output best gives (by the words of their names); "" where there is
// none, and "" where best is no read. A list of another resource that happens to give the
// same words is another thing: the movies similar to a film are not the film the search finds.
func (c *choice) listTellingAll(best string, top []string) string {
	ids := slices.DeleteFunc(c.unstated(best), func(in string) bool { return !twnm.Identifier(in) })
	_, _, outputs := terms(c.links, best)
	lead, _ := c.links.API(best)
	// Only a lookup is told by a list: a leader that changes what it picks ("restore the
	// deploy") does what no list does.
	if len(ids) == 0 || len(outputs) == 0 || lead.CallEffect() != twnm.EffectRead {
		return ""
	}
	for _, need := range c.links.Producers(best) {
		if !slices.ContainsFunc(need.Inputs, func(in string) bool { return slices.Contains(ids, in) }) {
			continue
		}
		for _, p := range top {
			if p == best || c.mismatch[p] || !slices.ContainsFunc(need.Producers, func(pr Producer) bool { return pr.Name == p }) {
				continue
			}
			la, _ := c.links.API(p)
			if _, _, listed := terms(c.links, p); sameResource(lead, la) && !anyBeyond(outputs, outputs, listed) {
				return p
			}
		}
	}
	return ""
}

// Background reports whether clause g only says what the request is about: its form states
// no task (subgoal.Goal.Tentative: "It's in service IS33cc…" after "Who's actually in the
// 'Weekend Volunteers' channel?") where another relevant clause states one. It chooses no
// final step, its best tool joins no chain, and the values it states are the whole request's,
// not one part's.
func (r *Result) Background(g Goal) bool {
	return g.Tentative && slices.ContainsFunc(r.Goals, func(o Goal) bool { return !o.Whole && o.Relevant && !o.Tentative })
}

// PartOf is the text of the part of the request that api serves: of a compound request, the
// clause that ranks it highest, with the clause before where a pronoun of it refers back
// ("who's their top scorer" after "who leads Ligue 1"); else the whole request. The roles a
// producer's output adds are those this part says: "who leads the Eredivisie" makes no
// league leader of the team in "when do Ajax play next".
func (r *Result) PartOf(api string) string {
	// Every clause counts, relevant or not: a part the encoder cannot place ("who leads the
	// Eredivisie") still says what it says to no other part.
	var clauses []Goal
	for _, g := range r.Clauses() {
		if len(g.Candidates) > 0 {
			clauses = append(clauses, g)
		}
	}
	if len(clauses) < 2 {
		return r.Whole().Text
	}
	best, at := 0.0, -1
	for i, g := range clauses {
		for _, m := range g.Candidates {
			if rel := m.Score / g.Candidates[0].Score; m.Name == api && rel > best {
				best, at = rel, i
			}
		}
	}
	if at < 0 {
		return r.Whole().Text
	}
	text := clauses[at].Text
	if at > 0 && (clauses[at].Resolved != "" || subgoal.RefersBack(text)) {
		text = clauses[at-1].Text + " " + text
	}
	return text
}

// rival reports whether finalist p may take best's place in a move: another candidate that
// does the request's action and scores at least ConsumerRatio of best.
func (c *choice) rival(p, best string) bool {
	return p != best && !c.mismatch[p] && c.final[p] >= c.o.ConsumerRatio*c.final[best]
}

// needsUnsaid reports whether api requires an input that the request states no value for and
// no API produces.
func (c *choice) needsUnsaid(api string) bool {
	produced := map[string]bool{}
	for _, n := range c.links.Producers(api) {
		for _, in := range n.Inputs {
			produced[in] = true
		}
	}
	return slices.ContainsFunc(c.unstated(api), func(in string) bool { return !produced[in] })
}

// statesAll reports whether the request states every required input of api.
func (c *choice) statesAll(api string) bool {
	_, ok := c.links.API(api)
	return ok && len(c.unstated(api)) == 0
}

// unstated returns the required inputs of api that the request states no value for.
func (c *choice) unstated(api string) []string {
	a, _ := c.links.API(api)
	stated := statedInputs(c.whole.Text, c.links, api)
	var out []string
	for _, p := range a.Inputs {
		if p.Required && !stated[p.Name] {
			out = append(out, p.Name)
		}
	}
	return out
}

// producerOfAsked is the best of top that produces a required input of best that the
// request asks for (see extract.Asked), "" where best takes none or no finalist produces it.
func (c *choice) producerOfAsked(best string, top []string) string {
	asked := askedInputs(c.whole.Text, c.links, best)
	if len(asked) == 0 {
		return ""
	}
	for _, need := range c.links.Producers(best) {
		if !slices.ContainsFunc(need.Inputs, func(in string) bool { return asked[in] }) {
			continue
		}
		for _, p := range top {
			if p != best && !c.mismatch[p] && slices.ContainsFunc(need.Producers, func(pr Producer) bool { return pr.Name == p && !pr.Circular }) {
				return p
			}
		}
	}
	return ""
}

// bindProducers binds the final step's required inputs that the request leaves to other tools
// by the producer it favours, and so on back (see Choose), and adds the other parts' best
// candidates that feed the chain. It returns the chain (best first), the producers, and their
// substitutes.
func (c *choice) bindProducers(best string) (chain, producers, substitutes []string) {
	links, whole, pool, asked := c.links, c.whole, c.pool, c.asked
	says := Says(c.r.PartOf(best))
	chain = []string{best}
	var bind func(api string, depth int)
	bind = func(api string, depth int) {
		stated := statedInputs(whole.Text, links, api)
		for _, need := range links.Producers(api) {
			if slices.ContainsFunc(need.Inputs, func(in string) bool { return stated[in] }) {
				continue // the request gives it
			}
			// An output that adds a role the request does not say gives another thing: the
			// league leader's team id is no team the request names (as graph search reads it).
			// A clock gives today, which the request dates its days from, not a value it
			// leaves unsaid (see Clock).
			need.Producers = slices.DeleteFunc(slices.Clone(need.Producers), func(p Producer) bool {
				a, _ := links.API(p.Name)
				return len(p.Role) > 0 && !slices.ContainsFunc(p.Role, says) || Clock(a)
			})
			p := pickProducer(plausible(issuers(need, links, api), c.provider, pool, links, api, whole.Text), pool, asked, links, api, whole.Text)
			if p.Name == "" || slices.Contains(chain, p.Name) {
				continue
			}
			producers = append(producers, p.Name)
			chain = append(chain, p.Name)
			// Another producer that takes what the request states, and that the
			// request retrieved, could as well give it: the recombination's first
			// alternative, ranked after the chain.
			for _, o := range need.Producers {
				if o.Name != p.Name && !o.Circular && pool[o.Name] > 0 && grounded(whole.Text, links, o.Name, api) {
					substitutes = append(substitutes, o.Name)
				}
			}
			// The producer's own inputs that the request does not state come from
			// further back: the hotel search's city from the reverse geocoder, when
			// the request gives a point.
			if depth < producerDepth {
				bind(p.Name, depth+1)
			}
		}
	}
	bind(best, 1)
	for _, g := range c.clauses {
		if len(g.Candidates) == 0 {
			continue
		}
		first := g.Candidates[0].Name
		if slices.Contains(chain, first) || c.r.Background(g) {
			continue
		}
		// A part's best tool joins the chain only where it does what the part asks: "who
		// are the members of the segment" creates no member, however well the creation
		// ranks and feeds the list.
		if changesUnasked(links, first, g.Text) {
			continue
		}
		for _, member := range chain {
			if links.Feeds(first, member) {
				chain = append(chain, first)
				break
			}
		}
	}
	return chain, producers, substitutes
}

// rank lists the final step, then the candidates of the request's parts (rankedParts), the
// producers and their substitutes after as many of them as the request has clauses.
func (c *choice) rank(best string, producers, substitutes []string) []string {
	ranked := []string{best}
	seen := map[string]bool{best: true}
	add := func(name string) {
		if !seen[name] {
			seen[name] = true
			ranked = append(ranked, name)
		}
	}
	var factor func(string) float64
	if c.rel != nil {
		factor = func(api string) float64 { return providerFactor(c.rel, c.provider(api), rankedContext) }
	}
	for i, name := range rankedParts(c.clauses, c.whole, factor) {
		if i == len(c.clauses) {
			for _, p := range slices.Concat(producers, substitutes) {
				add(p)
			}
		}
		add(name)
	}
	for _, p := range slices.Concat(producers, substitutes) {
		add(p)
	}
	return ranked
}

// wholeWeight is the weight of a candidate's score for the whole request beside its best score
// for a part of it, in the ranked list (see rankedParts).
const wholeWeight = 0.6

// rankedContext is the weight of a candidate's provider relevance in the ranked list (see
// rankedParts): twice the clauses' (DefaultContext), since the list weighs candidates of
// every part against each other, where a clause weighs alternatives for one part.
const rankedContext = 0.6

// rankedParts orders the candidates of a request's parts for the ranked list: by the best score
// a candidate has for a clause, plus wholeWeight times its score for the whole request, so that
// the best candidate of every clause comes before the others, and among those, one the whole
// request also asks for before one only a clause names ("we need content" in a request for
// news articles). A request of one part is ranked by its own scores. factor, when not nil,
// scales each candidate's score (by its provider's relevance). Ties are broken by name. The
// first places of a request of several clauses go to candidates unlike those before them (see
// diversify).
func rankedParts(clauses []Goal, whole Goal, factor func(api string) float64) []string {
	score := map[string]float64{}
	for _, g := range clauses {
		for _, c := range g.Candidates {
			score[c.Name] = max(score[c.Name], c.Score)
		}
	}
	w := wholeWeight
	if len(clauses) == 0 {
		w = 1
	}
	for _, c := range whole.Candidates {
		score[c.Name] += w * c.Score
	}
	if factor != nil {
		for name := range score {
			score[name] *= factor(name)
		}
	}
	if len(clauses) < 2 {
		return sortedBy(score)
	}
	return diversify(sortedBy(score), score, clauses)
}

// diversity is how much of its score a candidate gives up, in the ranked list, for being like
// one placed before it (see diversify).
const diversity = 0.3

// diverseTop is how many places of the ranked list diversify chooses.
const diverseTop = 10

// diversify reorders ranked, which score orders, by maximal marginal relevance: each of the
// first diverseTop places goes to the candidate with the highest score·(1 − diversity·likeness),
// its likeness the highest cosine between its profile and those of the candidates placed
// before it; the others keep their order after them. A candidate's profile is its score in
// each clause (0 where the clause did not find it; a candidate no clause found is like none):
// ten QR code generators serve the clauses that ask for a QR code alike, and the second of them
// is worth less to a list that has the first than the best candidate for the die roll the
// request asks for too. Ties keep ranked's order.
func diversify(ranked []string, score map[string]float64, clauses []Goal) []string {
	profile := make(map[string][]float64, len(ranked))
	for i, g := range clauses {
		for _, c := range g.Candidates {
			p := profile[c.Name]
			if p == nil {
				p = make([]float64, len(clauses))
				profile[c.Name] = p
			}
			p[i] = max(p[i], c.Score)
		}
	}
	rest := slices.Clone(ranked)
	like := make(map[string]float64, len(ranked)) // to the candidates placed so far
	out := make([]string, 0, len(ranked))
	for len(out) < diverseTop && len(rest) > 0 {
		at, top := 0, math.Inf(-1)
		for i, name := range rest {
			if v := score[name] * (1 - diversity*like[name]); v > top {
				at, top = i, v
			}
		}
		placed := rest[at]
		out = append(out, placed)
		rest = slices.Delete(rest, at, at+1)
		if p := profile[placed]; p != nil {
			for _, name := range rest {
				if q := profile[name]; q != nil {
					like[name] = max(like[name], embed.Cosine(q, p))
				}
			}
		}
	}
	return append(out, rest...)
}

// Finalists lists the candidates by their score as the final step, the chosen final step
// first.
func (r *Result) Finalists() []string {
	if r.Final == "" {
		return nil
	}
	out := []string{r.Final}
	for _, name := range sortedBy(r.Scores) {
		if name != r.Final {
			out = append(out, name)
		}
	}
	return out
}

// asksFor reports whether the request asks for something of consumer beyond what producer
// gives: a word of the request in consumer's document that is neither in producer's nor one of
// consumer's input names. Words naming an input describe what flows into the consumer ("weather
// conditions" into a clothing recommendation), not what the request wants out of it.
func asksFor(asked []string, links Links, consumer, producer string) bool {
	text, inputs, _ := terms(links, consumer)
	ptext, _, _ := terms(links, producer)
	return anyBeyond(asked, text, slices.Concat(ptext, inputs))
}

// anyBeyond reports whether a word of words is among mine and not among skip.
func anyBeyond(words, mine, skip []string) bool {
	in, out := lexicon.Set(mine), lexicon.Set(skip)
	return slices.ContainsFunc(words, func(w string) bool { return in[w] && !out[w] })
}

// givesOnly reports whether a word of the request names an output of consumer that producer
// neither outputs nor holds in its document: "what amenities does the best hotel have" asks
// for the hotel details' amenities, which the hotel search does not give, and "when was the
// best listing in Amsterdam built?" for the listing details' year_built, though its head ends
// before the verb that asks it.
func givesOnly(words []string, links Links, consumer, producer string) bool {
	_, inputs, outputs := terms(links, consumer)
	ptext, _, poutputs := terms(links, producer)
	return anyBeyond(words, outputs, slices.Concat(ptext, poutputs, inputs))
}

// takesWhatIsAsked reports whether the words of the request that api's document matches all
// name inputs of api (one at least) and none names an output it yields (see yields): the
// request names what api takes, not what it gives.
func takesWhatIsAsked(asked []string, links Links, api string) bool {
	text, inputs, _ := terms(links, api)
	in, out, doc := lexicon.Set(inputs), lexicon.Set(yields(links, api, nil)), lexicon.Set(text)
	matched := false
	for _, w := range asked {
		switch {
		case out[w]:
			return false
		case doc[w] && !in[w]:
			return false
		case doc[w] || in[w]:
			matched = true
		}
	}
	return matched
}

// gives reports whether a word of the request names an output of api, words that name an input
// the request states included (see yields): the record api answers with is about it. The
// episode details echo the season and episode numbers "the third episode of the second season"
// states, and are about that episode; asked "how many episodes" a show has, without a number,
// they give none, where the show's details give their number.
func gives(asked []string, links Links, api, request string) bool {
	return anyBeyond(asked, yields(links, api, statedInputs(request, links, api)), nil)
}

// findsOnlyItsSubject reports whether producer only finds the thing consumer is about: every
// word of the request that producer gives names an identifier input of consumer
// (twnm.Identifier), and consumer gives something producer does not. "Does the top hotel in
// Dubai have a pool?" names the hotel that the search finds and the details take by its id,
// and only the details tell its amenities. "What are the latitude and longitude of Toronto?"
// asks for the geocoder's outputs, which its reverse takes as plain values, and a DNS
// record's lookup by id tells nothing the list of records does not. A request that asks for
// the things themselves asks for what the search finds (asksForThem).
func findsOnlyItsSubject(asked []string, links Links, producer, consumer, request string) bool {
	a, ok := links.API(consumer)
	if !ok {
		return false
	}
	var ids []twnm.Param
	for _, in := range a.Inputs {
		if twnm.Identifier(in.Name) {
			ids = append(ids, in)
		}
	}
	idWords := paramWords(ids)
	if anyBeyond(asked, yields(links, producer, statedInputs(request, links, producer)), idWords) || asksForThem(request, idWords) {
		return false
	}
	_, _, outputs := terms(links, consumer)
	ptext, _, poutputs := terms(links, producer)
	return anyBeyond(outputs, outputs, slices.Concat(ptext, poutputs))
}

// asksForThem reports whether request asks for the things one of words names (tokens, as
// bm25.Tokens reads them): in the plural ("Find tracks by Amy Winehouse" asks for the tracks,
// which a lookup of one track by its id does not give), or right after a question word
// ("Which team leads La Liga?" asks for a team, not for what a team's lookup tells).
func asksForThem(request string, words []string) bool {
	set := lexicon.Set(words)
	raw := strings.FieldsFunc(strings.ToLower(request), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '’' })
	for i, w := range raw {
		t := bm25.Tokens(w)
		if len(t) != 1 || !set[t[0]] {
			continue
		}
		if t[0] != w && strings.HasSuffix(w, "s") || i > 0 && subgoal.QuestionWord(raw[i-1]) {
			return true
		}
	}
	return false
}

// answers reports whether a word of the request names an output api yields, no word that
// names an input (see yields): what the request asks for may come out of api.
func answers(asked []string, links Links, api string) bool {
	return anyBeyond(asked, yields(links, api, nil), nil)
}

// yields are the words of the names of api's outputs but those that name one of its inputs,
// unless keep holds the input: they say what api was given, not what it yields. A geocoder's
// "city", the city it was given, tells "what city is at 40.4, -3.7" nothing the request does
// not state, while the reverse geocoder's does; the hotel of a hotel's details' hotel_name is
// the hotel they take by its id, and "what hotels are there" asks for the search that finds
// one.
func yields(links Links, api string, keep map[string]bool) []string {
	a, ok := links.API(api)
	if !ok {
		return nil
	}
	given := map[string]bool{}
	for _, in := range a.Inputs {
		if !keep[in.Name] {
			for _, w := range paramWords([]twnm.Param{in}) {
				given[w] = true
			}
		}
	}
	out := paramWords(a.Outputs)
	// A list is named by what its description says it lists: a search's "results" are
	// "Tracks of the artist".
	for _, o := range a.Outputs {
		if o.Type == "array" {
			out = append(out, bm25.Tokens(o.Description)...)
		}
	}
	return slices.DeleteFunc(out, func(w string) bool { return given[w] })
}

// terms are the words of api's tool document (name and description), of its input names and
// of its output names; names are read as concepts read them (lat is latitude).
func terms(links Links, api string) (text, inputs, outputs []string) {
	a, ok := links.API(api)
	if !ok {
		return nil, nil, nil
	}
	return twnm.APIDocument(a).Fields[bm25.FieldText], paramWords(a.Inputs), paramWords(a.Outputs)
}

// paramWords are the words of the names of ps, read as concepts read them (lat is latitude).
func paramWords(ps []twnm.Param) []string {
	var out []string
	for _, p := range ps {
		out = append(out, bm25.Tokens(strings.Join(twnm.ParamWords(p.Name), " "))...)
	}
	return out
}

// pickProducer is the producer of one of consumer's inputs the request favours. A circular
// producer is picked first when the request asks for something of it that its consumer does
// not give ("reviews of the movies similar to Titanic"). Otherwise a producer that can start
// the chain (not Circular) is preferred: first one that takes a value the request states and
// consumer does not (see grounded) and, if it changes state, that the request asks for (see
// asksFor); then one that does not change state (see changesState); then a circular one that
// does not either. Among those, the one with the best retrieval score wins, or the only one
// when none was retrieved. A producer that changes state and that the request does not ask
// for is never picked: the input stays unbound, and the run asks for it rather than create a
// folder to read a file's comments.
func pickProducer(producers []Producer, pool map[string]float64, asked []string, links Links, consumer, request string) Producer {
	pick := func(keep func(Producer) bool) Producer {
		var best Producer
		score, n, only := 0.0, 0, Producer{}
		for _, p := range producers {
			if !keep(p) {
				continue
			}
			n, only = n+1, p
			if s := pool[p.Name]; s > score || s == score && s > 0 && p.Name < best.Name {
				best, score = p, s
			}
		}
		if best.Name == "" && n == 1 {
			return only
		}
		return best
	}
	// A word that names a value the request states ("at latitude 25.2") does not ask for
	// what a circular producer gives: the geocoder that echoes a city's name and gives its
	// latitude is no producer of the city at a latitude.
	asking := withoutStated(asked, request, links, producers)
	if p := pick(func(p Producer) bool {
		return p.Circular && pool[p.Name] > 0 && asksFor(asking, links, p.Name, consumer)
	}); p.Name != "" {
		return p
	}
	if p := pick(func(p Producer) bool {
		return !p.Circular && grounded(request, links, p.Name, consumer) &&
			(!changesState(links, p.Name) || asksFor(asked, links, p.Name, consumer))
	}); p.Name != "" {
		return p
	}
	if p := pick(func(p Producer) bool { return !p.Circular && !changesState(links, p.Name) }); p.Name != "" {
		return p
	}
	return pick(func(p Producer) bool { return !changesState(links, p.Name) })
}

// issuers narrows need's producers to those of consumer's provider when need is an identifier
// and that provider has any: an id means something only to the service that issued it, so the
// club id of one football API does not find a team in another. Other values (a city, a
// latitude) may come from any provider.
func issuers(need Need, links Links, consumer string) []Producer {
	c, ok := links.API(consumer)
	if !ok || c.Provider == "" || !slices.ContainsFunc(need.Inputs, twnm.Identifier) {
		return need.Producers
	}
	var own []Producer
	for _, p := range need.Producers {
		if a, ok := links.API(p.Name); ok && a.Provider == c.Provider {
			own = append(own, p)
		}
	}
	if len(own) == 0 {
		return need.Producers
	}
	return own
}

// foreignRelevance is the retrieval score from which a producer of another provider than its
// consumer's is plausible without the request stating a value it takes (see plausible).
const foreignRelevance = 0.5

// plausible narrows producers of one of consumer's inputs to those the request makes
// plausible: one of consumer's own provider (or where either names none), or another
// provider's that takes a value the request states (see grounded) or that retrieval found for
// some part of the request, at foreignRelevance of that part's best at least. Across a large
// catalog, links between services join many values by a shared name alone (a "date" of parcel
// tracking into a date calculator, a candle's "c" into a colour's "b"): a chain through one
// that nothing in the request asks for is a guess, not a plan. A geocoder is still the weather's
// producer for "the weather in Paris", which states the city it takes.
func plausible(producers []Producer, provider func(api string) string, pool map[string]float64, links Links, consumer, request string) []Producer {
	own := provider(consumer)
	return slices.DeleteFunc(slices.Clone(producers), func(p Producer) bool {
		other := provider(p.Name)
		return own != "" && other != "" && other != own &&
			pool[p.Name] < foreignRelevance && !grounded(request, links, p.Name, consumer)
	})
}

// withoutStated returns the words of asked that name no required input of producers the
// request states a value for.
func withoutStated(asked []string, request string, links Links, producers []Producer) []string {
	names := make([]string, len(producers))
	for i, p := range producers {
		names[i] = p.Name
	}
	named := map[string]bool{}
	for key := range stated(request, links, names...) {
		_, in, _ := strings.Cut(key, "\x00")
		for _, w := range bm25.Tokens(strings.Join(twnm.ParamWords(in), " ")) {
			named[w] = true
		}
	}
	if len(named) == 0 {
		return asked
	}
	return slices.DeleteFunc(slices.Clone(asked), func(w string) bool { return named[w] })
}

// changesUnasked reports whether api changes state by another action than text asks for (see
// RequestAction): a part of the request joins no such call.
func changesUnasked(links Links, api, text string) bool {
	a, ok := links.API(api)
	return ok && ChangesState(a) && APIAction(a) != RequestAction(text)
}

// changesState reports whether api creates, updates or deletes what it acts on (see
// ChangesState): a value for another call is better read than made by one, which registers a
// user to get a token that logging in gives.
func changesState(links Links, api string) bool {
	a, ok := links.API(api)
	return ok && ChangesState(a)
}

// grounded reports whether the request states a value for a required input of producer that
// no required input of consumer takes: "the release date of The Matrix" names a movie that a
// movie search takes and the release dates do not, so the search produces the release dates'
// movie id, not the list of upcoming movies.
func grounded(request string, links Links, producer, consumer string) bool {
	values := stated(request, links, producer, consumer)
	taken := map[string]bool{}
	for key, v := range values {
		if api, _, _ := strings.Cut(key, "\x00"); api == consumer {
			taken[v] = true
		}
	}
	for key, v := range values {
		if api, _, _ := strings.Cut(key, "\x00"); api == producer && !taken[v] {
			return true
		}
	}
	return false
}

// statedInputs names the required inputs of api that the request states a value for: no
// producer is needed for them ("is the email 'jenny@yahoo.com' valid" gives the checker its
// address).
func statedInputs(request string, links Links, api string) map[string]bool {
	return inputsOf(stated(request, links, api))
}

// inputsOf names the inputs of values, keyed as stated keys them.
func inputsOf(values map[string]string) map[string]bool {
	out := map[string]bool{}
	for key := range values {
		_, in, _ := strings.Cut(key, "\x00")
		out[in] = true
	}
	return out
}

// askedInputs names the required inputs of api that the request asks for rather than states
// (see extract.Asked).
func askedInputs(request string, links Links, api string) map[string]bool {
	out := map[string]bool{}
	for key := range extract.Asked(request, requiredSlots(links, api)) {
		_, in, _ := strings.Cut(key, "\x00")
		out[in] = true
	}
	return out
}

// stated returns the values the request states for the required inputs of apis, keyed by
// API name and input name joined by a NUL, as extract.Values reads them.
func stated(request string, links Links, apis ...string) map[string]string {
	slots := requiredSlots(links, apis...)
	if len(slots) == 0 {
		return nil
	}
	return extract.Values(request, slots)
}

// requiredSlots are the slots of the required inputs of apis, keyed by API name and input name
// joined by a NUL.
func requiredSlots(links Links, apis ...string) []extract.Slot {
	var slots []extract.Slot
	for _, api := range apis {
		a, ok := links.API(api)
		if !ok {
			continue
		}
		for _, p := range a.Inputs {
			if p.Required {
				slots = append(slots, extract.SlotOf(api+"\x00"+p.Name, p))
			}
		}
	}
	return slots
}

// order sorts a chain so that producers come before their consumers; ties and cycles keep
// the given order, reversed so that the final step (first given) ends the chain.
func order(chain []string, links Links) []string {
	rest := make([]string, len(chain))
	for i, c := range chain {
		rest[len(chain)-1-i] = c
	}
	if links == nil {
		return rest
	}
	var out []string
	for len(rest) > 0 {
		pick := 0
		for i, c := range rest {
			free := true
			for j, p := range rest {
				if i != j && links.Feeds(p, c) && !links.Feeds(c, p) {
					free = false
					break
				}
			}
			if free {
				pick = i
				break
			}
		}
		out = append(out, rest[pick])
		rest = append(rest[:pick:pick], rest[pick+1:]...)
	}
	return out
}

func scores(g Goal) map[string]float64 {
	m := make(map[string]float64, len(g.Candidates))
	for _, c := range g.Candidates {
		m[c.Name] = c.Score
	}
	return m
}

// sortedBy lists the keys of m by descending value, ties by name.
func sortedBy(m map[string]float64) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if m[out[i]] != m[out[j]] {
			return m[out[i]] > m[out[j]]
		}
		return out[i] < out[j]
	})
	return out
}

// inContext rescores the candidates of each clause, and of the head, by how relevant their
// provider is to the whole request (see providerRelevance): a clause is read in the context
// of the request it is part of ("suggestions for improvement" of a web page's speed come from
// the page analyser's service, not a video site's). A candidate's score becomes
// s·(1 − w + w·relevance), renormalised so that the clause's best has 1. A catalog whose APIs
// name no provider, or one, is unchanged. named holds the providers a stated value or a named
// item names (see named), which take the whole relevance where there are any. It returns the
// providers' relevance, nil when unchanged.
func inContext(r *Result, provider func(api string) string, w float64, named map[string]bool) map[string]float64 {
	if w <= 0 {
		return nil
	}
	rel := providerRelevance(r, provider, named)
	if len(rel) < 2 {
		return nil
	}
	for _, g := range r.editable() {
		if g.Whole || len(g.Candidates) == 0 {
			continue
		}
		cs := rescaled(g.Candidates, func(m Match) float64 { return providerFactor(rel, provider(m.Name), w) })
		g.Alone, g.Candidates = g.Candidates, cs
	}
	return rel
}

// providerOf looks up an API's provider: as the sources gave it with r's candidates, else as
// links know it ("" when neither does, or it names none). A store's subgraph read holds the
// best candidates only: the others' providers come with them.
func providerOf(r *Result, links Links) func(api string) string {
	known := map[string]string{}
	for _, g := range r.parts() {
		for _, c := range g.Candidates {
			if c.Provider != "" {
				known[c.Name] = c.Provider
			}
		}
	}
	return func(api string) string {
		if p, ok := known[api]; ok {
			return p
		}
		a, _ := links.API(api)
		return a.Provider
	}
}

// providerFactor scales a score by the relevance of its API's provider: 1 − w + w·relevance;
// 1 for an API that names no provider, or without relevance (rel nil: one provider).
func providerFactor(rel map[string]float64, p string, w float64) float64 {
	if rel == nil || p == "" {
		return 1
	}
	return 1 - w + w*rel[p]
}

// serves is the score from which a clause's candidate counts as serving that clause, for its
// provider's relevance (see providerRelevance).
const serves = 0.8

// coverWeight weighs, in a provider's relevance, the clauses it serves.
const coverWeight = 0.5

// providerRelevance is how relevant each provider is to the whole request: its best
// candidate's score for the whole request, plus coverWeight times the sum of its best scores
// in the clauses it serves (where one of its APIs scores at least serves, as the clause alone
// ranks them), scaled so that the most relevant has 1. A service that several parts of a
// request ask for is more likely the one the request is about than one that matches a
// single part as well: "fetch the invite data for this code, and the username and avatar of
// the user with this ID" asks twice of a chat service's lookup, once of a photo site's user
// search.
//
// A value the request states, or an item it names, names its provider more surely than any
// word (named): where one does, the providers it names have relevance 1 and the others 0, so
// that a request about Twilio's chat service IS5bc… is not answered by another service's
// roles.
func providerRelevance(r *Result, provider func(api string) string, named map[string]bool) map[string]float64 {
	rel := map[string]float64{}
	for _, c := range r.Whole().Candidates {
		if p := provider(c.Name); p != "" {
			rel[p] = max(rel[p], c.Score)
		}
	}
	clauses := r.Clauses()
	if len(clauses) < 2 {
		clauses = nil // a clause alone would only echo its own preference
	}
	for _, g := range clauses {
		cs := g.Alone
		if cs == nil {
			cs = g.Candidates
		}
		best := map[string]float64{}
		for _, c := range cs {
			if c.Score < serves {
				break
			}
			if p := provider(c.Name); p != "" {
				best[p] = max(best[p], c.Score)
			}
		}
		for p, s := range best {
			rel[p] += coverWeight * s
		}
	}
	top := 0.0
	for _, v := range rel {
		top = max(top, v)
	}
	if top > 0 {
		for p := range rel {
			rel[p] /= top
		}
	}
	// A value the request states that only some providers' inputs take, or an item only they
	// list, names them: they are what the request is about, whatever other services its words
	// match.
	if len(named) > 0 {
		for p := range rel {
			rel[p] = 0
			if named[p] {
				rel[p] = 1
			}
		}
	}
	return rel
}

// agreeing is how many of a part's candidates nearest it by meaning must do one action for
// the part to ask for it where its words name none (see agreedAction). Only the public dev
// set moves over 2–3 (its chains +2.8 at either); 3 asks more of the encoder.
const agreeing = 3

// agreedAction is the action the k candidates of g nearest it by meaning (their dense
// similarity) all do, ActionUnknown where fewer than k are held or they do not agree. A part
// that names no action (RequestAction) may still ask for one the catalog's tools do: "Please
// revoke it before they accept" is nearest three deletions, whatever verb a word list lacks.
// The encoder reads the part against each tool's own words, and the tools' action is their
// own (APIAction: their name, method or effect), not the request's words.
func agreedAction(g Goal, links Links, k int) Action {
	cs := slices.Clone(g.Candidates)
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].Dense > cs[j].Dense })
	agreed, n := ActionUnknown, 0
	for _, m := range cs {
		if n == k || m.Dense <= 0 {
			break
		}
		a, ok := links.API(m.Name)
		if !ok {
			continue
		}
		act := APIAction(a)
		if act == ActionUnknown || n > 0 && act != agreed {
			return ActionUnknown
		}
		agreed, n = act, n+1
	}
	if n < k {
		return ActionUnknown
	}
	return agreed
}

// commandedAction is the action of g's best candidate where it is also the candidate nearest
// g by meaning (the highest dense similarity), ActionUnknown otherwise. g is a command whose
// verb names no action (subgoal.Imperative: "queue up Mr. Brightside by The Killers", "put
// the site back on the deploy built from commit 9f2c4e1"): it asks for what its verb does,
// and where its words and the encoder agree on the tool, that tool's action is the one asked
// for, a write as well as a read. Where they do not ("revoke it" ranked first by its words an
// invitation, which the encoder does not place first), the command says nothing of its action.
func commandedAction(g Goal, links Links) Action {
	if len(g.Candidates) == 0 {
		return ActionUnknown
	}
	lead := g.Candidates[0]
	if lead.Dense <= 0 || slices.ContainsFunc(g.Candidates[1:], func(m Match) bool { return m.Dense > lead.Dense }) {
		return ActionUnknown
	}
	a, ok := links.API(lead.Name)
	if !ok {
		return ActionUnknown
	}
	return APIAction(a)
}

// namedByValue returns the providers a value the request states names: one that a telling
// pattern of an input of theirs reads (extract.Telling). "chat service IS5bc…" is Twilio's,
// whose service ids match ^IS[0-9a-fA-F]{32}$, however many other services have a service.
func namedByValue(r *Result, links Links, provider func(api string) string) map[string]bool {
	tells := extract.Telling(r.Whole().Text)
	named := map[string]bool{}
	for name := range r.Relevance() {
		p := provider(name)
		if p == "" || named[p] {
			continue
		}
		a, ok := links.API(name)
		if !ok {
			continue
		}
		if slices.ContainsFunc(a.Inputs, func(in twnm.Param) bool { return tells(in.Pattern) }) {
			named[p] = true
		}
	}
	return named
}

// named returns the providers the request names by what it states: a value only their
// inputs read (namedByValue), else an item of a collection only they list (namedByItem). A
// value's shape is the surer sign: "Dev Patel" in "What role is Dev Patel assigned in chat
// service IS…" may be anybody's user, the service IS… is Twilio's.
func named(r *Result, links Links, provider func(api string) string, items []namedItem) map[string]bool {
	if byValue := namedByValue(r, links, provider); len(byValue) > 0 {
		return byValue
	}
	return namedByItem(r, items, provider)
}

// namedByItem returns the providers whose inputs pick one of items, the items the request
// names by the word of their collection (itemsOf): "my bakery-landing site" is one of
// Netlify's sites, and "the Acme Community chat service" one of Twilio's services, whatever
// other services' words the request matches.
func namedByItem(r *Result, items []namedItem, provider func(api string) string) map[string]bool {
	// A service's own name is no item of another's: "our Twilio account" names Twilio, not an
	// account of a service that lists accounts.
	services := map[string]bool{}
	for name := range r.Relevance() {
		for _, w := range bm25.Tokens(provider(name)) {
			services[w] = true
		}
	}
	byItem := map[string]bool{}
	for _, n := range items {
		if slices.ContainsFunc(bm25.Tokens(n.item), func(w string) bool { return services[w] }) {
			continue
		}
		if p := provider(n.api); p != "" {
			byItem[p] = true
		}
	}
	return byItem
}

// Parts are a compound request's parts beside the one a chain serves (see Branches).
type Parts struct {
	// Own is the clause the chain serves; empty for a request of one clause.
	Own string
	// Branches are the other parts, in the request's order.
	Branches []Branch
}

// Branch is another part of a compound request: the API that answers it and the clause that
// asks for it.
type Branch struct {
	API    string
	Clause string
	// About is the clause before Clause when Clause's pronoun stands for what that one asks
	// about ("where is it exactly" after "how many stars does the best hotel in Lisbon
	// have"; see subgoal.Goal.Resolved), empty otherwise: the part is about the same thing.
	About string
	// Tentative marks a clause whose form states no task (subgoal.Goal.Tentative): "I'm
	// watching the tv series The Last Of Us" says what the request is about, and asks nothing
	// the run must answer.
	Tentative bool
}

// Names returns the branches' APIs, in order; nil when there are none.
func (p Parts) Names() []string {
	var out []string
	for _, b := range p.Branches {
		out = append(out, b.API)
	}
	return out
}

// Allows reports whether the branch of api may give value to one of its calls: any value to
// a call of its own, and to a call the plan makes too (shared) only a value both their
// clauses state, as written, since one call then serves both. "What is the weather in Paris,
// and the air quality in Rome?" states each city in one clause only, so the two parts cannot
// share a geocoder; "the best restaurant near the centre of Dubai, and the best hotel in
// Dubai" can. (A value the request writes otherwise, a date read as 2023-03-16, is not shared.)
// A clause whose pronoun stands for what the clause before asks about states what that one
// states: "how many stars does the best hotel in Lisbon have, and where is it exactly?" asks
// both of one hotel search.
//
// A branch that asks for something (not Tentative) may also share a value with a plan's clause
// that names no other value of its shape (a name, a number): "How cold is it in Oslo right
// now, and what is the air quality there?" names the city once, and both parts are about it.
func (p Parts) Allows(api, value string, shared bool) bool {
	for _, b := range p.Branches {
		if b.API == api {
			return !shared || (statesValue(b.Clause, value) || statesValue(b.About, value)) &&
				(statesValue(p.Own, value) || !b.Tentative && namesNoOther(p.Own, value))
		}
	}
	return false
}

// namesNoOther reports whether clause states no value of value's shape (a name, a number)
// other than value: what it asks about can only be value.
func namesNoOther(clause, value string) bool {
	shape := func(v string) [2]bool {
		r, _ := utf8.DecodeRuneInString(v)
		return [2]bool{writtenInDigits(v), unicode.IsUpper(r)}
	}
	return value != "" && !slices.ContainsFunc(subgoal.Values(clause), func(v string) bool {
		return shape(v) == shape(value) && !strings.EqualFold(v, value)
	})
}

// Answers reports whether an API of apis gives what text asks for: a word of text names one
// of its outputs (see yields). A part of the request that a chain answers so is served by it:
// "what is their phone number", after "who is the estate agent for the best home for sale in
// Toronto", is the agent's details' phone, whatever tool the part's own words rank first.
func Answers(text string, links Links, apis []string) bool {
	asked := bm25.Tokens(text)
	return slices.ContainsFunc(apis, func(api string) bool { return answers(asked, links, api) })
}

// statesValue reports whether text states value: it holds it as written, case aside.
func statesValue(text, value string) bool {
	return value != "" && strings.Contains(strings.ToLower(text), strings.ToLower(value))
}

// Branches finds the other parts of a compound request, given the APIs of the chain that
// serves it so far: the final step of each relevant clause, in the request's order, each
// once, unless the chain holds it already. A clause's final step is its best candidate, or
// with links the one Choose picks among its candidates as if the clause were the request
// ("book a table at the best-rated restaurant near …" ends at the booking, which consumes the
// restaurant search that the clause's words rank first). One clause is the chain's own (Own),
// the one where a chain API scores best against the clause's best candidate, and has none. A
// search from each branch, joined to the chain's, covers what the request asks beside it
// ("recommend movies from my preferences and filter out those I have watched"). With links, a
// clause whose final step changes state without the clause asking for that change (see
// Action) has none: "who owns server 8138…" deletes no user. A request of one clause has none.
func (r *Result) Branches(chain []string, links Links, o Options) Parts {
	var clauses []Goal
	about := map[string]string{} // a clause's text → the clause its pronoun refers to
	all := r.Clauses()
	for i, g := range all {
		if g.Relevant && len(g.Candidates) > 0 {
			clauses = append(clauses, g)
		}
		if i > 0 && g.Resolved != "" {
			about[g.Text] = all[i-1].Text
		}
	}
	if len(clauses) < 2 {
		return Parts{}
	}
	// The chain serves the clause its steps rank highest; between clauses it serves alike, the
	// one that ranks its final step highest ("what do guests say about the best hotel", not
	// "how much does a stay at the best hotel cost", for the search and its reviews).
	cover, last := make([]float64, len(clauses)), make([]float64, len(clauses))
	final := ""
	if slices.Contains(chain, r.Final) {
		final = r.Final
	}
	own := 0
	for i, g := range clauses {
		for _, c := range g.Candidates {
			if slices.Contains(chain, c.Name) {
				cover[i] = max(cover[i], c.Score/g.Candidates[0].Score)
			}
			if c.Name == final {
				last[i] = c.Score / g.Candidates[0].Score
			}
		}
		if cover[i] > cover[own] || cover[i] == cover[own] && last[i] > last[own] {
			own = i
		}
	}
	out := Parts{Own: clauses[own].Text}
	// The remarks the request ends with ("Need something for the gym.") ask for no call of
	// their own either (see remarkShare); a weak part before a strong one is a part ("How
	// cold is it in Oslo right now, and what is the air quality there?"), and so is a question
	// ("… And which league does Borussia Dortmund play in?").
	top, end := 0.0, len(clauses)
	for _, g := range clauses {
		top = max(top, g.Best)
	}
	for end > 1 && clauses[end-1].Best < remarkShare*top && !question(clauses[end-1].Text) {
		end--
	}
	// The services the request names by a value or an item (named) are those of each part:
	// "… and what permissions does each one have?" asks of the roles of the chat service the
	// request names, not of another service's projects.
	var provider func(api string) string
	var names map[string]bool
	if links != nil {
		provider = providerOf(r, links)
		names = named(r, links, provider, itemsOf(r, links))
	}
	for i, g := range clauses[:end] {
		// A part whose form states no task (subgoal.Goal.Tentative: "I'm auditing credentials.",
		// "I found channel 1045…") sets the scene for the others and joins no call of its own,
		// unless it opens with the verb a tool is named by ("Query meeting of John").
		if i == own || g.Tentative && !actsAs(g) {
			continue
		}
		c := g.Candidates[0].Name
		if links != nil {
			// The part as if it were the request: its candidates as it alone ranks them, not
			// read in the context of the whole request, which is mostly about the other parts.
			part := g
			part.Whole = true
			if part.Alone != nil {
				part.Candidates, part.Alone = part.Alone, nil
			}
			if len(names) > 0 {
				if own := slices.DeleteFunc(slices.Clone(part.Candidates), func(m Match) bool { return !names[provider(m.Name)] }); len(own) > 0 {
					part.Candidates = own
				}
			}
			sub := &Result{Goals: []Goal{part}, Focus: g.Head}
			if g.Order == all[len(all)-1].Order && r.Focus != nil {
				head := *r.Focus // its candidates as it alone ranks them, as the part's
				if head.Alone != nil {
					head.Candidates, head.Alone = head.Alone, nil
				}
				sub.Focus = &head
			}
			if err := Choose(sub, links, o); err == nil && sub.Final != "" {
				c = sub.Final
			}
			// A part joins no call that changes state unless it asks for that change: "who
			// owns server 8138…" deletes no user, however near a deletion its words rank.
			if changesUnasked(links, c, g.Text) {
				continue
			}
		}
		if slices.Contains(chain, c) || slices.ContainsFunc(out.Branches, func(b Branch) bool { return b.API == c }) {
			continue
		}
		// Nor does a part the chain already answers, where its own final step gives nothing
		// more that it asks for (toldBy): "… and how many build minutes have we used?" is
		// told by the account's build status the chain reads, not by a list of builds.
		if links != nil && toldBy(g.Text, links, chain, c) {
			continue
		}
		// A part joins only a tool the encoder found for it at all (among its dense hits): "Whose
		// server is that?" shares a word with an events API's options and nothing of its
		// meaning. Without dense scores (the Lexical ranker) nothing is read.
		if i := slices.IndexFunc(g.Candidates, func(m Match) bool { return m.Name == c }); i >= 0 && g.Candidates[i].Dense == 0 &&
			slices.ContainsFunc(g.Candidates, func(m Match) bool { return m.Dense != 0 }) {
			continue
		}
		out.Branches = append(out.Branches, Branch{API: c, Clause: g.Text, About: about[g.Text], Tentative: g.Tentative})
	}
	return out
}

// toldBy reports whether the APIs of chain give what text asks for (Answers) and every word of
// it that names an output of api (see yields) names one of theirs: api would tell text nothing
// more. "… and filter out the movies that the user has watched" asks for what the watched
// movies give, which recommendations, though they give movies, do not. A part that states a
// value is about that value ("… the weather right now at latitude 31.23, longitude 121.47",
// "… checking in on 2025-06-23"), which the chain was not given, and a change is made by its
// own call: neither is told.
func toldBy(text string, links Links, chain []string, api string) bool {
	if changesState(links, api) || len(subgoal.Values(text)) > 0 {
		return false
	}
	// What the chain's APIs yield, read once: Answers is a word of text among them.
	theirs := map[string]bool{}
	for _, p := range chain {
		for _, w := range yields(links, p, nil) {
			theirs[w] = true
		}
	}
	asked := bm25.Tokens(text)
	if !slices.ContainsFunc(asked, func(w string) bool { return theirs[w] }) {
		return false
	}
	mine := yields(links, api, nil)
	return !slices.ContainsFunc(asked, func(w string) bool { return slices.Contains(mine, w) && !theirs[w] })
}

// question reports whether a part of a request asks a question: it opens with a question
// word ("which league does …"); a request's own words say what it is asking for.
func question(text string) bool {
	f := strings.Fields(strings.ToLower(text))
	return len(f) > 0 && subgoal.QuestionWord(strings.Trim(f[0], ",.!?"))
}

// takesMore reports whether consumer takes a number the request states that producer does
// not take (by value): a stated value is there to be used ("how far can I get from Munich's main stop in
// 30 minutes" is the reachable area's, which takes the minutes, not the stop search's). Only
// numbers, values written in digits (a date, a time: writtenInDigits) and codes ("listing
// lst-0515bb06": extract.CodeShaped) count: they are read by their shape, where free text can
// be read into an input that merely shares a word ("the current weather conditions" is no
// clothing recommendation's weather_conditions). A consumer
// that changes state never takes the lead this way: "the best restaurant near the Dom for 4
// people" books nothing.
func takesMore(request string, links Links, consumer, producer string) bool {
	if changesState(links, consumer) {
		return false
	}
	// By value, not by name: a producer's lat takes the number a consumer's latitude would.
	theirs := map[string]bool{}
	for _, v := range stated(request, links, producer) {
		theirs[v] = true
	}
	a, _ := links.API(consumer)
	mine := stated(request, links, consumer)
	for _, p := range a.Inputs {
		v, ok := mine[consumer+"\x00"+p.Name]
		if ok && !theirs[v] && (extract.NumberType(p.Type) || writtenInDigits(v) || extract.CodeShaped(v)) {
			return true
		}
	}
	return false
}

// writtenInDigits reports whether v is written in digits and the marks between them (a date,
// a time, an amount): a value read by its shape, as a number is, never free text that shares
// a word with an input's name.
func writtenInDigits(v string) bool {
	digits := false
	for _, r := range v {
		switch {
		case unicode.IsDigit(r):
			digits = true
		case !strings.ContainsRune("-/:.,+T ", r):
			return false
		}
	}
	return digits
}

// needs reports whether producer gives one of consumer's required inputs: what the chain
// needs of it. A leader that feeds a finalist only an optional input (a listing's bedrooms, a
// property search's fewest beds) is not its producer, and the finalist is no step after it.
func needs(links Links, consumer, producer string) bool {
	for _, n := range links.Producers(consumer) {
		if slices.ContainsFunc(n.Producers, func(p Producer) bool { return p.Name == producer }) {
			return true
		}
	}
	return false
}

// sameResource reports whether two APIs act on one resource of one provider: their endpoints'
// paths, without the parameters, one within the other (/fine_tuning/jobs and
// /fine_tuning/jobs/{id}/cancel), or, without endpoints, their own names alike but for the
// first word, which names the action (AddMeeting, QueryMeeting).
func sameResource(a, b twnm.API) bool {
	if a.Provider != b.Provider {
		return false
	}
	if a.Endpoint != nil && b.Endpoint != nil && a.Endpoint.Path != "" && b.Endpoint.Path != "" {
		pa, pb := twnm.LiteralPath(a.Endpoint.Path), twnm.LiteralPath(b.Endpoint.Path)
		within := func(x, y string) bool { return x == y || strings.HasPrefix(x, y+"/") }
		return len(pa) > 0 && len(pb) > 0 && (within(pa, pb) || within(pb, pa))
	}
	ta, tb := bm25.Tokens(twnm.OwnName(a.Name)), bm25.Tokens(twnm.OwnName(b.Name))
	return len(ta) > 1 && len(tb) > 1 && slices.Equal(ta[1:], tb[1:])
}

// namesMoreOfHead is the best rival of top whose answer (see answerWords) names every word of
// the request's head that best's answer names and another word of it that best's document
// holds nowhere; "" where the request has no head or no rival's names more. A head asks for a
// thing, which is what an API answers with: an answer named by more of its words answers it
// better ("the star rating" of the hotel's stars, "Star rating, 2 to 5.", against the
// restaurant's "rating"). A word the leader's own description holds is no sign of that (the
// place whose name "What is the name of the place at …" asks), nor is a word that dates the
// head ("Tomorrow's forecast"; see subgoal.Timeless), which says when, not what. Where best's
// answer names none of the head's words, see outputNamed.
func (c *choice) namesMoreOfHead(best string, top []string) string {
	if c.focus == nil {
		return ""
	}
	head := bm25.Tokens(subgoal.Timeless(c.focus.Text))
	named := func(api string) map[string]bool {
		out := lexicon.Set(answerWords(c.links, api))
		m := map[string]bool{}
		for _, w := range head {
			if out[w] {
				m[w] = true
			}
		}
		return m
	}
	mine := named(best)
	if len(mine) == 0 {
		// A leader whose answer names nothing the head asks for yields only to a rival one
		// output of which the whole head names: "What's the home stadium of Ajax?" is the
		// team search's "stadium", "Home stadium.", not the homes for sale the word "home"
		// finds. A word or two of the head anywhere in a rival's answer is no such sign: moved
		// on one, the tool world's planned chains lost 2 points and the held-out public
		// specs' 2.2.
		for _, p := range top {
			if c.rival(p, best) && outputNamed(c.links, p, head) {
				return p
			}
		}
		return ""
	}
	text, _, _ := terms(c.links, best)
	held := lexicon.Set(text)
	for _, p := range top {
		if !c.rival(p, best) {
			continue
		}
		theirs := named(p)
		more, all := false, true
		for w := range theirs {
			more = more || !mine[w] && !held[w]
		}
		for w := range mine {
			all = all && theirs[w]
		}
		if more && all {
			return p
		}
	}
	return ""
}

// answerWords are the words an API answers with: those of its outputs (see outputWords) but
// those that name one of its inputs, which say what it was given (see yields).
func answerWords(links Links, api string) []string {
	a, ok := links.API(api)
	if !ok {
		return nil
	}
	given := lexicon.Set(paramWords(a.Inputs))
	var out []string
	for _, o := range a.Outputs {
		out = append(out, slices.DeleteFunc(outputWords(o), func(w string) bool { return given[w] })...)
	}
	return out
}

// outputWords are the words of an output's name, as concepts read them, and of its
// description ("stars": "Star rating, 2 to 5.").
func outputWords(o twnm.Param) []string {
	return append(paramWords([]twnm.Param{o}), bm25.Tokens(o.Description)...)
}

// outputNamed reports whether an output of api that is not an identifier (an id finds a
// thing, it does not tell of it) holds every word of words in its name or its description.
func outputNamed(links Links, api string, words []string) bool {
	a, ok := links.API(api)
	if !ok || len(words) == 0 {
		return false
	}
	return slices.ContainsFunc(a.Outputs, func(o twnm.Param) bool {
		held := lexicon.Set(outputWords(o))
		return !twnm.Identifier(o.Name) && !slices.ContainsFunc(words, func(w string) bool { return !held[w] })
	})
}

// cuedOnly is the finalist of top most like the whole request in meaning (its dense
// similarity), of the request's action, that runs on the values the request states, where the
// words best's document shares with the request, the values aside, say only which value is
// given or what is done, not what is asked: they name an input best is given a value for
// ("listing" of "How much is listing lst-0515bb06 worth?", which any API taking a listing id
// takes; the finalist must take it too) or an action (actionWords: "Find songs by Bob Marley"
// is no club's lookup, whose description "Finds a club by name" shares only the verb). A lead
// such words gave says nothing of what is asked, so the finalist need not be a rival by
// score. "" where best shares another word with the request, shares none, or no finalist is
// more like it.
func (c *choice) cuedOnly(best string, top []string) string {
	a, ok := c.links.API(best)
	if !ok {
		return ""
	}
	values := stated(c.whole.Text, c.links, best)
	var valueWords []string
	for _, v := range values {
		valueWords = append(valueWords, bm25.Tokens(v)...)
	}
	given := lexicon.Set(valueWords)
	statedIn := inputsOf(values)
	cues := map[string][]string{} // a word of an input best is given a value for: the inputs
	for _, p := range a.Inputs {
		if statedIn[p.Name] {
			for _, w := range paramWords([]twnm.Param{p}) {
				cues[w] = append(cues[w], p.Name)
			}
		}
	}
	doc := twnm.APIDocument(a)
	held := lexicon.Set(append(slices.Clone(doc.Fields[bm25.FieldText]), doc.Fields[bm25.FieldParams]...))
	var needs []string // the inputs the shared words name, which the finalist must take too
	shared := false
	for _, w := range bm25.Tokens(c.whole.Text) {
		if given[w] || !held[w] {
			continue
		}
		if cues[w] == nil && actionWords[w] == ActionUnknown {
			return ""
		}
		needs, shared = append(needs, cues[w]...), true
	}
	if !shared {
		return ""
	}
	dense := map[string]float64{}
	for _, m := range c.whole.Candidates {
		dense[m.Name] = m.Dense
	}
	out, most := "", dense[best]
	for _, p := range top {
		if p == best || c.mismatch[p] || dense[p] <= most || !c.statesAll(p) {
			continue
		}
		if len(needs) > 0 {
			theirs := statedInputs(c.whole.Text, c.links, p)
			if slices.ContainsFunc(needs, func(in string) bool { return !theirs[in] }) {
				continue
			}
		}
		out, most = p, dense[p]
	}
	return out
}
