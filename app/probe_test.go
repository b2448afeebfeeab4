package app

import (
	"context"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"pcgwb/games/play"
	"pcgwb/internal/testshared"
	"pcgwb/problems/data"
)

// rendererChildren is the complete walk of the test driver: what each widget's renderer
// draws, so that a control inside a custom widget is found too.
func rendererChildren(o fyne.CanvasObject) []fyne.CanvasObject {
	switch w := o.(type) {
	case *fyne.Container:
		return w.Objects
	case fyne.Widget:
		if r := test.WidgetRenderer(w); r != nil {
			return r.Objects()
		}
	}
	return nil
}

// TestPressEverything is the front door: on a fresh workbench (without the reference's data
// files, with them, and with a run in flight) every tab's enabled buttons, checks and other
// controls, every menu item and every shortcut are pressed, and every dialog they open (file
// dialogs included) is dismissed. Nothing may panic, no goroutine may outlive the workbench,
// and the window must still answer afterwards. The controls are found by walking the widget
// tree, so a button added later is pressed without this test being edited.
func TestPressEverything(t *testing.T) {
	if testing.Short() {
		t.Skip("presses every control of every tab (-short)")
	}
	shared := testshared.Dir(t, "reference-data", "pcg")
	cases := []struct {
		name     string
		dataDir  func(t *testing.T) string
		problem  string
		inFlight bool
	}{
		// smb-v0 needs the reference's data: without it the window offers "Get the data…".
		{"without data files", nil, "smb-v0", false},
		{"with data files", func(*testing.T) string { return shared }, "smb-v0", false},
		{"with a run in flight", nil, fakeName, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			t.Cleanup(func() { checkNoGoroutineLeft(t, before) })
			if tc.dataDir == nil {
				withoutData(t)
			} else {
				t.Setenv(data.EnvVar, tc.dataDir(t))
			}
			t.Setenv("OPENAI_API_KEY", "")
			fakeLaunch(t, &play.Outcome{Result: play.ResultQuit})
			opts := Options{
				Problem:   fakeName,
				OutputDir: t.TempDir(),
				// Get the data… fails at once instead of reaching the network.
				DataSource: filepath.Join(t.TempDir(), "no-such-archive.tar.gz"),
			}
			if tc.inFlight {
				opts.Run = &RunOptions{Generator: "ga", Generations: maxGenerations, Population: 8}
			}
			wb := newTestWorkbench(t, opts)
			if tc.problem != fakeName {
				err := wb.selectProblem(tc.problem)
				if (err == nil) != (tc.dataDir != nil) {
					t.Fatalf("selecting %s: %v", tc.problem, err)
				}
				wait(t, wb)
			}
			if tc.inFlight {
				wb.StartRun()
				eventually(t, "the run to start", func() bool { return wb.run.State() == runRunning })
			}
			var rep *PressReport
			var err error
			letUIRun(func() {
				rep, err = wb.PressEverything(context.Background(), PressOptions{
					children:    rendererChildren,
					keepRunning: tc.inFlight,
				})
			})
			if err != nil {
				t.Fatal(err)
			}
			if tc.inFlight && wb.run.State() != runRunning && !pressedLabel(rep, "Pause") && !pressedLabel(rep, "Cancel") {
				t.Errorf("the run stopped (%v) though nothing paused or cancelled it", wb.run.State())
			}
			// The problem's "Get the data…" dialog opened when it was chosen; the walk dismissed it.
			if tc.dataDir == nil && tc.problem != fakeName && !slices.ContainsFunc(rep.Dialogs, func(s string) bool { return strings.Contains(s, "Get the data…") }) {
				t.Errorf("no Get the data… dialog for a problem missing its data (dialogs: %q)", rep.Dialogs)
			}
			checkPressReport(t, rep, tc.problem == fakeName)
			checkWindowAnswers(t, wb)
		})
	}
}

func pressedLabel(rep *PressReport, label string) bool {
	return slices.ContainsFunc(rep.Pressed, func(s string) bool { return strings.Contains(s, "“"+label) || strings.Contains(s, `"`+label) })
}

