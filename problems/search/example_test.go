package search_test

import (
	"context"
	"fmt"

	"pcgwb/problems"
	_ "pcgwb/problems/all"
	"pcgwb/problems/search"
)

// A generator is built from a problem, a registered generator name and options (zero values
// take the paper's settings); Reset makes and evaluates the first population and each Step runs
// one generation. A run saved at generation 5 and loaded into a fresh generator continues
// exactly as the run that never stopped: the random source is part of the saved state.
func ExampleNew() {
	ctx := context.Background()
	p, err := problems.Make("binary-v0")
	if err != nil {
		fmt.Println(err)
		return
	}
	opts := search.Options{Fitness: search.FitnessQuality, Seed: 1, PopSize: 20}
	run := func(g search.Generator, until int) {
		for g.Generation() < until {
			if err := g.Step(ctx); err != nil {
				panic(err)
			}
		}
	}
	whole, err := search.New(p, "ga", opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := whole.Reset(ctx); err != nil {
		fmt.Println(err)
		return
	}
	first := whole.Best()
	run(whole, 5)
	saved, err := whole.Save()
	if err != nil {
		fmt.Println(err)
		return
	}
	run(whole, 10)

	resumed, _ := search.New(p, "ga", opts)
	if err := resumed.Load(ctx, saved); err != nil {
		fmt.Println(err)
		return
	}
	run(resumed, 10)
	fmt.Println("generation:", whole.Generation())
	fmt.Println("best improved:", whole.Best() > first)
	fmt.Println("resumed run is the same:", resumed.Best() == whole.Best() && resumed.Evaluations() == whole.Evaluations())
	// Output:
	// generation: 10
	// best improved: true
	// resumed run is the same: true
}

// Every registered generator has a descriptor: what it needs and offers. The GUI and the CLI
// ask the descriptor (does it keep an archive over axes? does it ask a model?), never the name.
func ExampleDescribe() {
	for _, name := range []string{"random", "ga", "mapelites", "constructive"} {
		d, ok := search.Describe(name)
		if !ok {
			fmt.Println(name, "is not registered")
			continue
		}
		fmt.Printf("%s: axes %v, asks a model %v, constructive %v\n", d.Name, d.UsesAxes, d.AsksModel, d.Constructive)
	}
	// Output:
	// random: axes false, asks a model false, constructive false
	// ga: axes false, asks a model false, constructive false
	// mapelites: axes true, asks a model false, constructive false
	// constructive: axes false, asks a model false, constructive true
}
