// Package hgt is Navi's link predictor: a heterogeneous graph transformer (NaviAgent Appendix
// B.1) on the tool graph, written on gonum through the reverse-mode autodiff of package ad. It
// predicts the behavioural edges graph search reads (API -[:THEN]-> API and Param -[:FEEDS]->
// Param): a probability for every existing one, to become its predicted weight p̂, and the
// most likely missing ones.
//
// The network:
//
//   - Features (Eq. 17, hgtdata.Layout): the description embedding (zeros for a node without
//     one), log(1+s_v), log(1+f_v), s_v/(s_v+f_v), log(1+in-degree), log(1+out-degree), each
//     column standardised on the training graph. Degrees count the visible graph only.
//   - Encoder (Eq. 18): h' = LayerNorm(ReLU(W_τ x + b_τ)) per node type τ (API, Param).
//   - Config.Layers HGT layers (Eq. 19–20) over eight relations: INPUT_OF, OUTPUTS, THEN, FEEDS
//     and their reverses (so an API hears from its outputs too). For head k and relation r the
//     logit of edge u → v is (W_Q^{k,r} h_v)·(W_K^{k,r} h_u)/√d_k + b_r^k + w̃_uv, w̃ the edge's
//     statistical weight (1 for structural edges); the softmax runs per target over all its
//     incoming edges of all relations; messages are W_V^{k,r} h_u; the heads, concatenated,
//     pass GELU and a per-type projection, then a gated residual and LayerNorm.
//   - Decoder: a bilinear form per predicted kind, s(u,v) = h_u·W·h_vᵀ + b, probability σ(s).
//
// Training (Train) is full-batch Adam on L = μ_t·L_CE + (1−μ_t)·L_margin (Eq. 7–12) with
// μ_t = μ_0·γ^t, early stopping on validation AUC, and test ACC, F1 and AUC reported beside
// non-learned baselines. An edge never carries messages while it is scored: validation runs
// over the graph without the validation and test edges (and their evidence, see
// hgtdata.Target), the test over the graph without the test edges, and at each epoch a random
// SupervisionFrac of the training edges is hidden too and scored, so that the model learns to
// score edges it cannot see. Robustness masks a growing fraction of edges and measures their recovery
// (GTool's missing-dependency experiment). Models are saved with their metrics in a versioned
// file (Save, Load) and refuse graphs of another feature layout (CheckLayout).
package hgt

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/hgt/hgtdata"
)

// Model is a trained link predictor. It is safe for concurrent Predict calls once trained or
// loaded (they only read the parameters); SetVersion must not race with them.
type Model struct {
	cfg     Config
	mode    hgtdata.Mode
	layout  hgtdata.Layout
	net     *network
	metrics Metrics
	version string
}

// Metrics returns the metrics measured when the model was trained.
func (m *Model) Metrics() Metrics { return m.metrics }

// Version names the model: "hgt-<unix seconds at training>-<first 8 hex digits of the
// SHA-256 of its parameters>" unless SetVersion changed it.
func (m *Model) Version() string { return m.version }

// SetVersion renames the model, for a caller that keeps its own version scheme.
func (m *Model) SetVersion(v string) { m.version = v }

// Config returns the configuration the model was trained with.
func (m *Model) Config() Config { return m.cfg }

// CheckLayout refuses a graph whose feature rows differ from the ones the model was trained
// on (embedding dimension, statistics); the error wraps hgtdata.ErrLayout.
func (m *Model) CheckLayout(g *twnm.Graph) error {
	if g == nil {
		return fmt.Errorf("hgt: check layout: nil graph")
	}
	if err := m.layout.Check(g); err != nil {
		return fmt.Errorf("hgt: model %s: %w", m.version, err)
	}
	return nil
}

// paramHash is the first 8 hex digits of the SHA-256 of the parameters' values.
func (m *Model) paramHash() string {
	h := sha256.New()
	var b [8]byte
	for _, p := range m.net.params {
		for _, x := range p.Value.RawMatrix().Data {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
			h.Write(b[:])
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:8]
}
