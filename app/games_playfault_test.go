package app

import (
	"cmp"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"pcgwb/games/duel/sandbox"
	"pcgwb/games/duel/script"
)

// countScript is a small game that plays well: three moves a turn, a draw after six.
const countScript = `NUM_ACTIONS = 3
def initial_state(seed):
    return {"n": 0, "p": 0}
def to_move(s):
    return s["p"]
def legal_actions(s):
    return [0, 1, 2]
def apply(s, a):
    return {"n": s["n"] + 1, "p": 1 - s["p"]}
def outcome(s):
    return None if s["n"] < 6 else "draw"
def render(s):
    return "n=%d" % s["n"]
def action_label(s, a):
    return "add %d" % (a + 1)
`

// faultIn is countScript with line put first in the body of its function fn, whose parameters
// are params.
func faultIn(fn, params, line string) string {
	head := "def " + fn + "(" + params + "):\n"
	return strings.Replace(countScript, head, head+"    "+line+"\n", 1)
}

// TestDuelTabFaultDuringPlayShowsAnExcerpt: a fault while a game is played (a script's
// legal_actions, apply or render, the agent's move, a CPU budget, a sandbox worker that dies,
// initial_state of a new game) shows as a failed load does: the status an excerpt (never a
// traceback or a script's whole output) and, where the game cannot go on, that it cannot;
// Error details the whole text, titled with what failed. A game where it can go on keeps its
// moves; a game left with no position shows no game. A game loaded next hides Error details.
// Each fault is an event the sandbox reports (a script error, a budget, the worker's death).
func TestDuelTabFaultDuringPlayShowsAnExcerpt(t *testing.T) {
	if testing.Short() {
		t.Skip("every sandbox fault in a real sandbox worker (-short)")
	}
	long := strings.Repeat("x", 5000)
	growDef, _, _ := strings.Cut(growScript, "_N = _grow()")
	for _, tc := range []struct {
		name, script, agent, seat string
		sandbox                   sandbox.SandboxOptions
		act                       func(t *testing.T, dp *duelPanel) // the play that meets the fault
		want                      string                            // in the status and in the details
		state                     string                            // "stuck", "goes on" or "lost"
		title                     string                            // of Error details
		traceback                 bool                              // the details hold a Starlark traceback
		undo                      bool                              // Undo then goes back to a position without a fault
	}{
		{name: "legal_actions fails after a move", seat: seatFirst, act: tapFirstMove,
			script: faultIn("legal_actions", "s", `if s["n"] >= 1: fail("no moves here: `+long+`")`),
			want:   "no moves here", state: "stuck", title: "The game stopped", traceback: true, undo: true},
		{name: "the agent's move fails", seat: seatSecond, agent: "mcts-50",
			script: faultIn("apply", "s, a", `fail("the move breaks the board")`),
			want:   "the move breaks the board", state: "stuck", title: "The game stopped", traceback: true},
		{name: "render fails", seat: seatFirst,
			script: faultIn("render", "s", `fail("cannot draw")`),
			want:   "cannot draw", state: "goes on", title: "A call into the game's script failed", traceback: true},
		{name: "the sandbox worker dies in apply", seat: seatFirst, act: tapFirstMove,
			script: growDef + faultIn("apply", "s, a", "_grow()"),
			// the in-interpreter heap check switched off: the worker's memory limit ends it
			sandbox: sandbox.SandboxOptions{Budgets: sandbox.Budgets{Call: time.Minute, Move: time.Minute, Game: time.Minute},
				Limits: script.Limits{Steps: 1 << 40, Memory: 1 << 50}},
			// the person's move failed: playing it (or another) again would fail again
			want: "the sandbox process ran out of", state: "stuck", title: "The game stopped"},
		{name: "legal_actions over its CPU budget", seat: seatFirst, act: tapFirstMove,
			script: strings.Replace(burnScript, "def render(s):\n    _burn()\n", "def render(s):\n", 1),
			sandbox: sandbox.SandboxOptions{Budgets: sandbox.Budgets{Call: time.Minute, Move: 300 * time.Millisecond, Game: time.Minute},
				Limits: script.Limits{Steps: 1 << 40}},
			want: "CPU budget", state: "stuck", title: "The game stopped", traceback: true},
		{name: "a new game's initial_state fails", seat: seatFirst,
			act:    func(t *testing.T, dp *duelPanel) { dp.newGameSeeded(7); waitDuel(t, dp) },
			script: faultIn("initial_state", "seed", `if seed == 7: fail("no board for seed 7")`),
			want:   "no board for seed 7", state: "lost", title: "The game stopped", traceback: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dp := newDuelTestPanel(t)
			dp.Agent.SetText(cmp.Or(tc.agent, "first"))
			dp.Seat.SetSelected(tc.seat)
			dp.sandbox = tc.sandbox
			dp.loadGame(writeScript(t, "faulty.star", tc.script))
			waitDuel(t, dp)
			if tc.act != nil {
				if dp.errorButton.Visible() {
					t.Fatalf("a fault before the play: status %q", dp.status.Text)
				}
				tc.act(t, dp)
			}

			status := dp.status.Text
			if !strings.HasPrefix(status, "⚠ ") || !strings.Contains(status, tc.want) {
				t.Errorf("status %q, want the fault (%q)", status, tc.want)
			}
			if strings.Contains(status, "Traceback") || strings.Contains(status, long[:maxExcerpt+1]) ||
				len([]rune(status)) > 2*maxExcerpt+150 {
				t.Errorf("the status is not an excerpt: %q", status)
			}
			stopped := strings.HasPrefix(status, "⚠ The game stopped: ")
			switch tc.state {
			case "stuck":
				if !stopped || !strings.Contains(status, "cannot go on") || len(dp.legalButtons()) != 0 || dp.thinking() {
					t.Errorf("status %q, %d moves offered, thinking %v: want a game that cannot go on", status, len(dp.legalButtons()), dp.thinking())
				}
			case "goes on":
				if stopped || !strings.Contains(status, "Your turn") || len(dp.legalButtons()) == 0 {
					t.Errorf("status %q, %d moves offered: want the person's turn", status, len(dp.legalButtons()))
				}
			case "lost":
				if !stopped || !strings.Contains(status, "No game is open") {
					t.Errorf("status %q: want no game open", status)
				}
				checkNoGameOpen(t, dp)
			}
			if strings.Contains(dp.board.Text, "Traceback") {
				t.Errorf("the board shows a traceback: %q", dp.board.Text)
			}

			// the whole error behind Error details, titled with what failed, copyable
			text := checkErrorDetails(t, dp)
			if !strings.Contains(text, tc.want) || strings.Contains(text, "Traceback") != tc.traceback {
				t.Errorf("Error details holds %q, want %q (traceback %v)", text, tc.want, tc.traceback)
			}
			if strings.Contains(status, "no moves here") && !strings.Contains(text, long[:1500]) { // the sandbox clips a message at 2000 characters
				t.Errorf("Error details lacks the script's whole message: %q", text)
			}
			if dp.errTitle != tc.title {
				t.Errorf("Error details is titled %q, want %q", dp.errTitle, tc.title)
			}

			if tc.undo { // the position before the fault: no fault to explain
				test.Tap(dp.undoButton)
				waitDuel(t, dp)
				if !strings.HasPrefix(dp.status.Text, "Your turn") || dp.errorButton.Visible() || len(dp.legalButtons()) != 3 {
					t.Fatalf("after Undo: status %q, error details shown %v, %d moves", dp.status.Text, dp.errorButton.Visible(), len(dp.legalButtons()))
				}
			}

			// a game that loads hides Error details
			dp.sandbox = sandbox.SandboxOptions{}
			dp.game.SetSelected("tic-tac-toe")
			waitDuel(t, dp)
			if dp.title.Text != "Tic-Tac-Toe" || !strings.HasPrefix(dp.status.Text, "Your turn") || dp.errorButton.Visible() {
				t.Fatalf("after choosing a game: title %q, status %q, error details shown %v",
					dp.title.Text, dp.status.Text, dp.errorButton.Visible())
			}
		})
	}
}

