package app

import (
	"testing"

	"fyne.io/fyne/v2"
)

// In a narrow window (Projector on a 1280-pixel screen at 1.5×: about 860 logical pixels) the
// Sample tab's toolbar wraps and the Sample button stays in view, without a sideways scroll.
func TestSampleButtonStaysInViewWhenNarrow(t *testing.T) {
	wb := newTestWorkbench(t)
	wb.app.Settings().SetTheme(newThemeNamed(themeProjector))
	wb.showTab("sample")
	wb.Window.Resize(fyne.NewSize(860, 560))
	d := fyne.CurrentApp().Driver()
	b := wb.samples.sampleButton
	tabs := d.AbsolutePositionForObject(wb.tabs)
	at := d.AbsolutePositionForObject(b)
	if right := tabs.X + wb.tabs.Size().Width; at.X+b.Size().Width > right || b.Size().Width < b.MinSize().Width {
		t.Fatalf("the Sample button spans %v…%v (width %v of %v), the tab ends at %v",
			at.X, at.X+b.Size().Width, b.Size().Width, b.MinSize().Width, right)
	}
}
