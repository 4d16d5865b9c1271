package embed

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"unicode/utf8"
)

// Features selects the feature families a Hashed embedder extracts.
type Features uint8

const (
	// WordUnigrams are the tokens of Tokenize.
	WordUnigrams Features = 1 << iota
	// WordBigrams are pairs of adjacent tokens.
	WordBigrams
	// CharNGrams are character n-grams of each token padded with boundary markers
	// ("<city>" gives "<ci", "cit", "ity", "ty>", "<cit", ... for n = 3 to 5), so that words
	// sharing a stem or a misspelt word still share features.
	CharNGrams

	// AllFeatures is the default: word unigrams, word bigrams and character n-grams.
	AllFeatures = WordUnigrams | WordBigrams | CharNGrams
)

// Defaults of HashedOptions.
const (
	DefaultDim  = 256
	DefaultMinN = 3
	DefaultMaxN = 5
)

// HashedOptions configures NewHashed. The zero value gives the defaults.
type HashedOptions struct {
	// Dim is the vector dimension; 0 means DefaultDim.
	Dim int
	// MinN and MaxN bound the character n-gram lengths, counted in runes of the padded token;
	// both 0 means DefaultMinN and DefaultMaxN.
	MinN, MaxN int
	// Features selects the feature families; 0 means AllFeatures.
	Features Features
}

// Hashed is an offline embedder that needs no model: word unigrams, word bigrams and character
// n-grams are hashed (64-bit FNV-1a) into Dim buckets with a hash-derived sign (the signed
// hashing trick, so that colliding features cancel in expectation instead of adding up),
// weighted by term frequency times an IDF fitted on a corpus, and L2-normalized.
//
// Embedding is deterministic: the same options, the same Fit corpus and the same text give
// the same vector, on every platform. Hashed is safe for concurrent use, Fit included (a Fit
// replaces the IDF table atomically; an Embed running at that moment uses the old or the new
// table for each text, never a mix).
type Hashed struct {
	dim        int
	minN, maxN int
	features   Features
	idf        atomic.Pointer[idfTable]
}

// idfTable holds the fitted weights. A nil table means unfitted: every weight is 1.
type idfTable struct {
	weights     map[uint64]float64 // by feature hash
	unseen      float64            // weight of a feature absent from the corpus
	fingerprint uint32             // names the fit in Name
}

var _ Embedder = (*Hashed)(nil)

// Default returns the offline embedder Navi uses when no other is configured: Hashed with
// the default options, unfitted, so that every process embeds alike without a shared corpus.
func Default() *Hashed {
	return &Hashed{dim: DefaultDim, minN: DefaultMinN, maxN: DefaultMaxN, features: AllFeatures}
}

// NewHashed returns an unfitted Hashed embedder (all IDF weights 1), or an error when the
// options are out of range.
func NewHashed(opts HashedOptions) (*Hashed, error) {
	h := &Hashed{dim: opts.Dim, minN: opts.MinN, maxN: opts.MaxN, features: opts.Features}
	if h.dim == 0 {
		h.dim = DefaultDim
	}
	if h.minN == 0 && h.maxN == 0 {
		h.minN, h.maxN = DefaultMinN, DefaultMaxN
	}
	if h.features == 0 {
		h.features = AllFeatures
	}
	switch {
	case h.dim < 0:
		return nil, fmt.Errorf("hashed embedder: Dim %d is negative", h.dim)
	case h.minN < 1 || h.maxN < h.minN:
		return nil, fmt.Errorf("hashed embedder: n-gram range [%d, %d] is invalid: want 1 <= MinN <= MaxN", opts.MinN, opts.MaxN)
	case h.features&^AllFeatures != 0:
		return nil, fmt.Errorf("hashed embedder: unknown feature bits %#x", uint8(h.features&^AllFeatures))
	}
	return h, nil
}

// Name identifies the embedder and every setting that changes its vectors:
// "hashed-ngram-256" for the defaults, unfitted; a non-default n-gram range adds "-c2-4", a
// non-default feature set adds "-f" and its letters (w unigrams, b bigrams, c characters),
// and a fitted IDF adds "-idf" and an 8-digit fingerprint of the fit, so that a vector store
// refuses vectors embedded under another corpus.
func (h *Hashed) Name() string {
	var b strings.Builder
	fmt.Fprintf(&b, "hashed-ngram-%d", h.dim)
	if h.minN != DefaultMinN || h.maxN != DefaultMaxN {
		fmt.Fprintf(&b, "-c%d-%d", h.minN, h.maxN)
	}
	if h.features != AllFeatures {
		b.WriteString("-f")
		for _, f := range []struct {
			bit    Features
			letter byte
		}{{WordUnigrams, 'w'}, {WordBigrams, 'b'}, {CharNGrams, 'c'}} {
			if h.features&f.bit != 0 {
				b.WriteByte(f.letter)
			}
		}
	}
	if t := h.idf.Load(); t != nil {
		fmt.Fprintf(&b, "-idf%08x", t.fingerprint)
	}
	return b.String()
}

// Dim returns the vector dimension.
func (h *Hashed) Dim() int { return h.dim }

