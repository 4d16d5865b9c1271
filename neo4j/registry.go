package neo4j

import (
	"context"
	"errors"
	"fmt"
	"time"

	driver "github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/naviagent/navi/twnm"
)

// ModelRecord is a trained model kept in the graph store, so that every worker can load it:
// the model file's bytes, its metrics as JSON, and when it was saved.
type ModelRecord struct {
	Version string
	// ValAUC is the validation AUC that decides whether the model replaces the active one.
	ValAUC  float64
	Metrics string // JSON
	Data    []byte
	Saved   time.Time
}

// ErrNoModel is wrapped by LoadModel when no model of that version was saved.
var ErrNoModel = errors.New("no such model")

// SaveModel stores a model under its version, replacing an earlier save of the same version
// (a training retried after a crash saves the same version again).
func (s *Store) SaveModel(ctx context.Context, m ModelRecord) error {
	if !identifier.MatchString(m.Version) {
		return fmt.Errorf("save model: version %q: want 1 to 64 letters, digits, '_', '.' or '-'", m.Version)
	}
	_, err := s.run(ctx, "save model "+m.Version, true, `
MERGE (m:NaviModel {version: $version})
SET m.val_auc = $val_auc, m.metrics = $metrics, m.data = $data, m.saved = datetime()`,
		map[string]any{"version": m.Version, "val_auc": m.ValAUC, "metrics": m.Metrics, "data": m.Data})
	return err
}

// LoadModel reads the model saved under version; without data when withData is false.
func (s *Store) LoadModel(ctx context.Context, version string, withData bool) (ModelRecord, error) {
	res, err := s.run(ctx, "load model "+version, false, `
MATCH (m:NaviModel {version: $version})
RETURN m.val_auc AS val_auc, m.metrics AS metrics, CASE WHEN $data THEN m.data END AS data, m.saved AS saved`,
		map[string]any{"version": version, "data": withData})
	if err != nil {
		return ModelRecord{}, err
	}
	if len(res.Records) == 0 {
		return ModelRecord{}, fmt.Errorf("load model %q: %w", version, ErrNoModel)
	}
	m := res.Records[0].AsMap()
	rec := ModelRecord{Version: version}
	rec.ValAUC, _ = m["val_auc"].(float64)
	rec.Metrics, _ = m["metrics"].(string)
	rec.Data, _ = m["data"].([]byte)
	rec.Saved, _ = m["saved"].(time.Time)
	return rec, nil
}

// WeightUpdate is a new statistical weight for one behavioural edge, by end names.
type WeightUpdate struct {
	Kind     twnm.EdgeKind
	From, To string
	Weight   float64
}

// WriteWeights sets the statistical weight of existing behavioural edges (after Eq. 14
// propagation), in batches of BatchSize, each its own transaction; every value is final on
// its own, so a half-written run leaves a graph that is merely partly propagated. Edges that
// no longer exist are skipped. It returns how many it set.
func (s *Store) WriteWeights(ctx context.Context, ws []WeightUpdate) (int, error) {
	rows := make([]edgeRow, len(ws))
	for i, w := range ws {
		rows[i] = edgeRow{w.Kind, w.From, w.To, w.Weight}
	}
	return s.writeEdgeRows(ctx, "write weights", rows, setThenWeight, setFeedsWeight, nil)
}

var (
	setThenWeight = `
UNWIND $rows AS r
MATCH (:API {name: r.from})-[e:THEN]->(:API {name: r.to})
SET e.weight = r.w
RETURN count(e) AS n`
	setFeedsWeight = `
UNWIND $rows AS r
MATCH (:Param {name: r.from})-[e:FEEDS]->(:Param {name: r.to})
SET e.weight = r.w
RETURN count(e) AS n`
)

// ResetLearned forgets what executions taught the graph about the APIs of one catalog: the
// past sub-goals they served (what users called them), the THEN edges at those APIs and the
// FEEDS edges at their parameters (predicted ones included),
// the counts and sliding windows of the APIs and parameters, and the APIs' statuses (active
// again). Catalog entries and structural edges stay, and so do the data-flow links the
// catalog gave (FEEDS edges with a confidence), with their counts, windows and predictions
// cleared. The evaluation uses it to start every
// variant from the same static graph. It returns how many APIs it reset.
func (s *Store) ResetLearned(ctx context.Context, catalog string) (int, error) {
	var n int64
	err := s.writeTx(ctx, "reset learned statistics of "+catalog, func(tx driver.ManagedTransaction) error {
		recs, err := runTx(ctx, tx, resetLearned, map[string]any{"catalog": catalog})
		if err != nil {
			return err
		}
		n, _ = recs[0].AsMap()["n"].(int64)
		return nil
	})
	return int(n), err
}

const resetLearned = `
CALL () {` + forgetServedGoals + `
}
MATCH (a:API {catalog: $catalog})` + forgetLearnedAPI + `
WITH collect(a) AS apis
CALL (apis) {
  UNWIND apis AS a
  MATCH (a)-[:INPUT_OF|OUTPUTS]-(p:Param)
  WITH DISTINCT p
  OPTIONAL MATCH (p)-[f:FEEDS]-(:Param)
  WITH collect(DISTINCT p) AS ps, collect(DISTINCT f) AS fs
  WITH ps, [x IN fs WHERE x.confidence IS NULL] AS learned, [x IN fs WHERE x.confidence IS NOT NULL] AS links
  FOREACH (f IN learned | DELETE f)
  FOREACH (f IN links |
    SET f.count = 0, f.success = 0, f.weight = 0.0
    FOREACH (k IN [k IN keys(f) WHERE k =~ 'd[0-9]+_[sn]' OR k STARTS WITH 'p_'] | SET f[k] = null))
  FOREACH (p IN ps |
    FOREACH (k IN [k IN keys(p) WHERE k =~ 'd[0-9]+_[sn]'] | SET p[k] = null)
    SET p.success = 0, p.failure = 0)
}
RETURN size(apis) AS n`

// forgetLearnedAPI follows a MATCH of API nodes a: it forgets what was learned about each,
// its counts, sliding windows, status and THEN edges, and goes on with a.
const forgetLearnedAPI = `
OPTIONAL MATCH (a)-[t:THEN]-(:API)
DELETE t
WITH DISTINCT a
FOREACH (k IN [k IN keys(a) WHERE k =~ 'd[0-9]+_[sn]'] | SET a[k] = null)
SET a.success = 0, a.failure = 0, a.status = 'active'`

// DeactivateModel makes reads ignore every model's predictions until a version is activated.
func (s *Store) DeactivateModel(ctx context.Context) error {
	_, err := s.run(ctx, "deactivate model", true, `
MATCH (m:NaviMeta {id: 'model'})
SET m.previous = m.version, m.version = null, m.activated_at = datetime()`, nil)
	return err
}
