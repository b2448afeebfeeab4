package duel

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/internal/duetest"
	"pcgwb/games/duel/script"
	"reflect"
	"strings"
	"testing"
)

// playLabels plays moves given by their labels from the start of a game.
func playLabels(t testing.TB, g core.Game, labels ...string) *Session {
	t.Helper()
	sess, err := NewSession(g, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range labels {
		tu, err := sess.Turn()
		if err != nil {
			t.Fatal(err)
		}
		a, err := moveByLabel(g, tu.State, tu.Legal, l)
		if err != nil {
			t.Fatal(err)
		}
		if err := sess.Play(a); err != nil {
			t.Fatal(err)
		}
	}
	return sess
}

func TestMCTSTakesAWinAndBlocksALoss(t *testing.T) {
	g := loadBuiltin(t, "tic-tac-toe")
	// X . X / O O . / . . . with X to move: X wins at row 1, column 2
	win := playLabels(t, g, "X at row 1, column 1", "O at row 2, column 1", "X at row 1, column 3", "O at row 2, column 2")
	// X . . / O O . / X . . with X to move... O threatens row 2: X must block at row 2, column 3
	block := playLabels(t, g, "X at row 1, column 1", "O at row 2, column 1", "X at row 3, column 1", "O at row 2, column 2")
	m := &agents.MCTS{Iterations: 200}
	for _, c := range []struct {
		sess *Session
		want string
	}{{win, "X at row 1, column 2"}, {block, "X at row 2, column 3"}} {
		tu, err := c.sess.Turn()
		if err != nil {
			t.Fatal(err)
		}
		a, err := m.Act(context.Background(), g, tu, SeatRNG(3, 0, 0))
		if err != nil {
			t.Fatal(err)
		}
		if l, _ := g.ActionLabel(tu.State, a); l != c.want {
			t.Errorf("MCTS played %q, want %q", l, c.want)
		}
	}
}

func TestMCTSIsSeeded(t *testing.T) {
	g := loadBuiltin(t, "connect-four")
	sess := playLabels(t, g, "X into column 3", "O into column 3")
	tu, _ := sess.Turn()
	m := &agents.MCTS{Iterations: 60}
	a, err := m.Search(context.Background(), g, tu, SeatRNG(9, 1, 0))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := m.Search(context.Background(), g, tu, SeatRNG(9, 1, 0))
	if a.Move != b.Move || len(a.Children) != len(b.Children) {
		t.Fatalf("same seed, different searches: %+v vs %+v", a, b)
	}
	for i := range a.Children {
		if a.Children[i] != b.Children[i] {
			t.Fatalf("same seed, different statistics: %+v vs %+v", a.Children[i], b.Children[i])
		}
	}
	if a.Rollouts != 60 {
		t.Errorf("%d rollouts, want 60", a.Rollouts)
	}
	visits := 0
	for _, c := range a.Children {
		visits += c.Visits
	}
	if visits != 60 {
		t.Errorf("root children have %d visits, want 60", visits)
	}
}

func TestMCTSStopsRolloutsAtThePlyCap(t *testing.T) {
	// a game that never ends: every rollout is cut at the cap and scores a draw
	src := gameSource("", map[string]string{"outcome": "return None", "apply": `return {"n": s["n"] + a, "p": 1 - s["p"]}`})
	g, err := script.Load("endless", []byte(src), script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	s, _ := g.Initial(0)
	st, err := (&agents.MCTS{Iterations: 20}).Search(context.Background(), g, core.Turn{State: s, Legal: []int{0, 1}, MaxPlies: 30}, SeatRNG(1, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range st.Children {
		if c.Value != 0.5 {
			t.Errorf("move %d has value %g, want 0.5 (all draws)", c.Move, c.Value)
		}
	}
}

func TestMCTSBeatsRandom(t *testing.T) {
	g := loadBuiltin(t, "connect-four")
	m := &agents.MCTS{Iterations: 50}
	for k := 0; k < 4; k++ {
		seats := [2]core.Agent{m, agents.Random{}}
		if k%2 == 1 {
			seats = [2]core.Agent{agents.Random{}, m}
		}
		res, err := Play(context.Background(), g, seats, 0, 0, [2]*rand.Rand{SeatRNG(5, k, 0), SeatRNG(5, k, 1)})
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome.Winner() != k%2 {
			t.Errorf("game %d: %v, MCTS played player %d", k, res.Outcome, k%2)
		}
	}
}

type fixedAgent int

func (f fixedAgent) Name() string { return "fixed" }
func (f fixedAgent) Act(context.Context, core.Game, core.Turn, *rand.Rand) (int, error) {
	return int(f), nil
}

func TestPlayRejectsIllegalMovesAndTruncates(t *testing.T) {
	g := loadBuiltin(t, "tic-tac-toe")
	rngs := [2]*rand.Rand{SeatRNG(0, 0, 0), SeatRNG(0, 0, 1)}
	// player 1 insists on the centre, which player 0 took first
	res, err := Play(context.Background(), g, [2]core.Agent{fixedAgent(4), fixedAgent(4)}, 0, 0, rngs)
	if err != nil {
		t.Fatal(err)
	}
	if res.Fault == nil || res.Fault.Kind != core.FaultIllegal || res.FaultBy != 1 || res.Plies != 1 {
		t.Fatalf("got %+v, want an illegal-move fault by player 1 after one move", res)
	}
	endless, err := script.Load("endless", []byte(gameSource("", map[string]string{"outcome": "return None"})), script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer endless.Close()
	res, err = Play(context.Background(), endless, [2]core.Agent{agents.Random{}, agents.Random{}}, 0, 0, rngs)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Truncated || res.Plies != core.DefaultMaxPlies || res.Decided() {
		t.Fatalf("got %+v, want truncation at %d plies", res, core.DefaultMaxPlies)
	}
	// a script fault inside a game is the game's fault, not a player's
	broken, err := script.Load("broken", []byte(gameSource("", map[string]string{"apply": `fail("broken")`})), script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer broken.Close()
	res, _ = Play(context.Background(), broken, [2]core.Agent{&agents.MCTS{Iterations: 5}, agents.Random{}}, 0, 0, rngs)
	if res.Fault == nil || res.FaultBy != -1 || res.Fault.Kind != core.FaultScript {
		t.Fatalf("got %+v, want an env fault", res)
	}
}

func TestSessionUndo(t *testing.T) {
	g := loadBuiltin(t, "nim")
	sess := playLabels(t, g, "take 7 stones from heap 3", "take 1 stone from heap 0")
	if err := sess.Play(0); err == nil {
		t.Fatal("an empty heap could be taken from")
	}
	if n := sess.Undo(5); n != 2 || sess.Ply() != 0 {
		t.Fatalf("undo took %d moves, ply %d", n, sess.Ply())
	}
	txt, _ := g.Render(sess.State())
	if !strings.Contains(txt, "heap 3: ||||||| (7)") {
		t.Fatalf("not the start after undo:\n%s", txt)
	}
}

func TestParseAgent(t *testing.T) {
	for spec, want := range map[string]string{
		"random": "random", "first": "first", "mcts": "mcts-100", "MCTS-250": "mcts-250",
		"mcts:40": "mcts-40", "mcts-30-greedy": "mcts-30-greedy",
	} {
		a, err := agents.ParseAgent(spec)
		if err != nil || a.Name() != want {
			t.Errorf("%q: %v, %v; want %s", spec, a, err, want)
		}
	}
	for _, bad := range []string{"", "mcts-0", "mcts-x", "mcts-5-smart", "alphazero"} {
		if _, err := agents.ParseAgent(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestWilson(t *testing.T) {
	lo, hi := Wilson(0.5, 10)
	if math.Abs(lo-0.2366) > 1e-3 || math.Abs(hi-0.7634) > 1e-3 {
		t.Errorf("Wilson(0.5, 10) = [%.4f, %.4f], want [0.2366, 0.7634]", lo, hi)
	}
	lo, hi = Wilson(1, 6)
	if hi != 1 || math.Abs(lo-0.6097) > 1e-3 {
		t.Errorf("Wilson(1, 6) = [%.4f, %.4f], want [0.6097, 1]", lo, hi)
	}
}

func TestTournamentLadder(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole tournament (-short)")
	}
	p, err := script.BuiltinProgram("take-away", script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	agents := []core.Agent{agents.Random{}, &agents.MCTS{Iterations: 10}, &agents.MCTS{Iterations: 200}}
	tour, err := RunTournament(context.Background(), func() (core.Game, error) { return p.New() }, agents, TournamentOptions{GamesPerPair: 8, Workers: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range tour.Pairs {
		if pr.Games != 8 || pr.AWins+pr.BWins+pr.Draws+pr.Truncated+pr.EnvFaults+pr.AFaults+pr.BFaults != 8 {
			t.Errorf("pair %+v does not add up to 8 games", pr)
		}
	}
	strong := tour.Record(2, 0)
	if strong.Score < 0.8 {
		t.Errorf("mcts-200 scored %.2f against random", strong.Score)
	}
	if all := tour.Record(2, -1); all.N != 16 || all.Lo > all.Score || all.Hi < all.Score {
		t.Errorf("overall record %+v", all)
	}
	var buf bytes.Buffer
	if err := tour.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"mcts-200", "overall", "[", "24 games"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, buf.String())
		}
	}
	l, ok := tour.MostLopsided()
	if !ok || l.Loser != "random" || l.Share <= 0.8 {
		t.Errorf("most lopsided %+v", l)
	}
	// the same seed gives the same tournament, whatever the parallelism
	again, _ := RunTournament(context.Background(), func() (core.Game, error) { return p.New() }, agents, TournamentOptions{GamesPerPair: 8, Workers: 1, Seed: 1})
	for i := range tour.Pairs {
		if !reflect.DeepEqual(tour.Pairs[i], again.Pairs[i]) {
			t.Errorf("pair %d: %+v vs %+v", i, tour.Pairs[i], again.Pairs[i])
		}
	}
}

func TestLadder(t *testing.T) {
	l := agents.Ladder()
	if len(l) != 5 || l[0].Name() != "random" || l[4].Name() != "mcts-300" {
		t.Errorf("ladder %s", AgentNames(l))
	}
}

func loadBuiltin(t testing.TB, name string) *script.ScriptGame { return duetest.LoadBuiltin(t, name) }
