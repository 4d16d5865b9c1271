package embed

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeSafeTensors writes a safetensors file with the given header (marshalled as is) and data
// section.
func writeSafeTensors(t *testing.T, header any, data []byte) string {
	t.Helper()
	h, err := json.Marshal(header)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, binary.Write(&buf, binary.LittleEndian, uint64(len(h))))
	buf.Write(h)
	buf.Write(data)
	path := filepath.Join(t.TempDir(), "test.safetensors")
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	return path
}

type stEntry struct {
	DType   string  `json:"dtype"`
	Shape   []int64 `json:"shape"`
	Offsets []int64 `json:"data_offsets"`
}

func le32(vs ...float32) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	return b
}

func le16(vs ...uint16) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint16(b, v)
	}
	return b
}

func TestSafeTensorsRead(t *testing.T) {
	var data []byte
	data = append(data, le32(1, -2, 3.5, 0, 1e-3, 6)...)   // [0, 24): a 2×3 F32
	data = append(data, le16(0x3c00, 0xc000, 0x3555)...)   // [24, 30): F16 1, -2, ~1/3
	data = append(data, le16(0x3f80, 0xc040)...)           // [30, 34): BF16 1, -3
	data = append(data, []byte{1, 0, 0, 0, 0, 0, 0, 0}...) // [34, 42): I64 1
	path := writeSafeTensors(t, map[string]any{
		"__metadata__": map[string]string{"format": "pt"},
		"w":            stEntry{"F32", []int64{2, 3}, []int64{0, 24}},
		"h":            stEntry{"F16", []int64{3}, []int64{24, 30}},
		"b":            stEntry{"BF16", []int64{1, 2}, []int64{30, 34}},
		"ids":          stEntry{"I64", []int64{1}, []int64{34, 42}},
		"empty":        stEntry{"F32", []int64{0, 4}, []int64{42, 42}},
	}, data)
	st, err := OpenSafeTensors(path)
	require.NoError(t, err)
	defer st.Close()

	assert.Equal(t, map[string]string{"format": "pt"}, st.Metadata)
	assert.Equal(t, []string{"b", "empty", "h", "ids", "w"}, st.Names())
	info, ok := st.Info("w")
	require.True(t, ok)
	assert.Equal(t, TensorInfo{Name: "w", DType: "F32", Shape: []int{2, 3}, Begin: 0, End: 24}, info)
	assert.Equal(t, "w F32 [2 3]", info.String())

	w, err := st.Float32("w", 2, 3)
	require.NoError(t, err)
	assert.Equal(t, []float32{1, -2, 3.5, 0, 1e-3, 6}, w)
	w, err = st.Float32("w") // no shape check
	require.NoError(t, err)
	assert.Len(t, w, 6)

	h, err := st.Float32("h", 3)
	require.NoError(t, err)
	assert.Equal(t, float32(1), h[0])
	assert.Equal(t, float32(-2), h[1])
	assert.InDelta(t, 1.0/3, h[2], 1e-3)

	b, err := st.Float32("b", 1, 2)
	require.NoError(t, err)
	assert.Equal(t, []float32{1, -3}, b)

	e, err := st.Float32("empty", 0, 4)
	require.NoError(t, err)
	assert.Empty(t, e)

	// Errors name the tensor.
	for _, tt := range []struct {
		name    string
		shape   []int
		wantErr string
	}{
		{"w", []int{3, 2}, `tensor "w" has shape [2 3], want [3 2]`},
		{"w", []int{6}, `tensor "w" has shape [2 3], want [6]`},
		{"ids", nil, `tensor "ids" has dtype I64, want F32, F16 or BF16`},
		{"nope", nil, `no tensor "nope"`},
	} {
		_, err := st.Float32(tt.name, tt.shape...)
		require.Error(t, err)
		assert.Contains(t, err.Error(), tt.wantErr)
	}
}

