package experiment

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"pcgwb/problems/search"
	"pcgwb/problems/search/searchtest"
)

// With independent seeds no two fitness functions or generators share a seed, the seeds do
// not depend on which other fitnesses or generators the sweep holds, and the folders keep the
// replicate number; the paired design uses seed k for replicate k.
func TestSweepIndependentSeeds(t *testing.T) {
	s := Sweep{Problems: []string{searchtest.ToyName, hookedToy}, Generators: []string{"random", "es", "ga"},
		Fitnesses: search.Fitnesses(), Seeds: 4, Generations: 1, Options: search.Options{PopSize: 6},
		Out: t.TempDir(), IndependentSeeds: true}
	jobs, err := s.Jobs()
	if err != nil {
		t.Fatal(err)
	}
	owner := map[uint64]string{}
	for _, j := range jobs {
		c := j.Config
		key := c.Fitness + "/" + c.Generator + "/" + strconv.Itoa(j.Replicate)
		if o, ok := owner[c.Seed]; ok && o != key {
			t.Fatalf("seed %d used by %s and %s", c.Seed, o, key)
		}
		owner[c.Seed] = key
		if c.Seed >= 1<<53 || c.Seed != IndependentSeed(c.Fitness, c.Generator, j.Replicate) {
			t.Fatalf("%s: seed %d", j.Dir, c.Seed)
		}
		if filepath.Base(j.Dir) != strconv.Itoa(j.Replicate) {
			t.Fatalf("%s is not named after replicate %d", j.Dir, j.Replicate)
		}
	}
	if len(owner) != len(s.Fitnesses)*len(s.Generators)*s.Seeds {
		t.Fatalf("%d distinct seeds for %d (fitness, generator, replicate)", len(owner), len(s.Fitnesses)*len(s.Generators)*s.Seeds)
	}
	sub := s
	sub.Fitnesses, sub.Generators = []string{"quality_control"}, []string{"ga"}
	subJobs, err := sub.Jobs()
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range subJobs {
		if owner[j.Config.Seed] != "quality_control/ga/"+strconv.Itoa(j.Replicate) {
			t.Fatalf("a sweep of one fitness and generator gave %s seed %d", j.Dir, j.Config.Seed)
		}
	}
	s.IndependentSeeds = false
	paired, err := s.Jobs()
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range paired {
		if j.Config.Seed != uint64(j.Replicate) {
			t.Fatalf("paired %s: seed %d", j.Dir, j.Config.Seed)
		}
	}
	// The fitness variants of one replicate are still fed side by side.
	fed := sideBySide(jobs)
	for i := 0; i+2 < len(fed); i += 3 {
		a, b := fed[i], fed[i+2]
		if a.Replicate != b.Replicate || a.Config.Generator != b.Config.Generator || a.Config.Problem != b.Config.Problem {
			t.Fatalf("jobs %d..%d are not one replicate's fitness variants: %s, %s", i, i+2, a.Dir, b.Dir)
		}
	}
}

// A random search's fitness variants sample the same contents under the paired design and
// different ones with independent seeds.
func TestSweepIndependentRandomRunsDiffer(t *testing.T) {
	for _, independent := range []bool{false, true} {
		s := Sweep{Problems: []string{searchtest.ToyName}, Generators: []string{"random"},
			Fitnesses: []string{"quality", "quality_control"}, Seeds: 1, Generations: 2,
			Options: search.Options{PopSize: 8}, Out: t.TempDir(), IndependentSeeds: independent}
		if err := s.Run(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		var pops [2]string
		for i, f := range s.Fitnesses {
			fin, err := ReadFinal(filepath.Join(s.Out, searchtest.ToyName, f, "random", "1"))
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, ind := range fin.Population {
				data, err := json.Marshal(ind.Content)
				if err != nil {
					t.Fatal(err)
				}
				b.Write(data)
			}
			pops[i] = b.String()
		}
		if same := pops[0] == pops[1]; same == independent {
			t.Errorf("independent=%v: Q and QT random searches sampled the same contents: %v", independent, same)
		}
	}
}

// --diversity is recorded in config.json (absent for current), in the emitted jobs' folders
// as in the local sweep's, and changes the unique count of a random population.
func TestSweepRecordsTheDiversityAlgorithm(t *testing.T) {
	var unique [2]int
	for i, alg := range []string{"current", "2025-01"} {
		s := Sweep{Problems: []string{"zelda-v0"}, Generators: []string{"random"}, Fitnesses: []string{"quality"},
			Seeds: 1, Generations: 0, Options: search.Options{PopSize: 100, Diversity: alg}, Out: t.TempDir()}
		// the emitted job's folder records it before the job runs
		if _, err := s.EmitJobs("workbench"); err != nil {
			t.Fatal(err)
		}
		if err := s.Run(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(s.Out, "zelda-v0", "quality", "random", "1")
		data, err := os.ReadFile(filepath.Join(dir, ConfigFile))
		if err != nil {
			t.Fatal(err)
		}
		if has := strings.Contains(string(data), `"diversity": "2025-01"`); has != (alg == "2025-01") || strings.Contains(string(data), `"current"`) {
			t.Errorf("%s: config.json %s", alg, data)
		}
		fin, err := ReadFinal(dir)
		if err != nil {
			t.Fatal(err)
		}
		unique[i] = fin.Unique
	}
	if unique[1] <= unique[0] {
		t.Errorf("unique of 100 random zelda levels: %d (current), %d (2025-01): the January greedy keeps more", unique[0], unique[1])
	}
	if _, err := (Config{Generator: "ga", Options: search.Options{Problem: searchtest.ToyName, Diversity: "2024"}}).Normalize(); err == nil {
		t.Error("an unknown diversity algorithm was accepted")
	}
}
