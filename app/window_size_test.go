package app

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// The window opens at the size it had when it was last closed (first launch: 1280×720).
func TestWindowSizeIsKept(t *testing.T) {
	a := test.NewTempApp(t)
	open := func() *Workbench {
		o := Options{Problem: fakeName, ui: newTestUIThread()}
		holdUI(t, o.ui)
		wb, err := New(a, o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			wb.Close()
			settle(t, wb.WaitIdle)
			settle(t, jobsOf(wb))
		})
		return wb
	}
	wb := open()
	if got := wb.Window.Canvas().Size(); got != defaultWindow {
		t.Fatalf("first launch at %v, want %v", got, defaultWindow)
	}
	kept := fyne.NewSize(1100, 650)
	wb.Window.Resize(kept)
	wb.Window.Close()
	wb = open()
	if got := wb.Window.Canvas().Size(); got != kept {
		t.Fatalf("reopened at %v, want the size it was closed at, %v", got, kept)
	}
	wb.Window.Resize(fyne.NewSize(10, 10)) // shrunk to nothing: not kept
	wb.Window.Close()
	if got := open().Window.Canvas().Size(); got != kept {
		t.Fatalf("reopened at %v after closing a 10×10 window, want %v", got, kept)
	}
}
