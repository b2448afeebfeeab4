package stats

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Level is the confidence level of every interval of the package.
const Level = 0.95

// Resamples is the number of bootstrap resamples behind every bootstrap interval.
const Resamples = 2000

// z95 is the standard normal quantile of 0.975.
const z95 = 1.959963984540054

// Interval is an estimate (a mean, a proportion, a difference of means) with its 95% interval,
// the number of units it stands on and the method that gave the interval. Without an interval
// (too few units) Lo and Hi are NaN; without any unit Mean is NaN too.
type Interval struct {
	Mean, Lo, Hi float64
	N            int
	Method       string
}

// TooFew reports an estimate with too few units for an interval (fewer than two).
func (iv Interval) TooFew() bool { return iv.N < 2 || math.IsNaN(iv.Lo) || math.IsNaN(iv.Hi) }

// String is "0.42 [0.31, 0.55]" (or "0.42" without an interval, "–" without a value).
func (iv Interval) String() string {
	switch {
	case math.IsNaN(iv.Mean):
		return "–"
	case iv.TooFew():
		return fmt.Sprintf("%.3g", iv.Mean)
	}
	return fmt.Sprintf("%.3g [%.3g, %.3g]", iv.Mean, iv.Lo, iv.Hi)
}

// NText is the statement of a table's unit and size: NText(10, "seed") is "n = 10 seeds",
// NText(1, "seed") is "n = 1 seed".
func NText(n int, unit string) string {
	if n == 1 {
		return fmt.Sprintf("n = 1 %s", unit)
	}
	return fmt.Sprintf("n = %d %ss", n, unit)
}

func none(n int, method string) Interval {
	return Interval{Mean: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), N: n, Method: method}
}

// Mean is the arithmetic mean of xs (NaN for none).
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

// WilsonMethod names Wilson's interval.
const WilsonMethod = "Wilson score interval, 95%"

// Wilson is the proportion k of n with its 95% Wilson score interval, which stays inside
// [0, 1] and behaves with small n and with 0 or n successes (where the normal approximation
// gives a zero-width or out-of-range interval). With n = 0 there is no value; with n = 1 the
// interval is still given (it is valid for any n ≥ 1).
func Wilson(k, n int) Interval {
	if n <= 0 {
		return none(0, WilsonMethod)
	}
	k = min(max(k, 0), n)
	return WilsonScore(float64(k)/float64(n), n)
}

// WilsonScore is Wilson's interval of a share p observed over n units where a unit may count
// in part: a game record whose draws count half a win (gg-bench's score). p is clamped to
// [0, 1]; at 0 and 1 the bound is exact.
func WilsonScore(p float64, n int) Interval {
	if n <= 0 || math.IsNaN(p) {
		return none(max(n, 0), WilsonMethod)
	}
	p = min(max(p, 0), 1)
	nf, z2 := float64(n), z95*z95
	c := (p + z2/(2*nf)) / (1 + z2/nf)
	h := z95 / (1 + z2/nf) * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	lo, hi := max(0, c-h), min(1, c+h)
	if p == 0 {
		lo = 0
	}
	if p == 1 {
		hi = 1
	}
	return Interval{Mean: p, Lo: lo, Hi: hi, N: n, Method: WilsonMethod}
}

// Seed derives a resampling seed from values, so that the same values always give the same
// interval. It is what every function of the package uses when it is not given a seed.
func Seed(groups ...[]float64) uint64 {
	h := fnv.New64a()
	var b [8]byte
	for _, g := range groups {
		for _, v := range g {
			u := math.Float64bits(v)
			for i := range b {
				b[i] = byte(u >> (8 * i))
			}
			h.Write(b[:])
		}
	}
	return h.Sum64()
}

// newRand is the package's generator: PCG seeded with (seed, stream).
func newRand(seed, stream uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, stream)) }

