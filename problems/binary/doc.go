// Package binary is the PCG Benchmark's Binary problem (binary-v0, binary-wide-v0,
// binary-large-v0): a grid of solid and empty tiles that should form one connected empty region
// whose longest shortest path is long. It is the simplest problem of the benchmark and the usual
// first test for a generator: quality needs only a BFS, diversity is a Hamming distance, and the
// control asks for a given path length.
package binary
