package app

import (
	"context"
	"encoding/csv"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
		if g.Generator != w.generator || g.generations != w.generations || len(g.runs) != w.runs || g.Finished != w.finished {
			t.Errorf("group %d: %s %d gens, %d runs, %d finished; want %+v", i, g.Generator, g.generations, len(g.runs), g.Finished, w)
		}
		if row[col["generator"]] != g.Generator || int(num(row, "runs")) != len(g.runs) || int(num(row, "finished")) != g.Finished ||
			int(num(row, "generations")) != g.generations {
			t.Errorf("group %d: report row %v", i, row)
		}
		for _, pair := range []struct {
			name string
			v    float64
		}{
			{"best_fitness_mean", g.Best.Mean}, {"best_fitness_ci95", g.Best.CI},
			{"feasible_mean", g.Feasible.Mean}, {"feasible_ci95", g.Feasible.CI},
			{"unique_mean", g.unique.Mean}, {"unique_ci95", g.unique.CI},
			{"controlled_mean", g.controlled.Mean}, {"controlled_ci95", g.controlled.CI},
			{"evaluations_mean", g.Evaluations.Mean},
			{"best_fitness_lo", g.BestIV.Lo}, {"best_fitness_hi", g.BestIV.Hi},
			{"feasible_frac_mean", g.FeasibleFrac.Mean}, {"feasible_frac_lo", g.FeasibleFrac.Lo}, {"feasible_frac_hi", g.FeasibleFrac.Hi},
			{"unique_frac_mean", g.uniqueFrac.Mean}, {"unique_frac_lo", g.uniqueFrac.Lo}, {"unique_frac_hi", g.uniqueFrac.Hi},
			{"controlled_frac_mean", g.controlledFrac.Mean}, {"controlled_frac_lo", g.controlledFrac.Lo},
			{"controlled_frac_hi", g.controlledFrac.Hi},
		} {
			r := num(row, pair.name)
			if !(math.IsNaN(r) && math.IsNaN(pair.v)) && math.Abs(r-pair.v) > 5e-5 {
				t.Errorf("group %d %s: report %v, Compare %v", i, pair.name, r, pair.v)
			}
		}
		slices[len(g.bestCurve.X)] = true
	}
	// The curves include the unfinished runs' generations: the long run's reach 4 (0..3).
	if !slices[5] || !slices[4] {
		t.Errorf("curve lengths %v", slices)
	}
}

// The Compare table's intervals stay inside the value's range, say when there are too few
// runs, show shares of the population, and name the setting that tells groups apart; a
// single-generation group is one marker.
func TestCompareTableTellsTheTruth(t *testing.T) {
	root := t.TempDir()
	stopAfter(t, filepath.Join(root, "ga", "1"), "ga", 1, 3, -1)
	stopAfter(t, filepath.Join(root, "ga", "2"), "ga", 2, 3, -1)
	stopAfter(t, filepath.Join(root, "ga-long", "1"), "ga", 1, 5, -1)
	stopAfter(t, filepath.Join(root, "random", "1"), "random", 1, 0, -1)
	recs, err := LoadRunRecords(root)
	if err != nil {
		t.Fatal(err)
	}
	groups := GroupRuns(recs)
	rows := CompareTable(groups)
	if len(rows) != 4 {
		t.Fatalf("rows %v", rows)
	}
	for _, tc := range []struct {
		row        int
		label      string
		best, feas string
	}{
		{1, "random · quality", "(1 run)", "%"},
		{2, "ga · quality · pop 8 · 3 gens", "[", "%"},
		{3, "ga · quality · pop 8 · 5 gens", "(1 run)", "%"},
	} {
		r := rows[tc.row]
		if r[0] != tc.label || !strings.Contains(r[3], tc.best) || !strings.Contains(r[4], tc.feas) {
			t.Errorf("row %d: %q", tc.row, r)
		}
	}
	for _, g := range groups {
		for _, iv := range []experiment.Interval{g.FeasibleFrac, g.uniqueFrac, g.controlledFrac} {
			if iv.Mean < 0 || iv.Mean > 1 || !iv.TooFew() && (iv.Lo < 0 || iv.Hi > 1) {
				t.Errorf("%s: fraction interval %+v outside [0, 1]", g.label(false), iv)
			}
		}
	}
	spec := compareFitnessPlot(groups)
	if len(spec.series[0].x) != 1 {
		t.Fatalf("the single-generation group has %d points", len(spec.series[0].x))
	}
	if img := renderPlot(spec, 300, 200); img.Bounds().Dx() != 300 {
		t.Fatal("plot not drawn")
	}
	byEvals := compareFitnessPlotOn(groups, experiment.XEvaluations)
	if byEvals.xLabel != "evaluations" || byEvals.xMax <= float64(groups[2].generations) {
		t.Fatalf("evaluations axis: %s up to %v", byEvals.xLabel, byEvals.xMax)
	}
	if fp := compareFeasiblePlot(groups); fp.yMax != 105 {
		t.Fatalf("feasible plot in %% up to %v", fp.yMax)
	}
}
