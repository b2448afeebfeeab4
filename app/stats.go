package app

import (
	"math"

	"pcgwb/problems/experiment"
)

// meanCI95 returns the mean of vals and the half width of its 95% Student-t confidence
// interval: the formula of experiment's summary.csv, so the GUI's bands and the report agree.
func meanCI95(vals []float64) (mean, half float64) { return experiment.MeanCI(vals) }

// formatMeanCI writes "0.93 ± 0.04", or just the mean when there is no interval, or "–".
func formatMeanCI(mean, half float64, decimals int) string {
	if math.IsNaN(mean) {
		return "–"
	}
	m := formatFixed(mean, decimals)
	if math.IsNaN(half) {
		return m
	}
	return m + " ± " + formatFixed(half, decimals)
}
