package birds

import (
	"fmt"
	"strings"
	"testing"
)

// fullGridProgram fills the 20×16 grid with b11 blocks, row by row: the largest legal answer
// (320 blocks).
func fullGridProgram() string {
	var b strings.Builder
	for row := 0; row < 16; row++ {
		for col := 0; col < 20; col++ {
			fmt.Fprintf(&b, "drop_block('b11', %d)\n", col)
		}
	}
	return b.String()
}

// scaleLevel is a level of n blocks: for n ≤ 320 the first n calls of the full grid (a legal
// answer), beyond it towers of the same blocks side by side on a wider ground (a hostile level
// file with up to MaxSimObjects objects).
func scaleLevel(tb testing.TB, n int) *Level {
	tb.Helper()
	if n <= 320 {
		calls := strings.SplitAfter(fullGridProgram(), "\n")[:n]
		s, err := Convert(strings.Join(calls, ""))
		if err != nil {
			tb.Fatal(err)
		}
		return s.Level()
	}
	lv := &Level{Width: 5}
	const cols = 50
	for i := 0; i < n; i++ {
		col, row := i%cols, i/cols
		lv.Objects = append(lv.Objects, Object{Kind: KindBlock, Type: "SquareTiny", Material: "wood",
			X: -11 + float64(col)*0.44, Y: -3.39 + float64(row)*0.22})
	}
	return lv
}

// BenchmarkStabilityScale is the cost of one level's stability and image by its number of
// blocks: 10, 100, 320 (the largest legal answer) and 999 (near the simulation's object limit).
// Targets on the project's 2-core machine: 320 blocks ≤ 300 ms, 999 blocks ≤ 1.5 s.
func BenchmarkStabilityScale(b *testing.B) {
	for _, n := range []int{10, 100, 320, 999} {
		lv := scaleLevel(b, n)
		b.Run(fmt.Sprintf("blocks=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				res, err := Simulate(lv, DefaultSimConfig())
				if err != nil {
					b.Fatal(err)
				}
				Render(res)
			}
		})
	}
}

// BenchmarkSolverFork compares the fork's contact velocity solver with upstream's on the same
// levels (third_party/box2d/PATCHES.md); both give bit-identical worlds
// (TestFastSolverIsBitIdentical), so the ratio is the fork's whole effect.
func BenchmarkSolverFork(b *testing.B) {
	for _, n := range []int{10, 320} {
		lv := scaleLevel(b, n)
		for _, solver := range []string{"upstream", "fork"} {
			cfg := DefaultSimConfig()
			cfg.referenceSolver = solver == "upstream"
			b.Run(fmt.Sprintf("blocks=%d/solver=%s", n, solver), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if _, err := Simulate(lv, cfg); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
