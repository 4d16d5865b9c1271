package neo4j

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"

	driver "github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/recall"
)

// Match is an API found by vector retrieval.
type Match struct {
	Name  string  `json:"name"`
	Score float64 `json:"score"`
	// Provider is the API's provider ("" when it names none).
	Provider string `json:"provider,omitempty"`
}

// TopAPIs returns the k active APIs whose embeddings are most similar to vec, best first,
// from the vector index. Pruned and probing APIs are skipped.
func (s *Store) TopAPIs(ctx context.Context, vec []float64, k int) ([]Match, error) {
	return s.topAPIs(ctx, s.auto(), vec, k, false)
}

// TopCallableAPIs is TopAPIs restricted to APIs the agent can call: those whose catalog entry
// gives an HTTP endpoint with an absolute URL. Catalogs imported only to learn from (tool
// descriptions without endpoints) then never crowd out the tools a run can use.
func (s *Store) TopCallableAPIs(ctx context.Context, vec []float64, k int) ([]Match, error) {
	return s.topAPIs(ctx, s.auto(), vec, k, true)
}

func (s *Store) topAPIs(ctx context.Context, rd reader, vec []float64, k int, callable bool) ([]Match, error) {
	// One vector of the batched query (a zero vector, an empty description, is similar to nothing).
	hs, err := storeSource{s: s, rd: rd, callable: callable}.vectorAll(ctx, "vector retrieval", topAPIsAll, VectorIndex,
		[][]float64{vec}, vectorHits(k, callable), k, nil)
	if err != nil || len(hs[0]) == 0 {
		return nil, err
	}
	out := make([]Match, len(hs[0]))
	for i, h := range hs[0] {
		out[i] = Match{Name: h.Name, Score: h.Score, Provider: h.Provider}
	}
	return out, nil
}

// vectorHits is how many nearest neighbours a vector query of k asks the index for: the index
// ranks before the filters, and asking for more keeps k after filtering unless most near
// neighbours are pruned (or, for callable, descriptions only).
func vectorHits(k int, callable bool) int {
	if callable {
		return 20*k + 100
	}
	return 4 * k
}

// topAPIsAll reads the k nearest active APIs (callable ones with $callable) of each vector of
// $vecs, from the $n the index gives, best first; its rows are numbered i.
const topAPIsAll = `
UNWIND range(0, size($vecs) - 1) AS i
CALL (i) {
  CALL db.index.vector.queryNodes($index, $n, $vecs[i]) YIELD node, score
  WHERE coalesce(node.status, 'active') = 'active' AND (NOT $callable OR coalesce(node.callable, false))
  RETURN node.name AS name, coalesce(node.provider, '') AS provider, score
  ORDER BY score DESC, name
  LIMIT $k
}
RETURN i, name, provider, score`

// SubgraphOptions bounds a subgraph read.
type SubgraphOptions struct {
	Hops    int // producer levels read upstream of the targets; default 4 (AlphaBeta's MaxDepth)
	MaxAPIs int // stop widening once this many APIs are read; default 200
	// Relevance scores APIs by how relevant they are to the request (retrieval's scores, such
	// as recall.Result.Relevance, higher first); it ranks the producers of a level when not
	// all of them fit. APIs it does not name rank after those it names.
	Relevance map[string]float64
}

// Subgraph reads the part of the graph that a search from the targets can use: the targets
// (all of them, in the order given: the caller ranks them), the APIs of o.Relevance that take
// an item of a collection a target lists (see itemPartsQuery), the active APIs producing their
// inputs (directly or through a FEEDS edge), those APIs' producers, and so on for Hops
// levels, with their parameters, statistics and the behavioural edges among them, up to
// MaxAPIs APIs. Nearer levels come first. Within a level, producers are ranked, and those
// ranked last are left out once MaxAPIs is reached, never by name:
//
//  1. those o.Relevance scores, by score, best first;
//  2. then the rest, by how strongly they can bind the level's inputs: the sum over the inputs
//     they bind of 1 for an output of the input's own parameter node, and of the link's
//     strength for one reaching it through a FEEDS edge (its learned weight once calls used
//     it, the catalog's confidence before);
//  3. then by successful calls;
//  4. then by how many outputs they give;
//  5. then by name, for a deterministic read.
//
// (2 to 5 also break ties among equal scores.) A parameter that more than hubProducers APIs
// output (a generic id) is bound only by its producers that o.Relevance names or that calls
// into the consumer proved (see producersQuery). Everything is read in one read transaction,
// so the subgraph is one consistent snapshot even while feedback is being written. The
// result is a twnm.Graph ready for search.
func (s *Store) Subgraph(ctx context.Context, targets []string, o SubgraphOptions) (*twnm.Graph, error) {
	var g *twnm.Graph
	err := s.readTx(ctx, "read subgraph", func(rd reader) error {
		var err error
		g, err = s.subgraph(ctx, rd, targets, o)
		return err
	})
	return g, err
}

