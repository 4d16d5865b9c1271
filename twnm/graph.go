package twnm

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"time"
)

// NodeKind says whether a node is an API or a parameter.
type NodeKind uint8

// Node kinds.
const (
	KindAPI NodeKind = iota
	KindParam
)

func (k NodeKind) String() string {
	if k == KindAPI {
		return "API"
	}
	return "Param"
}

// Status is the lifecycle state of an API node.
type Status uint8

// API statuses (NaviAgent Section 3.3: targeted pruning and reactivation).
const (
	Active  Status = iota
	Pruned         // excluded from retrieval and search
	Probing        // pruned, selected for a probe call; reactivated if it succeeds
	// Retired: the latest import of its source no longer has it. Excluded from retrieval and
	// search, never probed; what was learned about it is kept, and an import that has it
	// again makes it active.
	Retired
)

var statusNames = [...]string{"active", "pruned", "probing", "retired"}

func (s Status) String() string { return statusNames[s] }

// ParseStatus is the inverse of Status.String.
func ParseStatus(s string) (Status, error) {
	for i, n := range statusNames {
		if n == s {
			return Status(i), nil
		}
	}
	return 0, fmt.Errorf("status %q: want active, pruned, probing or retired", s)
}

// NodeID indexes a node of one Graph.
type NodeID int32

// Node is an API or a parameter node.
type Node struct {
	ID          NodeID
	Kind        NodeKind
	Name        string // the API's name, or the parameter cluster's canonical name
	Description string
	Type        string   // parameters: the cluster's type
	API         *API     // API nodes: the catalog entry
	Members     []string // parameter nodes: the "API.param" names unified into this node
	Embedding   []float64

	Success, Failure int64 // s_v, f_v: invocations (APIs) or uses as an input (parameters)
	// FailedBy counts an API's failures by the signal that judged them (Invocation.Signal);
	// the others are calls that failed.
	FailedBy map[Signal]int64
	Status   Status
	LastUsed time.Time

	recent window // invocations in the sliding window, for Eq. 13 and 14
}

// SuccessRatio is s_v / (s_v + f_v), or 0 for a node never used.
func (n *Node) SuccessRatio() float64 {
	if n.Success+n.Failure == 0 {
		return 0
	}
	return float64(n.Success) / float64(n.Success+n.Failure)
}

// ReliabilityPrior is how many successes reliability assumes before any call: two failures
// of a new API, often its chain's rather than its own, do not sink it below one that failed a
// third of its hundred calls.
const ReliabilityPrior = 3

// Reliability is the node's success ratio with ReliabilityPrior successes assumed before any
// call, (s_v + 3) / (s_v + f_v + 3): 1 for a node never used. Graph search scales a
// producer's links by it.
func (n *Node) Reliability() float64 {
	return reliability(n.Success, n.Success+n.Failure)
}

// Reliability is the share of the edge's observed transitions that succeeded, with
// ReliabilityPrior successes assumed, (N_succ + 3) / (N + 3): 1 for an edge never observed.
// Unlike Eq. 4's weight, it does not fall as the consumer is called more through other
// producers: it says how often this flow led to a good answer, which is what a user's
// verdict revises.
func (e *Edge) Reliability() float64 {
	return reliability(e.Success, e.Count)
}

func reliability(success, total int64) float64 {
	return float64(success+ReliabilityPrior) / float64(max(total, success)+ReliabilityPrior)
}

// Edge is a directed, weighted edge between two nodes.
type Edge struct {
	From, To NodeID
	Kind     EdgeKind
	Required bool // InputOf: the API cannot run without this parameter

	Count   int64   // N(u→v): observed transitions (behavioural edges)
	Success int64   // N_succ(u→v)
	Weight  float64 // w̃: the statistical weight (Eq. 4, propagated by Eq. 14)
	// Predicted is p̂, the link predictor's probability for this edge, and HasPrediction says
	// whether there is one.
	Predicted     float64
	HasPrediction bool
	// Confidence is the catalog's evidence for a FEEDS edge that Build found (FindLinks: the
	// output's concept can bind the input's), 0 for one only history or the link predictor
	// found. Search uses it until the edge has history.
	Confidence float64

	recent window
}

// StructuralWeight is the weight search gives a structural edge that carries no statistics:
// the catalog says the dependency exists, so it is certain.
const StructuralWeight = 1.0

// Strength is the weight graph search uses: the predicted probability where the link predictor
// gave one, times the edge's Reliability (a predicted link that runs disprove loses weight,
// as an observed one does), else the confidence of a FEEDS edge found in the catalog that no
// call has used yet, else the statistical weight of a behavioural edge, else
// StructuralWeight.
func (e *Edge) Strength() float64 {
	switch {
	case e.HasPrediction:
		return e.Predicted * e.Reliability()
	case e.Confidence > 0 && e.Count == 0:
		return e.Confidence
	case e.Kind.Behavioural():
		return e.Weight
	default:
		return StructuralWeight
	}
}

