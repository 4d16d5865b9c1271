package toolcall

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// OutputStore keeps tool outputs too large for a workflow history. Put stores body under
// key and returns a reference a later reader resolves (DirStore: the file path). Putting the
// same key twice replaces the body, so that a retried attempt does not leave a second copy.
type OutputStore interface {
	Put(ctx context.Context, key string, body []byte) (ref string, err error)
}

// DirStore is an OutputStore of files in one directory, created on first use. The file name
// is derived from the key: its safe characters, then a hash of the whole key, so that any
// key (slashes, dots, unicode) gives one file inside Dir and distinct keys never collide.
type DirStore struct {
	Dir string
}

// maxKeyChars bounds the readable part of a file name; the hash keeps it unique.
const maxKeyChars = 80

// Put writes body to Dir/<name>.json through a temporary file and a rename, so that a reader
// never sees half a body, and returns the file's path.
func (s DirStore) Put(ctx context.Context, key string, body []byte) (string, error) {
	if s.Dir == "" {
		return "", errors.New("output store: DirStore.Dir is empty")
	}
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("output store: %w", err)
	}
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return "", fmt.Errorf("output store: %w", err)
	}
	path := filepath.Join(s.Dir, FileName(key))
	tmp, err := os.CreateTemp(s.Dir, ".put-*")
	if err != nil {
		return "", fmt.Errorf("output store: %w", err)
	}
	_, werr := tmp.Write(body)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(tmp.Name()) // best effort; the write error is the one to report
		return "", fmt.Errorf("output store: write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		_ = os.Remove(tmp.Name())
		return "", fmt.Errorf("output store: %w", err)
	}
	return path, nil
}

// FileName is the file name DirStore gives a key: the key's letters, digits, '-', '_' and
// '.' (others become '_', at most 80 kept), a '-', 16 hex digits of the key's SHA-256 and
// ".json". It never contains a path separator and never starts with a dot.
func FileName(key string) string {
	var b strings.Builder
	for _, r := range key {
		if b.Len() >= maxKeyChars {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r == '.' && b.Len() > 0:
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	sum := sha256.Sum256([]byte(key))
	return b.String() + "-" + hex.EncodeToString(sum[:8]) + ".json"
}
