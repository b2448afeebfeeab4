package app

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
)

// uiThread is a window's UI-thread plumbing: the lock that serialises the callbacks its
// background jobs hand to the UI, the record of the longest one, and the count of its jobs
// still running. Each Workbench owns one (wb.ui); its panels start their background work and
// hop to the UI through it. Fyne's real driver runs callbacks one at a time on its main
// goroutine anyway; its test driver runs each on the goroutine that asked, so without the lock
// two background jobs could touch widgets at once in tests (the harness holds it for a test).
type uiThread struct {
	// mu is a pointer so that plumbings can share one lock: the test harness gives every test
	// window the same one, so a closed window's late callback cannot run beside the next
	// test's widget calls (Fyne's test driver and its text shaper are not safe for that).
	mu *sync.Mutex
	// longest is the longest callback run on the UI goroutine, in nanoseconds: the stall it
	// caused (LongestUICallback).
	longest atomic.Int64
	// live counts the goroutines started with goJob that have not returned.
	live atomic.Int64
}

func newUIThread() *uiThread { return &uiThread{mu: new(sync.Mutex)} }

// onUI runs f on the UI goroutine and waits for it. Call it only from a goroutine you started:
// on the UI goroutine it would deadlock.
func (u *uiThread) onUI(f func()) {
	fyne.DoAndWait(func() {
		u.mu.Lock()
		defer u.mu.Unlock()
		start := time.Now()
		f()
		d := int64(time.Since(start))
		for {
			old := u.longest.Load()
			if d <= old || u.longest.CompareAndSwap(old, d) {
				break
			}
		}
	})
}

// longestCallback returns the longest time a callback held the UI goroutine since the last
// reset, and resets the record when reset is true.
func (u *uiThread) longestCallback(reset bool) time.Duration {
	if reset {
		return time.Duration(u.longest.Swap(0))
	}
	return time.Duration(u.longest.Load())
}

// goJob runs f on a goroutine of its own, counted so that waitJobs can wait for it: every
// background job of the window starts here (latest.Go does), so that tests can make sure none
// outlives them.
func (u *uiThread) goJob(f func()) {
	u.live.Add(1)
	go func() {
		defer u.live.Add(-1)
		f()
	}()
}

// waitJobs blocks until every goroutine started with goJob has returned, at most timeout. Not
// on the UI goroutine: the jobs may need it to finish.
func (u *uiThread) waitJobs(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for u.live.Load() > 0 {
		if time.Now().After(deadline) {
			return fmt.Errorf("%d background jobs still running after %v", u.live.Load(), timeout)
		}
		time.Sleep(2 * time.Millisecond)
	}
	return nil
}

// LongestUICallback returns the longest time a background job of this window has held the UI
// goroutine since the last reset, and resets the record when reset is true.
func (wb *Workbench) LongestUICallback(reset bool) time.Duration {
	return wb.ui.longestCallback(reset)
}

// detachedUI is the plumbing of a latest made without a window (the zero value), which the
// shared widgets still use until they take their window's plumbing at construction (#34: they
// move to a package of their own). The test harness holds it with the window's.
var detachedUI = newUIThread()

// latest runs background jobs of which only the newest matters: starting one cancels the one
// before, and only the newest one's result reaches the UI.
type latest struct {
	ui  *uiThread // the window's plumbing (set at construction); nil: detachedUI
	mu  sync.Mutex
	job *latestJob
}

func (l *latest) thread() *uiThread {
	if l.ui == nil {
		return detachedUI
	}
	return l.ui
}

type latestJob struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// Go starts work on its own goroutine. work returns what to do on the UI goroutine with its
// result (nil for nothing); it is run only if no newer job was started meanwhile and ctx was
// not cancelled.
func (l *latest) Go(work func(ctx context.Context) func()) {
	ctx, cancel := context.WithCancel(context.Background())
	j := &latestJob{cancel: cancel, done: make(chan struct{})}
	l.mu.Lock()
	prev := l.job
	l.job = j
	l.mu.Unlock()
	if prev != nil {
		prev.cancel()
	}
	u := l.thread()
	u.goJob(func() {
		defer close(j.done)
		defer cancel()
		apply := func() (apply func()) {
			defer func() {
				if r := recover(); r != nil {
					apply = nil
					fyne.LogError("background job failed", fmt.Errorf("%v", r))
				}
			}()
			return work(ctx)
		}()
		if apply == nil || ctx.Err() != nil {
			return
		}
		u.onUI(func() {
			if l.current(j) && ctx.Err() == nil {
				apply()
			}
		})
	})
}

func (l *latest) current(j *latestJob) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.job == j
}

// Cancel stops the job in flight; its result is dropped.
func (l *latest) Cancel() {
	l.mu.Lock()
	j := l.job
	l.mu.Unlock()
	if j != nil {
		j.cancel()
	}
}

// busy reports whether a job is still running.
func (l *latest) busy() bool {
	l.mu.Lock()
	j := l.job
	l.mu.Unlock()
	if j == nil {
		return false
	}
	select {
	case <-j.done:
		return false
	default:
		return true
	}
}

// wait blocks until the newest job is done and its result applied, at most timeout. It must
// not be called on the UI goroutine.
func (l *latest) wait(timeout time.Duration) error {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		l.mu.Lock()
		j := l.job
		l.mu.Unlock()
		if j == nil {
			return nil
		}
		select {
		case <-j.done:
		case <-deadline.C:
			return fmt.Errorf("still working after %v", timeout)
		}
		if l.current(j) {
			return nil
		}
	}
}

// jobGroup counts a panel's background jobs so tests can wait for them. It is a
// sync.WaitGroup without the trap: a Wait that times out leaves nothing parked behind it, so a
// job may start again at once (a WaitGroup whose Wait goroutine is still parked panics on the
// next Add, "WaitGroup is reused before previous Wait has returned", which turned one failing
// test into a crash of the whole test binary).
type jobGroup struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n drops to 0; nil while no job runs
}

// Add counts delta more jobs (negative: jobs done).
func (g *jobGroup) Add(delta int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.n == 0 && delta > 0 {
		g.idle = make(chan struct{})
	}
	g.n += delta
	switch {
	case g.n < 0:
		panic("jobGroup: more Done than Add")
	case g.n == 0 && g.idle != nil:
		close(g.idle)
		g.idle = nil
	}
}

// Done counts one job done.
func (g *jobGroup) Done() { g.Add(-1) }

// wait reports whether every job was done within timeout (jobs started meanwhile are waited for
// too only if the count never reached zero, as with a WaitGroup).
func (g *jobGroup) wait(timeout time.Duration) bool {
	g.mu.Lock()
	idle := g.idle
	g.mu.Unlock()
	if idle == nil {
		return true
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-idle:
		return true
	case <-t.C:
		return false
	}
}
