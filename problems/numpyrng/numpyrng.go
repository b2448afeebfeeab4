// Package numpyrng reproduces numpy's default_rng bit for bit: SeedSequence entropy mixing,
// the PCG64 bit generator (128-bit LCG with the XSL-RR output), the generator's buffered 32-bit
// draws, Lemire's bounded integers and choice without weights. Problems whose reference seeds
// numpy from the content (Arcade Rules) need the exact stream to reproduce the reference's games.
package numpyrng

import "math/bits"

// SeedSequence constants (numpy/random/bit_generator.pyx).
const (
	initA   uint32 = 0x43b0d7e5
	multA   uint32 = 0x931e8875
	initB   uint32 = 0x8b51f9dd
	multB   uint32 = 0x58f38ded
	mixMulL uint32 = 0xca01f9dd
	mixMulR uint32 = 0x4973f715
	xshift         = 16
	poolLen        = 4
)

// PCG64's 128-bit multiplier, as high and low words.
const (
	multHi uint64 = 2549297995355413924
	multLo uint64 = 4865540595714422341
)

// SeedState is SeedSequence(seed).generate_state(4, uint64) for a non-negative integer seed.
func SeedState(seed uint64) [4]uint64 {
	entropy := []uint32{uint32(seed)}
	if seed>>32 != 0 {
		entropy = append(entropy, uint32(seed>>32))
	}
	hash := initA
	hashmix := func(v uint32) uint32 {
		v ^= hash
		hash *= multA
		v *= hash
		return v ^ v>>xshift
	}
	mix := func(x, y uint32) uint32 {
		r := mixMulL*x - mixMulR*y
		return r ^ r>>xshift
	}
	var pool [poolLen]uint32
	for i := range pool {
		var e uint32
		if i < len(entropy) {
			e = entropy[i]
		}
		pool[i] = hashmix(e)
	}
	for src := 0; src < poolLen; src++ {
		for dst := 0; dst < poolLen; dst++ {
			if src != dst {
				pool[dst] = mix(pool[dst], hashmix(pool[src]))
			}
		}
	}
	for _, e := range entropy[min(len(entropy), poolLen):] {
		for dst := 0; dst < poolLen; dst++ {
			pool[dst] = mix(pool[dst], hashmix(e))
		}
	}
	var words [8]uint32
	h := initB
	for k := range words {
		v := pool[k%poolLen] ^ h
		h *= multB
		v *= h
		words[k] = v ^ v>>xshift
	}
	var out [4]uint64
	for t := range out {
		out[t] = uint64(words[2*t]) | uint64(words[2*t+1])<<32
	}
	return out
}

// Generator is numpy's Generator(PCG64(SeedSequence(seed))). The zero value is not usable; a
// Generator is a small value, so copying it forks the stream (useful to replay a game).
type Generator struct {
	stateHi, stateLo uint64
	incHi, incLo     uint64
	// The upper half of the last 64-bit draw, kept for the next 32-bit draw.
	saved    uint32
	hasSaved bool
}

// New is numpy.random.default_rng(seed).
func New(seed uint64) *Generator {
	g := &Generator{}
	g.Seed(seed)
	return g
}

// Seed resets the generator to default_rng(seed) without allocating.
func (g *Generator) Seed(seed uint64) {
	w := SeedState(seed)
	*g = Generator{incHi: w[2]<<1 | w[3]>>63, incLo: w[3]<<1 | 1}
	g.step()
	var carry uint64
	g.stateLo, carry = bits.Add64(g.stateLo, w[1], 0)
	g.stateHi, _ = bits.Add64(g.stateHi, w[0], carry)
	g.step()
}

func (g *Generator) step() {
	hi, lo := bits.Mul64(g.stateLo, multLo)
	hi += g.stateHi*multLo + g.stateLo*multHi
	var carry uint64
	g.stateLo, carry = bits.Add64(lo, g.incLo, 0)
	g.stateHi, _ = bits.Add64(hi, g.incHi, carry)
}

// Uint64 is the bit generator's next raw 64-bit output (random_raw).
func (g *Generator) Uint64() uint64 {
	g.step()
	return bits.RotateLeft64(g.stateHi^g.stateLo, -int(g.stateHi>>58))
}

// Uint32 is a 32-bit draw: the two halves of one 64-bit output, low half first.
func (g *Generator) Uint32() uint32 {
	if g.hasSaved {
		g.hasSaved = false
		return g.saved
	}
	n := g.Uint64()
	g.saved, g.hasSaved = uint32(n>>32), true
	return uint32(n)
}

// Float64 is random(): 53 random bits in [0, 1).
func (g *Generator) Float64() float64 {
	return float64(g.Uint64()>>11) * (1.0 / (1 << 53))
}

// Integers is integers(low, high) with the default int64 dtype: uniform in [low, high). An
// empty range returns low without drawing, as numpy does for a zero-width range.
func (g *Generator) Integers(low, high int64) int64 {
	if high <= low {
		return low
	}
	return low + int64(g.bounded(uint64(high-1-low)))
}

// bounded is a uniform draw in [0, rng] (numpy's random_bounded_uint64 without masking).
func (g *Generator) bounded(rng uint64) uint64 {
	switch {
	case rng == 0:
		return 0
	case rng == 0xffffffff:
		return uint64(g.Uint32())
	case rng < 0xffffffff:
		excl := rng + 1
		m := uint64(g.Uint32()) * excl
		if left := m & 0xffffffff; left < excl {
			threshold := (0xffffffff - rng) % excl
			for left < threshold {
				m = uint64(g.Uint32()) * excl
				left = m & 0xffffffff
			}
		}
		return m >> 32
	case rng == ^uint64(0):
		return g.Uint64()
	}
	excl := rng + 1
	hi, lo := bits.Mul64(g.Uint64(), excl)
	if lo < excl {
		threshold := (^uint64(0) - rng) % excl
		for lo < threshold {
			hi, lo = bits.Mul64(g.Uint64(), excl)
		}
	}
	return hi
}

// IntN is Integers(0, n) as an int; with Float64 it makes a Generator usable as a space.Rand,
// so a space sampled with it draws exactly what the reference's seeded space draws.
func (g *Generator) IntN(n int) int { return int(g.Integers(0, int64(n))) }

// Choice is the index that choice(list) without probabilities picks from a list of length n.
func (g *Generator) Choice(n int) int { return g.IntN(n) }
