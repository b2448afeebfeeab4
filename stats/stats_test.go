package stats

import (
	"math"
	"slices"
	"testing"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.IsNaN(want) != math.IsNaN(got) || math.Abs(got-want) > tol {
		t.Errorf("%s = %v, want %v (±%g)", what, got, want, tol)
	}
}

func TestWilsonTextbook(t *testing.T) {
	for _, tc := range []struct {
		k, n   int
		lo, hi float64
	}{
		{0, 10, 0, 0.2775}, // Newcombe (1998), Table I / the usual textbook values
		{10, 10, 0.7225, 1},
		{5, 10, 0.2366, 0.7634},
		{1, 2, 0.0945, 0.9055},
		{81, 263, 0.2553, 0.3662}, // Newcombe's example 81/263
	} {
		iv := Wilson(tc.k, tc.n)
		near(t, "lo", iv.Lo, tc.lo, 1e-4)
		near(t, "hi", iv.Hi, tc.hi, 1e-4)
		if iv.N != tc.n || iv.Mean != float64(tc.k)/float64(tc.n) || iv.Method != WilsonMethod {
			t.Errorf("Wilson(%d, %d) = %+v", tc.k, tc.n, iv)
		}
	}
	if iv := Wilson(0, 0); !math.IsNaN(iv.Mean) || !iv.TooFew() {
		t.Errorf("Wilson(0, 0) = %+v", iv)
	}
}

func TestBootstrapMean(t *testing.T) {
	// Two values 0 and 1: resampled means are 0, ½ and 1 with probabilities ¼, ½, ¼, so the
	// 2.5% and 97.5% points of 2000 replicates are 0 and 1.
	iv := BootstrapMean([]float64{0, 1})
	if iv.Mean != 0.5 || iv.Lo != 0 || iv.Hi != 1 || iv.N != 2 || iv.Method != BootstrapMethod {
		t.Errorf("BootstrapMean(0, 1) = %+v", iv)
	}
	for _, xs := range [][]float64{{29, 100}, {0.5, 0.5, 0.5}, {0, 0.1, 0.9, 1, 1}, {3, 5, 8, 1, 9, 4, 4, 7, 2, 6}} {
		iv := BootstrapMean(xs)
		if iv.TooFew() || iv.Lo < slices.Min(xs) || iv.Hi > slices.Max(xs) || iv.Lo > iv.Mean || iv.Hi < iv.Mean {
			t.Errorf("BootstrapMean(%v) = %+v: outside the range or not around the mean", xs, iv)
		}
		if again := BootstrapMean(xs); again != iv {
			t.Errorf("not deterministic: %+v then %+v", iv, again)
		}
	}
	if iv := BootstrapMean([]float64{7}); !iv.TooFew() || iv.Mean != 7 || !math.IsNaN(iv.Lo) {
		t.Errorf("one value: %+v", iv)
	}
	if iv := BootstrapMean(nil); !math.IsNaN(iv.Mean) || iv.N != 0 {
		t.Errorf("no value: %+v", iv)
	}
}

