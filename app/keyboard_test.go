package app

import (
	"testing"

	"fyne.io/fyne/v2"

	"pcgwb/app/widgets"
)

// tabTo presses Tab (FocusNext) from nothing focused until want accepts the focused widget,
// and returns it: the widget is reachable from the keyboard. It fails when a whole round of
// the window's focusable widgets never reaches one.
func tabTo(t *testing.T, wb *Workbench, what string, want func(fyne.Focusable) bool) fyne.Focusable {
	t.Helper()
	c := wb.Window.Canvas()
	c.Unfocus()
	var first fyne.Focusable
	for i := 0; i < 5000; i++ {
		c.FocusNext()
		f := c.Focused()
		if f == nil || f == first {
			break // no focusable widget, or a whole round
		}
		if first == nil {
			first = f
		}
		if want(f) {
			return f
		}
	}
	t.Fatalf("Tab never reaches %s", what)
	return nil
}

// press sends a key to the focused widget, as the driver does.
func press(t *testing.T, wb *Workbench, keys ...fyne.KeyName) {
	t.Helper()
	f := wb.Window.Canvas().Focused()
	if f == nil {
		t.Fatalf("no widget has the focus for %v", keys)
	}
	for _, k := range keys {
		wb.Window.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: k})
	}
}

// TestKeyboardReachesGalleryCards: Tab reaches the Sample tab's cards, the arrows move from
// card to card (Down by a row of the grid shown), and Enter opens the focused card's details,
// as a click does.
func TestKeyboardReachesGalleryCards(t *testing.T) {
	wb := newTestWorkbench(t)
	wb.showTab("sample")
	sample(t, wb, "12", "3")
	thumbs := wb.samples.gallery.Thumbs()
	f := tabTo(t, wb, "a gallery card", func(f fyne.Focusable) bool { _, ok := f.(*widgets.Thumb); return ok })
	if f != thumbs[0] || !thumbs[0].Focused() {
		t.Fatalf("Tab reached card %v first, want #1", f.(*widgets.Thumb).Index+1)
	}
	press(t, wb, fyne.KeyRight)
	cols := wb.samples.gallery.Columns()
	if wb.Window.Canvas().Focused() != thumbs[1] || thumbs[0].Focused() || cols < 2 {
		t.Fatalf("Right: focus on %v (%d columns)", wb.Window.Canvas().Focused(), cols)
	}
	press(t, wb, fyne.KeyDown)
	if wb.Window.Canvas().Focused() != thumbs[1+cols] {
		t.Fatalf("Down did not move a row (%d columns)", cols)
	}
	press(t, wb, fyne.KeyLeft, fyne.KeyUp, fyne.KeyUp) // Up from the first row stays
	if wb.Window.Canvas().Focused() != thumbs[0] {
		t.Fatal("Left and Up did not reach the first card")
	}
	press(t, wb, fyne.KeyEnd)
	if wb.Window.Canvas().Focused() != thumbs[len(thumbs)-1] {
		t.Fatal("End did not reach the last card")
	}
	if wb.Window.Canvas().Overlays().Top() != nil {
		t.Fatal("a dialog is open before Enter")
	}
	press(t, wb, fyne.KeyReturn)
	if wb.Window.Canvas().Overlays().Top() == nil || !thumbs[len(thumbs)-1].Selected() {
		t.Fatal("Enter did not open the card's details")
	}
}

// TestKeyboardReachesHeatmapCells: Tab reaches the Range tab's heatmap, the arrows move the
// outlined cell (Up goes up the y axis) and Enter lists the cell's levels, as a click does.
func TestKeyboardReachesHeatmapCells(t *testing.T) {
	wb := newTestWorkbench(t)
	sample(t, wb, "40", "4")
	ep := wb.expressive
	wb.showTab("expressive")
	ep.source.SetSelected(sourceSample)
	await(t, ep.wait)
	ep.setAxes("walls", "players")
	h := ep.heatmap()
	best, bx, by := 0, 0, 0
	for y := 0; y < h.y.Bins; y++ {
		for x := 0; x < h.x.Bins; x++ {
			if n := len(h.members[y*h.x.Bins+x]); n > best {
				best, bx, by = n, x, y
			}
		}
	}
	tabTo(t, wb, "the heatmap", func(f fyne.Focusable) bool { return f == ep.Map })
	if ep.Map.selected < 0 || ep.Map.back.StrokeWidth == 0 {
		t.Fatalf("the focused map outlines cell %d, stroke %v", ep.Map.selected, ep.Map.back.StrokeWidth)
	}
	// to the bottom left corner, then to the fullest cell
	for range h.x.Bins + h.y.Bins {
		press(t, wb, fyne.KeyLeft, fyne.KeyDown)
	}
	if ep.Map.selected != 0 {
		t.Fatalf("Left and Down stopped at cell %d", ep.Map.selected)
	}
	for range bx {
		press(t, wb, fyne.KeyRight)
	}
	for range by {
		press(t, wb, fyne.KeyUp)
	}
	if ep.Map.selected != by*h.x.Bins+bx {
		t.Fatalf("the arrows reached cell %d, want %d", ep.Map.selected, by*h.x.Bins+bx)
	}
	press(t, wb, fyne.KeySpace)
	await(t, ep.wait)
	if ep.cell.gallery.Len() != best {
		t.Fatalf("Space listed %d levels, the cell holds %d (%q)", ep.cell.gallery.Len(), best, ep.cellLabel.Text)
	}
	wb.Window.Canvas().Unfocus()
	if ep.Map.back.StrokeWidth != 0 {
		t.Error("the map keeps its focus outline")
	}
}

// TestKeyboardReachesTheEditorCanvas: Tab reaches the editor's picture, the arrows move the
// outlined cell, Space paints it with the tile chosen by its digit key, and Backspace undoes,
// all while the canvas has the focus.
func TestKeyboardReachesTheEditorCanvas(t *testing.T) {
	wb := newTestWorkbench(t)
	ed := wb.editor
	wb.showTab("editor")
	await(t, ed.wait)
	tabTo(t, wb, "the editor's picture", func(f fyne.Focusable) bool { return f == ed.canvas })
	if !ed.canvas.cursor.Visible() {
		t.Fatal("the focused canvas shows no cell")
	}
	ed.Fill(0)
	press(t, wb, fyne.Key2) // the wall tile, by the editor's own key
	if ed.Tile() != 1 {
		t.Fatalf("key 2 chose tile %d", ed.Tile())
	}
	press(t, wb, fyne.KeyHome, fyne.KeyUp, fyne.KeyUp, fyne.KeyDown, fyne.KeyDown, fyne.KeyDown, fyne.KeyRight, fyne.KeyRight, fyne.KeyRight, fyne.KeyRight)
	if r, c := ed.canvas.cursorCell(); r != 3 || c != 4 {
		t.Fatalf("the arrows reached (%d, %d), want (3, 4)", r, c)
	}
	press(t, wb, fyne.KeySpace)
	if ed.Cells()[3][4] != 1 {
		t.Fatalf("Space did not paint (3, 4): %v", ed.Cells()[3])
	}
	press(t, wb, fyne.KeyBackspace)
	if ed.Cells()[3][4] != 0 {
		t.Fatal("Backspace did not undo the painting")
	}
	wb.Window.Canvas().Unfocus()
	if ed.canvas.cursor.Visible() {
		t.Error("the cell stays outlined without the focus")
	}
}
