package app

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"pcgwb/games/duel/agents"
)

func newDuelTestPanel(t *testing.T) *duelPanel {
	t.Helper()
	wb := newTestWorkbench(t)
	dp := wb.duel()
	if dp == nil {
		t.Fatal("no Games tab")
	}
	t.Cleanup(func() { dp.Cancel(); settle(t, dp.wait) })
	waitDuel(t, dp)
	return dp
}

func waitDuel(t *testing.T, dp *duelPanel) {
	t.Helper()
	await(t, dp.wait)
}

// playOut taps the first move button until the game is over and returns the plies played.
func playOut(t *testing.T, dp *duelPanel) int {
	t.Helper()
	for i := 0; ; i++ {
		waitDuel(t, dp)
		if o, trunc, err := dp.session().Status(); err != nil || o.Done() || trunc {
			if err != nil {
				t.Fatal(err)
			}
			return dp.session().Ply()
		}
		if i > 20 || len(dp.legalButtons()) == 0 {
			t.Fatalf("no move to tap at ply %d: status %q", dp.session().Ply(), dp.status.Text)
		}
		test.Tap(dp.legalButtons()[0])
	}
}

func TestDuelPlaysTicTacToeAgainstRandom(t *testing.T) {
	dp := newDuelTestPanel(t)
	if dp.game.Selected != "tic-tac-toe" || dp.session() == nil {
		t.Fatalf("start game %q, status %q", dp.game.Selected, dp.status.Text)
	}
	dp.Agent.SetText("random")
	for _, seat := range []string{seatFirst, seatSecond} {
		dp.Seat.SetSelected(seat) // a new game, the agent perhaps opening
		waitDuel(t, dp)
		dp.newGame()
		waitDuel(t, dp)
		if seat == seatSecond && dp.session().Ply() != 1 {
			t.Fatalf("the agent did not open: ply %d", dp.session().Ply())
		}
		if seat == seatFirst && (len(dp.moveButtons) != 9 || len(dp.legalButtons()) != 9) {
			t.Fatalf("%d move buttons, %d enabled, on the empty board", len(dp.moveButtons), len(dp.legalButtons()))
		}
		plies := playOut(t, dp)
		if plies < 5 || plies > 9 {
			t.Fatalf("game of %d plies", plies)
		}
		if !strings.Contains(dp.status.Text, "win") && !strings.Contains(dp.status.Text, "Draw") {
			t.Fatalf("status at the end %q", dp.status.Text)
		}
		if len(dp.moveButtons) != 9 || len(dp.legalButtons()) != 0 {
			t.Fatal("moves offered after the end")
		}
		if n := strings.Count(dp.log.Text, "\n") + 1; n != plies || !strings.Contains(dp.log.Text, "you") ||
			!strings.Contains(dp.log.Text, "random") {
			t.Fatalf("log of %d lines for %d plies:\n%s", n, plies, dp.log.Text)
		}
		if strings.Count(dp.board.Text, "\n") != 2 {
			t.Fatalf("board %q", dp.board.Text)
		}
	}
}

func TestDuelUndoReturnsToYourTurn(t *testing.T) {
	dp := newDuelTestPanel(t)
	dp.Seat.SetSelected(seatFirst)
	dp.newGame()
	waitDuel(t, dp)
	test.Tap(dp.moveButtons[4])
	waitDuel(t, dp)
	if dp.session().Ply() != 2 {
		t.Fatalf("ply %d after one move and the answer", dp.session().Ply())
	}
	// the buttons keep their places: the taken cells are disabled, not removed
	if len(dp.moveButtons) != 9 || !dp.moveButtons[4].Disabled() || len(dp.legalButtons()) != 7 {
		t.Fatalf("%d buttons, %d enabled, centre disabled %v", len(dp.moveButtons), len(dp.legalButtons()), dp.moveButtons[4].Disabled())
	}
	board := dp.board.Text
	test.Tap(dp.undoButton)
	waitDuel(t, dp)
	if dp.session().Ply() != 0 || len(dp.legalButtons()) != 9 || dp.log.Text != "" || board == dp.board.Text {
		t.Fatalf("after undo: ply %d, %d buttons, log %q", dp.session().Ply(), len(dp.moveButtons), dp.log.Text)
	}
	if !dp.undoButton.Disabled() {
		t.Fatal("undo enabled at the start")
	}
}

func TestDuelMCTSAndScriptFile(t *testing.T) {
	dp := newDuelTestPanel(t)
	src, err := os.ReadFile(filepath.Join("..", "assets", "games", "nim.star"))
	if err != nil {
		t.Skip(err)
	}
	path := filepath.Join(t.TempDir(), "my-nim.star")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	dp.Agent.SetText("mcts-50")
	dp.loadGame(path)
	waitDuel(t, dp)
	if dp.session() == nil || dp.session().Game.Info().Name != "my-nim" {
		t.Fatalf("script not loaded: %q", dp.status.Text)
	}
	if plies := playOut(t, dp); plies == 0 || !strings.Contains(dp.log.Text, "mcts") {
		t.Fatalf("log %q", dp.log.Text)
	}

	dp.loadGame(filepath.Join(t.TempDir(), "missing.star"))
	waitDuel(t, dp)
	if !strings.Contains(dp.status.Text, "Cannot load") {
		t.Fatalf("status %q", dp.status.Text)
	}
	if _, err := agents.ParseAgent("mcts-200-greedy"); err != nil {
		t.Fatal(err) // an offered agent must parse
	}
	for _, a := range duelAgents {
		if _, err := agents.ParseAgent(a); err != nil {
			t.Errorf("offered agent %q: %v", a, err)
		}
	}
}

