package widgets

import (
	"runtime"
	"slices"
	"strings"
	"testing"
	"weak"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// Hovering a badge explains it; leaving hides the explanation.
func TestBadgeTooltips(t *testing.T) {
	goldenApp(t)
	for _, label := range []string{"Q", "D", "C"} {
		b := NewBadge(label, 0.5)
		w := test.NewWindow(WithTipLayer(container.NewCenter(b), false))
		w.Resize(fyne.NewSize(400, 300))
		b.MouseIn(&desktop.MouseEvent{})
		if got := b.Tooltip(); !strings.Contains(got, "passes at 1.00") || got != badgeTip(label) {
			t.Fatalf("%s: tooltip %q", label, got)
		}
		b.MouseOut()
		if b.Tooltip() != "" {
			t.Fatalf("%s: the tooltip stayed", label)
		}
		w.Close()
	}
}

// A tooltip shows in the window's tip layer while the mouse is over the control, the control
// still gets its hover and its taps, and the tooltip goes when the mouse leaves.
func TestTooltipShowsAndLeavesTapsAlone(t *testing.T) {
	goldenApp(t)
	tapped := 0
	b := widget.NewButton("Start", func() { tapped++ })
	tb := Tip(b, "Starts the run.")
	w := test.NewWindow(WithTipLayer(container.NewCenter(tb), false))
	defer w.Close()
	w.Resize(fyne.NewSize(400, 300))
	test.MoveMouse(w.Canvas(), fyne.NewPos(200, 150))
	if tb.Shown() != "Starts the run." {
		t.Fatalf("hovering shows %q", tb.Shown())
	}
	if w.Canvas().Overlays().Top() != nil {
		t.Fatal("the tooltip is an overlay: it would swallow the next hover and click")
	}
	test.TapCanvas(w.Canvas(), fyne.NewPos(200, 150))
	if tapped != 1 {
		t.Fatalf("the button got %d taps through its tooltip", tapped)
	}
	test.MoveMouse(w.Canvas(), fyne.NewPos(2, 2))
	if tb.Shown() != "" {
		t.Fatal("the tooltip stayed after the mouse left")
	}
	b.Hide()
	if tb.Visible() {
		t.Fatal("a hidden control's tooltip wrapper still takes room")
	}
	var _ desktop.Hoverable = tb.hover
}

// Opening many dialogs forgets their old tip layers, not the window's: its tooltips keep working.
func TestTipLayersKeepTheWindows(t *testing.T) {
	goldenApp(t)
	b := widget.NewButton("Start", nil)
	tb := Tip(b, "Starts the run.")
	w := test.NewWindow(WithTipLayer(container.NewCenter(tb), false))
	defer w.Close()
	w.Resize(fyne.NewSize(400, 300))
	for range 3 * tipLayerLimit {
		WithTipLayer(widget.NewLabel("a dialog's body"), true)
	}
	tipMu.Lock()
	n := len(tipLayers)
	tipMu.Unlock()
	test.MoveMouse(w.Canvas(), fyne.NewPos(200, 150))
	if n > tipLayerLimit || tb.Shown() != "Starts the run." {
		t.Fatalf("%d layers kept; after many dialogs the window's tooltip shows %q", n, tb.Shown())
	}
}

// The registry holds tip layers weakly: a dialog's layer that nothing shows any more is dropped
// once collected, with whatever its tooltip held.
func TestTipLayersAreHeldWeakly(t *testing.T) {
	goldenApp(t)
	var gone []weak.Pointer[fyne.Container]
	for range 5 {
		stack := WithTipLayer(widget.NewLabel("a closed dialog's body"), true).(*fyne.Container)
		gone = append(gone, weak.Make(stack.Objects[1].(*fyne.Container)))
	}
	runtime.GC()
	keep := WithTipLayer(widget.NewLabel("the window"), false) // registering prunes
	tipMu.Lock()
	defer tipMu.Unlock()
	for _, e := range tipLayers {
		if slices.Contains(gone, e.layer) {
			t.Fatal("a layer nothing shows is still registered")
		}
	}
	runtime.KeepAlive(keep)
}
