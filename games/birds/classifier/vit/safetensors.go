package vit

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"

	"pcgwb/internal/safeio"
)

// Limits of a safetensors file this package reads: the ViT-B/16 weights are 343 MB in F32.
const (
	MaxSafetensorsBytes  = 2 << 30  // whole file
	MaxSafetensorsHeader = 16 << 20 // JSON header
	maxTensorDims        = 8
)

// Tensor is one tensor of a safetensors file, converted to float32.
type Tensor struct {
	DType string
	Shape []int
	Data  []float32
}

// Len is the number of elements the shape holds.
func (t *Tensor) Len() int {
	n := 1
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

type tensorHeader struct {
	DType   string   `json:"dtype"`
	Shape   []int    `json:"shape"`
	Offsets [2]int64 `json:"data_offsets"`
}

// ReadSafetensors reads every tensor of a safetensors file (an 8-byte little-endian header
// length, a JSON header naming each tensor's dtype, shape and byte range, then the data),
// converting F32, F16 and BF16 to float32. It refuses a file over limit bytes (0 means
// MaxSafetensorsBytes), a special file, a header over MaxSafetensorsHeader, a byte range that
// does not match its shape or lies outside the data, and overlapping ranges.
func ReadSafetensors(path string, limit int64) (map[string]*Tensor, error) {
	if limit <= 0 {
		limit = MaxSafetensorsBytes
	}
	f, err := safeio.Open(path, safeio.Options{Limit: limit})
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := info.Size()
	if size > limit {
		return nil, fmt.Errorf("%s: %s is over the limit of %s", path, safeio.HumanSize(size), safeio.HumanSize(limit))
	}
	return readSafetensors(f, size, path)
}

func readSafetensors(r io.ReaderAt, size int64, name string) (map[string]*Tensor, error) {
	var lenBuf [8]byte
	if size < 8 {
		return nil, fmt.Errorf("%s: not a safetensors file (%d bytes)", name, size)
	}
	if _, err := r.ReadAt(lenBuf[:], 0); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	n := binary.LittleEndian.Uint64(lenBuf[:])
	if n > MaxSafetensorsHeader || int64(n) > size-8 {
		return nil, fmt.Errorf("%s: safetensors header of %d bytes (file %d bytes, limit %d)", name, n, size, MaxSafetensorsHeader)
	}
	hdr := make([]byte, n)
	if _, err := r.ReadAt(hdr, 8); err != nil {
		return nil, fmt.Errorf("%s: header: %w", name, err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(hdr, &raw); err != nil {
		return nil, fmt.Errorf("%s: safetensors header: %w", name, err)
	}
	base := 8 + int64(n)
	dataLen := size - base
	type entry struct {
		name string
		h    tensorHeader
	}
	var entries []entry
	for k, v := range raw {
		if k == "__metadata__" {
			continue
		}
		var h tensorHeader
		if err := json.Unmarshal(v, &h); err != nil {
			return nil, fmt.Errorf("%s: tensor %q: %w", name, k, err)
		}
		entries = append(entries, entry{k, h})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].h.Offsets[0] < entries[j].h.Offsets[0] })
	out := make(map[string]*Tensor, len(entries))
	var prevEnd int64
	for _, e := range entries {
		h := e.h
		width, ok := dtypeWidth[h.DType]
		if !ok {
			return nil, fmt.Errorf("%s: tensor %q has dtype %s (F32, F16 and BF16 are read)", name, e.name, h.DType)
		}
		if len(h.Shape) > maxTensorDims {
			return nil, fmt.Errorf("%s: tensor %q has %d dimensions", name, e.name, len(h.Shape))
		}
		count := int64(1)
		for _, d := range h.Shape {
			if d < 0 || (d > 0 && count > math.MaxInt32/int64(d)) {
				return nil, fmt.Errorf("%s: tensor %q has shape %v", name, e.name, h.Shape)
			}
			count *= int64(d)
		}
		begin, end := h.Offsets[0], h.Offsets[1]
		if begin < prevEnd || end < begin || end > dataLen || end-begin != count*width {
			return nil, fmt.Errorf("%s: tensor %q: bytes %d–%d do not hold %v × %s within %d data bytes (or overlap another tensor)", name, e.name, begin, end, h.Shape, h.DType, dataLen)
		}
		prevEnd = end
		t := &Tensor{DType: h.DType, Shape: append([]int(nil), h.Shape...), Data: make([]float32, count)}
		if err := readFloats(io.NewSectionReader(r, base+begin, end-begin), h.DType, t.Data); err != nil {
			return nil, fmt.Errorf("%s: tensor %q: %w", name, e.name, err)
		}
		out[e.name] = t
	}
	return out, nil
}

var dtypeWidth = map[string]int64{"F32": 4, "F16": 2, "BF16": 2}

// readFloats converts little-endian values of dtype into dst, reading in 1 MiB chunks.
func readFloats(r io.Reader, dtype string, dst []float32) error {
	width := int(dtypeWidth[dtype])
	buf := make([]byte, (1<<20)/width*width)
	for i := 0; i < len(dst); {
		n := min(len(dst)-i, len(buf)/width)
		b := buf[:n*width]
		if _, err := io.ReadFull(r, b); err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return err
		}
		for j := 0; j < n; j++ {
			switch dtype {
			case "F32":
				dst[i+j] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*j:]))
			case "BF16":
				dst[i+j] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(b[2*j:])) << 16)
			case "F16":
				dst[i+j] = halfToFloat(binary.LittleEndian.Uint16(b[2*j:]))
			}
		}
		i += n
	}
	return nil
}

// halfToFloat converts an IEEE 754 binary16 value exactly.
func halfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // Inf, NaN
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	case exp == 0 && frac == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal: frac × 2^-24
		v := float32(frac) * (1.0 / (1 << 24))
		if sign != 0 {
			v = -v
		}
		return v
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
}
