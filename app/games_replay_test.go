package app

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"pcgwb/games/duel"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/sandbox"
	"pcgwb/games/duel/script"
)

// TestDuelTabShowsAndTakesTheSeed: the seed of every game is shown (a new game's too), a seed
// typed there replays the same game (the agent's moves included), and a match says which
// command line plays it again: `workbench duel match … --seed S` gives the same record.
func TestDuelTabShowsAndTakesTheSeed(t *testing.T) {
	dp := newDuelTestPanel(t)
	dp.Agent.SetText("random")
	dp.Seat.SetSelected(seatSecond) // the agent opens: its first move follows the seed
	waitDuel(t, dp)
	shown := func() int64 {
		t.Helper()
		n, err := strconv.ParseInt(dp.seed.Text, 10, 64)
		if err != nil || n != dp.session().Seed || n != dp.gameSeed() {
			t.Fatalf("the Seed entry says %q, the game's seed is %d", dp.seed.Text, dp.session().Seed)
		}
		return n
	}
	first := shown()
	test.Tap(dp.newGameButton)
	waitDuel(t, dp)
	if shown() == first {
		t.Fatalf("New game kept the seed %d", first)
	}

	// the agent's answers for seed 777 by the session's rule, as `workbench duel play --seed 777`
	want := referenceMoves(t, "tic-tac-toe", "random", 777, 0, func(legal []int) int { return legal[0] })
	for _, how := range []string{"button", "enter"} {
		dp.seed.SetText("777")
		if how == "button" {
			test.Tap(dp.seedButton)
		} else {
			dp.seed.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		}
		waitDuel(t, dp)
		if shown() != 777 {
			t.Fatalf("%s: seed %d", how, dp.session().Seed)
		}
		for i := 0; i < 2; i++ { // the person plays the first legal move, the agent answers
			if got := dp.session().Moves(); len(got) == 0 || got[len(got)-1] != want[len(got)-1] {
				t.Fatalf("%s: moves %v, the reference's %v", how, got, want)
			}
			test.Tap(dp.legalButtons()[0])
			waitDuel(t, dp)
		}
	}

	dp.seed.SetText("not a seed")
	test.Tap(dp.seedButton)
	waitDuel(t, dp)
	if dp.session().Seed != 777 || !strings.Contains(dp.status.Text, "whole number") {
		t.Fatalf("a bad seed: session seed %d, status %q", dp.session().Seed, dp.status.Text)
	}

	// a match starts from the seed of the game shown and says how to replay it
	dp.seed.SetText("31")
	test.Tap(dp.seedButton)
	waitDuel(t, dp)
	dp.match.matchAgent.SetText("first")
	dp.match.matchGames.SetText("4")
	test.Tap(dp.match.matchButton)
	waitDuel(t, dp)
	cmd := "workbench duel match tic-tac-toe --agents random,first --games 4 --seed 31"
	if !strings.Contains(dp.match.matchStatus.Text, cmd) || !strings.Contains(dp.match.matchStatus.Text, "Done.") {
		t.Fatalf("match status %q, want the command %q", dp.match.matchStatus.Text, cmd)
	}
	g, err := sandbox.OpenSandboxed(context.Background(), "tic-tac-toe", sandbox.SandboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	a, errA := agents.ParseAgent("random")
	b, errB := agents.ParseAgent("first")
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	ref, err := duel.PlayMatch(context.Background(), g, [2]core.Agent{a, b}, 4, 31, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := dp.matchRecord(); got.AWins != ref.AWins || got.BWins != ref.BWins || got.Draws != ref.Draws || got.Games != 4 {
		t.Fatalf("the tab's match %+v, the command's %+v", got, ref)
	}
}

// referenceMoves plays game from seed by the core alone, the game in this process: the agent
// in seat agentSeat answers by the session's seeding rule (as `workbench duel play --seed`),
// the person plays pick(legal); it returns the moves of the whole game.
func referenceMoves(t *testing.T, game, agent string, seed int64, agentSeat int, pick func(legal []int) int) []int {
	t.Helper()
	g, err := script.LoadBuiltin(game, script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	ag, err := agents.ParseAgent(agent)
	if err != nil {
		t.Fatal(err)
	}
	s, err := duel.NewSession(g, seed, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for {
		turn, err := s.Turn()
		if err != nil {
			return s.Moves()
		}
		a := pick(turn.Legal)
		if turn.Player == agentSeat {
			if _, a, err = s.AgentMove(context.Background(), ag); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Play(a); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDuelTabFaultInYourMoveStopsTheGame: when the person's move faults, the tab does not say
// "Your turn" again with the same moves offered (each of which would fault again): the game
// stops there, and New game starts over.
func TestDuelTabFaultInYourMoveStopsTheGame(t *testing.T) {
	dp := newDuelTestPanel(t)
	dp.Agent.SetText("first")
	dp.loadGame(writeScript(t, "nomove.star", faultIn("apply", "s, a", `fail("no move works here")`)))
	waitDuel(t, dp)
	if !strings.HasPrefix(dp.status.Text, "Your turn") || len(dp.legalButtons()) != 3 {
		t.Fatalf("before the move: status %q, %d moves", dp.status.Text, len(dp.legalButtons()))
	}
	tapFirstMove(t, dp)
	status := dp.status.Text
	if !strings.HasPrefix(status, "⚠ The game stopped: ") || !strings.Contains(status, "no move works here") ||
		strings.Contains(status, "Your turn") {
		t.Fatalf("after the faulty move the status says %q", status)
	}
	if n := len(dp.legalButtons()); n != 0 {
		t.Fatalf("%d moves still offered after the fault", n)
	}
	if err := dp.Play(1); err == nil {
		t.Fatal("Play accepted a move after the fault")
	}
	if !dp.errorButton.Visible() || dp.newGameButton.Disabled() {
		t.Fatalf("error details shown %v, new game disabled %v", dp.errorButton.Visible(), dp.newGameButton.Disabled())
	}
	test.Tap(dp.newGameButton)
	waitDuel(t, dp)
	if !strings.HasPrefix(dp.status.Text, "Your turn") || len(dp.legalButtons()) != 3 || dp.errorButton.Visible() {
		t.Fatalf("after New game: status %q, %d moves", dp.status.Text, len(dp.legalButtons()))
	}
}

// TestDuelTabMarksKeepColoursAndTheWinningLineShows: a mark keeps its colour all game long
// (here O, placed above the first X, once took X's colour), and the line that won is
// outlined, only it.
func TestDuelTabMarksKeepColoursAndTheWinningLineShows(t *testing.T) {
	dp := newDuelTestPanel(t)
	dp.Agent.SetText("first") // answers in the lowest free cell: O at the top left
	dp.Seat.SetSelected(seatFirst)
	waitDuel(t, dp)
	mark := func(r, c int) string {
		t.Helper()
		cell := dp.cellAt(r, c)
		if cell == nil {
			t.Fatalf("no cell (%d, %d): board %q", r, c, dp.board.Text)
		}
		for k, col := range markColors {
			if cell.mark == col {
				return strconv.Itoa(k)
			}
		}
		return "-"
	}
	for i, a := range []int{8, 7, 6} { // X on the bottom row; O fills the top row from the left
		test.Tap(dp.moveButtons[a])
		waitDuel(t, dp)
		if x, o := mark(2, 2), mark(0, 0); x != "0" || (i < 2 && o != "1") {
			t.Fatalf("after X's move %d: X has colour %s, O colour %s (board %q)", i+1, x, o, dp.board.Text)
		}
	}
	if !strings.HasPrefix(dp.status.Text, "You win") {
		t.Fatalf("status %q (board %q)", dp.status.Text, dp.board.Text)
	}
	// the agent's moves are logged with their labels (they read "action 0")
	if !strings.Contains(dp.log.Text, "first O at row 1, column 1") || strings.Contains(dp.log.Text, "action ") {
		t.Errorf("log %q", dp.log.Text)
	}
	for r := 0; r < 3; r++ {
		for c := 0; c < 3; c++ {
			if got, want := dp.cellAt(r, c).won, r == 2; got != want {
				t.Errorf("cell (%d, %d) outlined %v, want %v (board %q)", r, c, got, want, dp.board.Text)
			}
		}
	}
	test.Tap(dp.newGameButton) // a new game: nothing outlined
	waitDuel(t, dp)
	for r := 0; r < 3; r++ {
		for c := 0; c < 3; c++ {
			if dp.cellAt(r, c).won {
				t.Fatalf("cell (%d, %d) outlined in a new game", r, c)
			}
		}
	}
}

// TestWinLine: the longest run of one mark through the last move's cells, at least three
// long; nothing when the runs of two marks tie or no run is long enough.
func TestWinLine(t *testing.T) {
	grid := func(s string) [][]string {
		rows, ok := core.ParseGrid(s)
		if !ok {
			t.Fatalf("not a grid: %q", s)
		}
		return rows
	}
	for _, tc := range []struct {
		name, board, before string
		want                []core.Square
	}{
		{"diagonal", "X O .\nO X .\n. . X", "X O .\nO X .\n. . .", []core.Square{{Row: 0, Col: 0}, {Row: 1, Col: 1}, {Row: 2, Col: 2}}},
		{"anti-diagonal", "O . X\nO X .\nX . .", "", []core.Square{{Row: 0, Col: 2}, {Row: 1, Col: 1}, {Row: 2, Col: 0}}},
		{"column of four", ". . . . . .\nO . . . . .\nO X . . . .\nO X . . . .\nO X X . . .", ". . . . . .\n. . . . . .\nO X . . . .\nO X . . . .\nO X X . . .",
			[]core.Square{{Row: 1, Col: 0}, {Row: 2, Col: 0}, {Row: 3, Col: 0}, {Row: 4, Col: 0}}},
		{"a run the last move did not touch", "X X X\nO O .\n. . O", "X X X\nO O .\n. . .", nil},
		{"two marks tie", "X X X\n. . .\nO O O", "", nil},
		{"no run of three", "X O X\nO X O\nO X O", "", nil},
		{"empty cells are no line", ". . .\n. . .\n. . .", "", nil},
	} {
		var before [][]string
		if tc.before != "" {
			before = grid(tc.before)
		}
		got := winLine(grid(tc.board), before)
		if len(got) != len(tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
				break
			}
		}
	}
}

// TestDuelTabGameTextIsBounded: the title and rules the tab shows are bounded and unwrapped
// by the job (gameText), never laid out at a script's size.
func TestDuelTabGameTextIsBounded(t *testing.T) {
	huge := strings.Repeat("word ", 1<<20)
	title, rules := gameText(core.Info{Name: "g", Title: huge, Rules: huge + "\n\n" + huge})
	if n := len([]rune(title)); n > maxTitleRunes || strings.Contains(title, "\n") {
		t.Errorf("title of %d runes", n)
	}
	if n := len([]rune(rules)); n > maxRulesRunes {
		t.Errorf("rules of %d runes", n)
	}
	if title, rules := gameText(core.Info{Name: "g", Rules: "One\nrule.\n\nTwo\nrules."}); title != "g" || rules != "One rule.\n\nTwo rules." {
		t.Errorf("title %q, rules %q", title, rules)
	}

	// the job hands the UI what it shows: a long rulebook arrives unwrapped
	dp := newDuelTestPanel(t)
	long := strings.Repeat("a rule that goes on\n", 500)
	dp.loadGame(writeScript(t, "rules.star", "TITLE = \"A game with a very long title "+strings.Repeat("and more ", 20)+"\"\nRULES = \"\"\""+long+"\"\"\"\n"+countScript))
	waitDuel(t, dp)
	if dp.rules.Text != unwrapLines(long) || len([]rune(dp.title.Text)) > maxTitleRunes || dp.title.Wrapping != fyne.TextWrapWord {
		t.Fatalf("title %q (wrapping %v), rules of %d bytes", dp.title.Text, dp.title.Wrapping, len(dp.rules.Text))
	}
}
