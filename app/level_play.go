package app

import (
	"context"
	"errors"
	"fmt"

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
func (dv *detailView) addPlay(wb *Workbench, name string, p problems.Problem, buttons *fyne.Container) {
	launch := func(replay bool) func() {
		return func() {
			wb.playLevel(name, dv.member.Item(), replay, func(o *play.Outcome) {
				if !replay {
					dv.outcome.SetText("Last play: " + o.Text())
					dv.lastPlay = o
					dv.watchPlayButton.Enable()
				}
			})
		}
	}
	dv.playButton = widget.NewButtonWithIcon("Play", theme.MediaPlayIcon(), launch(false))
	dv.watchButton = widget.NewButtonWithIcon("Watch", theme.VisibilityIcon(), launch(true))
	dv.watchButton.Disable()
	dv.watchNote.SetText("looking for a recorded solution…")
	content := dv.member.Content
	dv.watchCheck.Go(func(ctx context.Context) func() {
		ok, why := play.HasSolution(name, p, content)
		return func() {
			if ok {
				dv.watchButton.Enable()
				dv.watchNote.SetText("")
				return
			}
			dv.watchNote.SetText("Watch: " + why)
		}
	})
	dv.watchPlayButton = widget.NewButtonWithIcon("Watch my play", theme.MediaReplayIcon(), func() {
		if dv.lastPlay == nil {
			return
		}
		rec, item := dv.lastPlay, dv.member.Item()
		wb.notify("Opening the play window…")
		wb.ui.goJob(func() {
			o, err := WatchRecorded(context.Background(), name, item, rec)
			wb.ui.onUI(func() {
				wb.notify(playStatus(true, o, err))
				if err != nil {
					dialog.ShowError(err, wb.Window)
				}
			})
		})
	})
	dv.watchPlayButton.Disable()
	buttons.Add(dv.playButton)
	buttons.Add(dv.watchButton)
	buttons.Add(dv.watchPlayButton)
}

// playLevel opens the play window on a level of the problem registered as name, from anywhere
// in the GUI (the detail view; the Editor's Play button calls it with the edited level): Play,
// or Watch with replay. The status bar says when the window opens and again when it closes,
// with the outcome or the failure, so it never stays on "Opening the play window…". onOutcome
// (may be nil) gets the outcome on the UI goroutine.
func (wb *Workbench) playLevel(name string, item problems.Item, replay bool, onOutcome func(*play.Outcome)) {
	if !CanPlay(name) {
		wb.notify(name + " has no play view.")
		return
	}
	wb.notify("Opening the play window…")
	wb.ui.goJob(func() {
		var o *play.Outcome
		err := unplayable(name, item)
		if err == nil {
			o, err = launchPlay(context.Background(), name, item, replay, wb.opts.PlayArgs...)
		}
		wb.ui.onUI(func() {
			wb.notify(playStatus(replay, o, err))
			if wb.opts.OnPlayed != nil {
				wb.opts.OnPlayed(o, err)
			}
			if err != nil {
				dialog.ShowError(err, wb.Window)
				return
			}
			if o != nil && onOutcome != nil {
				onOutcome(o)
			}
		})
	})
}

// unplayable is play.Unplayable for a level of the problem registered as name: a level that
// cannot be played is said to be so instead of being opened and scored as a play.
func unplayable(name string, item problems.Item) error {
	p, err := problems.Make(name)
	if err != nil {
		return err
	}
	return play.Unplayable(name, p, item.Content)
}

// launchPlay is LaunchPlay; tests replace it to play without a window.
var launchPlay = LaunchPlay

// playStatus is the status line once a play window closed.
func playStatus(replay bool, o *play.Outcome, err error) string {
	switch {
	case errors.Is(err, play.ErrUnplayable):
		return "Not played: " + err.Error() + "."
	case err != nil:
		return "The play window failed."
	case o == nil:
		return "The play window closed."
	case replay:
		return "Watched: " + o.Text() + "."
	}
	return "Played: " + o.Text() + "."
}

// exportLevelDialog asks for a folder and writes one level there as text and a Tiled map.
func (wb *Workbench) exportLevelDialog(name string, p problems.Problem, m member) {
	wb.pickFolder("Export the level into a folder", "Export here", wb.prefs().outputDir(), func(dir string) {
		files, err := exportLevels(dir, fmt.Sprintf("%s-%d", name, m.index+1), name, p, []member{m})
		if err != nil {
			dialog.ShowError(err, wb.Window)
			return
		}
		wb.notify(fmt.Sprintf("Wrote %d files to %s", len(files), dir))
	})
}