// subgraph is Subgraph's read through rd.
func (s *Store) subgraph(ctx context.Context, rd reader, targets []string, o SubgraphOptions) (*twnm.Graph, error) {
	if o.Hops == 0 {
		o.Hops = 4
	}
	if o.MaxAPIs == 0 {
		o.MaxAPIs = 200
	}
	relevance := make(map[string]any, len(o.Relevance))
	for name, score := range o.Relevance {
		relevance[name] = score
	}
	seen := map[string]bool{}
	var names []string
	for _, t := range targets {
		if !seen[t] {
			seen[t] = true
			names = append(names, t)
		}
	}
	if len(o.Relevance) > 0 && len(names) < o.MaxAPIs {
		recs, err := rd.read(ctx, "read item parts", itemPartsQuery, map[string]any{"targets": names, "candidates": slices.Sorted(maps.Keys(o.Relevance)),
			"relevance": relevance, "limit": int64(o.MaxAPIs - len(names))})
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			if name, _ := r.AsMap()["part"].(string); name != "" && !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
		}
	}
	frontier := names
	for hop := 0; hop < o.Hops && len(frontier) > 0 && len(names) < o.MaxAPIs; hop++ {
		// The query ranks the level (see Subgraph) and keeps what fits.
		recs, err := rd.read(ctx, "read producers", producersQuery, map[string]any{"apis": frontier, "seen": names,
			"relevance": relevance, "limit": int64(o.MaxAPIs - len(names)), "hub": int64(hubProducers)})
		if err != nil {
			return nil, err
		}
		frontier = nil
		for _, r := range recs {
			name, _ := r.AsMap()["producer"].(string)
			if !seen[name] && len(names) < o.MaxAPIs {
				seen[name] = true
				names = append(names, name)
				frontier = append(frontier, name)
			}
		}
	}
	return s.load(ctx, rd, names, false)
}

// itemPartsQuery reads the candidates ($candidates, ranked by $relevance, then by name), active
// and not among $targets, that take an item of a collection one of $targets lists (INPUT_OF's
// picks, API's lists), the best $limit of them: a channel's messages beside the list of
// channels, as recall.BoundedRead reads them.
const itemPartsQuery = `
CALL {
  UNWIND $targets AS t
  MATCH (l:API {name: t}) WHERE l.lists IS NOT NULL
  RETURN collect(DISTINCT l.lists) AS lists
}
UNWIND $candidates AS cn
MATCH (c:API {name: cn})<-[in:INPUT_OF]-()
WHERE size(lists) > 0 AND in.picks IN lists AND NOT cn IN $targets AND coalesce(c.status, 'active') = 'active'
WITH DISTINCT cn
RETURN cn AS part
ORDER BY $relevance[cn] DESC, part
LIMIT $limit`

// hubProducers is how many APIs may output a parameter before a subgraph read takes it for a
// generic value (an id, a query, a page) and brings in only some of its producers (see
// producersQuery): on a 16,000-API graph a level's inputs had 20,000 producers through such
// parameters, and ranking them all cost 80–120 ms of every retrieval.
const hubProducers = 100

