package twnm

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/naviagent/navi/twnm/bm25"
	"github.com/naviagent/navi/twnm/embed"
)

// Match is an API found by retrieval, with its cosine similarity to the description.
type Match struct {
	API   NodeID
	Name  string
	Score float64
}

// Retrieve returns the k active APIs whose embeddings are most similar to description's, best
// first (ties in insertion order): the target APIs that graph search starts from (NaviAgent recalls the
// top 3). Pruned and probing APIs are skipped.
func (g *Graph) Retrieve(ctx context.Context, emb embed.Embedder, description string, k int) ([]Match, error) {
	if k <= 0 {
		return nil, nil
	}
	vecs, err := emb.Embed(ctx, []string{description})
	if err != nil {
		return nil, fmt.Errorf("retrieve: embed description: %w", err)
	}
	if len(vecs) != 1 {
		return nil, fmt.Errorf("retrieve: embedder returned %d vectors for 1 text", len(vecs))
	}
	q := vecs[0]
	ids := make([]NodeID, 0, len(g.nodes))
	vectors := make([][]float64, 0, len(g.nodes))
	for _, n := range g.nodes {
		if n.Kind != KindAPI || n.Status != Active || n.Embedding == nil {
			continue
		}
		if len(n.Embedding) != len(q) {
			return nil, fmt.Errorf("retrieve: API %s has a %d-dimensional embedding, the embedder gives %d", n.Name, len(n.Embedding), len(q))
		}
		ids = append(ids, n.ID)
		vectors = append(vectors, n.Embedding)
	}
	top := embed.TopK(q, vectors, k)
	out := make([]Match, len(top))
	for i, s := range top {
		id := ids[s.Index]
		out[i] = Match{API: id, Name: g.nodes[id].Name, Score: s.Score}
	}
	return out, nil
}

// Feeds reports whether an output of producer can bind an input of consumer that another call
// can feed (see feedable): the two share a parameter node, or a FEEDS edge joins the
// producer's output to the consumer's input. Retrieval uses it to tell a chain's final step
// from the steps that feed it.
func (g *Graph) Feeds(producer, consumer NodeID) bool {
	if producer == consumer {
		return false
	}
	for _, in := range g.Inputs(consumer) {
		if !g.feedable(in.From) {
			continue
		}
		for _, l := range producerLinks(g, in.From, consumer, nil, nil) {
			if l.api == producer {
				return true
			}
		}
	}
	return false
}

// feedable reports whether the inputs of parameter node p can be fed by another call (see
// Linkable): free text, flags and options (a page, a status) are bound from the request when
// a plan is built, so a call that outputs one feeds no other through it.
func (g *Graph) feedable(p NodeID) bool {
	n := g.Node(p)
	return Linkable(Param{Name: n.Name, Type: n.Type})
}

// RequiredProducers returns, for each required input of api that another call can feed (see
// feedable), the APIs able to produce it, by input parameter node: the steps a chain
// needs before api although the request never names them.
func (g *Graph) RequiredProducers(api NodeID) map[NodeID][]NodeID {
	out := map[NodeID][]NodeID{}
	for p, ss := range g.RequiredSuppliers(api) {
		for _, s := range ss {
			out[p] = append(out[p], s.API)
		}
	}
	return out
}

// Supplier is an API able to produce an input, and the words its output adds to the input's
// concept: "leader" where a league table's leader_team_id gives a team_id. Such an output is
// another thing than the input (the league's leader, not the team the request names) unless
// the request says its role.
type Supplier struct {
	API  NodeID
	Role []string
}

// RequiredSuppliers is RequiredProducers with the role each producer's output adds.
func (g *Graph) RequiredSuppliers(api NodeID) map[NodeID][]Supplier {
	out := map[NodeID][]Supplier{}
	for _, in := range g.Inputs(api) {
		if !in.Required || !g.feedable(in.From) {
			continue
		}
		for _, l := range listed(g, producerLinks(g, in.From, api, nil, nil), api, in.From, nil) {
			out[in.From] = append(out[in.From], Supplier{API: l.api, Role: addedRole(g, l.api, l.output, api, in.From)})
		}
	}
	return out
}

