package app

import (
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/levelio"
)

// TestExportSelectionAsText: the gallery's shown levels (a selection: its filter and order)
// go out as VGLC-style text with a legend and come back in as the same levels.
func TestExportSelectionAsText(t *testing.T) {
	wb := newRunWorkbench(t)
	startRun(t, wb, "ga", 6, 2)
	waitRun(t, wb)
	pv := wb.run.population
	dir := t.TempDir()
	files, err := exportFolder(pv, dir)
	if err != nil {
		t.Fatal(err)
	}
	var txt string
	for _, f := range files {
		if strings.HasSuffix(f, ".txt") {
			txt = f
		}
	}
	if txt == "" {
		t.Fatalf("no text file among %v", files)
	}
	if !filepath.IsAbs(txt) {
		txt = filepath.Join(dir, txt)
	}
	p, _ := problems.Make(fakeName)
	items, err := levelio.LoadLevels(fakeName, p, txt)
	if err != nil {
		t.Fatal(err)
	}
	shown := pv.shownMembers()
	if len(items) != len(shown) {
		t.Fatalf("%d levels came back, %d were shown", len(items), len(shown))
	}
	for i := range items {
		if gridOfContent(items[i].Content) == nil || !equalGrids(gridOfContent(items[i].Content), gridOfContent(shown[i].Content)) {
			t.Fatalf("level %d differs after the round trip", i)
		}
	}
}

func equalGrids(a, b [][]int) bool {
	if len(a) != len(b) {
		return false
	}
	for y := range a {
		if len(a[y]) != len(b[y]) {
			return false
		}
		for x := range a[y] {
			if a[y][x] != b[y][x] {
				return false
			}
		}
	}
	return true
}
