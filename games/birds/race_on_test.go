//go:build race

package birds

// raceDetector is true in a -race build. The physics runs on one goroutine, so the detector
// adds nothing to the long bit-for-bit solver comparison, only a 5-20x slowdown: that test
// checks a sample of its levels under -race, and all of them in make test.
const raceDetector = true
