//go:build race

package llmplay

// raceDetector is true in a -race build: the race detector's shadow memory cannot live under
// an address-space limit, and its 5-20x slowdown turns CPU budgets and window timings into
// measurements of the detector. Tests of those skip under -race; make test runs them.
const raceDetector = true
