package app

import "testing"

// TestWindowFitsASmallScreen: no tab may make the window wider or taller than a 1024×700
// screen (a wide form once pushed it past 1280 pixels, and X refused the screenshot).
func TestWindowFitsASmallScreen(t *testing.T) {
	wb := newTestWorkbench(t)
	for _, name := range TabNames() {
		wb.showTab(name)
		if min := wb.Window.Content().MinSize(); min.Width > 1024 || min.Height > 700 {
			t.Errorf("with the %s tab in front the window needs %v, more than 1024×700", name, min)
		}
	}
}
