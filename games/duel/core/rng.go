package core

import "math/rand/v2"

// MoveRNG is the random source of one agent move, made from its 64-bit move seed: wherever
// the agent runs (in this process or in a sandbox worker), the same seed gives the same move.
func MoveRNG(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0xda942042e4dd58b5))
}