func tapFirstMove(t *testing.T, dp *duelPanel) {
	t.Helper()
	moves := dp.legalButtons()
	if len(moves) == 0 {
		t.Fatalf("no move to play: status %q", dp.status.Text)
	}
	test.Tap(moves[0])
	waitDuel(t, dp)
}

// TestDuelTabMatchFaultShowsAnExcerpt: a match whose games fault shows the fault in its status
// as an excerpt (never a traceback or a script's whole output); Error details holds every
// fault the match recorded, with where it happened.
func TestDuelTabMatchFaultShowsAnExcerpt(t *testing.T) {
	long := strings.Repeat("y", 5000)
	dp := newDuelTestPanel(t)
	dp.Agent.SetText("random")
	dp.loadGame(writeScript(t, "cracks.star", faultIn("apply", "s, a", `if s["n"] >= 2: fail("the board cracks: `+long+`")`)))
	waitDuel(t, dp)
	dp.match.matchAgent.SetText("random")
	dp.match.matchGames.SetText("2")
	test.Tap(dp.match.matchButton)
	waitDuel(t, dp)
	status := dp.match.matchStatus.Text
	if !strings.Contains(status, "Fault: ") || !strings.Contains(status, "the board cracks") || !strings.Contains(status, "Done.") {
		t.Fatalf("match status %q: want its fault", status)
	}
	if strings.Contains(status, "Traceback") || strings.Contains(status, long[:maxExcerpt+1]) {
		t.Errorf("the match status is not an excerpt: %q", status)
	}
	// the match record keeps each fault as the core clipped it, its traceback included
	text := checkErrorDetails(t, dp)
	if want := strings.Join(dp.matchRecord().Faults, "\n\n"); text != want || !strings.Contains(text, "in apply") {
		t.Errorf("Error details holds %q, want the match's faults %q", text, want)
	}
	if dp.errTitle != "Games of the match faulted" {
		t.Errorf("Error details is titled %q", dp.errTitle)
	}
}
