// Package playtesttest builds run folders for playtest tests: final populations of golden
// zelda-v0 rooms, as a generator run would leave them.
package playtesttest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"pcgwb/internal/testshared"
	"pcgwb/problems"
	"pcgwb/problems/experiment"
	"pcgwb/problems/problemtest"
	"pcgwb/problems/search"
)

// Runs are the two run folders RunFolders writes, by generator, with the golden ids of their
// populations (best first; zelda-s000 has quality below 1: the benchmark calls it unplayable).
var Runs = map[string][]string{
	"ga":  {"zelda-s020", "zelda-s021", "zelda-s022", "zelda-s000"},
	"llm": {"zelda-s023", "zelda-s024", "zelda-s025"},
}

// RunFolders writes the run folders of Runs under dir (dir/ga, dir/llm) and returns them.
func RunFolders(t testing.TB, dir string) map[string]string {
	t.Helper()
	root, err := testshared.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	g := problemtest.LoadGolden(t, filepath.Join(root, "problems", "zelda", "testdata", "zelda-v0.json"))
	byID := map[string]problemtest.GoldenItem{}
	for _, it := range g.Items {
		byID[it.ID] = it
	}
	out := map[string]string{}
	for gen, ids := range Runs {
		var pop []problems.Scored
		for _, id := range ids {
			it := byID[id]
			pop = append(pop, problems.Scored{Content: it.Content, Quality: it.Quality, Fitness: it.Quality, Cell: problems.NoCell})
		}
		out[gen] = WriteRun(t, dir, gen, "zelda-v0", pop)
	}
	return out
}

// WriteRun writes dir/gen, the run folder of a generator gen on problem whose final population
// is pop (best first), and returns it.
func WriteRun(t testing.TB, dir, gen, problem string, pop []problems.Scored) string {
	t.Helper()
	f := experiment.Final{Config: experiment.Config{Format: 1, Generator: gen, Generations: 1,
		Options: search.Options{Problem: problem, Fitness: "quality", Seed: 1, PopSize: len(pop)}}, Population: pop, Size: len(pop)}
	data, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, gen)
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(run, experiment.FinalFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return run
}
