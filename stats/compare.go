package stats

import "math"

// Comparison is the comparison of two groups as every difference table of the workbench shows
// it: the sizes and means of both, the difference mean(a) − mean(b) with its interval, the
// effect size Â12 of a over b and the p-value of a test of no difference (before any
// correction: apply Holm over the family of comparisons a table makes).
type Comparison struct {
	NA, NB       int
	MeanA, MeanB float64
	Diff         Interval
	A12          float64
	P            float64
	Test         string // how P was obtained
}

// Compare compares two independent groups (different seeds, different participants): Diff's
// bootstrap interval, A12, and the Mann–Whitney U test's p-value (exact for small groups
// without ties), as Arcuri & Briand recommend for randomised algorithms.
func Compare(a, b []float64) Comparison {
	t := MannWhitney(a, b)
	return Comparison{NA: len(a), NB: len(b), MeanA: Mean(a), MeanB: Mean(b), Diff: Diff(a, b), A12: A12(a, b),
		P: t.P, Test: t.Method}
}

// ComparePaired compares paired samples (a[i] and b[i] are the same unit: the same seed under
// two fitnesses, the same letter under two prompts, the same game under two models): the
// mean paired difference with its bootstrap interval (PairedDiff), A12 over the two groups of
// values, and the Wilcoxon signed-rank test's p-value. a and b must have the same length.
func ComparePaired(a, b []float64) Comparison {
	c := Comparison{NA: len(a), NB: len(b), MeanA: Mean(a), MeanB: Mean(b), Diff: PairedDiff(a, b), A12: A12(a, b)}
	if len(a) == 0 {
		c.P, c.Test = math.NaN(), "no pairs"
		return c
	}
	t := Wilcoxon(a, b)
	c.P, c.Test = t.P, t.Method
	return c
}
