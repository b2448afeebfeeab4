//go:build !race

package duel

const raceDetector = false
