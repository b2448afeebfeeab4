package shape

import "math/bits"

// Abs is the absolute value of an int.
func Abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// Sign is -1, 0 or 1 as v is negative, zero or positive.
func Sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// PackedBytes holds equal-length rows of byte-sized values eight to a word, so that the
// number of positions where two rows differ (a Hamming distance) is a few word operations.
type PackedBytes struct {
	words  []uint64
	stride int // words per row
	length int
}

// NewPackedBytes makes room for n rows of length values each.
func NewPackedBytes(n, length int) *PackedBytes {
	stride := (length + 7) / 8
	return &PackedBytes{words: make([]uint64, n*stride), stride: stride, length: length}
}

// PackRow stores v as row i of p. It reports false, leaving the row unusable, when v is not
// of the row length or holds a value outside int8's range (two such values could share a
// byte); the caller then compares the plain values.
func PackRow[T ~int8 | ~int | ~int32](p *PackedBytes, i int, v []T) bool {
	if len(v) != p.length {
		return false
	}
	row := p.words[i*p.stride : (i+1)*p.stride]
	for k, x := range v {
		if x < -128 || x > 127 {
			return false
		}
		row[k/8] |= uint64(uint8(x)) << (8 * (k % 8))
	}
	return true
}

// Differ is the number of positions where rows i and j differ.
func (p *PackedBytes) Differ(i, j int) int {
	a, b := p.words[i*p.stride:(i+1)*p.stride], p.words[j*p.stride:(j+1)*p.stride]
	n := 0
	for k, x := range a {
		d := x ^ b[k]
		// One bit per non-zero byte: fold each byte's bits into its lowest.
		d |= d >> 4
		d |= d >> 2
		d |= d >> 1
		n += bits.OnesCount64(d & 0x0101010101010101)
	}
	return n
}
