package app

import (
	"fmt"
	"runtime"
	"testing"
	"weak"

	"fyne.io/fyne/v2/test"
	"github.com/go-text/typesetting/shaping"
)

// TestClosedWorkbenchesAreFreed runs a representative session several times, each in a window
// of its own that its test closes, and checks that no closed window's Workbench stays in
// memory: nothing global (Fyne's caches, the UI plumbing, tooltips, listeners, jobs) may keep
// one. It is what kept `go test -count=N ./app` growing by a gigabyte a pass.
func TestClosedWorkbenchesAreFreed(t *testing.T) {
	const sessions = 3
	var left []weak.Pointer[Workbench]
	var shapers []weak.Pointer[shaping.HarfbuzzShaper] // Fyne's text shaper of each session, which keeps fonts
	for i := range sessions {
		t.Run(fmt.Sprint("session ", i), func(t *testing.T) {
			wb := newRunWorkbench(t)
			left = append(left, weak.Make(wb))
			sample(t, wb, "6", fmt.Sprint(i+1))
			test.Tap(wb.samples.gallery.Thumbs()[1]) // the level's detail
			if wb.detail == nil {
				t.Fatal("no detail opened")
			}
			startRun(t, wb, "ga", 8, 2)
			waitRun(t, wb)
			if rec := wb.run.Record(); rec == nil || !rec.Finished() {
				t.Fatalf("the run did not finish: %s", wb.run.errorText.Text)
			}
			wb.compare.addFolder(wb.run.Record().Dir)
			for _, name := range TabNames() {
				wb.showTab(name)
			}
			wait(t, wb)
			if s := fyneShaper; s != staticShaper {
				shapers = append(shapers, weak.Make(s))
			}
		})
	}
	// Two collections: the first may run finalizers (Fyne sets some) that let go of more.
	runtime.GC()
	runtime.GC()
	kept := 0
	for _, p := range left {
		if p.Value() != nil {
			kept++
		}
	}
	if kept > 0 {
		t.Fatalf("%d of %d closed workbenches are still in memory", kept, sessions)
	}
	if len(shapers) < sessions-1 {
		t.Fatalf("%d sessions had a shaper of their own, want %d at least", len(shapers), sessions-1)
	}
	for _, p := range shapers {
		if p.Value() != nil {
			t.Fatal("the text shaper of a closed session, with the fonts its buffer keeps, is still in memory")
		}
	}
}