func TestBootstrapGeneral(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 100}
	median := func(idx []int) float64 {
		v := make([]float64, len(idx))
		for i, j := range idx {
			v[i] = xs[j]
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	iv := Bootstrap(len(xs), 7, median)
	if iv.Mean != 3 || iv.Lo < 1 || iv.Hi > 100 || iv.Lo > 3 || iv.Hi < 3 {
		t.Errorf("median %+v", iv)
	}
	if again := Bootstrap(len(xs), 7, median); again != iv {
		t.Errorf("same seed, other interval: %+v, %+v", iv, again)
	}
	nan := Bootstrap(3, 1, func([]int) float64 { return math.NaN() })
	if !math.IsNaN(nan.Lo) {
		t.Errorf("all-NaN replicates gave %+v", nan)
	}
}

func TestDiff(t *testing.T) {
	iv := Diff([]float64{0, 0}, []float64{1, 1})
	if iv.Mean != -1 || iv.Lo != -1 || iv.Hi != -1 || iv.N != 2 {
		t.Errorf("Diff = %+v", iv)
	}
	a, b := []float64{5, 6, 7, 8, 9}, []float64{1, 2, 3, 4}
	iv = Diff(a, b)
	near(t, "diff", iv.Mean, 4.5, 1e-12)
	// the bootstrap difference lies between the extreme resamples (5 − 4 and 9 − 1).
	if iv.Lo < 1 || iv.Hi > 8 || iv.Lo > 4.5 || iv.Hi < 4.5 || iv.Lo <= 0 {
		t.Errorf("Diff = %+v", iv)
	}
	if iv := Diff([]float64{1}, []float64{2, 3}); iv.Mean != -1.5 || !iv.TooFew() {
		t.Errorf("Diff with one value: %+v", iv)
	}
	p := PairedDiff([]float64{3, 5, 7}, []float64{1, 3, 5})
	if p.Mean != 2 || p.Lo != 2 || p.Hi != 2 || p.N != 3 || p.Method != PairedDiffMethod {
		t.Errorf("PairedDiff = %+v", p)
	}
}

func TestA12(t *testing.T) {
	for _, tc := range []struct {
		a, b []float64
		want float64
	}{
		{[]float64{1, 2, 3}, []float64{4, 5, 6}, 0},
		{[]float64{4, 5, 6}, []float64{1, 2, 3}, 1},
		{[]float64{1, 2, 3}, []float64{1, 2, 3}, 0.5},
		{[]float64{1, 2}, []float64{2, 3}, 0.125}, // 0 + 0 + ½ + 0 over 4 pairs
		{[]float64{1, 4}, []float64{2, 3}, 0.5},
	} {
		near(t, "A12", A12(tc.a, tc.b), tc.want, 1e-15)
	}
	if !math.IsNaN(A12(nil, []float64{1})) {
		t.Error("A12 of an empty group is not NaN")
	}
}

func TestHolm(t *testing.T) {
	got := Holm([]float64{0.01, 0.04, 0.03})
	// sorted 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → kept monotone: 0.06.
	for i, want := range []float64{0.03, 0.06, 0.06} {
		near(t, "Holm", got[i], want, 1e-12)
	}
	got = Holm([]float64{0.5, math.NaN(), 0.01, 0.9})
	for i, want := range []float64{1, math.NaN(), 0.03, 1} {
		near(t, "Holm with NaN", got[i], want, 1e-12)
	}
	if len(Holm(nil)) != 0 {
		t.Error("Holm(nil)")
	}
}

func TestMannWhitneyCounts(t *testing.T) {
	// m = n = 3: the 20 arrangements by U (the table of the Wilcoxon rank-sum distribution).
	want := []float64{1, 1, 2, 3, 3, 3, 3, 2, 1, 1}
	if got := mannWhitneyCounts(3, 3); !slices.Equal(got, want) {
		t.Errorf("counts(3, 3) = %v, want %v", got, want)
	}
	for _, mn := range [][2]int{{1, 1}, {2, 5}, {7, 4}, {10, 10}} {
		c := mannWhitneyCounts(mn[0], mn[1])
		s := 0.0
		for i, v := range c {
			s += v
			if v != c[len(c)-1-i] {
				t.Errorf("counts%v not symmetric", mn)
			}
		}
		near(t, "total", s, binom(mn[0]+mn[1], mn[0]), 0)
	}
}

func TestMannWhitney(t *testing.T) {
	for _, tc := range []struct {
		a, b    []float64
		u, p    float64
		exact   bool
		comment string
	}{
		{[]float64{1, 2, 3}, []float64{4, 5, 6}, 0, 0.1, true, "2 of C(6,3) = 20 as extreme"},
		{[]float64{4, 5, 6}, []float64{1, 2, 3}, 9, 0.1, true, "mirror"},
		{[]float64{1, 2, 4}, []float64{3, 5, 6}, 1, 0.2, true, "P(U ≤ 1) = 2/20"},
		{[]float64{2}, []float64{1}, 1, 1, true, "one against one"},
		{[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, []float64{11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, 0, 2 / 184756.0, true, "2/C(20,10)"},
		// ties: ranks 1 | 3 3 3 | 5.5 5.5, Σ(t³−t) = 30, U = 1, μ = 4.5,
		// σ² = 9/12·(7 − 30/30) = 4.5, z = (3.5 − 0.5)/√4.5 = √2, p = erfc(1).
		{[]float64{1, 2, 2}, []float64{2, 3, 3}, 1, math.Erfc(1), false, "normal approximation with ties"},
		{[]float64{5, 5}, []float64{5, 5, 5}, 3, 1, false, "all tied"},
	} {
		got := MannWhitney(tc.a, tc.b)
		near(t, tc.comment+" U", got.Stat, tc.u, 1e-12)
		near(t, tc.comment+" p", got.P, tc.p, 1e-12)
		if (got.Method == "Mann–Whitney U, exact two-sided p") != tc.exact {
			t.Errorf("%s: method %q", tc.comment, got.Method)
		}
	}
	if got := MannWhitney(nil, []float64{1}); !math.IsNaN(got.P) {
		t.Errorf("empty group: %+v", got)
	}
}

func TestWilcoxon(t *testing.T) {
	zero := make([]float64, 5)
	for _, tc := range []struct {
		a, b    []float64
		w, p    float64
		comment string
	}{
		{[]float64{1, 2, 3, 4, 5}, zero, 15, 0.0625, "all 5 positive: 2/32"},
		// |d| ranks 1..5, W+ = 1+3+4+5 = 13; P(W+ ≥ 13) = P(W− ≤ 2) = 3/32.
		{[]float64{1, -2, 3, 4, 5}, zero, 13, 0.1875, "one negative"},
		// zero dropped, n = 4; |d| = 1 1 1 2 → ranks 2 2 2 4, Σ(t³−t) = 24; W+ = 8, μ = 5,
		// σ² = 4·5·9/24 − 24/48 = 7.
		{[]float64{1, 1, -1, 2, 0}, zero, 8, math.Erfc((3 - 0.5) / math.Sqrt(7) / math.Sqrt2), "ties and a zero"},
		{[]float64{1, 2}, []float64{1, 2}, 0, 1, "no difference"},
	} {
		got := Wilcoxon(tc.a, tc.b)
		near(t, tc.comment+" W+", got.Stat, tc.w, 1e-12)
		near(t, tc.comment+" p", got.P, tc.p, 1e-12)
	}
}

func TestPermutation(t *testing.T) {
	got := Permutation([]float64{1, 2, 3}, []float64{4, 5, 6})
	near(t, "stat", got.Stat, -3, 1e-12)
	near(t, "p", got.P, 0.1, 1e-12) // {1,2,3} and {4,5,6}: 2 of 20
	// a = {1, 2, 4}: |diff| ≥ 5/3 for {1,2,3}, {1,2,4}, and the mirrors {4,5,6}, {3,5,6}: 4/20.
	got = Permutation([]float64{1, 2, 4}, []float64{3, 5, 6})
	near(t, "p", got.P, 0.2, 1e-12)
	// 12 against 12 (2.7 million rearrangements) falls back to random ones.
	a, b := make([]float64, 12), make([]float64, 12)
	for i := range a {
		a[i], b[i] = float64(i), float64(i+30)
	}
	got = Permutation(a, b)
	near(t, "Monte Carlo p", got.P, 1.0/10000, 1e-15)

	p := PairedPermutation([]float64{1, 2, 3, 4, 5}, make([]float64, 5))
	near(t, "paired p", p.P, 2.0/32, 1e-12)
	near(t, "paired stat", p.Stat, 3, 1e-12)
	p = PairedPermutation([]float64{1, -2, 3, 4, 5}, make([]float64, 5))
	// sum 11: sign flips of {1,2,3,4,5} with |sum| ≥ 11: sums 15, 13 (−1), 11 (−2) and mirrors: 6/32.
	near(t, "paired p", p.P, 6.0/32, 1e-12)
}

func TestCompare(t *testing.T) {
	c := Compare([]float64{4, 5, 6}, []float64{1, 2, 3})
	if c.NA != 3 || c.NB != 3 || c.MeanA != 5 || c.MeanB != 2 || c.Diff.Mean != 3 || c.A12 != 1 || math.Abs(c.P-0.1) > 1e-12 {
		t.Errorf("Compare = %+v", c)
	}
	c = ComparePaired([]float64{2, 3, 4, 5, 6}, []float64{1, 1, 1, 1, 1})
	if c.Diff.Mean != 3 || math.Abs(c.P-0.0625) > 1e-12 || c.Diff.TooFew() {
		t.Errorf("ComparePaired = %+v", c)
	}
}

func TestCluster(t *testing.T) {
	// Two participants, each with three identical plays: the cluster bootstrap's replicates
	// are 0, ½ or 1 (as BootstrapMean of {0, 1}), where resampling the six plays as if they
	// were independent gives a much narrower band.
	var obs []Obs
	var flat []float64
	for _, p := range []struct {
		unit string
		v    float64
	}{{"ann", 0}, {"bob", 1}} {
		for range 3 {
			obs = append(obs, Obs{Value: p.v, Unit: p.unit})
			flat = append(flat, p.v)
		}
	}
	iv := ClusterMean(obs)
	if iv.Mean != 0.5 || iv.Lo != 0 || iv.Hi != 1 || iv.N != 2 || iv.Method != ClusterMethod {
		t.Errorf("ClusterMean = %+v", iv)
	}
	if naive := BootstrapMean(flat); naive.Hi-naive.Lo >= 1 {
		t.Errorf("naive bootstrap %+v as wide as the cluster one", naive)
	}
	// Crossed: 6 participants × 2 levels, the level carries all the variation. One-way
	// resampling of participants sees no variation; the two-way bootstrap does.
	obs = obs[:0]
	for p := range 6 {
		for l, v := range []float64{0, 1} {
			obs = append(obs, Obs{Value: v, Unit: string(rune('a' + p)), Cross: string(rune('x' + l))})
		}
	}
	iv = ClusterMean(obs)
	if iv.Method != TwoWayMethod || iv.Lo != 0 || iv.Hi != 1 || iv.N != 6 {
		t.Errorf("two-way ClusterMean = %+v", iv)
	}
	var oneWay []Obs
	for _, o := range obs {
		oneWay = append(oneWay, Obs{Value: o.Value, Unit: o.Unit})
	}
	if iv := ClusterMean(oneWay); iv.Lo != 0.5 || iv.Hi != 0.5 {
		t.Errorf("one-way ClusterMean = %+v", iv)
	}
	// ClusterDiff keeps the pairing: each participant is 1 better under a.
	var a, b []Obs
	for p := range 5 {
		u := string(rune('a' + p))
		a = append(a, Obs{Value: float64(p) + 1, Unit: u})
		b = append(b, Obs{Value: float64(p), Unit: u})
	}
	d := ClusterDiff(a, b)
	if math.Abs(d.Mean-1) > 1e-12 || math.Abs(d.Lo-1) > 1e-12 || math.Abs(d.Hi-1) > 1e-12 || d.N != 5 {
		t.Errorf("ClusterDiff = %+v", d)
	}
	if iv := ClusterMean([]Obs{{Value: 3, Unit: "solo"}}); iv.Mean != 3 || !iv.TooFew() {
		t.Errorf("one unit: %+v", iv)
	}
}

func TestNText(t *testing.T) {
	if s := NText(10, "seed"); s != "n = 10 seeds" {
		t.Error(s)
	}
	if s := NText(1, "run"); s != "n = 1 run" {
		t.Error(s)
	}
}

func TestStudentMean(t *testing.T) {
	// 1..5: mean 3, s = √2.5, t(0.975, 4) = 2.776445, half width 2.776445·√2.5/√5 = 1.963243.
	iv := StudentMean([]float64{1, 2, 3, 4, 5})
	near(t, "mean", iv.Mean, 3, 1e-12)
	near(t, "lo", iv.Lo, 3-1.963243, 1e-6)
	near(t, "hi", iv.Hi, 3+1.963243, 1e-6)
	// the case the bootstrap is there for: two seeds far apart leave the range.
	if iv := StudentMean([]float64{29, 100}); iv.Hi < 500 {
		t.Errorf("StudentMean(29, 100) = %+v", iv)
	}
	if iv := StudentMean([]float64{4}); !iv.TooFew() || iv.Mean != 4 {
		t.Errorf("one value: %+v", iv)
	}
}

// A record of 5 wins, 0 losses and 0 draws in 10 games has the interval of 5 of 10; with
// draws counting half, 4 wins and 2 draws of 10 is a score of 0.5 with the same interval.
func TestWilsonScoreCountsHalves(t *testing.T) {
	whole, half := Wilson(5, 10), WilsonScore((4+0.5*2)/10.0, 10)
	if whole.Lo != half.Lo || whole.Hi != half.Hi || half.N != 10 {
		t.Errorf("WilsonScore(0.5, 10) = %v, want %v", half, whole)
	}
	// Textbook (Newcombe 1998, z = 1.96): 0.5 of 10 → 0.2366–0.7634.
	if math.Abs(half.Lo-0.2366) > 5e-5 || math.Abs(half.Hi-0.7634) > 5e-5 {
		t.Errorf("WilsonScore(0.5, 10) = [%.4f, %.4f], want [0.2366, 0.7634]", half.Lo, half.Hi)
	}
	if iv := WilsonScore(1, 6); iv.Hi != 1 || math.Abs(iv.Lo-0.6097) > 5e-5 {
		t.Errorf("WilsonScore(1, 6) = %v, want [0.6097, 1]", iv)
	}
	if iv := WilsonScore(0.3, 0); !iv.TooFew() {
		t.Errorf("WilsonScore of no games = %v, want no interval", iv)
	}
}
