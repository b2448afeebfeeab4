package stats

import (
	"fmt"
	"math"
	"slices"
)

// Test is the result of a hypothesis test: its statistic, its two-sided p-value and how the
// p-value was obtained. P is NaN when the test could not be made (an empty group).
type Test struct {
	Stat   float64
	P      float64
	Method string
}

// exactMax is the largest group (or number of pairs) for which the rank tests count their
// exact null distribution.
const exactMax = 50

// permExact is the largest number of rearrangements a permutation test enumerates; beyond it,
// PermutationResamples random ones are drawn.
const permExact = 200_000

// PermutationResamples is the number of random rearrangements of a permutation test too large
// to enumerate.
const PermutationResamples = 9999

// ranks are the ranks of xs from 1, ties sharing their average rank, and Σ(t³ − t) over the
// groups of t tied values (the tie correction's term).
func ranks(xs []float64) (r []float64, ties float64) {
	order := make([]int, len(xs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		switch {
		case xs[i] < xs[j]:
			return -1
		case xs[i] > xs[j]:
			return 1
		}
		return 0
	})
	r = make([]float64, len(xs))
	for i := 0; i < len(order); {
		j := i
		for j+1 < len(order) && xs[order[j+1]] == xs[order[i]] {
			j++
		}
		avg := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[order[k]] = avg
		}
		if t := float64(j - i + 1); t > 1 {
			ties += t*t*t - t
		}
		i = j + 1
	}
	return r, ties
}

// twoSided is min(1, 2·min(P(X ≤ x), P(X ≥ x))) over a distribution given as counts of each
// integer value 0..len(counts)−1.
func twoSided(counts []float64, x int) float64 {
	total, le, ge := 0.0, 0.0, 0.0
	for v, c := range counts {
		total += c
		if v <= x {
			le += c
		}
		if v >= x {
			ge += c
		}
	}
	return min(1, 2*min(le, ge)/total)
}

// normalP is the two-sided p of a statistic with mean mu and variance v under the null, with
// a continuity correction of ½; 1 when the variance is zero.
func normalP(stat, mu, v float64) float64 {
	if v <= 0 {
		return 1
	}
	z := max(0, math.Abs(stat-mu)-0.5) / math.Sqrt(v)
	return math.Erfc(z / math.Sqrt2)
}

// MannWhitney is the Mann–Whitney U test (Wilcoxon rank-sum) of two independent groups,
// two-sided. Stat is U of a: the number of pairs in which a's value is larger, ties counting
// ½ (so Stat / (len(a)·len(b)) is A12). Without ties and with both groups of at most 50 values
// the p-value is exact (the null distribution of U is counted); otherwise it is the normal
// approximation with the tie correction of the variance and a continuity correction.
func MannWhitney(a, b []float64) Test {
	m, n := len(a), len(b)
	if m == 0 || n == 0 {
		return Test{Stat: math.NaN(), P: math.NaN(), Method: "Mann–Whitney U: an empty group"}
	}
	u := A12(a, b) * float64(m*n)
	_, ties := ranks(append(slices.Clone(a), b...))
	if ties == 0 && m <= exactMax && n <= exactMax {
		return Test{Stat: u, P: twoSided(mannWhitneyCounts(m, n), int(math.Round(u))),
			Method: "Mann–Whitney U, exact two-sided p"}
	}
	N := float64(m + n)
	v := float64(m*n) / 12 * ((N + 1) - ties/(N*(N-1)))
	return Test{Stat: u, P: normalP(u, float64(m*n)/2, v),
		Method: "Mann–Whitney U, normal approximation with tie and continuity correction, two-sided"}
}

// mannWhitneyCounts is the number of arrangements of m and n distinct values giving each U
// from 0 to m·n: c(i, j; u) = c(i−1, j; u − j) + c(i, j−1; u), the largest value being the
// i-th of a (larger than all j values of b) or the j-th of b.
func mannWhitneyCounts(m, n int) []float64 {
	// row[j] holds c(i, j; ·) for the current i.
	row := make([][]float64, n+1)
	for j := range row {
		row[j] = []float64{1} // c(0, j) = 1 at u = 0
	}
	for i := 1; i <= m; i++ {
		next := make([][]float64, n+1)
		next[0] = []float64{1}
		for j := 1; j <= n; j++ {
			c := make([]float64, i*j+1)
			for u, v := range row[j] { // the largest is a's: +j
				c[u+j] += v
			}
			for u, v := range next[j-1] { // the largest is b's: +0
				c[u] += v
			}
			next[j] = c
		}
		row = next
	}
	return row[n]
}

