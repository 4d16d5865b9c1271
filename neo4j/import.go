package neo4j

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	driver "github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/naviagent/navi/twnm"
)

// BatchSize is the number of rows one UNWIND writes.
const BatchSize = 1000

// ImportStats counts what an import wrote.
type ImportStats struct {
	APIs    int `json:"apis"`
	Params  int `json:"params"`
	Inputs  int `json:"inputs"`
	Outputs int `json:"outputs"`
	// Links counts the data-flow links between differently named parameters (FEEDS edges with
	// a confidence) written.
	Links int `json:"links"`
	// Replaced names the APIs taken over from other catalogs (ImportOptions.Replace), and
	// Reset those of this catalog whose endpoint changed: what was learned about both was
	// reset, since calls of another tool say nothing about this one.
	Replaced []string `json:"replaced,omitempty"`
	Reset    []string `json:"reset,omitempty"`
	// Added, Changed and Unchanged count the catalog's APIs the graph did not hold, held
	// with another record (description, parameters, endpoint, …), and held as they are.
	Added     int `json:"added"`
	Changed   int `json:"changed"`
	Unchanged int `json:"unchanged"`
	// Retired names the source's APIs the import no longer has (ImportOptions.Whole): out of
	// retrieval, what was learned about them kept.
	Retired []string `json:"retired,omitempty"`
}

// ImportOptions are the options of ImportWith.
type ImportOptions struct {
	// Replace lets the import take over APIs of the same name that another catalog imported,
	// resetting what was learned about them; without it such an import fails with a
	// *CatalogConflictError and changes nothing.
	Replace bool
	// Whole says that the import is all of its source (the catalog of that name): its APIs
	// the import does not have are retired (twnm.Retired), and retired ones it has again come
	// back. An import of part of a source leaves it unset.
	Whole bool
	// Origin is where the source's APIs come from (a spec's server, an MCP server's command
	// or URL): an import under a source name whose APIs came from elsewhere fails with a
	// *SourceConflictError unless Replace. Empty checks nothing.
	Origin string
	// expect, when set, is the catalog as the caller read it (API name to its stored spec):
	// the import fails with errCatalogChanged, writing nothing, when the store holds anything
	// else by then (AddOutputs' guard against a concurrent import).
	expect map[string]string
}

// errCatalogChanged is an import whose catalog another writer changed since it was read.
var errCatalogChanged = errors.New("the catalog changed while it was rebuilt")

// CatalogConflictError is an import that would change APIs another catalog owns.
type CatalogConflictError struct {
	Catalog string
	// APIs are the names in conflict (at most 10) and Owners their catalogs, in order; Total
	// counts them all.
	APIs, Owners []string
	Total        int
}

func (e *CatalogConflictError) Error() string {
	var b strings.Builder
	for i, a := range e.APIs {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s (catalog %s)", a, e.Owners[i])
	}
	if e.Total > len(e.APIs) {
		fmt.Fprintf(&b, " and %d more", e.Total-len(e.APIs))
	}
	return fmt.Sprintf("import %s: %d APIs of the same name belong to other catalogs: %s; importing would change their endpoints and keep what was learned about other tools. Rename them, or import with -replace to take them over (their learned statistics are reset)",
		e.Catalog, e.Total, b.String())
}

// SourceConflictError is an import under a source name that holds APIs from another origin:
// another spec or server with the same name (the enterprise variant of an API, a second
// filesystem server on another folder).
type SourceConflictError struct {
	Source, Held, Origin string
}

func (e *SourceConflictError) Error() string {
	return fmt.Sprintf("source %s holds the APIs of %s, not %s: import under another name (-as), or with -replace to take the source over",
		e.Source, e.Held, e.Origin)
}

// afterBatch, when set (by tests), runs after each batch of an import; an error from it fails
// the import there, as a crash or a lost connection would.
var afterBatch func(batch int) error

