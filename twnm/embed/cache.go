package embed

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// EnvCacheDir names the environment variable holding the folder of the embedding cache.
const EnvCacheDir = "NAVI_EMBED_CACHE_DIR"

// DefaultCacheDir returns the folder for NewCache: $NAVI_EMBED_CACHE_DIR when set, else
// navi/embed under the user's cache folder (os.UserCacheDir, e.g. ~/.cache/navi/embed).
func DefaultCacheDir() (string, error) {
	if dir := os.Getenv(EnvCacheDir); dir != "" {
		return dir, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("embed cache: no cache folder (set %s): %w", EnvCacheDir, err)
	}
	return filepath.Join(base, "navi", "embed"), nil
}

// The cache file: a header, then records appended one after the other.
//
//	header: "NAVIEMB1", dim (uint32), name length (uint32), name, CRC-32C of all of these
//	record: payload length (uint32, always 32 + 4·dim), payload = sha256 of the text and dim
//	        float32 values, CRC-32C of the payload
//
// All integers and floats are little-endian.
const cacheMagic = "NAVIEMB1"

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Cache is an Embedder that remembers the vectors of another: in memory, and in an
// append-only file per embedder under a folder, keyed by the inner embedder's Name and the
// sha256 of the text, so that re-imports and restarts do not embed a text twice. The vectors
// are stored as float32 (exact for MiniLM, whose vectors are float32 values; a rounding of
// about 1e-8 for float64 embedders such as Hashed), and a cached text returns the same vector
// on every call, the first included.
//
// Opening loads the whole file. A record cut short (a crash during a write) or corrupted is
// detected by its length and checksum and ignored, with nothing lost but that record: the
// records after it are still found, and a broken tail is truncated away. A Cache is safe for
// concurrent use. Several processes may share a folder (each appends whole records with one
// write, and opening never discards intact records), but a process only sees the records that
// were in the file when it opened it.
type Cache struct {
	inner Embedder
	name  string
	dim   int
	path  string

	mu   sync.Mutex
	f    *os.File // nil once closed
	vecs map[[sha256.Size]byte][]float32
}

var _ Embedder = (*Cache)(nil)

// NewCache opens (or creates) the cache of inner's vectors in dir, creating dir if needed.
// Close it when done.
func NewCache(inner Embedder, dir string) (*Cache, error) {
	c := &Cache{inner: inner, name: inner.Name(), dim: inner.Dim(), vecs: make(map[[sha256.Size]byte][]float32)}
	if c.dim <= 0 {
		return nil, fmt.Errorf("embed cache: embedder %s has dimension %d", c.name, c.dim)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("embed cache: %w", err)
	}
	c.path = filepath.Join(dir, cacheFileName(c.name))
	f, err := os.OpenFile(c.path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("embed cache: %w", err)
	}
	if err := c.load(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("embed cache %s: %w", c.path, err)
	}
	c.f = f
	return c, nil
}

// cacheFileName is the embedder's name made safe for a file name, plus a hash of the exact
// name so that two names that sanitize alike still get two files.
func cacheFileName(name string) string {
	safe := strings.Map(func(r rune) rune {
		if r < 0x80 && (r == '.' || r == '-' || r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
			return r
		}
		return '_'
	}, name)
	if len(safe) > 100 {
		safe = safe[:100]
	}
	sum := sha256.Sum256([]byte(name))
	return safe + "-" + hex.EncodeToString(sum[:4]) + ".vec"
}

func (c *Cache) header() []byte {
	h := []byte(cacheMagic)
	h = binary.LittleEndian.AppendUint32(h, uint32(c.dim))
	h = binary.LittleEndian.AppendUint32(h, uint32(len(c.name)))
	h = append(h, c.name...)
	return binary.LittleEndian.AppendUint32(h, crc32.Checksum(h, castagnoli))
}

