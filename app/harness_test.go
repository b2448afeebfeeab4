package app

import (
	"slices"
	"sync"
	"testing"
	"time"
	_ "unsafe" // go:linkname, for Fyne's renderer cache (closeTestWindow)

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/go-text/typesetting/shaping"
)

// waitLimit bounds every wait of the tests: a job that does not end fails its test instead of
// hanging it. Generous: under -race on a loaded 2-core machine a playtest report (bootstrap and
// plots) took over 20 s; a limit is for hangs, not for speed.
const waitLimit = 2 * time.Minute

// The UI test harness. A UI test's own goroutine is the UI goroutine: holdUI takes the UI lock
// of each window the test makes (and of the widgets made without one, detachedUI) for the whole
// test, so the callbacks that background jobs hand to the UI (onUI) run only while the test
// waits for them (await, settle, eventually, letUIRun) and never at the same time as the test's
// own widget calls, as with the real driver. A test that forgets to wait cannot race: its jobs
// simply cannot show anything yet, and its checks fail. Cleanup cancels the window's background
// work and waits for every job started with goJob, so no job outlives its test.

// heldUI are the UI locks the running test holds, detachedUI's first (tests of this package
// run one at a time: none calls t.Parallel).
var heldUI []*sync.Mutex

// newTestUIThread is a test window's plumbing: its own job count, and the one UI lock that
// every test window and detachedUI share, as the real driver has one UI goroutine. A closed
// window's late callback (a job its cleanup did not see) then waits for the next test to wait,
// instead of running beside that test's widget calls: Fyne's test driver and its text shaper
// are not safe for that (a -count=3 run once crashed in the shaper, index out of range).
func newTestUIThread() *uiThread { return &uiThread{mu: detachedUI.mu} }

// holdUI makes the calling test the UI goroutine of the windows whose plumbing is given, and of
// the widgets made without a window, until it ends.
func holdUI(tb testing.TB, threads ...*uiThread) {
	tb.Helper()
	if len(heldUI) == 0 {
		detachedUI.mu.Lock()
		heldUI = append(heldUI, detachedUI.mu)
		tb.Cleanup(func() {
			for _, mu := range heldUI {
				mu.Unlock()
			}
			heldUI = nil
		})
	}
	for _, u := range threads {
		if !slices.Contains(heldUI, u.mu) {
			u.mu.Lock()
			heldUI = append(heldUI, u.mu)
		}
	}
}

// letUIRun runs f, a wait, with the UI free: the background jobs' callbacks run meanwhile.
// f must only wait (for a job, a channel, a deadline): it runs concurrently with those
// callbacks, so a widget touched in it races with them (go test -race says so). Widgets are
// touched from the test body, which holds the UI.
func letUIRun(f func()) {
	held := heldUI
	for _, mu := range held {
		mu.Unlock()
	}
	defer func() {
		for _, mu := range held {
			mu.Lock()
		}
	}()
	f()
}

// jobsOf waits for every job started with goJob on wb's plumbing and on detachedUI, at most
// timeout (for await and settle).
func jobsOf(wb *Workbench) func(time.Duration) error {
	return func(timeout time.Duration) error {
		deadline := time.Now().Add(timeout)
		if err := wb.ui.waitJobs(timeout); err != nil {
			return err
		}
		return detachedUI.waitJobs(time.Until(deadline))
	}
}

// await waits for background work with the UI free, and fails the test if it does not end.
func await(tb testing.TB, wait func(time.Duration) error) {
	tb.Helper()
	var err error
	letUIRun(func() { err = wait(waitLimit) })
	if err != nil {
		tb.Fatal(err)
	}
}

// settle is await for cleanups: it reports a job that does not end, and goes on.
func settle(tb testing.TB, wait func(time.Duration) error) {
	tb.Helper()
	var err error
	letUIRun(func() { err = wait(waitLimit) })
	if err != nil {
		tb.Error(err)
	}
}

// eventually waits, with the UI free, until cond (read as the UI goroutine) holds.
func eventually(tb testing.TB, what string, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("timed out waiting for %s", what)
		}
		letUIRun(func() { time.Sleep(10 * time.Millisecond) })
	}
}