// Import writes the API and parameter nodes of a built graph and their structural edges, in
// batches, as one transaction: a failure midway leaves the graph as it was before. Nodes are
// merged by name, so importing the same catalog twice changes nothing; an API imported again
// gets its new description, specification and parameters (stale structural edges are removed)
// and keeps its statistics, status and behavioural edges. catalog names the source.
func (s *Store) Import(ctx context.Context, g *twnm.Graph, catalog string) (ImportStats, error) {
	return s.ImportWith(ctx, g, catalog, ImportOptions{})
}

// ImportWith is Import with options. Before it writes, it checks the APIs against the store,
// in the same transaction: an API of the same name from another catalog fails the import
// (a *CatalogConflictError) unless o.Replace; an API of this catalog whose endpoint (method,
// base URL and path) changed keeps its node but loses what was learned about it (counts,
// windows, status, THEN edges), as a taken-over API does. ImportStats names both.
func (s *Store) ImportWith(ctx context.Context, g *twnm.Graph, catalog string, o ImportOptions) (ImportStats, error) {
	var paramRows, apis, inputs, outputs []map[string]any
	// The tool documents, each with its kin's descriptions, which are the catalog's own APIs.
	var entries []twnm.API
	for _, n := range g.Nodes() {
		if n.Kind == twnm.KindAPI {
			entries = append(entries, *n.API)
		}
	}
	docs := twnm.KinDocuments(entries, nil)
	pos := 0 // the API's place in the catalog: a rebuild from the store keeps the clusters' order
	for _, n := range g.Nodes() {
		switch n.Kind {
		case twnm.KindParam:
			members := append([]string(nil), n.Members...)
			sort.Strings(members)
			paramRows = append(paramRows, map[string]any{
				"name": n.Name, "type": n.Type, "description": n.Description, "members": members, "embedding": nilIfZero(n.Embedding),
			})
		case twnm.KindAPI:
			spec, err := json.Marshal(n.API)
			if err != nil {
				return ImportStats{}, fmt.Errorf("import %s: encode API %s: %w", catalog, n.Name, err)
			}
			var inKeys, outKeys []string
			for _, p := range n.API.Inputs {
				id, _ := g.ParamOf(n.Name, p.Name, true)
				inKeys = append(inKeys, edgeKey(g.Node(id).Name, p.Name))
				var picks any // the collection the input picks an item of, for the read's listers
				if k := twnm.PickKey(*n.API, p.Name); k != "" {
					picks = k
				}
				inputs = append(inputs, map[string]any{"api": n.Name, "node": g.Node(id).Name, "param": p.Name, "required": p.Required, "picks": picks})
			}
			for _, p := range n.API.Outputs {
				id, _ := g.ParamOf(n.Name, p.Name, false)
				outKeys = append(outKeys, edgeKey(g.Node(id).Name, p.Name))
				outputs = append(outputs, map[string]any{"api": n.Name, "node": g.Node(id).Name, "param": p.Name})
			}
			endpoint := ""
			if e := n.API.Endpoint; e != nil {
				endpoint = e.Method + " " + e.BaseURL + " " + e.Path
			}
			if m := n.API.MCP; m != nil {
				endpoint = "MCP " + m.Server + " " + m.Tool // another server's tool is another tool
			}
			api := map[string]any{
				"name": n.Name, "description": n.Description, "provider": n.API.Provider, "spec": string(spec), "endpoint": endpoint,
				"in_keys": nonNil(inKeys), "out_keys": nonNil(outKeys), "callable": n.API.Callable(), "pos": pos,
			}
			if k := twnm.ListKey(*n.API); k != "" {
				api["lists"] = k
			}
			for k, v := range textProperties(docs[pos]) {
				api[k] = v
			}
			pos++
			// The vector index refuses a zero vector (an API with no text at all).
			if e := nilIfZero(n.Embedding); e != nil {
				api["embedding"] = e
			}
			apis = append(apis, api)
		}
	}
	// The data-flow links Build found between differently named parameters (FEEDS edges with
	// a confidence): what history learns about them is kept.
	var links []map[string]any
	for _, e := range g.Edges() {
		if e.Kind == twnm.Feeds && e.Confidence > 0 {
			links = append(links, map[string]any{"from": g.Node(e.From).Name, "to": g.Node(e.To).Name, "confidence": e.Confidence})
		}
	}
	steps := []struct {
		cypher string
		rows   []map[string]any
	}{
		{importParams, paramRows},
		{importAPIs, apis},
		{dropStaleEdges, apis},
		{importInputs, inputs},
		{importOutputs, outputs},
		{importLinks, links},
	}
	var replaced, reset, retired []string
	var added, changed, unchanged int
	names := make([]string, len(apis))
	for i, a := range apis {
		names[i] = a["name"].(string)
	}
	params := map[string]any{"catalog": catalog, "whole": o.Whole, "origin": o.Origin, "names": names}
	err := s.writeTx(ctx, "import "+catalog, func(tx driver.ManagedTransaction) error {
		replaced, reset, retired = nil, nil, nil // a retried transaction starts over
		added, changed, unchanged = 0, 0, 0
		if o.expect != nil {
			if err := expectCatalog(ctx, tx, catalog, o.expect); err != nil {
				return err
			}
		}
		if o.Origin != "" && !o.Replace {
			recs, err := runTx(ctx, tx, `MATCH (n:API {catalog: $catalog}) WHERE n.origin IS NOT NULL AND n.origin <> $origin
RETURN n.origin AS origin LIMIT 1`, params)
			if err != nil {
				return err
			}
			if len(recs) > 0 {
				held, _ := recs[0].AsMap()["origin"].(string)
				return &SourceConflictError{Source: catalog, Held: held, Origin: o.Origin}
			}
		}
		recs, err := runTx(ctx, tx, importDiff, map[string]any{"rows": apis, "catalog": catalog})
		if err != nil {
			return err
		}
		conflict := &CatalogConflictError{Catalog: catalog}
		for _, r := range recs {
			m := r.AsMap()
			switch {
			case m["added"] == true:
				added++
				continue
			case m["same"] == true:
				unchanged++
			default:
				changed++
			}
			name, _ := m["name"].(string)
			owner, _ := m["owner"].(string)
			if owner == catalog {
				if m["moved"] == true {
					reset = append(reset, name) // what was learned about its old endpoint is reset
				}
				continue
			}
			conflict.Total++
			if len(conflict.APIs) < 10 {
				conflict.APIs, conflict.Owners = append(conflict.APIs, name), append(conflict.Owners, owner)
			}
			replaced = append(replaced, name)
		}
		if conflict.Total > 0 && !o.Replace {
			return conflict
		}
		if _, err := runTx(ctx, tx, resetAPIs, map[string]any{"names": slices.Concat(replaced, reset)}); err != nil {
			return err
		}
		batch := 0
		for _, st := range steps {
			for i := 0; i < len(st.rows); i += BatchSize {
				rows := st.rows[i:min(i+BatchSize, len(st.rows))]
				if _, err := runTx(ctx, tx, st.cypher, map[string]any{"rows": rows, "catalog": catalog, "whole": o.Whole, "origin": o.Origin}); err != nil {
					return err
				}
				batch++
				if afterBatch != nil {
					if err := afterBatch(batch); err != nil {
						return err
					}
				}
			}
		}
		if !o.Whole {
			return nil
		}
		recs, err = runTx(ctx, tx, retireAPIs, params)
		for _, r := range recs {
			name, _ := r.AsMap()["name"].(string)
			retired = append(retired, name)
		}
		return err
	})
	if err != nil {
		return ImportStats{}, err
	}
	return ImportStats{APIs: len(apis), Params: len(paramRows), Inputs: len(inputs), Outputs: len(outputs), Links: len(links),
		Replaced: replaced, Reset: reset, Added: added, Changed: changed, Unchanged: unchanged, Retired: retired}, nil
}

