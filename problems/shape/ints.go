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

// ValuePlanes holds equal-length rows of small values (0 ≤ v < values) as one bitset per value
// and row, so that counts over the positions where two rows differ are word operations. A
// row's planes are interleaved by word (word k of every value, then word k+1), so a pair of
// rows is read in one pass.
type ValuePlanes struct {
	words, values int
	bits          []uint64 // row i's word k of value v is bits[(i*words+k)*values+v]
}

// NewValuePlanes makes room for n rows of length values below values.
func NewValuePlanes(n, length, values int) *ValuePlanes {
	words := (length + 63) / 64
	return &ValuePlanes{words: words, values: values, bits: make([]uint64, n*values*words)}
}

// PlaneRow stores v as row i of p. It reports false when a value is out of range or v is longer
// than the rows; the caller then compares the plain values.
func PlaneRow[T ~int | ~uint8 | ~int8](p *ValuePlanes, i int, v []T) bool {
	if len(v) > p.words*64 {
		return false
	}
	for k, x := range v {
		if x < 0 || int(x) >= p.values {
			return false
		}
		p.bits[(i*p.words+k/64)*p.values+int(x)] |= 1 << (k % 64)
	}
	return true
}

// Row is row i's planes, word by word: word k of value v is at k*values+v.
func (p *ValuePlanes) Row(i int) []uint64 {
	n := p.words * p.values
	return p.bits[i*n : (i+1)*n]
}