// percentiles sorts stats and returns its 2.5% and 97.5% points: the ⌊0.025 B⌋-th and the
// ⌈0.975 B⌉-th of the B sorted values (1-based: with B = 2000, the 51st and the 1950th).
func percentiles(stats []float64) (lo, hi float64) {
	if len(stats) == 0 {
		return math.NaN(), math.NaN()
	}
	slices.Sort(stats)
	b := float64(len(stats))
	i := min(int(0.025*b), len(stats)-1)
	j := max(int(math.Ceil(0.975*b))-1, 0)
	return stats[i], stats[j]
}

// BootstrapMethod names the percentile bootstrap of a mean.
const BootstrapMethod = "percentile bootstrap of the mean, 2000 resamples, 95%, seeded by the data"

// BootstrapMean is the mean of xs with its 95% percentile-bootstrap interval (Resamples
// resamples, seeded by the values): suited to the few seeds of a workshop comparison (no
// normality assumed) and never outside the values' range (a count of 0..100 cannot get a
// band past 100). With fewer than two values there is no interval.
func BootstrapMean(xs []float64) Interval {
	iv := none(len(xs), BootstrapMethod)
	if len(xs) == 0 {
		return iv
	}
	iv.Mean = Mean(xs)
	if len(xs) < 2 {
		return iv
	}
	rng := newRand(Seed(xs), uint64(len(xs)))
	means := make([]float64, Resamples)
	for i := range means {
		s := 0.0
		for range xs {
			s += xs[rng.IntN(len(xs))]
		}
		means[i] = s / float64(len(xs))
	}
	iv.Lo, iv.Hi = percentiles(means)
	return iv
}

