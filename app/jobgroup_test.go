package app

import (
	"testing"
	"time"
)

// A Wait that timed out must not stop jobs from starting again: with a sync.WaitGroup, the
// goroutine still parked in Wait made the next Add panic.
func TestJobGroupWaitThatTimedOutLeavesItReusable(t *testing.T) {
	var g jobGroup
	if !g.wait(time.Millisecond) {
		t.Fatal("an idle group is not done")
	}
	release := make(chan struct{})
	g.Add(1)
	go func() {
		defer g.Done()
		<-release
	}()
	if g.wait(time.Millisecond) {
		t.Fatal("Wait returned done while a job runs")
	}
	close(release)
	if !g.wait(time.Minute) {
		t.Fatal("the job did not end")
	}
	// Start and finish jobs again and again right after waits that timed out.
	for i := 0; i < 100; i++ {
		block := make(chan struct{})
		g.Add(1)
		go func() {
			defer g.Done()
			<-block
		}()
		if g.wait(0) {
			t.Fatalf("round %d: done while a job runs", i)
		}
		close(block)
		if !g.wait(time.Minute) {
			t.Fatalf("round %d: the job did not end", i)
		}
	}
}

func TestJobGroupDoneWithoutAddPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("Done without Add did not panic")
		}
	}()
	var g jobGroup
	g.Done()
}