// newTestWorkbench builds the window on Fyne's test driver, by default with the fake problem
// selected. It is the one way tests make a workbench: it holds the UI for the test and, at
// cleanup, cancels the background work and waits for all of it.
func newTestWorkbench(tb testing.TB, opts ...Options) *Workbench {
	tb.Helper()
	a := test.NewTempApp(tb)
	o := Options{Problem: fakeName}
	if len(opts) > 0 {
		o = opts[0]
	}
	o.ui = newTestUIThread()
	holdUI(tb, o.ui)
	wb, err := New(a, o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		wb.Close()
		settle(tb, wb.WaitIdle)
		settle(tb, jobsOf(wb))
		closeTestWindow(wb.Window)
	})
	wb.Window.Resize(fyne.NewSize(1280, 720))
	wait(tb, wb)
	if name, _, err := wb.currentProblem(); o.Problem != "" && (err != nil || name != o.Problem) {
		tb.Fatalf("problem %q selected (%v), want %q", name, err, o.Problem)
	}
	return wb
}

// closeTestWindow closes a test window and frees what Fyne's caches keep of it, as the real
// driver does. Fyne keeps every widget's renderer in a package-level cache (a renderer holds its
// widget, and a widget's callbacks hold the window). The GLFW driver empties it: a closing
// window destroys the renderers of its trees and the cache entries of its canvas, and its clean
// task destroys, a minute later, every renderer not drawn since (widgets of hidden tabs, of
// closed dialogs, of replaced galleries). The test driver does neither (its Close only forgets
// the window, and its clean runs only inside Capture), so without this every workbench a test
// made stayed in memory to the end of the binary: 126 per pass of the package, ~1.2 GB (found
// with a heap dump: the renderer cache was the only root that reached them).
// TestClosedWorkbenchesAreFreed fails without it.
//
// Tests run one at a time and each closes its windows, so at a test's cleanup every cached
// renderer is expired, as the clean task would find it a minute after the window closed; a
// renderer still needed is made again on the next draw, as after that clean.
func closeTestWindow(w fyne.Window) {
	w.Close()
	later := time.Now().Add(time.Hour)
	fyneDestroyExpiredRenderers(later)
	fyneDestroyExpiredCanvases(later)
	// Fyne's one text shaper keeps its glyph buffer between calls, and the buffer's spare
	// capacity keeps the fonts of old shapings: every test app parses the fonts again (test
	// NewApp clears Fyne's font cache), so without a fresh shaper each pass of the package
	// kept ~1 GB more of parsed fonts (measured: live heap 981, 1943, 2905 MB after passes
	// 1-3; a heap dump showed painter.shaper as their only root). A real app parses them
	// again only on a theme change. The old shaper is replaced, never emptied in place: a
	// goroutine may still be shaping with it. (Fyne's first one is static data and keeps the
	// first test's fonts: bounded.)
	fyneShaper = &shaping.HarfbuzzShaper{}
}

// Fyne's cache clean steps (fyne.io/fyne/v2/internal/cache, v2.8): reached by name because the
// package is internal; a Fyne that renames them fails to link, loudly, rather than leak quietly.
//
//go:linkname fyneDestroyExpiredRenderers fyne.io/fyne/v2/internal/cache.destroyExpiredRenderers
func fyneDestroyExpiredRenderers(now time.Time)

//go:linkname fyneDestroyExpiredCanvases fyne.io/fyne/v2/internal/cache.destroyExpiredCanvases
func fyneDestroyExpiredCanvases(now time.Time)

//go:linkname fyneShaper fyne.io/fyne/v2/internal/painter.shaper
var fyneShaper *shaping.HarfbuzzShaper

// staticShaper is Fyne's first shaper, static data that is never collected.
var staticShaper = fyneShaper

// wait waits until every panel of the workbench is idle.
func wait(tb testing.TB, wb *Workbench) {
	tb.Helper()
	await(tb, wb.WaitIdle)
}

// TestHarnessHoldsTheUI checks the harness's promise: while a test runs, no background
// callback reaches the widgets; they run while it waits.
func TestHarnessHoldsTheUI(t *testing.T) {
	wb := newTestWorkbench(t)
	if wb.ui.mu.TryLock() {
		wb.ui.mu.Unlock()
		t.Fatal("the test does not hold the UI")
	}
	ran := make(chan struct{})
	wb.ui.goJob(func() { wb.ui.onUI(func() { close(ran) }) })
	select {
	case <-ran:
		t.Fatal("a callback ran while the test held the UI")
	default:
	}
	await(t, jobsOf(wb))
	select {
	case <-ran:
	default:
		t.Fatal("the callback did not run while the test waited")
	}
}