// Bootstrap estimates stat over n units with its 95% percentile-bootstrap interval: stat reads
// the units through the index list it is given (all of them, in order, for the estimate; a
// resample with replacement for each of the Resamples replicates, drawn from seed). Replicates
// whose statistic is NaN (an empty subgroup, say) are left out. It is the general form of
// BootstrapMean for a statistic the package does not name (a median, a ratio, several
// measures of the same units). The same seed and n draw the same resamples, so several
// statistics of the same units bootstrapped with one seed are resampled together.
func Bootstrap(n int, seed uint64, stat func(idx []int) float64) Interval {
	method := fmt.Sprintf("percentile bootstrap, %d resamples, 95%%, seed %d", Resamples, seed)
	iv := none(n, method)
	if n == 0 {
		return iv
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	iv.Mean = stat(all)
	if n < 2 {
		return iv
	}
	rng := newRand(seed, uint64(n))
	vals := make([]float64, 0, Resamples)
	idx := make([]int, n)
	for range Resamples {
		for i := range idx {
			idx[i] = rng.IntN(n)
		}
		if v := stat(idx); !math.IsNaN(v) {
			vals = append(vals, v)
		}
	}
	iv.Lo, iv.Hi = percentiles(vals)
	return iv
}

// DiffMethod names the interval of Diff.
const DiffMethod = "percentile bootstrap of the difference of means (groups resampled independently), 2000 resamples, 95%, seeded by the data"

// Diff is the difference of the means of two independent groups, mean(a) − mean(b), with its
// 95% percentile-bootstrap interval (each group resampled with replacement on its own). N is
// the smaller group's size; with fewer than two in either group there is no interval.
func Diff(a, b []float64) Interval {
	iv := none(min(len(a), len(b)), DiffMethod)
	if len(a) == 0 || len(b) == 0 {
		return iv
	}
	iv.Mean = Mean(a) - Mean(b)
	if len(a) < 2 || len(b) < 2 {
		return iv
	}
	rng := newRand(Seed(a, b), uint64(len(a))<<32|uint64(len(b)))
	d := make([]float64, Resamples)
	for i := range d {
		sa, sb := 0.0, 0.0
		for range a {
			sa += a[rng.IntN(len(a))]
		}
		for range b {
			sb += b[rng.IntN(len(b))]
		}
		d[i] = sa/float64(len(a)) - sb/float64(len(b))
	}
	iv.Lo, iv.Hi = percentiles(d)
	return iv
}

// PairedDiffMethod names the interval of PairedDiff.
const PairedDiffMethod = "percentile bootstrap of the mean paired difference (pairs resampled), 2000 resamples, 95%, seeded by the data"

// PairedDiff is the mean of the paired differences a[i] − b[i] with its 95% bootstrap interval
// (pairs resampled with replacement). a and b must have the same length: unit i of a is unit i
// of b. N is the number of pairs.
func PairedDiff(a, b []float64) Interval {
	d := pairs(a, b)
	iv := BootstrapMean(d)
	iv.Method = PairedDiffMethod
	return iv
}

// pairs is a − b element by element; it panics on different lengths, a caller's bug.
func pairs(a, b []float64) []float64 {
	if len(a) != len(b) {
		panic(fmt.Sprintf("stats: paired samples of different lengths %d and %d", len(a), len(b)))
	}
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	return d
}

// A12 is the Vargha–Delaney effect size Â12 = P(A > B) + ½ P(A = B) over every pair of one
// value of a and one of b: 0.5 is no effect, 1 means every value of a beats every value of b,
// 0 the reverse. Vargha & Delaney call 0.56, 0.64 and 0.71 (and their mirrors) small, medium
// and large. NaN when either group is empty.
func A12(a, b []float64) float64 {
	if len(a) == 0 || len(b) == 0 {
		return math.NaN()
	}
	w := 0.0
	for _, x := range a {
		for _, y := range b {
			switch {
			case x > y:
				w++
			case x == y:
				w += 0.5
			}
		}
	}
	return w / float64(len(a)*len(b))
}

// Holm adjusts a family of p-values with Holm's step-down correction (which controls the
// family-wise error rate without assuming independence and is uniformly more powerful than
// Bonferroni): the i-th smallest of m p-values becomes max over j ≤ i of (m − j + 1)·p(j),
// capped at 1. NaN p-values (comparisons that could not be made) stay NaN and are not counted
// in m. The result is in the order of ps.
func Holm(ps []float64) []float64 {
	out := make([]float64, len(ps))
	var idx []int
	for i, p := range ps {
		out[i] = math.NaN()
		if !math.IsNaN(p) {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(i, j int) int {
		switch {
		case ps[i] < ps[j]:
			return -1
		case ps[i] > ps[j]:
			return 1
		}
		return 0
	})
	m, run := len(idx), 0.0
	for k, i := range idx {
		run = max(run, min(1, float64(m-k)*ps[i]))
		out[i] = run
	}
	return out
}

// StudentMethod names the Student-t interval.
const StudentMethod = "Student-t interval of the mean, 95%"

// StudentMean is the mean of xs with its 95% Student-t interval, mean ± t(0.975, n−1)·s/√n:
// the PCG benchmark reference's compute_credible_interval. It assumes normal means and can
// leave the values' range (29 and 100 give 64.5 ± 451), so the workbench uses it only where a
// published number computed that way is reproduced (summary.csv's *_ci95 columns, the paper
// report); BootstrapMean is the interval to show.
func StudentMean(xs []float64) Interval {
	iv := none(len(xs), StudentMethod)
	mean, half := StudentHalf(xs)
	iv.Mean = mean
	if !math.IsNaN(half) {
		iv.Lo, iv.Hi = mean-half, mean+half
	}
	return iv
}

// StudentHalf is StudentMean as the reference reports it: the mean and the half width of the
// interval (NaN with fewer than two values; both NaN with none).
func StudentHalf(xs []float64) (mean, half float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	mean = Mean(xs)
	if len(xs) < 2 {
		return mean, math.NaN()
	}
	n := float64(len(xs))
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	sem := math.Sqrt(ss/(n-1)) / math.Sqrt(n)
	return mean, distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.975) * sem
}