// Wilcoxon is the Wilcoxon signed-rank test of paired samples (a[i] and b[i] are the same
// unit), two-sided. Zero differences are dropped (Wilcoxon's convention); Stat is W+, the sum
// of the ranks of the positive differences a[i] − b[i]. Without ties among the absolute
// differences and with at most 50 non-zero pairs the p-value is exact; otherwise it is the
// normal approximation with the tie correction and a continuity correction. With no non-zero
// difference P is 1.
func Wilcoxon(a, b []float64) Test {
	var abs []float64
	var pos []bool
	for _, d := range pairs(a, b) {
		if d != 0 {
			abs = append(abs, math.Abs(d))
			pos = append(pos, d > 0)
		}
	}
	n := len(abs)
	if n == 0 {
		return Test{Stat: 0, P: 1, Method: "Wilcoxon signed-rank: every difference is zero"}
	}
	r, ties := ranks(abs)
	w := 0.0
	for i, p := range pos {
		if p {
			w += r[i]
		}
	}
	dropped := len(a) - n
	note := ""
	if dropped > 0 {
		note = fmt.Sprintf(", %d zero difference(s) dropped", dropped)
	}
	if ties == 0 && n <= exactMax {
		// counts of subsets of {1..n} by their sum.
		c := make([]float64, n*(n+1)/2+1)
		c[0] = 1
		for k := 1; k <= n; k++ {
			for s := len(c) - 1; s >= k; s-- {
				c[s] += c[s-k]
			}
		}
		return Test{Stat: w, P: twoSided(c, int(math.Round(w))), Method: "Wilcoxon signed-rank, exact two-sided p" + note}
	}
	nf := float64(n)
	v := nf*(nf+1)*(2*nf+1)/24 - ties/48
	return Test{Stat: w, P: normalP(w, nf*(nf+1)/4, v),
		Method: "Wilcoxon signed-rank, normal approximation with tie and continuity correction, two-sided" + note}
}

// tol is how close a rearranged statistic may come below the observed one and still count as
// “at least as extreme” (floating-point sums of the same values in another order).
func tol(x float64) float64 { return 1e-9 * max(1, math.Abs(x)) }

// Permutation is the two-sided permutation test of the difference of means of two
// independent groups: Stat is mean(a) − mean(b), P the share of the rearrangements of the
// pooled values into groups of the same sizes whose |difference| is at least the observed one.
// Every rearrangement is counted when there are at most 200,000 of them (exact p); otherwise
// PermutationResamples random ones are drawn, seeded by the data, and P = (k + 1)/(R + 1).
func Permutation(a, b []float64) Test {
	m, n := len(a), len(b)
	if m == 0 || n == 0 {
		return Test{Stat: math.NaN(), P: math.NaN(), Method: "permutation test: an empty group"}
	}
	pool := append(slices.Clone(a), b...)
	total := 0.0
	for _, v := range pool {
		total += v
	}
	diff := func(sumA float64) float64 { return sumA/float64(m) - (total-sumA)/float64(n) }
	obs := Mean(a) - Mean(b)
	bar := math.Abs(obs) - tol(obs)
	if binom(m+n, m) <= permExact {
		hit, all := 0, 0
		var walk func(start, left int, s float64)
		walk = func(start, left int, s float64) {
			if left == 0 {
				all++
				if math.Abs(diff(s)) >= bar {
					hit++
				}
				return
			}
			for i := start; i <= len(pool)-left; i++ {
				walk(i+1, left-1, s+pool[i])
			}
		}
		walk(0, m, 0)
		return Test{Stat: obs, P: float64(hit) / float64(all), Method: "permutation test of the difference of means, exact (every rearrangement), two-sided"}
	}
	rng := newRand(Seed(a, b), uint64(m)<<32|uint64(n))
	hit := 0
	perm := slices.Clone(pool)
	for range PermutationResamples {
		// a partial Fisher–Yates shuffle puts a random group of m in front.
		s := 0.0
		for i := range m {
			j := i + rng.IntN(len(perm)-i)
			perm[i], perm[j] = perm[j], perm[i]
			s += perm[i]
		}
		if math.Abs(diff(s)) >= bar {
			hit++
		}
	}
	return Test{Stat: obs, P: float64(hit+1) / float64(PermutationResamples+1),
		Method: fmt.Sprintf("permutation test of the difference of means, %d random rearrangements seeded by the data, two-sided", PermutationResamples)}
}

// PairedPermutation is the two-sided sign-flip permutation test of paired samples: Stat is the
// mean of a[i] − b[i], P the share of the 2ⁿ sign assignments of the differences whose
// |mean| is at least the observed one (all of them up to n = 17, exact; otherwise
// PermutationResamples random ones seeded by the data, P = (k + 1)/(R + 1)).
func PairedPermutation(a, b []float64) Test {
	d := pairs(a, b)
	n := len(d)
	if n == 0 {
		return Test{Stat: math.NaN(), P: math.NaN(), Method: "paired permutation test: no pairs"}
	}
	obs := Mean(d)
	sumObs := obs * float64(n)
	bar := math.Abs(sumObs) - tol(sumObs)
	if 1<<n <= permExact {
		hit := 0
		for mask := range 1 << n {
			s := 0.0
			for i, v := range d {
				if mask>>i&1 == 1 {
					s -= v
				} else {
					s += v
				}
			}
			if math.Abs(s) >= bar {
				hit++
			}
		}
		return Test{Stat: obs, P: float64(hit) / float64(int(1)<<n), Method: "paired sign-flip permutation test of the mean difference, exact, two-sided"}
	}
	rng := newRand(Seed(d), uint64(n))
	hit := 0
	for range PermutationResamples {
		s := 0.0
		for _, v := range d {
			if rng.IntN(2) == 1 {
				s -= v
			} else {
				s += v
			}
		}
		if math.Abs(s) >= bar {
			hit++
		}
	}
	return Test{Stat: obs, P: float64(hit+1) / float64(PermutationResamples+1),
		Method: fmt.Sprintf("paired sign-flip permutation test of the mean difference, %d random sign assignments seeded by the data, two-sided", PermutationResamples)}
}

// binom is C(n, k) as a float (large values are only compared with a limit).
func binom(n, k int) float64 {
	c := 1.0
	for i := 1; i <= k; i++ {
		c = c * float64(n-k+i) / float64(i)
	}
	return math.Round(c)
}
