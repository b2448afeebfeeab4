package app

import (
	"context"
	"encoding/csv"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

// stopAfter records a run of the fake problem and stops it after generation stop (-1: runs
// to the end), leaving an unfinished run folder.
func stopAfter(t *testing.T, dir, gen string, seed uint64, generations, stop int) {
	t.Helper()
	cfg := experiment.Config{Generator: gen, Generations: generations, Options: search.Options{
		Problem: fakeName, Fitness: search.FitnessQuality, Seed: seed, PopSize: 8}}
	r, err := experiment.Create(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err = r.Execute(ctx, func(ev search.Event) {
		if ev.Generation == stop {
			cancel()
		}
	})
	if stop < 0 && err != nil || stop >= 0 && !errors.Is(err, context.Canceled) {
		t.Fatalf("run %s: %v", dir, err)
	}
}

// The Compare tab and `workbench report` (experiment.Report, which writes summary.csv) show
// the same numbers for one folder holding finished and unfinished runs, a run of another
// length and a second run of one seed.
func TestCompareAndReportShowEqualNumbers(t *testing.T) {
	root := t.TempDir()
	for seed := uint64(1); seed <= 3; seed++ {
		stopAfter(t, filepath.Join(root, "ga", strconv.Itoa(int(seed))), "ga", seed, 4, -1)
	}
	stopAfter(t, filepath.Join(root, "ga", "4-unfinished"), "ga", 4, 4, 1)
	stopAfter(t, filepath.Join(root, "ga", "1-again"), "ga", 1, 4, 2) // seed 1 twice: one seed
	stopAfter(t, filepath.Join(root, "ga-long", "1"), "ga", 1, 6, 3)  // another configuration
	stopAfter(t, filepath.Join(root, "es", "1"), "es", 1, 4, -1)
	stopAfter(t, filepath.Join(root, "es", "2"), "es", 2, 4, 0)

	res, err := experiment.Report(root, filepath.Join(t.TempDir(), "plots"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(res.Summary)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	recs, err := LoadRunRecords(root)
	if err != nil {
		t.Fatal(err)
	}
	groups := GroupRuns(recs)
	if len(rows)-1 != len(groups) || len(groups) != 3 {
		t.Fatalf("report has %d rows, Compare %d groups", len(rows)-1, len(groups))
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	num := func(row []string, name string) float64 {
		s := row[col[name]]
		if s == "" {
			return math.NaN()
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%s %q: %v", name, s, err)
		}
		return v
	}
	want := []struct {
		generator                   string
		generations, runs, finished int
	}{{"es", 4, 2, 1}, {"ga", 4, 4, 3}, {"ga", 6, 1, 0}}
	slices := map[int]bool{}
	for i, g := range groups {
		row := rows[i+1]
		w := want[i]
		if g.Generator != w.generator || g.Generations != w.generations || len(g.Runs) != w.runs || g.Finished != w.finished {
			t.Errorf("group %d: %s %d gens, %d runs, %d finished; want %+v", i, g.Generator, g.Generations, len(g.Runs), g.Finished, w)
		}
		if row[col["generator"]] != g.Generator || int(num(row, "runs")) != len(g.Runs) || int(num(row, "finished")) != g.Finished ||
			int(num(row, "generations")) != g.Generations {
			t.Errorf("group %d: report row %v", i, row)
		}
		for _, pair := range []struct {
			name string
			v    float64
		}{
			{"best_fitness_mean", g.Best.Mean}, {"best_fitness_ci95", g.Best.CI},
			{"feasible_mean", g.Feasible.Mean}, {"feasible_ci95", g.Feasible.CI},
			{"unique_mean", g.Unique.Mean}, {"unique_ci95", g.Unique.CI},
			{"controlled_mean", g.Controlled.Mean}, {"controlled_ci95", g.Controlled.CI},
			{"evaluations_mean", g.Evaluations.Mean},
		} {
			r := num(row, pair.name)
			if !(math.IsNaN(r) && math.IsNaN(pair.v)) && math.Abs(r-pair.v) > 5e-5 {
				t.Errorf("group %d %s: report %v, Compare %v", i, pair.name, r, pair.v)
			}
		}
		slices[len(g.BestCurve.X)] = true
	}
	// The curves include the unfinished runs' generations: the long run's reach 4 (0..3).
	if !slices[5] || !slices[4] {
		t.Errorf("curve lengths %v", slices)
	}
}