// load reads the records of f into c.vecs. A file with a bad header (not a cache file, or the
// cache of another embedder) is started afresh. Where the bytes are not an intact record (a
// bad length or checksum: a write cut short, or corruption), the next intact record is
// searched for byte by byte, so that records appended after the damage are kept. Damage at the
// end of the file is truncated away, unless the file grew meanwhile (another process
// appending).
func (c *Cache) load(f *os.File) error {
	data, err := io.ReadAll(f)
	if err != nil {
		return err
	}
	header := c.header()
	if !bytes.HasPrefix(data, header) {
		if err := f.Truncate(0); err != nil {
			return err
		}
		_, err := f.Write(header)
		return err
	}
	payload := sha256.Size + 4*c.dim
	size := 4 + payload + 4
	end := len(header) // end of the last intact record
	for off := len(header); off < len(data); {
		rest := data[off:]
		if len(rest) >= size && binary.LittleEndian.Uint32(rest) == uint32(payload) &&
			crc32.Checksum(rest[4:4+payload], castagnoli) == binary.LittleEndian.Uint32(rest[4+payload:]) {
			p := rest[4 : 4+payload]
			var key [sha256.Size]byte
			copy(key[:], p)
			v := make([]float32, c.dim)
			for i := range v {
				v[i] = math.Float32frombits(binary.LittleEndian.Uint32(p[sha256.Size+4*i:]))
			}
			c.vecs[key] = v
			off += size
			end = off
			continue
		}
		// Not an intact record here: look for the next one a byte further on. Only offsets
		// holding the right length are checksummed, so this is quick.
		off++
	}
	if end < len(data) {
		if fi, err := f.Stat(); err == nil && fi.Size() == int64(len(data)) {
			return f.Truncate(int64(end))
		}
	}
	return nil
}

// Name returns the inner embedder's Name: the cache returns its vectors.
func (c *Cache) Name() string { return c.name }

// Dim returns the inner embedder's Dim.
func (c *Cache) Dim() int { return c.dim }

// Path returns the cache file.
func (c *Cache) Path() string { return c.path }

// Len returns the number of cached vectors.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.vecs)
}

// Embed returns the cached vectors of texts and embeds the others with the inner embedder
// (one call, each distinct text once), adding them to the cache before returning.
func (c *Cache) Embed(ctx context.Context, texts []string) ([][]float64, error) {
	out := make([][]float64, len(texts))
	keys := make([][sha256.Size]byte, len(texts))
	var missing []string
	pending := make(map[[sha256.Size]byte]int) // key → index in missing

	c.mu.Lock()
	if c.f == nil {
		c.mu.Unlock()
		return nil, errors.New("embed cache: closed")
	}
	for i, t := range texts {
		keys[i] = sha256.Sum256([]byte(t))
		if v, ok := c.vecs[keys[i]]; ok {
			out[i] = widen(v)
		} else if _, ok := pending[keys[i]]; !ok {
			pending[keys[i]] = len(missing)
			missing = append(missing, t)
		}
	}
	c.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}

	vecs, err := c.inner.Embed(ctx, missing)
	if err != nil {
		return nil, fmt.Errorf("embed cache: %w", err)
	}
	if len(vecs) != len(missing) {
		return nil, fmt.Errorf("embed cache: %s returned %d vectors for %d texts", c.name, len(vecs), len(missing))
	}
	narrow := make([][]float32, len(vecs))
	for i, v := range vecs {
		if len(v) != c.dim {
			return nil, fmt.Errorf("embed cache: %s returned a %d-dimensional vector, want %d", c.name, len(v), c.dim)
		}
		narrow[i] = make([]float32, c.dim)
		for j, x := range v {
			narrow[i][j] = float32(x)
		}
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	if c.f == nil {
		return nil, errors.New("embed cache: closed")
	}
	var buf []byte
	for i, t := range missing {
		key := sha256.Sum256([]byte(t))
		if _, ok := c.vecs[key]; ok {
			continue // another Embed cached it meanwhile
		}
		c.vecs[key] = narrow[i]
		buf = appendRecord(buf, key, narrow[i])
	}
	for i := range texts {
		if out[i] == nil {
			out[i] = widen(c.vecs[keys[i]])
		}
	}
	if len(buf) > 0 {
		if _, err := c.f.Write(buf); err != nil {
			return nil, fmt.Errorf("embed cache: write %s: %w", c.path, err)
		}
	}
	return out, nil
}

func appendRecord(buf []byte, key [sha256.Size]byte, v []float32) []byte {
	buf = binary.LittleEndian.AppendUint32(buf, uint32(sha256.Size+4*len(v)))
	start := len(buf)
	buf = append(buf, key[:]...)
	for _, x := range v {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(x))
	}
	return binary.LittleEndian.AppendUint32(buf, crc32.Checksum(buf[start:], castagnoli))
}

func widen(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// Close closes the cache file; Embed fails afterwards.
func (c *Cache) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.f == nil {
		return nil
	}
	err := c.f.Close()
	c.f = nil
	if err != nil {
		return fmt.Errorf("embed cache: %w", err)
	}
	return nil
}
