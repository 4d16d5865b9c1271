package twnm

import (
	"context"
	"fmt"
	"maps"
	"strings"

	"github.com/naviagent/navi/toolspec"
	"github.com/naviagent/navi/twnm/embed"
)

// BuildOptions configures how a catalog becomes a graph.
type BuildOptions struct {
	// Embedder embeds API descriptions (for retrieval) and parameters (for clustering). Required.
	Embedder embed.Embedder
	// APIEmbedder, when set, embeds the API descriptions instead (a sentence encoder for
	// retrieval), in one batch for the whole catalog, while Embedder still clusters the
	// parameters; it also links by meaning the inputs that share no word with any output
	// (LinkOptions.Similar).
	APIEmbedder embed.Embedder
	// ClusterThreshold is the cosine similarity from which a parameter joins an existing
	// parameter node of a compatible type (a node of the same name, in words, always qualifies) (NaviAgent Appendix A: `city` and `city_name` become
	// one node). Default 0.7: with the offline embedder, city/city_name score 0.86, a hotel's
	// name against city_name 0.58, latitude against longitude 0.37.
	ClusterThreshold float64
	// Links configures the data-flow links found between differently named parameters
	// (FindLinks); zero values take its defaults.
	Links LinkOptions
}

// DefaultClusterThreshold is BuildOptions.ClusterThreshold's default.
const DefaultClusterThreshold = 0.7

// Build turns a catalog into a graph: one API node per API, parameters unified into parameter
// nodes by semantic clustering of (name, type, description), and the structural edges.
func Build(ctx context.Context, c Catalog, o BuildOptions) (*Graph, error) {
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("build graph from %s: %w", c.Name, err)
	}
	if o.Embedder == nil {
		return nil, fmt.Errorf("build graph from %s: no embedder", c.Name)
	}
	if o.ClusterThreshold == 0 {
		o.ClusterThreshold = DefaultClusterThreshold
	}
	g := New()
	g.clusters = newClusterer(o.Embedder, o.ClusterThreshold)
	g.clusters.apiEmb = o.APIEmbedder
	var apiVecs [][]float64
	if o.APIEmbedder != nil {
		texts := make([]string, len(c.APIs))
		for i, a := range c.APIs {
			texts[i] = APIText(a)
		}
		var err error
		if apiVecs, err = o.APIEmbedder.Embed(ctx, texts); err != nil {
			return nil, fmt.Errorf("build graph from %s: embed %d APIs: %w", c.Name, len(texts), err)
		}
		if len(apiVecs) != len(texts) {
			return nil, fmt.Errorf("build graph from %s: embedder returned %d vectors for %d APIs", c.Name, len(apiVecs), len(texts))
		}
	}
	for i := range c.APIs {
		var vec []float64
		if apiVecs != nil {
			vec = apiVecs[i]
		}
		if err := g.integrate(ctx, c.APIs[i], vec); err != nil {
			return nil, fmt.Errorf("build graph from %s: %w", c.Name, err)
		}
	}
	g.clusters.linkOptions = o.Links
	links, err := g.clusters.links.links(ctx, o.APIEmbedder, o.Links, g.clusters.links.inKinds, "")
	if err != nil {
		return nil, fmt.Errorf("build graph from %s: %w", c.Name, err)
	}
	g.addLinks(links)
	return g, nil
}

// addLinks adds a FEEDS edge with the link's confidence for each link whose output and input
// are different parameter nodes (those of one node need none), keeping the higher confidence
// where two links join the same nodes.
func (g *Graph) addLinks(links []Link) {
	for _, l := range links {
		from, ok1 := g.ParamOf(l.From, l.Output, false)
		to, ok2 := g.ParamOf(l.To, l.Input, true)
		if !ok1 || !ok2 || from == to {
			continue
		}
		e := g.AddEdge(Feeds, from, to)
		e.Confidence = max(e.Confidence, l.Confidence)
	}
}

// Integrate adds one new tool to a built graph at once (NaviAgent's incremental integration):
// its parameters join existing parameter nodes where they mean the same, its data-flow links
// to and from the graph's APIs are found (as FindLinks finds them, with the graph's
// BuildOptions.Links), its counts start at
// zero, and its structural edges carry the same weight as every other structural edge. On
// error the graph is unchanged.
func (g *Graph) Integrate(ctx context.Context, a API) error {
	if g.clusters != nil {
		if err := g.clusters.links.prepare(ctx, g.clusters.apiEmb, a); err != nil {
			return fmt.Errorf("integrate %s: %w", a.Name, err)
		}
	}
	if err := g.integrate(ctx, a, nil); err != nil {
		return err
	}
	links, err := g.clusters.links.linksOf(ctx, g.clusters.apiEmb, a.Name, g.clusters.linkOptions)
	if err != nil {
		return fmt.Errorf("integrate %s: %w", a.Name, err)
	}
	g.addLinks(links)
	return nil
}

