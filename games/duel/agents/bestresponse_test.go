package agents

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
)

// forkGame is a two-move game small enough to solve by hand: the first player picks 0 or 1,
// the second picks 0, 1 or 2; after a first move of 0 the second player wins only with 2,
// after 1 only with 0. Positions: 0 the start, 1+a after the first move, 10+3a+b at the end.
// With cycle set, the first move 1 leads back to the start.
type forkGame struct{ cycle bool }

func (forkGame) Info() core.Info                            { return core.Info{Name: "fork", NumActions: 3} }
func (forkGame) Initial(int64) (core.State, error)          { return 0, nil }
func (forkGame) Observe(core.State, int) ([]float64, error) { return nil, nil }
func (forkGame) Render(core.State) (string, error)          { return "", nil }
func (forkGame) ActionLabel(core.State, int) (string, error) {
	return "", nil
}
func (forkGame) ToMove(s core.State) (int, error) {
	if s.(int) == 0 {
		return 0, nil
	}
	return 1, nil
}
func (forkGame) Legal(s core.State) ([]int, error) {
	if s.(int) == 0 {
		return []int{0, 1}, nil
	}
	return []int{0, 1, 2}, nil
}
func (g forkGame) Apply(s core.State, a int) (core.State, error) {
	if s.(int) == 0 {
		if g.cycle && a == 1 {
			return 0, nil
		}
		return 1 + a, nil
	}
	return 10 + 3*(s.(int)-1) + a, nil
}
func (forkGame) Outcome(s core.State) (core.Outcome, error) {
	switch s.(int) {
	case 0, 1, 2:
		return core.Ongoing, nil
	case 12, 13: // first move 0 then 2; first move 1 then 0
		return core.SecondWins, nil
	}
	return core.FirstWins, nil
}

// TestBestRespondMatchesHandValues: against the first-legal player the best response wins
// every game from both seats; against a uniformly random second player the first player's
// best is 2/3 (either first move leaves one losing reply of three), and as the second player
// it always wins (it sees the first move and picks the winning reply).
func TestBestRespondMatchesHandValues(t *testing.T) {
	ctx := context.Background()
	tab, err := Enumerate(ctx, forkGame{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Positions() != 9 {
		t.Errorf("%d positions, want 9", tab.Positions())
	}
	first, err := BestRespond(ctx, tab, FirstLegal{}, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	if first.Seat != [2]float64{1, 1} || first.Mean != 1 {
		t.Errorf("against first-legal: %+v, want 1 from both seats", first)
	}
	random, err := BestRespond(ctx, tab, Random{}, 20000, 1)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(random.Seat[0]-2.0/3) > 0.02 || random.Seat[1] != 1 {
		t.Errorf("against random: %+v, want about 2/3 as first player and 1 as second", random)
	}
	if random.Asked != 3 {
		t.Errorf("asked the opponent in %d positions, want 3 (as the first player at the start, as the second after either move)", random.Asked)
	}
}

// TestEnumerateRefuses: a game whose position recurs, and one larger than the limit.
func TestEnumerateRefuses(t *testing.T) {
	ctx := context.Background()
	if _, err := Enumerate(ctx, forkGame{cycle: true}, 0); !errors.Is(err, ErrCycle) {
		t.Errorf("a recurring position: %v, want ErrCycle", err)
	}
	g, err := script.LoadBuiltin("tic-tac-toe", script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Enumerate(ctx, g, 100); !errors.Is(err, ErrTooLarge) {
		t.Errorf("tic-tac-toe in 100 positions: %v, want ErrTooLarge", err)
	}
}

// TestTableReplaysTheScript: a tabled game is the script's game: MCTS against MCTS, seeded
// alike, plays the same moves on both, and tic-tac-toe has its 5,478 positions.
func TestTableReplaysTheScript(t *testing.T) {
	ctx := context.Background()
	g, err := script.LoadBuiltin("tic-tac-toe", script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Enumerate(ctx, g, 0)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Positions() != 5478 {
		t.Errorf("tic-tac-toe has %d positions, want 5478", tab.Positions())
	}
	play := func(g core.Game, seed uint64) []int {
		m := &MCTS{Iterations: 50}
		rng := rand.New(rand.NewPCG(seed, 1))
		s, _ := g.Initial(0)
		var moves []int
		for ply := 0; ; ply++ {
			o, err := g.Outcome(s)
			if err != nil {
				t.Fatal(err)
			}
			if o.Done() {
				return moves
			}
			p, _ := g.ToMove(s)
			legal, _ := g.Legal(s)
			a, err := m.Act(ctx, g, core.Turn{State: s, Legal: legal, Player: p, Ply: ply, MaxPlies: core.DefaultMaxPlies}, rng)
			if err != nil {
				t.Fatal(err)
			}
			moves = append(moves, a)
			if s, err = g.Apply(s, a); err != nil {
				t.Fatal(err)
			}
		}
	}
	for seed := range uint64(5) {
		a, b := play(g, seed), play(tab.Game(), seed)
		if len(a) != len(b) {
			t.Fatalf("seed %d: script %v, table %v", seed, a, b)
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("seed %d: script %v, table %v", seed, a, b)
			}
		}
	}
}

// TestTicTacToeCeilingAgainstMCTS100 is the figure docs/duel-api.md gives for tic-tac-toe:
// no player wins 70 % against mcts-100. The best response, which wins more than the perfect
// player (who never loses, and as the second player almost never wins), stays far below.
func TestTicTacToeCeilingAgainstMCTS100(t *testing.T) {
	if testing.Short() {
		t.Skip("about 5 s of search: the full tier runs it")
	}
	ctx := context.Background()
	g, err := script.LoadBuiltin("tic-tac-toe", script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Enumerate(ctx, g, 0)
	if err != nil {
		t.Fatal(err)
	}
	br, err := BestRespond(ctx, tab, &MCTS{Iterations: 100}, 100, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("best response to mcts-100: %+v", br)
	if br.Mean >= 0.6 || br.Mean <= 0.3 || br.Seat[0] <= br.Seat[1] {
		t.Errorf("best response to mcts-100 on tic-tac-toe: %+v; want a mean well below 70 %% and above the perfect player's 26 %%, more as the first player", br)
	}
}
