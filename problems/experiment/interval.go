package experiment

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
)

// Interval is a statistic over a group's runs: the mean, a 95% interval inside the value's
// range, and the number of runs it stands on. With fewer than two runs there is no interval
// (Lo and Hi are NaN): TooFew.
type Interval struct {
	Mean, Lo, Hi float64
	N            int
}

// TooFew reports a statistic with too few runs for an interval.
func (iv Interval) TooFew() bool { return iv.N < 2 }

// bootstrapResamples is the number of resamples of BootstrapMean.
const bootstrapResamples = 2000

// BootstrapMean is the mean of vals with its 95% percentile-bootstrap interval: suited to the
// few seeds of a workshop comparison (no normality assumed) and never outside the values'
// range (a count of 0..100 cannot get a band past 100). The resampling is seeded by the
// values, so the same values always give the same interval.
func BootstrapMean(vals []float64) Interval {
	iv := Interval{Mean: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), N: len(vals)}
	if len(vals) == 0 {
		return iv
	}
	sum := 0.0
	for _, v := range vals {
		sum += v
	}
	iv.Mean = sum / float64(len(vals))
	if len(vals) < 2 {
		return iv
	}
	h := fnv.New64a()
	for _, v := range vals {
		b := math.Float64bits(v)
		h.Write([]byte{byte(b), byte(b >> 8), byte(b >> 16), byte(b >> 24), byte(b >> 32), byte(b >> 40), byte(b >> 48), byte(b >> 56)})
	}
	rng := rand.New(rand.NewPCG(h.Sum64(), uint64(len(vals))))
	means := make([]float64, bootstrapResamples)
	for i := range means {
		s := 0.0
		for range vals {
			s += vals[rng.IntN(len(vals))]
		}
		means[i] = s / float64(len(vals))
	}
	slices.Sort(means)
	iv.Lo = means[int(0.025*float64(len(means)))]
	iv.Hi = means[int(math.Ceil(0.975*float64(len(means))))-1]
	return iv
}

// WilsonInterval is the proportion k of n with its 95% Wilson score interval (Wilson), which
// stays inside [0, 1] and behaves with small n and with 0 or n successes.
func WilsonInterval(k, n int) Interval {
	iv := Interval{Mean: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), N: n}
	if n == 0 {
		return iv
	}
	iv.Mean = float64(k) / float64(n)
	iv.Lo, iv.Hi = Wilson(k, n)
	return iv
}
