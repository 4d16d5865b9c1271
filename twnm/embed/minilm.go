package embed

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/naviagent/navi/twnm/embed/kernel"
)

// The all-MiniLM-L6-v2 architecture (its config.json): BERT with 6 layers, hidden size 384,
// 12 attention heads, feed-forward size 1536, GELU, LayerNorm eps 1e-12, 512 positions.
const (
	// MiniLMDim is the dimension of MiniLM's vectors.
	MiniLMDim = 384

	miniLMLayers = 6
	miniLMHeads  = 12
	miniLMHead   = MiniLMDim / miniLMHeads
	miniLMFF     = 1536
	miniLMPos    = 512
	miniLMEps    = 1e-12
	miniLMID     = "all-minilm-l6-v2"
)

// Where MiniLM's files are looked for.
const (
	// EnvModelDir names the environment variable holding the folder of MiniLM's weights
	// (model.safetensors and vocab.txt); the Makefile exports it.
	EnvModelDir = "NAVI_EMBED_MODEL_DIR"
	// ModelDirName is the folder of MiniLM's weights relative to the repository root, where
	// `make models` installs them.
	ModelDirName = ".models/all-minilm-l6-v2"
)

// DefaultBatchTokens is MiniLM's default cap on the tokens of one batch.
const DefaultBatchTokens = 512

// MiniLMOptions configures NewMiniLM. The zero value gives the defaults.
type MiniLMOptions struct {
	// MaxTokens caps the tokens of one text, [CLS] and [SEP] included; longer texts are
	// truncated. 0 means DefaultMaxTokens (256, as sentence-transformers runs this model); at
	// most 512, the model's positions.
	MaxTokens int
	// Workers is how many batches Embed computes at once, one goroutine each; 0 means
	// runtime.GOMAXPROCS(0) at the time of each Embed.
	Workers int
	// BatchTokens caps the tokens of a batch (a text longer than the cap is a batch of its
	// own); 0 means DefaultBatchTokens.
	BatchTokens int
}

// MiniLM is the all-MiniLM-L6-v2 sentence encoder (sentence-transformers), in pure Go: BERT
// WordPiece tokenization, a 6-layer transformer in float32, mean pooling over the tokens and
// L2 normalization, giving 384-dimensional unit vectors whose cosine measures semantic
// similarity. The weights come from model.safetensors and vocab.txt (make models).
//
// Embed sorts its texts by length and groups them into batches of similar lengths; a batch
// packs its sequences without padding (each attends to its own tokens only, which is what the
// attention mask does to padded batches), so a text gets the same vector alone or batched.
// Batches run in parallel on Workers goroutines. The matrix products use AVX2/FMA assembly
// where the CPU has it (see package kernel).
//
// A MiniLM holds about 90 MB of weights and is safe for concurrent use.
type MiniLM struct {
	tok         *WordPiece
	hash        string // hex sha256 of model.safetensors
	name        string
	workers     int
	batchTokens int

	wordEmb []float32 // vocab×384
	posEmb  []float32 // 512×384, the token-type-0 embedding added in
	embLN   layerNorm
	layers  [miniLMLayers]encoderLayer

	pool sync.Pool // *workspace
}

// encoderLayer holds one transformer layer, its matrices packed for kernel.Gemm.
type encoderLayer struct {
	qkv, qkvBias []float32 // query, key and value projections side by side (384→1152); the
	// query part scaled by 1/√32, the attention's scale
	out, outBias []float32 // attention output projection, 384→384
	ln1          layerNorm
	ff1, ff1Bias []float32 // 384→1536, GELU
	ff2, ff2Bias []float32 // 1536→384
	ln2          layerNorm
}

type layerNorm struct{ gain, bias []float32 }

var _ Embedder = (*MiniLM)(nil)

