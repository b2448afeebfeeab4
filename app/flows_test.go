package app

import (
	"bytes"
	"encoding/csv"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
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
		if !pv.gallery.message.Visible() {
			t.Fatal("no feasible level, but no message")
		}
	} else {
		if pv.gallery.Len() != feasible {
			t.Fatalf("filter shows %d, %d are feasible", pv.gallery.Len(), feasible)
		}
		for _, th := range pv.gallery.Thumbs() {
			if !th.Quality.passed() {
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

func TestEditorPaintsAndRecomputes(t *testing.T) {
	wb := newTestWorkbench(t)
	ed := wb.editor
	wb.showTab("editor")
	await(t, ed.wait)
	if len(ed.Palette) != 3 || ed.canvas.picture() == nil {
		t.Fatalf("palette %d, picture %v", len(ed.Palette), ed.canvas.picture() != nil)
	}
	p, _ := problems.Make(fakeName)
	check := func(what string) {
		t.Helper()
		await(t, ed.wait)
		content := contentOfGrid(ed.Cells())
		info, _ := p.Info(content)
		if q := p.Quality(info); q != ed.lastQuality || ed.quality.Value != q {
			t.Fatalf("%s: quality shown %v, recomputed %v", what, ed.lastQuality, q)
		}
		c := p.Controllability(info, wb.controls.Control())
		if c != ed.lastControllability {
			t.Fatalf("%s: controllability shown %v, recomputed %v", what, ed.lastControllability, c)
		}
	}
	check("loaded")
	// choose the wall tile with its key, then paint a cell by tapping the picture
	ed.handleKey(&fyne.KeyEvent{Name: fyne.Key2})
	if ed.Tile() != 1 || !ed.Palette[1].Selected() {
		t.Fatalf("key 2 chose tile %d", ed.Tile())
	}
	ed.Fill(0)
	check("filled")
	if ed.lastQuality != 0.5 {
		t.Fatalf("an empty room should score 0.5, got %v", ed.lastQuality)
	}
	test.TapAt(ed.canvas, ed.canvas.cellCenter(3, 4))
	if ed.Cells()[3][4] != 1 {
		t.Fatalf("tapping cell (3,4) did not paint it: %v", ed.Cells()[3])
	}
	check("painted")
	ed.setTile(2)
	ed.paint(0, 0) // the player
	check("player")
	if ed.lastQuality != 0.75 {
		t.Fatalf("one player should add 0.25, got %v", ed.lastQuality)
	}
	// a drag paints a stroke, undone in one step
	ed.setTile(1)
	start := ed.canvas.cellCenter(6, 0)
	for col := 0; col < 5; col++ {
		pos := ed.canvas.cellCenter(6, col)
		ed.canvas.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: pos}, Dragged: fyne.NewDelta(pos.X-start.X, 0)})
	}
	ed.canvas.DragEnd()
	for col := 0; col < 5; col++ {
		if ed.Cells()[6][col] != 1 {
			t.Fatalf("the drag missed cell (6,%d)", col)
		}
	}
	check("stroke")
	test.Tap(ed.undoButton)
	if ed.Cells()[6][0] != 0 || ed.Cells()[0][0] != 2 {
		t.Fatal("undo did not take back exactly the stroke")
	}
	check("undone")
	// the target control's slider re-judges the level
	wb.controls.Field("walls").slider.SetValue(1)
	check("control changed")
	if ed.lastElapsed <= 0 || ed.lastElapsed > time.Second || !strings.Contains(ed.timing.Text, "ms") {
		t.Fatalf("timing %v %q", ed.lastElapsed, ed.timing.Text)
	}
}

