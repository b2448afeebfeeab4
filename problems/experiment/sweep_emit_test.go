package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/problems/search"
	"pcgwb/problems/search/searchtest"
)

// A job that --emit-jobs hands to a scheduler carries its run's configuration as data: the run
// folder is created with the config.json the local sweep would write, and the line only names
// it (`run --resume DIR`). So a setting the sweep has that no `run` flag spells (here the
// mutation, crossover, tournament and elitism settings) reaches the run, which ends where the
// local sweep's does.
func TestEmitJobsCarryTheConfigurationAsData(t *testing.T) {
	s := Sweep{Problems: []string{searchtest.ToyName}, Generators: []string{"ga"}, Fitnesses: []string{"quality"},
		Seeds: 2, Generations: 2, Out: t.TempDir(), Checkpoint: Cadence{Every: 1},
		Options: search.Options{PopSize: 8, MutationRate: 0.3, CrossoverRate: 0.9, Tournament: 2, Elitism: 0.25}}
	lines, err := s.EmitJobs("/opt/work bench")
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := s.Jobs()
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != len(jobs) {
		t.Fatalf("%d lines for %d jobs", len(lines), len(jobs))
	}
	for i, j := range jobs {
		want := "'/opt/work bench' run --resume " + j.Dir + " --checkpoint-interval 0s --checkpoint-every 1"
		if lines[i] != want {
			t.Errorf("line %q, want %q", lines[i], want)
		}
		r, err := Open(j.Dir)
		if err != nil {
			t.Fatalf("the job's folder: %v", err)
		}
		norm, err := j.Config.Normalize()
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(r.Config)
		exp, _ := json.Marshal(norm)
		if !bytes.Equal(got, exp) {
			t.Errorf("%s: config.json %s, want the job's %s", j.Dir, got, exp)
		}
		if r.Config.MutationRate != 0.3 || r.Config.Tournament != 2 {
			t.Errorf("%s: the sweep's settings were dropped: %+v", j.Dir, r.Config.Options)
		}
	}
	// The emitted folder, run as `run --resume` runs it, ends as the local sweep's run.
	r, err := Open(jobs[0].Dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Execute(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	emitted, err := ReadFinal(jobs[0].Dir)
	if err != nil {
		t.Fatal(err)
	}
	local := s
	local.Out = t.TempDir()
	if err := local.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	want, err := ReadFinal(filepath.Join(local.Out, strings.TrimPrefix(jobs[0].Dir, s.Out)))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(emitted)
	b, _ := json.Marshal(want)
	if !bytes.Equal(a, b) {
		t.Errorf("the emitted job's final differs from the local sweep's:\n%s\n%s", a, b)
	}
	// A finished run is no longer emitted; a folder holding another run is an error.
	if lines, _ := s.EmitJobs("workbench"); len(lines) != len(jobs)-1 {
		t.Errorf("%d lines after one job finished, want %d", len(lines), len(jobs)-1)
	}
	other := s
	other.Options.MutationRate = 0.1
	if _, err := other.EmitJobs("workbench"); err == nil || !strings.Contains(err.Error(), "holds another run") {
		t.Errorf("emitting over another sweep's folders: %v", err)
	}
}
