package experiment

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"pcgwb/problems/search"
	"pcgwb/problems/search/searchtest"
)

// timing masks the only bytes of a run's files that depend on the clock: the elapsed times
// and, in checkpoints, the events file's size (its elapsed times have varying digits).
var timing = regexp.MustCompile(`"(elapsed_s|events_size)":[-+0-9.eE]+`)

// A sweep whose runs share infos and diversities (side by side, three workers) writes every
// run's files exactly as the run alone writes them: config.json and final.json byte-equal,
// events.jsonl and checkpoint.json equal but for their clock readings; so does a sweep with a
// budget small enough to evict, and one with sharing off.
func TestSharedSweepWritesWhatRunsAloneWrite(t *testing.T) {
	for _, tc := range []struct {
		name     string
		problems []string
		gens     int
		bytes    int64
	}{
		{"toy", []string{searchtest.ToyName}, 5, 0},
		{"binary", []string{"binary-v0"}, 4, 0},
		{"binary, evicting", []string{"binary-v0"}, 4, 64 << 10},
		{"binary, sharing off", []string{"binary-v0"}, 3, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			s := Sweep{Problems: tc.problems, Generators: search.PaperGenerators(),
				Fitnesses: []string{"quality", "quality_control", "quality_control_diversity"}, Seeds: 2,
				Generations: tc.gens, Options: search.Options{PopSize: 24}, Out: filepath.Join(out, "sweep"),
				Workers: 3, SharedBytes: tc.bytes}
			if err := s.Run(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			jobs, err := s.Jobs()
			if err != nil {
				t.Fatal(err)
			}
			for n, j := range jobs {
				dir := filepath.Join(out, "alone", fmt.Sprint(n))
				r, err := Create(dir, j.Config)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := r.Execute(context.Background(), nil); err != nil {
					t.Fatal(err)
				}
				sameFiles(t, dir, j.Dir)
			}
		})
	}
}

// sameFiles fails unless folders a and b hold the same files with the same bytes, clock
// readings aside.
func sameFiles(t *testing.T, a, b string) {
	t.Helper()
	names := func(dir string) []string {
		es, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range es {
			if e.Name() != ".lock" {
				out = append(out, e.Name())
			}
		}
		return out
	}
	na, nb := names(a), names(b)
	if !slices.Equal(na, nb) {
		t.Fatalf("%s holds %v, %s holds %v", a, na, b, nb)
	}
	for _, name := range na {
		x, err := os.ReadFile(filepath.Join(a, name))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(filepath.Join(b, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == EventsFile || name == CheckpointFile {
			x, y = timing.ReplaceAll(x, nil), timing.ReplaceAll(y, nil)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between %s and %s", name, a, b)
		}
	}
}

// The workers take the fitness variants of one problem, generator and seed one after the
// other; Jobs (and so --emit-jobs) keeps its own order.
func TestSweepFeedsFitnessVariantsSideBySide(t *testing.T) {
	s := Sweep{Problems: []string{searchtest.ToyName, hookedToy}, Generators: []string{"random", "ga"},
		Fitnesses: []string{"quality", "quality_control", "quality_control_diversity"}, Seeds: 2,
		Generations: 1, Out: t.TempDir()}
	jobs, err := s.Jobs()
	if err != nil {
		t.Fatal(err)
	}
	if jobs[0].Config.Fitness != "quality" || jobs[1].Config.Fitness != "quality" {
		t.Fatalf("Jobs' order changed: %s, %s", jobs[0].Dir, jobs[1].Dir)
	}
	fed := sideBySide(jobs)
	if len(fed) != len(jobs) {
		t.Fatalf("%d jobs fed of %d", len(fed), len(jobs))
	}
	seen := map[string]bool{}
	for i := 0; i < len(fed); i += 3 {
		group := fed[i : i+3]
		for n, j := range group {
			if seen[j.Dir] {
				t.Fatalf("%s fed twice", j.Dir)
			}
			seen[j.Dir] = true
			c, first := j.Config, group[0].Config
			if c.Problem != first.Problem || c.Generator != first.Generator || c.Seed != first.Seed || c.Fitness != s.Fitnesses[n] {
				t.Fatalf("jobs %d..%d are not one run's fitness variants: %s", i, i+2, j.Dir)
			}
		}
	}
	if p, g := fed[0].Config, fed[len(fed)-1].Config; p.Problem != searchtest.ToyName || g.Problem != hookedToy || g.Generator != "ga" || g.Seed != 2 {
		t.Fatalf("problems, generators and seeds are not in the sweep's order: first %s, last %s", fed[0].Dir, fed[len(fed)-1].Dir)
	}
}
