package app

import (
	"bytes"
	"encoding/csv"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"pcgwb/problems"
	"pcgwb/problems/experiment"
)

// newRunWorkbench is a workbench whose runs go to a temporary folder.
func newRunWorkbench(t *testing.T) *Workbench {
	t.Helper()
	wb := newTestWorkbench(t)
	wb.outputDirOverride = t.TempDir()
	return wb
}

func startRun(t *testing.T, wb *Workbench, generator string, pop, gens int) {
	t.Helper()
	rp := wb.run
	rp.generator.SetSelected(generator)
	rp.popSize.SetText(strconv.Itoa(pop))
	rp.generations.SetText(strconv.Itoa(gens))
	rp.seed.SetText("3")
	test.Tap(rp.startButton)
}

func waitRun(t *testing.T, wb *Workbench) {
	t.Helper()
	await(t, wb.run.wait)
}

func TestRunShowsPlotsAndPopulation(t *testing.T) {
	wb := newRunWorkbench(t)
	rp := wb.run
	wb.showTab("run")
	if !rp.pauseButton.Disabled() || rp.startButton.Disabled() {
		t.Errorf("before a run: pause disabled %v, start disabled %v; want only start enabled", rp.pauseButton.Disabled(), rp.startButton.Disabled())
	}
	startRun(t, wb, "ga", 10, 6)
	waitRun(t, wb)
	if rp.State() != RunFinished {
		t.Fatalf("state %v: %s", rp.State(), rp.errorText.Text)
	}
	rec := rp.Record()
	if rec == nil || len(rec.Events) != 7 || !rec.Finished() {
		t.Fatalf("record: %+v", rec)
	}
	for i, ev := range rec.Events {
		if ev.Generation != i {
			t.Fatalf("event %d is generation %d", i, ev.Generation)
		}
	}
	if rp.progress.Value != 6 || rp.progress.Max != 6 {
		t.Fatalf("progress %v / %v", rp.progress.Value, rp.progress.Max)
	}
	if !strings.Contains(rp.status.Text, "best") || !strings.Contains(rp.status.Text, "feasible") {
		t.Fatalf("status %q", rp.status.Text)
	}
	if _, err := os.Stat(filepath.Join(rec.Dir, experiment.FinalFile)); err != nil {
		t.Fatalf("no run folder: %v", err)
	}
	if !strings.HasPrefix(rec.Dir, wb.outputDirOverride) {
		t.Fatalf("run folder %s is not in the output folder", rec.Dir)
	}
	// plots: the last events, drawn
	for _, pv := range []*plotView{rp.fitnessPlot, rp.countsPlot} {
		if pv.Image() == nil {
			t.Fatal("a plot was not drawn")
		}
		if n := len(pv.Spec().series[0].x); n != 7 {
			t.Fatalf("plot shows %d generations", n)
		}
	}
	if got := rp.countsPlot.Spec().series[0].y[6]; got != float64(rec.Final.Feasible) {
		t.Fatalf("feasible curve ends at %v, final has %d", got, rec.Final.Feasible)
	}
	// no new data, no redraw: TestRunRedrawsOnlyOnNewData
	// the final population, best first
	if got := rp.population.gallery.Len(); got != 10 {
		t.Fatalf("gallery has %d levels", got)
	}
	ms := rp.population.Members()
	for i := 1; i < len(ms); i++ {
		if ms[i].Fitness > ms[i-1].Fitness {
			t.Fatal("the population is not best first")
		}
	}
	checkNotBlank(t, wb.Window.Canvas().Capture(), 60)
	if path := os.Getenv("APP_TEST_CAPTURE_RUN"); path != "" {
		savePNG(t, path, wb.Window.Canvas().Capture())
	}
	// a new run starts in a new folder
	first := rec.Dir
	startRun(t, wb, "es", 6, 2)
	waitRun(t, wb)
	if rp.Record().Dir == first || rp.State() != RunFinished || rp.population.gallery.Len() != 6 {
		t.Fatalf("second run: %s, %v, %d levels", rp.Record().Dir, rp.State(), rp.population.gallery.Len())
	}
}

