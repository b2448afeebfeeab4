package app

import (
	"path/filepath"
	"testing"

	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
	"pcgwb/problems/search/searchtest"
)

// Opening a run folder selects its problem and configuration: Start then runs what is shown,
// not the problem selected before.
func TestOpeningARunSelectsItsProblem(t *testing.T) {
	wb := newRunWorkbench(t)
	dir := filepath.Join(t.TempDir(), "run")
	cfg := experiment.Config{Generator: "es", Generations: 1, Options: search.Options{
		Problem: searchtest.ToyName, Fitness: search.FitnessQualityControl, Seed: 9, PopSize: 6}}
	r, err := experiment.Create(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Execute(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	rec, err := LoadRunRecord(dir)
	if err != nil {
		t.Fatal(err)
	}
	if name, _, _ := wb.CurrentProblem(); name == searchtest.ToyName {
		t.Fatalf("the test needs another problem selected first, have %s", name)
	}
	if err := wb.Run.ShowRecord(rec); err != nil {
		t.Error(err)
	}
	wait(t, wb)
	var got experiment.Config
	var name string
	name, _, _ = wb.CurrentProblem()
	got, _, err = wb.Run.runConfig()
	if err != nil || name != searchtest.ToyName || got.Problem != cfg.Problem || got.Generator != cfg.Generator ||
		got.Fitness != cfg.Fitness || got.PopSize != cfg.PopSize || got.Generations != cfg.Generations || got.Seed != cfg.Seed {
		t.Fatalf("after opening: problem %s, config %+v (%v), want %+v", name, got, err, cfg)
	}
}
