package shape

// PairwiseSum is numpy's pairwise summation of a contiguous float64 vector (what
// ndarray.sum uses): blocks of eight partial sums up to 128 elements, halves above.
func PairwiseSum(x []float64) float64 {
	n := len(x)
	switch {
	case n < 8:
		s := 0.0
		for _, v := range x {
			s += v
		}
		return s
	case n <= 128:
		var r [8]float64
		copy(r[:], x[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			for k := 0; k < 8; k++ {
				r[k] += x[i+k]
			}
		}
		s := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			s += x[i]
		}
		return s
	}
	h := n / 2
	h -= h % 8
	return PairwiseSum(x[:h]) + PairwiseSum(x[h:])
}