// producersQuery reads the active producers of the inputs of the APIs $apis, not yet $seen,
// ranked as Subgraph says, the best $limit of them. $relevance maps API names to scores. An
// input binds from its own parameter node and from those that FEED it; a parameter that more
// than $hub APIs output brings in only its producers that $relevance names and those whose
// calls into the consumer succeeded (a THEN edge with successes), found from their side, so
// that the read never walks a generic parameter's thousands of producers. A path input that
// active APIs list the collection of (twnm.Graph.Listers: INPUT_OF's picks, API's lists)
// binds from those alone, as the graph's search binds it.
const producersQuery = `
CALL {
  UNWIND keys($relevance) AS rn
  MATCH (b:API {name: rn})-[:OUTPUTS]->(o)
  RETURN collect([o, b]) AS relevantOut
}
UNWIND $apis AS name
MATCH (a:API {name: name})<-[in:INPUT_OF]-(p)
WITH a, name, p, relevantOut,
     COLLECT { MATCH (l:API) WHERE in.picks IS NOT NULL AND l.lists = in.picks AND coalesce(l.status, 'active') = 'active' RETURN l } AS listers
CALL (p) {
  RETURN p AS s, 1.0 AS w
  UNION ALL
  MATCH (p)<-[f:FEEDS]-(q)
  RETURN q AS s, CASE WHEN coalesce(f.count, 0) > 0 THEN coalesce(f.weight, 0.0) ELSE coalesce(f.confidence, f.weight, 0.0) END AS w
}
WITH a, name, p, s, w, relevantOut, listers, COUNT { (s)<-[:OUTPUTS]-() } > $hub AS generic
CALL (a, s, generic, relevantOut, listers) {
  UNWIND listers AS b RETURN b
  UNION
  WITH s WHERE NOT generic AND size(listers) = 0
  MATCH (s)<-[:OUTPUTS]-(b) RETURN b
  UNION
  WITH s, relevantOut WHERE generic AND size(listers) = 0
  UNWIND [x IN relevantOut WHERE x[0] = s | x[1]] AS b
  RETURN b
  UNION
  WITH a, s WHERE generic AND size(listers) = 0
  MATCH (a)<-[t:THEN]-(b) WHERE coalesce(t.success, 0) > 0 AND EXISTS { (b)-[:OUTPUTS]->(s) }
  RETURN b
}
WITH b, name, p, max(w) AS w
WITH b, sum(w) AS binds
WHERE coalesce(b.status, 'active') = 'active' AND NOT b.name IN $seen
WITH b, binds, $relevance[b.name] AS relevance, coalesce(b.success, 0) AS success, COUNT { (b)-[:OUTPUTS]->() } AS outputs
RETURN b.name AS producer
ORDER BY relevance IS NULL, relevance DESC, binds DESC, success DESC, outputs DESC, producer
LIMIT $limit`

// reader runs one read query and returns its records.
type reader interface {
	read(ctx context.Context, what, cypher string, params map[string]any) ([]*driver.Record, error)
}

// txReader reads in one explicit read transaction. A query's error goes back as the driver
// gave it, so that the driver can tell a transient failure and retry the transaction; failed
// records which query it was, for readTx's message. A transaction is one connection, which
// runs one query at a time: callers that read concurrently (retrieval's sub-goals) take turns.
type txReader struct {
	tx     driver.ManagedTransaction
	failed *string
	mu     *sync.Mutex
}

func (r txReader) read(ctx context.Context, what, cypher string, params map[string]any) ([]*driver.Record, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	recs, err := runTx(ctx, r.tx, cypher, params)
	if err != nil {
		*r.failed = what
		return nil, err
	}
	return recs, nil
}

// autoReader reads each query in a transaction of its own (Store.run's).
type autoReader struct{ s *Store }

func (r autoReader) read(ctx context.Context, what, cypher string, params map[string]any) ([]*driver.Record, error) {
	res, err := r.s.run(ctx, what, false, cypher, params)
	if err != nil {
		return nil, err
	}
	return res.Records, nil
}

// auto is the reader of the store's one-query reads.
func (s *Store) auto() reader { return autoReader{s: s} }

// Reads is the store as one read transaction sees it: retrieval's sources and the subgraph
// read in one consistent snapshot (ReadTx).
type Reads struct {
	s  *Store
	rd reader
}

// RecallSource is Store.RecallSource, read in the transaction.
func (r Reads) RecallSource(callable bool) recall.Source {
	return storeSource{s: r.s, rd: r.rd, callable: callable}
}

