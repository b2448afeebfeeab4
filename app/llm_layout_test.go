package app

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
)

// tabScroll is the scroll a tab's panel sits in.
func tabScroll(t *testing.T, wb *Workbench, name string) *container.Scroll {
	t.Helper()
	s, ok := wb.tabItems[name].Content.(*container.Scroll)
	if !ok {
		t.Fatalf("the %s tab does not scroll", name)
	}
	return s
}

// TestLLMTabFitsTheWindow: at the default 1280×720 and in a window 1000 wide (the Projector
// look on a 1280 screen), the LLM tab needs no sideways scroll, and Generate, Cancel, Compare
// and the endpoint's Test are on screen at full size without scrolling at all.
func TestLLMTabFitsTheWindow(t *testing.T) {
	wb := newTestWorkbench(t)
	lp := wb.llm()
	wb.showTab("llm")
	for _, size := range []fyne.Size{fyne.NewSize(1280, 720), fyne.NewSize(1000, 720), fyne.NewSize(1280, 720)} {
		relayout(wb, size)
		scroll := tabScroll(t, wb, "llm")
		if min := lp.Content().MinSize(); min.Width > scroll.Size().Width {
			t.Errorf("at %v the tab needs %v wide, its area is %v: a sideways scroll", size, min.Width, scroll.Size().Width)
		}
		for name, o := range map[string]fyne.CanvasObject{"Generate": lp.generateButton, "Cancel": lp.cancelButton,
			"Compare": lp.compareButton, "Test": lp.testButton, "progress": lp.progress} {
			onScreen(t, wb, name, o)
		}
		if w := lp.status.Size().Width; w < 300 {
			t.Errorf("at %v the status is %v wide", size, w)
		}
	}
}