// MiniLMDir returns the folder of MiniLM's weights: $NAVI_EMBED_MODEL_DIR when set, else the
// first .models/all-minilm-l6-v2 found in the working directory or one of its parents (so
// that go test finds it from any package). The error says to run make models when the
// weights are missing.
func MiniLMDir() (string, error) {
	if dir := os.Getenv(EnvModelDir); dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "model.safetensors")); err != nil {
			return "", fmt.Errorf("all-MiniLM-L6-v2 weights: %s=%s: %w; run `make models` in the repository root to fetch them", EnvModelDir, dir, err)
		}
		return dir, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("all-MiniLM-L6-v2 weights: %w", err)
	}
	for dir := wd; ; {
		cand := filepath.Join(dir, ModelDirName)
		if _, err := os.Stat(filepath.Join(cand, "model.safetensors")); err == nil {
			return cand, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", fmt.Errorf("all-MiniLM-L6-v2 weights not found: %s is unset and no %s/model.safetensors in %s or its parents; run `make models` in the repository root to fetch them", EnvModelDir, ModelDirName, wd)
}

// NewMiniLM loads all-MiniLM-L6-v2 from dir (model.safetensors and vocab.txt), checking every
// tensor's shape, and hashes the weights for Name. It takes a few hundred milliseconds.
func NewMiniLM(dir string, o MiniLMOptions) (*MiniLM, error) {
	m := &MiniLM{workers: o.Workers, batchTokens: o.BatchTokens}
	maxTokens := cmp.Or(o.MaxTokens, DefaultMaxTokens)
	switch {
	case maxTokens < 2 || maxTokens > miniLMPos:
		return nil, fmt.Errorf("minilm: MaxTokens %d out of [2, %d]", o.MaxTokens, miniLMPos)
	case m.workers < 0:
		return nil, fmt.Errorf("minilm: Workers %d is negative", o.Workers)
	case m.batchTokens < 0:
		return nil, fmt.Errorf("minilm: BatchTokens %d is negative", o.BatchTokens)
	}
	if m.batchTokens == 0 {
		m.batchTokens = DefaultBatchTokens
	}
	hint := func(err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("minilm: %w (run `make models` to fetch the weights)", err)
		}
		return fmt.Errorf("minilm: %w", err)
	}

	tok, err := LoadWordPiece(filepath.Join(dir, "vocab.txt"), WordPieceOptions{MaxTokens: maxTokens})
	if err != nil {
		return nil, hint(err)
	}
	m.tok = tok

	path := filepath.Join(dir, "model.safetensors")
	if m.hash, err = fileSHA256(path); err != nil {
		return nil, hint(err)
	}
	m.name = miniLMID + "@" + m.hash[:12]
	if maxTokens != DefaultMaxTokens {
		m.name += fmt.Sprintf("-max%d", maxTokens)
	}

	st, err := OpenSafeTensors(path)
	if err != nil {
		return nil, hint(err)
	}
	defer st.Close()
	if err := m.load(st); err != nil {
		return nil, fmt.Errorf("minilm: %w", err)
	}
	return m, nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hash %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// load reads the tensors (names as in Hugging Face's BertModel; a "bert." prefix is accepted
// too) and packs the matrices.
func (m *MiniLM) load(st *SafeTensors) error {
	prefix := ""
	if _, ok := st.Info("embeddings.word_embeddings.weight"); !ok {
		if _, ok := st.Info("bert.embeddings.word_embeddings.weight"); ok {
			prefix = "bert."
		}
	}
	var firstErr error
	read := func(name string, shape ...int) []float32 {
		if firstErr != nil {
			return nil
		}
		v, err := st.Float32(prefix+name, shape...)
		if err != nil {
			firstErr = err
		}
		return v
	}
	info, ok := st.Info(prefix + "embeddings.word_embeddings.weight")
	if !ok || len(info.Shape) != 2 {
		return fmt.Errorf("%s: no embeddings.word_embeddings.weight matrix: not a BERT model", st.name)
	}
	vocab := info.Shape[0]
	if vocab != m.tok.VocabSize() {
		return fmt.Errorf("%s: %d word embeddings for a vocabulary of %d tokens", st.name, vocab, m.tok.VocabSize())
	}
	m.wordEmb = read("embeddings.word_embeddings.weight", vocab, MiniLMDim)
	m.posEmb = read("embeddings.position_embeddings.weight", miniLMPos, MiniLMDim)
	types := read("embeddings.token_type_embeddings.weight", 2, MiniLMDim)
	m.embLN = layerNorm{read("embeddings.LayerNorm.weight", MiniLMDim), read("embeddings.LayerNorm.bias", MiniLMDim)}
	if firstErr != nil {
		return firstErr
	}
	for p := range miniLMPos {
		row := m.posEmb[p*MiniLMDim : (p+1)*MiniLMDim]
		for i, v := range types[:MiniLMDim] {
			row[i] += v
		}
	}

	scale := float32(1 / math.Sqrt(miniLMHead))
	for l := range m.layers {
		p := fmt.Sprintf("encoder.layer.%d.", l)
		ly := &m.layers[l]
		// The three projections, one under the other: a 1152×384 weight.
		qkv := make([]float32, 0, 3*MiniLMDim*MiniLMDim)
		ly.qkvBias = make([]float32, 0, 3*MiniLMDim)
		for i, part := range []string{"query", "key", "value"} {
			w := read(p+"attention.self."+part+".weight", MiniLMDim, MiniLMDim)
			b := read(p+"attention.self."+part+".bias", MiniLMDim)
			if firstErr != nil {
				return firstErr
			}
			if i == 0 {
				for j := range w {
					w[j] *= scale
				}
				for j := range b {
					b[j] *= scale
				}
			}
			qkv = append(qkv, w...)
			ly.qkvBias = append(ly.qkvBias, b...)
		}
		ly.qkv = packT(qkv, 3*MiniLMDim, MiniLMDim)
		ly.out = packT(read(p+"attention.output.dense.weight", MiniLMDim, MiniLMDim), MiniLMDim, MiniLMDim)
		ly.outBias = read(p+"attention.output.dense.bias", MiniLMDim)
		ly.ln1 = layerNorm{read(p+"attention.output.LayerNorm.weight", MiniLMDim), read(p+"attention.output.LayerNorm.bias", MiniLMDim)}
		ly.ff1 = packT(read(p+"intermediate.dense.weight", miniLMFF, MiniLMDim), miniLMFF, MiniLMDim)
		ly.ff1Bias = read(p+"intermediate.dense.bias", miniLMFF)
		ly.ff2 = packT(read(p+"output.dense.weight", MiniLMDim, miniLMFF), MiniLMDim, miniLMFF)
		ly.ff2Bias = read(p+"output.dense.bias", MiniLMDim)
		ly.ln2 = layerNorm{read(p+"output.LayerNorm.weight", MiniLMDim), read(p+"output.LayerNorm.bias", MiniLMDim)}
		if firstErr != nil {
			return firstErr
		}
	}
	return nil
}

// packT packs a linear layer's n×k weight (nil when reading it failed) for kernel.Gemm.
func packT(w []float32, n, k int) []float32 {
	if w == nil {
		return nil
	}
	p := make([]float32, kernel.PackedLen(k, n))
	kernel.PackT(p, w, n, k, k)
	return p
}

// Name identifies the model and its weights: "all-minilm-l6-v2@" and the first 12 hex digits
// of the sha256 of model.safetensors, plus "-max" and the cap when MaxTokens is not the
// default 256 (the cap changes the vectors of long texts).
func (m *MiniLM) Name() string { return m.name }

// Dim returns 384.
func (m *MiniLM) Dim() int { return MiniLMDim }

// WeightsHash returns the hex sha256 of model.safetensors, computed at load.
func (m *MiniLM) WeightsHash() string { return m.hash }

// Tokenizer returns the model's WordPiece tokenizer.
func (m *MiniLM) Tokenizer() *WordPiece { return m.tok }

// batch is a run of sequences, packed one after the other.
type batch struct {
	idx    []int     // indexes into Embed's texts
	ids    [][]int32 // token ids, [CLS] and [SEP] included
	tokens int
}

// Embed returns one unit vector of length 384 per text, in order; an empty text still has
// [CLS] and [SEP], and a vector. It stops early with ctx's error when ctx is done (checked
// between batches and between layers).
func (m *MiniLM) Embed(ctx context.Context, texts []string) ([][]float64, error) {
	out := make([][]float64, len(texts))
	if len(texts) == 0 {
		return out, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("minilm: %w", err)
	}
	ids := make([][]int32, len(texts))
	total := 0
	for i, t := range texts {
		ids[i] = m.tok.Encode(t)
		total += len(ids[i])
	}
	workers := m.workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	batches := m.plan(ids, total, workers)
	workers = min(workers, len(batches))

	var (
		next     atomic.Int64
		errOnce  sync.Once
		firstErr error
		failed   atomic.Bool
		wg       sync.WaitGroup
	)
	work := func() {
		ws, _ := m.pool.Get().(*workspace)
		if ws == nil {
			ws = new(workspace)
		}
		defer m.pool.Put(ws)
		for {
			i := int(next.Add(1) - 1)
			if i >= len(batches) || failed.Load() {
				return
			}
			b := &batches[i]
			vecs, err := m.forward(ctx, ws, b.ids, b.tokens)
			if err != nil {
				errOnce.Do(func() { firstErr = err })
				failed.Store(true)
				return
			}
			for j, v := range vecs {
				out[b.idx[j]] = v
			}
		}
	}
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	if firstErr != nil {
		return nil, fmt.Errorf("minilm: embed %d texts: %w", len(texts), firstErr)
	}
	return out, nil
}

// plan sorts the sequences by length, longest first, and cuts them into batches of at most
// m.batchTokens tokens, smaller when that keeps every worker busy; batches come longest first
// so that the last to start are the shortest.
func (m *MiniLM) plan(ids [][]int32, total, workers int) []batch {
	order := make([]int, len(ids))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(len(ids[b]), len(ids[a])) })
	// With few texts, spread them over the workers rather than filling one batch.
	budget := min(m.batchTokens, max((total+2*workers-1)/(2*workers), 1))
	if workers == 1 {
		budget = m.batchTokens
	}
	var batches []batch
	var cur batch
	for _, i := range order {
		n := len(ids[i])
		if cur.tokens > 0 && cur.tokens+n > budget {
			batches = append(batches, cur)
			cur = batch{}
		}
		cur.idx = append(cur.idx, i)
		cur.ids = append(cur.ids, ids[i])
		cur.tokens += n
	}
	return append(batches, cur)
}

