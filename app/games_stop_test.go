package app

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"pcgwb/games/duel"
)

// burnOnLoadScript is burnScript whose top level also burns: its load never ends by itself.
const burnOnLoadScript = burnScript + "_LOADED = _burn()\n"

// TestDuelTabStopDuringLoadShowsNoStaleGame: Stop pressed while another game loads leaves the
// tab with no game (title, board, moves, log and buttons cleared, the game menu back to its
// placeholder), never the board of the game shown before; choosing a game then works again.
// The stop points are events the job reports (the script call it waits for), not times.
func TestDuelTabStopDuringLoadShowsNoStaleGame(t *testing.T) {
	for _, tc := range []struct {
		name, script, stopIn string
	}{
		{"while the script's top level runs", burnOnLoadScript, "load"},
		{"while the first position renders", burnScript, "render"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dp := newDuelTestPanel(t)
			dp.Seat.SetSelected(seatFirst)
			dp.LoadGame("tic-tac-toe")
			waitDuel(t, dp)
			if dp.Title.Text != "Tic-Tac-Toe" || len(dp.LegalButtons()) != 9 {
				t.Fatalf("tic-tac-toe not shown: title %q, %d moves", dp.Title.Text, len(dp.LegalButtons()))
			}
			// a budget far longer than the test: only Stop ends the burning call
			dp.sandbox = duel.SandboxOptions{Budgets: duel.Budgets{Call: time.Hour, Move: time.Hour, Game: time.Hour},
				Limits: duel.Limits{Steps: 1 << 40}}
			dp.LoadGame(writeScript(t, "burn.star", tc.script))
			eventually(t, "the worker to be in "+tc.stopIn, func() bool { return dp.Working() == tc.stopIn })
			test.Tap(dp.StopButton)
			await(t, dp.Wait)

			if !strings.HasPrefix(dp.Status.Text, "Stopped loading") {
				t.Errorf("status %q, want it to say the load was stopped", dp.Status.Text)
			}
			if strings.Contains(dp.Title.Text, "Tic-Tac-Toe") || dp.Rules.Text != "" || dp.Board.Text != "" ||
				len(dp.grid.Objects) != 0 || dp.Log.Text != "" {
				t.Errorf("stale game shown: title %q, rules %q, board %q, %d grid objects, log %q",
					dp.Title.Text, dp.Rules.Text, dp.Board.Text, len(dp.grid.Objects), dp.Log.Text)
			}
			if len(dp.MoveButtons) != 0 || len(dp.moves.Objects) != 0 {
				t.Errorf("%d move buttons, %d move widgets after the stopped load", len(dp.MoveButtons), len(dp.moves.Objects))
			}
			if !dp.NewGameButton.Disabled() || !dp.UndoButton.Disabled() || !dp.StopButton.Disabled() || dp.Thinking() {
				t.Errorf("buttons: new game disabled %v, undo disabled %v, stop disabled %v, thinking %v",
					dp.NewGameButton.Disabled(), dp.UndoButton.Disabled(), dp.StopButton.Disabled(), dp.Thinking())
			}
			if dp.Game.Selected != "" {
				t.Errorf("the game menu still says %q", dp.Game.Selected)
			}
			if dp.Session() != nil || dp.core.game != nil {
				t.Error("a game is still open in the core after the stopped load")
			}
			dp.NewGame() // nothing to start over
			await(t, dp.Wait)
			if dp.Session() != nil {
				t.Error("New game started a session with no game loaded")
			}

			dp.sandbox = duel.SandboxOptions{}
			dp.Game.SetSelected("tic-tac-toe")
			waitDuel(t, dp)
			if dp.Title.Text != "Tic-Tac-Toe" || !strings.HasPrefix(dp.Status.Text, "Your turn") || len(dp.LegalButtons()) != 9 {
				t.Fatalf("after choosing a game again: title %q, status %q, %d moves", dp.Title.Text, dp.Status.Text, len(dp.LegalButtons()))
			}
		})
	}
}
