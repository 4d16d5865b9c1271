package embed

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
)

// maxSafeTensorsHeader bounds the JSON header of a safetensors file (the reference
// implementation refuses headers over 100 MB too).
const maxSafeTensorsHeader = 100 << 20

// SafeTensors is an open safetensors file, the weight format of Hugging Face models: an 8-byte
// little-endian header length, a JSON header giving each tensor's dtype, shape and byte range
// ("data_offsets", relative to the end of the header), then the tensor data. Opening reads and
// checks the header only; Float32 reads one tensor. A SafeTensors is safe for concurrent use.
type SafeTensors struct {
	name    string // the file, for errors
	r       io.ReaderAt
	closer  io.Closer
	base    int64 // offset of the data section
	tensors map[string]TensorInfo
	// Metadata is the header's optional "__metadata__" map (e.g. {"format": "pt"}).
	Metadata map[string]string
}

// TensorInfo describes one tensor of a safetensors file.
type TensorInfo struct {
	Name string
	// DType is the element type as the file spells it: "F32", "F16", "BF16", "I64", ...
	DType string
	Shape []int
	// Begin and End are the tensor's byte range within the data section.
	Begin, End int64
}

// dtypeSizes gives the element size in bytes of the dtypes of the safetensors format.
var dtypeSizes = map[string]int64{
	"BOOL": 1, "U8": 1, "I8": 1, "F8_E5M2": 1, "F8_E4M3": 1,
	"I16": 2, "U16": 2, "F16": 2, "BF16": 2,
	"I32": 4, "U32": 4, "F32": 4,
	"I64": 8, "U64": 8, "F64": 8,
}

// OpenSafeTensors opens the safetensors file at path and checks its header: every tensor must
// have a known dtype, a non-negative shape and a byte range inside the data section whose
// length matches its shape. Close the result when done.
func OpenSafeTensors(path string) (*SafeTensors, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("safetensors: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("safetensors: %w", err)
	}
	s, err := NewSafeTensors(f, fi.Size(), path)
	if err != nil {
		f.Close()
		return nil, err
	}
	s.closer = f
	return s, nil
}

