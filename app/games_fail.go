package app

import (
	"slices"
	"strings"

	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// A load that ends without a game (Stop pressed meanwhile, or a failure of its own: the script
// does not parse, is refused, runs out of its budget, or its sandbox worker dies) leaves the tab
// with no game open, never the game shown before: the person must not go on playing a game
// that is not the one they chose. Both ways go through noGame.

// loadError is a load job's failure: the game could not be opened, or its first position not
// made.
type loadError struct {
	name string // the game as the status names it
	err  error
}

func (e *loadError) Error() string { return "Cannot load " + e.name + ": " + e.err.Error() }

func (e *loadError) Unwrap() error { return e.err }

// maxExcerpt is how many characters of an error the status shows (Error details has all).
const maxExcerpt = 200

// failedLoad shows that a load failed: no game open, the error's excerpt in the status and its
// whole text behind Error details.
func (dp *duelPanel) failedLoad(e *loadError) {
	dp.noGame("⚠ Cannot load " + e.name + ": " + errorExcerpt(e.err.Error()) +
		"\nNo game is open: choose a game. (Error details… shows the whole message.)")
	dp.offerError("The game did not load", e.Error())
}

// A fault while a game is played (a script's render, legal_actions, apply or outcome, the
// agent's move, a CPU budget, a sandbox worker that dies) shows as a failed load does: its
// excerpt in the status, its whole text behind Error details. Where the position shown lets
// the game go on (the person's turn, or the game over, with only the board's render or the
// moves' labels failed), the status keeps its usual line under the excerpt; where it does not
// (the agent cannot move, the turn cannot be worked out) the status says so; and when no
// position is left (a new game's initial_state failed, or the replay of the moves on a fresh
// worker did), no game is open (lostGame), as after a failed load.

// playFault is what failed in computing or reaching a position.
type playFault struct {
	title   string // Error details' title: what failed
	text    string // the whole text of each distinct fault
	excerpt string // what the status shows of them
}

// setPlayFault puts faults into v: the status shows their excerpt (and, when the game cannot
// go on from the position, that it cannot), Error details their whole text.
func setPlayFault(v *duelView, faults []string, stuck bool) {
	// a worker that died answers the later calls with the fault that ended it: say it once
	var distinct, excerpts []string
	for _, f := range faults {
		if !slices.Contains(distinct, f) {
			distinct, excerpts = append(distinct, f), append(excerpts, errorExcerpt(f))
		}
	}
	excerpt := strings.Join(excerpts, "; ")
	v.fault = &playFault{title: "A call into the game's script failed", text: strings.Join(distinct, "\n\n"), excerpt: excerpt}
	if !stuck {
		v.status = strings.TrimSpace("⚠ " + excerpt + "\n" + v.status)
		return
	}
	v.fault.title = "The game stopped"
	next := "Undo, New game or choose a game"
	if v.ply == 0 {
		next = "New game or choose a game"
	}
	v.status = "⚠ The game stopped: " + excerpt + "\nIt cannot go on from this position: " + next +
		". (Error details… shows the whole message.)"
}

// lostGame shows that a game stopped with no position left: no game open, as after a failed
// load.
func (dp *duelPanel) lostGame(f *playFault) {
	dp.noGame("⚠ The game stopped: " + f.excerpt + "\nNo game is open: choose a game. (Error details… shows the whole message.)")
	dp.offerError(f.title, f.text)
}

// offerError shows Error details for the fault whose excerpt the status shows; the button
// hides when the status moves on (setBusy, or a position shown without a fault).
func (dp *duelPanel) offerError(title, text string) {
	dp.errTitle, dp.lastErr = title, text
	dp.errorButton.Show()
}

// noGame shows that no game is open after a load that ended without one (Stop, or a failure),
// with status saying why: the game shown before is cleared (the load may already have closed
// it, and its board must not pass for the new game's), and the core's games are closed (their
// sandbox workers given back) so that New game cannot start either half.
func (dp *duelPanel) noGame(status string) {
	dp.busy = false
	dp.closeCore()
	dp.view, dp.shown, dp.source = nil, nil, ""
	dp.game.ClearSelected()
	dp.game.PlaceHolder = "(choose a game)"
	dp.game.Refresh()
	dp.title.SetText("No game open.")
	dp.rules.SetText("")
	dp.board.SetText("")
	dp.board.Show()
	dp.grid.Objects = nil
	dp.grid.Refresh()
	dp.log.SetText("")
	dp.seed.SetText("")
	dp.marks = nil
	dp.moveView = moveView{labels: map[int]string{}}
	dp.moveButtons = nil
	dp.moves.Objects = nil
	dp.moves.Refresh()
	dp.newGameButton.Disable()
	dp.undoButton.Disable()
	dp.stopButton.Disable()
	dp.status.SetText(status)
}

// errorExcerpt is what the status shows of an error's text: of a Starlark traceback, what
// precedes it (the fault's kind and function) and its last line (what went wrong), else the
// first line; at most maxExcerpt characters, " …" marking that some were left out.
func errorExcerpt(msg string) string {
	s := strings.TrimSpace(msg)
	cut := false
	if head, tb, ok := strings.Cut(s, "Traceback (most recent call last):"); ok {
		lines := strings.Split(strings.TrimSpace(tb), "\n")
		s = head + strings.TrimPrefix(strings.TrimSpace(lines[len(lines)-1]), "Error: ")
		cut = true // the frames
	}
	if first, _, more := strings.Cut(s, "\n"); more {
		s, cut = first, true
	}
	if r := []rune(s); len(r) > maxExcerpt {
		s, cut = string(r[:maxExcerpt]), true
	}
	if cut {
		s += " …"
	}
	return s
}

// buildErrorButton makes Error details (hidden until a load fails or a game stops).
func (dp *duelPanel) buildErrorButton() {
	dp.errorButton = widget.NewButtonWithIcon("Error details…", theme.ErrorIcon(), func() { dp.showError() })
	dp.errorButton.Importance = widget.DangerImportance
	dp.errorButton.Hide()
}

// showError opens the whole text of the error the status shows an excerpt of (a failed load, a
// fault during play), selectable, with a Copy button; it returns the dialog and the text's
// entry.
func (dp *duelPanel) showError() (*dialog.CustomDialog, *widget.Entry) {
	return dp.wb.showErrorDetails(dp.errTitle, dp.lastErr)
}