// retireAPIs retires the source's APIs an import of all of it no longer has.
const retireAPIs = `
MATCH (n:API {catalog: $catalog})
WHERE NOT n.name IN $names AND coalesce(n.status, 'active') <> 'retired'
SET n.status = 'retired', n.status_since = datetime()
RETURN n.name AS name ORDER BY name`

// importDiff tells, for each API of an import, whether the graph holds none of its name
// (added), or one with the same record (same), which catalog has it (owner), and whether its
// endpoint moved. Nodes imported before endpoints were stored have none and are taken as not
// moved. By name, so that a conflict lists its APIs in order.
const importDiff = `
UNWIND $rows AS a
OPTIONAL MATCH (n:API {name: a.name})
RETURN a.name AS name, n IS NULL AS added, coalesce(n.spec = a.spec, false) AS same,
       coalesce(n.catalog, $catalog) AS owner,
       coalesce(n.endpoint IS NOT NULL AND n.endpoint <> a.endpoint, false) AS moved
ORDER BY name`

// resetAPIs forgets what was learned about the named APIs: their counts, sliding windows,
// status and THEN edges. Their parameters, shared with other APIs, keep theirs.
const resetAPIs = `
UNWIND $names AS name
MATCH (a:API {name: name})` + forgetLearnedAPI

