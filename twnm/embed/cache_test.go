package embed

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countingEmbedder is a fake inner embedder that counts its calls and texts; its vectors are
// derived from the text's hash.
type countingEmbedder struct {
	name        string
	dim         int
	calls       atomic.Int64
	texts       atomic.Int64
	err         error
	wrongCount  bool
	wrongLength bool
}

func (e *countingEmbedder) Name() string { return e.name }
func (e *countingEmbedder) Dim() int     { return e.dim }

func (e *countingEmbedder) Embed(_ context.Context, texts []string) ([][]float64, error) {
	e.calls.Add(1)
	e.texts.Add(int64(len(texts)))
	if e.err != nil {
		return nil, e.err
	}
	out := make([][]float64, len(texts))
	for i, t := range texts {
		out[i] = fakeVector(t, e.dim)
		if e.wrongLength {
			out[i] = out[i][1:]
		}
	}
	if e.wrongCount {
		out = out[1:]
	}
	return out, nil
}

func fakeVector(text string, dim int) []float64 {
	sum := sha256.Sum256([]byte(text))
	v := make([]float64, dim)
	for i := range v {
		v[i] = float64(sum[i%len(sum)])/256 - 0.5 + float64(i)/1000
	}
	return v
}

func newTestCache(t *testing.T, inner Embedder, dir string) *Cache {
	t.Helper()
	c, err := NewCache(inner, dir)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

func TestCacheHitsAndReopen(t *testing.T) {
	dir := t.TempDir()
	inner := &countingEmbedder{name: "fake@1", dim: 5}
	c := newTestCache(t, inner, dir)
	assert.Equal(t, "fake@1", c.Name())
	assert.Equal(t, 5, c.Dim())
	texts := []string{"alpha", "beta", "alpha", "", "gamma"}

	first, err := c.Embed(context.Background(), texts)
	require.NoError(t, err)
	require.Len(t, first, len(texts))
	assert.EqualValues(t, 1, inner.calls.Load())
	assert.EqualValues(t, 4, inner.texts.Load(), "each distinct text embedded once")
	for i, text := range texts {
		want := fakeVector(text, 5)
		for j := range want {
			assert.InDelta(t, want[j], first[i][j], 1e-7)
		}
	}
	assert.Equal(t, 4, c.Len())

	second, err := c.Embed(context.Background(), texts)
	require.NoError(t, err)
	assert.EqualValues(t, 1, inner.calls.Load(), "the second Embed must not call the inner embedder")
	assert.Equal(t, first, second, "a cached text returns the same vector as its first call")

	// A partial hit embeds only the new text.
	mixed, err := c.Embed(context.Background(), []string{"beta", "delta"})
	require.NoError(t, err)
	assert.EqualValues(t, 2, inner.calls.Load())
	assert.EqualValues(t, 5, inner.texts.Load())
	assert.Equal(t, first[1], mixed[0])

	require.NoError(t, c.Close())
	_, err = c.Embed(context.Background(), texts)
	require.Error(t, err)

	// Reopened (a restart): everything comes from the file.
	reopened := &countingEmbedder{name: "fake@1", dim: 5}
	c2 := newTestCache(t, reopened, dir)
	assert.Equal(t, 5, c2.Len())
	third, err := c2.Embed(context.Background(), append(texts, "delta"))
	require.NoError(t, err)
	assert.Zero(t, reopened.calls.Load())
	assert.Equal(t, first, third[:len(texts)])
	assert.Equal(t, mixed[1], third[len(texts)])
}

// recordSize is the size of one cache record for dimension dim.
func recordSize(dim int) int { return 4 + sha256.Size + 4*dim + 4 }

func TestCacheBrokenRecords(t *testing.T) {
	texts := []string{"one", "two", "three"}
	tests := []struct {
		name       string
		damage     func(t *testing.T, path string, size int)
		wantMisses int64 // texts re-embedded after reopening
	}{
		{"truncated tail", func(t *testing.T, path string, size int) {
			require.NoError(t, os.Truncate(path, int64(size-5)))
		}, 1},
		{"only a length left", func(t *testing.T, path string, size int) {
			require.NoError(t, os.Truncate(path, int64(size-recordSize(4)+2)))
		}, 1},
		{"corrupted middle record", func(t *testing.T, path string, size int) {
			flipByte(t, path, size-recordSize(4)-10)
		}, 1},
		{"corrupted length", func(t *testing.T, path string, size int) {
			flipByte(t, path, size-recordSize(4)) // the last record's length field
		}, 1},
		{"garbage appended", func(t *testing.T, path string, size int) {
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			require.NoError(t, err)
			_, err = f.Write([]byte("garbage"))
			require.NoError(t, err)
			require.NoError(t, f.Close())
		}, 0},
		{"corrupted header", func(t *testing.T, path string, size int) {
			flipByte(t, path, 2)
		}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			c := newTestCache(t, &countingEmbedder{name: "fake", dim: 4}, dir)
			for _, text := range texts { // one record per call, in order
				_, err := c.Embed(context.Background(), []string{text})
				require.NoError(t, err)
			}
			require.NoError(t, c.Close())
			fi, err := os.Stat(c.Path())
			require.NoError(t, err)
			tt.damage(t, c.Path(), int(fi.Size()))

			inner := &countingEmbedder{name: "fake", dim: 4}
			c2 := newTestCache(t, inner, dir)
			got, err := c2.Embed(context.Background(), texts)
			require.NoError(t, err)
			assert.Equal(t, tt.wantMisses, inner.texts.Load())
			for i, text := range texts {
				assert.InDeltaSlice(t, fakeVector(text, 4), got[i], 1e-7)
			}
			require.NoError(t, c2.Close())

			// The repaired file serves every text.
			inner3 := &countingEmbedder{name: "fake", dim: 4}
			c3 := newTestCache(t, inner3, dir)
			_, err = c3.Embed(context.Background(), texts)
			require.NoError(t, err)
			assert.Zero(t, inner3.calls.Load())
		})
	}
}

