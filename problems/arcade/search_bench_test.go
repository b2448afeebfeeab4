package arcade_test

import (
	"context"
	"testing"

	"pcgwb/problems"
	_ "pcgwb/problems/all"
	"pcgwb/problems/search"
)

// BenchmarkSearch runs the first 10 generations of the protocol's three generators on
// arcade-v0 (QTD fitness, population 100, seed 1): the evaluations a real run makes, which
// random contents (BenchmarkGames) do not reproduce once a search has shaped its population.
func BenchmarkSearch(b *testing.B) {
	for _, gen := range []string{"random", "es", "ga"} {
		b.Run(gen, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				p, err := problems.Make("arcade-v0")
				if err != nil {
					b.Fatal(err)
				}
				g, err := search.New(p, gen, search.Options{Problem: "arcade-v0", Seed: 1, Fitness: search.FitnessQualityControlDiversity})
				if err != nil {
					b.Fatal(err)
				}
				ctx := context.Background()
				if err := g.Reset(ctx); err != nil {
					b.Fatal(err)
				}
				for k := 0; k < 10; k++ {
					if err := g.Step(ctx); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
