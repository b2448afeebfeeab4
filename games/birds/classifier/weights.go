package classifier

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// The weights file: the magic, then every parameter slice of Net.params in order, each as a
// little-endian uint32 count followed by that many IEEE half-precision floats. Half precision
// halves the embedded size; the accuracy figures in docs/classifier.md are measured with the
// rounded weights.
const weightsMagic = "PCGWB-CNN-v1\n"

// MarshalBinary encodes the network in the weights file format (half precision).
func (n *Net) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(weightsMagic)
	for _, p := range n.params() {
		binary.Write(&b, binary.LittleEndian, uint32(len(p)))
		for _, v := range p {
			binary.Write(&b, binary.LittleEndian, toHalf(v))
		}
	}
	return b.Bytes(), nil
}

// UnmarshalNet decodes a weights file.
func UnmarshalNet(data []byte) (*Net, error) {
	if !bytes.HasPrefix(data, []byte(weightsMagic)) {
		return nil, errors.New("classifier weights: bad magic")
	}
	r := bytes.NewReader(data[len(weightsMagic):])
	n := newNet()
	for i, p := range n.params() {
		var count uint32
		if err := binary.Read(r, binary.LittleEndian, &count); err != nil {
			return nil, fmt.Errorf("classifier weights: tensor %d: %w", i, err)
		}
		if int(count) != len(p) {
			return nil, fmt.Errorf("classifier weights: tensor %d has %d values, the architecture wants %d", i, count, len(p))
		}
		half := make([]uint16, count)
		if err := binary.Read(r, binary.LittleEndian, half); err != nil {
			return nil, fmt.Errorf("classifier weights: tensor %d: %w", i, err)
		}
		for j, h := range half {
			p[j] = fromHalf(h)
		}
	}
	if _, err := r.ReadByte(); err != io.EOF {
		return nil, errors.New("classifier weights: trailing data")
	}
	return n, nil
}

// Quantized is the network with every weight rounded to half precision, as it is stored.
func (n *Net) Quantized() *Net {
	q := newNet()
	src, dst := n.params(), q.params()
	for i := range src {
		for j, v := range src[i] {
			dst[i][j] = fromHalf(toHalf(v))
		}
	}
	return q
}

// toHalf rounds a float32 to the nearest IEEE 754 binary16 (ties to even).
func toHalf(f float32) uint16 {
	bits := math.Float32bits(f)
	sign := uint16(bits>>16) & 0x8000
	exp := int((bits>>23)&0xff) - 127 + 15
	mant := bits & 0x7fffff
	switch {
	case (bits>>23)&0xff == 0xff: // Inf or NaN
		if mant != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	case exp >= 0x1f:
		return sign | 0x7c00
	case exp <= 0:
		if exp < -10 {
			return sign
		}
		// Subnormal: shift the mantissa (with its implicit bit) into place, rounding to even.
		m := mant | 0x800000
		shift := uint(14 - exp)
		half := uint32(1) << (shift - 1)
		rest := m & (1<<shift - 1)
		v := m >> shift
		if rest > half || (rest == half && v&1 == 1) {
			v++
		}
		return sign | uint16(v)
	}
	v := uint32(exp)<<10 | mant>>13
	rest := mant & 0x1fff
	if rest > 0x1000 || (rest == 0x1000 && v&1 == 1) {
		v++ // may carry into the exponent, which is the correct rounding (up to Inf)
	}
	return sign | uint16(v)
}

func fromHalf(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := int(h>>10) & 0x1f
	mant := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	case exp == 0:
		if mant == 0 {
			return math.Float32frombits(sign)
		}
		v := float32(mant) / (1 << 24)
		if sign != 0 {
			return -v
		}
		return v
	}
	return math.Float32frombits(sign | uint32(exp-15+127)<<23 | mant<<13)
}
