package neo4j

import (
	"context"
	"fmt"

	driver "github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/naviagent/navi/twnm"
)

// Prediction is one predicted edge weight: between two APIs (THEN) or two parameter nodes
// (FEEDS), by name. An edge that does not exist yet is created as a predicted missing edge,
// with no observed counts.
type Prediction struct {
	Kind     twnm.EdgeKind
	From, To string
	Weight   float64
}

// WritePredictions stores a model version's predicted weights on the edges, in batches of
// BatchSize, each batch its own transaction: a version is not read until ActivateModel
// switches to it, so a half-written version is never used. It returns how many edges it
// wrote; predictions naming unknown nodes are skipped and counted out.
func (s *Store) WritePredictions(ctx context.Context, version string, preds []Prediction) (int, error) {
	if !identifier.MatchString(version) {
		return 0, fmt.Errorf("write predictions: model version %q: want 1 to 64 letters, digits, '_', '.' or '-'", version)
	}
	rows := make([]edgeRow, len(preds))
	for i, p := range preds {
		rows[i] = edgeRow{p.Kind, p.From, p.To, p.Weight}
	}
	return s.writeEdgeRows(ctx, "write predictions "+version, rows, predictThen, predictFeeds, map[string]any{"key": "p_" + version})
}

// edgeRow is one weight to write on a behavioural edge, by end names.
type edgeRow struct {
	kind     twnm.EdgeKind
	from, to string
	w        float64
}

// writeEdgeRows writes rows with the statement of their kind (THEN or FEEDS), in batches of
// BatchSize, each batch its own transaction with params and the batch as $rows; every
// statement returns how many edges it wrote as n. It returns the sum.
func (s *Store) writeEdgeRows(ctx context.Context, what string, rows []edgeRow, thenCypher, feedsCypher string, params map[string]any) (int, error) {
	var then, feeds []map[string]any
	for _, r := range rows {
		row := map[string]any{"from": r.from, "to": r.to, "w": r.w}
		switch r.kind {
		case twnm.Then:
			then = append(then, row)
		case twnm.Feeds:
			feeds = append(feeds, row)
		default:
			return 0, fmt.Errorf("%s: %s -> %s: kind %s is not THEN or FEEDS", what, r.from, r.to, r.kind)
		}
	}
	written := 0
	for _, part := range []struct {
		cypher string
		rows   []map[string]any
	}{{thenCypher, then}, {feedsCypher, feeds}} {
		for i := 0; i < len(part.rows); i += BatchSize {
			batch := map[string]any{"rows": part.rows[i:min(i+BatchSize, len(part.rows))]}
			for k, v := range params {
				batch[k] = v
			}
			err := s.writeTx(ctx, what, func(tx driver.ManagedTransaction) error {
				recs, err := runTx(ctx, tx, part.cypher, batch)
				if err != nil {
					return err
				}
				n, _ := recs[0].AsMap()["n"].(int64)
				written += int(n)
				return nil
			})
			if err != nil {
				return written, err
			}
		}
	}
	return written, nil
}

// predictEdge writes a predicted weight on the edge between two nodes of one label, creating
// it as a predicted missing edge (no observed counts) if needed. The end nodes' write locks are
// taken first, so concurrent writers cannot create the edge twice.
func predictEdge(label, rel string) string {
	return fmt.Sprintf(`
UNWIND $rows AS r
MATCH (a:%[1]s {name: r.from}), (b:%[1]s {name: r.to})
SET a._lock = true, b._lock = true
REMOVE a._lock, b._lock
MERGE (a)-[e:%[2]s]->(b)
ON CREATE SET e.count = 0, e.success = 0, e.weight = 0.0, e.predicted_only = true
SET e[$key] = r.w
RETURN count(e) AS n`, label, rel)
}

var (
	predictThen  = predictEdge("API", "THEN")
	predictFeeds = predictEdge("Param", "FEEDS")
)

// ActivateModel makes version the model whose predicted weights reads return, in one write:
// readers see the old version or the new one, never a mix.
func (s *Store) ActivateModel(ctx context.Context, version string) error {
	if !identifier.MatchString(version) {
		return fmt.Errorf("activate model: version %q: want 1 to 64 letters, digits, '_', '.' or '-'", version)
	}
	_, err := s.run(ctx, "activate model "+version, true, `
MERGE (m:NaviMeta {id: 'model'})
SET m.previous = m.version, m.version = $v, m.activated_at = datetime()`, map[string]any{"v": version})
	return err
}

const activeModelQuery = "MATCH (m:NaviMeta {id: 'model'}) RETURN m.version AS v"

// ActiveModel returns the active model version, or "" when none was activated.
func (s *Store) ActiveModel(ctx context.Context) (string, error) {
	res, err := s.run(ctx, "read active model", false, activeModelQuery, nil)
	if err != nil || len(res.Records) == 0 {
		return "", err
	}
	v, _ := res.Records[0].AsMap()["v"].(string)
	return v, nil
}

// SetStatus marks an API active, pruned or probing (targeted pruning and reactivation).
// Retrieval and subgraph reads skip APIs that are not active. Reactivating an API (to active
// from another status) forgets its sliding window, as twnm.Graph.SetStatus does, so the
// failures that pruned it do not prune it again at the next round; its lifetime counts stay.
func (s *Store) SetStatus(ctx context.Context, api string, st twnm.Status) error {
	res, err := s.run(ctx, "set status of "+api, true, `
MATCH (a:API {name: $name})
WITH a, coalesce(a.status, 'active') AS was
FOREACH (k IN CASE WHEN $status = 'active' AND was <> 'active' THEN [k IN keys(a) WHERE k =~ 'd[0-9]+_[sn]'] ELSE [] END |
  SET a[k] = null)
SET a.status = $status, a.status_since = datetime()
RETURN count(a) AS n`,
		map[string]any{"name": api, "status": st.String()})
	if err != nil {
		return err
	}
	if n, _ := single[int64](res, "n"); n == 0 {
		return fmt.Errorf("set status of %q: no such API", api)
	}
	return nil
}
