package shape

// Reward is the reference's trapezoid reward get_range_reward(v, lo, pl, ph, hi): 1 on the
// plateau [pl, ph], 0 at or beyond lo and hi, linear in between. The plateau test comes first,
// and the 1e-8 added to the denominators is part of the definition (golden values depend on it).
func Reward(v, lo, pl, ph, hi float64) float64 {
	if v >= pl && v <= ph {
		return 1
	}
	if v <= lo || v >= hi {
		return 0
	}
	if v < pl {
		return clamp01((v - lo) / (pl - lo + 0.00000001))
	}
	return clamp01((hi - v) / (hi - ph + 0.00000001))
}

// Reward3 is the reference's three-argument form R(v, lo, pl): a single-point plateau, 0 above it.
func Reward3(v, lo, pl float64) float64 { return Reward(v, lo, pl, pl, pl) }

// Reward4 is the four-argument form R(v, lo, pl, ph): anything above ph scores 0.
func Reward4(v, lo, pl, ph float64) float64 { return Reward(v, lo, pl, ph, ph) }

func clamp01(v float64) float64 {
	if v < 0 {
		return 0
	}
	if v > 1 {
		return 1
	}
	return v
}

// B2F is Python's float(bool): 1 for true.
func B2F(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
