package neo4j

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"time"

	driver "github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/naviagent/navi/twnm/embed"
)

// VectorIndex is the name of the vector index on API embeddings.
const VectorIndex = "api_embedding"

// ErrSchemaMismatch is wrapped by errors caused by a graph written with another embedder.
var ErrSchemaMismatch = errors.New("schema mismatch")

// SchemaOptions says what the graph's embeddings are.
type SchemaOptions struct {
	Embedder string // the embedder's Name(); default embed.Standard()'s
	Dim      int    // embedding dimension; default embed.Standard()'s
}

func (o *SchemaOptions) defaults() error {
	if o.Embedder != "" && o.Dim != 0 {
		return nil
	}
	emb, err := embed.Standard()
	if err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	if o.Embedder == "" {
		o.Embedder = emb.Name()
	}
	if o.Dim == 0 {
		o.Dim = emb.Dim()
	}
	return nil
}

// schemaStatements are applied idempotently by EnsureSchema. The uniqueness constraints also
// make MERGE of nodes safe under concurrent writers.
var schemaStatements = []string{
	"CREATE CONSTRAINT api_name IF NOT EXISTS FOR (a:API) REQUIRE a.name IS UNIQUE",
	"CREATE CONSTRAINT param_name IF NOT EXISTS FOR (p:Param) REQUIRE p.name IS UNIQUE",
	"CREATE CONSTRAINT navi_meta_id IF NOT EXISTS FOR (m:NaviMeta) REQUIRE m.id IS UNIQUE",
	"CREATE CONSTRAINT feedback_batch_key IF NOT EXISTS FOR (f:FeedbackBatch) REQUIRE f.key IS UNIQUE",
	"CREATE CONSTRAINT navi_model_version IF NOT EXISTS FOR (m:NaviModel) REQUIRE m.version IS UNIQUE",
	"CREATE INDEX api_status IF NOT EXISTS FOR (a:API) ON (a.status)",
	"CREATE INDEX api_catalog IF NOT EXISTS FOR (a:API) ON (a.catalog)",
	"CREATE INDEX api_lists IF NOT EXISTS FOR (a:API) ON (a.lists)",
	textIndex,
}

var identifier = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// EnsureSchema creates the constraints, indexes and the vector index on API embeddings where
// they are missing, and records the embedder. A graph whose embeddings came from another
// embedder or dimension is refused with ErrSchemaMismatch: mixing them would make vector
// retrieval meaningless.
func (s *Store) EnsureSchema(ctx context.Context, o SchemaOptions) error {
	if err := o.defaults(); err != nil {
		return err
	}
	if o.Dim < 1 || o.Dim > 4096 {
		return fmt.Errorf("schema: embedding dimension %d: want 1 to 4096 (Neo4j's vector index limit)", o.Dim)
	}
	res, err := s.run(ctx, "read schema", false, "MATCH (m:NaviMeta {id: 'schema'}) RETURN m.embedder AS embedder, m.dim AS dim", nil)
	if err != nil {
		return err
	}
	if len(res.Records) == 1 {
		m := res.Records[0].AsMap()
		if dim, _ := m["dim"].(int64); int(dim) != o.Dim || m["embedder"] != o.Embedder {
			return fmt.Errorf("%w: the graph at %s holds %v-dimensional embeddings of %v, this process uses %d-dimensional %s: "+
				"configure the same embedder (NAVI_EMBEDDER), or move the graph to this one with `navi graph reembed`, which keeps every learned statistic", ErrSchemaMismatch, s.uri, m["dim"], m["embedder"], o.Dim, o.Embedder)
		}
	}
	for _, q := range schemaStatements {
		if _, err := s.run(ctx, "apply schema", true, q, nil); err != nil && !schemaRuleExists(err) {
			return err // (another process starting at once may have created it first)
		}
	}
	if err := s.ensureVectorIndex(ctx, VectorIndex, "API", o.Dim); err != nil {
		return err
	}
	if err := s.ensureVectorIndex(ctx, GoalIndex, "Goal", o.Dim); err != nil {
		return err
	}
	_, err = s.run(ctx, "record schema", true,
		"MERGE (m:NaviMeta {id: 'schema'}) SET m.embedder = $embedder, m.dim = $dim",
		map[string]any{"embedder": o.Embedder, "dim": int64(o.Dim)})
	return err
}

