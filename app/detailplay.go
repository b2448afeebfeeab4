package app

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/games/play"
	"pcgwb/problems"
)

// addPlay adds Play and Watch to a detail view. Watch starts disabled while the level's
// recorded solution is looked up, and stays disabled with the reason when there is none. Both
// set the status bar when the window opens and again when it closes (with the outcome or the
// failure), so it never stays on "Opening the play window…".
func (dv *DetailView) addPlay(wb *Workbench, name string, p problems.Problem, buttons *fyne.Container) {
	launch := func(replay bool) func() {
		return func() {
			item := dv.Member.Item()
			wb.notify("Opening the play window…")
			goJob(func() {
				o, err := LaunchPlay(context.Background(), name, item, replay)
				onUI(func() { dv.showOutcome(wb, replay, o, err) })
			})
		}
	}
	dv.PlayButton = widget.NewButtonWithIcon("Play", theme.MediaPlayIcon(), launch(false))
	dv.WatchButton = widget.NewButtonWithIcon("Watch", theme.VisibilityIcon(), launch(true))
	dv.WatchButton.Disable()
	dv.WatchNote.SetText("looking for a recorded solution…")
	content := dv.Member.Content
	dv.watchCheck.Go(func(ctx context.Context) func() {
		ok, why := play.HasSolution(name, p, content)
		return func() {
			if ok {
				dv.WatchButton.Enable()
				dv.WatchNote.SetText("")
				return
			}
			dv.WatchNote.SetText("Watch: " + why)
		}
	})
	buttons.Add(dv.PlayButton)
	buttons.Add(dv.WatchButton)
}

// showOutcome reports a closed play window: its outcome in the view and the status bar, or
// its failure.
func (dv *DetailView) showOutcome(wb *Workbench, replay bool, o *play.Outcome, err error) {
	switch {
	case err != nil:
		wb.notify("The play window failed.")
		dialog.ShowError(err, wb.Window)
	case o == nil:
		wb.notify("The play window closed.")
	case replay:
		wb.notify("Watched: " + o.Text() + ".")
	default:
		dv.Outcome.SetText("Last play: " + o.Text())
		wb.notify("Played: " + o.Text() + ".")
	}
}
