package agents

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
)

// TestSolverKnowsTheGameValues: tic-tac-toe is a draw, number-line-duel (Kayles on ten) a
// first-player win; a game larger than the solver may visit is refused.
func TestSolverKnowsTheGameValues(t *testing.T) {
	for _, c := range []struct {
		game string
		want float64
	}{{"tic-tac-toe", 0}, {"number-line-duel", 1}} {
		g, err := script.LoadBuiltin(c.game, script.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		s, _ := g.Initial(0)
		sv := &Solver{memo: map[string]float64{}}
		if v, err := sv.value(g, s, 0); err != nil || v != c.want {
			t.Errorf("%s: value %v, %v; want %v", c.game, v, err, c.want)
		}
		small := &Solver{MaxStates: 10}
		legal, _ := g.Legal(s)
		if _, err := small.Act(context.Background(), g, core.Turn{State: s, Legal: legal}, rand.New(rand.NewPCG(1, 0))); !errors.Is(err, ErrTooLarge) || !small.TooLarge() {
			t.Errorf("%s with 10 positions: %v", c.game, err)
		}
	}
}
