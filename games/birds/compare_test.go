package birds

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"pcgwb/stats"
)

// trialValues builds a team whose trials of measure stability and similarity are the given
// values (the product is their product), letters in order from A.
func trialValues(team string, letters ...[]float64) *teamTrialValues {
	v := &teamTrialValues{Team: team}
	for i, xs := range letters {
		for _, x := range xs {
			v.Letters[i] = append(v.Letters[i], [3]float64{x, x, x * x})
		}
	}
	return v
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// compareValues against values worked out by hand: per letter the two prompts' trials are
// independent groups (Mann–Whitney U, exact; Â12; Holm over the letters of a measure), and
// overall the letters pair (Wilcoxon signed-rank, exact; paired bootstrap).
func TestCompareValuesHandComputed(t *testing.T) {
	// Letter A: B's three trials all above A's; letter B: all below; letter C: B above by a
	// little (0.35 − 0.30 in the means); D is missing on B's side and left out.
	a := trialValues("alpha", []float64{0.1, 0.2, 0.3}, []float64{0.4, 0.5, 0.6}, []float64{0.2, 0.3, 0.4}, []float64{1})
	b := trialValues("beta", []float64{0.4, 0.5, 0.6}, []float64{0.1, 0.2, 0.3}, []float64{0.25, 0.35, 0.45})
	c := compareValues(a, b)
	if c.TeamA != "alpha" || c.TeamB != "beta" || len(c.Letters) != 3 {
		t.Fatalf("%s %s %d letters", c.TeamA, c.TeamB, len(c.Letters))
	}
	la, lb, lc := c.Letters[0].Stability, c.Letters[1].Stability, c.Letters[2].Stability
	// A: B − A = 0.5 − 0.2 = 0.3; every B beats every A: Â12 = 1, U = 9 of 9, and the exact
	// two-sided p is 2 · 1/C(6,3) = 2/20 = 0.1.
	if !near(la.Diff, 0.3) || !near(la.MeanA, 0.2) || !near(la.MeanB, 0.5) || la.A12 != 1 || !near(la.P, 0.1) {
		t.Fatalf("A: %+v", la)
	}
	if la.N != 3 || la.Unit != "trial" || la.Trials != [2]int{3, 3} || la.NText() != "n = 3 trials" ||
		la.Method != stats.DiffMethod || !strings.Contains(la.Test, "exact") {
		t.Fatalf("A's unit and method: %+v", la)
	}
	// B: the mirror: −0.3, Â12 = 0, p = 0.1.
	if !near(lb.Diff, -0.3) || lb.A12 != 0 || !near(lb.P, 0.1) {
		t.Fatalf("B: %+v", lb)
	}
	// C: B = {0.25, 0.35, 0.45} against A = {0.2, 0.3, 0.4}: B wins 6 of the 9 pairs
	// (0.25 > 0.2; 0.35 > 0.2, 0.3; 0.45 > all three), Â12 = 6/9; U = 6 has P(U ≥ 6) = 7/20
	// (U of 3 against 3: counts 1 1 2 3 3 3 3 2 1 1 for u = 0..9), so p = 2 · 7/20 = 0.7.
	if !near(lc.Diff, 0.05) || !near(lc.A12, 6.0/9) || !near(lc.P, 0.7) {
		t.Fatalf("C: %+v", lc)
	}
	// Holm over the 3 letters of the measure: sorted p 0.1, 0.1, 0.7 → 3·0.1 = 0.3,
	// max(0.3, 2·0.1) = 0.3, max(0.3, 1·0.7) = 0.7.
	if !near(la.PHolm, 0.3) || !near(lb.PHolm, 0.3) || !near(lc.PHolm, 0.7) {
		t.Fatalf("Holm: %v %v %v", la.PHolm, lb.PHolm, lc.PHolm)
	}
	// Overall, the unit is the letter: A's letter means 0.2, 0.5, 0.3 and B's 0.5, 0.2, 0.35;
	// paired differences +0.3, −0.3, +0.05 → mean 0.05/3. Wilcoxon: |d| ranks 2.5, 2.5, 1
	// (a tie, so the normal approximation): W+ = 2.5 + 1 = 3.5 against n(n+1)/4 = 3, variance
	// 3·4·7/24 − (2³ − 2)/48 = 3.5 − 0.125 = 3.375, continuity-corrected z = 0 → p = 1.
	// Â12 of B's means {0.5, 0.2, 0.35} over A's {0.2, 0.5, 0.3}: 0.5 beats 0.2 and 0.3 and
	// ties 0.5 (2½), 0.2 ties 0.2 (½), 0.35 beats 0.2 and 0.3 (2): 5/9.
	o := c.Overall.Stability
	if c.Overall.Letter != "all" || !near(o.Diff, 0.05/3) || !near(o.MeanA, 1.0/3) || !near(o.MeanB, 1.05/3) || !near(o.A12, 5.0/9) || !near(o.P, 1) {
		t.Fatalf("overall: %+v", o)
	}
	if o.N != 3 || o.Unit != "letter" || o.NText() != "n = 3 letters" || o.Method != stats.PairedDiffMethod || !strings.Contains(o.Test, "Wilcoxon") {
		t.Fatalf("overall's unit and method: %+v", o)
	}
	if o.Low > o.Diff || o.High < o.Diff || o.Low < -0.3 || o.High > 0.3 {
		t.Fatalf("overall interval: %+v", o)
	}
	// The similarity holds the same values as the stability: the same results.
	if s := c.Overall.Similarity; s.Diff != o.Diff || s.P != o.P {
		t.Fatalf("similarity %+v", s)
	}
	// Holm over the three measures: each p is 1 (stability, similarity) or at least its raw p.
	for _, iv := range c.Overall.measures() {
		if iv.PHolm < iv.P || iv.PHolm > 1 {
			t.Fatalf("overall Holm: %+v", iv)
		}
	}
}

// With one trial a letter has no interval and, compared with itself, every difference is 0 and
// no test finds one; JSON writes the missing interval as null instead of failing on NaN.
func TestCompareValuesDegenerate(t *testing.T) {
	a := trialValues("a", []float64{0.5}, []float64{0.2})
	c := compareValues(a, a)
	l := c.Letters[0].Score
	if l.Diff != 0 || !math.IsNaN(l.Low) || l.P != 1 || l.A12 != 0.5 {
		t.Fatalf("%+v", l)
	}
	if o := c.Overall.Score; o.Diff != 0 || o.P != 1 || o.Low != 0 || o.High != 0 {
		t.Fatalf("overall %+v", o)
	}
	data, err := json.Marshal(c.Letters[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"low":null`, `"diff":0`, `"n":1`, `"unit":"trial"`, `"pHolm":1`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("missing %s in %s", want, data)
		}
	}
}