func TestControlEditorFitsTheRanges(t *testing.T) {
	wb := newTestWorkbench(t)
	f := wb.controls.Field("walls")
	if f == nil || f.slider.Min != 0 || f.slider.Max != fakeMaxWalls-1 || f.slider.Step != 1 {
		t.Fatalf("walls slider %+v", f)
	}
	f.slider.SetValue(12)
	wb.controls.useForSamples.SetChecked(true)
	if got := wb.controls.Control(); got.(map[string]any)["walls"] != 12 {
		t.Fatalf("control %v", got)
	}
	sample(t, wb, "4", "9")
	for _, it := range wb.samples.Last().Levels {
		if it.Control.(map[string]any)["walls"] != 12 {
			t.Fatalf("sampled with control %v", it.Control)
		}
	}
	// the contents are those of an unfixed sample with the same seed
	fixed := itemsFileText(t, []problems.Item{{Content: wb.samples.Last().Levels[0].Content}})
	wb.controls.useForSamples.SetChecked(false)
	sample(t, wb, "4", "9")
	if itemsFileText(t, []problems.Item{{Content: wb.samples.Last().Levels[0].Content}}) != fixed {
		t.Fatal("fixing the control changed the contents")
	}
	// a problem that needs data says why and cannot be run
	if err := wb.selectProblem(missingName); err == nil {
		t.Error("selecting a problem without its data gave no error")
	}
	wait(t, wb)
	if !strings.Contains(wb.description.Text, "needs the test data set") || !wb.run.startButton.Disabled() {
		t.Fatalf("unavailable problem: %q, start disabled %v", wb.description.Text, wb.run.startButton.Disabled())
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

func TestSettingsArePreferences(t *testing.T) {
	wb := newTestWorkbench(t)
	f := wb.showSettings()
	if f.outputDir.Text != defaultOutputDir() || f.theme.Selected != themeDark {
		t.Fatalf("defaults: %q %q", f.outputDir.Text, f.theme.Selected)
	}
	out := t.TempDir()
	f.outputDir.SetText(out)
	f.seed.SetText("77")
	f.theme.SetSelected(themeProjector)
	wb.applySettings(f)
	s := wb.prefs()
	if s.outputDir() != out || s.defaultSeed() != 77 || s.themeName() != themeProjector {
		t.Fatalf("stored: %q %d %q", s.outputDir(), s.defaultSeed(), s.themeName())
	}
	if wb.app.Preferences().String(prefOutputDir) != out {
		t.Fatal("the output folder is not a Fyne preference")
	}
	th, ok := wb.app.Settings().Theme().(*workbenchTheme)
	if !ok || th.Size("text") <= newTheme().Size("text") {
		t.Fatal("the projector theme was not applied")
	}
	// a new workbench starts from the stored seed
	wb2, err := New(wb.app, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer wb2.Window.Close()
	if wb2.samples.seed.Text != "77" || wb2.run.seed.Text != "77" {
		t.Fatalf("new window seeds %q %q", wb2.samples.seed.Text, wb2.run.seed.Text)
	}
	wb.app.Settings().SetTheme(newTheme())
}

func TestShortcutsDriveTheWorkbench(t *testing.T) {
	wb := newRunWorkbench(t)
	if len(tabShortcuts()) != len(tabTable) {
		t.Fatalf("%d tab shortcuts for %d tabs", len(tabShortcuts()), len(tabTable))
	}
	for i, s := range tabShortcuts() {
		wb.handleShortcut(s)
		if wb.tabs.SelectedIndex() != i {
			t.Fatalf("Ctrl+%d shows tab %d", i+1, wb.tabs.SelectedIndex())
		}
		wait(t, wb)
	}
	wb.run.generations.SetText("2")
	wb.run.popSize.SetText("4")
	wb.handleShortcut(shortcutStart)
	if wb.frontTab() != "run" {
		t.Fatal("Ctrl+Enter did not bring the Run tab")
	}
	waitRun(t, wb)
	if wb.run.State() != RunFinished {
		t.Fatalf("Ctrl+Enter: run %v", wb.run.State())
	}
	// from inside an entry too
	wb.run.seed.TypedShortcut(shortcutTabs[0])
	if wb.frontTab() != "sample" {
		t.Fatal("Ctrl+1 in an entry did not switch tabs")
	}
	wb.handleKey(&fyne.KeyEvent{Name: fyne.KeyF1})
	if len(wb.Window.Canvas().Overlays().List()) == 0 {
		t.Fatal("F1 shows no shortcut list")
	}
	wb.handleKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if n := len(wb.Window.Canvas().Overlays().List()); n != 0 {
		t.Fatalf("Escape left %d dialogs open", n)
	}
	if wb.Window.MainMenu() == nil || len(wb.Window.MainMenu().Items) != 4 {
		t.Fatal("no main menu")
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

// Ctrl+Z and Ctrl+Shift+Z reach the editor as Fyne's own Undo and Redo shortcuts.
func TestEditorUndoRedoShortcuts(t *testing.T) {
	wb := newTestWorkbench(t)
	ed := wb.editor
	wb.showTab("editor")
	await(t, ed.wait)
	// what Fyne delivers for Ctrl+Z (the window's canvas and a focused entry both hand it to
	// handleShortcut)
	typed := wb.picker.filter
	before := contentOfGrid(ed.Cells())
	ed.setTile(1)
	ed.Fill(1)
	await(t, ed.wait)
	filled := contentOfGrid(ed.Cells())
	steps := []struct {
		name string
		s    fyne.Shortcut
		want problems.Content
	}{
		{"Ctrl+Z", &fyne.ShortcutUndo{}, before},
		{"Ctrl+Z with nothing left", &fyne.ShortcutUndo{}, before},
		{"Ctrl+Shift+Z", &fyne.ShortcutRedo{}, filled},
		{"Ctrl+Shift+Z with nothing left", &fyne.ShortcutRedo{}, filled},
		{"Ctrl+Z again", &fyne.ShortcutUndo{}, before},
	}
	for _, st := range steps {
		typed.TypedShortcut(st.s)
		await(t, ed.wait)
		if itemsFileText(t, []problems.Item{{Content: contentOfGrid(ed.Cells())}}) != itemsFileText(t, []problems.Item{{Content: st.want}}) {
			t.Fatalf("%s: the level is not the expected one", st.name)
		}
	}
	// on another tab, Ctrl+Z is left to the focused entry
	wb.showTab("sample")
	if wb.handleShortcut(&fyne.ShortcutUndo{}) {
		t.Fatal("Ctrl+Z on the Sample tab was taken by the editor")
	}
}

// Help has About; dialogs close with Escape.
func TestHelpAboutAndEscape(t *testing.T) {
	wb := newTestWorkbench(t)
	menu := wb.Window.MainMenu()
	help := menu.Items[len(menu.Items)-1]
	var about *fyne.MenuItem
	for _, it := range help.Items {
		if strings.HasPrefix(it.Label, "About") {
			about = it
		}
	}
	if help.Label != "Help" || about == nil {
		t.Fatal("no Help → About")
	}
	overlays := wb.Window.Canvas().Overlays()
	wb.Window.Resize(fyne.NewSize(1024, 700)) // the smallest window the workbench supports
	for _, open := range []func(){about.Action, wb.showShortcuts, func() { wb.showSettings() }} {
		open()
		if len(overlays.List()) != 1 {
			t.Fatalf("%d dialogs open", len(overlays.List()))
		}
		if need, have := overlays.Top().MinSize(), wb.Window.Canvas().Size(); need.Width > have.Width || need.Height > have.Height {
			t.Errorf("a dialog needs %v in a %v window", need, have)
		}
		wb.handleKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if len(overlays.List()) != 0 {
			t.Fatal("Escape did not close the dialog")
		}
	}
}

// File dialogs list their entries, say what they do and fit the window.
func TestFileDialogsFitAndSayWhatTheyDo(t *testing.T) {
	for _, tt := range []struct{ window, want, got fyne.Size }{
		{fyne.NewSize(1280, 720), fyne.NewSize(900, 620), fyne.NewSize(900, 620)},
		{fyne.NewSize(1024, 600), fyne.NewSize(900, 620), fyne.NewSize(900, 560)},
		{fyne.NewSize(100, 100), fyne.NewSize(900, 620), fyne.NewSize(200, 160)},
	} {
		if got := fitDialog(tt.window, tt.want); got != tt.got {
			t.Errorf("fitDialog(%v, %v) = %v, want %v", tt.window, tt.want, got, tt.got)
		}
	}
}

// The editor's palette names tiles by the problem's legend ("tile N" without one).
func TestEditorTilesAreNamed(t *testing.T) {
	tests := []struct {
		problem string
		want    []string
	}{
		{"zelda-v0", []string{"wall", "floor", "player", "key", "door", "enemy"}},
		{"sokoban-v0", []string{"wall", "floor", "player", "crate", "target"}},
		{"binary-v0", []string{"solid", "empty"}},
		{fakeName, []string{"tile 0", "tile 1", "tile 2"}},
	}
	for _, tt := range tests {
		t.Run(tt.problem, func(t *testing.T) {
			p, err := problems.Make(tt.problem)
			if err != nil {
				t.Fatal(err)
			}
			g, ok := tileGridOf(p)
			if !ok {
				t.Fatal("not a tile problem")
			}
			if got := tileNames(tt.problem, p, g); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("tile names %v, want %v", got, tt.want)
			}
		})
	}
	wb := newTestWorkbench(t)
	wb.showTab("editor")
	await(t, wb.editor.wait)
	if len(wb.editor.Palette) != 3 || wb.editor.Palette[1].name != "tile 1" {
		t.Fatalf("palette %v", wb.editor.Palette)
	}
}