func TestRunPauseResumeCancel(t *testing.T) {
	wb := newRunWorkbench(t)
	if err := wb.selectProblem(slowName); err != nil {
		t.Fatal(err)
	}
	wait(t, wb)
	rp := wb.run
	startRun(t, wb, "ga", 4, 60)
	await(t, func(d time.Duration) error { return rp.waitForGeneration(2, d) })
	if rp.State() != runRunning || !rp.startButton.Disabled() || rp.pauseButton.Disabled() {
		t.Errorf("running: state %v, start disabled %v, pause disabled %v", rp.State(), rp.startButton.Disabled(), rp.pauseButton.Disabled())
	}
	test.Tap(rp.pauseButton)
	waitRun(t, wb)
	if rp.State() != runPaused || rp.startButton.Text != "Resume" || rp.startButton.Disabled() {
		t.Fatalf("paused: state %v, start %q", rp.State(), rp.startButton.Text)
	}
	paused := rp.Record().Generation()
	if paused < 2 || paused >= 60 {
		t.Fatalf("paused at generation %d", paused)
	}
	if rp.population.gallery.Len() != 4 {
		t.Fatalf("the paused population is not shown (%d levels)", rp.population.gallery.Len())
	}
	test.Tap(rp.startButton)
	await(t, func(d time.Duration) error { return rp.waitForGeneration(paused+2, d) })
	test.Tap(rp.cancelButton)
	waitRun(t, wb)
	if rp.State() != runCancelled || rp.startButton.Text != "Start" {
		t.Fatalf("cancelled: state %v", rp.State())
	}
	evs := rp.Record().Events
	for i, ev := range evs {
		if ev.Generation != i {
			t.Fatalf("after resume, event %d is generation %d", i, ev.Generation)
		}
	}
	if evs[len(evs)-1].Generation <= paused {
		t.Fatal("the resumed run did not advance")
	}
	// the cancelled folder opens as a paused run, and resuming it finishes it
	dir := rp.Record().Dir
	if err := wb.openRunFolder(dir); err != nil {
		t.Error(err)
	}
	if rp.State() != runPaused || wb.frontTab() != "run" {
		t.Fatalf("opened: state %v", rp.State())
	}
}

func TestMapElitesArchiveShownAsHeatmap(t *testing.T) {
	wb := newRunWorkbench(t)
	rp := wb.run
	rp.generator.SetSelected("mapelites")
	await(t, rp.axisJobs.wait)
	rp.axisX.SetSelected("walls")
	rp.axisY.SetSelected("players")
	rp.bins.SetText("6")
	startRun(t, wb, "mapelites", 10, 4)
	waitRun(t, wb)
	if rp.State() != RunFinished {
		t.Fatalf("state %v: %s", rp.State(), rp.errorText.Text)
	}
	archive := rp.Record().Archive()
	if archive == nil || archive.Filled == 0 {
		t.Fatal("no archive recorded")
	}
	ep := wb.expressive
	wb.showTab("expressive")
	ep.source.SetSelected(sourceRun)
	await(t, ep.wait)
	ep.view.SetSelected(viewArchive)
	h := ep.heatmap()
	if h == nil || h.filled() != archive.Filled || h.x.Field != "walls" || h.x.Bins != archive.Axes[0].Bins {
		t.Fatalf("archive heatmap %+v", h)
	}
	c := archive.Cells[0]
	ep.selectCell(c.X, c.Y)
	await(t, ep.wait)
	if ep.cell.gallery.Len() != 1 || ep.cell.Members()[0].Fitness != c.Fitness {
		t.Fatalf("the elite of cell (%d,%d) is not listed", c.X, c.Y)
	}
}

func TestExportAndSaveRunFolder(t *testing.T) {
	wb := newRunWorkbench(t)
	startRun(t, wb, "ga", 6, 2)
	waitRun(t, wb)
	pv := wb.run.population
	dir := t.TempDir()
	p, _ := problems.Make(fakeName)
	for _, f := range exportFormats() {
		path := filepath.Join(dir, "levels"+exportExtension(f))
		if err := exportTo(pv, f, path); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		switch f {
		case exportJSON:
			items, err := problems.DecodeItems(p, data)
			if err != nil || len(items) != 6 {
				t.Fatalf("JSON export: %d items, %v", len(items), err)
			}
		case exportCSV:
			rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
			if err != nil || len(rows) != 7 || rows[0][1] != "quality" {
				t.Fatalf("CSV export: %d rows, %v", len(rows), err)
			}
		case exportPNG:
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil || img.Bounds().Dx() < 176*2 {
				t.Fatalf("PNG export: %v", err)
			}
		}
	}
	// the filter narrows what is exported
	pv.Filter.SetSelected("All three pass")
	want := len(selectMembers(pv.Members(), filterNamed("All three pass"), sortOriginal))
	if want > 0 {
		data, err := exportData(pv, exportJSON)
		if err != nil {
			t.Fatal(err)
		}
		if items, _ := problems.DecodeItems(p, data); len(items) != want {
			t.Fatalf("filtered export has %d items, want %d", len(items), want)
		}
	} else if _, err := exportData(pv, exportJSON); err == nil {
		t.Fatal("exporting an empty selection should fail")
	}
	// save the run folder elsewhere and open the copy
	src := wb.run.Record().Dir
	copyDir, err := saveRunAs(src, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := saveRunAs(src, filepath.Dir(src)); err == nil {
		t.Fatal("saving a run onto itself should fail")
	}
	pv.Filter.SetSelected("All levels")
	if err := wb.openRunFolder(copyDir); err != nil {
		t.Error(err)
	}
	await(t, wb.run.population.wait)
	if wb.run.Record().Dir != copyDir || wb.run.State() != RunFinished || wb.run.population.gallery.Len() != 6 {
		t.Fatalf("opened copy: %s %v", wb.run.Record().Dir, wb.run.State())
	}
}