// Prior is the strength the catalog gives e, whatever runs have taught since: the confidence
// of a FEEDS edge found in the catalog, else the link predictor's probability, else 0 for a
// behavioural edge that only runs made, else StructuralWeight.
func (e *Edge) Prior() float64 {
	switch {
	case e.Confidence > 0:
		return e.Confidence
	case e.HasPrediction:
		return e.Predicted
	case e.Kind.Behavioural():
		return 0
	default:
		return StructuralWeight
	}
}

type edgeKey struct {
	from, to NodeID
	kind     EdgeKind
}

// Graph is the heterogeneous tool graph G = (V, E, W). It is not safe for concurrent mutation;
// concurrent reads (search) are safe once it is built.
type Graph struct {
	nodes  []*Node
	edges  []*Edge
	byName map[string]NodeID // "API:<name>" or "Param:<name>"
	byEdge map[edgeKey]*Edge
	out    [][]*Edge
	in     [][]*Edge
	// params maps "API\x00param\x00in|out" to the parameter node a catalog parameter became.
	params map[string]NodeID
	// concepts maps {API, parameter node, 1 for an input} to the concept (see concept) of the
	// API's parameter in that node, which tells a producer of the input's own concept from one
	// whose output joined its node by similarity.
	concepts map[[3]NodeID]string
	// clusters unifies parameters by meaning; nil for graphs built without an embedder.
	clusters *clusterer
	// listers maps a collection's key (ListKey) to the APIs that list it.
	listers map[string][]NodeID
}

// New returns an empty graph.
func New() *Graph {
	return &Graph{byName: map[string]NodeID{}, byEdge: map[edgeKey]*Edge{}, params: map[string]NodeID{}, concepts: map[[3]NodeID]string{},
		listers: map[string][]NodeID{}}
}

// Len returns the number of nodes.
func (g *Graph) Len() int { return len(g.nodes) }

// Node returns the node with the given ID.
func (g *Graph) Node(id NodeID) *Node { return g.nodes[id] }

// Nodes returns all nodes, by ID.
func (g *Graph) Nodes() []*Node { return g.nodes }

// Edges returns all edges, in insertion order.
func (g *Graph) Edges() []*Edge { return g.edges }

// Out returns the edges leaving id.
func (g *Graph) Out(id NodeID) []*Edge { return g.out[id] }

// In returns the edges entering id.
func (g *Graph) In(id NodeID) []*Edge { return g.in[id] }

// Edge returns the edge of the given kind from one node to another, if it exists.
func (g *Graph) Edge(kind EdgeKind, from, to NodeID) (*Edge, bool) {
	e, ok := g.byEdge[edgeKey{from, to, kind}]
	return e, ok
}

// APIByName finds an API node.
func (g *Graph) APIByName(name string) (NodeID, bool) {
	id, ok := g.byName["API:"+name]
	return id, ok
}

// ParamByName finds a parameter node by its canonical (cluster) name.
func (g *Graph) ParamByName(name string) (NodeID, bool) {
	id, ok := g.byName["Param:"+name]
	return id, ok
}

// ParamOf returns the parameter node that input (or output) param of API api was unified into.
func (g *Graph) ParamOf(api, param string, input bool) (NodeID, bool) {
	id, ok := g.params[paramKey(api, param, input)]
	return id, ok
}

// APIs returns the IDs of all API nodes, in insertion order.
func (g *Graph) APIs() []NodeID {
	var ids []NodeID
	for _, n := range g.nodes {
		if n.Kind == KindAPI {
			ids = append(ids, n.ID)
		}
	}
	return ids
}

// Inputs returns the InputOf edges of an API node (its parameters), required first, then by name.
func (g *Graph) Inputs(api NodeID) []*Edge {
	var es []*Edge
	for _, e := range g.in[api] {
		if e.Kind == InputOf {
			es = append(es, e)
		}
	}
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].Required != es[j].Required {
			return es[i].Required
		}
		return g.nodes[es[i].From].Name < g.nodes[es[j].From].Name
	})
	return es
}

// Producers returns the API nodes with an Outputs edge to parameter p.
func (g *Graph) Producers(p NodeID) []NodeID {
	var ids []NodeID
	for _, e := range g.in[p] {
		if e.Kind == Outputs {
			ids = append(ids, e.From)
		}
	}
	return ids
}

func paramKey(api, param string, input bool) string {
	dir := "out"
	if input {
		dir = "in"
	}
	return api + "\x00" + param + "\x00" + dir
}

func (g *Graph) addNode(kind NodeKind, name string) (*Node, bool) {
	key := kind.String() + ":" + name
	if id, ok := g.byName[key]; ok {
		return g.nodes[id], false
	}
	n := &Node{ID: NodeID(len(g.nodes)), Kind: kind, Name: name}
	g.nodes = append(g.nodes, n)
	g.out = append(g.out, nil)
	g.in = append(g.in, nil)
	g.byName[key] = n.ID
	return n, true
}

