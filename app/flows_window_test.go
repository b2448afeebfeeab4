package app

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
)

func TestSettingsArePreferences(t *testing.T) {
	wb := newTestWorkbench(t)
	f := wb.showSettings()
	if f.outputDir.Text != defaultOutputDir() || f.theme.Selected != themeDark {
		t.Fatalf("defaults: %q %q", f.outputDir.Text, f.theme.Selected)
	}
	out := t.TempDir()
	f.outputDir.SetText(out)
	f.seed.SetText("77")
	f.theme.SetSelected(themeProjector)
	wb.applySettings(f)
	s := wb.prefs()
	if s.outputDir() != out || s.defaultSeed() != 77 || s.themeName() != themeProjector {
		t.Fatalf("stored: %q %d %q", s.outputDir(), s.defaultSeed(), s.themeName())
	}
	if wb.app.Preferences().String(prefOutputDir) != out {
		t.Fatal("the output folder is not a Fyne preference")
	}
	th, ok := wb.app.Settings().Theme().(*workbenchTheme)
	if !ok || th.Size("text") <= newTheme().Size("text") {
		t.Fatal("the projector theme was not applied")
	}
	// a new workbench starts from the stored seed
	o2 := Options{ui: newTestUIThread()}
	holdUI(t, o2.ui) // its jobs' callbacks wait for the test, as the first window's do
	wb2, err := New(wb.app, o2)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		wb2.Close()
		settle(t, jobsOf(wb2))
		closeTestWindow(wb2.Window)
	}()
	if wb2.samples.seed.Text != "77" || wb2.run.seed.Text != "77" {
		t.Fatalf("new window seeds %q %q", wb2.samples.seed.Text, wb2.run.seed.Text)
	}
	wb.app.Settings().SetTheme(newTheme())
}

func TestShortcutsDriveTheWorkbench(t *testing.T) {
	wb := newRunWorkbench(t)
	if len(tabShortcuts()) != len(tabTable) {
		t.Fatalf("%d tab shortcuts for %d tabs", len(tabShortcuts()), len(tabTable))
	}
	for i, s := range tabShortcuts() {
		wb.handleShortcut(s)
		if wb.tabs.SelectedIndex() != i {
			t.Fatalf("Ctrl+%d shows tab %d", i+1, wb.tabs.SelectedIndex())
		}
		wait(t, wb)
	}
	wb.run.generations.SetText("2")
	wb.run.popSize.SetText("4")
	wb.handleShortcut(shortcutStart)
	if wb.frontTab() != "run" {
		t.Fatal("Ctrl+Enter did not bring the Run tab")
	}
	waitRun(t, wb)
	if wb.run.State() != RunFinished {
		t.Fatalf("Ctrl+Enter: run %v", wb.run.State())
	}
	// from inside an entry too
	wb.run.seed.TypedShortcut(shortcutTabs[0])
	if wb.frontTab() != "sample" {
		t.Fatal("Ctrl+1 in an entry did not switch tabs")
	}
	wb.handleKey(&fyne.KeyEvent{Name: fyne.KeyF1})
	if len(wb.Window.Canvas().Overlays().List()) == 0 {
		t.Fatal("F1 shows no shortcut list")
	}
	wb.handleKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if n := len(wb.Window.Canvas().Overlays().List()); n != 0 {
		t.Fatalf("Escape left %d dialogs open", n)
	}
	if wb.Window.MainMenu() == nil || len(wb.Window.MainMenu().Items) != 4 {
		t.Fatal("no main menu")
	}
}

// Help has About; dialogs close with Escape.
func TestHelpAboutAndEscape(t *testing.T) {
	wb := newTestWorkbench(t)
	menu := wb.Window.MainMenu()
	help := menu.Items[len(menu.Items)-1]
	var about *fyne.MenuItem
	for _, it := range help.Items {
		if strings.HasPrefix(it.Label, "About") {
			about = it
		}
	}
	if help.Label != "Help" || about == nil {
		t.Fatal("no Help → About")
	}
	overlays := wb.Window.Canvas().Overlays()
	wb.Window.Resize(fyne.NewSize(1024, 700)) // the smallest window the workbench supports
	for _, open := range []func(){about.Action, wb.showShortcuts, func() { wb.showSettings() }} {
		open()
		if len(overlays.List()) != 1 {
			t.Fatalf("%d dialogs open", len(overlays.List()))
		}
		if need, have := overlays.Top().MinSize(), wb.Window.Canvas().Size(); need.Width > have.Width || need.Height > have.Height {
			t.Errorf("a dialog needs %v in a %v window", need, have)
		}
		wb.handleKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if len(overlays.List()) != 0 {
			t.Fatal("Escape did not close the dialog")
		}
	}
}

// File dialogs list their entries, say what they do and fit the window.
func TestFileDialogsFitAndSayWhatTheyDo(t *testing.T) {
	for _, tt := range []struct{ window, want, got fyne.Size }{
		{fyne.NewSize(1280, 720), fyne.NewSize(900, 620), fyne.NewSize(900, 620)},
		{fyne.NewSize(1024, 600), fyne.NewSize(900, 620), fyne.NewSize(900, 560)},
		{fyne.NewSize(100, 100), fyne.NewSize(900, 620), fyne.NewSize(200, 160)},
	} {
		if got := fitDialog(tt.window, tt.want); got != tt.got {
			t.Errorf("fitDialog(%v, %v) = %v, want %v", tt.window, tt.want, got, tt.got)
		}
	}
}
