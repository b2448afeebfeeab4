package playtest

import (
	"math"
	"sort"

	"pcgwb/stats"
)

// Estimate is a statistic with its 95% interval and the number of observations behind it. With
// no observations Value, Lo and Hi are NaN.
type Estimate struct {
	Value float64 `json:"value"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	N     int     `json:"n"`
	// Method is how the interval was obtained (the statistics layer's method names).
	Method string `json:"method,omitempty"`
}

// Resamples is the number of bootstrap resamples of every interval (the statistics layer's).
const Resamples = stats.Resamples

// fromInterval is an interval of the statistics layer as an Estimate.
func fromInterval(iv stats.Interval) Estimate {
	return Estimate{Value: iv.Mean, Lo: iv.Lo, Hi: iv.Hi, N: iv.N, Method: iv.Method}
}

// Mean is the arithmetic mean (NaN for none).
func Mean(xs []float64) float64 { return stats.Mean(xs) }

// Median is the middle value, the mean of the two middle ones for an even count (NaN for none).
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// Bootstrap estimates stat over n independent observations with the statistics layer's
// percentile bootstrap (seeded by seed).
func Bootstrap(n int, seed uint64, stat func(idx []int) float64) Estimate {
	if n == 0 {
		return Estimate{Value: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
	}
	e := fromInterval(stats.Bootstrap(n, seed, stat))
	if n < 2 {
		e.Lo, e.Hi = math.NaN(), math.NaN()
	}
	return e
}

// MeanCI is the mean of independent values xs with the statistics layer's bootstrap interval.
func MeanCI(xs []float64) Estimate {
	return fromInterval(stats.BootstrapMean(xs))
}

// MedianCI is the median of xs with its bootstrap interval.
func MedianCI(xs []float64) Estimate {
	return Bootstrap(len(xs), stats.Seed(xs), func(idx []int) float64 {
		s := make([]float64, len(idx))
		for j, i := range idx {
			s[j] = xs[i]
		}
		return Median(s)
	})
}

// ranks are the ranks of xs from 1, ties sharing their average rank.
func ranks(xs []float64) []float64 {
	order := make([]int, len(xs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return xs[order[a]] < xs[order[b]] })
	r := make([]float64, len(xs))
	for i := 0; i < len(order); {
		j := i
		for j+1 < len(order) && xs[order[j+1]] == xs[order[i]] {
			j++
		}
		avg := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[order[k]] = avg
		}
		i = j + 1
	}
	return r
}

// Spearman is the rank correlation of paired values: Pearson's correlation of their ranks
// (ties averaged). NaN when either side is constant or there are fewer than two pairs.
func Spearman(x, y []float64) float64 {
	if len(x) < 2 || len(x) != len(y) {
		return math.NaN()
	}
	rx, ry := ranks(x), ranks(y)
	mx, my := Mean(rx), Mean(ry)
	var sxy, sxx, syy float64
	for i := range rx {
		dx, dy := rx[i]-mx, ry[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return math.NaN()
	}
	return sxy / math.Sqrt(sxx*syy)
}

// SpearmanCI is Spearman's rank correlation with a bootstrap interval over the pairs.
func SpearmanCI(x, y []float64) Estimate {
	return Bootstrap(len(x), stats.Seed(x, y), func(idx []int) float64 {
		a, b := make([]float64, len(idx)), make([]float64, len(idx))
		for j, i := range idx {
			a[j], b[j] = x[i], y[i]
		}
		return Spearman(a, b)
	})
}
