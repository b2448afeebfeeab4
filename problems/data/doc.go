// Package data finds the PCG Benchmark's content datasets (Elimination's word list and word
// frequencies, the Lode Runner levels and patterns, the Super Mario Bros slice library) on the
// user's machine. They belong to the reference project and are never shipped with the
// workbench: they are read at run time from a pcg_benchmark data directory, laid out like the
// reference's `pcg_benchmark/probs` folder (elimination/dictionary.txt, loderunner/patterns.txt,
// loderunner/data/level_0.txt, smb/slices.txt, ...).
//
// The directory is, in order: $PCG_BENCHMARK_DATA (authoritative when set, so a user or a test
// can pin it); else an installed `pcg_benchmark` Python package found in the usual
// site-packages folders (Python is never executed); else the copy the user imported with
// `workbench data import PATH`, under os.UserConfigDir()/pcg-workbench/data.
//
// Problems whose files are missing stay registered but unavailable; MissingError is the
// one-line explanation of how to enable them. Parsed files are cached once per process.
package data
