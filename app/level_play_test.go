package app

import (
	"errors"
	"strings"
	"testing"

	"pcgwb/games/play"
	"pcgwb/problems"
)

// zeldaRoom is a 7×11 zelda-v0 room: floor, the player at the top left, the key at the top
// right and the door at the bottom right; walled, a wall column cuts the player off.
func zeldaRoom(t *testing.T, p problems.Problem, walled bool) problems.Content {
	t.Helper()
	rows := make([]any, 7)
	for y := range rows {
		row := make([]any, 11)
		for x := range row {
			row[x] = 1
			if walled && x == 2 {
				row[x] = 0
			}
		}
		rows[y] = row
	}
	rows[0].([]any)[0], rows[0].([]any)[10], rows[6].([]any)[10] = 2, 3, 4
	c, err := p.ContentSpace().Normalize(rows, "content")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The detail view's Watch waits for the solution lookup, then is enabled, or stays disabled
// with the reason when the level has no recorded solution.
func TestDetailWatchNeedsASolution(t *testing.T) {
	wb := newTestWorkbench(t, Options{Problem: "zelda-v0"})
	p, err := problems.Make("zelda-v0")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		walled  bool
		enabled bool
		note    string
	}{
		{"solvable", false, true, ""},
		{"cut off", true, false, "no recorded solution"},
		{"no key", false, false, "it has no key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			room := zeldaRoom(t, p, tc.walled)
			if tc.name == "no key" {
				room.([]any)[0].([]any)[10] = 1
			}
			dv := wb.showDetail("zelda-v0", p, newMember(0, problems.Scored{Content: room}), nil)
			defer dv.dialog.Hide()
			if dv.watchButton == nil || !dv.watchButton.Disabled() {
				t.Fatal("Watch is not disabled while the solution is looked up")
			}
			if !dv.watchPlayButton.Disabled() {
				t.Fatal("Watch my play is enabled before any play")
			}
			eventually(t, "the solution lookup", func() bool { return !strings.Contains(dv.watchNote.Text, "looking") })
			if dv.watchButton.Disabled() == tc.enabled || !strings.Contains(dv.watchNote.Text, tc.note) {
				t.Fatalf("Watch disabled %v, note %q; want enabled %v and %q", dv.watchButton.Disabled(), dv.watchNote.Text, tc.enabled, tc.note)
			}
		})
	}
}

func TestPlayStatus(t *testing.T) {
	won := &play.Outcome{Result: play.ResultWon, Seconds: 3.25, Moves: 12}
	for _, tc := range []struct {
		replay bool
		o      *play.Outcome
		err    error
		want   string
	}{
		{false, nil, errors.New("no display"), "The play window failed."},
		{false, nil, &play.UnplayableError{Reason: "it has no key"}, "Not played: this level cannot be played: it has no key."},
		{false, nil, nil, "The play window closed."},
		{false, won, nil, "Played: won in 3.2 s, 12 moves."},
		{true, won, nil, "Watched: won in 3.2 s, 12 moves."},
	} {
		if got := playStatus(tc.replay, tc.o, tc.err); got != tc.want || strings.Contains(got, "Opening") {
			t.Errorf("playStatus(%v, %v, %v) = %q, want %q", tc.replay, tc.o, tc.err, got, tc.want)
		}
	}
}

// Play on a level that cannot be played says what is wrong with it and opens no play window,
// so no play is scored.
func TestPlayRefusesAnUnplayableLevel(t *testing.T) {
	wb := newTestWorkbench(t, Options{Problem: "zelda-v0"})
	p, err := problems.Make("zelda-v0")
	if err != nil {
		t.Fatal(err)
	}
	launched := fakeLaunch(t, &play.Outcome{Result: play.ResultWon})
	room := zeldaRoom(t, p, false)
	room.([]any)[0].([]any)[10] = 1 // no key
	wb.playLevel("zelda-v0", problems.Item{Content: room}, false, nil)
	await(t, jobsOf(wb))
	if len(*launched) != 0 {
		t.Fatal("an unplayable level was opened in the play window")
	}
	if got := wb.statusBar.Text; !strings.Contains(got, "Not played") || !strings.Contains(got, "no key") {
		t.Fatalf("status %q does not say what is wrong", got)
	}
	wb.playLevel("zelda-v0", problems.Item{Content: zeldaRoom(t, p, false)}, false, nil)
	await(t, jobsOf(wb))
	if len(*launched) != 1 {
		t.Fatal("a playable level was not opened")
	}
}
