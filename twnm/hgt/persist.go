package hgt

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/naviagent/navi/twnm/hgt/hgtdata"
)

// The model file:
//
//	magic      "NAVI-HGT\n" (9 bytes)
//	header     uint32 big-endian length, then that many bytes of JSON (fileHeader)
//	parameters each parameter's values, in header order, row-major, as little-endian
//	           IEEE-754 float64, so a loaded model computes exactly what the saved one did
//
// Format is bumped whenever the architecture or the feature layout changes meaning; Load
// refuses formats it does not know.
const (
	fileMagic  = "NAVI-HGT\n"
	fileFormat = 1
	// maxHeader bounds the header a reader allocates for, against a corrupt length, and the
	// limits below the architecture a file may describe.
	maxHeader   = 64 << 20
	maxHidden   = 4096
	maxLayers   = 64
	maxFeatures = 1 << 16
)

type fileHeader struct {
	Format  int            `json:"format"`
	Version string         `json:"version"`
	Saved   time.Time      `json:"saved"`
	Config  Config         `json:"config"`
	Targets string         `json:"targets"`
	Layout  hgtdata.Layout `json:"layout"`
	Metrics Metrics        `json:"metrics"`
	Params  []fileParam    `json:"params"`
}

type fileParam struct {
	Name string `json:"name"`
	Rows int    `json:"rows"`
	Cols int    `json:"cols"`
}

// Save writes the model, its configuration, feature layout and metrics to w.
func (m *Model) Save(w io.Writer) error {
	h := fileHeader{Format: fileFormat, Version: m.version, Saved: time.Now().UTC(), Config: m.cfg,
		Targets: m.mode.String(), Layout: m.layout, Metrics: m.metrics}
	for _, p := range m.net.params {
		r, c := p.Value.Dims()
		h.Params = append(h.Params, fileParam{p.Name, r, c})
	}
	js, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("hgt: save model %s: header: %w", m.version, err)
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(fileMagic)
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(js)))
	bw.Write(n[:])
	bw.Write(js)
	var b [8]byte
	for _, p := range m.net.params {
		for _, x := range p.Value.RawMatrix().Data {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
			bw.Write(b[:])
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("hgt: save model %s: %w", m.version, err)
	}
	return nil
}

// Load reads a model written by Save. It refuses another file format, or parameters that
// do not match the architecture the file's configuration and layout describe.
func Load(r io.Reader) (*Model, error) {
	m, err := load(r)
	if err != nil {
		return nil, fmt.Errorf("hgt: load model: %w", err)
	}
	return m, nil
}

func load(r io.Reader) (*Model, error) {
	br := bufio.NewReader(r)
	magic := make([]byte, len(fileMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != fileMagic {
		return nil, errors.New("not a Navi HGT model file (bad magic)")
	}
	var n [4]byte
	if _, err := io.ReadFull(br, n[:]); err != nil {
		return nil, fmt.Errorf("header length: %w", err)
	}
	size := binary.BigEndian.Uint32(n[:])
	if size > maxHeader {
		return nil, fmt.Errorf("header of %d bytes is larger than the %d allowed", size, maxHeader)
	}
	js := make([]byte, size)
	if _, err := io.ReadFull(br, js); err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	var h fileHeader
	if err := json.Unmarshal(js, &h); err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	if h.Format != fileFormat {
		return nil, fmt.Errorf("file format %d: this build reads format %d; retrain the model", h.Format, fileFormat)
	}
	cfg := withDefaults(h.Config)
	if err := validate(cfg); err != nil {
		return nil, fmt.Errorf("model %s: config: %w", h.Version, err)
	}
	var mode hgtdata.Mode
	for _, md := range hgtdata.Modes {
		if md.String() == h.Targets {
			mode = md
		}
	}
	if mode == 0 {
		return nil, fmt.Errorf("model %s: unknown targets %q", h.Version, h.Targets)
	}
	l := h.Layout
	if l.EmbeddingDim < 0 || len(l.Mean) != l.NumFeatures() || len(l.Std) != l.NumFeatures() {
		return nil, fmt.Errorf("model %s: layout of %d features has %d means and %d deviations",
			h.Version, l.NumFeatures(), len(l.Mean), len(l.Std))
	}
	for j, s := range l.Std {
		if !(s > 0) {
			return nil, fmt.Errorf("model %s: layout: feature %d has standard deviation %v", h.Version, j, s)
		}
	}
	// Bound the architecture before allocating it: a corrupt header must not ask for
	// gigabytes.
	if cfg.Hidden > maxHidden || cfg.Layers > maxLayers || l.NumFeatures() > maxFeatures {
		return nil, fmt.Errorf("model %s: hidden width %d, %d layers, %d features: beyond %d, %d, %d",
			h.Version, cfg.Hidden, cfg.Layers, l.NumFeatures(), maxHidden, maxLayers, maxFeatures)
	}
	net := newNetwork(cfg.Hidden, cfg.Heads, cfg.Layers, l.NumFeatures())
	if len(h.Params) != len(net.params) {
		return nil, fmt.Errorf("model %s: %d parameters in the file, the architecture has %d", h.Version, len(h.Params), len(net.params))
	}
	for i, p := range net.params {
		fp := h.Params[i]
		r, c := p.Value.Dims()
		if fp.Name != p.Name || fp.Rows != r || fp.Cols != c {
			return nil, fmt.Errorf("model %s: parameter %d is %s %d×%d in the file, %s %d×%d in the architecture",
				h.Version, i, fp.Name, fp.Rows, fp.Cols, p.Name, r, c)
		}
	}
	var b [8]byte
	for _, p := range net.params {
		data := p.Value.RawMatrix().Data
		for j := range data {
			if _, err := io.ReadFull(br, b[:]); err != nil {
				return nil, fmt.Errorf("model %s: parameter %s: %w", h.Version, p.Name, err)
			}
			data[j] = math.Float64frombits(binary.LittleEndian.Uint64(b[:]))
		}
	}
	return &Model{cfg: cfg, mode: mode, layout: l, net: net, metrics: h.Metrics, version: h.Version}, nil
}
