package talakat

import "math"

// absDiffSum is shape.PairwiseSum of the vector |x[i] − y[i]| (i < len(x)) without building
// the vector: the same additions in the same order (numpy's blocks of eight partial sums up to
// 128 terms, halves above, the eight partial sums in named variables so that they stay in
// registers), hence the same bits. Diversity and its kernel call it once per pair of sections,
// which is most of the cost of a talakat run's diversity. TestAbsDiffSumIsPairwiseSum checks
// the claim against shape.PairwiseSum on every length up to 300, special values included.
func absDiffSum(x, y []float64) float64 {
	n := len(x)
	y = y[:n]
	switch {
	case n < 8:
		s := 0.0
		for i := range x {
			s += math.Abs(x[i] - y[i])
		}
		return s
	case n <= 128:
		r0, r1 := math.Abs(x[0]-y[0]), math.Abs(x[1]-y[1])
		r2, r3 := math.Abs(x[2]-y[2]), math.Abs(x[3]-y[3])
		r4, r5 := math.Abs(x[4]-y[4]), math.Abs(x[5]-y[5])
		r6, r7 := math.Abs(x[6]-y[6]), math.Abs(x[7]-y[7])
		i := 8
		for full := n - n%8; i < full; i += 8 {
			a, b := x[i:i+8:i+8], y[i:i+8:i+8]
			r0 += math.Abs(a[0] - b[0])
			r1 += math.Abs(a[1] - b[1])
			r2 += math.Abs(a[2] - b[2])
			r3 += math.Abs(a[3] - b[3])
			r4 += math.Abs(a[4] - b[4])
			r5 += math.Abs(a[5] - b[5])
			r6 += math.Abs(a[6] - b[6])
			r7 += math.Abs(a[7] - b[7])
		}
		s := ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
		for ; i < n; i++ {
			s += math.Abs(x[i] - y[i])
		}
		return s
	}
	h := n / 2
	h -= h % 8
	return absDiffSum(x[:h], y[:h]) + absDiffSum(x[h:], y[h:])
}
