package app

import (
	"context"
	"fmt"
	"os"

	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"pcgwb/games/playtest"
)

// launchKiosk opens the kiosk window; tests replace it to play without a window.
var launchKiosk = func(ctx context.Context, dir string, n int) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("cannot find the workbench executable to open the kiosk: %w", err)
	}
	return playtest.LaunchKiosk(ctx, exe, dir, n)
}

// showStartKiosk asks for the session folder (the first one shown by default) and the
// participant, then starts the kiosk.
func (ps *peopleSection) showStartKiosk() {
	start := func(dir string) {
		n, err := playtest.NextParticipant(dir)
		if err != nil {
			dialog.ShowError(err, ps.wb.Window)
			return
		}
		code := widget.NewEntry()
		code.SetText(playtest.ParticipantCode(n))
		items := []*widget.FormItem{
			widget.NewFormItem("", widget.NewLabel("The kiosk fills the screen: the participant plays every level in their\n"+
				"order (a row of the balanced Latin square), with the questions after each.\nEsc between levels takes a break; starting again resumes.")),
			widget.NewFormItem("Session", widget.NewLabel(dir)),
			widget.NewFormItem("Participant", code),
		}
		items[2].HintText = "a code, never a name: the first free one is proposed"
		dialog.ShowForm("Start kiosk", "Start", "Cancel", items, func(ok bool) {
			if !ok {
				return
			}
			n, err := playtest.ParseParticipant(code.Text)
			if err != nil {
				dialog.ShowError(err, ps.wb.Window)
				return
			}
			ps.startKiosk(dir, n)
		}, ps.wb.Window)
	}
	if len(ps.folders) > 0 {
		start(ps.folders[0])
		return
	}
	ps.wb.pickFolder("Choose the playtest session folder", "Choose", ps.wb.prefs().outputDir(), start)
}

// startKiosk opens the kiosk for participant number n on the session folder dir, off the UI
// goroutine; when it closes, the folder is shown (added if needed) with its report recomputed.
func (ps *peopleSection) startKiosk(dir string, n int) {
	ps.status.SetText("Kiosk open for " + playtest.ParticipantCode(n) + "…")
	ps.loading.Add(1)
	ps.wb.ui.goJob(func() {
		defer ps.loading.Done()
		err := launchKiosk(context.Background(), dir, n)
		ps.wb.ui.onUI(func() {
			if err != nil {
				ps.status.SetText("The kiosk failed: " + err.Error())
				dialog.ShowError(err, ps.wb.Window)
				return
			}
			ps.addFolders(dir)
		})
	})
}
