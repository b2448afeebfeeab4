package app

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"pcgwb/problems/experiment"
)

// compareTestRuns writes three seeds of ga and of random (3 generations) and one ga run of
// another length under a fresh folder.
func compareTestRuns(t *testing.T) string {
	root := t.TempDir()
	for seed := uint64(1); seed <= 3; seed++ {
		s := strconv.FormatUint(seed, 10)
		stopAfter(t, filepath.Join(root, "ga", s), "ga", seed, 3, -1)
		stopAfter(t, filepath.Join(root, "random", s), "random", seed, 3, -1)
	}
	stopAfter(t, filepath.Join(root, "ga-long", "1"), "ga", 1, 5, -1)
	return root
}

// The Differences tab shows, for the two groups selected, the rows `report --compare` writes
// to differences.csv for them; groups of another problem or fitness are refused.
func TestCompareDifferencesMatchTheReport(t *testing.T) {
	root := compareTestRuns(t)
	if _, err := experiment.ReportWith(context.Background(), root, t.TempDir(), experiment.ReportOptions{Compare: true}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "differences.csv"))
	if err != nil {
		t.Fatal(err)
	}
	csvRows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	wb := newTestWorkbench(t)
	recs, err := LoadRunRecords(root)
	if err != nil {
		t.Fatal(err)
	}
	wb.showTab("compare")
	cp := wb.compare
	cp.addRuns(recs...)
	groups := cp.Groups()
	if len(groups) != 3 || groups[0].Generator != "random" || groups[1].Generator != "ga" {
		t.Fatalf("groups %v", CompareTable(groups))
	}
	// the default pair is the first two groups of one problem and fitness: random and ga
	if cp.diff.a.SelectedIndex() != 0 || cp.diff.b.SelectedIndex() != 1 {
		t.Fatalf("selected %d and %d", cp.diff.a.SelectedIndex(), cp.diff.b.SelectedIndex())
	}
	shown := cp.diff.tableText()
	if !slices.Equal(shown[0], diffColumns()) || len(shown) != 1+len(experiment.Metrics()) {
		t.Fatalf("table %q", shown)
	}
	for _, row := range shown[1:] {
		i := slices.IndexFunc(csvRows, func(r []string) bool {
			return r[2] == row[0] && r[3] == "random" && strings.HasPrefix(r[4], "ga") && r[4] != "ga"
		})
		if i < 0 {
			// the short ga group is "ga pop 8, 3 gens" in the report
			t.Fatalf("no differences.csv row for %q in %q", row, csvRows)
		}
		if want := append([]string{csvRows[i][2]}, csvRows[i][5:]...); !slices.Equal(row, want) {
			t.Errorf("tab %q, report %q", row, want)
		}
	}
	if !strings.Contains(cp.diff.title.Text, "n = 3 seeds") {
		t.Errorf("title %q does not state n", cp.diff.title.Text)
	}
	// b against a: the same rows read the other way
	cp.diff.Select(1, 0)
	back := cp.diff.tableText()
	for i := range back[1:] {
		if back[i+1][1] != shown[i+1][2] || back[i+1][3] != shown[i+1][4] {
			t.Errorf("swapped row %q of %q", back[i+1], shown[i+1])
		}
	}
	cp.diff.Select(1, 1)
	if len(cp.diff.rows) != 0 || !strings.Contains(cp.diff.title.Text, "two different groups") {
		t.Errorf("a group against itself: %q", cp.diff.title.Text)
	}
}

// Compare's table has a Levels column (the levels each run produced), keeps Evaluations in
// view at the default 1280 px, and says so when Clear empties it; groups take their
// generator's colour from the report's table, and feasible and controlled lines differ by dash.
func TestCompareLevelsColumnClearAndColours(t *testing.T) {
	root := compareTestRuns(t)
	stopAfter(t, filepath.Join(root, "random-one", "1"), "random", 1, 0, -1) // a one-run group
	wb := newTestWorkbench(t)
	wb.Window.Resize(fyne.NewSize(1280, 720))
	recs, err := LoadRunRecords(root)
	if err != nil {
		t.Fatal(err)
	}
	wb.showTab("compare")
	cp := wb.compare
	cp.addRuns(recs...)
	if cp.status.Text != "8 runs in 4 groups" {
		t.Errorf("status %q", cp.status.Text)
	}
	table := cp.tableText()
	levels := slices.Index(table[0], "Levels")
	evals := slices.Index(table[0], "Evaluations")
	if levels < 0 || evals < 0 {
		t.Fatalf("header %q", table[0])
	}
	for _, row := range table[1:] {
		if row[levels] != "8" {
			t.Errorf("row %q: %q levels, want 8 (the population)", row[0], row[levels])
		}
	}
	// every header cell, Evaluations the last, ends inside the table's visible width
	scroll := cp.tableScroll.Size().Width
	if scroll < 600 {
		t.Fatalf("table scroll only %v wide", scroll)
	}
	for _, o := range cp.table.Objects[:len(table[0])] {
		if o.Position().X+o.Size().Width > scroll+1 {
			t.Errorf("a header cell ends at %v, past the visible %v", o.Position().X+o.Size().Width, scroll)
		}
	}
	seenDash := false
	for _, g := range cp.Groups() {
		if g.color != experiment.GeneratorColor(g.Generator) {
			t.Errorf("%s: colour %v, report's %v", g.label(false), g.color, experiment.GeneratorColor(g.Generator))
		}
		seenDash = seenDash || g.dashed
	}
	if !seenDash {
		t.Error("the second group of one generator is not dashed")
	}
	spec := compareFeasiblePlot(cp.Groups())
	solid, dotted := 0, 0
	for _, s := range spec.series {
		if s.dotted {
			dotted++
		} else {
			solid++
		}
	}
	if dotted != 4 || solid != 4 {
		t.Errorf("feasible plot: %d dotted (controlled) and %d other lines, want 4 and 4", dotted, solid)
	}
	cp.Clear()
	if cp.status.Text != compareHint || len(cp.Groups()) != 0 || len(cp.diff.rows) != 0 {
		t.Errorf("after Clear: status %q, %d groups, %d differences", cp.status.Text, len(cp.Groups()), len(cp.diff.rows))
	}
}

// On a budget axis a group that spent nothing of it (GA on model calls) is one marker at 0
// with a note in the title, as in report's figures, never hidden.
func TestCompareDrawsAZeroBudgetGroupAtZero(t *testing.T) {
	root := compareTestRuns(t)
	recs, err := LoadRunRecords(root)
	if err != nil {
		t.Fatal(err)
	}
	groups := GroupRuns(recs)
	spec := compareFitnessPlotOn(groups, experiment.XModelCalls)
	for _, s := range spec.series {
		if len(s.x) != 1 || s.x[0] != 0 || !strings.Contains(s.label, experiment.XModelCalls.ZeroNote()) {
			t.Errorf("series %q: x %v", s.label, s.x)
		}
	}
	if !strings.Contains(spec.title, "ga · quality · pop 8 · 3 gens: "+experiment.XModelCalls.ZeroNote()) {
		t.Errorf("title %q", spec.title)
	}
	if spec := compareFitnessPlotOn(groups, experiment.XEvaluations); len(spec.series[0].x) < 2 {
		t.Errorf("evaluations: %d points", len(spec.series[0].x))
	}
}
