package search

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"testing"

	"pcgwb/internal/testshared"
	"pcgwb/problems"
	_ "pcgwb/problems/all"
	"pcgwb/problems/data"
	"pcgwb/problems/problemtest"
	"pcgwb/problems/search/searchtest"
)

// makeProblem makes a registered problem for a test, with the pcg_benchmark reference data
// (../shared/reference-data/pcg, or $PCG_BENCHMARK_DATA) in reach of the problems that need
// it. Missing data fails the test under CI=true and skips it only outside CI; any other error
// fails it.
func makeProblem(t testing.TB, name string) problems.Problem {
	t.Helper()
	dir := problemtest.RefData(t)
	p, err := problems.Make(name)
	var miss *data.MissingError
	switch {
	case errors.As(err, &miss):
		testshared.Missing(t, "%s: reference data not found in %s: %v", name, dir, err)
	case err != nil:
		t.Fatalf("%s: %v", name, err)
	}
	return p
}

// The constructive baselines build valid contents, many of them feasible (sokoban's levels are
// all solvable by construction, but about half miss the solution-length target).
func TestConstructiveBuildsValidMostlyFeasibleContent(t *testing.T) {
	minFeasible := map[string]int{"binary-v0": 50, "zelda-v0": 50, "sokoban-v0": 30, "zelda-large-v0": 30, "binary-large-v0": 30}
	for name, want := range minFeasible {
		t.Run(name, func(t *testing.T) {
			p := makeProblem(t, name)
			g, err := New(p, "constructive", Options{Problem: name, Seed: 1, PopSize: 100})
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Reset(context.Background()); err != nil {
				t.Fatal(err)
			}
			for i, ind := range g.Population() {
				if err := p.ContentSpace().Check(ind.Content, fmt.Sprintf("individual %d", i)); err != nil {
					t.Fatal(err)
				}
			}
			if ev := g.Event(); ev.Feasible < want {
				t.Errorf("%d of 100 constructed contents are feasible, want at least %d", ev.Feasible, want)
			}
		})
	}
}

// On a real problem the GA improves quickly and a resumed run matches an uninterrupted one.
func TestGAOnBinaryImprovesAndResumes(t *testing.T) {
	p := makeProblem(t, "binary-v0")
	opts := Options{Problem: "binary-v0", Seed: 3, PopSize: 20, Fitness: FitnessQualityControlDiversity}
	ctx := context.Background()
	g, _ := New(p, "ga", opts)
	if err := g.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	first := g.Best()
	runSteps(t, g, 2)
	st, _ := g.Save()
	runSteps(t, g, 4)
	if g.Best() <= first {
		t.Errorf("best fitness did not improve in 6 generations: %v -> %v", first, g.Best())
	}
	h, _ := New(p, "ga", opts)
	if err := h.Load(ctx, st); err != nil {
		t.Fatal(err)
	}
	runSteps(t, h, 4)
	if saved(t, h) != saved(t, g) {
		t.Fatal("the resumed binary GA run differs")
	}
}

var defaultVariant = regexp.MustCompile(`^[a-z]+-v0$`)

// BenchmarkGAGeneration measures one GA generation (population 100, the paper's settings) per
// problem: evaluations per second counts the info computations of the generation.
func BenchmarkGAGeneration(b *testing.B) {
	problemtest.RefData(b)
	for _, name := range problems.List() {
		if !defaultVariant.MatchString(name) || name == searchtest.ToyName {
			continue
		}
		if problems.Unavailable(name) != nil {
			continue
		}
		b.Run(name, func(b *testing.B) {
			p := makeProblem(b, name)
			g, err := New(p, "ga", Options{Problem: name, Seed: 1, Fitness: FitnessQualityControlDiversity})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			if err := g.Reset(ctx); err != nil {
				b.Fatal(err)
			}
			before := g.Evaluations()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := g.Step(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(g.Evaluations()-before)/b.Elapsed().Seconds(), "evals/s")
		})
	}
}