// integrate is Integrate with the API's vector when the caller embedded it already.
func (g *Graph) integrate(ctx context.Context, a API, apiVec []float64) error {
	if g.clusters == nil {
		return fmt.Errorf("integrate %s: graph was built without an embedder", a.Name)
	}
	// The API alone: its check (API.Check), if any, is another API, validated with its catalog.
	if _, err := (Catalog{APIs: []API{a}}).Index(); err != nil {
		return fmt.Errorf("integrate %s: %w", a.Name, err)
	}
	if _, ok := g.APIByName(a.Name); ok {
		return fmt.Errorf("integrate %s: already in the graph", a.Name)
	}
	// Each parameter's concept, computed once: its text, its cluster and its index words.
	noun := resourceNoun(a)
	concepts := make([][]string, 0, len(a.Inputs)+len(a.Outputs))
	texts := make([]string, 0, 1+len(a.Inputs)+len(a.Outputs))
	texts = append(texts, APIText(a))
	for i, ps := range [][]Param{a.Inputs, a.Outputs} {
		for _, p := range ps {
			ws := paramConcept(a, p, noun, i == 0)
			concepts = append(concepts, ws)
			texts = append(texts, paramText(ws, p))
		}
	}
	vecs, err := g.clusters.emb.Embed(ctx, texts)
	if err != nil {
		return fmt.Errorf("integrate %s: embed: %w", a.Name, err)
	}
	if len(vecs) != len(texts) {
		return fmt.Errorf("integrate %s: embedder returned %d vectors for %d texts", a.Name, len(vecs), len(texts))
	}
	if apiVec == nil && g.clusters.apiEmb != nil {
		v, err := g.clusters.apiEmb.Embed(ctx, texts[:1])
		if err != nil {
			return fmt.Errorf("integrate %s: embed the description: %w", a.Name, err)
		}
		if len(v) != 1 {
			return fmt.Errorf("integrate %s: embedder returned %d vectors for the description", a.Name, len(v))
		}
		apiVec = v[0]
	}
	if apiVec != nil {
		vecs[0] = apiVec
	}

	// The vectors of the inputs, then of the outputs, follow the API's own.
	n := len(a.Inputs)
	dirs := []struct {
		params   []Param
		vecs     [][]float64
		concepts [][]string
		input    bool
	}{{a.Inputs, vecs[1 : 1+n], concepts[:n], true}, {a.Outputs, vecs[1+n:], concepts[n:], false}}

	// Decide every parameter's cluster before touching the graph.
	names := map[string]string{} // paramKey -> cluster name
	for _, d := range dirs {
		used := map[string]bool{} // an API's parameters of one direction never share a node
		for i, p := range d.params {
			name := g.clusters.assign(g, p, d.concepts[i], d.vecs[i], used)
			used[name] = true
			names[paramKey(a.Name, p.Name, d.input)] = name
		}
	}
	id, err := g.addAPI(a, func(p Param, input bool) string { return names[paramKey(a.Name, p.Name, input)] })
	if err != nil {
		return fmt.Errorf("integrate %s: %w", a.Name, err)
	}
	g.nodes[id].Embedding = vecs[0]
	for _, d := range dirs {
		for i, p := range d.params {
			g.clusters.join(g, g.params[paramKey(a.Name, p.Name, d.input)], d.concepts[i], d.vecs[i])
		}
	}
	g.clusters.links.add(a)
	return nil
}

// APIText is what an API's embedding is computed from: its name in words and its description.
func APIText(a API) string {
	return strings.Join(embed.Tokenize(a.Name), " ") + ". " + a.Description
}

// ParamText is the text Build embeds parameter p of API a from (paramText), an input where
// input is set.
func ParamText(a API, p Param, input bool) string {
	return paramText(paramConcept(a, p, resourceNoun(a), input), p)
}

// paramText is what a parameter's embedding is computed from: its concept ws (its name in
// words, after its API's resource noun when the name is generic) and its description. The
// type takes part in clustering as a compatibility check instead (typesCompatible): as text,
// "float" against "number" would pull apart parameters that mean the same, and a shared
// "(number)" would pull latitude towards longitude.
func paramText(ws []string, p Param) string {
	return strings.Join(ws, " ") + ". " + p.Description
}

// clusterer keeps, for each parameter node, the running mean of its members' embeddings and an
// index from name words to nodes, so that a new parameter is compared only with nodes that
// share a word of its name.
type clusterer struct {
	// links indexes the graph's parameters for data-flow links, with the options they take.
	links       *linkIndex
	linkOptions LinkOptions

	emb       embed.Embedder
	apiEmb    embed.Embedder // embeds API descriptions when set; emb does otherwise
	threshold float64
	sum       map[NodeID][]float64
	size      map[NodeID]int
	byWord    map[string][]NodeID
	key       map[NodeID]string // the words of the node's name, joined: same key, same name
}

