//go:build unix

package validate

import (
	"context"
	"pcgwb/games/duel/sandbox"
	"pcgwb/games/duel/script"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestVerdictUnderLoad: a loaded machine does not change a valid game's verdict, because the
// budgets count CPU time. The load is made exact instead of hoped for: rather than busy-looping
// every core (which also slowed every other package's tests), the sandbox worker is stopped
// (SIGSTOP) for stretches twice its per-call budget, and let run in slices of 2 ms, for
// the whole validation — what a starved process sees, without burning a cycle. The first
// stop comes before the request is sent, so at least the first calls take longer in wall time
// than the per-call budget: a wall-clock budget would reject the game.
func TestVerdictUnderLoad(t *testing.T) {
	ctx := context.Background()
	src := []byte(gameSource("", nil))
	// each stop is twice the per-call budget; each run slice a small part of one call's work
	const callBudget, stopped, running = 50 * time.Millisecond, 100 * time.Millisecond, 2 * time.Millisecond
	opts := Options{SkipSkill: true, Playouts: 1000, Limits: script.Limits{CallTime: callBudget}}
	pool := &sandbox.Pool{Memory: 256 << 20, MaxIdle: 1}
	defer pool.Close()
	idle := Sandboxed(ctx, pool, "race", src, opts, 0)

	// the next validation borrows this (idle, warm) worker
	pids := pool.IdlePIDs()
	if len(pids) != 1 {
		t.Fatalf("%d idle workers after a validation, want 1", len(pids))
	}
	pid := pids[0]
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stop, done := make(chan struct{}), make(chan struct{})
	var stops atomic.Int64
	stops.Add(1)
	go func() {
		defer close(done)
		defer syscall.Kill(pid, syscall.SIGCONT)
		for {
			select {
			case <-stop:
				return
			case <-time.After(stopped):
			}
			syscall.Kill(pid, syscall.SIGCONT)
			select {
			case <-stop:
				return
			case <-time.After(running):
			}
			syscall.Kill(pid, syscall.SIGSTOP)
			stops.Add(1)
		}
	}()
	busy := Sandboxed(ctx, pool, "race", src, opts, 0)
	close(stop)
	<-done
	if !idle.Passed || busy.Passed != idle.Passed || busy.Rejected != idle.Rejected {
		t.Errorf("idle: passed %v (%s), starved (%d stops): passed %v (%s: %s)", idle.Passed, idle.Reason, stops.Load(), busy.Passed, busy.Rejected, busy.Reason)
	}
	t.Logf("the worker was stopped %d times, %v each, during the validation", stops.Load(), stopped)
}