// workspace is one worker's scratch memory, reused across batches.
type workspace struct {
	x, qkv, ctx, ff []float32 // T×384, T×1152, T×384, T×1536 for T tokens
	scores          []float32 // n×pad(n) for the longest sequence
	kp, vp          []float32 // one head's keys and values, packed
}

func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}

func padTo(n, m int) int { return (n + m - 1) / m * m }

// forward runs the encoder over the sequences seqs (tokens in all) and returns their pooled,
// normalized vectors.
func (m *MiniLM) forward(ctx context.Context, ws *workspace, seqs [][]int32, tokens int) ([][]float64, error) {
	const d = MiniLMDim
	longest := 0
	for _, s := range seqs {
		longest = max(longest, len(s))
	}
	ws.x = grow(ws.x, tokens*d)
	ws.qkv = grow(ws.qkv, tokens*3*d)
	ws.ctx = grow(ws.ctx, tokens*d)
	ws.ff = grow(ws.ff, tokens*miniLMFF)
	pad := padTo(longest, kernel.PanelWidth)
	ws.scores = grow(ws.scores, longest*pad)
	ws.kp = grow(ws.kp, kernel.PackedLen(miniLMHead, pad))
	ws.vp = grow(ws.vp, kernel.PackedLen(longest, miniLMHead))

	// Embeddings: word + position (+ token type 0), then LayerNorm.
	r := 0
	for _, s := range seqs {
		for p, id := range s {
			row := ws.x[r*d : (r+1)*d]
			w := m.wordEmb[int(id)*d : (int(id)+1)*d]
			pe := m.posEmb[p*d : (p+1)*d]
			for i := range row {
				row[i] = w[i] + pe[i]
			}
			r++
		}
	}
	m.embLN.apply(ws.x, tokens)

	for l := range m.layers {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ly := &m.layers[l]
		kernel.Gemm(tokens, 3*d, d, ws.x, d, ly.qkv, ly.qkvBias, ws.qkv, 3*d, 0)
		start := 0
		for _, s := range seqs {
			m.attention(ws, start, len(s))
			start += len(s)
		}
		// x += ctx·Wo + bo, then LayerNorm: the residual is added in place.
		kernel.Gemm(tokens, d, d, ws.ctx, d, ly.out, ly.outBias, ws.x, d, kernel.Accumulate)
		ly.ln1.apply(ws.x, tokens)
		kernel.Gemm(tokens, miniLMFF, d, ws.x, d, ly.ff1, ly.ff1Bias, ws.ff, miniLMFF, kernel.GELU)
		kernel.Gemm(tokens, d, miniLMFF, ws.ff, miniLMFF, ly.ff2, ly.ff2Bias, ws.x, d, kernel.Accumulate)
		ly.ln2.apply(ws.x, tokens)
	}

	// Mean pooling over each sequence's tokens, then L2 normalization.
	out := make([][]float64, len(seqs))
	start := 0
	for i, s := range seqs {
		v := make([]float64, d)
		for r := start; r < start+len(s); r++ {
			for j, x := range ws.x[r*d : (r+1)*d] {
				v[j] += float64(x)
			}
		}
		var sum float64
		for j := range v {
			v[j] /= float64(len(s))
			sum += v[j] * v[j]
		}
		if sum > 0 {
			inv := 1 / math.Sqrt(sum)
			for j := range v {
				// Through float32, as the model computes: the vector does not depend on the
				// platform's float64 rounding of the last step.
				v[j] = float64(float32(v[j] * inv))
			}
		}
		out[i] = v
		start += len(s)
	}
	return out, nil
}

