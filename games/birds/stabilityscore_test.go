package birds

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"pcgwb/internal/testshared"
)

func TestStabilityScoreIsUnitys(t *testing.T) {
	for _, c := range []struct {
		total, moving int
		want          float64
	}{
		{3, 1, 0.6666666865348816}, // float32(2/3), not 1 − float32(1/3) = 0.6666666269302368
		{3, 2, 0.3333333432674408},
		{5, 4, 0.20000000298023224},
		{12, 11, 0.0833333358168602},
		{4, 0, 1},
		{4, 4, 0},
		{0, 0, 0},
	} {
		if got := StabilityScore(c.total, c.moving); got != c.want {
			t.Errorf("StabilityScore(%d, %d) = %.17g, want %.17g", c.total, c.moving, got, c.want)
		}
	}
}

// Every stability value of the published trial rows (2023 and 2024) is a number the evaluator
// can produce: float32(n−m)/float32(n) for some level of n ≤ 320 blocks. With the old formula
// 1 − float32(m)/float32(n) a good share of them could never come out.
func TestPublishedStabilityReproducible(t *testing.T) {
	reachable := map[string]bool{}
	oldReachable := map[string]bool{}
	for n := 1; n <= 320; n++ {
		for m := 0; m <= n; m++ {
			reachable[strconv.FormatFloat(StabilityScore(n, m), 'g', -1, 64)] = true
			oldReachable[strconv.FormatFloat(float64(1-float32(m)/float32(n)), 'g', -1, 64)] = true
		}
	}
	for _, year := range []string{"2023", "2024"} {
		f, err := os.Open(filepath.Join(testshared.Dir(t, "science-birds", "competition-results", year), "trial_scores.csv"))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		col := -1
		for i, h := range rows[0] {
			if h == "stabilityScore" {
				col = i
			}
		}
		if col < 0 {
			t.Fatalf("%s: no stabilityScore column in %v", year, rows[0])
		}
		fractional, oldMisses := 0, 0
		for _, row := range rows[1:] {
			v, err := strconv.ParseFloat(row[col], 64)
			if err != nil {
				t.Fatalf("%s: %v", year, err)
			}
			key := strconv.FormatFloat(v, 'g', -1, 64)
			if !reachable[key] {
				t.Errorf("%s %s %s trial %s: stability %s cannot be produced", year, row[0], row[1], row[2], row[col])
			}
			if v > 0 && v < 1 {
				fractional++
				if !oldReachable[key] {
					oldMisses++
				}
			}
		}
		t.Logf("%s: %d rows, %d fractional, %d of them unreachable by 1 − m/n", year, len(rows)-1, fractional, oldMisses)
		if fractional == 0 || oldMisses == 0 {
			t.Errorf("%s: expected fractional values the old formula misses (%d, %d)", year, fractional, oldMisses)
		}
	}
}
