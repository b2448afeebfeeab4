package app

import (
	"path/filepath"
	"slices"
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
	rec, err := loadRunRecord(dir)
	if err != nil {
		t.Fatal(err)
	}
	if name, _, _ := wb.currentProblem(); name == searchtest.ToyName {
		t.Fatalf("the test needs another problem selected first, have %s", name)
	}
	if err := wb.run.showRecord(rec); err != nil {
		t.Error(err)
	}
	wait(t, wb)
	var got experiment.Config
	var name string
	name, _, _ = wb.currentProblem()
	got, _, err = wb.run.runConfig()
	if err != nil || name != searchtest.ToyName || got.Problem != cfg.Problem || got.Generator != cfg.Generator ||
		got.Fitness != cfg.Fitness || got.PopSize != cfg.PopSize || got.Generations != cfg.Generations || got.Seed != cfg.Seed {
		t.Fatalf("after opening: problem %s, config %+v (%v), want %+v", name, got, err, cfg)
	}
}

// MAP-Elites' axes belong to a problem: selecting another problem never leaves the previous
// problem's fields on show, and the new problem's fields arrive.
func TestMapElitesAxesFollowTheProblem(t *testing.T) {
	wb := newTestWorkbench(t)
	rp := wb.run
	wb.showTab("run")
	if err := wb.selectProblem("binary-v0"); err != nil {
		t.Fatal(err)
	}
	rp.generator.SetSelected("mapelites")
	eventually(t, "binary's axes", func() bool { return rp.axisX.Selected != "" && rp.axesFor == "binary-v0" })
	binaryAxes := slices.Clone(rp.axisX.Options)
	if err := wb.selectProblem("zelda-v0"); err != nil {
		t.Fatal(err)
	}
	if rp.axesFor != "zelda-v0" && (rp.axisX.Selected != "" || len(rp.axisX.Options) != 0) {
		t.Fatalf("while zelda's fields load, the axes show %q of %v", rp.axisX.Selected, rp.axisX.Options)
	}
	eventually(t, "zelda's axes", func() bool { return rp.axisX.Selected != "" && rp.axesFor == "zelda-v0" })
	if slices.Equal(rp.axisX.Options, binaryAxes) {
		t.Fatalf("zelda's axes are binary's: %v", binaryAxes)
	}
}
