// Package embed turns texts (API and parameter descriptions, planner recall descriptions) into
// vectors, for retrieval of target APIs and for parameter clustering.
package embed

import (
	"context"
	"math"
)

// Embedder maps texts to vectors of a fixed dimension. Implementations must be safe for
// concurrent use and return one vector of length Dim() per text, in order.
type Embedder interface {
	// Name identifies the embedder and its settings (e.g. "hashed-ngram-256"); a store uses it
	// to refuse vectors of another embedder.
	Name() string
	Dim() int
	Embed(ctx context.Context, texts []string) ([][]float64, error)
}

// Cosine returns the cosine similarity of a and b, or 0 when either is the zero vector.
// a and b must have the same length.
func Cosine(a, b []float64) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += a[i] * b[i]
		na += a[i] * a[i]
		nb += b[i] * b[i]
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
