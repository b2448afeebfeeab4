package problems_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/internal/testshared"
	"pcgwb/problems"
	_ "pcgwb/problems/all"
	"pcgwb/problems/problemtest"
)

// TestDiversity202501Golden checks the January 2025 set diversity against the vectors that
// tools/golden-2025-01/make_golden.py made by running pcg_benchmark at 8ad18b6 on the golden
// items of every problem: bit for bit on the reference's own diversity matrix, and from the
// contents (infos and pair diversities computed here) within the golden tolerance with the
// same unique items.
func TestDiversity202501Golden(t *testing.T) {
	problemtest.RefData(t)
	golden := testshared.Dir(t, "golden", "pcg")
	files, err := filepath.Glob(filepath.Join("testdata", "diversity-2025-01", "*-v0.json"))
	if err != nil || len(files) != 14 {
		t.Fatalf("%d vector files (%v), want one per problem (14)", len(files), err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var v struct {
				Problem string `json:"problem"`
				Golden  struct {
					File string   `json:"file"`
					IDs  []string `json:"ids"`
				} `json:"golden"`
				Pct       float64   `json:"diversity_pct"`
				Diversity []float64 `json:"diversity"`
				Unique    int       `json:"unique"`
			}
			if err := json.Unmarshal(data, &v); err != nil {
				t.Fatal(err)
			}
			g := problemtest.LoadGolden(t, filepath.Join(golden, v.Golden.File))
			if len(g.Items) != len(v.Diversity) || len(g.Items) != len(v.Golden.IDs) {
				t.Fatalf("%d golden items, %d vector values", len(g.Items), len(v.Diversity))
			}
			for i, it := range g.Items {
				if it.ID != v.Golden.IDs[i] {
					t.Fatalf("item %d is %s in the golden file, %s in the vectors: regenerate them", i, it.ID, v.Golden.IDs[i])
				}
			}
			// The algorithm alone, on the reference's numbers: bit for bit.
			got := problems.GreedyDiversityWith(problems.Diversity202501, g.Matrix)
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(v.Diversity[i]) {
					t.Errorf("%s on the golden matrix: %.17g, reference %.17g", g.Items[i].ID, got[i], v.Diversity[i])
				}
			}
			// The whole path from the contents.
			p, err := problems.Make(v.Problem)
			if err != nil {
				t.Fatal(err)
			}
			infos, err := problems.Infos(context.Background(), p, g.Contents(t, p))
			if err != nil {
				t.Fatal(err)
			}
			pct, vals := problems.DiversitiesWith(problems.Diversity202501, p, infos)
			unique := 0
			for i, x := range vals {
				if math.Abs(x-v.Diversity[i]) > problemtest.Tolerance {
					t.Errorf("%s: diversity %.17g, reference %.17g", g.Items[i].ID, x, v.Diversity[i])
				}
				if (x >= 1) != (v.Diversity[i] >= 1) {
					t.Errorf("%s: unique %v, reference %v", g.Items[i].ID, x >= 1, v.Diversity[i] >= 1)
				}
				if x >= 1 {
					unique++
				}
			}
			if unique != v.Unique || pct != v.Pct {
				t.Errorf("%d unique (%.17g), reference %d (%.17g)", unique, pct, v.Unique, v.Pct)
			}
			e := problems.EvaluateInfosWith(problems.Diversity202501, p, infos, nil)
			if e.DiversityPct != pct {
				t.Errorf("EvaluateInfosWith: diversity_pct %v, want %v", e.DiversityPct, pct)
			}
		})
	}
}
