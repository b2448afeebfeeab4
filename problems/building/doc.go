// Package building is the PCG Benchmark's Building problem (building-v0, building-large-v0,
// building-tall-v0, building-huge-v0): a content is an ordered list of blocks — {x, y, type},
// type 0 = 1×1, 1 = 1×3 (three along x), 2 = 3×1 (three along y), 3 = 3×3 — dropped one after
// another onto a W×L lot, Tetris-like, each falling until it rests on what is below. A good
// building places every block under the ceiling of H levels and has no short columns among
// its lowest levels; diversity compares the four per-type volumes after a shift (and possible
// x/y swap) that ignores where on the lot the building stands; controls ask for a number of
// blocks of each type.
//
// The reference's quirks are kept because the golden vectors depend on them: the orientation's
// running-minimum extent and its roll applied to the swapped axes (engine.go), the counts
// covering blocks that did not fit, and the block count in info being "blocks minus failures"
// of the nominal count rather than of the content length. The control sampler rescales four
// draws to sum to the block count (SampleControl).
package building
