package app

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// makeRuns records small runs of the fake problem: generators × seeds under root.
func makeRuns(t *testing.T, root string, gens []string, seeds int, generations int) []string {
	t.Helper()
	var dirs []string
	for _, g := range gens {
		for s := 1; s <= seeds; s++ {
			cfg := experiment.Config{Generator: g, Generations: generations, Options: search.Options{
				Problem: fakeName, Fitness: search.FitnessQuality, Seed: uint64(s), PopSize: 8}}
			dir := filepath.Join(root, g, string(rune('0'+s)))
			r, err := experiment.Create(dir, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := r.Execute(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			dirs = append(dirs, dir)
		}
	}
	return dirs
}

func TestGroupRunsMatchesExperimentSummary(t *testing.T) {
	root := t.TempDir()
	makeRuns(t, root, []string{"ga", "es"}, 3, 4)
	recs, err := LoadRunRecords(root)
	if err != nil {
		t.Fatal(err)
	}
	groups := GroupRuns(recs)
	if len(groups) != 2 {
		t.Fatalf("%d groups", len(groups))
	}
	runs, err := experiment.LoadRuns(root)
	if err != nil {
		t.Fatal(err)
	}
	sums := experiment.Summarize(experiment.Groups(runs))
	for _, s := range sums {
		var g *CompareGroup
		for _, c := range groups {
			if c.Generator == s.Generator {
				g = c
			}
		}
		if g == nil || len(g.runs) != 3 || g.Finished != 3 {
			t.Fatalf("group %s missing or incomplete", s.Generator)
		}
		for _, pair := range [][2]float64{{g.Best.Mean, s.BestMean}, {g.Best.CI, s.BestCI}, {g.Feasible.Mean, s.FeasibleMean},
			{g.Feasible.CI, s.FeasibleCI}, {g.controlled.CI, s.ControlledCI}, {g.unique.Mean, s.UniqueMean}} {
			if !(near(pair[0], pair[1], 1e-9) || (math.IsNaN(pair[0]) && math.IsNaN(pair[1]))) {
				t.Errorf("%s: workbench %v, experiment %v", s.Generator, pair[0], pair[1])
			}
		}
		if len(g.bestCurve.X) != 5 || len(g.feasibleCurve.Mean) != 5 {
			t.Errorf("curves cover %d generations", len(g.bestCurve.X))
		}
	}
	table := CompareTable(groups)
	if len(table) != 3 || table[0][3] != "Best fitness" || !strings.Contains(table[1][3], "[") {
		t.Fatalf("table %v", table)
	}
	spec := compareFitnessPlot(groups)
	if len(spec.series) != 2 || spec.xMax != 4 || spec.yMax != 1.05 {
		t.Fatalf("plot spec %+v", spec)
	}
	if img := renderPlot(spec, 400, 300); img.Bounds().Dx() != 400 || img.Bounds().Dy() != 300 {
		t.Fatalf("plot is %v", img.Bounds())
	}
}

func TestRunRecordMembers(t *testing.T) {
	root := t.TempDir()
	dir := makeRuns(t, root, []string{"ga"}, 1, 2)[0]
	rec, err := loadRunRecord(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Finished() || rec.Generation() != 2 || len(rec.Events) != 3 {
		t.Fatalf("record: finished %v, generation %d, %d events", rec.Finished(), rec.Generation(), len(rec.Events))
	}
	p, _ := problems.Make(fakeName)
	ms, gen, err := rec.population(p)
	if err != nil || gen != 2 || len(ms) != 8 {
		t.Fatalf("members: %d at %d, %v", len(ms), gen, err)
	}
	// contents come back as ints (Render and Info need them), infos as JSON objects
	if _, err := p.Render(ms[0].Content); err != nil {
		t.Fatal(err)
	}
	if _, ok := ms[0].metric("walls"); !ok {
		t.Fatal("final infos are not readable")
	}
	// without final.json the checkpoint gives the population, fitness recomputed
	if err := os.Remove(filepath.Join(dir, experiment.FinalFile)); err != nil {
		t.Fatal(err)
	}
	rec.Final = nil
	cms, gen, err := rec.population(p)
	if err != nil || gen != 2 || len(cms) != 8 || cms[0].Fitness != ms[0].Fitness || cms[0].Info != nil {
		t.Fatalf("checkpoint members: %d at %d, %v", len(cms), gen, err)
	}
	copyDir := filepath.Join(t.TempDir(), "copy")
	if err := copyRunFolder(dir, copyDir); err != nil {
		t.Fatal(err)
	}
	if _, err := loadRunRecord(copyDir); err != nil {
		t.Fatal(err)
	}
	if err := copyRunFolder(dir, copyDir); err == nil {
		t.Fatal("copying over a run folder should fail")
	}
	name := runFolderName(root, rec.Config, "20250101-000000")
	if filepath.Base(name) != "20250101-000000-apptest-rooms-v0-ga-q-s1" {
		t.Fatalf("folder name %q", name)
	}
	if err := os.MkdirAll(name, 0o755); err != nil {
		t.Fatal(err)
	}
	if again := runFolderName(root, rec.Config, "20250101-000000"); again == name {
		t.Fatal("the folder name is not unique")
	}
}