// checkPressReport checks that the walk reached what a user reaches: every tab (with
// everyTab, a press in each: the fake problem offers something to press everywhere), the file
// and folder dialogs of the File menu, every menu and every shortcut.
func checkPressReport(t *testing.T, rep *PressReport, everyTab bool) {
	t.Helper()
	for _, tab := range append(TabNames(), "window") {
		if !slices.Contains(rep.Tabs, tab) {
			t.Errorf("tab %s was not walked", tab)
		}
		if everyTab && !slices.ContainsFunc(rep.Pressed, func(s string) bool { return strings.HasPrefix(s, tab+": ") }) {
			t.Errorf("nothing pressed in tab %s", tab)
		}
	}
	for _, want := range []string{"menu: File › Open run folder…", "menu: File › Add run folder to Compare…",
		"menu: Help › About PCG Workbench", "shortcut: Ctrl+O", "key: F1"} {
		if !slices.Contains(rep.Pressed, want) {
			t.Errorf("%q was not pressed", want)
		}
	}
	for _, want := range []string{"Open a run folder", "Add a run folder to Compare", "sample the selected problem"} {
		if !slices.ContainsFunc(rep.Dialogs, func(s string) bool { return strings.Contains(s, want) }) {
			t.Errorf("the dialog %q never opened (dialogs: %q)", want, rep.Dialogs)
		}
	}
	if testing.Verbose() {
		t.Logf("%d presses, %d dialogs; skipped %q", len(rep.Pressed), len(rep.Dialogs), rep.Skipped)
	}
}

// checkWindowAnswers makes sure the window still works after the walk: a tab comes to the
// front, a shortcut opens its dialog, the problem can be sampled.
func checkWindowAnswers(t *testing.T, wb *Workbench) {
	t.Helper()
	if !wb.showTab("compare") || wb.frontTab() != "compare" {
		t.Fatal("the Compare tab does not come to the front")
	}
	wb.handleKey(&fyne.KeyEvent{Name: fyne.KeyF1})
	top := wb.Window.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("F1 opened nothing after the walk")
	}
	wb.Window.Canvas().Overlays().Remove(top)
	if _, _, err := wb.currentProblem(); err == nil {
		wb.samples.Sample()
		wait(t, wb)
	}
}

// checkNoGoroutineLeft waits for the goroutines the workbench started to end: at most a few
// of Fyne's own (its test app keeps its event queue) may remain.
func checkNoGoroutineLeft(t *testing.T, before int) {
	t.Helper()
	const fyneOwn = 4
	deadline := time.Now().Add(waitLimit)
	for runtime.NumGoroutine() > before+fyneOwn {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			n := runtime.Stack(buf, true)
			t.Fatalf("%d goroutines left after the workbench closed (%d before):\n%s", runtime.NumGoroutine(), before, buf[:n])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// The walk finds the file dialog's own buttons and closes it with its Cancel: a dialog shown
// by showFileDialog is a real overlay with a Cancel button.
func TestFileDialogsOpenAndCancel(t *testing.T) {
	wb := newTestWorkbench(t)
	p := &presser{wb: wb, o: PressOptions{children: rendererChildren}, rep: &PressReport{}}
	for _, open := range []func(){
		func() { wb.showOpenFolder(false) },
		func() { wb.showOpenFolder(true) },
		func() { wb.pickFile("Open a level", "Open", t.TempDir(), []string{".json"}, func(string) {}) },
	} {
		open()
		top := wb.Window.Canvas().Overlays().Top()
		if top == nil {
			t.Fatal("no dialog opened")
		}
		if p.dismissButton(top) == nil {
			t.Fatalf("the dialog %q has no Cancel", p.firstText(top))
		}
		p.dismissOverlays()
		if wb.Window.Canvas().Overlays().Top() != nil {
			t.Fatal("the dialog stayed open after Cancel")
		}
	}
}