// Subgraph is Store.Subgraph, read in the transaction.
func (r Reads) Subgraph(ctx context.Context, targets []string, o SubgraphOptions) (*twnm.Graph, error) {
	return r.s.subgraph(ctx, r.rd, targets, o)
}

// ReadTx runs fn in one read transaction: one retrieval's reads (BM25, vectors, past
// sub-goals, the subgraph) see one snapshot of the graph, even while feedback is written,
// and cost one transaction. A transient failure runs fn again as a whole, so fn must only
// read and compute. Errors name what and, for the driver's, go through Explain.
func (s *Store) ReadTx(ctx context.Context, what string, fn func(Reads) error) error {
	return s.readTx(ctx, what, func(rd reader) error { return fn(Reads{s: s, rd: rd}) })
}

// readTx runs fn in one explicit read transaction: every query fn reads sees the same
// snapshot. A transient failure retries fn as a whole. The error names what was being read
// and, for the driver's errors, goes through Explain, as run's do.
func (s *Store) readTx(ctx context.Context, what string, fn func(rd reader) error) error {
	sess := s.driver.NewSession(ctx, driver.SessionConfig{DatabaseName: s.db, AccessMode: driver.AccessModeRead})
	defer sess.Close(ctx)
	var failed string // the query of the last attempt that failed, if one did
	var fnErr error   // what the last attempt of fn returned
	_, err := sess.ExecuteRead(ctx, func(tx driver.ManagedTransaction) (any, error) {
		failed = ""
		fnErr = fn(txReader{tx: tx, failed: &failed, mu: &sync.Mutex{}})
		return nil, fnErr
	})
	switch {
	case err == nil:
		return nil
	case failed != "":
		return fmt.Errorf("%s: %s: %w", what, failed, Explain(s.uri, "", err))
	case fnErr != nil:
		return fmt.Errorf("%s: %w", what, fnErr) // fn's own error: a record it could not decode
	}
	return fmt.Errorf("%s: %w", what, Explain(s.uri, "", err))
}

// Snapshot reads the whole graph, statistics and active predicted weights included, for
// training and for inspection. It reads in one read transaction, as Subgraph does.
func (s *Store) Snapshot(ctx context.Context) (*twnm.Graph, error) {
	var g *twnm.Graph
	err := s.readTx(ctx, "read snapshot", func(rd reader) error {
		recs, err := rd.read(ctx, "list APIs", "MATCH (a:API) RETURN a.name AS name ORDER BY name", nil)
		if err != nil {
			return err
		}
		names := make([]string, len(recs))
		for i, r := range recs {
			names[i] = r.AsMap()["name"].(string)
		}
		g, err = s.load(ctx, rd, names, true)
		return err
	})
	return g, err
}

var loadAPIs = `
UNWIND $names AS name
MATCH (a:API {name: name})
CALL (a) {
  OPTIONAL MATCH (a)<-[i:INPUT_OF]-(p:Param)
  RETURN collect({node: p.name, param: i.param, required: i.required}) AS ins
}
CALL (a) {
  OPTIONAL MATCH (a)-[o:OUTPUTS]->(q:Param)
  RETURN collect({node: q.name, param: o.param}) AS outs
}
RETURN a.name AS name, a.spec AS spec, coalesce(a.description, '') AS description, coalesce(a.success, 0) AS success, coalesce(a.failure, 0) AS failure,
       coalesce(a.status, 'active') AS status, CASE WHEN $embeddings THEN a.embedding END AS embedding, ins, outs,
       [k IN keys(a) WHERE k STARTS WITH '` + failedByPrefix + `' | [substring(k, size('` + failedByPrefix + `')), a[k]]] AS failed_by,
       ` + dayBuckets("a") + ` AS days`

// loadParams reads parameter nodes; a snapshot ($all) reads their members too. A subgraph
// keeps only the members of its own APIs, which its APIs' edges already name: filtering a
// generic parameter's thousands of members in the query cost 13–19 ms of a retrieval on a
// 16,000-API graph.
var loadParams = `
UNWIND $names AS name
MATCH (p:Param {name: name})
RETURN p.name AS name, coalesce(p.type, '') AS type, coalesce(p.description, '') AS description,
       coalesce(p.success, 0) AS success, coalesce(p.failure, 0) AS failure,
       CASE WHEN $all THEN coalesce(p.members, []) ELSE [] END AS members,
       ` + dayBuckets("p") + ` AS days`

