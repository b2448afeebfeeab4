package experiment

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"pcgwb/problems/search"
)

// fakeRun is a finished run record of a configuration, made without running anything.
func fakeRun(gen string, seed uint64, settings string, best float64) *Record {
	cfg := Config{Format: Format, Generator: gen, Generations: 2, Options: search.Options{
		Problem: "zelda-v0", Fitness: search.FitnessQuality, Seed: seed, PopSize: 10}}
	if settings != "" {
		cfg.Settings = json.RawMessage(settings)
	}
	return &Record{Dir: fmt.Sprintf("%s/%d", gen, seed), Config: cfg, Final: &Final{Config: cfg, Generation: 2,
		BestFitness: best, Size: 10, Feasible: int(10 * best)}}
}

// Three seeds of every generator kind are one group of three runs: the search seed and every
// seed of the generator's own section (the LLM's llm.seed) are left out of the configuration.
func TestGroupsIgnoreEverySeed(t *testing.T) {
	kinds := slices.Clone(search.All())
	for _, k := range []string{"llm", "llm-ga", "llm-mapelites"} {
		if !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	settings := func(gen string, seed uint64) string {
		switch gen {
		case "llm":
			return fmt.Sprintf(`{"base_url":"http://127.0.0.1:9","model":"fake","temperature":0.7,"seed":%d}`, seed)
		case "llm-ga", "llm-mapelites":
			return fmt.Sprintf(`{"base_url":"http://127.0.0.1:9","model":"fake","seed":%d,"rate":0.5,"repairs":1,"prompts":{"mutation_seed":%d}}`, 1000+seed, seed)
		}
		return ""
	}
	var runs []*Record
	for _, gen := range kinds {
		for seed := uint64(1); seed <= 3; seed++ {
			runs = append(runs, fakeRun(gen, seed, settings(gen, seed), 0.1*float64(seed)))
		}
	}
	groups := Groups(runs)
	if len(groups) != len(kinds) {
		t.Fatalf("%d groups for %d generator kinds", len(groups), len(kinds))
	}
	sums := Summarize(groups)
	for i, g := range groups {
		if len(g.Runs) != 3 || g.Duplicates != 0 {
			t.Errorf("%s: %d runs, %d duplicates, want 3 and 0", g.Generator, len(g.Runs), g.Duplicates)
		}
		if sums[i].Best.TooFew() || sums[i].Best.N != 3 {
			t.Errorf("%s: no interval over three seeds: %+v", g.Generator, sums[i].Best)
		}
	}
	// what is not a seed still tells groups apart: another model is another group.
	other := fakeRun("llm", 1, `{"base_url":"http://127.0.0.1:9","model":"other","temperature":0.7,"seed":1}`, 0.5)
	if n := len(Groups(append(slices.Clone(runs), other))); n != len(kinds)+1 {
		t.Errorf("another model joined a group: %d groups", n)
	}
	// the same seeds twice is a duplicate, but the same search seed with another llm.seed is
	// another seed of the group.
	again := fakeRun("llm", 2, settings("llm", 2), 0.9)
	newLLMSeed := fakeRun("llm", 2, settings("llm", 7), 0.9)
	for _, g := range Groups(append(slices.Clone(runs), again, newLLMSeed)) {
		if g.Generator == "llm" && (len(g.Runs) != 4 || g.Duplicates != 1) {
			t.Errorf("llm: %d runs, %d duplicates, want 4 and 1", len(g.Runs), g.Duplicates)
		}
	}
}
