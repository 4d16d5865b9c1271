package neo4j

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	driver "github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/naviagent/navi/twnm"
)

// observeAttempts bounds AddOutputs' rebuilds of one catalog that other writers keep changing.
const observeAttempts = 3

// MaxRebuildAPIs is the largest catalog AddOutputs rebuilds: a larger one takes longer than the
// feedback activity should (16,000 APIs: a build of 14–20 s and an import of about 8 s, near
// the activity's one-minute timeout), so its observed outputs wait for the catalog's next
// import (ErrCatalogTooLarge).
const MaxRebuildAPIs = 5000

// maxRebuildAPIs is MaxRebuildAPIs, lowered by tests.
var maxRebuildAPIs = MaxRebuildAPIs

// ErrCatalogTooLarge is wrapped by AddOutputs for a catalog of more than MaxRebuildAPIs APIs.
var ErrCatalogTooLarge = errors.New("catalog too large to rebuild for the outputs its answers showed")

// afterObservedRead, when set (by tests), runs after AddOutputs read a catalog and before it
// imports the rebuilt one.
var afterObservedRead func(catalog string) error

// AddOutputs adds to the graph's APIs the outputs their calls' answers showed and their records
// do not list (twnm.Observe: a meeting's time inside the list of meetings), by API name, and
// returns how many it added. Each catalog that gains outputs is rebuilt from its stored
// records, in their import order, and imported again (LoadCatalogWith), so the new outputs
// join parameter nodes and data-flow links as if the catalog had listed them; what was learned
// stays, as for any re-import of a changed record. A catalog another writer changes meanwhile
// is read and rebuilt again. APIs the graph no longer holds are skipped; outputs already
// listed are not added twice. A catalog of more than MaxRebuildAPIs APIs is left as it is: the
// error then wraps ErrCatalogTooLarge, and the other catalogs have their outputs added.
func (s *Store) AddOutputs(ctx context.Context, observed map[string][]twnm.Param) (int, error) {
	names := make([]string, 0, len(observed))
	for name, ps := range observed {
		if len(ps) > 0 {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return 0, nil
	}
	sort.Strings(names)
	res, err := s.run(ctx, "add outputs: find catalogs", false,
		`MATCH (a:API) WHERE a.name IN $names AND a.catalog IS NOT NULL RETURN DISTINCT a.catalog AS catalog ORDER BY catalog`,
		map[string]any{"names": names})
	if err != nil {
		return 0, err
	}
	total := 0
	var tooLarge error
	for _, r := range res.Records {
		catalog, _ := r.AsMap()["catalog"].(string)
		n, err := s.addOutputs(ctx, catalog, observed)
		if errors.Is(err, ErrCatalogTooLarge) {
			tooLarge = fmt.Errorf("add outputs to catalog %s: %w", catalog, err) // the others still gain theirs
			continue
		}
		if err != nil {
			return total, fmt.Errorf("add outputs to catalog %s: %w", catalog, err)
		}
		total += n
	}
	return total, tooLarge
}

// addOutputs rebuilds one catalog with the observed outputs of its APIs.
func (s *Store) addOutputs(ctx context.Context, catalog string, observed map[string][]twnm.Param) (int, error) {
	for attempt := 1; ; attempt++ {
		cat, specs, err := s.storedCatalog(ctx, catalog)
		if err != nil {
			return 0, err
		}
		if len(cat.APIs) > maxRebuildAPIs {
			return 0, fmt.Errorf("%d APIs, more than %d: %w", len(cat.APIs), maxRebuildAPIs, ErrCatalogTooLarge)
		}
		added := 0
		for i, a := range cat.APIs {
			var n int
			cat.APIs[i], n = twnm.AddOutputs(a, observed[a.Name])
			added += n
		}
		if added == 0 {
			return 0, nil
		}
		if afterObservedRead != nil {
			if err := afterObservedRead(catalog); err != nil {
				return 0, err
			}
		}
		_, err = s.LoadCatalogWith(ctx, cat, ImportOptions{expect: specs})
		if errors.Is(err, errCatalogChanged) && attempt < observeAttempts {
			continue
		}
		if err != nil {
			return 0, err
		}
		return added, nil
	}
}

// catalogSpecs reads the stored record of each API of $catalog, in import order (by name for
// APIs imported before the order was stored).
const catalogSpecs = `
MATCH (n:API {catalog: $catalog})
RETURN n.name AS name, n.spec AS spec
ORDER BY coalesce(n.pos, 9223372036854775807), name`

// storedCatalog reads a catalog back from its APIs' stored records, in import order (by name
// for APIs imported before the order was stored), with each record's stored spec by name.
func (s *Store) storedCatalog(ctx context.Context, catalog string) (twnm.Catalog, map[string]string, error) {
	res, err := s.run(ctx, "read catalog "+catalog, false, catalogSpecs, map[string]any{"catalog": catalog})
	if err != nil {
		return twnm.Catalog{}, nil, err
	}
	cat := twnm.Catalog{Name: catalog}
	specs := map[string]string{}
	for _, r := range res.Records {
		m := r.AsMap()
		name, _ := m["name"].(string)
		spec, _ := m["spec"].(string)
		var a twnm.API
		if err := json.Unmarshal([]byte(spec), &a); err != nil {
			return twnm.Catalog{}, nil, fmt.Errorf("read catalog %s: API %s: stored record: %w", catalog, name, err)
		}
		cat.APIs = append(cat.APIs, a)
		specs[name] = spec
	}
	return cat, specs, nil
}

// expectCatalog fails with errCatalogChanged unless the store holds exactly the catalog's
// APIs of expect, with the same records.
func expectCatalog(ctx context.Context, tx driver.ManagedTransaction, catalog string, expect map[string]string) error {
	recs, err := runTx(ctx, tx, catalogSpecs, map[string]any{"catalog": catalog})
	if err != nil {
		return err
	}
	if len(recs) != len(expect) {
		return errCatalogChanged
	}
	for _, r := range recs {
		m := r.AsMap()
		name, _ := m["name"].(string)
		spec, _ := m["spec"].(string)
		if want, ok := expect[name]; !ok || want != spec {
			return errCatalogChanged
		}
	}
	return nil
}