func flipByte(t *testing.T, path string, off int) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	data[off] ^= 0xff
	require.NoError(t, os.WriteFile(path, data, 0o644))
}

func TestCacheSeparatesEmbedders(t *testing.T) {
	dir := t.TempDir()
	a := &countingEmbedder{name: "model/a", dim: 3}
	b := &countingEmbedder{name: "model:a", dim: 3} // sanitizes to the same file name stem
	ca := newTestCache(t, a, dir)
	cb := newTestCache(t, b, dir)
	assert.NotEqual(t, ca.Path(), cb.Path())
	_, err := ca.Embed(context.Background(), []string{"x"})
	require.NoError(t, err)
	_, err = cb.Embed(context.Background(), []string{"x"})
	require.NoError(t, err)
	assert.EqualValues(t, 1, b.calls.Load(), "another embedder's vectors are not shared")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2)
}

func TestCacheInnerErrors(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name    string
		inner   *countingEmbedder
		wantErr string
	}{
		{"error", &countingEmbedder{name: "f", dim: 2, err: boom}, "boom"},
		{"count", &countingEmbedder{name: "f", dim: 2, wrongCount: true}, "returned 1 vectors for 2 texts"},
		{"length", &countingEmbedder{name: "f", dim: 2, wrongLength: true}, "1-dimensional vector, want 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newTestCache(t, tt.inner, t.TempDir())
			_, err := c.Embed(context.Background(), []string{"a", "b"})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
			assert.Zero(t, c.Len(), "nothing cached from a failed call")
		})
	}
	_, err := NewCache(&countingEmbedder{name: "f", dim: 0}, t.TempDir())
	require.Error(t, err)
}

func TestCacheConcurrent(t *testing.T) {
	inner := &countingEmbedder{name: "fake", dim: 8}
	c := newTestCache(t, inner, t.TempDir())
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 20 {
				texts := []string{fmt.Sprint("t", i), fmt.Sprint("t", (i+g)%20)}
				got, err := c.Embed(context.Background(), texts)
				assert.NoError(t, err)
				for k, text := range texts {
					assert.InDeltaSlice(t, fakeVector(text, 8), got[k], 1e-7)
				}
			}
		})
	}
	wg.Wait()
	assert.Equal(t, 20, c.Len())
	require.NoError(t, c.Close())

	// The file holds each text once, whatever the races.
	fi, err := os.Stat(c.Path())
	require.NoError(t, err)
	header := len(cacheMagic) + 4 + 4 + len("fake") + 4
	assert.EqualValues(t, header+20*recordSize(8), fi.Size())
}

func TestDefaultCacheDir(t *testing.T) {
	t.Setenv(EnvCacheDir, "/somewhere/else")
	dir, err := DefaultCacheDir()
	require.NoError(t, err)
	assert.Equal(t, "/somewhere/else", dir)

	t.Setenv(EnvCacheDir, "")
	t.Setenv("XDG_CACHE_HOME", "/xdg")
	t.Setenv("HOME", "/home/someone")
	base, err := os.UserCacheDir()
	require.NoError(t, err)
	dir, err = DefaultCacheDir()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(base, "navi", "embed"), dir)
}

// Wrapped around MiniLM, the cache returns exactly MiniLM's vectors (float32 values).
func TestCacheOverMiniLM(t *testing.T) {
	m := testMiniLM(t)
	c := newTestCache(t, m, t.TempDir())
	texts := []string{"hello world", "GetWeatherForecast. Returns the weather forecast for a city."}
	want, err := m.Embed(context.Background(), texts)
	require.NoError(t, err)
	for range 2 {
		got, err := c.Embed(context.Background(), texts)
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
	assert.Equal(t, m.Name(), c.Name())
}

// Records appended after a torn one (a crash mid-write, then more appends by a later process)
// are still found.
func TestCacheResyncAfterTornRecord(t *testing.T) {
	dir := t.TempDir()
	inner := &countingEmbedder{name: "fake", dim: 4}
	c := newTestCache(t, inner, dir)
	require.NoError(t, c.Close())
	file := c.header()
	texts := []string{"a", "b", "c", "d"}
	for i, text := range texts {
		v := fakeVector(text, 4)
		rec := appendRecord(nil, sha256.Sum256([]byte(text)), []float32{float32(v[0]), float32(v[1]), float32(v[2]), float32(v[3])})
		if i == 1 {
			rec = rec[:recordSize(4)/2] // torn
		}
		file = append(file, rec...)
	}
	require.NoError(t, os.WriteFile(c.Path(), file, 0o644))

	again := &countingEmbedder{name: "fake", dim: 4}
	c2 := newTestCache(t, again, dir)
	assert.Equal(t, 3, c2.Len())
	got, err := c2.Embed(context.Background(), texts)
	require.NoError(t, err)
	assert.EqualValues(t, 1, again.texts.Load(), "only the torn record is recomputed")
	for i, text := range texts {
		assert.InDeltaSlice(t, fakeVector(text, 4), got[i], 1e-7)
	}
}