// attention computes the self-attention of the n tokens from row start of ws.qkv into the
// same rows of ws.ctx, head by head: softmax(q·kᵀ)·v (the 1/√32 scale is folded into q).
func (m *MiniLM) attention(ws *workspace, start, n int) {
	const d = MiniLMDim
	const ld = 3 * d
	pad := padTo(n, kernel.PanelWidth)
	negInf := float32(math.Inf(-1))
	scores := ws.scores[:n*pad]
	for h := range miniLMHeads {
		q := ws.qkv[start*ld+h*miniLMHead:]
		k := ws.qkv[start*ld+d+h*miniLMHead:]
		v := ws.qkv[start*ld+2*d+h*miniLMHead:]
		kernel.PackT(ws.kp, k, n, miniLMHead, ld)
		// All pad columns are computed (against zero keys) and then masked out.
		kernel.Gemm(n, pad, miniLMHead, q, ld, ws.kp, nil, scores, pad, 0)
		for i := range n {
			row := scores[i*pad : (i+1)*pad]
			for j := n; j < pad; j++ {
				row[j] = negInf
			}
			kernel.Softmax(row)
		}
		kernel.Pack(ws.vp, v, n, miniLMHead, ld)
		kernel.Gemm(n, miniLMHead, n, scores, pad, ws.vp, nil, ws.ctx[start*d+h*miniLMHead:], d, 0)
	}
}

