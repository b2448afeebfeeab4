// Package problems is the PCG Benchmark core: the Problem contract every benchmark problem
// implements, the registry of problems by the reference's names (zelda-v0, binary-wide-v0, ...),
// and Evaluate, which turns a set of contents (and controls) into the reference's quality,
// diversity and controllability percentages.
//
// The package is pure Go: no GUI, no window system. The problems themselves live in
// sub-packages (problems/binary, problems/zelda, ...) that register their variants in init;
// import problems/all to get every one.
package problems
