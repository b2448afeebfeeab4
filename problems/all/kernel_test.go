package all_test

import (
	"context"
	"math"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/problemtest"
)

// TestFastDiversityEqualsTheStraightforwardOne checks, for every problem on random sets (with
// duplicated items, as a converged population has), that the diversity kernels give the plain
// Diversity's bits for every ordered pair, and that the scalable set diversity gives the
// literal algorithm's bits on the plain matrix.
func TestFastDiversityEqualsTheStraightforwardOne(t *testing.T) {
	problemtest.RefData(t)
	names := []string{"arcade-v0", "binary-v0", "building-v0", "ddave-v0", "elimination-v0", "isaac-v0",
		"loderunner-v0", "loderunnertile-v0", "mdungeons-v0", "smb-v0", "smbtile-v0", "sokoban-v0",
		"talakat-v0", "zelda-v0"}
	sizes := []struct {
		n    int
		seed uint64
	}{{1, 3}, {60, 1}, {150, 2}}
	if testing.Short() {
		sizes = sizes[:2]
	}
	for _, name := range names {
		for _, sz := range sizes {
			t.Run(name, func(t *testing.T) {
				p, err := problems.Make(name)
				if err != nil {
					t.Skip(err)
				}
				items, err := problems.SampleN(context.Background(), p, sz.n, sz.seed)
				if err != nil {
					t.Fatal(err)
				}
				contents := problems.Contents(items)
				// Every fifth item again, so that identical rows are grouped.
				for i := 0; i < sz.n; i += 5 {
					contents = append(contents, contents[i])
				}
				infos, err := problems.Infos(context.Background(), p, contents)
				if err != nil {
					t.Fatal(err)
				}
				plain := problems.PlainDiversityMatrix(p, infos)
				fast := problems.DiversityMatrix(p, infos)
				for i := range plain {
					for j := range plain[i] {
						if math.Float64bits(plain[i][j]) != math.Float64bits(fast[i][j]) {
							t.Fatalf("n=%d: kernel diversity(%d, %d) = %.17g, Diversity gives %.17g", len(infos), i, j, fast[i][j], plain[i][j])
						}
					}
				}
				want := problems.LiteralGreedyDiversity(plain)
				got, err := problems.DiversitiesContext(context.Background(), p, infos, nil)
				if err != nil {
					t.Fatal(err)
				}
				for i := range want {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
						t.Fatalf("n=%d: set diversity[%d] = %.17g, the literal algorithm gives %.17g", len(infos), i, got[i], want[i])
					}
				}
			})
		}
	}
}
