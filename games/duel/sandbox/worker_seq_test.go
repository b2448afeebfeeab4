package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os/exec"
	"pcgwb/games/duel/script"
	"strings"
	"testing"
	"time"
)

// testSlowStartEnv makes the test binary spend slowStartCPU of CPU time before it starts
// (TestMain), as a heavy runtime start-up would.
const testSlowStartEnv = "PCGWB_DUEL_TEST_SLOW_START"

const slowStartCPU = 400 * time.Millisecond

func slowStart() {
	x := 0
	for script.CPUTime() < slowStartCPU {
		for i := 0; i < 1<<16; i++ {
			x += i
		}
	}
	_ = x
}

// TestStartUpIsNotCharged: the CPU a fresh worker spends starting is not charged to the first
// request's budget: a worker that takes 400 ms of CPU to start loads and plays a small game
// under a budget of 150 ms a move, and is charged less than its start-up.
func TestStartUpIsNotCharged(t *testing.T) {
	if testing.Short() {
		t.Skip("starts sandbox workers (-short)")
	}
	t.Setenv(testSlowStartEnv, "1")
	pl := &Pool{}
	defer pl.Close()
	ctx := context.Background()
	b := Budgets{Call: 100 * time.Millisecond, Move: 150 * time.Millisecond, Game: 300 * time.Millisecond}
	r, err := pl.Open(ctx, "race", []byte(gameSource("", nil)), SandboxOptions{Budgets: b})
	if err != nil {
		t.Fatalf("a fresh worker's load was charged its start-up: %v", err)
	}
	defer r.Close()
	if _, err := r.Initial(1); err != nil {
		t.Fatal(err)
	}
	if r.CPU() >= slowStartCPU {
		t.Errorf("charged %s, the worker's start-up took %s", r.CPU(), slowStartCPU)
	}
}

// TestWorkerAnswersOnlyItsRequest: the watchdog that gives up on a request answers for it only
// while it is still in progress. A request that returned between the watchdog's decision and
// its answer has answered for itself; a second answer would be read by the parent as the
// answer to its next request (CI once saw a validation rejected with "the move used more than
// its CPU budget of 300ms", the budget of the request before).
func TestWorkerAnswersOnlyItsRequest(t *testing.T) {
	var out bytes.Buffer
	exited := -1
	w := &worker{out: bufio.NewWriter(&out), exit: func(code int) { exited = code }}
	w.seq = 1 // request 1 returned
	w.die(1, budgetFault("move", time.Second))
	if out.Len() != 0 || exited != -1 {
		t.Fatalf("answered a request that had returned: %q, exit %d", out.Bytes(), exited)
	}
	w.busy, w.seq = true, 2
	w.die(1, budgetFault("move", time.Second))
	if out.Len() != 0 || exited != -1 {
		t.Fatalf("answered request 1 while request 2 ran: %q", out.Bytes())
	}
	w.die(2, budgetFault("move", time.Second))
	var rep workerReply
	if err := readFrame(&out, maxReply, &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.Exiting || rep.Seq != 2 || rep.Fault == nil || exited != 0 {
		t.Errorf("the request in progress was not answered: %+v, exit %d", rep, exited)
	}
}

// TestParentRejectsAnAnswerToAnotherRequest: an answer numbered for another request is a
// fault of the worker, not the answer to the request asked.
func TestParentRejectsAnAnswerToAnotherRequest(t *testing.T) {
	reqR, reqW := io.Pipe()
	repR, repW := io.Pipe()
	p := &proc{cmd: &exec.Cmd{}, stdin: reqW, stdout: bufio.NewReader(repR), stderr: &tailBuffer{}, exited: make(chan struct{})}
	go func() {
		defer close(p.exited)
		in := bufio.NewReader(reqR)
		for seq := uint64(1); ; seq++ {
			var req workerRequest
			if readFrame(in, maxRequest, &req) != nil {
				return
			}
			if req.Op == "stale" {
				seq-- // the answer to the request before
			}
			if writeFrame(repW, workerReply{Seq: seq, Text: req.Op}) != nil {
				return
			}
		}
	}()
	defer p.kill()
	if rep, err := p.call(context.Background(), workerRequest{Op: "first"}); err != nil || rep.Text != "first" {
		t.Fatalf("first request: %+v %v", rep, err)
	}
	_, err := p.call(context.Background(), workerRequest{Op: "stale"})
	if err == nil || !strings.Contains(err.Error(), "answered request 1 when asked request 2") {
		t.Fatalf("a stale answer was taken: %v", err)
	}
	if p.dead == nil {
		t.Error("the worker is still used")
	}
}
