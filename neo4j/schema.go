package neo4j

import (
	"context"
	"errors"
	"fmt"
	"regexp"

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
		if _, err := s.run(ctx, "apply schema", true, q, nil); err != nil {
			return err
		}
	}
	// Index options cannot be parameters; the dimension is an integer checked above.
	vector := fmt.Sprintf("CREATE VECTOR INDEX %s IF NOT EXISTS FOR (a:API) ON a.embedding "+
		"OPTIONS {indexConfig: {`vector.dimensions`: %d, `vector.similarity_function`: 'cosine'}}", VectorIndex, o.Dim)
	if _, err := s.run(ctx, "create vector index", true, vector, nil); err != nil {
		return err
	}
	if err := s.ensureGoalIndex(ctx, o.Dim); err != nil {
		return err
	}
	res, err = s.run(ctx, "read vector index", false,
		"SHOW INDEXES YIELD name, options WHERE name = $name RETURN options", map[string]any{"name": VectorIndex})
	if err != nil {
		return err
	}
	if len(res.Records) == 1 {
		opts, _ := res.Records[0].AsMap()["options"].(map[string]any)
		cfg, _ := opts["indexConfig"].(map[string]any)
		if dim, _ := cfg["vector.dimensions"].(int64); int(dim) != o.Dim {
			return fmt.Errorf("%w: vector index %s has %d dimensions, the embedder gives %d: run `navi graph reembed` (or drop the index, DROP INDEX %s, and re-import)",
				ErrSchemaMismatch, VectorIndex, dim, o.Dim, VectorIndex)
		}
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