// NewSafeTensors reads the header of the size-byte safetensors data in r, named name in
// errors, with the checks of OpenSafeTensors.
func NewSafeTensors(r io.ReaderAt, size int64, name string) (*SafeTensors, error) {
	fail := func(format string, args ...any) (*SafeTensors, error) {
		return nil, fmt.Errorf("safetensors %s: "+format, append([]any{name}, args...)...)
	}
	if size < 8 {
		return fail("%d bytes is too short for the header length", size)
	}
	var lenBuf [8]byte
	if _, err := r.ReadAt(lenBuf[:], 0); err != nil {
		return fail("read header length: %w", err)
	}
	n := binary.LittleEndian.Uint64(lenBuf[:])
	if n > maxSafeTensorsHeader || int64(n) > size-8 {
		return fail("header length %d exceeds the file (%d bytes) or the %d-byte limit", n, size, maxSafeTensorsHeader)
	}
	header := make([]byte, n)
	if _, err := r.ReadAt(header, 8); err != nil {
		return fail("read header: %w", err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(header, &raw); err != nil {
		return fail("header is not a JSON object: %w", err)
	}
	s := &SafeTensors{name: name, r: r, base: 8 + int64(n), tensors: make(map[string]TensorInfo, len(raw))}
	dataSize := size - s.base
	for key, msg := range raw {
		if key == "__metadata__" {
			if err := json.Unmarshal(msg, &s.Metadata); err != nil {
				return fail("__metadata__ is not a map of strings: %w", err)
			}
			continue
		}
		var t struct {
			DType       string  `json:"dtype"`
			Shape       []int64 `json:"shape"`
			DataOffsets []int64 `json:"data_offsets"`
		}
		if err := json.Unmarshal(msg, &t); err != nil {
			return fail("tensor %q: %w", key, err)
		}
		elem, ok := dtypeSizes[t.DType]
		if !ok {
			return fail("tensor %q: unknown dtype %q", key, t.DType)
		}
		if len(t.DataOffsets) != 2 {
			return fail("tensor %q: data_offsets %v is not a [begin, end] pair", key, t.DataOffsets)
		}
		begin, end := t.DataOffsets[0], t.DataOffsets[1]
		if begin < 0 || end < begin || end > dataSize {
			return fail("tensor %q: data_offsets [%d, %d] out of the %d-byte data section", key, begin, end, dataSize)
		}
		count := int64(1)
		shape := make([]int, len(t.Shape))
		for i, d := range t.Shape {
			if d < 0 || d > math.MaxInt32 {
				return fail("tensor %q: bad shape %v", key, t.Shape)
			}
			shape[i] = int(d)
			count *= d
			if count > dataSize {
				return fail("tensor %q: shape %v exceeds the %d-byte data section", key, t.Shape, dataSize)
			}
		}
		if count*elem != end-begin {
			return fail("tensor %q: shape %v of %s needs %d bytes, data_offsets [%d, %d] hold %d", key, t.Shape, t.DType, count*elem, begin, end, end-begin)
		}
		s.tensors[key] = TensorInfo{Name: key, DType: t.DType, Shape: shape, Begin: begin, End: end}
	}
	return s, nil
}

// Close closes the file OpenSafeTensors opened; it does nothing for NewSafeTensors.
func (s *SafeTensors) Close() error {
	if s.closer == nil {
		return nil
	}
	return s.closer.Close()
}

// Names returns the names of the tensors, sorted.
func (s *SafeTensors) Names() []string {
	names := make([]string, 0, len(s.tensors))
	for n := range s.tensors {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Info describes the tensor called name; ok is false when there is none.
func (s *SafeTensors) Info(name string) (t TensorInfo, ok bool) {
	t, ok = s.tensors[name]
	return t, ok
}

// Float32 reads the tensor called name as float32 values in row-major order, converting F16
// and BF16. When shape is given, the tensor must have exactly that shape.
func (s *SafeTensors) Float32(name string, shape ...int) ([]float32, error) {
	t, ok := s.tensors[name]
	if !ok {
		return nil, fmt.Errorf("safetensors %s: no tensor %q", s.name, name)
	}
	if shape != nil && !slices.Equal(shape, t.Shape) {
		return nil, fmt.Errorf("safetensors %s: tensor %q has shape %v, want %v", s.name, name, t.Shape, shape)
	}
	var conv func(dst []float32, src []byte)
	switch t.DType {
	case "F32":
		conv = func(dst []float32, src []byte) {
			for i := range dst {
				dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:]))
			}
		}
	case "F16":
		conv = func(dst []float32, src []byte) {
			for i := range dst {
				dst[i] = float16to32(binary.LittleEndian.Uint16(src[2*i:]))
			}
		}
	case "BF16":
		conv = func(dst []float32, src []byte) {
			for i := range dst {
				dst[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(src[2*i:])) << 16)
			}
		}
	default:
		return nil, fmt.Errorf("safetensors %s: tensor %q has dtype %s, want F32, F16 or BF16", s.name, name, t.DType)
	}
	elem := dtypeSizes[t.DType]
	out := make([]float32, (t.End-t.Begin)/elem)
	// Read in chunks, so that a large tensor does not need a second full-size buffer.
	const chunk = 1 << 16 // elements
	buf := make([]byte, min(int64(len(out)), chunk)*elem)
	for i := 0; i < len(out); i += chunk {
		n := min(len(out)-i, chunk)
		b := buf[:int64(n)*elem]
		if _, err := s.r.ReadAt(b, s.base+t.Begin+int64(i)*elem); err != nil {
			return nil, fmt.Errorf("safetensors %s: read tensor %q: %w", s.name, name, err)
		}
		conv(out[i:i+n], b)
	}
	return out, nil
}

// float16to32 converts an IEEE 754 half-precision value to float32, exactly.
func float16to32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h) & 0x3ff
	switch exp {
	case 0x1f: // infinity or NaN
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	case 0: // zero or subnormal: mant·2⁻²⁴
		v := float32(mant) / (1 << 24)
		if sign != 0 {
			v = -v
		}
		return v
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}

// String describes the tensor as "name F32 [384 384]".
func (t TensorInfo) String() string {
	dims := make([]string, len(t.Shape))
	for i, d := range t.Shape {
		dims[i] = fmt.Sprint(d)
	}
	return fmt.Sprintf("%s %s [%s]", t.Name, t.DType, strings.Join(dims, " "))
}
