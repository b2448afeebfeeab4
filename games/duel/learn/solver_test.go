package learn

import (
	"context"
	"pcgwb/games/duel"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
	"testing"
)

// TestTargetsCeilingOfAGameTooLargeToSolve: a perfect player that gives up is no ceiling (a
// match counts its give-up as its own fault: gridlock read 0 of 200 before).
func TestTargetsCeilingOfAGameTooLargeToSolve(t *testing.T) {
	g, err := script.LoadBuiltin("tic-tac-toe", script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	sv := &agents.Solver{MaxStates: 10}
	pr, err := duel.PlayMatch(context.Background(), g, [2]core.Agent{sv, agents.Random{}}, 2, 1, nil)
	if err != nil || !sv.TooLarge() || pr.AFaults != 2 {
		t.Fatalf("%+v, %v, too large %v", pr, err, sv.TooLarge())
	}
}

func TestVerdict(t *testing.T) {
	for _, c := range []struct {
		iv      duel.Interval
		target  float64
		atLeast bool
		want    string
	}{
		{duel.Interval{Lo: 0.72, Hi: 0.9}, 0.7, true, "met"},
		{duel.Interval{Lo: 0.5, Hi: 0.69}, 0.7, true, "not met"},
		{duel.Interval{Lo: 0.6, Hi: 0.8}, 0.7, true, "undecided"},
		{duel.Interval{Lo: 0, Hi: 0.037}, 0.1, false, "met"},
		{duel.Interval{Lo: 0.11, Hi: 0.3}, 0.1, false, "not met"},
		{duel.Interval{Lo: 0.02, Hi: 0.16}, 0.1, false, "undecided"},
	} {
		if got := Verdict(c.iv, c.target, c.atLeast); got != c.want {
			t.Errorf("Verdict(%+v, %v, %v) = %s, want %s", c.iv, c.target, c.atLeast, got, c.want)
		}
	}
}
