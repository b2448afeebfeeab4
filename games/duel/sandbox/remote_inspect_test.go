package sandbox

import (
	"context"
	"strings"
	"testing"
)

// TestApplyAnswersTheNextTurn: initial and apply bring the new state's outcome, player and
// legal moves with them, so a move costs one round trip; a fault in that inspection is not
// hidden: the next question asks again and names it.
func TestApplyAnswersTheNextTurn(t *testing.T) {
	pool := &Pool{MaxIdle: 1}
	defer pool.Close()
	src := gameSource("", map[string]string{"legal_actions": `if s["n"] >= 2:
    fail("no moves past 2")
return [0, 1]`})
	r, err := pool.Open(context.Background(), "inspect", []byte(src), SandboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s, err := r.Initial(1)
	if err != nil {
		t.Fatal(err)
	}
	for ply := 0; ; ply++ {
		before := r.p.calls
		o, errO := r.Outcome(s)
		_, errP := r.ToMove(s)
		legal, errL := r.Legal(s)
		if ply < 1 {
			if errO != nil || errP != nil || errL != nil || o.Done() || len(legal) != 2 {
				t.Fatalf("ply %d: %v %v %v %v %v", ply, o, legal, errO, errP, errL)
			}
			if r.p.calls != before {
				t.Errorf("ply %d: %d round trips to read the turn of a state apply made", ply, r.p.calls-before)
			}
			before = r.p.calls
			if s, err = r.Apply(s, 1); err != nil { // n: 0 -> 2
				t.Fatal(err)
			}
			if r.p.calls != before+1 {
				t.Errorf("apply took %d round trips", r.p.calls-before)
			}
			continue
		}
		if errL == nil || !strings.Contains(errL.Error(), "no moves past 2") {
			t.Fatalf("legal_actions' fault hidden: %v %v", legal, errL)
		}
		if r.p.calls != before+1 {
			t.Errorf("the fault was not asked again: %d round trips", r.p.calls-before)
		}
		break
	}
}