func TestSafeTensorsBadHeader(t *testing.T) {
	data := le32(1, 2, 3, 4)
	tests := []struct {
		name    string
		header  any
		wantErr string
	}{
		{"offsets past the data", map[string]any{"x": stEntry{"F32", []int64{8}, []int64{0, 32}}}, `tensor "x": data_offsets [0, 32] out of the 16-byte data section`},
		{"shape and offsets disagree", map[string]any{"x": stEntry{"F32", []int64{3}, []int64{0, 16}}}, `tensor "x": shape [3] of F32 needs 12 bytes, data_offsets [0, 16] hold 16`},
		{"reversed offsets", map[string]any{"x": stEntry{"F32", []int64{0}, []int64{8, 4}}}, `tensor "x": data_offsets [8, 4]`},
		{"negative offset", map[string]any{"x": stEntry{"F32", []int64{1}, []int64{-4, 0}}}, `tensor "x": data_offsets [-4, 0]`},
		{"one offset", map[string]any{"x": stEntry{"F32", []int64{1}, []int64{4}}}, `tensor "x": data_offsets [4] is not a [begin, end] pair`},
		{"unknown dtype", map[string]any{"x": stEntry{"F128", []int64{1}, []int64{0, 16}}}, `tensor "x": unknown dtype "F128"`},
		{"negative dim", map[string]any{"x": stEntry{"F32", []int64{-1, -4}, []int64{0, 16}}}, `tensor "x": bad shape [-1 -4]`},
		{"huge shape", map[string]any{"x": stEntry{"F32", []int64{1 << 30, 1 << 30}, []int64{0, 16}}}, `tensor "x": shape [1073741824 1073741824] exceeds`},
		{"not an object", []int{1, 2}, "header is not a JSON object"},
		{"bad entry", map[string]any{"x": "F32"}, `tensor "x"`},
		{"bad metadata", map[string]any{"__metadata__": map[string]int{"a": 1}}, "__metadata__"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := OpenSafeTensors(writeSafeTensors(t, tt.header, data))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}

	t.Run("short file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "short")
		require.NoError(t, os.WriteFile(path, []byte{1, 2, 3}, 0o644))
		_, err := OpenSafeTensors(path)
		require.ErrorContains(t, err, "too short")
	})
	t.Run("header length past the end", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "long")
		require.NoError(t, os.WriteFile(path, binary.LittleEndian.AppendUint64(nil, 1<<40), 0o644))
		_, err := OpenSafeTensors(path)
		require.ErrorContains(t, err, "exceeds the file")
	})
	t.Run("missing file", func(t *testing.T) {
		_, err := OpenSafeTensors(filepath.Join(t.TempDir(), "none"))
		require.ErrorIs(t, err, os.ErrNotExist)
	})
	t.Run("reader", func(t *testing.T) {
		b, err := os.ReadFile(writeSafeTensors(t, map[string]any{"x": stEntry{"F32", []int64{4}, []int64{0, 16}}}, data))
		require.NoError(t, err)
		st, err := NewSafeTensors(bytes.NewReader(b), int64(len(b)), "in-memory")
		require.NoError(t, err)
		x, err := st.Float32("x", 4)
		require.NoError(t, err)
		assert.Equal(t, []float32{1, 2, 3, 4}, x)
		assert.NoError(t, st.Close())
		// A reader shorter than it claims fails on read, naming the tensor.
		st, err = NewSafeTensors(bytes.NewReader(b[:len(b)-4]), int64(len(b)), "cut")
		require.NoError(t, err)
		_, err = st.Float32("x")
		require.ErrorContains(t, err, `read tensor "x"`)
	})
}

func TestFloat16To32(t *testing.T) {
	tests := []struct {
		h    uint16
		want float32
	}{
		{0x0000, 0},
		{0x3c00, 1},
		{0xc000, -2},
		{0x7bff, 65504},
		{0x0400, 6.103515625e-05},        // smallest normal
		{0x0001, 5.960464477539063e-08},  // smallest subnormal
		{0x83ff, -6.097555160522461e-05}, // largest negative subnormal
		{0x7c00, float32(math.Inf(1))},
		{0xfc00, float32(math.Inf(-1))},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, float16to32(tt.h), "%#04x", tt.h)
	}
	assert.True(t, math.IsNaN(float64(float16to32(0x7e00))))
	assert.True(t, math.Signbit(float64(float16to32(0x8000))), "negative zero")
}

// The real model: every tensor of a BertModel, F32, plus position_ids.
func TestSafeTensorsModel(t *testing.T) {
	st, err := OpenSafeTensors(filepath.Join(testModelDir(t), "model.safetensors"))
	require.NoError(t, err)
	defer st.Close()
	assert.Len(t, st.Names(), 6*16+5+2+1)
	info, ok := st.Info("embeddings.word_embeddings.weight")
	require.True(t, ok)
	assert.Equal(t, "F32", info.DType)
	assert.Equal(t, []int{30522, 384}, info.Shape)
	ln, err := st.Float32("encoder.layer.5.output.LayerNorm.weight", 384)
	require.NoError(t, err)
	assert.Len(t, ln, 384)
	_, err = st.Float32("embeddings.position_ids")
	require.ErrorContains(t, err, "dtype I64")
}
