package app

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"pcgwb/assets"
)

// The Help menu's guide opens as a dialog and describes every tab by its title and shortcut, so
// a tab added to the table without a word in the guide fails here.
func TestHelpGuideCoversEveryTab(t *testing.T) {
	for i, tab := range tabTable {
		entry := "**" + tab.title + "**"
		if !strings.Contains(assets.Guide, entry) {
			t.Errorf("the guide does not describe the %s tab", tab.title)
		}
		if i < len(tabShortcuts()) && !strings.Contains(assets.Guide, entry+" (Ctrl+"+string(rune('1'+i))+")") {
			t.Errorf("the guide does not give the %s tab's shortcut Ctrl+%d", tab.title, i+1)
		}
	}
	wb := newTestWorkbench(t)
	var guide *fyne.MenuItem
	for _, m := range wb.Window.MainMenu().Items {
		for _, it := range m.Items {
			if m.Label == "Help" && it.Label == "Guide" {
				guide = it
			}
		}
	}
	if guide == nil {
		t.Fatal("no Help → Guide")
	}
	guide.Action()
	top := wb.Window.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("Help → Guide opened nothing")
	}
	if !containsRichText(top, "The three numbers") {
		t.Error("the guide dialog does not show the guide")
	}
	wb.handleKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if n := len(wb.Window.Canvas().Overlays().List()); n != 0 {
		t.Fatalf("Escape left %d dialogs open", n)
	}
}

// containsRichText reports whether a rich text under o holds s.
func containsRichText(o fyne.CanvasObject, s string) bool {
	switch v := o.(type) {
	case *widget.RichText:
		return strings.Contains(v.String(), s)
	case *fyne.Container:
		for _, c := range v.Objects {
			if containsRichText(c, s) {
				return true
			}
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(v).Objects() {
			if containsRichText(c, s) {
				return true
			}
		}
	}
	return false
}