var loadEdges = `
UNWIND $apis AS name
MATCH (a:API {name: name})-[e:THEN]->(b:API)
WHERE b.name IN $apis
RETURN 'THEN' AS kind, a.name AS from, b.name AS to, coalesce(e.count, 0) AS count, coalesce(e.success, 0) AS success,
       coalesce(e.weight, 0.0) AS weight, 0.0 AS confidence, CASE WHEN $key = '' THEN null ELSE e[$key] END AS predicted,
       ` + dayBuckets("e") + ` AS days
UNION ALL
UNWIND $params AS name
MATCH (p:Param {name: name})-[e:FEEDS]->(q:Param)
WHERE q.name IN $params
RETURN 'FEEDS' AS kind, p.name AS from, q.name AS to, coalesce(e.count, 0) AS count, coalesce(e.success, 0) AS success,
       coalesce(e.weight, 0.0) AS weight, coalesce(e.confidence, 0.0) AS confidence, CASE WHEN $key = '' THEN null ELSE e[$key] END AS predicted,
       ` + dayBuckets("e") + ` AS days`

// dayBuckets lists the day-bucket properties (see dayKeys) of a node or relationship as
// [key, value] pairs, so that a read restores the sliding window of Eq. 13 and 14.
func dayBuckets(v string) string {
	return fmt.Sprintf("[k IN keys(%[1]s) WHERE k =~ 'd[0-9]+_[sn]' | [k, %[1]s[k]]]", v)
}

// dayCounts is the inverse of dayBuckets: day → [success, total].
func dayCounts(v any) map[int64][2]int64 {
	out := map[int64][2]int64{}
	pairs, _ := v.([]any)
	for _, x := range pairs {
		kv, _ := x.([]any)
		if len(kv) != 2 {
			continue
		}
		key, _ := kv[0].(string)
		n, _ := kv[1].(int64)
		var day int64
		var which byte
		if _, err := fmt.Sscanf(key, "d%d_%c", &day, &which); err != nil {
			continue
		}
		c := out[day]
		if which == 's' {
			c[0] = n
		} else {
			c[1] = n
		}
		out[day] = c
	}
	return out
}

// restoreWindow sets the day buckets read with dayBuckets on a node or an edge.
func restoreWindow(v any, set func(day, success, total int64)) {
	for day, c := range dayCounts(v) {
		set(day, c[0], c[1])
	}
}

