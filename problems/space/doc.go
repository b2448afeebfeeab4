// Package space describes the content and control spaces of the PCG Benchmark problems: what
// values a problem accepts, how to sample them from a seeded source, how to flatten them into a
// vector of floats and rebuild them, and how to cross them over (contentSwap).
//
// Values are JSON-shaped so that files move between the Python reference and the workbench:
// integer leaves are Go ints, float leaves float64, lists []any and dictionaries map[string]any.
// The space, not the value, fixes the order of dictionary keys for sampling and flattening.
package space
