package neo4j

import (
	"context"
	"fmt"

	driver "github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// DeleteCatalog removes the APIs an import named catalog wrote, in one transaction: the API
// nodes with their edges and the past sub-goals that served only them, their members from the parameter nodes, and the
// parameter nodes no API uses any more. It returns how many APIs it removed. Other catalogs'
// APIs and their statistics are not touched.
func (s *Store) DeleteCatalog(ctx context.Context, catalog string) (int, error) {
	if catalog == "" {
		return 0, fmt.Errorf("delete catalog: the name is empty")
	}
	var n int
	err := s.writeTx(ctx, "delete catalog "+catalog, func(tx driver.ManagedTransaction) error {
		recs, err := runTx(ctx, tx, `
MATCH (a:API {catalog: $catalog})
OPTIONAL MATCH (a)-[e:INPUT_OF|OUTPUTS]-(p:Param)
RETURN count(DISTINCT a) AS apis, collect(DISTINCT p.name) AS params, collect(DISTINCT a.name + '.' + e.param) AS members`,
			map[string]any{"catalog": catalog})
		if err != nil || len(recs) == 0 {
			return err
		}
		m := recs[0].AsMap()
		n = int(m["apis"].(int64))
		if n == 0 {
			return nil
		}
		for _, q := range []string{
			forgetServedGoals,
			"MATCH (a:API {catalog: $catalog}) DETACH DELETE a",
			`UNWIND $params AS name
MATCH (p:Param {name: name})
SET p.members = [x IN coalesce(p.members, []) WHERE NOT x IN $members]
WITH p WHERE NOT (p)--(:API)
DETACH DELETE p`,
		} {
			if _, err := runTx(ctx, tx, q, map[string]any{"catalog": catalog, "params": m["params"], "members": m["members"]}); err != nil {
				return err
			}
		}
		return nil
	})
	return n, err
}

// Source is one source of APIs in the graph (an imported catalog, spec or MCP server): its
// name, where its APIs come from, and how many it has, active and retired.
type Source struct {
	Name    string `json:"name"`
	Origin  string `json:"origin,omitempty"`
	APIs    int    `json:"apis"`
	Active  int    `json:"active"`
	Retired int    `json:"retired"`
}

// Sources lists the graph's sources by name.
func (s *Store) Sources(ctx context.Context) ([]Source, error) {
	res, err := s.run(ctx, "list sources", false, `
MATCH (a:API) WHERE a.catalog IS NOT NULL
WITH a.catalog AS name, coalesce(a.status, 'active') AS status, a.origin AS origin
RETURN name, count(*) AS apis, sum(CASE WHEN status = 'active' THEN 1 ELSE 0 END) AS active,
       sum(CASE WHEN status = 'retired' THEN 1 ELSE 0 END) AS retired, head(collect(origin)) AS origin
ORDER BY name`, nil)
	if err != nil {
		return nil, err
	}
	out := make([]Source, 0, len(res.Records))
	for _, r := range res.Records {
		m := r.AsMap()
		src := Source{}
		src.Name, _ = m["name"].(string)
		src.Origin, _ = m["origin"].(string)
		for key, dst := range map[string]*int{"apis": &src.APIs, "active": &src.Active, "retired": &src.Retired} {
			n, _ := m[key].(int64)
			*dst = int(n)
		}
		out = append(out, src)
	}
	return out, nil
}
