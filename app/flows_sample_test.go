package app

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"pcgwb/problems"
)

func TestGallerySortFilterAndDetail(t *testing.T) {
	wb := newRunWorkbench(t)
	rp := wb.run
	startRun(t, wb, "ga", 12, 3)
	waitRun(t, wb)
	pv := rp.population
	pv.sort.SetSelected(string(sortControllability))
	prev := 2.0
	for _, th := range pv.gallery.Thumbs() {
		if th.Controllability.Value > prev {
			t.Fatal("not sorted by controllability")
		}
		prev = th.Controllability.Value
	}
	pv.Filter.SetSelected("Feasible")
	feasible := 0
	for _, m := range pv.Members() {
		if m.Feasible() {
			feasible++
		}
	}
	if feasible == 0 {
		if pv.gallery.Message() == "" {
			t.Fatal("no feasible level, but no message")
		}
	} else {
		if pv.gallery.Len() != feasible {
			t.Fatalf("filter shows %d, %d are feasible", pv.gallery.Len(), feasible)
		}
		for _, th := range pv.gallery.Thumbs() {
			if !th.Quality.Passed() {
				t.Fatal("an infeasible level passed the filter")
			}
		}
	}
	pv.Filter.SetSelected("All levels")
	th := pv.gallery.Thumbs()[2]
	test.Tap(th)
	dv := wb.detail
	if dv == nil || !th.Selected() {
		t.Fatal("tapping a thumbnail did not open it")
	}
	await(t, dv.infos.wait)
	m := pv.Members()[pv.Shown()[2]]
	if !strings.Contains(dv.title.Text, "#"+strconv.Itoa(m.index+1)) || dv.picture == nil {
		t.Fatalf("detail title %q", dv.title.Text)
	}
	if !strings.Contains(dv.info.Text, "walls: ") || !strings.Contains(dv.control.Text, "walls: ") {
		t.Fatalf("detail info %q control %q", dv.info.Text, dv.control.Text)
	}
	if dv.badges[0].Value != m.Quality || dv.badges[2].Value != m.Controllability {
		t.Fatal("detail metrics differ from the member's")
	}
	// Edit tiles opens the editor on this level with its control as the target
	test.Tap(dv.editButton)
	if wb.frontTab() != "editor" {
		t.Fatal("Edit did not switch to the editor")
	}
	await(t, wb.editor.wait)
	if itemsFileText(t, []problems.Item{{Content: contentOfGrid(wb.editor.Cells())}}) != itemsFileText(t, []problems.Item{{Content: m.Content}}) {
		t.Fatal("the editor does not hold the level")
	}
	if wb.editor.lastControllability != m.Controllability || wb.editor.lastQuality != m.Quality {
		t.Fatalf("editor metrics %v %v, level's %v %v", wb.editor.lastQuality, wb.editor.lastControllability, m.Quality, m.Controllability)
	}
}

func TestSampleThumbnailOpensItsLevel(t *testing.T) {
	wb := newTestWorkbench(t)
	sample(t, wb, "6", "2")
	th := wb.samples.gallery.Thumbs()[4]
	test.Tap(th)
	dv := wb.detail
	if dv == nil || !th.Selected() || !strings.HasPrefix(dv.title.Text, "#5 ") {
		t.Fatalf("tapping sample #5 opened %v", dv)
	}
	if dv.member.Info == nil || !strings.Contains(dv.info.Text, "walls") {
		t.Fatalf("the sample's info is not shown: %q", dv.info.Text)
	}
	// Ctrl+E on the Sample tab exports the set
	pv := wb.frontGallery()
	if pv == nil {
		t.Fatal("the Sample tab has nothing to export")
	}
	data, err := exportData(pv, exportJSON)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := problems.Make(fakeName)
	if items, err := problems.DecodeItems(p, data); err != nil || len(items) != 6 {
		t.Fatalf("sample export: %d items, %v", len(items), err)
	}
}

