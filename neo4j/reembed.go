package neo4j

import (
	"context"
	"encoding/json"
	"fmt"

	driver "github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/embed"
	"github.com/naviagent/navi/twnm/subgoal"
)

// ReembedBatch is how many vectors Reembed writes per transaction.
const ReembedBatch = 256

// ReembedStats counts what Reembed rewrote.
type ReembedStats struct {
	APIs  int `json:"apis"`
	Goals int `json:"goals"`
	// Dropped counts the past sub-goals kept without their text (payload encryption): their
	// vectors cannot be rebuilt under another embedder, so they are forgotten.
	Dropped int `json:"dropped,omitempty"`
	// Changed counts the APIs whose entry an import rewrote while Reembed ran: they keep the
	// vector that import wrote, not Reembed's (run Reembed again if that import used another
	// embedder).
	Changed int `json:"changed,omitempty"`
	// Dim is the new dimension; Recreated says whether the vector indexes were rebuilt for it.
	Dim       int  `json:"dim"`
	Recreated bool `json:"recreated"`
}

// Reembed moves the graph to another embedder in place: every API's vector is recomputed from
// its text (twnm.APIText of its stored entry), and its tool document for the full-text index
// (twnm.KinDocuments) written again from the same entries, so that a graph an older version
// imported ranks as this one does; every past sub-goal's vector is recomputed from its query
// (subgoal.Query of its text), in batches of ReembedBatch per transaction; the vector indexes
// are rebuilt when the dimension changes; the schema then records emb. Statistics, statuses,
// edges, weights and predictions are not touched. progress, when set, is told how many of the
// total vectors are written, after each batch. Errors name the API (or sub-goal) concerned, or
// the first and last of its batch.
//
// An API that an import rewrites while Reembed runs keeps the vector the import wrote
// (ReembedStats.Changed counts them). Retrieval by vectors is degraded until Reembed ends;
// run it with the workers stopped, or accept that. It is safe to run again after a failure.
func (s *Store) Reembed(ctx context.Context, emb embed.Embedder, progress func(done, total int)) (ReembedStats, error) {
	st := ReembedStats{Dim: emb.Dim()}
	cfg, err := s.vectorIndexConfig(ctx, VectorIndex)
	if err != nil {
		return st, err
	}
	if current, _ := cfg["vector.dimensions"].(int64); current != 0 && int(current) != st.Dim {
		// A vector index leaves vectors of another dimension out, so the old indexes would
		// quietly lose every rewritten vector: drop them first.
		for _, idx := range []string{VectorIndex, GoalIndex} {
			if _, err := s.run(ctx, "drop vector index", true, "DROP INDEX "+idx+" IF EXISTS", nil); err != nil {
				return st, err
			}
		}
		st.Recreated = true
	}
	apis, err := s.run(ctx, "read API texts", false, "MATCH (a:API) RETURN a.name AS name, coalesce(a.spec, '') AS spec, coalesce(a.description, '') AS description, coalesce(a.status, 'active') = 'retired' AS retired ORDER BY name", nil)
	if err != nil {
		return st, err
	}
	goals, err := s.run(ctx, "read past sub-goals", false, "MATCH (g:Goal) RETURN g.id AS name, elementId(g) AS element, g.text AS text ORDER BY name", nil)
	if err != nil {
		return st, err
	}
	total := len(apis.Records) + len(goals.Records)
	done := 0
	// write embeds texts[i] for names[i] and sets the vectors with cypher, whose $rows are
	// rows[i] with the vector as embedding, batch by batch; cypher returns how many it set
	// as n.
	write := func(label, cypher string, names, texts []string, rows []map[string]any) (int, error) {
		set := 0
		for i := 0; i < len(names); i += ReembedBatch {
			j := min(i+ReembedBatch, len(names))
			which := label + " " + names[i]
			if j-i > 1 {
				which += " … " + names[j-1]
			}
			vecs, err := emb.Embed(ctx, texts[i:j])
			if err != nil {
				return set, fmt.Errorf("reembed %s: %w", which, err)
			}
			if len(vecs) != j-i {
				return set, fmt.Errorf("reembed %s: the embedder gave %d vectors for %d texts", which, len(vecs), j-i)
			}
			batch := rows[i:j]
			for k, v := range vecs {
				if len(v) != st.Dim {
					return set, fmt.Errorf("reembed %s %s: the embedder gave %d dimensions, not %d", label, names[i+k], len(v), st.Dim)
				}
				batch[k]["embedding"] = nilIfZero(v)
			}
			if err := s.writeTx(ctx, "reembed "+which, func(tx driver.ManagedTransaction) error {
				recs, err := runTx(ctx, tx, cypher, map[string]any{"rows": batch})
				if err != nil || len(recs) == 0 {
					return err
				}
				n, _ := recs[0].AsMap()["n"].(int64)
				set += int(n)
				return nil
			}); err != nil {
				return set, err
			}
			done += j - i
			if progress != nil {
				progress(done, total)
			}
		}
		return set, nil
	}
	var names, texts []string
	var rows []map[string]any
	var entries []twnm.API
	var retired []bool
	for _, r := range apis.Records {
		m := r.AsMap()
		name, spec, desc := m["name"].(string), m["spec"].(string), m["description"].(string)
		a := twnm.API{Name: name, Description: desc}
		if spec != "" {
			if err := json.Unmarshal([]byte(spec), &a); err != nil {
				return st, fmt.Errorf("reembed: API %s: specification: %w", name, err)
			}
		}
		gone, _ := m["retired"].(bool)
		entries, retired = append(entries, a), append(retired, gone)
		names, texts = append(names, name), append(texts, twnm.APIText(a))
		rows = append(rows, map[string]any{"name": name, "spec": spec, "description": desc})
	}
	// The tool documents, as this version writes them: an API's kin are those its source's
	// latest import holds, as Import found them.
	for i, doc := range twnm.KinDocuments(entries, retired) {
		for k, v := range textProperties(doc) {
			rows[i][k] = v
		}
	}
	set, err := write("API", reembedAPIs, names, texts, rows)
	st.APIs, st.Changed = set, len(names)-set
	if err != nil {
		return st, err
	}
	names, texts, rows = nil, nil, nil
	var textless []string
	for _, r := range goals.Records {
		m := r.AsMap()
		text, _ := m["text"].(string)
		if text == "" {
			textless = append(textless, m["element"].(string))
			continue
		}
		names, texts = append(names, m["name"].(string)), append(texts, subgoal.Query(text))
		rows = append(rows, map[string]any{"name": m["name"], "element": m["element"]})
	}
	if st.Goals, err = write("sub-goal", reembedGoals, names, texts, rows); err != nil {
		return st, err
	}
	if len(textless) > 0 {
		if _, err := s.run(ctx, "forget text-less sub-goals", true, "MATCH (g:Goal) WHERE elementId(g) IN $ids DETACH DELETE g",
			map[string]any{"ids": textless}); err != nil {
			return st, err
		}
		st.Dropped = len(textless)
	}
	if _, err := s.run(ctx, "record schema", true, "MERGE (m:NaviMeta {id: 'schema'}) SET m.embedder = $embedder, m.dim = $dim",
		map[string]any{"embedder": emb.Name(), "dim": int64(st.Dim)}); err != nil {
		return st, err
	}
	return st, s.EnsureSchema(ctx, SchemaOptions{Embedder: emb.Name(), Dim: st.Dim})
}

// reembedAPIs sets the APIs' new vectors, except on those whose entry changed since Reembed
// read it (a concurrent import wrote their vector).
const reembedAPIs = `
UNWIND $rows AS r
MATCH (a:API {name: r.name})
WHERE coalesce(a.spec, '') = r.spec AND coalesce(a.description, '') = r.description
SET a.embedding = r.embedding, a.` + propText + ` = r.` + propText + `, a.` + propParams + ` = r.` + propParams + `
RETURN count(a) AS n`

// reembedGoals sets the past sub-goals' new vectors (a sub-goal's text never changes). Goal
// ids have no index: the element id finds the node, the id checks it is the same one.
const reembedGoals = `
UNWIND $rows AS r
MATCH (g:Goal) WHERE elementId(g) = r.element AND g.id = r.name
SET g.embedding = r.embedding
RETURN count(g) AS n`
