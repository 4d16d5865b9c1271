package embed

import (
	"fmt"
	"os"
	"sync"
)

// EnvEmbedder names the environment variable that picks the embedder of API descriptions:
// "minilm" (the default) or "hashed".
const EnvEmbedder = "NAVI_EMBEDDER"

// Names of the embedders Standard can give.
const (
	NameMiniLM = "minilm"
	NameHashed = "hashed"
)

var standard struct {
	once sync.Once
	emb  Embedder
	err  error
}

// Standard returns the process's embedder of API descriptions and requests, loaded once and
// shared: all-MiniLM-L6-v2 (from MiniLMDir) behind the on-disk Cache (DefaultCacheDir), or the
// Hashed default when $NAVI_EMBEDDER is "hashed". The graph store records its Name, so every
// process writing or reading one graph must get the same embedder.
func Standard() (Embedder, error) {
	standard.once.Do(func() { standard.emb, standard.err = open(os.Getenv(EnvEmbedder)) })
	return standard.emb, standard.err
}

// Open returns the embedder named name ("" is NameMiniLM), uncached for Hashed and behind
// the on-disk cache for MiniLM.
func Open(name string) (Embedder, error) { return open(name) }

func open(name string) (Embedder, error) {
	switch name {
	case NameHashed:
		return Default(), nil
	case "", NameMiniLM:
		dir, err := MiniLMDir()
		if err != nil {
			return nil, err
		}
		m, err := NewMiniLM(dir, MiniLMOptions{})
		if err != nil {
			return nil, err
		}
		cacheDir, err := DefaultCacheDir()
		if err != nil {
			return nil, err
		}
		return NewCache(m, cacheDir)
	}
	return nil, fmt.Errorf("embedder %q (%s): want %s or %s", name, EnvEmbedder, NameMiniLM, NameHashed)
}