func TestExpressiveRangeOfASample(t *testing.T) {
	wb := newTestWorkbench(t)
	sample(t, wb, "40", "4")
	ep := wb.expressive
	wb.showTab("expressive")
	ep.source.SetSelected(sourceSample)
	await(t, ep.wait)
	ep.setAxes("walls", "players")
	h := ep.heatmap()
	if h == nil || h.x.Field != "walls" || h.y.Field != "players" {
		t.Fatalf("heatmap %+v", h)
	}
	total := 0
	best, bx, by := 0, 0, 0
	for y := 0; y < h.y.Bins; y++ {
		for x := 0; x < h.x.Bins; x++ {
			n := len(h.members[y*h.x.Bins+x])
			total += n
			if n > best {
				best, bx, by = n, x, y
			}
		}
	}
	if total != 40 {
		t.Fatalf("the heatmap holds %d of 40 levels", total)
	}
	test.TapAt(ep.Map, ep.Map.cellCenter(bx, by))
	await(t, ep.wait)
	if ep.cell.gallery.Len() != best || !strings.HasPrefix(ep.cellLabel.Text, strconv.Itoa(best)+" levels with walls") {
		t.Fatalf("cell (%d,%d) holds %d, gallery shows %d (%q)", bx, by, best, ep.cell.gallery.Len(), ep.cellLabel.Text)
	}
	for _, m := range ep.cell.Members() {
		w, _ := m.metric("walls")
		if h.x.bin(w) != bx {
			t.Fatal("a level of another cell is listed")
		}
	}
	checkNotBlank(t, wb.Window.Canvas().Capture(), 40)
}

func TestExpressiveRangeOfAComparedRun(t *testing.T) {
	wb := newTestWorkbench(t)
	root := t.TempDir()
	makeRuns(t, root, []string{"es"}, 2, 2)
	wb.compare.addFolder(root)
	await(t, wb.compare.wait)
	ep := wb.expressive
	wb.showTab("expressive")
	ep.source.SetSelected(comparePrefix + "es · quality")
	await(t, ep.wait)
	h := ep.heatmap()
	if h == nil {
		t.Fatalf("no heatmap: %s", ep.summary.Text)
	}
	n := 0
	for _, m := range h.members {
		n += len(m)
	}
	if n != 8 {
		t.Fatalf("the compared run's heatmap holds %d of 8 levels", n)
	}
}

func TestCompareRunsSideBySide(t *testing.T) {
	wb := newRunWorkbench(t)
	root := t.TempDir()
	makeRuns(t, root, []string{"ga", "random"}, 2, 3)
	wb.showTab("compare")
	wb.compare.addFolder(filepath.Join(root, "ga"))
	await(t, wb.compare.wait)
	wb.compare.addFolder(filepath.Join(root, "random"))
	await(t, wb.compare.wait)
	cp := wb.compare
	if len(cp.Runs()) != 4 || len(cp.Groups()) != 2 {
		t.Fatalf("%d runs in %d groups", len(cp.Runs()), len(cp.Groups()))
	}
	table := cp.tableText()
	if table[1][0] != "random · quality" || table[2][0] != "ga · quality" || table[1][1] != "2" {
		t.Fatalf("table %v", table)
	}
	if got := len(cp.table.Objects); got != 3*len(compareColumns()) {
		t.Fatalf("table shows %d cells", got)
	}
	if len(cp.galleries) != 2 || cp.galleries[0].gallery.Len() != 8 || cp.galleries[1].gallery.Len() != 8 {
		t.Fatal("the galleries are not side by side")
	}
	for i, pv := range []*plotView{cp.fitnessPlot, cp.feasiblePlot} {
		spec := pv.Spec()
		if pv.Image() == nil || len(spec.series) != 2*(i+1) || spec.xMax != 3 { // feasible and controlled lines
			t.Fatalf("compare plot %+v", spec)
		}
	}
	// adding a folder again does not count its runs twice
	cp.addFolder(root)
	await(t, cp.wait)
	if len(cp.Runs()) != 4 {
		t.Fatalf("%d runs after adding again", len(cp.Runs()))
	}
	// the run of the Run tab joins with one button
	startRun(t, wb, "ga", 8, 3)
	waitRun(t, wb)
	test.Tap(cp.addCurrentButton)
	await(t, cp.wait)
	if len(cp.Runs()) != 5 || len(cp.Groups()[1].runs) != 3 {
		t.Fatalf("current run not added: %d runs", len(cp.Runs()))
	}
	checkNotBlank(t, wb.Window.Canvas().Capture(), 60)
	if path := os.Getenv("APP_TEST_CAPTURE_COMPARE"); path != "" {
		savePNG(t, path, wb.Window.Canvas().Capture())
	}
	test.Tap(cp.clearButton)
	if len(cp.Runs()) != 0 || len(cp.galleries) != 0 {
		t.Fatal("clear left runs")
	}
}
