package experiment

import "pcgwb/stats"

// Interval is a statistic over a group's runs with its 95% interval and the number of runs it
// stands on: the stats package's, the one statistics layer of the workbench. With fewer than
// two runs there is no interval (Lo and Hi are NaN): TooFew.
type Interval = stats.Interval

// BootstrapMean is the mean of vals with its 95% percentile-bootstrap interval, seeded by the
// values (stats.BootstrapMean): never outside the values' range.
func BootstrapMean(vals []float64) Interval { return stats.BootstrapMean(vals) }

// WilsonInterval is the proportion k of n with its 95% Wilson score interval (stats.Wilson).
func WilsonInterval(k, n int) Interval { return stats.Wilson(k, n) }
