package stacktest

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// LockVectors holds, until the test ends, the lock of the shared test store's API vectors.
// `go test ./...` runs packages at once against one store, and `navi graph reembed` rewrites
// every vector of it: a test that imports vectors of another embedder and checks them before
// reembedding would see another package's reembedding rewrite them first. Every test that
// reembeds, or relies on vectors staying as imported, takes this lock (a file lock, across
// the test processes).
func LockVectors(t testing.TB) {
	t.Helper()
	sum := sha256.Sum256([]byte(Env(t, EnvNeo4jURI)))
	path := filepath.Join(os.TempDir(), "navi-test-vectors-"+hex.EncodeToString(sum[:6])+".lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	require.NoError(t, err, "open the vector lock %s", path)
	require.NoError(t, syscall.Flock(int(f.Fd()), syscall.LOCK_EX), "take the vector lock %s", path)
	t.Cleanup(func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		_ = f.Close()
	})
}
