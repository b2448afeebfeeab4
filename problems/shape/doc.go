// Package shape holds the metric helpers every PCG Benchmark problem shares, written once and
// exactly as the reference computes them: the trapezoid range reward, BFS distance maps, path
// back-tracking, regions, the double-sweep longest path, difflib's similarity ratio, numpy's
// pairwise summation and Python's heapq ordering. Tie-breaking rules matter: the golden vectors
// depend on them.
package shape