// load rebuilds the named APIs, their parameters and the behavioural edges among them, with
// the APIs' embeddings if embeddings is set (search does not need them; training does).
func (s *Store) load(ctx context.Context, rd reader, names []string, embeddings bool) (*twnm.Graph, error) {
	g := twnm.New()
	if len(names) == 0 {
		return g, nil
	}
	key, err := activePredictionKey(ctx, rd)
	if err != nil {
		return nil, err
	}
	recs, err := rd.read(ctx, "read APIs", loadAPIs, map[string]any{"names": names, "embeddings": embeddings})
	if err != nil {
		return nil, err
	}
	paramSet := map[string]bool{}
	var params []string
	for _, r := range recs {
		m := r.AsMap()
		name := m["name"].(string)
		api := twnm.API{Name: name, Description: m["description"].(string)}
		if spec, _ := m["spec"].(string); spec != "" {
			if err := json.Unmarshal([]byte(spec), &api); err != nil {
				return nil, fmt.Errorf("read API %s: specification: %w", name, err)
			}
		} else {
			// Written without a specification (by hand, or an older Navi): the structural
			// edges still say what the API takes and gives.
			api.Inputs, api.Outputs = edgeParams(m["ins"]), edgeParams(m["outs"])
		}
		nodes := map[string]string{} // "in\x1fparam" -> node name
		for dir, key := range map[string]string{"in": "ins", "out": "outs"} {
			for _, x := range m[key].([]any) {
				e := x.(map[string]any)
				node, _ := e["node"].(string)
				param, _ := e["param"].(string)
				if node == "" {
					continue
				}
				nodes[dir+"\x1f"+param] = node
				if !paramSet[node] {
					paramSet[node] = true
					params = append(params, node)
				}
			}
		}
		id, err := g.AddAPIWithParams(api, func(p twnm.Param, input bool) string {
			dir := "out"
			if input {
				dir = "in"
			}
			if n, ok := nodes[dir+"\x1f"+p.Name]; ok {
				return n
			}
			return p.Name // an edge the store lacks: fall back to the parameter's own name
		})
		if err != nil {
			return nil, fmt.Errorf("read API %s: %w", name, err)
		}
		n := g.Node(id)
		n.Success, n.Failure = m["success"].(int64), m["failure"].(int64)
		for _, kv := range m["failed_by"].([]any) {
			pair := kv.([]any)
			if v, ok := pair[1].(int64); ok {
				if n.FailedBy == nil {
					n.FailedBy = map[twnm.Signal]int64{}
				}
				n.FailedBy[twnm.Signal(pair[0].(string))] = v
			}
		}
		if n.Status, err = twnm.ParseStatus(m["status"].(string)); err != nil {
			return nil, fmt.Errorf("read API %s: %w", name, err)
		}
		n.Embedding = floats(m["embedding"])
		restoreWindow(m["days"], n.SetRecent)
	}
	recs, err = rd.read(ctx, "read parameters", loadParams, map[string]any{"names": params, "all": embeddings})
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		m := r.AsMap()
		id, ok := g.ParamByName(m["name"].(string))
		if !ok {
			continue
		}
		n := g.Node(id)
		n.Type, n.Description = m["type"].(string), m["description"].(string)
		n.Success, n.Failure = m["success"].(int64), m["failure"].(int64)
		if embeddings {
			n.Members = stringList(m["members"])
		} else { // the loaded APIs' own, as adding them named them
			slices.Sort(n.Members)
			n.Members = slices.Compact(n.Members)
		}
		restoreWindow(m["days"], n.SetRecent)
	}
	recs, err = rd.read(ctx, "read behavioural edges", loadEdges, map[string]any{"apis": names, "params": params, "key": key})
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		m := r.AsMap()
		from, to := m["from"].(string), m["to"].(string)
		var a, b twnm.NodeID
		var okA, okB bool
		kind := twnm.Then
		if m["kind"] == "FEEDS" {
			kind = twnm.Feeds
			a, okA = g.ParamByName(from)
			b, okB = g.ParamByName(to)
		} else {
			a, okA = g.APIByName(from)
			b, okB = g.APIByName(to)
		}
		if !okA || !okB {
			continue
		}
		e := g.AddEdge(kind, a, b)
		e.Count, e.Success, e.Weight, e.Confidence = m["count"].(int64), m["success"].(int64), m["weight"].(float64), m["confidence"].(float64)
		restoreWindow(m["days"], e.SetRecent)
		if p, ok := m["predicted"].(float64); ok {
			e.Predicted, e.HasPrediction = p, true
		}
	}
	return g, nil
}

// activePredictionKey is the edge property holding the active model's predicted weights, or
// "" when no model is active.
func activePredictionKey(ctx context.Context, rd reader) (string, error) {
	recs, err := rd.read(ctx, "read active model", activeModelQuery, nil)
	if err != nil || len(recs) == 0 {
		return "", err
	}
	v, _ := recs[0].AsMap()["v"].(string)
	if v == "" {
		return "", nil
	}
	return "p_" + v, nil
}

// edgeParams turns collected {node, param, required} maps into parameters.
func edgeParams(v any) []twnm.Param {
	var ps []twnm.Param
	for _, x := range v.([]any) {
		e := x.(map[string]any)
		if param, _ := e["param"].(string); param != "" {
			req, _ := e["required"].(bool)
			ps = append(ps, twnm.Param{Name: param, Required: req})
		}
	}
	return ps
}

func zero(v []float64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

func floats(v any) []float64 {
	list, ok := v.([]any)
	if !ok {
		return nil
	}
	out := make([]float64, len(list))
	for i, x := range list {
		out[i], _ = x.(float64)
	}
	return out
}