// TestDuelTabAgentMovesFollowTheSeed: the Games tab, started from a seed, answers the person's
// moves exactly as the core's session does, and so as `workbench duel play --seed` does (the
// CLI's test, TestDuelPlayAgentMovesFollowTheSeed, checks it against the same reference).
func TestDuelTabAgentMovesFollowTheSeed(t *testing.T) {
	dp := newDuelTestPanel(t)
	for _, tc := range []struct {
		game, agent string
		seed        int64
	}{{"tic-tac-toe", "mcts-40", 7}, {"connect-four", "mcts-20", 11}, {"nim", "random", 3}} {
		t.Run(tc.game, func(t *testing.T) {
			dp.Agent.SetText(tc.agent)
			dp.Seat.SetSelected(seatFirst)
			dp.loadGame(tc.game)
			waitDuel(t, dp)
			dp.newGameSeeded(tc.seed)
			for i := 0; ; i++ {
				waitDuel(t, dp)
				s := dp.session()
				turn, err := s.Turn()
				if err != nil {
					break // over
				}
				if turn.Player != dp.human() || i > 100 {
					t.Fatalf("ply %d: the agent did not answer (status %q)", s.Ply(), dp.status.Text)
				}
				if err := dp.Play(turn.Legal[len(turn.Legal)/2]); err != nil {
					t.Fatal(err)
				}
			}
			// the reference: the core alone, the game in this process
			ref := referenceMoves(t, tc.game, tc.agent, tc.seed, 1, func(legal []int) int { return legal[len(legal)/2] })
			if got, want := dp.session().Moves(), ref; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("the tab played %v, the core %v", got, want)
			}
		})
	}
}

// TestDuelTabBoardAndLargeMoveSets: a grid render is drawn as cells; a game with more actions
// than buttons offers its legal moves in a searchable list.
func TestDuelTabBoardAndLargeMoveSets(t *testing.T) {
	dp := newDuelTestPanel(t)
	if dp.grid.Hidden || len(dp.grid.Objects) == 0 || dp.board.Visible() {
		t.Error("tic-tac-toe's board is not drawn as cells")
	}
	src := `NUM_ACTIONS = 300
def initial_state(seed):
    return {"n": 0, "p": 0}
def to_move(s):
    return s["p"]
def legal_actions(s):
    return list(range(300))
def apply(s, a):
    return {"n": s["n"] + 1 + a, "p": 1 - s["p"]}
def outcome(s):
    return 1 - s["p"] if s["n"] >= 400 else None
def render(s):
    return "n=%d" % s["n"]
def action_label(s, a):
    return "add %d" % (a + 1)
`
	path := filepath.Join(t.TempDir(), "big.star")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	dp.Agent.SetText("first")
	dp.Seat.SetSelected(seatFirst)
	dp.loadGame(path)
	waitDuel(t, dp)
	if len(dp.moveButtons) != 0 || len(dp.moveView.filtered) != 300 {
		t.Fatalf("%d buttons, %d moves listed (status %q)", len(dp.moveButtons), len(dp.moveView.filtered), dp.status.Text)
	}
	dp.moveSearch.SetText("add 25")
	if got := dp.moveView.filtered; len(got) != 11 || got[0] != 24 {
		t.Fatalf("search for a label: %v", got) // add 25, add 250..259
	}
	dp.moveSearch.SetText("29")
	got := dp.moveView.filtered // by number: 29, 290..299; by label ("add 29", "add 129", ...): 28, 128, ...
	if len(got) != 15 || !slices.Contains(got, 29) || !slices.Contains(got, 299) || slices.Contains(got, 100) {
		t.Fatalf("search for a number: %v", got)
	}
	dp.moveList.Select(slices.Index(got, 29))
	waitDuel(t, dp)
	if moves := dp.session().Moves(); len(moves) != 2 || moves[0] != 29 || moves[1] != 0 {
		t.Fatalf("moves %v", moves)
	}
}

// TestDuelTabAgentMatch: two agents play a match in the tab, the record and its interval
// shown as the games finish; the board stays playable meanwhile.
func TestDuelTabAgentMatch(t *testing.T) {
	dp := newDuelTestPanel(t)
	dp.Agent.SetText("mcts-30")
	dp.match.matchAgent.SetText("random")
	dp.match.matchGames.SetText("6")
	test.Tap(dp.match.matchButton)
	waitDuel(t, dp)
	pr := dp.matchRecord()
	if pr.Games != 6 || pr.AWins+pr.BWins+pr.Draws+pr.Truncated+pr.AFaults+pr.BFaults+pr.EnvFaults != 6 {
		t.Fatalf("record %+v", pr)
	}
	for _, want := range []string{"mcts-30 vs random after 6 of 6 games", "95% interval", "Done."} {
		if !strings.Contains(dp.match.matchStatus.Text, want) {
			t.Errorf("status %q lacks %q", dp.match.matchStatus.Text, want)
		}
	}
	if dp.match.matchButton.Text != "Play match" || len(dp.legalButtons()) == 0 {
		t.Errorf("button %q, %d legal buttons", dp.match.matchButton.Text, len(dp.legalButtons()))
	}
	dp.match.matchGames.SetText("0")
	test.Tap(dp.match.matchButton)
	if !strings.HasPrefix(dp.match.matchStatus.Text, "⚠") {
		t.Errorf("0 games: %q", dp.match.matchStatus.Text)
	}
}
