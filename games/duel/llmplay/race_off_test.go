//go:build !race

package llmplay

const raceDetector = false
