package app

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"pcgwb/problems"
)

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
