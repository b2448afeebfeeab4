// Package loderunner is the PCG Benchmark's Lode Runner problem (loderunner-*): an 11×16 grid
// of pattern ids, each a 2×2 block of tiles cut from the original levels
// (loderunner/patterns.txt, found at run time through package data), expanded into a 22×32
// level whose bottom row is then made brick. Everything after the expansion (exploration,
// info, quality, diversity, controllability, rendering) is the engine of package
// loderunnertile.
package loderunner
