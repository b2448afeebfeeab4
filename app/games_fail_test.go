package app

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"pcgwb/games/duel/sandbox"
	"pcgwb/games/duel/script"
)

// checkNoGameOpen fails unless the tab shows no game, as after a load that ended without one
// (stopped or failed): title, rules, board, grid, log and moves cleared, New game, Undo and Stop
// disabled, the game menu back to its placeholder, the core's games closed, and New game
// starting nothing.
func checkNoGameOpen(t *testing.T, dp *duelPanel) {
	t.Helper()
	if dp.title.Text != "No game open." || dp.rules.Text != "" || dp.board.Text != "" ||
		len(dp.grid.Objects) != 0 || dp.log.Text != "" {
		t.Errorf("stale game shown: title %q, rules %q, board %q, %d grid objects, log %q",
			dp.title.Text, dp.rules.Text, dp.board.Text, len(dp.grid.Objects), dp.log.Text)
	}
	if len(dp.moveButtons) != 0 || len(dp.moves.Objects) != 0 || dp.view != nil {
		t.Errorf("%d move buttons, %d move widgets, view %v with no game open", len(dp.moveButtons), len(dp.moves.Objects), dp.view != nil)
	}
	if !dp.newGameButton.Disabled() || !dp.undoButton.Disabled() || !dp.stopButton.Disabled() || dp.thinking() {
		t.Errorf("buttons: new game disabled %v, undo disabled %v, stop disabled %v, thinking %v",
			dp.newGameButton.Disabled(), dp.undoButton.Disabled(), dp.stopButton.Disabled(), dp.thinking())
	}
	if dp.game.Selected != "" || dp.game.PlaceHolder != "(choose a game)" {
		t.Errorf("the game menu says %q (placeholder %q)", dp.game.Selected, dp.game.PlaceHolder)
	}
	if dp.session() != nil || dp.core.game != nil || dp.core.agentGame != nil {
		t.Error("a game is still open in the core")
	}
	dp.newGame() // nothing to start over
	await(t, dp.wait)
	if dp.session() != nil {
		t.Error("New game started a session with no game loaded")
	}
}

// growScript's top level doubles a list until its sandbox worker runs out of memory and dies
// (the in-interpreter heap check is switched off by the test's limits).
const growScript = `def _grow():
    l = [0]
    for i in range(64):
        l += l
    return len(l)
_N = _grow()
` + gridScript

// TestDuelTabFailedLoadShowsNoStaleGame: a load that fails by itself (a syntax error, a refused
// script, an error in its top level or in initial_state, a load over its CPU budget, a sandbox
// worker that dies) leaves the tab as Stop during a load does: no game open (never the one
// played before, whose sandbox workers are given back), the error's excerpt in the status and
// its whole text behind Error details; choosing a game then works. Each failure is an event the
// sandbox reports (a fault, a budget, the worker's death), not a time.
// checkErrorDetails checks that Error details is offered and that its dialog opens, copies
// the whole error and closes; it returns the text the dialog shows.
func checkErrorDetails(t *testing.T, dp *duelPanel) string {
	t.Helper()
	if !dp.errorButton.Visible() {
		t.Fatal("Error details is not offered")
	}
	overlays := dp.wb.Window.Canvas().Overlays()
	test.Tap(dp.errorButton)
	if overlays.Top() == nil {
		t.Fatal("Error details opened no dialog")
	}
	dp.wb.app.Clipboard().SetContent("")
	test.Tap(findButton(t, overlays.Top(), "Copy"))
	if got := dp.wb.app.Clipboard().Content(); got != dp.lastErr {
		t.Errorf("copied %q, want the whole error %q", got, dp.lastErr)
	}
	test.Tap(findButton(t, overlays.Top(), "Close"))
	if overlays.Top() != nil {
		t.Error("the error dialog did not close")
	}
	d, text := dp.showError()
	d.Hide()
	return text.Text
}

