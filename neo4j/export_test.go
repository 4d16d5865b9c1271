package neo4j

import "context"

// QueryCount runs a read query that returns one row with an integer column n.
func QueryCount(ctx context.Context, s *Store, cypher string, params map[string]any) (int64, error) {
	res, err := s.run(ctx, "test count", false, cypher, params)
	if err != nil {
		return 0, err
	}
	return single[int64](res, "n")
}

// SetAfterBatch installs a hook that runs after each import batch, and removes it at cleanup.
func SetAfterBatch(t interface{ Cleanup(func()) }, f func(batch int) error) {
	afterBatch = f
	t.Cleanup(func() { afterBatch = nil })
}

// SetAfterObservedRead installs a hook that runs between AddOutputs' read of a catalog and its
// import, and removes it at cleanup.
func SetAfterObservedRead(t interface{ Cleanup(func()) }, f func(catalog string) error) {
	afterObservedRead = f
	t.Cleanup(func() { afterObservedRead = nil })
}

// SetMaxRebuildAPIs lowers the largest catalog AddOutputs rebuilds until the test ends.
func SetMaxRebuildAPIs(t interface{ Cleanup(func()) }, n int) {
	maxRebuildAPIs = n
	t.Cleanup(func() { maxRebuildAPIs = MaxRebuildAPIs })
}

// EnsureVectorIndex is ensureVectorIndex, for a test's own index and label.
func EnsureVectorIndex(ctx context.Context, s *Store, name, label string, dim int) error {
	return s.ensureVectorIndex(ctx, name, label, dim)
}

// VectorIndexConfig is vectorIndexConfig.
func VectorIndexConfig(ctx context.Context, s *Store, name string) (map[string]any, error) {
	return s.vectorIndexConfig(ctx, name)
}

// Exec runs a write statement.
func Exec(ctx context.Context, s *Store, cypher string, params map[string]any) error {
	_, err := s.run(ctx, "test statement", true, cypher, params)
	return err
}
