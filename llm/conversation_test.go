package llm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestAskAllReportsTheFirstFailureInLevelOrder pins the batch's error rule: ctx's error first,
// then the first failure in level order, a cancellation only when nothing else failed, and
// never the "batch stopped" of a level that did not start.
func TestAskAllReportsTheFirstFailureInLevelOrder(t *testing.T) {
	boom, late := errors.New("boom"), errors.New("late")
	tests := []struct {
		name string
		errs []error
		want error
	}{
		{"none", []error{nil, nil, nil}, nil},
		{"one", []error{nil, boom, nil}, boom},
		{"level order", []error{nil, late, boom}, late},
		{"cancellation last resort", []error{context.Canceled, nil, boom}, boom},
		{"only a cancellation", []error{nil, context.Canceled}, context.Canceled},
		{"stopped levels are not the cause", []error{errBatchStopped, boom, errBatchStopped}, boom},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := askAll(context.Background(), len(tt.errs), func(i int, _ *atomic.Bool) outcome {
				return outcome{err: tt.errs[i], replies: i}
			})
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
			if err == nil {
				for i, o := range out {
					if o.replies != i {
						t.Fatalf("outcome %d is level %d's", i, o.replies)
					}
				}
			}
		})
	}
}

// TestAskAllStopsAfterAFailure checks that a failure sets the stop flag the other levels see.
func TestAskAllStopsAfterAFailure(t *testing.T) {
	first := make(chan struct{})
	var sawStop atomic.Bool
	_, err := askAll(context.Background(), 2, func(i int, stop *atomic.Bool) outcome {
		if i == 0 {
			defer close(first)
			return outcome{err: errors.New("boom")}
		}
		<-first
		for !stop.Load() {
			// askAll sets the flag right after level 0 returns; wait for it without a timer.
			runtime.Gosched()
		}
		sawStop.Store(true)
		return outcome{err: errBatchStopped}
	})
	if err == nil || !strings.Contains(err.Error(), "boom") || !sawStop.Load() {
		t.Fatalf("error %v, stop seen %v", err, sawStop.Load())
	}
}

// TestAskAllCancelledIsTheContextsError: a batch whose context is cancelled fails with the
// context's error even when a level failed otherwise, and only once every level has returned.
func TestAskAllCancelledIsTheContextsError(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const n = 4
	first := make(chan struct{})
	var returned atomic.Int32
	_, err := askAll(ctx, n, func(i int, _ *atomic.Bool) outcome {
		defer returned.Add(1)
		if i == 0 {
			defer close(first)
			cancel()
			return outcome{err: errors.New("boom")}
		}
		<-first // the others are still at work when level 0 cancels
		runtime.Gosched()
		return outcome{err: ctx.Err()}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if r := returned.Load(); r != n {
		t.Fatalf("askAll returned while %d of %d levels were still at work", n-r, n)
	}
}

// TestJSONLinesKeepsTheFirstError checks that lines are whole and that the first write error
// is kept while later writes go on.
func TestJSONLinesKeepsTheFirstError(t *testing.T) {
	var buf bytes.Buffer
	l := jsonLines{w: &buf}
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() { defer wg.Done(); l.write(map[string]int{"i": i}) }()
	}
	wg.Wait()
	if n := strings.Count(buf.String(), "\n"); n != 50 || l.Err() != nil {
		t.Fatalf("%d lines, error %v", n, l.Err())
	}
	fw := &failingWriter{failAfter: 1}
	l = jsonLines{w: fw}
	for i := range 3 {
		l.write(i)
	}
	if err := l.Err(); err == nil || err.Error() != "write 2 failed" {
		t.Fatalf("error %v, want the first failure", err)
	}
	var none jsonLines
	none.write("dropped") // no writer: nothing to do, no error
	if none.Err() != nil {
		t.Fatal(none.Err())
	}
}

type failingWriter struct{ n, failAfter int }

func (w *failingWriter) Write(p []byte) (int, error) {
	w.n++
	if w.n > w.failAfter {
		return 0, fmt.Errorf("write %d failed", w.n)
	}
	return len(p), nil
}
