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

// SparsePairwiseSum is PairwiseSum of a length-n vector that is zero except at the ascending
// positions pos with the values val. Adding +0 changes no partial sum of non-negative terms,
// so skipping the zeros while following numpy's blocking over the n positions gives the same
// bits at a cost in the number of non-zeros.
func SparsePairwiseSum(pos []int32, val []float64, n int) float64 {
	return sparsePairwise(pos, val, 0, n)
}

func sparsePairwise(pos []int32, val []float64, lo, n int) float64 {
	if len(pos) == 0 {
		return 0
	}
	switch {
	case n < 8:
		s := 0.0
		for _, v := range val {
			s += v
		}
		return s
	case n <= 128:
		var r [8]float64
		full := n - n%8
		k := 0
		for ; k < len(pos) && int(pos[k])-lo < full; k++ {
			r[(int(pos[k])-lo)%8] += val[k]
		}
		s := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; k < len(pos); k++ {
			s += val[k]
		}
		return s
	}
	h := n / 2
	h -= h % 8
	k := 0
	for k < len(pos) && int(pos[k]) < lo+h {
		k++
	}
	return sparsePairwise(pos[:k], val[:k], lo, h) + sparsePairwise(pos[k:], val[k:], lo+h, n-h)
}