// Without returns a copy of g without the edges drop reports: the graph as search would see
// it had those links never been known (a link predictor's held-out flows). Nodes and the kept
// edges are copies with their statistics; catalog entries, member lists and embeddings are
// shared and must not be changed. The copy clusters no parameter it is given later by
// meaning (it has no embedder).
func (g *Graph) Without(drop func(*Edge) bool) *Graph {
	c := &Graph{nodes: make([]*Node, len(g.nodes)), byName: maps.Clone(g.byName), byEdge: make(map[edgeKey]*Edge, len(g.byEdge)),
		out: make([][]*Edge, len(g.out)), in: make([][]*Edge, len(g.in)), params: maps.Clone(g.params), concepts: maps.Clone(g.concepts),
		listers: maps.Clone(g.listers)}
	for i, n := range g.nodes {
		cp := *n
		cp.FailedBy = maps.Clone(n.FailedBy)
		cp.recent = window{days: maps.Clone(n.recent.days)}
		c.nodes[i] = &cp
	}
	for _, e := range g.edges {
		if drop != nil && drop(e) {
			continue
		}
		cp := *e
		cp.recent = window{days: maps.Clone(e.recent.days)}
		c.edges = append(c.edges, &cp)
		c.byEdge[edgeKey{cp.From, cp.To, cp.Kind}] = &cp
		c.out[cp.From] = append(c.out[cp.From], &cp)
		c.in[cp.To] = append(c.in[cp.To], &cp)
	}
	return c
}

// RemoveEdge takes e out of g, where it is; the other edges keep their order.
func (g *Graph) RemoveEdge(e *Edge) {
	k := edgeKey{e.From, e.To, e.Kind}
	if g.byEdge[k] != e {
		return
	}
	delete(g.byEdge, k)
	drop := func(es []*Edge) []*Edge { return slices.DeleteFunc(es, func(x *Edge) bool { return x == e }) }
	g.edges, g.out[e.From], g.in[e.To] = drop(g.edges), drop(g.out[e.From]), drop(g.in[e.To])
}

// AddEdge returns the edge of the given kind between two nodes, adding it if it is new.
func (g *Graph) AddEdge(kind EdgeKind, from, to NodeID) *Edge {
	k := edgeKey{from, to, kind}
	if e, ok := g.byEdge[k]; ok {
		return e
	}
	e := &Edge{From: from, To: to, Kind: kind}
	g.edges = append(g.edges, e)
	g.byEdge[k] = e
	g.out[from] = append(g.out[from], e)
	g.in[to] = append(g.in[to], e)
	return e
}

// AddAPI adds an API node with its structural edges, placing each parameter in the parameter
// node of the same name (no semantic clustering; Build clusters). It fails if the API exists.
func (g *Graph) AddAPI(a API) (NodeID, error) {
	return g.addAPI(a, func(p Param, _ bool) string { return p.Name })
}

// AddAPIWithParams adds an API whose parameters go to the parameter nodes that paramNode names
// (creating them as needed): for a graph read back from a store, whose parameters were
// clustered when it was built. It fails if the API exists.
func (g *Graph) AddAPIWithParams(a API, paramNode func(p Param, input bool) string) (NodeID, error) {
	return g.addAPI(a, paramNode)
}

// addAPI adds an API whose parameters go to the parameter nodes that cluster names.
func (g *Graph) addAPI(a API, cluster func(p Param, input bool) string) (NodeID, error) {
	if _, ok := g.APIByName(a.Name); ok {
		return 0, fmt.Errorf("add API %s: already in the graph", a.Name)
	}
	api := a
	noun := resourceNoun(a)
	n, _ := g.addNode(KindAPI, a.Name)
	n.Description, n.API = a.Description, &api
	if k := ListKey(a); k != "" {
		g.listers[k] = append(g.listers[k], n.ID)
	}
	for _, io := range []struct {
		params []Param
		input  bool
	}{{a.Inputs, true}, {a.Outputs, false}} {
		for _, p := range io.params {
			pn, created := g.addNode(KindParam, cluster(p, io.input))
			if created {
				pn.Type, pn.Description = p.Type, p.Description
			}
			pn.Members = append(pn.Members, a.Name+"."+p.Name)
			g.params[paramKey(a.Name, p.Name, io.input)] = pn.ID
			dir := NodeID(0)
			if io.input {
				dir = 1
			}
			g.concepts[[3]NodeID{n.ID, pn.ID, dir}] = joinWords(paramConcept(a, p, noun, io.input))
			if io.input {
				e := g.AddEdge(InputOf, pn.ID, n.ID)
				e.Required = e.Required || p.Required
			} else {
				g.AddEdge(Outputs, n.ID, pn.ID)
			}
		}
	}
	return n.ID, nil
}

// Degree returns the in- and out-degree of a node.
func (g *Graph) Degree(id NodeID) (in, out int) { return len(g.in[id]), len(g.out[id]) }