// apply normalizes each of the rows rows of x (384 floats each) in place: zero mean, unit
// variance (statistics in float64), then gain and bias.
func (ln layerNorm) apply(x []float32, rows int) {
	const d = MiniLMDim
	g, b := ln.gain[:d], ln.bias[:d]
	for r := range rows {
		row := (*[d]float32)(x[r*d : (r+1)*d])
		// Four partial sums: independent chains of additions run in parallel.
		var s0, s1, s2, s3 float64
		for i := 0; i < d; i += 4 {
			s0 += float64(row[i])
			s1 += float64(row[i+1])
			s2 += float64(row[i+2])
			s3 += float64(row[i+3])
		}
		mean := (s0 + s1 + s2 + s3) / d
		s0, s1, s2, s3 = 0, 0, 0, 0
		for i := 0; i < d; i += 4 {
			d0, d1, d2, d3 := float64(row[i])-mean, float64(row[i+1])-mean, float64(row[i+2])-mean, float64(row[i+3])-mean
			s0 += d0 * d0
			s1 += d1 * d1
			s2 += d2 * d2
			s3 += d3 * d3
		}
		inv := 1 / math.Sqrt((s0+s1+s2+s3)/d+miniLMEps)
		m32, inv32 := float32(mean), float32(inv)
		for i, v := range row {
			row[i] = (v-m32)*inv32*g[i] + b[i]
		}
	}
}
