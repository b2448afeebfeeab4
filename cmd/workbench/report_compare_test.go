package main

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

	"pcgwb/app"
	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

// `workbench report` and the GUI's Compare tab (app.GroupRuns over app.LoadRunRecords) give
// equal numbers for one folder holding finished and unfinished runs.
func TestReportAndCompareTabAgree(t *testing.T) {
	root := t.TempDir()
	record := func(gen string, seed uint64, stop int) {
		dir := filepath.Join(root, gen, strconv.FormatUint(seed, 10))
		r, err := experiment.Create(dir, experiment.Config{Generator: gen, Generations: 3, Options: search.Options{
			Problem: "binary-v0", Fitness: search.FitnessQuality, Seed: seed, PopSize: 10}})
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
			t.Fatal(err)
		}
	}
	for seed := uint64(1); seed <= 3; seed++ {
		record("ga", seed, -1)
		record("es", seed, -1)
	}
	record("ga", 4, 1) // unfinished
	record("es", 4, 0) // unfinished
	code, _, errs := runCLI(t, "report", root, "--out", filepath.Join(t.TempDir(), "plots"))
	if code != 0 {
		t.Fatalf("report: exit %d: %s", code, errs)
	}
	f, err := os.Open(filepath.Join(root, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	recs, err := app.LoadRunRecords(root)
	if err != nil {
		t.Fatal(err)
	}
	groups := app.GroupRuns(recs)
	if len(groups) != 2 || len(rows) != 3 {
		t.Fatalf("%d groups, %d report rows", len(groups), len(rows)-1)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for i, g := range groups {
		row := rows[i+1]
		num := func(name string) float64 {
			v, err := strconv.ParseFloat(row[col[name]], 64)
			if err != nil {
				return math.NaN()
			}
			return v
		}
		if row[col["generator"]] != g.Generator || num("runs") != 4 || num("finished") != float64(g.Finished) || g.Finished != 3 {
			t.Fatalf("row %v, group %s with %d finished", row, g.Generator, g.Finished)
		}
		for name, v := range map[string]float64{
			"best_fitness_mean": g.Best.Mean, "best_fitness_ci95": g.Best.CI, "feasible_mean": g.Feasible.Mean,
			"best_fitness_lo": g.BestIV.Lo, "best_fitness_hi": g.BestIV.Hi, "feasible_frac_mean": g.FeasibleFrac.Mean,
			"feasible_frac_lo": g.FeasibleFrac.Lo, "feasible_frac_hi": g.FeasibleFrac.Hi, "evaluations_mean": g.Evaluations.Mean,
		} {
			if r := num(name); !(math.IsNaN(r) && math.IsNaN(v)) && math.Abs(r-v) > 5e-5 {
				t.Errorf("%s %s: report %v, Compare %v", g.Generator, name, r, v)
			}
		}
		table := app.CompareTable(groups)[i+1]
		if !strings.HasPrefix(table[1], "4 (3 done)") {
			t.Errorf("Compare seeds cell %q", table[1])
		}
	}
}