func newClusterer(emb embed.Embedder, threshold float64) *clusterer {
	return &clusterer{links: newLinkIndex(), emb: emb, threshold: threshold, sum: map[NodeID][]float64{}, size: map[NodeID]int{}, byWord: map[string][]NodeID{}, key: map[NodeID]string{}}
}

// assign returns the name of the parameter node p, of concept ws, belongs to: a node of the
// same concept (see concept) whose type is not of another shape (a list and a single value
// stay apart; an id written as a number and one written as a string do not), else the most
// similar node sharing a concept word, of a compatible type and the same roles, not in
// used, at or above the threshold; otherwise a new node, named after p (after its concept when
// p's name is generic, so that a bare `id` becomes `person_id` and no hub), made unique.
func (c *clusterer) assign(g *Graph, p Param, ws []string, v []float64, used map[string]bool) string {
	best, bestSim := NodeID(-1), c.threshold
	seen := map[NodeID]bool{}
	key := strings.Join(ws, " ")
	rs := roles(ws)
	for _, w := range ws {
		for _, id := range c.byWord[w] {
			if seen[id] {
				continue
			}
			seen[id] = true
			n := g.nodes[id]
			if used[n.Name] {
				continue
			}
			var sim float64
			if c.key[id] == key {
				// The same concept is the strongest evidence catalogs give: `humidity` described
				// as "Relative humidity in percentage" and as "Current humidity level" is one
				// parameter, whatever the descriptions' words.
				if !sameShape(n.Type, p.Type) {
					continue
				}
				sim = 1 + 1e-9 // above any cosine
			} else {
				// Only parameters of the same roles cluster: placeId feeds originPlaceId and
				// destinationPlaceId through links, but a node holding both would feed an
				// origin with a destination.
				if !typesCompatible(n.Type, p.Type) || !maps.Equal(rs, roles(strings.Fields(c.key[id]))) {
					continue
				}
				sim = embed.Cosine(v, c.sum[id])
			}
			if sim >= bestSim {
				if sim > bestSim || best < 0 || n.Name < g.nodes[best].Name {
					best, bestSim = id, sim
				}
			}
		}
	}
	if best >= 0 {
		return g.nodes[best].Name
	}
	base := p.Name
	if key != strings.Join(words(p.Name), " ") { // a generic name, given its API's noun
		base = strings.Join(ws, "_")
	}
	name := base
	for i := 2; ; i++ {
		if _, taken := g.ParamByName(name); !taken && !used[name] {
			return name
		}
		name = fmt.Sprintf("%s_%d", base, i)
	}
}

// join adds a member of concept ws to node id: its embedding to the node's centroid, its
// concept words to the index. The node's concept is its first member's.
func (c *clusterer) join(g *Graph, id NodeID, ws []string, v []float64) {
	s := c.sum[id]
	if s == nil {
		s = make([]float64, len(v))
		c.sum[id] = s
		c.key[id] = strings.Join(ws, " ")
	}
	// Summing unit vectors keeps the centroid's direction; cosine ignores its length.
	for i := range v {
		s[i] += v[i]
	}
	c.size[id]++
	for _, w := range ws {
		if !containsID(c.byWord[w], id) {
			c.byWord[w] = append(c.byWord[w], id)
		}
	}
	if g.nodes[id].Embedding == nil {
		g.nodes[id].Embedding = v
	}
}

func containsID(ids []NodeID, id NodeID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// typeClass maps the type names catalogs use to a few classes.
func typeClass(t string) string {
	switch strings.ToLower(strings.TrimSpace(t)) {
	case "":
		return ""
	case "str", "string", "text", "date", "datetime", "time", "email", "url", "uri":
		return "string"
	case "int", "integer", "long", "number", "float", "double", "decimal", "num":
		return "number"
	case "bool", "boolean":
		return "boolean"
	case "json":
		return "object"
	}
	switch toolspec.TypeKind(t) { // however the catalog writes a list or a map (list(str), dict)
	case toolspec.KindArray:
		return "array"
	case toolspec.KindObject:
		return "object"
	}
	return strings.ToLower(t)
}

// sameShape is false only when both types are known and one is a list or an object and the
// other is not of the same class: a number and a string may be the same id.
func sameShape(a, b string) bool {
	ca, cb := typeClass(a), typeClass(b)
	return ca == "" || cb == "" || ca == cb || isScalarClass(ca) && isScalarClass(cb)
}

// typesCompatible is false only when both types are known and of different classes.
func typesCompatible(a, b string) bool {
	ca, cb := typeClass(a), typeClass(b)
	return ca == "" || cb == "" || ca == cb
}