// OwnName is an API's name without its provider's prefix: the part after the last dot
// ("SearchHotels" of "stay.SearchHotels"), the whole name where there is none. The prefix
// names the service, not what the API does or what it is about.
func OwnName(api string) string { return api[strings.LastIndex(api, ".")+1:] }

// APIDocument is the tool document BM25 ranks an API by: its name (identifiers split) and
// description in the main field, its input and output parameter names in a second, lighter
// one (a nested output by the field's own name, the last key of its path: the answer's words,
// each once), with the outputs' descriptions and its kin's descriptions (see Kin). The store
// writes the same document into its full-text index, so both rank alike.
//
// An output's description says what the API gives, which is what a question asks for ("how
// high above sea level": "Elevation above sea level in metres"); an input's says what it
// takes, which any API taking a city shares. On navi eval retrieval the outputs' descriptions
// raised the full method's final step on the dialogues, the tool world and the held-out public
// specs and lowered it on no set; the inputs' cost RestBench 5 points (docs/retrieval.md).
func APIDocument(a API, kin ...API) bm25.Document {
	params := make([]string, 0, len(a.Inputs)+2*len(a.Outputs)+len(kin))
	for _, p := range a.Inputs {
		params = append(params, p.Name)
	}
	for _, p := range a.Outputs {
		name := p.Name
		if p.Path != "" {
			name = strings.TrimSuffix(p.Path[strings.LastIndex(p.Path, ".")+1:], "[]")
		}
		params = append(params, name, p.Description)
	}
	for _, k := range kin {
		params = append(params, k.Description)
	}
	return bm25.ToolDocument(a.Name, a.Description, params)
}

// Kin returns, for each API of apis (by index), the indexes of its kin: the other APIs of its
// source and provider whose names differ from its own by their first word alone, one resource
// under other actions (AddAgenda, DeleteAgenda, ModifyAgenda and QueryAgenda). A catalog
// describes a resource in its family's words, each API in some of them: DeleteAgenda deletes
// "a schedule item", so "add a schedule item" finds AddAgenda, which adds "an agenda item". A
// name of one word has no kin. retired, when not nil, marks the APIs their source's latest
// import no longer holds: they are no one's kin and have none.
func Kin(apis []API, retired []bool) [][]int {
	family := func(a API) string {
		ws := bm25.Tokens(OwnName(a.Name))
		if len(ws) < 2 {
			return ""
		}
		return a.Source + "\x00" + a.Provider + "\x00" + strings.Join(ws[1:], " ")
	}
	members := map[string][]int{}
	keys := make([]string, len(apis))
	for i, a := range apis {
		if retired != nil && retired[i] {
			continue
		}
		if keys[i] = family(a); keys[i] != "" {
			members[keys[i]] = append(members[keys[i]], i)
		}
	}
	out := make([][]int, len(apis))
	for i, k := range keys {
		for _, j := range members[k] {
			if j != i {
				out[i] = append(out[i], j)
			}
		}
		// By name, so that a document does not depend on the order the APIs come in.
		slices.SortFunc(out[i], func(x, y int) int { return strings.Compare(apis[x].Name, apis[y].Name) })
	}
	return out
}

// KinDocuments returns the tool document of each API of apis, with its kin's descriptions
// (APIDocument, Kin; retired as Kin reads it).
func KinDocuments(apis []API, retired []bool) []bm25.Document {
	kin := Kin(apis, retired)
	docs := make([]bm25.Document, len(apis))
	for i, a := range apis {
		ks := make([]API, len(kin[i]))
		for j, k := range kin[i] {
			ks[j] = apis[k]
		}
		docs[i] = APIDocument(a, ks...)
	}
	return docs
}

// Requires reports whether api has a required input another call can feed (see feedable)
// bound by param: the parameter node itself, or one a FEEDS edge joins to it either way. A
// producer of param that requires it (the movies similar to a movie, for a movie's id) cannot
// start a chain.
func (g *Graph) Requires(api, param NodeID) bool {
	for _, in := range g.Inputs(api) {
		if !in.Required || !g.feedable(in.From) {
			continue
		}
		if in.From == param {
			return true
		}
		for _, e := range g.Out(in.From) {
			if e.Kind == Feeds && e.To == param {
				return true
			}
		}
		for _, e := range g.In(in.From) {
			if e.Kind == Feeds && e.From == param {
				return true
			}
		}
	}
	return false
}
