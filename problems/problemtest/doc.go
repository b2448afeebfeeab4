// Package problemtest holds the test helpers every problem package uses: the golden-vector
// comparison against the Python reference's numbers (within 1e-9) and the conformance checks
// every problem must pass (seeded determinism, valid samples, metrics in [0,1], diversity
// properties, JSON round trip, rendering).
package problemtest
