package app

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"pcgwb/games/duel/sandbox"
	"pcgwb/games/duel/script"
)

// burnOnLoadScript is burnScript whose top level also burns: its load never ends by itself.
const burnOnLoadScript = burnScript + "_LOADED = _burn()\n"

// TestDuelTabStopDuringLoadShowsNoStaleGame: Stop pressed while another game loads leaves the
// tab with no game (title, board, moves, log and buttons cleared, the game menu back to its
// placeholder), never the board of the game shown before; choosing a game then works again.
// The stop points are events the job reports (the script call it waits for), not times.
func TestDuelTabStopDuringLoadShowsNoStaleGame(t *testing.T) {
	if testing.Short() {
		t.Skip("stops during loads in a real sandbox worker (-short)")
	}
	for _, tc := range []struct {
		name, script, stopIn string
	}{
		{"while the script's top level runs", burnOnLoadScript, "load"},
		{"while the first position renders", burnScript, "render"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dp := newDuelTestPanel(t)
			dp.Seat.SetSelected(seatFirst)
			dp.loadGame("tic-tac-toe")
			waitDuel(t, dp)
			if dp.title.Text != "Tic-Tac-Toe" || len(dp.legalButtons()) != 9 {
				t.Fatalf("tic-tac-toe not shown: title %q, %d moves", dp.title.Text, len(dp.legalButtons()))
			}
			// a budget far longer than the test: only Stop ends the burning call
			dp.sandbox = sandbox.SandboxOptions{Budgets: sandbox.Budgets{Call: time.Hour, Move: time.Hour, Game: time.Hour},
				Limits: script.Limits{Steps: 1 << 40}}
			dp.loadGame(writeScript(t, "burn.star", tc.script))
			eventually(t, "the worker to be in "+tc.stopIn, func() bool { return dp.Working() == tc.stopIn })
			test.Tap(dp.stopButton)
			await(t, dp.wait)

			if !strings.HasPrefix(dp.status.Text, "Stopped loading") || dp.errorButton.Visible() {
				t.Errorf("status %q (error details shown %v), want it to say the load was stopped", dp.status.Text, dp.errorButton.Visible())
			}
			checkNoGameOpen(t, dp)

			dp.sandbox = sandbox.SandboxOptions{}
			dp.game.SetSelected("tic-tac-toe")
			waitDuel(t, dp)
			if dp.title.Text != "Tic-Tac-Toe" || !strings.HasPrefix(dp.status.Text, "Your turn") || len(dp.legalButtons()) != 9 {
				t.Fatalf("after choosing a game again: title %q, status %q, %d moves", dp.title.Text, dp.status.Text, len(dp.legalButtons()))
			}
		})
	}
}
