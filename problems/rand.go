package problems

import "math/rand/v2"

// seedStream fixes the PCG stream, so a seed means the same thing in the CLI, the GUI and
// the generators.
const seedStream = 0x5eed

// NewSource is the one seeded random source of the workbench. It serialises with
// MarshalBinary, so a generator's random state can be checkpointed and resumed.
func NewSource(seed uint64) *rand.PCG { return rand.NewPCG(seed, seedStream) }

// NewRand wraps NewSource.
func NewRand(seed uint64) *rand.Rand { return rand.New(NewSource(seed)) }
