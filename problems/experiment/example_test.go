package experiment_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

// A run is a folder: Create writes its configuration (config.json, the paper's defaults filled
// in), Execute runs it with checkpoints and writes final.json. LoadRuns reads every run under a
// folder, Groups puts the seeds of one configuration together, and Differences compares two
// groups with an interval, Â12 and a rank test: what `workbench run` and `workbench report
// --compare` do.
func ExampleCreate() {
	root, err := os.MkdirTemp("", "runs")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(root)
	for _, generator := range []string{"random", "ga"} {
		for seed := uint64(1); seed <= 3; seed++ {
			cfg := experiment.Config{Generator: generator, Generations: 5, Options: search.Options{
				Problem: "binary-v0", Fitness: search.FitnessQuality, Seed: seed, PopSize: 10}}
			run, err := experiment.Create(filepath.Join(root, generator, fmt.Sprint(seed)), cfg)
			if err != nil {
				fmt.Println(err)
				return
			}
			if _, err := run.Execute(context.Background(), nil); err != nil {
				fmt.Println(err)
				return
			}
		}
	}
	final, err := experiment.ReadFinal(filepath.Join(root, "ga", "1"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("ga seed 1: generation", final.Generation, "population", final.Size)

	records, err := experiment.LoadRuns(root)
	if err != nil {
		fmt.Println(err)
		return
	}
	groups := experiment.Groups(records)
	for _, g := range groups {
		fmt.Printf("group %s: %d seeds\n", g.Generator, len(g.Runs))
	}
	for _, d := range experiment.Differences(groups) {
		if d.Metric == "best_fitness" {
			fmt.Printf("%s vs %s on %s: n = %d and %d, Â12 and p given: %v\n",
				d.GroupA, d.GroupB, d.Metric, d.NA, d.NB, d.A12 >= 0 && d.P > 0)
		}
	}
	// Output:
	// ga seed 1: generation 5 population 10
	// group random: 3 seeds
	// group ga: 3 seeds
	// random vs ga on best_fitness: n = 3 and 3, Â12 and p given: true
}