// edgeKey identifies a structural edge of one API: the parameter node and the API's own name
// for the parameter.
func edgeKey(node, param string) string { return node + "\x1f" + param }

func nilIfZero(v []float64) []float64 {
	if zero(v) {
		return nil
	}
	return v
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

const importParams = `
UNWIND $rows AS p
MERGE (n:Param {name: p.name})
ON CREATE SET n.type = p.type, n.description = p.description, n.success = 0, n.failure = 0
SET n.members = [m IN coalesce(n.members, []) WHERE NOT m IN p.members] + p.members,
    n.embedding = p.embedding`

const importAPIs = `
UNWIND $rows AS a
MERGE (n:API {name: a.name})
ON CREATE SET n.success = 0, n.failure = 0, n.status = 'active'
SET n.description = a.description, n.provider = a.provider, n.spec = a.spec, n.catalog = $catalog, n.endpoint = a.endpoint, n.pos = a.pos, n.lists = a.lists,
    n.embedding = a.embedding, n.callable = a.callable, n.bm25_text = a.bm25_text, n.bm25_params = a.bm25_params,
    n.origin = CASE WHEN $origin = '' THEN n.origin ELSE $origin END,
    n.status = CASE WHEN $whole AND n.status = 'retired' THEN 'active' ELSE n.status END`

// dropStaleEdges removes the structural edges an API no longer has.
const dropStaleEdges = `
UNWIND $rows AS a
MATCH (n:API {name: a.name})
CALL (n, a) {
  MATCH (p:Param)-[e:INPUT_OF]->(n)
  WHERE NOT p.name + '\u001f' + e.param IN a.in_keys
  DELETE e
}
CALL (n, a) {
  MATCH (n)-[e:OUTPUTS]->(p:Param)
  WHERE NOT p.name + '\u001f' + e.param IN a.out_keys
  DELETE e
}`

const importInputs = `
UNWIND $rows AS i
MATCH (p:Param {name: i.node}), (a:API {name: i.api})
MERGE (p)-[e:INPUT_OF {param: i.param}]->(a)
SET e.required = i.required, e.picks = i.picks`

// importLinks writes the links' confidence on their FEEDS edges, creating those that do not
// exist; counts and weights learned from history stay.
const importLinks = `
UNWIND $rows AS l
MATCH (p:Param {name: l.from}), (q:Param {name: l.to})
MERGE (p)-[e:FEEDS]->(q)
SET e.confidence = l.confidence`

const importOutputs = `
UNWIND $rows AS o
MATCH (p:Param {name: o.node}), (a:API {name: o.api})
MERGE (a)-[:OUTPUTS {param: o.param}]->(p)`
