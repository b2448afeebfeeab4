package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Properties every test and effect size must have, over random samples: symmetry in the two
// groups, A12 + A21 = 1, p in (0, 1], the exact Mann–Whitney p close to the normal
// approximation for 20 against 20, and Holm never below the raw p.
func TestProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	sample := func(n int, shift float64) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = rng.NormFloat64() + shift
		}
		return xs
	}
	for trial := range 40 {
		m, n := 2+trial%7, 3+trial%5
		a, b := sample(m, 0.5*float64(trial%3)), sample(n, 0)
		if s := A12(a, b) + A12(b, a); math.Abs(s-1) > 1e-12 {
			t.Fatalf("A12 + A21 = %v", s)
		}
		for _, f := range []func(a, b []float64) Test{MannWhitney, Permutation} {
			ab, ba := f(a, b), f(b, a)
			if math.Abs(ab.P-ba.P) > 1e-12 || ab.P <= 0 || ab.P > 1 {
				t.Fatalf("%s: p %v one way, %v the other", ab.Method, ab.P, ba.P)
			}
		}
		d := Diff(a, b)
		if d.Lo > d.Mean || d.Hi < d.Mean {
			t.Fatalf("Diff %+v not around its estimate", d)
		}
		ps := []float64{MannWhitney(a, b).P, Permutation(a, b).P, 0.5}
		for i, h := range Holm(ps) {
			if h < ps[i] || h > 1 {
				t.Fatalf("Holm %v of %v", h, ps[i])
			}
		}
	}
	// exact against the normal approximation at 20 + 20 (no ties): close.
	for range 5 {
		a, b := sample(20, 0.6), sample(20, 0)
		exact := MannWhitney(a, b)
		u := exact.Stat
		approx := normalP(u, 200, 400.0/12*41)
		if math.Abs(exact.P-approx) > 0.01 {
			t.Errorf("U = %v: exact p %v, normal %v", u, exact.P, approx)
		}
	}
	// the permutation test's random rearrangements agree with the exact count: 10 against 10
	// is enumerated (184,756), 10 against 11 is not (352,716).
	a, b := sample(10, 0.8), sample(11, 0)
	random := Permutation(a, b)
	exact := permutationExactForTest(a, b)
	if math.Abs(random.P-exact) > 0.02 {
		t.Errorf("Monte Carlo p %v, exact %v", random.P, exact)
	}
}

// permutationExactForTest counts every rearrangement, whatever their number.
func permutationExactForTest(a, b []float64) float64 {
	pool := append(append([]float64{}, a...), b...)
	total := 0.0
	for _, v := range pool {
		total += v
	}
	m, n := len(a), len(b)
	obs := math.Abs(Mean(a) - Mean(b))
	hit, all := 0, 0
	var walk func(start, left int, s float64)
	walk = func(start, left int, s float64) {
		if left == 0 {
			all++
			if math.Abs(s/float64(m)-(total-s)/float64(n)) >= obs-1e-9 {
				hit++
			}
			return
		}
		for i := start; i <= len(pool)-left; i++ {
			walk(i+1, left-1, s+pool[i])
		}
	}
	walk(0, m, 0)
	return float64(hit) / float64(all)
}
