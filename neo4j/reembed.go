package neo4j

import (
	"context"
	"encoding/json"
	"fmt"

	driver "github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/embed"
)

// ReembedBatch is how many vectors Reembed writes per transaction.
const ReembedBatch = 256

// ReembedStats counts what Reembed rewrote.
type ReembedStats struct {
	APIs  int `json:"apis"`
	Goals int `json:"goals"`
	// Dim is the new dimension; Recreated says whether the vector indexes were rebuilt for it.
	Dim       int  `json:"dim"`
	Recreated bool `json:"recreated"`
}

// Reembed moves the graph to another embedder in place: every API's vector is recomputed from
// its text (twnm.APIText of its stored entry) and every past sub-goal's from its text, in
// batches of ReembedBatch per transaction; the vector indexes are rebuilt when the dimension
// changes; the schema then records emb. Statistics, statuses, edges, weights and predictions
// are not touched. progress, when set, is told how many of the total vectors are written.
// Retrieval by vectors is degraded until it ends; run it with the workers stopped, or accept
// that. It is safe to run again after a failure.
func (s *Store) Reembed(ctx context.Context, emb embed.Embedder, progress func(done, total int)) (ReembedStats, error) {
	st := ReembedStats{Dim: emb.Dim()}
	current, err := s.vectorIndexDim(ctx)
	if err != nil {
		return st, err
	}
	if current != 0 && current != st.Dim {
		// A vector index leaves vectors of another dimension out, so the old indexes would
		// quietly lose every rewritten vector: drop them first.
		for _, idx := range []string{VectorIndex, GoalIndex} {
			if _, err := s.run(ctx, "drop vector index", true, "DROP INDEX "+idx+" IF EXISTS", nil); err != nil {
				return st, err
			}
		}
		st.Recreated = true
	}
	apis, err := s.run(ctx, "read API texts", false, "MATCH (a:API) RETURN a.name AS name, a.spec AS spec, coalesce(a.description, '') AS description ORDER BY name", nil)
	if err != nil {
		return st, err
	}
	goals, err := s.run(ctx, "read past sub-goals", false, "MATCH (g:Goal) RETURN g.id AS name, g.text AS text ORDER BY name", nil)
	if err != nil {
		return st, err
	}
	total := len(apis.Records) + len(goals.Records)
	done := 0
	write := func(label, key string, names, texts []string) error {
		for i := 0; i < len(names); i += ReembedBatch {
			j := min(i+ReembedBatch, len(names))
			vecs, err := emb.Embed(ctx, texts[i:j])
			if err != nil {
				return fmt.Errorf("reembed %s %s…: %w", label, names[i], err)
			}
			rows := make([]map[string]any, 0, j-i)
			for k, v := range vecs {
				rows = append(rows, map[string]any{"name": names[i+k], "embedding": nilIfZero(v)})
			}
			q := fmt.Sprintf("UNWIND $rows AS r MATCH (n:%s {%s: r.name}) SET n.embedding = r.embedding", label, key)
			if err := s.writeTx(ctx, "reembed "+label, func(tx driver.ManagedTransaction) error {
				_, err := runTx(ctx, tx, q, map[string]any{"rows": rows})
				return err
			}); err != nil {
				return err
			}
			done += j - i
			if progress != nil {
				progress(done, total)
			}
		}
		return nil
	}
	var names, texts []string
	for _, r := range apis.Records {
		m := r.AsMap()
		name := m["name"].(string)
		a := twnm.API{Name: name, Description: m["description"].(string)}
		if spec, _ := m["spec"].(string); spec != "" {
			if err := json.Unmarshal([]byte(spec), &a); err != nil {
				return st, fmt.Errorf("reembed: API %s: specification: %w", name, err)
			}
		}
		names, texts = append(names, name), append(texts, twnm.APIText(a))
	}
	if err := write("API", "name", names, texts); err != nil {
		return st, err
	}
	st.APIs = len(names)
	names, texts = nil, nil
	for _, r := range goals.Records {
		m := r.AsMap()
		text, _ := m["text"].(string)
		names, texts = append(names, m["name"].(string)), append(texts, text)
	}
	if err := write("Goal", "id", names, texts); err != nil {
		return st, err
	}
	st.Goals = len(names)
	if _, err := s.run(ctx, "record schema", true, "MERGE (m:NaviMeta {id: 'schema'}) SET m.embedder = $embedder, m.dim = $dim",
		map[string]any{"embedder": emb.Name(), "dim": int64(st.Dim)}); err != nil {
		return st, err
	}
	return st, s.EnsureSchema(ctx, SchemaOptions{Embedder: emb.Name(), Dim: st.Dim})
}

// vectorIndexDim is the dimension of the API vector index, or 0 when there is none.
func (s *Store) vectorIndexDim(ctx context.Context) (int, error) {
	res, err := s.run(ctx, "read vector index", false,
		"SHOW INDEXES YIELD name, options WHERE name = $name RETURN options", map[string]any{"name": VectorIndex})
	if err != nil || len(res.Records) == 0 {
		return 0, err
	}
	opts, _ := res.Records[0].AsMap()["options"].(map[string]any)
	cfg, _ := opts["indexConfig"].(map[string]any)
	dim, _ := cfg["vector.dimensions"].(int64)
	return int(dim), nil
}
