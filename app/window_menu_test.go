package app

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Help → About names the build and the licence, so a bug report can say which build it is.
func TestAboutShowsVersionAndLicence(t *testing.T) {
	wb := newTestWorkbench(t)
	wb.showAbout()
	top := wb.Window.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("About opened nothing")
	}
	p := &presser{wb: wb, o: PressOptions{children: rendererChildren}, rep: &PressReport{}}
	var text string
	p.walk(top, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok {
			text += l.Text + "\n"
		}
	})
	for _, want := range []string{"Version: PCG Workbench", "Licence: MIT", "LICENSE"} {
		if !strings.Contains(text, want) {
			t.Errorf("About does not say %q:\n%s", want, text)
		}
	}
}

// File → Quit has Ctrl+Q, and Ctrl+Q is installed on the window.
func TestQuitHasCtrlQ(t *testing.T) {
	wb := newTestWorkbench(t)
	var quit *fyne.MenuItem
	for _, it := range wb.Window.MainMenu().Items[0].Items {
		if it.IsQuit {
			quit = it
		}
	}
	if quit == nil || quit.Shortcut == nil || quit.Shortcut.ShortcutName() != shortcutQuit.ShortcutName() {
		t.Fatalf("File → Quit is %+v, want the Ctrl+Q shortcut", quit)
	}
	found := false
	for _, s := range wb.shortcutList() {
		found = found || isQuitShortcut(s)
	}
	if !found {
		t.Fatal("Ctrl+Q is not installed on the window")
	}
}