// writeTx runs fn in one explicit write transaction: everything fn writes commits together or
// not at all.
func (s *Store) writeTx(ctx context.Context, what string, fn func(tx driver.ManagedTransaction) error) error {
	sess := s.driver.NewSession(ctx, driver.SessionConfig{DatabaseName: s.db, AccessMode: driver.AccessModeWrite})
	defer sess.Close(ctx)
	_, err := sess.ExecuteWrite(ctx, func(tx driver.ManagedTransaction) (any, error) { return nil, fn(tx) })
	if err != nil {
		return fmt.Errorf("%s: %w", what, Explain(s.uri, "", err))
	}
	return nil
}

// runTx runs one query in tx and returns its records.
func runTx(ctx context.Context, tx driver.ManagedTransaction, cypher string, params map[string]any) ([]*driver.Record, error) {
	res, err := tx.Run(ctx, cypher, params)
	if err != nil {
		return nil, err
	}
	return res.Collect(ctx)
}

// ensureVectorIndex creates the vector index name on the embeddings of label's nodes, of dim
// dimensions, cosine, without quantization, and waits until it is online: a quantized index
// scores cosines a hundredth or so off (0.179 for 0.166), enough to turn near ties among
// similar endpoints (a TV season's images and the season) the other way than BM25 and the
// in-process ranking, which the evaluation measures. An index of this name that quantizes, left
// by an earlier Navi, is built again without (Neo4j 5.23 and later quantize by default); one of
// another dimension is refused with ErrSchemaMismatch. Workers that start together on such a
// store may each build it again: one that finds the index gone while it waits looks again.
func (s *Store) ensureVectorIndex(ctx context.Context, name, label string, dim int) error {
	// Index options cannot be parameters; the name is a constant and the dimension an integer
	// the caller checked.
	create := fmt.Sprintf("CREATE VECTOR INDEX %s IF NOT EXISTS FOR (n:%s) ON n.embedding "+
		"OPTIONS {indexConfig: {`vector.dimensions`: %d, `vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false}}", name, label, dim)
	var err error
	for range vectorIndexTries {
		// Created by another process between this one's check and its write, "IF NOT EXISTS"
		// fails: the index is there, which is what this asks.
		if _, err = s.run(ctx, "create vector index "+name, true, create, nil); err != nil && !schemaRuleExists(err) {
			return err
		}
		var cfg map[string]any
		if cfg, err = s.vectorIndexConfig(ctx, name); err != nil {
			return err
		}
		if got, _ := cfg["vector.dimensions"].(int64); cfg != nil && int(got) != dim {
			return fmt.Errorf("%w: vector index %s has %d dimensions, the embedder gives %d: run `navi graph reembed` (or drop the index, DROP INDEX %s, and re-import)",
				ErrSchemaMismatch, name, got, dim, name)
		}
		if quantized, _ := cfg["vector.quantization.enabled"].(bool); quantized {
			if _, err := s.run(ctx, "drop quantized vector index "+name, true, "DROP INDEX "+name+" IF EXISTS", nil); err != nil {
				return err
			}
			continue
		}
		// An index built again fills from the nodes' vectors in the background.
		if _, err = s.run(ctx, "await vector index "+name, false, "CALL db.awaitIndex($name, $seconds)",
			map[string]any{"name": name, "seconds": int64(vectorIndexWait.Seconds())}); err == nil {
			return nil
		}
	}
	if err == nil {
		err = errors.New("it was quantized again each time")
	}
	return fmt.Errorf("vector index %s: not ready after %d tries (does an older Navi create it beside this one?): %w", name, vectorIndexTries, err)
}

// schemaRuleExists reports whether err says an equivalent index or constraint already exists.
func schemaRuleExists(err error) bool {
	var ne *driver.Neo4jError
	return errors.As(err, &ne) && (ne.Code == "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists" ||
		ne.Code == "Neo.ClientError.Schema.IndexAlreadyExists")
}

// vectorIndexTries bounds how often ensureVectorIndex creates an index that another process
// drops or creates quantized at the same time.
const vectorIndexTries = 3

// vectorIndexWait bounds how long EnsureSchema waits for a vector index it builds again.
const vectorIndexWait = 5 * time.Minute

// vectorIndexConfig is the index configuration of the vector index name, nil when there is none.
func (s *Store) vectorIndexConfig(ctx context.Context, name string) (map[string]any, error) {
	res, err := s.run(ctx, "read vector index "+name, false,
		"SHOW INDEXES YIELD name, options WHERE name = $name RETURN options", map[string]any{"name": name})
	if err != nil || len(res.Records) == 0 {
		return nil, err
	}
	opts, _ := res.Records[0].AsMap()["options"].(map[string]any)
	cfg, _ := opts["indexConfig"].(map[string]any)
	return cfg, nil
}