// Fit computes smoothed IDF weights from corpus, one document per string:
// idf(f) = ln((1+N)/(1+df(f))) + 1, where N is the number of documents and df(f) the number
// of documents containing feature f (the smoothed form of scikit-learn: no division by zero,
// and a feature found in every document keeps weight 1 rather than 0). A feature absent from
// the corpus gets the largest weight, ln(1+N) + 1. Fit replaces any earlier fit; fitting an
// empty corpus gives weight 1 everywhere, as unfitted.
func (h *Hashed) Fit(corpus []string) {
	df := make(map[uint64]int)
	seen := make(map[uint64]bool)
	for _, doc := range corpus {
		clear(seen)
		h.each(Tokenize(doc), func(f uint64) {
			if !seen[f] {
				seen[f] = true
				df[f]++
			}
		})
	}
	n := float64(len(corpus))
	t := &idfTable{weights: make(map[uint64]float64, len(df)), unseen: math.Log(1+n) + 1}
	keys := make([]uint64, 0, len(df))
	for f, d := range df {
		t.weights[f] = math.Log((1+n)/(1+float64(d))) + 1
		keys = append(keys, f)
	}
	// The fingerprint hashes N and the sorted (feature, df) pairs: it depends on the fit only,
	// not on map order.
	slices.Sort(keys)
	fp := fnv64a(fnvOffset, uint64(len(corpus)))
	for _, f := range keys {
		fp = fnv64a(fnv64a(fp, f), uint64(df[f]))
	}
	t.fingerprint = uint32(fp ^ fp>>32)
	h.idf.Store(t)
}

// Embed returns one vector of length Dim per text, in order. The vector of a text with no
// letters or digits (the empty text, punctuation only) is the zero vector: there is no
// direction to normalize, and Cosine scores the zero vector 0 against anything, so such a
// text matches nothing rather than everything. Every other vector has unit length, except
// when all its features cancel in their buckets (signed hashing: two features of equal weight
// in one bucket with opposite signs), which gives the zero vector too; that needs a text
// with very few features, such as a single letter, in a small dimension (it happens to "a" at
// Dim 8). Embed stops early with ctx's error when ctx is done.
func (h *Hashed) Embed(ctx context.Context, texts []string) ([][]float64, error) {
	t := h.idf.Load()
	out := make([][]float64, len(texts))
	for i, text := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("hashed embedder: after %d of %d texts: %w", i, len(texts), err)
			}
		}
		out[i] = h.vector(t, text)
	}
	return out, nil
}

// Vector embeds one text; see Embed.
func (h *Hashed) Vector(text string) []float64 {
	return h.vector(h.idf.Load(), text)
}

func (h *Hashed) vector(t *idfTable, text string) []float64 {
	v := make([]float64, h.dim)
	h.each(Tokenize(text), func(f uint64) {
		w := 1.0
		if t != nil {
			var ok bool
			if w, ok = t.weights[f]; !ok {
				w = t.unseen
			}
		}
		// Low bits pick the bucket, the top bit the sign: independent bits of one hash.
		i := f % uint64(h.dim)
		if f>>63 == 1 {
			w = -w
		}
		v[i] += w
	})
	var sum float64
	for _, x := range v {
		sum += x * x
	}
	if sum == 0 {
		return v
	}
	norm := math.Sqrt(sum)
	for i := range v {
		v[i] /= norm
	}
	return v
}

// Feature-family tags, hashed first so that the word "cit" and the n-gram "cit" differ.
const (
	tagUnigram byte = 'w'
	tagBigram  byte = 'b'
	tagChar    byte = 'c'
	wordSep    byte = 0 // between the two words of a bigram; never inside a token
)

// each calls emit with the hash of every feature of tokens, repeats included (they make the
// term frequency). Hashing is done in place, without building feature strings.
func (h *Hashed) each(tokens []string, emit func(uint64)) {
	fs := h.features
	var padded []rune
	for i, tok := range tokens {
		if fs&WordUnigrams != 0 {
			emit(fnvString(fnvByte(fnvOffset, tagUnigram), tok))
		}
		if fs&WordBigrams != 0 && i > 0 {
			f := fnvString(fnvByte(fnvOffset, tagBigram), tokens[i-1])
			emit(fnvString(fnvByte(f, wordSep), tok))
		}
		if fs&CharNGrams != 0 {
			// '<' and '>' mark the word boundaries; Tokenize never puts them inside a token.
			padded = append(padded[:0], '<')
			for _, r := range tok {
				padded = append(padded, r)
			}
			padded = append(padded, '>')
			for n := h.minN; n <= h.maxN && n <= len(padded); n++ {
				for s := 0; s+n <= len(padded); s++ {
					f := fnvByte(fnvOffset, tagChar)
					for _, r := range padded[s : s+n] {
						f = fnvRune(f, r)
					}
					emit(f)
				}
			}
		}
	}
}

// 64-bit FNV-1a, written out so that hashing a feature allocates nothing.
const (
	fnvOffset uint64 = 14695981039346656037
	fnvPrime  uint64 = 1099511628211
)

func fnvByte(h uint64, b byte) uint64 { return (h ^ uint64(b)) * fnvPrime }

func fnvString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = fnvByte(h, s[i])
	}
	return h
}

func fnvRune(h uint64, r rune) uint64 {
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], r)
	for _, b := range buf[:n] {
		h = fnvByte(h, b)
	}
	return h
}

// fnv64a hashes the 8 little-endian bytes of x into h.
func fnv64a(h, x uint64) uint64 {
	for i := 0; i < 8; i++ {
		h = fnvByte(h, byte(x>>(8*i)))
	}
	return h
}
