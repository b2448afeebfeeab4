package app

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"pcgwb/games/duel/sandbox"
	"pcgwb/games/duel/script"
)

// burnScript is a game whose render always, and legal_actions once a move is made, loop until
// their CPU budget stops them.
const burnScript = `NUM_ACTIONS = 3
def _burn():
    t = 0
    for i in range(1000000):
        for j in range(1000000):
            t += 1
    return t
def initial_state(seed):
    return {"n": 0, "p": 0}
def to_move(s):
    return s["p"]
def legal_actions(s):
    if s["n"] >= 1:
        _burn()
    return [0, 1, 2]
def apply(s, a):
    return {"n": s["n"] + 1, "p": 1 - s["p"]}
def outcome(s):
    return None if s["n"] < 6 else "draw"
def render(s):
    _burn()
    return "n=%d" % s["n"]
def action_label(s, a):
    return "add %d" % (a + 1)
`

func writeScript(t *testing.T, name, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDuelTabStaysResponsiveWhileAScriptBurns: a script whose render burns CPU does not hold
// the UI goroutine. While the worker is busy in render, another callback handed to the UI runs
// (ordering, not timing: the job is still in render when it has run), Stop cancels the call,
// and with a short budget the tab names the fault the budget ends it with.
func TestDuelTabStaysResponsiveWhileAScriptBurns(t *testing.T) {
	dp := newDuelTestPanel(t)
	path := writeScript(t, "burn.star", burnScript)
	steps := script.Limits{Steps: 1 << 40} // the CPU budget, not the step count, stops the loop

	// a budget far longer than the test: only Stop ends the render
	dp.sandbox = sandbox.SandboxOptions{Budgets: sandbox.Budgets{Call: time.Hour, Move: time.Hour, Game: time.Hour}, Limits: steps}
	dp.loadGame(path)
	if !dp.thinking() || !dp.stopButton.Visible() || dp.stopButton.Disabled() {
		t.Fatalf("no busy state while loading: status %q", dp.status.Text)
	}
	eventually(t, "the worker to be in render", func() bool { return dp.Working() == "render" })
	ran := make(chan struct{})
	dp.wb.ui.goJob(func() { dp.wb.ui.onUI(func() { close(ran) }) })
	letUIRun(func() { <-ran }) // would wait for the render if it held the UI goroutine
	if dp.Working() != "render" || !dp.thinking() {
		t.Fatalf("the render ended before the callback ran (working %q)", dp.Working())
	}
	test.Tap(dp.stopButton)
	await(t, dp.wait)
	if !strings.HasPrefix(dp.status.Text, "Stopped") || dp.thinking() || len(dp.legalButtons()) != 0 {
		t.Fatalf("after Stop: status %q, thinking %v, %d moves", dp.status.Text, dp.thinking(), len(dp.legalButtons()))
	}

	// a short budget: the render's fault is shown, and the game goes on without a board
	dp.sandbox = sandbox.SandboxOptions{Budgets: sandbox.Budgets{Call: 200 * time.Millisecond, Move: 400 * time.Millisecond, Game: time.Minute}, Limits: steps}
	dp.Seat.SetSelected(seatFirst)
	dp.loadGame(path)
	await(t, dp.wait)
	if !strings.Contains(dp.status.Text, "CPU") || !strings.Contains(dp.board.Text, "render failed") {
		t.Fatalf("render's fault not shown: status %q, board %q", dp.status.Text, dp.board.Text)
	}
	if len(dp.legalButtons()) != 3 {
		t.Fatalf("%d moves offered after a render fault (status %q)", len(dp.legalButtons()), dp.status.Text)
	}
	test.Tap(dp.legalButtons()[0]) // legal_actions now burns too
	if !dp.thinking() || len(dp.legalButtons()) != 0 {
		t.Fatal("moves offered while the move is played")
	}
	await(t, dp.wait)
	if !strings.Contains(dp.status.Text, "legal_actions") || !strings.Contains(dp.status.Text, "CPU") {
		t.Fatalf("legal_actions' fault not shown: %q", dp.status.Text)
	}

	// another game chosen while the script burns: the burning call is abandoned, and nothing
	// of the old game reaches the tab
	dp.sandbox.Budgets = sandbox.Budgets{Call: time.Hour, Move: time.Hour, Game: time.Hour}
	dp.loadGame(path)
	eventually(t, "the worker to be in render", func() bool { return dp.Working() == "render" })
	dp.loadGame("tic-tac-toe")
	await(t, dp.wait)
	if dp.title.Text != "Tic-Tac-Toe" || !strings.HasPrefix(dp.status.Text, "Your turn") || len(dp.legalButtons()) != 9 {
		t.Fatalf("after switching games: title %q, status %q, %d moves", dp.title.Text, dp.status.Text, len(dp.legalButtons()))
	}
}

// boardCellAt is the drawn board's cell (row, col).
func boardCellAt(t *testing.T, dp *duelPanel, row, col int) *boardCell {
	t.Helper()
	grid := dp.grid.Objects[0].(*fyne.Container)
	cols := len(dp.view.grid[0])
	return grid.Objects[row*cols+col].(*boardCell)
}

// gridScript is a 10×10 board of 200 actions (more than buttons): action a puts a small
// (a < 100) or big piece on cell a%100 + 1; the top left cell takes only a small one.
const gridScript = `NUM_ACTIONS = 200
def initial_state(seed):
    return {"b": [0] * 100, "p": 0, "n": 0}
def to_move(s):
    return s["p"]
def legal_actions(s):
    return [a for a in range(200) if s["b"][a % 100] == 0 and a != 100]
def apply(s, a):
    b = list(s["b"])
    b[a % 100] = 1 + a // 100
    return {"b": b, "p": 1 - s["p"], "n": s["n"] + 1}
def outcome(s):
    return None if s["n"] < 8 else "draw"
def render(s):
    return "\n".join([" ".join([".sb"[s["b"][r * 10 + c]] for c in range(10)]) for r in range(10)])
def action_label(s, a):
    return "%s piece on cell %d" % (["small", "big"][a // 100], a % 100 + 1)
`

// TestDuelTabBoardClicks: a click on a cell plays the one legal move touching it, narrows the
// moves offered when several do, and does nothing on a cell without one; for tic-tac-toe (by
// its labels) and for a game with more moves than buttons (its list narrows).
func TestDuelTabBoardClicks(t *testing.T) {
	dp := newDuelTestPanel(t)
	dp.Agent.SetText("first")
	dp.Seat.SetSelected(seatFirst)
	dp.loadGame("tic-tac-toe")
	waitDuel(t, dp)
	if len(dp.grid.Objects) == 0 || dp.board.Visible() {
		t.Fatal("tic-tac-toe's board is not drawn as cells")
	}
	test.Tap(boardCellAt(t, dp, 1, 2)) // row 2, column 3: action 5
	waitDuel(t, dp)
	if moves := dp.session().Moves(); len(moves) != 2 || moves[0] != 5 {
		t.Fatalf("moves %v after a click on row 2, column 3", moves)
	}
	taken := dp.session().Moves()[1] // the agent's
	dp.tapCell(taken/3, taken%3)
	if !strings.HasPrefix(dp.status.Text, "No legal move") || dp.session().Ply() != 2 {
		t.Fatalf("a click on a taken cell: %q", dp.status.Text)
	}

	dp.loadGame(writeScript(t, "grid.star", gridScript))
	waitDuel(t, dp)
	if len(dp.moveButtons) != 0 || len(dp.moveView.filtered) != 199 {
		t.Fatalf("%d buttons, %d listed (status %q)", len(dp.moveButtons), len(dp.moveView.filtered), dp.status.Text)
	}
	dp.tapCell(2, 3) // cell 24: small (23) or big (123)
	if got := dp.moveView.filtered; !slices.Equal(got, []int{23, 123}) || !dp.allMoves.Visible() || dp.session().Ply() != 0 {
		t.Fatalf("narrowed to %v (status %q)", got, dp.status.Text)
	}
	test.Tap(dp.allMoves)
	if len(dp.moveView.filtered) != 199 || dp.allMoves.Visible() {
		t.Fatalf("%d listed after Show all moves", len(dp.moveView.filtered))
	}
	dp.tapCell(0, 0) // only the small piece
	waitDuel(t, dp)
	if moves := dp.session().Moves(); len(moves) != 2 || moves[0] != 0 {
		t.Fatalf("moves %v after a click on the top left cell", moves)
	}

	// closing the window gives the game's workers back
	dp.Cancel()
	await(t, dp.wait)
	if dp.session() != nil || dp.core.game != nil {
		t.Error("the game is still open after Cancel")
	}
}
