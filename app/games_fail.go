package app

import (
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
func (dp *DuelPanel) failedLoad(e *loadError) {
	dp.lastErr = e.Error()
	dp.noGame("⚠ Cannot load " + e.name + ": " + errorExcerpt(e.err.Error()) +
		"\nNo game is open: choose a game. (Error details… shows the whole message.)")
	dp.ErrorButton.Show()
}

// noGame shows that no game is open after a load that ended without one (Stop, or a failure),
// with status saying why: the game shown before is cleared (the load may already have closed
// it, and its board must not pass for the new game's), and the core's games are closed (their
// sandbox workers given back) so that New game cannot start either half.
func (dp *DuelPanel) noGame(status string) {
	dp.busy = false
	dp.closeCore()
	dp.view, dp.shown, dp.source = nil, nil, ""
	dp.Game.ClearSelected()
	dp.Game.PlaceHolder = "(choose a game)"
	dp.Game.Refresh()
	dp.Title.SetText("No game open.")
	dp.Rules.SetText("")
	dp.Board.SetText("")
	dp.Board.Show()
	dp.grid.Objects = nil
	dp.grid.Refresh()
	dp.Log.SetText("")
	dp.moveView = moveView{labels: map[int]string{}}
	dp.MoveButtons = nil
	dp.moves.Objects = nil
	dp.moves.Refresh()
	dp.NewGameButton.Disable()
	dp.UndoButton.Disable()
	dp.StopButton.Disable()
	dp.Status.SetText(status)
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

// buildErrorButton makes Error details (hidden until a load fails).
func (dp *DuelPanel) buildErrorButton() {
	dp.ErrorButton = widget.NewButtonWithIcon("Error details…", theme.ErrorIcon(), func() { dp.ShowError() })
	dp.ErrorButton.Importance = widget.DangerImportance
	dp.ErrorButton.Hide()
}

// ShowError opens the last failed load's whole error text, selectable, with a Copy button; it
// returns the dialog and the text's entry.
func (dp *DuelPanel) ShowError() (*dialog.CustomDialog, *widget.Entry) {
	return dp.wb.showErrorDetails("The game did not load", dp.lastErr)
}
