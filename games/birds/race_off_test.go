//go:build !race

package birds

const raceDetector = false