func TestDuelTabFailedLoadShowsNoStaleGame(t *testing.T) {
	if testing.Short() {
		t.Skip("failing loads in a real sandbox worker (-short)")
	}
	long := sandbox.Budgets{Call: time.Minute, Move: time.Minute, Game: time.Minute}
	for _, tc := range []struct {
		name, script string
		sandbox      sandbox.SandboxOptions
		want         string // in the status and in the details
		traceback    bool   // the details hold a Starlark traceback the status leaves out
	}{
		{name: "syntax error", script: "NUM_ACTIONS = 3\ndef initial_state(seed)\n    return 1\n", want: "want ':'"},
		{name: "refused script", script: strings.Replace(gridScript, "NUM_ACTIONS = 200", "NUM_ACTIONS = 4096", 1),
			want: "NUM_ACTIONS = 4096 is outside"},
		{name: "error in the top level", script: "_X = 1 // 0\n" + gridScript, want: "division by zero", traceback: true},
		{name: "error in initial_state", want: "no first position", traceback: true,
			script: strings.Replace(gridScript, "def initial_state(seed):\n", "def initial_state(seed):\n    fail(\"no first position\")\n", 1)},
		{name: "load over its CPU budget", script: burnOnLoadScript, want: "CPU budget",
			sandbox: sandbox.SandboxOptions{Budgets: sandbox.Budgets{Call: time.Minute, Move: 300 * time.Millisecond, Game: time.Minute},
				Limits: script.Limits{Steps: 1 << 40}}},
		{name: "sandbox worker dies", script: growScript, want: "the sandbox process ran out of",
			sandbox: sandbox.SandboxOptions{Budgets: long, Limits: script.Limits{Steps: 1 << 40, Memory: 1 << 50}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dp := newDuelTestPanel(t)
			dp.Seat.SetSelected(seatFirst)
			dp.loadGame("tic-tac-toe")
			waitDuel(t, dp)
			test.Tap(dp.legalButtons()[0]) // a game in progress: a log, an agent's answer
			waitDuel(t, dp)
			if dp.title.Text != "Tic-Tac-Toe" || dp.log.Text == "" || dp.errorButton.Visible() {
				t.Fatalf("tic-tac-toe not in progress: title %q, log %q, error details shown %v", dp.title.Text, dp.log.Text, dp.errorButton.Visible())
			}
			old, oldAgent := dp.core.game, dp.core.agentGame

			dp.sandbox = tc.sandbox
			dp.loadGame(writeScript(t, "bad.star", tc.script))
			await(t, dp.wait)

			status := dp.status.Text
			if !strings.HasPrefix(status, "⚠ Cannot load bad.star: ") || !strings.Contains(status, tc.want) ||
				!strings.Contains(status, "No game is open") {
				t.Errorf("status %q, want the failure (%q) and that no game is open", status, tc.want)
			}
			if strings.Contains(status, "Traceback") || len([]rune(status)) > maxExcerpt+150 {
				t.Errorf("the status is not an excerpt: %q", status)
			}
			checkNoGameOpen(t, dp)
			if old.Alive() || oldAgent.Alive() {
				t.Errorf("the old game's sandbox workers were not given back (alive: %v, %v)", old.Alive(), oldAgent.Alive())
			}

			// the whole error behind Error details, selectable and copyable
			text := checkErrorDetails(t, dp)
			if !strings.Contains(text, tc.want) || strings.Contains(text, "Traceback") != tc.traceback {
				t.Errorf("Error details holds %q, want %q (traceback %v)", text, tc.want, tc.traceback)
			}

			// the tab is usable again: a game chosen loads and plays
			dp.sandbox = sandbox.SandboxOptions{}
			dp.game.SetSelected("tic-tac-toe")
			waitDuel(t, dp)
			if dp.title.Text != "Tic-Tac-Toe" || !strings.HasPrefix(dp.status.Text, "Your turn") || len(dp.legalButtons()) != 9 ||
				dp.errorButton.Visible() || dp.log.Text != "" {
				t.Fatalf("after choosing a game again: title %q, status %q, %d moves, error details shown %v, log %q",
					dp.title.Text, dp.status.Text, len(dp.legalButtons()), dp.errorButton.Visible(), dp.log.Text)
			}
			test.Tap(dp.legalButtons()[0])
			waitDuel(t, dp)
			if s := dp.session(); s == nil || s.Ply() != 2 {
				t.Fatalf("the new game does not play: status %q", dp.status.Text)
			}
		})
	}
}

func TestDuelErrorExcerpt(t *testing.T) {
	long := strings.Repeat("é", maxExcerpt+10)
	for _, tc := range []struct{ in, want string }{
		{"load fault: x.star:3:1: got newline, want ':'", "load fault: x.star:3:1: got newline, want ':'"},
		{"load fault in <module>: Traceback (most recent call last):\n  x.star:1:7: in <toplevel>\nError: floored division by zero",
			"load fault in <module>: floored division by zero …"},
		{"script fault in initial_state: Traceback (most recent call last):\n  x.star:3:9: in initial_state\nError in fail: no start",
			"script fault in initial_state: Error in fail: no start …"},
		{"first line\nsecond line", "first line …"},
		{long, strings.Repeat("é", maxExcerpt) + " …"},
	} {
		if got := errorExcerpt(tc.in); got != tc.want {
			t.Errorf("errorExcerpt(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
