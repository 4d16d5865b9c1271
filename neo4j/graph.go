package neo4j

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	driver "github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/embed"
	"github.com/naviagent/navi/twnm/lexicon"
)

// Counts is the size of the graph.
type Counts struct {
	APIs   int64 `json:"apis"`
	Params int64 `json:"params"`
	Edges  int64 `json:"edges"`
}

// APIMatch is an API found by FindAPIs, with its parameters' names.
type APIMatch struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Inputs      []string `json:"inputs"`
	Outputs     []string `json:"outputs"`
	Score       int64    `json:"score"` // how many query terms the name or description contains
}

// OpenWithSchema opens the store and applies the schema for the default embedder, as a worker
// does at start.
func OpenWithSchema(ctx context.Context, o Options) (*Store, error) {
	s, err := Open(ctx, o)
	if err != nil {
		return nil, err
	}
	if err := s.EnsureSchema(ctx, SchemaOptions{}); err != nil {
		_ = s.Close(ctx)
		return nil, err
	}
	return s, nil
}

// LoadStats is what LoadCatalog imported: ImportStats.
type LoadStats = ImportStats

// LoadCatalog builds c's graph (parameters clustered by the offline hashed embedder, APIs
// embedded by embed.Standard, the embedder retrieval uses) and imports it as one unit: see
// Import.
func (s *Store) LoadCatalog(ctx context.Context, c twnm.Catalog) (LoadStats, error) {
	return s.LoadCatalogWith(ctx, c, ImportOptions{})
}

// LoadCatalogWith is LoadCatalog with the options of ImportWith.
func (s *Store) LoadCatalogWith(ctx context.Context, c twnm.Catalog, o ImportOptions) (LoadStats, error) {
	emb, err := embed.Standard()
	if err != nil {
		return LoadStats{}, fmt.Errorf("load catalog %s: %w", c.Name, err)
	}
	g, err := twnm.Build(ctx, c, twnm.BuildOptions{Embedder: embed.Default(), APIEmbedder: emb})
	if err != nil {
		return LoadStats{}, fmt.Errorf("load catalog %s: %w", c.Name, err)
	}
	st, err := s.ImportWith(ctx, g, c.Name, o)
	if err != nil {
		return LoadStats{}, err
	}
	return st, nil
}

// Counts reads the number of API nodes, parameter nodes and edges between them.
func (s *Store) Counts(ctx context.Context) (Counts, error) {
	res, err := s.run(ctx, "count graph", false, `
CALL () { MATCH (a:API) RETURN count(a) AS apis }
CALL () { MATCH (p:Param) RETURN count(p) AS params }
CALL () { MATCH (:API|Param)-[e:INPUT_OF|OUTPUTS|THEN|FEEDS]->(:API|Param) RETURN count(e) AS edges }
RETURN apis, params, edges`, nil)
	if err != nil {
		return Counts{}, err
	}
	if len(res.Records) != 1 {
		return Counts{}, fmt.Errorf("count graph: got %d rows, want 1", len(res.Records))
	}
	r := res.Records[0]
	var c Counts
	for _, f := range []struct {
		key string
		dst *int64
	}{{"apis", &c.APIs}, {"params", &c.Params}, {"edges", &c.Edges}} {
		v, _, err := driver.GetRecordValue[int64](r, f.key)
		if err != nil {
			return Counts{}, fmt.Errorf("count graph: %w", err)
		}
		*f.dst = v
	}
	return c, nil
}

// findAPIs ranks APIs by how many terms their name or description contains. It is the keyword
// stand-in for vector retrieval until embeddings are stored.
const findAPIs = `
MATCH (a:API)
WITH a, toLower(a.name + ' ' + coalesce(a.description, '')) AS text
WITH a, size([t IN $terms WHERE text CONTAINS t]) AS score
WHERE score > 0
OPTIONAL MATCH (i:Param)-[:INPUT_OF]->(a)
WITH a, score, collect(DISTINCT i.name) AS inputs
OPTIONAL MATCH (a)-[:OUTPUTS]->(o:Param)
WITH a, score, inputs, collect(DISTINCT o.name) AS outputs
RETURN a.name AS name, coalesce(a.description, '') AS description, inputs, outputs, score
ORDER BY score DESC, name
LIMIT $limit`

// FindAPIs returns at most limit APIs whose name or description mention words of query,
// best first.
func (s *Store) FindAPIs(ctx context.Context, query string, limit int) ([]APIMatch, error) {
	terms := Terms(query)
	if len(terms) == 0 || limit <= 0 {
		return nil, nil
	}
	res, err := s.run(ctx, "find APIs", false, findAPIs, map[string]any{"terms": terms, "limit": int64(limit)})
	if err != nil {
		return nil, err
	}
	out := make([]APIMatch, 0, len(res.Records))
	for _, r := range res.Records {
		m := r.AsMap()
		out = append(out, APIMatch{
			Name:        m["name"].(string),
			Description: m["description"].(string),
			Inputs:      stringList(m["inputs"]),
			Outputs:     stringList(m["outputs"]),
			Score:       m["score"].(int64),
		})
	}
	return out, nil
}

// Terms splits a query into distinct lower-case words of three or more letters or digits,
// without stop words, in order of first appearance.
func Terms(query string) []string {
	words := strings.FieldsFunc(strings.ToLower(query), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	seen := map[string]bool{}
	var out []string
	for _, w := range words {
		if len([]rune(w)) < 3 || lexicon.IsStopWord(w) || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

func stringList(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func single[T driver.RecordValue](res *driver.EagerResult, key string) (T, error) {
	var zero T
	if len(res.Records) != 1 {
		return zero, fmt.Errorf("got %d rows, want 1", len(res.Records))
	}
	v, _, err := driver.GetRecordValue[T](res.Records[0], key)
	return v, err
}

// apiDescriptions reads the descriptions of active APIs, spread over the graph: every k-th
// by name, so that a warm-up touches each catalog.
const apiDescriptions = `
MATCH (a:API)
WHERE coalesce(a.status, 'active') = 'active' AND coalesce(a.description, '') <> ''
WITH a ORDER BY a.name
WITH collect(a.description) AS ds
WITH ds, toInteger(ceil(toFloat(size(ds)) / $limit)) AS k
UNWIND range(0, size(ds) - 1, CASE WHEN k < 1 THEN 1 ELSE k END) AS i
RETURN ds[i] AS description
LIMIT $limit`

// APIDescriptions returns at most limit descriptions of the graph's active APIs, spread over
// it by name: requests a warm-up can ask that the graph serves.
func (s *Store) APIDescriptions(ctx context.Context, limit int) ([]string, error) {
	if limit <= 0 {
		return nil, nil
	}
	res, err := s.run(ctx, "read API descriptions", false, apiDescriptions, map[string]any{"limit": int64(limit)})
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(res.Records))
	for _, r := range res.Records {
		if d, ok := r.AsMap()["description"].(string); ok {
			out = append(out, d)
		}
	}
	return out, nil
}
