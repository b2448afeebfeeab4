package app

import (
	"context"
	"path/filepath"
	"testing"

	"pcgwb/games/play"
	"pcgwb/games/playtest"
)

// Start kiosk… opens the kiosk for a participant (here a fake that records one play) and then
// shows the session with its report recomputed.
func TestPeopleStartKiosk(t *testing.T) {
	wb := newTestWorkbench(t)
	a, _ := peopleSession(t, t.TempDir())
	ps := wb.compare.people
	ps.Clear()
	if ps.kioskButton == nil || ps.kioskButton.Disabled() {
		t.Fatal("no Start kiosk… button")
	}
	n, err := playtest.NextParticipant(a)
	if err != nil || n != 2 {
		t.Fatalf("next participant %d, %v; want 2 (P01 has records)", n, err)
	}
	var got []string
	old := launchKiosk
	launchKiosk = func(_ context.Context, dir string, n int) error {
		got = append(got, dir, playtest.ParticipantCode(n))
		key, err := playtest.LoadKey(dir)
		if err != nil {
			return err
		}
		return playtest.SaveRecord(filepath.Join(dir, playtest.KioskDir), playtest.Record{Participant: playtest.ParticipantCode(n),
			Level: key.Levels[0].Name, Position: 1, Outcome: play.Outcome{Problem: key.Levels[0].Problem, Result: play.ResultWon, Seconds: 3}})
	}
	t.Cleanup(func() { launchKiosk = old })
	ps.startKiosk(a, n)
	await(t, ps.wait)
	await(t, ps.wait)
	if len(got) != 2 || got[0] != a || got[1] != "P02" {
		t.Fatalf("kiosk launched with %q", got)
	}
	if ps.report == nil || ps.report.Plays != 7 || len(ps.Folders()) != 1 {
		t.Fatalf("after the kiosk: report %+v, folders %v (status %q)", ps.report, ps.Folders(), ps.status.Text)
	}
}
