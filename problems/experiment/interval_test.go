package experiment

import (
	"math"
	"testing"
)

func TestBootstrapMeanStaysInRange(t *testing.T) {
	for _, tc := range []struct {
		name string
		vals []float64
	}{
		{"two seeds far apart (the 64.5 ± 451 case)", []float64{29, 100}},
		{"all equal", []float64{0.5, 0.5, 0.5}},
		{"fractions", []float64{0, 0.1, 0.9, 1, 1}},
		{"ten seeds", []float64{3, 5, 8, 1, 9, 4, 4, 7, 2, 6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			iv := BootstrapMean(tc.vals)
			lo, hi := tc.vals[0], tc.vals[0]
			for _, v := range tc.vals {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
			if iv.TooFew() || iv.Lo < lo || iv.Hi > hi || iv.Lo > iv.Mean || iv.Hi < iv.Mean {
				t.Fatalf("%+v outside [%v, %v] or not around the mean", iv, lo, hi)
			}
			if again := BootstrapMean(tc.vals); again != iv {
				t.Fatalf("not deterministic: %+v then %+v", iv, again)
			}
		})
	}
	if iv := BootstrapMean([]float64{7}); !iv.TooFew() || iv.Mean != 7 || !math.IsNaN(iv.Lo) {
		t.Fatalf("one run: %+v", iv)
	}
	if iv := BootstrapMean(nil); !math.IsNaN(iv.Mean) {
		t.Fatalf("no runs: %+v", iv)
	}
}

func TestWilsonInterval(t *testing.T) {
	for _, tc := range []struct {
		k, n   int
		lo, hi float64
	}{
		{0, 10, 0, 0.2775}, // the textbook values
		{10, 10, 0.7225, 1},
		{5, 10, 0.2366, 0.7634},
		{1, 2, 0.0945, 0.9055},
	} {
		iv := WilsonInterval(tc.k, tc.n)
		if math.Abs(iv.Lo-tc.lo) > 1e-3 || math.Abs(iv.Hi-tc.hi) > 1e-3 || iv.N != tc.n {
			t.Errorf("WilsonInterval(%d, %d) = %+v, want [%v, %v]", tc.k, tc.n, iv, tc.lo, tc.hi)
		}
	}
	if iv := WilsonInterval(0, 0); !math.IsNaN(iv.Mean) {
		t.Fatalf("no runs: %+v", iv)
	}
}
