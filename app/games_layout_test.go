package app

import (
	"testing"

	"fyne.io/fyne/v2"
)

// relayout lays the window out again at size, as the real driver does on the next frame after
// a widget is shown or hidden (the test canvas does not).
func relayout(wb *Workbench, size fyne.Size) {
	wb.Window.Resize(size.AddWidthHeight(1, 1))
	wb.Window.Resize(size)
}

// onScreen fails unless o lies inside the window's canvas and is laid out at least at its
// minimum size (a button whose label is cut, or that only a sideways scroll reaches, is not).
func onScreen(t *testing.T, wb *Workbench, name string, o fyne.CanvasObject) {
	t.Helper()
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
	size, min, canvas := o.Size(), o.MinSize(), wb.Window.Canvas().Size()
	if !o.Visible() || size.Width < min.Width-0.5 || size.Height < min.Height-0.5 ||
		pos.X < 0 || pos.Y < 0 || pos.X+size.Width > canvas.Width+0.5 || pos.Y+size.Height > canvas.Height+0.5 {
		t.Errorf("%s at %v, size %v (minimum %v), in a canvas of %v", name, pos, size, min, canvas)
	}
}

// TestDuelTabLayoutSurvivesALostGame: when a fault leaves no position, the status still
// wraps at the column's width (it was squeezed to a letter per line) and every button keeps
// its label, at 1280×720 and in a window 1000 wide.
func TestDuelTabLayoutSurvivesALostGame(t *testing.T) {
	dp := newDuelTestPanel(t)
	wb := dp.wb
	wb.showTab("games")
	dp.loadGame(writeScript(t, "lost.star", faultIn("initial_state", "seed", `fail("no board: nothing to draw here at all, whatever the seed")`)))
	waitDuel(t, dp)
	if dp.view != nil || !dp.errorButton.Visible() {
		t.Fatalf("the game did not stop: status %q", dp.status.Text)
	}
	for _, size := range []fyne.Size{fyne.NewSize(1280, 720), fyne.NewSize(1000, 720)} {
		relayout(wb, size)
		for name, o := range map[string]fyne.CanvasObject{"Error details": dp.errorButton, "New game": dp.newGameButton,
			"Undo": dp.undoButton, "Stop": dp.stopButton, "Play seed": dp.seedButton, "Open .star": dp.openButton} {
			onScreen(t, wb, name, o)
		}
		if w := dp.status.Size().Width; w < 300 {
			t.Errorf("at %v the status is %v wide: %q", size, w, dp.status.Text)
		}
	}
}
