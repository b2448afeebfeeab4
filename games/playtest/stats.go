package playtest

import (
	"math"
	"sort"

	"pcgwb/problems"
)

// Estimate is a statistic with its 95% interval and the number of observations behind it. With
// no observations Value, Lo and Hi are NaN.
type Estimate struct {
	Value float64 `json:"value"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	N     int     `json:"n"`
}

// Resamples is the number of bootstrap resamples; bootSeed makes every interval reproducible.
const (
	Resamples = 2000
	bootSeed  = 20
)

// Mean is the arithmetic mean (NaN for none).
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

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

// quantile is the q-quantile of sorted values by linear interpolation (type 7).
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 1 {
		return sorted[0]
	}
	h := q * float64(len(sorted)-1)
	i := int(math.Floor(h))
	if i+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (h-float64(i))*(sorted[i+1]-sorted[i])
}

// Bootstrap estimates stat over n observations (stat reads the observations through the index
// list it is given) with a percentile bootstrap 95% interval over Resamples resamples drawn
// with a fixed seed. Resamples whose statistic is NaN (an empty group) are left out.
func Bootstrap(n int, stat func(idx []int) float64) Estimate {
	e := Estimate{Value: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), N: n}
	if n == 0 {
		return e
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	e.Value = stat(all)
	rng := problems.NewRand(bootSeed)
	vals := make([]float64, 0, Resamples)
	idx := make([]int, n)
	for b := 0; b < Resamples; b++ {
		for i := range idx {
			idx[i] = rng.IntN(n)
		}
		if v := stat(idx); !math.IsNaN(v) {
			vals = append(vals, v)
		}
	}
	if len(vals) == 0 {
		return e
	}
	sort.Float64s(vals)
	e.Lo, e.Hi = quantile(vals, 0.025), quantile(vals, 0.975)
	return e
}

// MeanCI is the mean of xs with its bootstrap interval.
func MeanCI(xs []float64) Estimate {
	return Bootstrap(len(xs), func(idx []int) float64 {
		s := 0.0
		for _, i := range idx {
			s += xs[i]
		}
		return s / float64(len(idx))
	})
}

// MedianCI is the median of xs with its bootstrap interval.
func MedianCI(xs []float64) Estimate {
	return Bootstrap(len(xs), func(idx []int) float64 {
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
	return Bootstrap(len(x), func(idx []int) float64 {
		a, b := make([]float64, len(idx)), make([]float64, len(idx))
		for j, i := range idx {
			a[j], b[j] = x[i], y[i]
		}
		return Spearman(a, b)
	})
}
